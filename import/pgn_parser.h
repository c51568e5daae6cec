// Parses the text of one game (a RawGame from PgnSplitter) into PgnVisitor callbacks.
//
// Grammar handled (PGN standard section 8, leniently):
//   tags      `[Name "value"]`, several per line allowed; `\"` and `\\` unescaped. Broken
//             tags are repaired when the intent is clear, else dropped, with a warning:
//             `[Annotator  "Krush, I]` -> ("Annotator", "Krush, I"); `[Event Foo]` ->
//             ("Event", "Foo"); `[C54]` (no value) is dropped.
//   movetext  move numbers `12.` `12...` `12. ...` `12` (consumed); SAN tokens with glyph
//             suffixes; `$n`; standalone glyphs; `{...}` and `;` comments; `(` `)`
//             variations, nested to any depth; results `1-0` `0-1` `1/2-1/2` `*` (and
//             the spellings canonical_result() reads, with a warning); glyphs written as
//             symbols (`±`, `⩱`, `+-`, `=`...) as their NAGs; the en-passant suffix
//             (`e.p.`, `ep`, attached or not); `%` escape lines are skipped; U+FEFF is
//             whitespace; an unknown non-ASCII character is skipped with a warning.
// What is an error (the game is rejected) and what is a warning is listed in
// pgn_diagnostic.h. The parser stops at the first error. Text after the result is ignored
// with a warning (so two tagless games run together lose the second one, with a warning).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "import/pgn_diagnostic.h"
#include "import/pgn_splitter.h"
#include "import/pgn_visitor.h"

namespace import {

/// The outcome of parsing one game.
struct ParseStatus {
  bool rejected = false;  ///< an error was found (error()): do not keep the game
  bool skipped = false;   ///< the visitor called skip_rest_of_game()
  uint32_t moves = 0;     ///< move() callbacks made, variations included
  /// The splitter's warnings for this game, then the parser's problems in text order; when
  /// `rejected`, the last one is the error.
  std::vector<PgnDiagnostic> diagnostics;

  /// The error that rejected the game (the last diagnostic of error severity: a lenient
  /// token may still be reported after it), or nullptr.
  const PgnDiagnostic* error() const {
    if (!rejected) return nullptr;
    for (auto it = diagnostics.rbegin(); it != diagnostics.rend(); ++it)
      if (it->severity == PgnSeverity::kError) return &*it;
    return &diagnostics.back();
  }
};

/// A reusable parser: keeps scratch buffers (for unescaped or re-encoded text) between
/// games, so parsing allocates nothing for ordinary games. Use one per thread.
class PgnParser {
 public:
  /// Parses `game` into `visitor`. Line numbers are absolute: game.first_line + offset.
  /// Never throws on any input bytes.
  ParseStatus parse(const RawGame& game, PgnVisitor& visitor);

  /// Parses `text` (one game, '\n' line ends) whose first line is file line `first_line`.
  ParseStatus parse(std::string_view text, uint32_t first_line, PgnVisitor& visitor);

 private:
  std::string unescaped_;             // a tag value with \" and \\ resolved
  std::string utf8_;                  // a tag value or comment converted to UTF-8
  std::vector<uint32_t> open_lines_;  // lines of the `(` not yet closed
};

/// Parses one game with a per-thread PgnParser (see PgnParser::parse).
ParseStatus parse_game(const RawGame& game, PgnVisitor& visitor);

}  // namespace import
