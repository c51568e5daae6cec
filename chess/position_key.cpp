// Position identity key (see position_key.h).
#include "chess/position_key.h"

namespace chess {

bool has_legal_en_passant(const Position& pos) {
  const Square ep = pos.ep_square();
  if (ep == SQ_NONE) return false;
  const Color us = pos.side_to_move();
  // The pawns of ours that attack the ep square are those a pawn of theirs on it would attack.
  for (Bitboard b = pawn_attacks_bb(~us, ep) & pos.pieces(us, PAWN); b; b &= b - 1)
    if (pos.is_legal(Move::make(Square(lsb(b)), ep, Move::EN_PASSANT))) return true;
  return false;
}

}  // namespace chess
