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

Frontier Frontier::of(const Position& pos) {
  Frontier f;
  f.castling = uint8_t(pos.castling_rights());
  const Bitboard wp = pos.pieces(WHITE, PAWN), bp = pos.pieces(BLACK, PAWN);
  f.white_home = uint8_t((wp & (RANK_1_BB << 8)) >> 8);
  f.black_home = uint8_t((bp & (RANK_1_BB << 48)) >> 48);
  f.white_men = uint8_t(popcount(pos.pieces(WHITE)));
  f.black_men = uint8_t(popcount(pos.pieces(BLACK)));
  f.white_pawns = uint8_t(popcount(wp));
  f.black_pawns = uint8_t(popcount(bp));
  return f;
}

}  // namespace chess
