// Builds the attack tables declared in bitboard.h.
//
// Slider attacks use "fancy" magic bitboards: for each square the relevant occupancy mask is
// multiplied by a 64-bit magic number and shifted, giving a dense index into a shared table.
// The magics come from a fixed-seed random search; the values it found are stored in
// magic_seeds.h and only verified at startup (the search itself took about 0.25 s).
#include "chess/bitboard.h"

#include <mutex>

#include "chess/magic_seeds.h"

#include "chess/zobrist.h"

namespace chess {
namespace detail {

Magic rook_magics[SQUARE_NB];
Magic bishop_magics[SQUARE_NB];
Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];
Bitboard between[SQUARE_NB][SQUARE_NB];
Bitboard line[SQUARE_NB][SQUARE_NB];

namespace {

// Table sizes: sum over squares of 2^popcount(mask).
Bitboard rook_table[0x19000];
Bitboard bishop_table[0x1480];

constexpr int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// Attacks of a slider moving along `steps` (file delta, rank delta) from `s`, stopping at the
// first occupied square. Slow; used only to fill tables.
Bitboard ray_attacks(const int (*steps)[2], Square s, Bitboard occupied) {
  Bitboard result = 0;
  for (int d = 0; d < 4; ++d) {
    int f = file_of(s) + steps[d][0], r = rank_of(s) + steps[d][1];
    while (f >= 0 && f < 8 && r >= 0 && r < 8) {
      Square t = make_square(File(f), Rank(r));
      result |= square_bb(t);
      if (occupied & square_bb(t)) break;
      f += steps[d][0];
      r += steps[d][1];
    }
  }
  return result;
}

// Squares reached by single steps (f, r) from `s` that stay on the board.
Bitboard leaper_attacks(Square s, const int (*steps)[2], int count) {
  Bitboard result = 0;
  for (int i = 0; i < count; ++i) {
    int f = file_of(s) + steps[i][0], r = rank_of(s) + steps[i][1];
    if (f >= 0 && f < 8 && r >= 0 && r < 8) result |= square_bb(make_square(File(f), Rank(r)));
  }
  return result;
}

// xorshift64* generator with a fixed seed: the magics found are the same on every run.
class Prng {
 public:
  explicit Prng(uint64_t seed) : s_(seed) {}
  uint64_t next() {
    s_ ^= s_ >> 12;
    s_ ^= s_ << 25;
    s_ ^= s_ >> 27;
    return s_ * 2685821657736338717ULL;
  }
  /// A number with about 1/8 of its bits set: good magic candidates are sparse.
  uint64_t sparse() { return next() & next() & next(); }

 private:
  uint64_t s_;
};

// Fills `magics` and `table` for one slider kind.
void init_magics(const int (*steps)[2], const uint64_t* stored, Magic* magics, Bitboard* table) {
  static Bitboard occupancy[4096], reference[4096];
  static int epoch[4096];
  int current_epoch = 0;
  Prng prng(0x9E3779B97F4A7C15ULL);
  Bitboard* next_slice = table;

  for (int si = 0; si < 64; ++si) {
    Square s = Square(si);
    // Edges do not matter for the occupancy unless the square itself lies on them.
    Bitboard edges =
        ((RANK_1_BB | RANK_8_BB) & ~rank_bb(s)) | ((FILE_A_BB | FILE_H_BB) & ~file_bb(s));
    Magic& m = magics[s];
    m.mask = ray_attacks(steps, s, 0) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.attacks = next_slice;

    // Enumerate every subset of the mask (Carry-Rippler) with its attack set.
    int size = 0;
    Bitboard b = 0;
    do {
      occupancy[size] = b;
      reference[size] = ray_attacks(steps, s, b);
      ++size;
      b = (b - m.mask) & m.mask;
    } while (b);

    // Try sparse random multipliers until one maps all subsets without a harmful collision.
    bool try_stored = true;
    for (int i = 0; i < size;) {
      if (try_stored) {
        m.magic = stored[s];  // verified below like any candidate
        try_stored = false;
      } else {
        do {
          m.magic = prng.sparse();
        } while (popcount((m.magic * m.mask) >> 56) < 6);
      }
      ++current_epoch;
      for (i = 0; i < size; ++i) {
        unsigned idx = m.index(occupancy[i]);
        if (epoch[idx] < current_epoch) {
          epoch[idx] = current_epoch;
          m.attacks[idx] = reference[i];
        } else if (m.attacks[idx] != reference[i]) {
          break;
        }
      }
    }
    next_slice += size;
  }
}

void init_tables() {
  static constexpr int KNIGHT_STEPS[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                             {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
  static constexpr int KING_STEPS[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                           {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
  static constexpr int WHITE_PAWN_STEPS[2][2] = {{-1, 1}, {1, 1}};
  static constexpr int BLACK_PAWN_STEPS[2][2] = {{-1, -1}, {1, -1}};

  init_magics(ROOK_STEPS, kRookMagicSeeds, rook_magics, rook_table);
  init_magics(BISHOP_STEPS, kBishopMagicSeeds, bishop_magics, bishop_table);

  for (int si = 0; si < 64; ++si) {
    Square s = Square(si);
    pawn_attacks[WHITE][s] = leaper_attacks(s, WHITE_PAWN_STEPS, 2);
    pawn_attacks[BLACK][s] = leaper_attacks(s, BLACK_PAWN_STEPS, 2);
    pseudo_attacks[KNIGHT][s] = leaper_attacks(s, KNIGHT_STEPS, 8);
    pseudo_attacks[KING][s] = leaper_attacks(s, KING_STEPS, 8);
    pseudo_attacks[BISHOP][s] = ray_attacks(BISHOP_STEPS, s, 0);
    pseudo_attacks[ROOK][s] = ray_attacks(ROOK_STEPS, s, 0);
    pseudo_attacks[QUEEN][s] = pseudo_attacks[BISHOP][s] | pseudo_attacks[ROOK][s];
  }

  for (int ai = 0; ai < 64; ++ai) {
    for (int bi = 0; bi < 64; ++bi) {
      Square a = Square(ai), b = Square(bi);
      between[a][b] = line[a][b] = 0;
      if (a == b) continue;
      for (PieceType pt : {BISHOP, ROOK}) {
        const int(*steps)[2] = pt == BISHOP ? BISHOP_STEPS : ROOK_STEPS;
        if (pseudo_attacks[pt][a] & square_bb(b)) {
          line[a][b] =
              (ray_attacks(steps, a, 0) & ray_attacks(steps, b, 0)) | square_bb(a) | square_bb(b);
          between[a][b] = ray_attacks(steps, a, square_bb(b)) & ray_attacks(steps, b, square_bb(a));
        }
      }
    }
  }
}

}  // namespace
}  // namespace detail

void init() {
  static std::once_flag once;
  std::call_once(once, [] {
    detail::init_tables();
    zobrist::init();
  });
}

namespace {
// Builds the tables while this library's static objects are initialised.
struct StaticInit {
  StaticInit() { init(); }
} static_init;
}  // namespace

}  // namespace chess
