// Zobrist hashing keys for Position::key().
//
// A position's key is the XOR of psq[piece][square] for every piece on the board,
// castling[rights] for the 4-bit castling-right set, enpassant[file] when an en-passant
// capture is possible (see Position::ep_square()), and side when Black is to move.
// The keys come from a fixed-seed generator: equal on every run and platform, so keys may
// be stored, but they are NOT Polyglot-compatible.
#pragma once

#include <cstdint>

#include "chess/types.h"

namespace chess {

/// 64-bit Zobrist hash of a position.
using Key = uint64_t;

namespace zobrist {

extern Key psq[PIECE_NB][SQUARE_NB];  ///< indexed by Piece (NO_PIECE rows are zero)
extern Key enpassant[FILE_NB];        ///< file of the en-passant square
extern Key castling[16];              ///< indexed by the CastlingRight bit set
extern Key side;                      ///< XORed in when Black is to move

/// Fills the keys; called once by chess::init().
void init();

}  // namespace zobrist
}  // namespace chess
