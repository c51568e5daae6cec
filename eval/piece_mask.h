// Piece masks on a chess::Position: which squares hold one of a set of piece kinds.
//
// The mask layout is the one the CQL front-end resolves piece designators to (cql/pieces.h):
// bit 0..5 = K Q R B N P, bit 6..11 = k q r b n p, bit 12 = the empty square ('.').
// The evaluator uses the same type, so a bound designator's mask is used as is.
#pragma once

#include "chess/bitboard.h"
#include "chess/position.h"
#include "chess/types.h"
#include "cql/pieces.h"

namespace eval {

/// A set of piece kinds plus the empty square (13 bits, layout in cql/pieces.h).
using PieceMask = cql::PieceMask;

static_assert(cql::piece_mask::kWhiteKing == 1u << 0 && cql::piece_mask::kWhitePawn == 1u << 5 &&
                  cql::piece_mask::kBlackKing == 1u << 6 && cql::piece_mask::kEmpty == 1u << 12,
              "eval relies on the K Q R B N P / k q r b n p / . bit order of cql/pieces.h");

/// The mask bit of one piece kind; NO_PIECE gives the empty-square bit.
constexpr PieceMask piece_bit(chess::Piece pc) {
  if (pc == chess::NO_PIECE) return cql::piece_mask::kEmpty;
  // White: KING(6)->bit 0 ... PAWN(1)->bit 5; black kinds 6 bits higher.
  return PieceMask(1u << ((chess::KING - chess::type_of(pc)) + 6 * chess::color_of(pc)));
}

/// The mask bit of a piece of colour `c` and type `pt` (PAWN..KING).
constexpr PieceMask piece_bit(chess::Color c, chess::PieceType pt) {
  return piece_bit(chess::make_piece(c, pt));
}

/// True if the content of square `s` (a piece or emptiness) is one of the kinds in `mask`.
inline bool square_matches(const chess::Position& pos, chess::Square s, PieceMask mask) {
  return (piece_bit(pos.piece_on(s)) & mask) != 0;
}

/// The squares (bit s = square s, a1 = 0) whose content is one of the kinds in `mask`: the
/// union of the piece bitboards of every kind in the mask, plus all empty squares when the
/// empty bit is set. Allocation-free; at most 12 bitboard lookups.
inline chess::Bitboard squares_of(const chess::Position& pos, PieceMask mask) {
  chess::Bitboard result = 0;
  if (mask & cql::piece_mask::kEmpty) result |= ~pos.pieces();
  for (int c = chess::WHITE; c <= chess::BLACK; ++c) {
    const unsigned kinds = (mask >> (6 * c)) & 0x3F;  // bit 0 = king ... bit 5 = pawn
    if (kinds == 0x3F) {
      result |= pos.pieces(chess::Color(c));
      continue;
    }
    for (unsigned k = kinds; k; k &= k - 1)  // bit i = piece type KING - i
      result |= pos.pieces(chess::Color(c), chess::PieceType(chess::KING - __builtin_ctz(k)));
  }
  return result;
}

}  // namespace eval
