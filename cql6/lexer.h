// The CQL 6 lexer (issue 36; SPEC "CQL 6 scripts"): UTF-8 text -> tokens with 1-based line
// and column. The Unicode spellings of CQL 6.2 (♔…♟ △ ▲ ◭ □ ▦ ∩ ∪ → ← ≤ ≥ ≠ × ―― ► ∊ ⬓ ✵)
// are read as their ASCII forms; `//` and `/* */` are comments. Piece designators
// (`Ka1`, `[RQ]e1-8`, `a1-8`, `[a-c]3`, `A`, `_`, `.`) are single tokens already resolved to
// piece kinds and squares.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cql6/error.h"

namespace cql6 {

/// Piece kinds of a designator: bit (color * 6 + type - 1) for chess::PieceType type
/// (white pawn = bit 0 ... black king = bit 11), bit 12 = empty square.
using Kinds = uint16_t;
inline constexpr Kinds kEmptyKind = 1 << 12;
inline constexpr Kinds kWhiteKinds = 0x3F;
inline constexpr Kinds kBlackKinds = 0x3F << 6;
inline constexpr Kinds kAllKinds = 0x1FFF;

/// What a token is.
enum class Tok : uint8_t {
  kEnd,         ///< end of the text
  kWord,        ///< a keyword or another name (text)
  kNumber,      ///< a non-negative integer (number)
  kString,      ///< a quoted string (text, escapes resolved)
  kDesignator,  ///< a piece designator (kinds, squares)
  kPunct,       ///< an operator or bracket (text: its ASCII spelling)
  kDash,        ///< `--` / `――` / `►` (capture = false) or `[x]` / `×` (capture = true)
  kRepeat,      ///< `{m,n}` written without blanks (lo, hi; hi = -1: unbounded)
};

/// One token with the place it starts.
struct Token {
  Tok kind = Tok::kEnd;
  std::string text;
  int64_t number = 0;
  Kinds kinds = 0;                 ///< kDesignator
  uint64_t squares = 0;            ///< kDesignator: bit s = square s (a1 = 0)
  bool capture = false;            ///< kDash
  int64_t lo = 0, hi = -1;         ///< kRepeat
  Loc loc;                         ///< 1-based line and column (in characters) of its start
  bool space_before = true;        ///< blank or comment (or start) right before it
  bool space_after = true;         ///< blank or comment (or end) right after it
  bool blank_line_before = false;  ///< an empty line right before it (CQL 6.2: ends a `path`)
  bool is(std::string_view p) const { return (kind == Tok::kPunct || kind == Tok::kWord) && text == p; }
};

/// Splits `text` into tokens (the last one is kEnd). Throws Error at the first character
/// that starts no token (an unknown symbol, an unclosed string or comment).
std::vector<Token> lex(std::string_view text);

}  // namespace cql6
