// Legal move generation. Moves are generated legal directly: pinned pieces move only along
// their pin line, check evasions are restricted to capturing or blocking the checker, king
// destinations are tested with the king lifted off the board. En passant and castling, rare
// and subtle, go through Position::is_legal().
#include "chess/movegen.h"

namespace chess {

namespace {

// Emits one pawn move to `to`, expanded into four promotions on the last rank.
// `emit` returns true to stop generation; so does this.
template <class Emit>
bool emit_pawn_move(Square from, Square to, Emit& emit) {
  if (rank_of(to) == RANK_1 || rank_of(to) == RANK_8) {
    for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT})
      if (emit(Move::make(from, to, Move::PROMOTION, pt))) return true;
    return false;
  }
  return emit(Move(from, to));
}

// Generates legal moves, handing each to `emit`; stops and returns true as soon as `emit`
// returns true. Returns false when all moves were generated.
template <class Emit>
bool generate(const Position& pos, Emit&& emit) {
  const Color us = pos.side_to_move(), them = ~us;
  const Square ksq = pos.king_square(us);
  const Bitboard occ = pos.pieces(), ours = pos.pieces(us), theirs = pos.pieces(them);
  const Bitboard checkers = pos.checkers();
  // Never a king capture: impossible in a legal position, and a replayed damaged record
  // (Position::is_well_formed) must not make one that takes a king off the board.
  const Bitboard no_go = ours | pos.pieces(them, KING);

  // King moves: the destination must not be attacked once the king has left its square.
  const Bitboard occ_without_king = occ ^ square_bb(ksq);
  for (Bitboard b = pseudo_attacks_bb(KING, ksq) & ~no_go; b;) {
    Square to = pop_lsb(b);
    if (!(pos.attackers_to(to, occ_without_king) & theirs) && emit(Move(ksq, to))) return true;
  }
  if (more_than_one(checkers)) return false;

  // Squares a non-king move may go to: anywhere but our pieces, or, in check, the checker
  // or a square between it and the king.
  const Bitboard target = (checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~Bitboard(0)) & ~no_go;

  if (!checkers) {
    for (CastlingRight cr : {castling_right(us, true), castling_right(us, false)}) {
      if (!pos.can_castle(cr)) continue;
      Move m = Move::make(ksq, pos.castling_rook_square(cr), Move::CASTLING);
      if (pos.is_legal(m) && emit(m)) return true;
    }
  }

  const Bitboard pinned = pos.pinned(us);

  // A pinned knight can never move; other pinned pieces stay on the king's line.
  for (Bitboard b = pos.pieces(us, KNIGHT) & ~pinned; b;) {
    Square from = pop_lsb(b);
    for (Bitboard t = pseudo_attacks_bb(KNIGHT, from) & target; t;)
      if (emit(Move(from, pop_lsb(t)))) return true;
  }
  for (PieceType pt : {BISHOP, ROOK, QUEEN}) {
    for (Bitboard b = pos.pieces(us, pt); b;) {
      Square from = pop_lsb(b);
      Bitboard t = attacks_bb(pt, from, occ) & target;
      if (pinned & square_bb(from)) t &= line_bb(ksq, from);
      while (t)
        if (emit(Move(from, pop_lsb(t)))) return true;
    }
  }

  const int push = pawn_push(us);
  const Rank second = relative_rank(us, RANK_2);
  const Square ep = pos.ep_square();
  for (Bitboard b = pos.pieces(us, PAWN); b;) {
    Square from = pop_lsb(b);
    Bitboard allowed = (pinned & square_bb(from)) ? line_bb(ksq, from) & target : target;
    Square one = square_offset(from, push);
    if (!(occ & square_bb(one))) {
      if ((allowed & square_bb(one)) && emit_pawn_move(from, one, emit)) return true;
      if (rank_of(from) == second) {
        Square two = square_offset(one, push);
        if (!(occ & square_bb(two)) && (allowed & square_bb(two)) && emit(Move(from, two)))
          return true;
      }
    }
    Bitboard attacks = pawn_attacks_bb(us, from);
    for (Bitboard t = attacks & theirs & allowed; t;)
      if (emit_pawn_move(from, pop_lsb(t), emit)) return true;
    if (ep != SQ_NONE && (attacks & square_bb(ep))) {
      Move m = Move::make(from, ep, Move::EN_PASSANT);
      if (pos.is_legal(m) && emit(m)) return true;
    }
  }
  return false;
}

}  // namespace

void generate_legal(const Position& pos, MoveList& list) {
  generate(pos, [&list](Move m) {
    list.push_back(m);
    return false;
  });
}

bool has_legal_move(const Position& pos) {
  return generate(pos, [](Move) { return true; });
}

}  // namespace chess
