// Reading shell input: when a command is complete (balanced parentheses), splitting a line
// into commands at `;`, and splitting arguments into words.
//
// The rules follow CQL's lexer (cql/lexer.h) closely enough to find where a query ends:
//   - "..." is a string; `\"` does not end it; parentheses inside do not count;
//   - inside parentheses `;` starts a CQL comment that runs to the end of the line;
//   - outside parentheses `;` separates two commands ("count; list 5").
// A line whose first non-blank character is `;` or `#`, typed where a new command would
// start, is a comment line and is ignored.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cli {

/// Collects input lines until they form complete commands.
class CommandAssembler {
 public:
  /// Adds one line (without its newline).
  void add_line(std::string_view line);
  /// True when text is pending but a parenthesis or string is still open: the caller
  /// should read a continuation line.
  bool needs_more() const;
  /// True when nothing is pending.
  bool empty() const { return pending_.empty(); }
  /// Takes the pending complete commands (split at `;` outside parentheses, blank ones
  /// dropped) and clears the buffer. Call when !needs_more() (or at end of input, where an
  /// unfinished query is handed over as is, so the parser reports it).
  std::vector<std::string> take_commands();
  /// Drops pending text (Ctrl-C at a continuation prompt).
  void clear() { pending_.clear(); }

 private:
  std::string pending_;  // lines so far, joined with '\n'
};

/// Depth of unclosed parentheses at the end of `text` (negative: more ')' than '('), and
/// whether a string is still open; strings and comments are skipped.
struct Balance {
  int depth = 0;
  bool in_string = false;
};
/// Scans `text` under the rules in the file comment.
Balance scan_balance(std::string_view text);

/// Splits `text` at each `;` that is outside parentheses and strings; pieces are trimmed and
/// blank pieces dropped.
std::vector<std::string> split_commands(std::string_view text);

/// Splits command arguments at blanks. A "double-quoted" part keeps its blanks (quotes
/// removed; inside, `\"` and `\\` stand for `"` and `\`) and may be glued to other
/// characters: `player="van Wely"` is one word `player=van Wely`. Single quotes are plain
/// characters (`player=O'Kelly`).
/// Returns false (with `error`) for an unterminated quote.
bool split_words(std::string_view text, std::vector<std::string>& words, std::string& error);

/// `text` without leading and trailing blanks (spaces, tabs, newlines).
std::string_view trim(std::string_view text);

/// `text` on one line: runs of blanks (newlines included) become one space, trimmed, cut to
/// `max_chars` bytes with "..." when longer. For result steps and messages.
std::string one_line(std::string_view text, size_t max_chars = 70);

}  // namespace cli
