// Zobrist key generation (see zobrist.h).
#include "chess/zobrist.h"

namespace chess::zobrist {

Key psq[PIECE_NB][SQUARE_NB];
Key enpassant[FILE_NB];
Key castling[16];
Key side;

namespace {

// splitmix64: a full-period 64-bit generator; fixed seed so keys never change.
uint64_t next(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

void init() {
  uint64_t state = 0x63716C6462ULL;  // "cqldb"
  for (int p = 0; p < PIECE_NB; ++p) {
    bool real = type_of(Piece(p)) != NO_PIECE_TYPE && type_of(Piece(p)) != PIECE_TYPE_NB;
    for (int s = 0; s < SQUARE_NB; ++s) psq[p][s] = real ? next(state) : 0;
  }
  for (int f = 0; f < FILE_NB; ++f) enpassant[f] = next(state);
  // Each castling right gets a key; a set of rights is the XOR of its members, so updating
  // the key when rights are lost is a single XOR of castling[old] ^ castling[new].
  Key single[4];
  for (Key& k : single) k = next(state);
  for (int cr = 0; cr < 16; ++cr) {
    castling[cr] = 0;
    for (int b = 0; b < 4; ++b)
      if (cr & (1 << b)) castling[cr] ^= single[b];
  }
  side = next(state);
}

}  // namespace chess::zobrist
