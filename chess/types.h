// Basic chess value types shared by every module: colours, piece types, pieces, squares,
// bitboards and the packed 16-bit move.
//
// Conventions (used everywhere in cqldb):
// - Squares are numbered 0..63 with a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63.
// - A Bitboard has bit s set for square s.
// - A ply is one half-move; ply 0 is the start position of a game.
#pragma once

#include <cassert>
#include <cstdint>

namespace chess {

/// 64-bit set of squares; bit s is square s (a1 = bit 0, h8 = bit 63).
using Bitboard = uint64_t;

enum Color : uint8_t { WHITE = 0, BLACK = 1, COLOR_NB = 2 };

/// Piece kinds without colour. NO_PIECE_TYPE = 0 so that a zeroed value means "none".
enum PieceType : uint8_t {
  NO_PIECE_TYPE = 0,
  PAWN = 1,
  KNIGHT = 2,
  BISHOP = 3,
  ROOK = 4,
  QUEEN = 5,
  KING = 6,
  PIECE_TYPE_NB = 7
};

/// Coloured pieces: white pieces 1..6, black pieces 9..14 (piece = color << 3 | type).
enum Piece : uint8_t {
  NO_PIECE = 0,
  W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
  B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
  PIECE_NB = 16
};

enum File : uint8_t { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum Rank : uint8_t { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

// clang-format off
enum Square : uint8_t {
  SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
  SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
  SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
  SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
  SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
  SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
  SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
  SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
  SQ_NONE = 64, SQUARE_NB = 64
};
// clang-format on

/// Castling rights as a 4-bit set.
enum CastlingRight : uint8_t {
  NO_CASTLING = 0,
  WHITE_OO = 1,
  WHITE_OOO = 2,
  BLACK_OO = 4,
  BLACK_OOO = 8,
  ANY_CASTLING = 15
};

constexpr Color operator~(Color c) { return Color(c ^ 1); }
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr bool is_ok(Square s) { return s < 64; }
constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
/// The square as seen from `c`'s side (a1 <-> a8 for Black).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Bitboard square_bb(Square s) {
  assert(is_ok(s) && "square_bb: square outside 0..63");
  return Bitboard(1) << s;
}

/// Direction of a pawn push for `c`, as a square-number offset (+8 for White, -8 for Black).
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }
/// The square `delta` square numbers away from `s`; the caller keeps the result in 0..63.
constexpr Square square_offset(Square s, int delta) { return Square(int(s) + delta); }
/// 'a'..'h' for FILE_A..FILE_H.
constexpr char file_char(File f) { return char('a' + f); }
/// '1'..'8' for RANK_1..RANK_8.
constexpr char rank_char(Rank r) { return char('1' + r); }

/// A move packed into 16 bits:
///   bits  0-5  destination square (0..63)
///   bits  6-11 origin square (0..63)
///   bits 12-13 promotion piece type - KNIGHT (0 = N, 1 = B, 2 = R, 3 = Q); 0 unless PROMOTION
///   bits 14-15 kind: 0 NORMAL, 1 PROMOTION, 2 EN_PASSANT, 3 CASTLING
/// Castling is encoded as "king takes own rook": origin = king square, destination = the
/// castling rook's square, which is unambiguous in Chess960 too.
/// Moves whose origin equals their destination never occur in chess: Move::none() is 0 and
/// Move::null() is 65 (b1b1); the game store uses other from == to values as markers.
class Move {
 public:
  enum Kind : uint16_t { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

  constexpr Move() = default;
  constexpr explicit Move(uint16_t raw) : data_(raw) {}
  constexpr Move(Square from, Square to) : data_(uint16_t((from << 6) | to)) {}

  /// A move of the given kind; `promo` is used only when kind == PROMOTION.
  static constexpr Move make(Square from, Square to, Kind kind = NORMAL,
                             PieceType promo = KNIGHT) {
    return Move(uint16_t(kind | ((promo - KNIGHT) << 12) | (from << 6) | to));
  }
  static constexpr Move none() { return Move(uint16_t(0)); }
  /// The null move "--" found in some PGN files.
  static constexpr Move null() { return Move(uint16_t(65)); }

  constexpr Square from_sq() const { return Square((data_ >> 6) & 0x3F); }
  constexpr Square to_sq() const { return Square(data_ & 0x3F); }
  constexpr Kind kind() const { return Kind(data_ & (3 << 14)); }
  constexpr PieceType promotion_type() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
  constexpr bool is_ok() const { return from_sq() != to_sq(); }
  constexpr uint16_t raw() const { return data_; }

  constexpr bool operator==(const Move& m) const { return data_ == m.data_; }
  constexpr bool operator!=(const Move& m) const { return data_ != m.data_; }
  constexpr explicit operator bool() const { return data_ != 0; }

 private:
  uint16_t data_ = 0;
};

}  // namespace chess
