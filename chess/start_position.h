// Shuffle Chess start-position numbers (CQL-Match-List, :startposition :ischess960
// :isshufflechess). A Shuffle Chess position has all sixteen pawns on their home squares,
// the eight white pieces (K Q R R B B N N) on the first rank with the bishops on squares of
// opposite colours, Black's pieces mirrored on the eighth rank, and nothing else. Numbers:
//   1..960      the king stands between the rooks and all four castling rights are given:
//               the Chess960 (Scharnagl) number, with Scharnagl 0 (BBQNNRKR) numbered 960;
//               518 is the standard start position
//   961..1920   the king stands right of both rooks: 960 + the number of the Chess960
//               position with the same bishops, queen and knights
//   1921..2880  the king stands left of both rooks: 1920 + that number
//   2881..3840  the king stands between the rooks and no castling right is given: 2880 +
//               the Chess960 number (3398 = standard array without castling)
//   0           anything else (also: king between the rooks with only some castling rights)
#pragma once

#include <string_view>

#include "chess/position.h"

namespace chess {

inline constexpr int kStandardStartPosition = 518;  ///< number of the standard array
inline constexpr int kLastChess960Position = 960;     ///< 1..960 are Chess960 arrays
inline constexpr int kLastShufflePosition = 3840;     ///< 1..3840 are Shuffle Chess arrays

/// The Shuffle Chess number of `pos` (0 = not a Shuffle Chess start position). The side to
/// move, clocks and en-passant square are not looked at.
int shuffle_chess_number(const chess::Position& pos);

/// The Shuffle Chess number of a game's start FEN (empty = the standard start position,
/// 518); castling fields are read the Chess960 way (X-FEN or Shredder-FEN). An invalid FEN
/// is number 0.
int shuffle_chess_number(std::string_view fen);

}  // namespace chess
