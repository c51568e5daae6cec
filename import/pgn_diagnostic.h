// Problems found while splitting and parsing PGN, with the line they were found on.
//
// Error policy (STYLE.md practice 6): an error rejects the game, which the importer skips
// and counts; a warning keeps the game and is counted. The stream always goes on.
//
//   errors (game rejected)              warnings (game kept)
//   - unterminated { comment            - control bytes skipped (splitter)
//   - unbalanced ( or )                 - tag syntax repaired, or tag dropped
//   - unexpected character in movetext  - text after the result (ignored)
//                                       - missing result (the Result tag still says
//                                         who won; a file cut inside a token fails on
//                                         that token as an unreadable move)
//                                       - bad NAG ($ without digits, $ above 255), or
//   - empty game                          unknown glyph such as "???" (ignored)
//                                       - non-standard token read leniently: "1/2", "1–0",
//                                         "½-½", "+--" as a result, stray '}' or ','
//                                         between moves (ignored)
//                                       - unknown non-ASCII symbol in movetext (skipped)
//                                       - blank line inside the tag section (joined)
//                                       - bracket line that is no tag, `[pgn]` (dropped)
//                                       - Result tag and movetext result differ, FEN
//                                         castling rights that do not fit (game builder)
// The rules as a whole are in SPEC-NOTES.md, "PGN as accepted".
// Illegal moves are not the parser's business: the visitor checks them (and may skip the
// rest of the game, see PgnVisitor).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
  kNonstandardToken,       ///< "1/2", "1–0", "½-½", "+--" for a result, stray '}' or ','
                           ///< (read leniently)
  kBlankLineInTags,        ///< a blank line between two tags of one game (joined)
  kNotATag,                ///< a bracket line that is no tag, e.g. `[pgn]` (line dropped)
  kUnknownSymbol,          ///< a non-ASCII character in movetext that is no glyph (skipped)
  kResultFromMovetext,     ///< the Result tag is `*` or no result: the movetext's is stored
  kResultTagKept,          ///< the Result tag and the movetext disagree: the tag is stored
  kCastlingDropped,        ///< FEN castling rights that do not fit the board were dropped
};

/// True for the warnings that mean the stored game differs from the file's text in
/// something other than a move (a tag, the result, a dropped line or token): the import
/// summary and `cqldb info` list them as repairs. A repair never changes a move.
bool is_repair(PgnIssue issue);

/// True if `name` is the issue_name() of an issue for which is_repair() holds.
bool is_repair_name(std::string_view name);

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
