// The square order used to encode the "ever" bitboards of a signature (signature.h,
// section 4): for each piece type, the squares sorted by how often that piece visits them
// in master games, most visited first, so that the gaps between the visited squares of a
// game are small and their gamma codes short.
//
// The tables are written from White's side; Black's pieces use the same table with the
// squares mirrored (a1 <-> a8). They were measured on the players corpus (344,248 games):
// `bench_signature --db DIR --square-order` prints them again. Part of
// kSignatureFormatVersion: changing them changes the encoding.
#pragma once

#include <array>
#include <cstdint>

#include "chess/types.h"

namespace sig {

namespace detail {

// kSquareByIndex[type - PAWN][i] = the i-th square of the order for White's pieces.
// clang-format off
inline constexpr uint8_t kSquareByIndex[6][64] = {
    // pawn
    {27, 26, 28, 22, 35, 20, 29, 16, 23, 18, 25, 24, 17, 31, 36, 30,
     19, 21, 34, 33, 37, 32, 38, 39, 45, 42, 43, 44, 41, 46, 40, 47,
     51, 49, 48, 50, 53, 52, 54, 55, 0, 1, 2, 3, 4, 5, 6, 7,
     8, 9, 10, 11, 12, 13, 14, 15, 56, 57, 58, 59, 60, 61, 62, 63},
    // knight
    {21, 18, 11, 27, 36, 28, 35, 12, 26, 17, 20, 34, 33, 42, 38, 37,
     22, 29, 19, 24, 43, 31, 5, 4, 16, 45, 44, 10, 30, 41, 51, 25,
     32, 3, 13, 46, 52, 23, 2, 15, 39, 50, 53, 14, 9, 49, 47, 8,
     58, 54, 40, 48, 60, 59, 61, 55, 0, 56, 57, 7, 62, 63, 1, 6},
    // bishop
    {12, 20, 14, 19, 11, 38, 26, 29, 9, 33, 21, 27, 28, 18, 45, 42,
     35, 36, 17, 22, 34, 16, 10, 43, 31, 30, 25, 44, 37, 24, 23, 47,
     54, 52, 13, 3, 4, 49, 51, 41, 40, 32, 46, 39, 50, 53, 1, 8,
     61, 0, 48, 55, 58, 15, 59, 60, 57, 6, 56, 7, 62, 63, 2, 5},
    // rook
    {5, 3, 4, 2, 1, 11, 12, 10, 19, 59, 20, 50, 27, 49, 48, 51,
     6, 13, 35, 18, 34, 28, 43, 58, 42, 26, 36, 21, 40, 60, 52, 41,
     32, 33, 56, 8, 9, 29, 17, 44, 24, 16, 53, 25, 37, 57, 22, 45,
     54, 55, 61, 39, 38, 30, 23, 14, 46, 47, 31, 63, 62, 15, 0, 7},
    // queen
    {10, 12, 11, 17, 19, 21, 27, 20, 24, 18, 28, 26, 35, 30, 29, 2,
     4, 22, 36, 13, 9, 39, 34, 33, 37, 25, 31, 59, 38, 42, 43, 1,
     49, 44, 45, 51, 50, 16, 41, 32, 52, 47, 48, 40, 23, 5, 53, 46,
     14, 58, 60, 8, 57, 56, 0, 55, 54, 61, 63, 62, 15, 6, 7, 3},
    // king
    {6, 14, 13, 5, 12, 7, 15, 21, 20, 22, 2, 11, 19, 28, 29, 10,
     23, 1, 18, 27, 3, 30, 26, 9, 36, 37, 17, 35, 38, 31, 34, 25,
     33, 45, 43, 44, 39, 8, 46, 42, 0, 41, 16, 24, 47, 32, 53, 52,
     50, 54, 51, 49, 40, 55, 48, 61, 60, 59, 58, 62, 57, 63, 56, 4},
};
// clang-format on

/// The inverse permutation: index of each square in the order, per type.
constexpr std::array<std::array<uint8_t, 64>, 6> invert() {
  std::array<std::array<uint8_t, 64>, 6> inverse{};
  for (int t = 0; t < 6; ++t)
    for (int i = 0; i < 64; ++i) inverse[t][kSquareByIndex[t][i]] = uint8_t(i);
  return inverse;
}
inline constexpr std::array<std::array<uint8_t, 64>, 6> kIndexBySquare = invert();

/// True if every row of kSquareByIndex is a permutation of 0..63.
constexpr bool tables_are_permutations() {
  for (int t = 0; t < 6; ++t) {
    uint64_t seen = 0;
    for (int i = 0; i < 64; ++i) seen |= uint64_t(1) << kSquareByIndex[t][i];
    if (seen != ~uint64_t(0)) return false;
  }
  return true;
}
static_assert(tables_are_permutations());

}  // namespace detail

/// The square at position `index` (0..63) of the order of piece `pc` (a coloured piece).
inline chess::Square order_square(chess::Piece pc, unsigned index) {
  const chess::Square s =
      chess::Square(detail::kSquareByIndex[chess::type_of(pc) - chess::PAWN][index]);
  return chess::relative_square(chess::color_of(pc), s);
}

/// The position of square `s` in the order of piece `pc`.
inline unsigned order_index(chess::Piece pc, chess::Square s) {
  return detail::kIndexBySquare[chess::type_of(pc) - chess::PAWN]
                               [chess::relative_square(chess::color_of(pc), s)];
}

}  // namespace sig
