#include "chess/start_position.h"

#include "chess/bitboard.h"

namespace chess {

namespace {

using chess::Bitboard;

constexpr Bitboard kRank1 = 0xFFull;
constexpr Bitboard kRank2 = kRank1 << 8;
constexpr Bitboard kRank7 = kRank1 << 48;
constexpr Bitboard kRank8 = kRank1 << 56;
constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAull;  // b1, d1, ... (a1 is dark)

/// Knight pairs of the Scharnagl numbering: the files (0..4) of the two knights among the
/// five squares left free by the bishops and the queen, by pattern index 0..9.
constexpr int kKnightPairs[10][2] = {{0, 1}, {0, 2}, {0, 3}, {0, 4}, {1, 2},
                                     {1, 3}, {1, 4}, {2, 3}, {2, 4}, {3, 4}};

/// Index of `file` among the files set in `free` (bits 0..7), counting from the a-file.
int index_among(unsigned free, int file) { return chess::popcount(Bitboard(free & ((1u << file) - 1))); }

}  // namespace

int shuffle_chess_number(const chess::Position& pos) {
  using namespace chess;
  if (pos.pieces(WHITE, PAWN) != kRank2 || pos.pieces(BLACK, PAWN) != kRank7) return 0;
  if (pos.pieces(WHITE) != (kRank1 | kRank2) || pos.pieces(BLACK) != (kRank7 | kRank8)) return 0;
  int file_of_type[7][2] = {};  // first and last file per piece type on the first rank
  int count[7] = {};
  for (int f = 0; f < 8; ++f) {
    Piece w = pos.piece_on(Square(f)), b = pos.piece_on(Square(56 + f));
    if (type_of(w) != type_of(b)) return 0;  // Black does not mirror White
    PieceType t = type_of(w);
    if (count[t] < 2) file_of_type[t][count[t]] = f;
    ++count[t];
  }
  if (count[KING] != 1 || count[QUEEN] != 1 || count[ROOK] != 2 || count[BISHOP] != 2 ||
      count[KNIGHT] != 2)
    return 0;
  Bitboard bishops = pos.pieces(WHITE, BISHOP);
  if (popcount(Bitboard(bishops & kLightSquares)) != 1) return 0;
  int light = lsb(bishops & kLightSquares), dark = lsb(bishops & ~kLightSquares);
  int n = light / 2 + 4 * (dark / 2);
  unsigned free = 0xFFu & ~(1u << light) & ~(1u << dark);
  n += 16 * index_among(free, file_of_type[QUEEN][0]);
  free &= ~(1u << file_of_type[QUEEN][0]);
  int k1 = index_among(free, file_of_type[KNIGHT][0]), k2 = index_among(free, file_of_type[KNIGHT][1]);
  for (int i = 0; i < 10; ++i)
    if (kKnightPairs[i][0] == k1 && kKnightPairs[i][1] == k2) n += 96 * i;
  if (n == 0) n = kLastChess960Position;
  int king = file_of_type[KING][0], rook_a = file_of_type[ROOK][0], rook_b = file_of_type[ROOK][1];
  if (king > rook_b) return 960 + n;
  if (king < rook_a) return 1920 + n;
  if (pos.castling_rights() == ANY_CASTLING) return n;
  if (pos.castling_rights() == NO_CASTLING) return 2880 + n;
  return 0;
}

int shuffle_chess_number(std::string_view fen) {
  if (fen.empty()) return kStandardStartPosition;
  chess::Position pos;
  if (!pos.set_fen(fen, /*chess960=*/true).ok()) return 0;
  return shuffle_chess_number(pos);
}

}  // namespace chess
