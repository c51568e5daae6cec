// Static exchange evaluation for the CQL-S analysis keywords `:exchangeevaluation` and
// `:maxswapevaluation` (reference/scidb-help-en/CQL-Position-List.txt and seed 000,
// "Analysis keywords"; SPEC "Analysis keywords": pawn units, power values Q9 R5 B3 N3 P1,
// honouring pins).
//
// The exchange on a square: after the move under test, the two sides alternately capture on
// the move's destination square with their least valuable piece that may legally capture
// there; each side may stop instead of capturing (the move under test itself is forced). The
// value is the material the side making the move wins, in pawn units (negative = loses).
//
// What "legally" means here, exactly:
// - a capture may not leave the capturer's own king attacked (so an absolutely pinned piece
//   captures only along its pin line, and a capture that ignores a check is not made);
// - the king may capture only when no enemy piece attacks the square after it took (so it
//   can only be the last capturer and is never captured);
// - attackers hidden behind pieces that have already captured join in (x-rays: doubled
//   rooks, queen behind rook or bishop, bishop or queen behind a capturing pawn);
// - a pawn capturing onto its last rank promotes to a queen (+8); the move under test uses its
//   own promotion piece.
// The capturers are taken in the usual SEE order, least valuable first (the king last), so
// an exchange in which another order is better is misjudged: in ~1 of 25,000 captures of the
// players corpus a defender should recapture with a more valuable piece (or the king) to
// keep a line blocked. Everything is computed with bitboards on the unchanged position: no
// allocation, no copies.
#pragma once

#include <climits>
#include <optional>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "chess/types.h"

namespace eval {

/// One move whose exchange value is asked: a piece moves from `from` to `to` (squares 0..63,
/// a1 = 0), capturing the piece on `victim` if any. The mover's colour is the colour of the
/// piece on `from`, whichever side is to move.
struct ExchangeMove {
  chess::Square from = chess::SQ_NONE;
  chess::Square to = chess::SQ_NONE;
  chess::Square victim = chess::SQ_NONE;  ///< captured piece's square: `to`, the pawn's square
                                          ///< for en passant, SQ_NONE for a non-capture
  chess::PieceType promotion = chess::NO_PIECE_TYPE;  ///< piece a pawn becomes, if it promotes
};

/// Longest exchange sequence looked at, in plies: a capture on one square by each of the 30
/// pieces that are not kings, plus the two kings.
inline constexpr int kMaxExchangePlies = 32;

/// The ExchangeMove of `m`, a legal move of `pos` (not castling, not a null move).
ExchangeMove exchange_move(const chess::Position& pos, chess::Move m);

/// The static exchange value of `m` in pawn units, for the side of the piece on `m.from`:
/// material won by the move and the best-play capture sequence on `m.to` that follows, at
/// most `max_plies` captures long counting the move itself (`max_plies` <= 0 = unlimited, 1 =
/// only the move: the captured piece's power plus any promotion gain).
/// Preconditions: `m` is a legal move for its side as if that side were to move.
int static_exchange(const chess::Position& pos, const ExchangeMove& m, int max_plies = 0);

/// True if moving the piece on `from` to `to` (capturing on `victim`, see ExchangeMove) does
/// not leave that piece's king attacked; `from` holds a piece and the move is pseudo-legal.
bool exchange_move_is_legal(const chess::Position& pos, const ExchangeMove& m);

/// :exchangeevaluation (seed 000): the exchange value of the next move `next` when it is a
/// capture (en passant included) whose captured piece stands on a square of `victims`; at
/// most `max_plies` plies deep (<= 0: unlimited). nullopt when `next` is no move, a null move,
/// castling, not a capture, or captures elsewhere.
std::optional<int> next_move_exchange(const chess::Position& pos, chess::Move next,
                                      chess::Bitboard victims, int max_plies);

/// :maxswapevaluation (seed 000): the highest exchange value over the moves of the pieces on
/// `movers` (either colour, whichever side is to move: "the value does not depend on the side
/// to move") to squares of `targets`, each move legal for its side as if that side were to
/// move. En passant only for the side to move; castling is not considered (it never changes
/// material). nullopt when there is no such move. With `enough` (for a range without upper
/// bound), only whether some value reaches `enough` is answered: a value >= `enough` if
/// there is one (the first found, not necessarily the maximum); otherwise, for `enough` >= 2,
/// nullopt, for `enough` <= 1 the maximum (or nullopt).
std::optional<int> max_swap_value(const chess::Position& pos, chess::Bitboard movers,
                                  chess::Bitboard targets, int enough = INT_MAX);

}  // namespace eval
