// Problems found while splitting and parsing PGN, with the line they were found on.
//
// Error policy (STYLE.md practice 6): an error rejects the game, which the importer skips
// and counts; a warning keeps the game and is counted. The stream always goes on.
//
//   errors (game rejected)              warnings (game kept)
//   - unterminated { comment            - control bytes skipped (splitter)
//   - unbalanced ( or )                 - tag syntax repaired, or tag dropped
//   - unexpected character in movetext  - text after the result (ignored)
//   - missing result in a game that     - missing result in a game that ends at a line
//     ends mid-line (the last game of     end (the Result tag still says who won)
//     a truncated file)                 - bad NAG ($ without digits, $ above 255), or
//   - empty game                          unknown glyph such as "???" (ignored)
//                                       - non-standard token read leniently: "1/2" as a
//                                         result, stray '}' or ',' between moves (ignored)
// Illegal moves are not the parser's business: the visitor checks them (and may skip the
// rest of the game, see PgnVisitor).
#pragma once

#include <cstdint>
#include <string>

namespace import {

/// Whether a problem rejects the game.
enum class PgnSeverity : uint8_t {
  kWarning,  ///< the game is kept; the problem is reported and counted
  kError,    ///< the game is rejected
};

/// What went wrong; the stable key for counting problems by kind.
enum class PgnIssue : uint8_t {
  kControlBytes,           ///< C0 control bytes (other than \t \n \r) were removed
  kTagSyntax,              ///< a malformed tag pair (missing quote or bracket, no name...)
  kUnterminatedComment,    ///< a { comment not closed before the end of the game
  kUnbalancedParenthesis,  ///< a ) without (, or a ( not closed before the result
  kUnexpectedCharacter,    ///< a character that cannot start a movetext token
  kMissingResult,          ///< no game termination marker (1-0, 0-1, 1/2-1/2, *)
  kTextAfterResult,        ///< tokens after the game termination marker
  kBadNag,                 ///< "$" without digits or above 255, or an unknown glyph
  kEmptyGame,              ///< no tags and no movetext at all
  kNonstandardToken,       ///< "1/2" for a draw, stray '}' or ',' (read leniently)
};

/// The short English name of an issue, e.g. "unterminated comment" (for counting by kind).
const char* issue_name(PgnIssue issue);

/// One problem in one game.
struct PgnDiagnostic {
  PgnSeverity severity = PgnSeverity::kWarning;  ///< error = the game is rejected
  PgnIssue issue = PgnIssue::kControlBytes;      ///< the kind of problem
  uint32_t line = 0;    ///< 1-based absolute line in the (decompressed) file
  std::string message;  ///< the details, naming the offending token, e.g. "unexpected '@'"

  /// "line 12: error: unterminated comment" style text (severity, then message).
  std::string to_string() const;
};

}  // namespace import
