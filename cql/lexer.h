// Tokenizer for CQL scripts (CQL 1.0 list syntax with the CQL-S extensions).
//
// Token classes (see SPEC "Syntax"):
//   (  )                      list delimiters
//   :name  :name*             keyword; also spelled position:name / match:name / relation:name
//   !                         negation prefix, only when directly followed by a keyword
//   :                         a lone colon, separating two ranges (`>50% : >50%`)
//   < <= > >=                 comparison prefix of a range bound (`>=1934`)
//   "..."                     string; backslashes are kept verbatim for the pattern matcher,
//                             `\"` does not end the string
//   number                    [+-]digits[.digits]; U+2212 (minus sign) counts as '-'
//   percent                   digits%
//   word                      anything else up to whitespace, parenthesis, ';' or '"':
//                             designators (`[Bb]L?`), dates, results, move-line moves...
//                             A word may contain a parenthesized count: `consecutive(4)`.
//   ; comment                 to end of line (skipped)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cql/source_location.h"

namespace cql {

enum class TokenKind : uint8_t {
  LParen,
  RParen,
  Keyword,  ///< text = name without ':' or prefix (e.g. "line*"), spelling says how it was written
  Bang,     ///< '!' directly before a keyword
  Colon,    ///< a lone ':' (range separator)
  Compare,  ///< text is one of "<", "<=", ">", ">="
  String,   ///< text = content between the quotes, verbatim
  Number,   ///< text as written; number/is_integer hold the value
  Percent,  ///< text as written ("50%"); number holds 50
  Word,     ///< anything else
  End,      ///< end of input
};

/// How a keyword was spelled: `:kw` or with a list-kind prefix.
enum class KeywordSpelling : uint8_t { Plain, Position, Match, Relation };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;                                   ///< see TokenKind
  SourceLoc loc;                                      ///< location of the first character
  KeywordSpelling spelling = KeywordSpelling::Plain;  ///< Keyword tokens only
  double number = 0;                                  ///< Number and Percent tokens
  bool is_integer = false;   ///< Number tokens: no fractional part was written
  bool space_before = true;  ///< whitespace, a comment or the start of input precede the token

  /// The token as it appears in the source (for error messages).
  std::string spelled() const;
};

/// Splits `text` into tokens; the last token is always End.
/// Throws ParseError (with `source_name`) for an unterminated string.
std::vector<Token> tokenize(std::string_view text, std::string_view source_name);

/// Human-readable name of a token kind ("keyword", "')'", ...), for messages.
const char* token_kind_name(TokenKind kind);

}  // namespace cql
