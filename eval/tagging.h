// Piece marks for tags (CQL-Tagging): every piece of the start position gets a mark (its
// number in a1..h8 order of the occupied squares); a mark follows its piece through the
// moves (castling moves king and rook, an en-passant capture removes the pawn behind the
// target square, a promoted pawn keeps its mark) and disappears when the piece is captured.
// `match:forany name D` binds a tag in turn to each mark whose piece matches D's piece part
// at some position of the main line (squares ignored); GameMatcher runs the position lists
// once per binding (two tags are never bound to the same mark).
#pragma once

#include <array>
#include <memory>
#include <cstdint>
#include <vector>

#include "chess/position.h"
#include "eval/program.h"

namespace eval {

/// The marks of one position.
struct MarkBoard {
  static constexpr uint8_t kNone = 0xFF;   ///< mark_on: no marked piece on the square
  static constexpr uint8_t kGone = 64;     ///< square_of: the piece was captured
  static constexpr size_t kMaxMarks = 32;  ///< marks beyond this (impossible in chess) are ignored
  std::array<uint8_t, 64> mark_on{};               ///< square -> mark (kNone)
  std::array<uint8_t, kMaxMarks> square_of{};      ///< mark -> square (kGone)
  uint8_t marks = 0;                               ///< number of marks handed out

  /// Marks the pieces of the start position `pos`.
  void reset(const chess::Position& pos);
  /// Moves the marks along with `m`, played in `before` (the position before the move).
  void play(const chess::Position& before, chess::Move m);
  /// The square of mark `mark` as a one-bit set (0 when captured or never handed out).
  chess::Bitboard square_bb(size_t mark) const {
    return mark < marks && square_of[mark] < 64 ? chess::Bitboard(1) << square_of[mark] : 0;
  }
};

/// The marks (bit i = mark i) whose piece matches the piece part of `tag` in `pos`
/// (`promoted` = squares holding promoted pieces).
uint32_t qualifying_marks(const TagSpec& tag, const MarkBoard& marks, const chess::Position& pos,
                          chess::Bitboard promoted);

/// Every binding of the tags: for one tag its qualifying marks, for two tags the ordered
/// pairs of distinct qualifying marks. `qualifying[t]` is the mark set of tag t.
std::vector<std::array<uint8_t, 2>> tag_bindings(const std::vector<uint32_t>& qualifying);

/// The relaxed lists of GameMatcher's tag pre-pass (issue 21), or none when `program` does
/// not admit it. It does when it has one colour alternative whose top-level lists are plain
/// (main line, not negated, no :cut/:exclude, counted by a plain MatchCount), with no
/// sequences, relations, accumulators or variations, and every node with a tagged
/// designator is a non-negated designator, :check or :attackcount without sub-lists. The
/// relaxed lists are copies of the top-level lists with the upper bound of each tagged
/// :attackcount removed. Evaluated with each tag standing for every piece it may be bound
/// to at once (the union of the squares of its qualifying marks), a relaxed list matches at
/// every position where the list matches under some binding (its nodes only grow with the
/// tag squares), so its count is at least any binding's count: a binding need only be
/// evaluated where some relaxed list matched, and none when a relaxed count stays below its
/// MatchCount's lower bound.
std::vector<std::shared_ptr<const PositionList>> relaxed_tag_lists(const Program& program);

/// The union of the squares of the marks in `marks` (bit i = mark i) at one ply
/// (`square_of` = mark -> square, MarkBoard::kGone when captured).
chess::Bitboard marks_squares(uint32_t marks, const std::array<uint8_t, MarkBoard::kMaxMarks>& square_of);

}  // namespace eval
