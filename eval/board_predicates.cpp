// Per-position board predicates; definitions and sources in board_predicates.h.
#include "eval/board_predicates.h"

#include "chess/movegen.h"

namespace eval {

namespace {

using chess::Bitboard;
using chess::BLACK;
using chess::Color;
using chess::Square;
using chess::WHITE;

// Number of pieces of colour `c` of type `a` or `b`.
int count2(const chess::Position& pos, Color c, chess::PieceType a, chess::PieceType b) {
  return chess::popcount(pos.pieces(c, a, b));
}

// Branch (c) of :endgame for the side `c` holding the queen.
bool lone_queen_endgame(const chess::Position& pos, Color c) {
  const Color o = ~c;
  if (pos.count(c, chess::QUEEN) != 1 || pos.count(c, chess::ROOK) != 0) return false;
  if (count2(pos, c, chess::BISHOP, chess::KNIGHT) > 1) return false;
  if (pos.count(o, chess::QUEEN) != 0) return false;
  const Bitboard other = pos.pieces(o, chess::ROOK) | pos.pieces(o, chess::BISHOP, chess::KNIGHT);
  return power(pos, other) <= 16;
}

}  // namespace

bool is_check(const chess::Position& pos, Bitboard checker_matches) {
  return (pos.checkers() & checker_matches) != 0;
}

bool is_double_check(const chess::Position& pos, Bitboard checker_matches) {
  return chess::more_than_one(pos.checkers() & checker_matches);
}

bool is_contact_check(const chess::Position& pos, Bitboard checker_matches) {
  const Bitboard checkers = pos.checkers();
  if (!(checkers & checker_matches)) return false;  // also: not in check at all
  if (chess::more_than_one(checkers)) return true;
  const Square from = chess::lsb(checkers);
  const chess::PieceType pt = chess::type_of(pos.piece_on(from));
  if (pt == chess::KNIGHT || pt == chess::PAWN) return true;
  return chess::distance(from, pos.king_square(pos.side_to_move())) == 1;
}

bool is_mate(const chess::Position& pos) {
  return pos.in_check() && !chess::has_legal_move(pos);
}

bool is_stalemate(const chess::Position& pos) {
  return !pos.in_check() && !chess::has_legal_move(pos);
}

bool no_mating_material(const chess::Position& pos) {
  constexpr Bitboard kLight = 0x55AA55AA55AA55AAull;  // h1, a2, ...; a1 is dark
  const int pieces = chess::popcount(pos.pieces());
  if (pieces == 2) return true;
  if (pieces == 3) return chess::popcount(pos.pieces(chess::BISHOP, chess::KNIGHT)) == 1;
  if (pieces == 4) {
    const Bitboard bishops = pos.pieces(chess::BISHOP);
    return chess::popcount(bishops & kLight) == 2 || chess::popcount(bishops & ~kLight) == 2;
  }
  return false;
}

bool cannot_win(const chess::Position& pos, Color c) {
  const int pieces = chess::popcount(pos.pieces(c));
  return pieces == 1 || (pieces == 2 && count2(pos, c, chess::BISHOP, chess::KNIGHT) == 1);
}

bool is_endgame(const chess::Position& pos) {
  auto rbn = [&pos](Color c) {
    return pos.count(c, chess::ROOK) + count2(pos, c, chess::BISHOP, chess::KNIGHT);
  };
  // (a) no queens, at most 3 rooks + minor pieces a side.
  if (!pos.pieces(chess::QUEEN) && rbn(WHITE) <= 3 && rbn(BLACK) <= 3) return true;
  // (b) one queen each, no rooks, at most one minor piece a side.
  if (pos.count(WHITE, chess::QUEEN) == 1 && pos.count(BLACK, chess::QUEEN) == 1 &&
      !pos.pieces(chess::ROOK) && count2(pos, WHITE, chess::BISHOP, chess::KNIGHT) <= 1 &&
      count2(pos, BLACK, chess::BISHOP, chess::KNIGHT) <= 1)
    return true;
  // (c) under :flipcolor: either side may hold the lone queen.
  return lone_queen_endgame(pos, WHITE) || lone_queen_endgame(pos, BLACK);
}

int power(const chess::Position& pos, Bitboard matches) {
  const Bitboard on = matches & pos.pieces();
  return 9 * chess::popcount(on & pos.pieces(chess::QUEEN)) +
         5 * chess::popcount(on & pos.pieces(chess::ROOK)) +
         3 * chess::popcount(on & pos.pieces(chess::BISHOP, chess::KNIGHT)) +
         chess::popcount(on & pos.pieces(chess::PAWN));
}

int power_difference(const chess::Position& pos, Bitboard matches) {
  return power(pos, matches & pos.pieces(WHITE)) - power(pos, matches & pos.pieces(BLACK));
}

Bitboard attacks_from(const chess::Position& pos, Square s) {
  const chess::Piece pc = pos.piece_on(s);
  if (pc == chess::NO_PIECE) return 0;
  const chess::PieceType pt = chess::type_of(pc);
  if (pt == chess::PAWN) return chess::pawn_attacks_bb(chess::color_of(pc), s);
  return chess::attacks_bb(pt, s, pos.pieces());
}

int attack_count(const chess::Position& pos, Bitboard attackers, Bitboard targets) {
  if (!targets) return 0;
  attackers &= pos.pieces();
  int count = 0;
  // Few targets (e.g. a king) and many attackers: count from the targets' side (a piece on
  // s attacks t exactly when it is among the attackers of t, pawns by their own colour).
  if (chess::popcount(attackers) > 3 * chess::popcount(targets)) {
    for (Bitboard t = targets; t;)
      count += chess::popcount(pos.attackers_to(chess::pop_lsb(t), pos.pieces()) & attackers);
    return count;
  }
  for (Bitboard b = attackers; b;)
    count += chess::popcount(attacks_from(pos, chess::pop_lsb(b)) & targets);
  return count;
}

}  // namespace eval
