// Canonical printer of the AST: the text re-parses to an equal AST, so it is used by tests
// (parse -> print -> parse) and by `explain`.
//
// Canonical choices: keywords as `:name`; designators and ranges in their canonical
// spelling (designator.h, range.h); a bare `:not` right after the list head; `!:kw` printed
// desugared as `:not (position :kw)`; relation lists without head: `(:pattern :shift)`;
// move lines in parentheses.
#pragma once

#include <string>

#include "cql/ast.h"

namespace cql {

struct PrintOptions {
  bool pretty = false;  ///< one element per line, nested lists indented
  int indent = 2;       ///< spaces per level in pretty mode
};

std::string to_string(const Script& script, const PrintOptions& options = {});
std::string to_string(const List& list, const PrintOptions& options = {});
std::string to_string(const KeywordItem& item, const PrintOptions& options = {});
std::string to_string(const LineArgs& line);

}  // namespace cql
