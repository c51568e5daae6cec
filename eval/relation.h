// :relation (CQL-Relation-List, seed 000 `position:relation`): a position list with a
// relation list matches a position P1 when a LATER position P2 of the game relates to P1 as
// the relation list specifies. Like sequences (eval/sequence.h), relations look ahead along a
// line: GameMatcher keeps the whole line (RelationLine), and Node Op::kRelation asks it
// through PosCtx::relation, lazily, only where the rest of its position list matched.
//
// The comparison of P1 with P2 (T = a transformation of P2 allowed by :flip / :shift, the
// identity otherwise; A = the allowable squares, all 64 unless :pattern):
//  - side to move: the same (:samesidetomove, default), the other (:changesidetomove) or
//    any (:ignoresidetomove);
//  - on no square of A do P1 and T(P2) hold two different pieces;
//  - missing pieces (on A, a piece in P1, empty in T(P2)): every one matches the
//    :missingpiececount designator and their number lies in its range (default U, 0);
//  - new pieces (on A, empty in P1, a piece in T(P2)): likewise with :newpiececount;
//  - :originaldifferentcount r: the squares of A whose content differs between P1 and the
//    untransformed P2, in r; :originalsamecount r: the non-empty squares of A with the same
//    piece in P1 and the untransformed P2, in r ("original" = P2 before the transformation,
//    which is what the reference's shifted-pattern example needs).
// The count designators are not transformed (reference); their squares are P1's squares
// (for new pieces: the squares of T(P2), i.e. P1's frame).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "chess/position.h"
#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"

namespace eval {

/// One compiled relation list (one per transformation of the enclosing position list).
struct RelationSpec {
  enum class Side : uint8_t { kSame, kChange, kIgnore };
  Side side = Side::kSame;
  Designator missing{cql::piece_mask::kAnyPiece};  ///< :missingpiececount designator (U)
  IntRange missing_range{0, 0};                    ///< its range (default 0)
  Designator added{cql::piece_mask::kAnyPiece};    ///< :newpiececount designator (U)
  IntRange added_range{0, 0};                      ///< its range (default 0)
  std::optional<IntRange> original_different;      ///< :originaldifferentcount
  std::optional<IntRange> original_same;           ///< :originalsamecount
  chess::Bitboard allowable = ~chess::Bitboard(0);  ///< squares compared (:pattern)
  bool flip = false;   ///< P2 may be transformed by any of the 8 board symmetries
  bool shift = false;  ///< P2 may be translated (pieces leaving the board are dropped)
  LineScope scope = LineScope::kMainLine;  ///< where P2 is searched (:variations ...)
};

/// Compiles the relation list `rel` of a `:relation` item (CQL-Relation-List keywords).
/// `pattern` = the squares of the enclosing position list's top-level designators, already
/// transformed (the allowable squares of :pattern); `range` resolves a range of keyword
/// `item` (compile.cpp's rules). Count designators are not transformed. Throws CompileError
/// for a tagged designator and for a keyword a relation list cannot hold.
RelationSpec compile_relation(const cql::List& rel, chess::Bitboard pattern,
                              IntRange (*range)(const cql::Range&, const cql::KeywordItem& item));

/// A position as the relation compares it: per square 0 (empty) or 1 + the piece's bit index
/// in the cql/pieces.h mask layout (K=1 .. p=12), with bit 0x80 set for a promoted piece.
struct RelationBoard {
  std::array<uint8_t, 64> sq{};
  chess::Bitboard occupied = 0;  ///< the squares holding a piece
  chess::Color side = chess::WHITE;
  uint32_t ply = 0;         ///< plies from the game start
  uint32_t branch_ply = 0;  ///< variation positions: ply where their variation branches off
};

/// The board of `pos` (`promoted` = squares holding promoted pieces).
RelationBoard relation_board(const chess::Position& pos, chess::Bitboard promoted, uint32_t ply);

/// True if P2 relates to P1 as `spec` says (the conditions in the header comment).
bool relates(const RelationSpec& spec, const RelationBoard& p1, const RelationBoard& p2);

/// A relation that admits no missing and no new piece (both ranges end at 0) and no shift
/// needs P1 and some symmetric image of P2 to hold the same piece kind on every allowable
/// square: such a relation is decided through position keys (issue 21). `exact_image` is
/// true for it.
bool exact_image(const RelationSpec& spec);

/// The key of the allowable squares of `b` seen through the symmetry `d` (the piece on x
/// stands on apply(d, x); promotion marks ignored), with the side to move `side` mixed in
/// unless `spec.side` is kIgnore. Equal images give equal keys; exact_image() relations
/// compare keys first and confirm each candidate with relates().
uint64_t image_key(const RelationSpec& spec, const RelationBoard& b, int d, chess::Color side);

/// The relations of one line, decided lazily: Node Op::kRelation asks at(id, index) only
/// where the rest of its list already matched, and each answer is kept for the line. One per
/// GameMatcher line (main line, variation); reset() before the line is evaluated.
/// exact_image() relations are decided for the whole line on the relation's first at(): its
/// positions are grouped into classes that relates() cannot tell apart, the P1 keys of the
/// classes are sorted once and every image of every class is looked up among them
/// (candidates confirmed by relates() once per pair of classes), instead of comparing each
/// P1 with every later position.
class RelationLine {
 public:
  /// Prepares `line` (contexts of its positions in ply order) for the relations `specs`;
  /// `variation_boards` are the P2 candidates of relation:variations (they must outlive
  /// the line's evaluation).
  void reset(const std::vector<std::shared_ptr<const RelationSpec>>& specs,
             std::span<const PosCtx> line, std::span<const RelationBoard> variation_boards);

  /// True if relation `id` holds at the line's position `index` (= ply - line_first_ply):
  /// some P2 relates to it, P2 being a later position of the line (unless the relation is
  /// kVariationsOnly and the line is the main line) or, when the relation admits
  /// variations, a variation position after P1 whose variation branches off at or after
  /// P1's ply.
  bool at(size_t id, size_t index);

 private:
  const std::vector<std::shared_ptr<const RelationSpec>>* specs_ = nullptr;
  std::span<const PosCtx> line_;                   ///< the line's positions (reset())
  std::vector<RelationBoard> boards_;              ///< their boards, built when first needed
  std::vector<uint8_t> board_built_;               ///< per position: boards_ entry is built
  /// The board of the line's position `index`, built on first use.
  const RelationBoard& board(size_t index);
  std::span<const RelationBoard> variation_boards_;
  std::vector<std::vector<int8_t>> memo_;          ///< per id x index: -1 unknown, 0, 1
  bool main_line_ = true;
  /// exact_image() relations: per id, (P1 key, line index) of the line's positions, sorted;
  /// built on the id's first at(), which also memoises every P1 a later position relates to.
  struct KeyedImage {
    uint64_t key;
    uint32_t index;
    auto operator<=>(const KeyedImage&) const = default;
  };
  std::vector<KeyedImage> class_keys_;  ///< scratch: (P1 key, class) of one pass, sorted
  std::vector<uint32_t> class_table_;   ///< scratch: hash table of one pass's classes
  std::vector<uint8_t> images_built_;  ///< per id
  /// The P2 candidates of the line for relation `id` and P1 = boards_[index]: true if one relates.
  bool later_relates(size_t id, size_t index);
};

}  // namespace eval
