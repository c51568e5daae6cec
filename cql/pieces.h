// Piece-kind sets used by piece designators.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cql {

/// A set of piece kinds as a 13-bit mask: bit 0..5 = K Q R B N P (white), bit 6..11 =
/// k q r b n p (black), bit 12 = the empty square ('.').
using PieceMask = uint16_t;

namespace piece_mask {
inline constexpr PieceMask kWhiteKing = 1u << 0;
inline constexpr PieceMask kWhiteQueen = 1u << 1;
inline constexpr PieceMask kWhiteRook = 1u << 2;
inline constexpr PieceMask kWhiteBishop = 1u << 3;
inline constexpr PieceMask kWhiteKnight = 1u << 4;
inline constexpr PieceMask kWhitePawn = 1u << 5;
inline constexpr PieceMask kBlackKing = 1u << 6;
inline constexpr PieceMask kBlackQueen = 1u << 7;
inline constexpr PieceMask kBlackRook = 1u << 8;
inline constexpr PieceMask kBlackBishop = 1u << 9;
inline constexpr PieceMask kBlackKnight = 1u << 10;
inline constexpr PieceMask kBlackPawn = 1u << 11;
inline constexpr PieceMask kEmpty = 1u << 12;

inline constexpr PieceMask kWhite = 0x003F;                            ///< A
inline constexpr PieceMask kBlack = 0x0FC0;                            ///< a
inline constexpr PieceMask kAnyPiece = 0x0FFF;                         ///< U
inline constexpr PieceMask kAll = 0x1FFF;                              ///< ?
inline constexpr PieceMask kWhiteMajor = kWhiteQueen | kWhiteRook;     ///< M
inline constexpr PieceMask kBlackMajor = kBlackQueen | kBlackRook;     ///< m
inline constexpr PieceMask kWhiteMinor = kWhiteBishop | kWhiteKnight;  ///< I
inline constexpr PieceMask kBlackMinor = kBlackBishop | kBlackKnight;  ///< i
inline constexpr PieceMask kPawns = kWhitePawn | kBlackPawn;
inline constexpr PieceMask kKings = kWhiteKing | kBlackKing;
inline constexpr PieceMask kBishops = kWhiteBishop | kBlackBishop;
inline constexpr PieceMask kCastlingLetters = kWhiteKing | kWhiteQueen | kBlackKing | kBlackQueen;
}  // namespace piece_mask

/// The mask denoted by one piecetype letter of a piece designator (`K`..`p`, `A a M m I i U`,
/// `.`, `?`), or nullopt for any other character.
constexpr std::optional<PieceMask> piece_letter_mask(char c) {
  using namespace piece_mask;
  switch (c) {
    case 'K':
      return kWhiteKing;
    case 'Q':
      return kWhiteQueen;
    case 'R':
      return kWhiteRook;
    case 'B':
      return kWhiteBishop;
    case 'N':
      return kWhiteKnight;
    case 'P':
      return kWhitePawn;
    case 'k':
      return kBlackKing;
    case 'q':
      return kBlackQueen;
    case 'r':
      return kBlackRook;
    case 'b':
      return kBlackBishop;
    case 'n':
      return kBlackKnight;
    case 'p':
      return kBlackPawn;
    case 'A':
      return kWhite;
    case 'a':
      return kBlack;
    case 'M':
      return kWhiteMajor;
    case 'm':
      return kBlackMajor;
    case 'I':
      return kWhiteMinor;
    case 'i':
      return kBlackMinor;
    case 'U':
      return kAnyPiece;
    case '.':
      return kEmpty;
    case '?':
      return kAll;
    default:
      return std::nullopt;
  }
}

/// The 13 basic letters in bit order: "KQRBNPkqrbnp.".
inline constexpr std::string_view kPieceLetters = "KQRBNPkqrbnp.";

/// Swaps white and black kinds in a mask (the empty-square bit is kept).
constexpr PieceMask swap_colors(PieceMask m) {
  return PieceMask(((m & 0x003F) << 6) | ((m & 0x0FC0) >> 6) | (m & piece_mask::kEmpty));
}

}  // namespace cql
