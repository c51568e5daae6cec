// Position identity (SPEC "Position identity"): the key that `:fen`, `cqldb query --fen`,
// the position index (index/position_index.h) and the opening tree compare.
//
// Two positions are the same when piece placement, side to move and castling rights agree,
// and their en-passant squares agree *counting only a square on which a legal en-passant
// capture exists* (FIDE Laws 9.2.3). Position::key() already drops an en-passant square no
// pawn attacks; identity_key() also drops one whose every capture is illegal (the capturing
// pawn pinned, or the capture exposing its king along the rank). Move clocks never count.
#pragma once

#include "chess/position.h"
#include "chess/zobrist.h"

namespace chess {

/// True if the side to move has a legal en-passant capture on pos.ep_square().
bool has_legal_en_passant(const Position& pos);

/// The identity key of `pos`: pos.key() without the en-passant part when no legal
/// en-passant capture exists. Equal for transpositions (same position reached by other
/// move orders); fixed across runs and platforms (zobrist.h), so it may be stored.
inline Key identity_key(const Position& pos) {
  if (pos.ep_square() == SQ_NONE || has_legal_en_passant(pos)) return pos.key();
  return pos.key() ^ zobrist::enpassant[file_of(pos.ep_square())];
}

}  // namespace chess
