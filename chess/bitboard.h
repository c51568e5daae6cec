// Bitboard geometry: constant masks, bit helpers and the attack tables.
//
// The tables (leaper attacks, magic-bitboard slider attacks, between/line masks) are built
// once per process by chess::init(). init() is thread-safe and idempotent; it also runs
// during static initialisation of this library and from every Position constructor, so
// ordinary callers never need to call it themselves. Code that runs inside another
// translation unit's static initialiser and uses attacks_bb() directly must call init()
// first.
#pragma once

#include <bit>
#include <cassert>

#include "chess/types.h"

namespace chess {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard ALL_SQUARES = ~Bitboard(0);

constexpr Bitboard file_bb(File f) {
  return FILE_A_BB << f;
}
constexpr Bitboard rank_bb(Rank r) {
  return RANK_1_BB << (8 * r);
}
constexpr Bitboard file_bb(Square s) {
  return file_bb(file_of(s));
}
constexpr Bitboard rank_bb(Square s) {
  return rank_bb(rank_of(s));
}

/// Number of squares in `b` (0..64).
inline int popcount(Bitboard b) {
  return std::popcount(b);
}
/// Lowest-numbered square of `b`. Precondition: b != 0.
inline Square lsb(Bitboard b) {
  assert(b);
  return Square(std::countr_zero(b));
}
/// Highest-numbered square of `b`. Precondition: b != 0.
inline Square msb(Bitboard b) {
  assert(b);
  return Square(63 - std::countl_zero(b));
}
/// Removes the lowest-numbered square from `b` and returns it. Precondition: b != 0.
inline Square pop_lsb(Bitboard& b) {
  Square s = lsb(b);
  b &= b - 1;
  return s;
}
/// True if `b` holds two or more squares.
constexpr bool more_than_one(Bitboard b) {
  return (b & (b - 1)) != 0;
}

/// All squares of `b` moved one rank towards rank 8 (White's pawn push); rank 8 falls off.
constexpr Bitboard shift_north(Bitboard b) {
  return b << 8;
}
/// All squares of `b` moved one rank towards rank 1; rank 1 falls off.
constexpr Bitboard shift_south(Bitboard b) {
  return b >> 8;
}
/// `b` moved one square in `c`'s pawn-push direction.
constexpr Bitboard shift_forward(Color c, Bitboard b) {
  return c == WHITE ? shift_north(b) : shift_south(b);
}
/// Squares attacked by pawns of colour `c` standing on the squares of `pawns`.
constexpr Bitboard pawn_attacks_of(Color c, Bitboard pawns) {
  return c == WHITE ? ((pawns & ~FILE_A_BB) << 7) | ((pawns & ~FILE_H_BB) << 9)
                    : ((pawns & ~FILE_A_BB) >> 9) | ((pawns & ~FILE_H_BB) >> 7);
}

/// Builds every table declared in this header. Thread-safe (std::call_once); cheap to call
/// again. Takes a few milliseconds the first time.
void init();

namespace detail {

/// One square's entry of a magic-bitboard table: the attack set for occupancy `occ` is
/// attacks[((occ & mask) * magic) >> shift].
struct Magic {
  Bitboard mask;      ///< relevant occupancy: the rays from the square without their last square
  Bitboard magic;     ///< multiplier found at startup that maps every subset of mask injectively
  Bitboard* attacks;  ///< this square's slice of the shared attack table
  unsigned shift;     ///< 64 - popcount(mask)

  unsigned index(Bitboard occ) const { return unsigned(((occ & mask) * magic) >> shift); }
};

extern Magic rook_magics[SQUARE_NB];
extern Magic bishop_magics[SQUARE_NB];
extern Bitboard pawn_attacks[COLOR_NB][SQUARE_NB];
/// Attacks of each piece type on an empty board (pawns excluded: see pawn_attacks).
extern Bitboard pseudo_attacks[PIECE_TYPE_NB][SQUARE_NB];
extern Bitboard between[SQUARE_NB][SQUARE_NB];
extern Bitboard line[SQUARE_NB][SQUARE_NB];

}  // namespace detail

/// Squares attacked by a pawn of colour `c` on `s`.
inline Bitboard pawn_attacks_bb(Color c, Square s) {
  assert(is_ok(s));
  return detail::pawn_attacks[c][s];
}

/// Squares attacked by a piece of type `pt` (KNIGHT..KING, not PAWN) on `s` when the squares
/// in `occupied` are occupied. Sliders stop at (and include) the first occupied square.
inline Bitboard attacks_bb(PieceType pt, Square s, Bitboard occupied) {
  assert(is_ok(s) && pt != PAWN && pt != NO_PIECE_TYPE && pt < PIECE_TYPE_NB);
  switch (pt) {
    case BISHOP:
      return detail::bishop_magics[s].attacks[detail::bishop_magics[s].index(occupied)];
    case ROOK:
      return detail::rook_magics[s].attacks[detail::rook_magics[s].index(occupied)];
    case QUEEN:
      return detail::bishop_magics[s].attacks[detail::bishop_magics[s].index(occupied)] |
             detail::rook_magics[s].attacks[detail::rook_magics[s].index(occupied)];
    default:
      return detail::pseudo_attacks[pt][s];
  }
}

/// Squares attacked by a piece of type `pt` on `s` on an empty board (PAWN not allowed).
inline Bitboard pseudo_attacks_bb(PieceType pt, Square s) {
  assert(is_ok(s) && pt != PAWN && pt != NO_PIECE_TYPE && pt < PIECE_TYPE_NB);
  return detail::pseudo_attacks[pt][s];
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; otherwise 0.
inline Bitboard between_bb(Square a, Square b) {
  assert(is_ok(a) && is_ok(b));
  return detail::between[a][b];
}

/// The whole rank, file or diagonal through `a` and `b` (edge to edge, both included) when
/// they share one; otherwise 0. line_bb(a, a) is 0.
inline Bitboard line_bb(Square a, Square b) {
  assert(is_ok(a) && is_ok(b));
  return detail::line[a][b];
}

/// True if `a`, `b` and `c` lie on one rank, file or diagonal.
inline bool aligned(Square a, Square b, Square c) {
  return (line_bb(a, b) & square_bb(c)) != 0;
}

/// Chebyshev (king-move) distance between two squares, 0..7.
inline int distance(Square a, Square b) {
  int df = file_of(a) - file_of(b), dr = rank_of(a) - rank_of(b);
  df = df < 0 ? -df : df;
  dr = dr < 0 ? -dr : dr;
  return df > dr ? df : dr;
}

}  // namespace chess
