// Piece marks for tags (CQL-Tagging): every piece of the start position gets a mark (its
// number in a1..h8 order of the occupied squares); a mark follows its piece through the
// moves (castling moves king and rook, an en-passant capture removes the pawn behind the
// target square, a promoted pawn keeps its mark) and disappears when the piece is captured.
// `match:forany name D` binds a tag in turn to each mark whose piece matches D's piece part
// at some position of the main line (squares ignored); GameMatcher runs the position lists
// once per binding (two tags are never bound to the same mark).
#pragma once

#include <array>
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

}  // namespace eval
