// Pawn structure of CQL-S (seed 000 ":pawncount", CQL-Position-List): the attribute filter
// chain of :pawncount / :pawncountdifference on bitboards.
//
// Squares are numbered a1 = 0 .. h8 = 63; "ahead", "behind" and "rank" are relative to the
// colour of the pawn (White moves towards rank 8). Every function is allocation-free.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "cql/pawn_attributes.h"
#include "cql/range.h"

namespace cql {
struct PawnCountArgs;
}

namespace eval {

/// Applies the structure attributes `filters` (no counting modifiers) to the pawns `set` of
/// colour `c`, left to right: each attribute keeps the pawns of the current set that have the
/// property (or, when negated, lack it), judged against the current set for own pawns and
/// against all of the opponent's pawns on the board. `set` must hold only pawns of `c`.
chess::Bitboard filter_pawns(const chess::Position& pos, chess::Color c, chess::Bitboard set,
                             std::span<const cql::PawnAttribute> filters);

/// True if the pawn of colour `c` on `s` (one of `set`, the current set of the filter
/// chain) passes the attribute `a` (negation applied), judged pawn by pawn: the reference
/// for filter_pawns, which computes most attributes for the whole set at once.
bool pawn_has_attribute(const chess::Position& pos, chess::Color c, chess::Bitboard set,
                        chess::Square s, const cql::PawnAttribute& a);

/// The count of the pawns `set` of colour `c` under the counting modifier `counting`
/// (islands, compounds, files, ranks, lines, bothsides, oneside); without one, the pawns.
int count_pawns(chess::Color c, chess::Bitboard set,
                const std::optional<cql::PawnAttribute>& counting);

/// The first contradiction in an attribute list (e.g. "chained-isolated",
/// "mirrored-unblocked", "forefront-double"), as an error message; nullopt if none.
std::optional<std::string> pawn_attributes_conflict(std::span<const cql::PawnAttribute> attrs);

/// A compiled :pawncount or :pawncountdifference (the designators live in the node).
struct PawnCountSpec {
  std::vector<cql::PawnAttribute> filters;      ///< structure attributes in written order
  std::optional<cql::PawnAttribute> counting;   ///< the trailing counting modifier, if any
  std::vector<cql::Range> ranges;  ///< :pawncount: none (>= 1), one (sum), two (white : black)
  bool difference = false;         ///< :pawncountdifference
  bool swapped = false;            ///< one-designator difference under a colour swap: black - white
  bool reads_kings = false;        ///< some filter ("inside") also reads the kings and the side to move
  /// Nonzero: pawn_count_matches may memoise its answers under this id, unique per spec made
  /// by make_pawn_count_spec (a spec changed after that must set it to 0).
  uint64_t memo_id = 0;
};

/// The count of the pawns of colour `c` on `squares` after the filter chain (run over all of
/// `c`'s pawns, then restricted to `squares`) and the counting modifier; `total` (if given)
/// receives the number of `c`'s pawns on `squares` (the percentage base).
int pawn_count(const PawnCountSpec& spec, const chess::Position& pos, chess::Bitboard squares,
               chess::Color c, int* total);

/// :pawncount: `squares` are the pawns the designator matches in `pos`. The answer depends
/// only on the pawns, `squares` on them and (spec.reads_kings) the kings and the side to
/// move; with spec.memo_id it is memoised per thread under exactly those inputs (a small
/// pawn hash: pawns change only every few plies).
bool pawn_count_matches(const PawnCountSpec& spec, const chess::Position& pos,
                        chess::Bitboard squares);

/// :pawncountdifference with one designator (`second` unused, white minus black, or black
/// minus white when spec.swapped) or two (first minus second). The caller
/// compares the result with the keyword's range.
int pawn_count_difference(const PawnCountSpec& spec, const chess::Position& pos,
                          chess::Bitboard first, std::optional<chess::Bitboard> second);


/// The compiled form of parsed :pawncount / :pawncountdifference arguments: splits off the
/// counting modifier and, when `swap` (a colour-swapping transformation), exchanges the
/// white : black ranges (or, for a one-designator difference, sets `swapped`). The
/// difference's range stays in the node. Throws nothing; see pawn_attributes_conflict.
PawnCountSpec make_pawn_count_spec(const cql::PawnCountArgs& args, bool difference, bool swap);


/// :unstoppablepawns (seed 000): the pawns of colour `c` on `squares` that promote by force
/// against a lone king: only when the opponent has nothing but king and pawns (otherwise 0).
/// A pawn counts when no opponent pawn stands ahead on its file or the neighbouring files,
/// the squares up to its promotion square are empty, and the opponent king is outside the
/// pawn's square (rule of the square, the king moving first when its side is to move; a pawn
/// on its start rank may double-step). Which side promotes first is not considered.
int unstoppable_pawns(const chess::Position& pos, chess::Color c, chess::Bitboard squares);


/// :passedpawnrace (seed 000): colour `c` wins the race of passed pawns, by a formal count
/// of moves. Decided only when `c` has a passed pawn and the opponent has nothing but king
/// and pawns (otherwise false). `c`'s fastest unstoppable pawn (as for unstoppable_pawns)
/// needs m moves to promote; the opponent's fastest passed pawn with a free path (outside
/// the square of `c`'s king when `c` too has only king and pawns) needs o moves (none: o is
/// infinite). `c` wins when m < o, or m == o with `c` to move. Other pieces, checks and
/// captures are not considered.
bool wins_passed_pawn_race(const chess::Position& pos, chess::Color c);

}  // namespace eval
