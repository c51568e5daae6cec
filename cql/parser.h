// The CQL parser: text -> cql::Script (see ast.h). Implements SPEC "Syntax", the keyword
// table in keywords.h and the designator/range grammars in designator.h/range.h.
//
// Errors: every malformed input is a ParseError with line, column, the offending token and
// what was expected, e.g.
//   query.cql:3:14: unknown keyword ':foo' in position list (expected a position-list keyword)
// Nothing is silently dropped.
#pragma once

#include <optional>
#include <string_view>

#include "cql/ast.h"
#include "cql/error.h"

namespace cql {

/// Deepest nesting of lists a script may have: the match list is level 1, each list given
/// as a keyword argument (or a position list inside the match list) one level more, and so
/// does `!:kw`, which is `:not (list :kw)` and prints so. Deeper scripts are refused with a
/// located ParseError "... nested deeper than 100 lists", so every recursive pass after the
/// parser (AST walks and printing, compile, the planner's derive/simplify, destruction)
/// recurses at most this deep, and a script's printed form parses again (issue 14: 20,000
/// nested `:not` lists overflowed the stack).
inline constexpr int kMaxNestingDepth = 100;

/// The outcome of parse(): exactly one of `script` and `error` is set.
struct ParseResult {
  std::optional<Script> script;
  std::optional<ParseError> error;
  bool ok() const { return script.has_value(); }
};

/// Parses a whole script: one `(match ...)` list, optionally surrounded by comments.
/// `source_name` is used in error messages ("query.cql").
ParseResult parse(std::string_view text, std::string_view source_name);

/// Like parse() but throws ParseError.
Script parse_or_throw(std::string_view text, std::string_view source_name);

/// Convenience for tests and tools: parses one `(position ...)` list given as the whole
/// input (a script must be a match list; this entry point is not used for queries).
/// $tag references are not checked against :forany here. Throws ParseError.
List parse_position_list(std::string_view text, std::string_view source_name = "<position>");

}  // namespace cql
