// Piece-structure keywords of CQL-S (seed 000, CQL-Position-List): :goodbishop and
// :opposition. Squares are numbered a1 = 0 .. h8 = 63.
#pragma once

#include "chess/position.h"
#include "chess/types.h"
#include "cql/range.h"

namespace eval {

/// :goodbishop for the bishop on `s`: the opponent's pawns on squares of the bishop's colour
/// lie in `opponents` (count, or percentage of all opponent pawns), and the own pawns on
/// squares of the other colour (not blocking the bishop) lie in `own` (count, or percentage
/// of all own pawns). A percentage never matches when the side has no pawns.
bool good_bishop(const chess::Position& pos, chess::Square s, const cql::Range& opponents,
                 const cql::Range& own);

/// :opposition: the king of colour `c` has the opposition, by the formal parity rule: with
/// both the file distance and the rank distance of the kings even, the side not to move
/// has it; otherwise the side to move has it (it can take it). Other pieces are ignored.
bool has_opposition(const chess::Position& pos, chess::Color c);

/// :perpendicular: some line piece (queen, rook, bishop) on `first` and another on `second`
/// have empty-board move lines that cross at right angles on a square other than their own
/// (a rank line with a file line, a diagonal with an anti-diagonal). Other pieces never
/// qualify; two rooks on one file do not (their crossings are their own squares).
bool perpendicular(const chess::Position& pos, chess::Bitboard first, chess::Bitboard second);

}  // namespace eval
