// Per-position board predicates of the position list: check, mate and stalemate, mating
// material, endgame, power and attack counts (seed 004 and CQL-Position-List, sections
// "Simple keywords" and "Piece configuration keywords"). Rays are in ray.h.
//
// All functions are pure, allocation-free and bitboard-based; they run per position in the
// evaluator's hot loop. Positions are legal (chess::Position validates FENs and plays only
// legal moves), so only the side to move can be in check.
//
// A designator argument is passed as the set of squares it matches in the position (bit s =
// square s, a1 = 0): squares_of(pos, mask) & square_set, or matching_squares() below. The
// caller adds any further condition (promoted pieces, tags) to that set.
#pragma once

#include "chess/bitboard.h"
#include "chess/position.h"
#include "chess/types.h"
#include "eval/piece_mask.h"

namespace eval {

/// The squares a designator (piece kinds `mask` on squares `squares`) matches in `pos`.
inline chess::Bitboard matching_squares(const chess::Position& pos, PieceMask mask,
                                        chess::Bitboard squares) {
  return squares_of(pos, mask) & squares;
}

// ---- Check, mate, stalemate --------------------------------------------------------------

/// :check (seed 004) - one side is in check. With CQL-S's optional designator
/// (`:check Q?8`): some checking piece stands on a square of `checker_matches`.
bool is_check(const chess::Position& pos, chess::Bitboard checker_matches = ~chess::Bitboard(0));

/// :doublecheck (CQL-S) - the side to move is checked by two pieces ("attackcount A k 2
/// :flipcolor"). With the optional designator (`:doublecheck [RB]`: a white rook and a
/// white bishop check together): at least two checkers, and (since there are never more
/// than two) both on squares of `checker_matches`.
bool is_double_check(const chess::Position& pos,
                     chess::Bitboard checker_matches = ~chess::Bitboard(0));

/// :contactcheck (CQL-S) - a check no piece could ever be interposed against: a double
/// check, a knight or pawn check, or a check by a piece adjacent to the king (the page's
/// equivalent query: :doublecheck, or [NP] attacking k, or [QR] orthogonally / [QB]
/// diagonally next to k, under :flipcolor :shift). With the optional designator
/// (`:contactcheck Q`): in addition some checking piece stands on a square of
/// `checker_matches` (cqldb reading: "restricts the checking pieces").
bool is_contact_check(const chess::Position& pos,
                      chess::Bitboard checker_matches = ~chess::Bitboard(0));

/// :mate (seed 004) - the side to move is in check and has no legal move.
bool is_mate(const chess::Position& pos);

/// :stalemate (seed 004) - the side to move is not in check and has no legal move.
bool is_stalemate(const chess::Position& pos);

// ---- Material ------------------------------------------------------------------------------

/// :nomatingmaterial / !:matingmaterial (CQL-S, standard chess) - neither player has mating
/// material, by the page's equivalent query: K v K (2 pieces on the board); K and one minor
/// piece v K (3 pieces, one of them a bishop or knight); or 4 pieces of which two are
/// bishops standing on squares of one colour (K+B v K+B, also K+B+B v K, bishops alike).
bool no_mating_material(const chess::Position& pos);

/// :matingmaterial (CQL-S) - either player has mating material: !no_mating_material().
inline bool has_mating_material(const chess::Position& pos) {
  return !no_mating_material(pos);
}

/// :whitecannotwin (c = WHITE) / :blackcannotwin (c = BLACK) (CQL-S, standard chess): the
/// side has only its king, or its king and exactly one bishop or knight.
bool cannot_win(const chess::Position& pos, chess::Color c);

/// :endgame (CQL-S), the page's equivalent query: (a) no queens and each side has at most
/// 3 rooks + bishops + knights; or (b) one queen each, no rooks, each side at most one minor
/// piece; or (c) one side has exactly one queen, no rook and at most one minor piece while
/// the other has no queen and rooks + bishops + knights of power at most 16 (and the same
/// with colours swapped). Pawns are not limited.
bool is_endgame(const chess::Position& pos);

/// Power of one piece in pawn units (seed 004 ":power"; SPEC): Q 9, R 5, B 3, N 3, P 1,
/// K 0; NO_PIECE 0.
constexpr int piece_power(chess::Piece pc) {
  constexpr int kPower[chess::PIECE_TYPE_NB] = {0, 1, 3, 3, 5, 9, 0};
  return kPower[chess::type_of(pc)];
}

/// :power - total power (pawn units) of the pieces on `matches` (empty squares count 0).
int power(const chess::Position& pos, chess::Bitboard matches);

/// Not a square set: pass matching_squares(pos, mask, squares) instead.
int power(const chess::Position& pos, PieceMask mask) = delete;

/// :powerdifference - power of the white pieces on `matches` minus that of the black ones
/// (pawn units, may be negative). Under a colour-swapping transformation the caller negates
/// the result (SPEC: "black minus white").
int power_difference(const chess::Position& pos, chess::Bitboard matches);

// ---- Attacks -------------------------------------------------------------------------------

/// The squares the piece on `s` attacks (seed 004 ":attackcount": the squares it could move
/// to were they empty, ignoring checks and pins). Pawns attack their two capture squares,
/// never the push square; sliders stop at the first occupied square (which is attacked,
/// whatever its colour). Empty `s`: 0.
chess::Bitboard attacks_from(const chess::Position& pos, chess::Square s);

/// :attackcount - the number of (attacker, target) pairs with a piece on a square of
/// `attackers` attacking a square of `targets` (seed 004 "valid attacks"). Empty squares in
/// `attackers` attack nothing; `targets` may contain empty squares (`:attackcount A .h3 1`).
int attack_count(const chess::Position& pos, chess::Bitboard attackers, chess::Bitboard targets);

}  // namespace eval
