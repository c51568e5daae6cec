// Piece and square designators (CQL-Piece-Designators, CQL-Square-Designators, seed 002).
//
// Grammar implemented (one whitespace-free word):
//   piece-designator  := piece-part square-designator?
//   piece-part        := letter suffix? | '[' (letter suffix?)* ']' | '$' tag-name
//   letter            := K Q R B N P k q r b n p | A a M m I i U | . | ?
//   suffix            := '~' (promoted piece) | '~~' (not a promoted piece)
//   square-designator := file-part rank-part              e.g. e4  a-c1  ?8  L?  [ac]3  ?[27]
//                      | '[' item (',' item)* ']'         e.g. [a1,c4,a-h8]  [+,a1]
//                      | '[' ']'                          no square at all
//   item              := file-part rank-part | '+' (reserve) | '*' (all squares + reserve)
//   file-part         := a..h | a..h '-' a..h | '?' | 'L' | 'D' | '[' (file | file-file)+ ']'
//   rank-part         := 1..8 | 1..8 '-' 1..8 | '?' | 'L' | 'D' | '[' (rank | rank-rank)+ ']'
// 'L'/'D' select the light/dark squares of the ranks (files) given by the other part and may
// not be used in both parts (`DD` is an error). Ranges must be ascending (`h-a1` is an error).
// Compound designators are accepted without brackets too (`Aa-h1-4`, `Q?1-7`), as in the
// CQL 1.0 manual. A $tag's square designator must be bracketed (`$rook[a1]`).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "chess/types.h"
#include "cql/pieces.h"
#include "cql/source_location.h"

namespace cql {

inline constexpr chess::Bitboard kAllSquares = ~chess::Bitboard(0);
/// The light squares (h1, a2, ...); a1 is dark.
inline constexpr chess::Bitboard kLightSquares = 0x55AA55AA55AA55AAull;
inline constexpr chess::Bitboard kDarkSquares = ~kLightSquares;

/// A resolved square designator: a set of board squares (bit s = square s, a1 = 0, h8 = 63)
/// plus the reserve ("backhand", [+]) of drop variants, which never matches in standard chess.
struct SquareDesignator {
  chess::Bitboard squares = kAllSquares;  ///< the designated board squares
  bool reserve = false;                   ///< [+] or [*]: the reserve is included
  bool written = false;  ///< false: omitted in the source, which means all 64 squares

  /// Compares meaning (squares and reserve), not spelling.
  friend bool operator==(const SquareDesignator& a, const SquareDesignator& b) {
    return a.squares == b.squares && a.reserve == b.reserve;
  }
};

/// A resolved piece designator: the set of piece kinds (with promotion restrictions) or a
/// tagged piece, on a set of squares.
struct PieceDesignator {
  PieceMask pieces = 0;            ///< kinds that match (bit layout in pieces.h); 0 for a $tag
  PieceMask promoted = 0;          ///< subset of `pieces` that must be promoted pieces (`Q~`)
  PieceMask not_promoted = 0;      ///< subset of `pieces` that must not be promoted (`Q~~`)
  std::string tag;                 ///< non-empty: the piece bound to tag `$tag`
  SquareDesignator squares;        ///< where the piece must stand
  bool piece_part_written = true;  ///< false only for move-line designators like `e4`
  SourceLoc loc;                   ///< where the designator starts
  std::string text;                ///< as written

  /// Compares meaning (pieces, flags, tag, squares), not spelling or location.
  friend bool operator==(const PieceDesignator& a, const PieceDesignator& b) {
    return a.pieces == b.pieces && a.promoted == b.promoted && a.not_promoted == b.not_promoted &&
           a.tag == b.tag && a.squares == b.squares;
  }
};

/// Error of the designator readers: `offset` is a byte offset into the text that was read.
struct DesignatorError {
  size_t offset = 0;
  std::string message;
  std::string expected;
};

/// Parses a whole word as a piece designator (piece part required). Throws DesignatorError.
PieceDesignator parse_piece_designator(std::string_view text);

/// Parses a whole word as a square designator (e.g. `:inside`'s region). Throws DesignatorError.
SquareDesignator parse_square_designator(std::string_view text);

/// Reads a piece designator starting at `pos` and advances `pos` past it; stops at the first
/// character that cannot continue the designator. With `piece_part_optional` (move lines) a
/// bare square designator (`e4`) is accepted too, and `is_stop(c)` tells which character may
/// follow the designator: when a reading leaves a non-stop character, the other reading is
/// tried (`a2` = square a2, not "black piece" + "2"). Throws DesignatorError.
PieceDesignator read_piece_designator(std::string_view text, size_t& pos, bool piece_part_optional,
                                      const std::function<bool(char)>& is_stop);

/// Reads a square designator at `pos` (possibly nothing: then `written` is false and the set
/// is all squares). Throws DesignatorError.
SquareDesignator read_square_designator(std::string_view text, size_t& pos);

}  // namespace cql

namespace cql {

/// Canonical spelling: piece part (single letter, class letter like `A`/`U`/`?`, or a
/// bracketed list in KQRBNPkqrbnp. order, with ~ / ~~), then the squares if not all 64:
/// a single square `e4`, or a bracketed list of file-rank runs like `[a-c1-2,e4]`, `[]`,
/// `[+]`, `[*]`. Parsing the result gives an equal designator.
std::string to_string(const PieceDesignator& pd);
/// Canonical spelling of a square designator ("" if it is all 64 squares without reserve).
std::string to_string(const SquareDesignator& sd);
/// Canonical spelling of a piece set without promotion flags ("" for 0).
std::string piece_mask_to_string(PieceMask m);

}  // namespace cql
