// The CQL 6 parser (issue 36; SPEC "CQL 6 scripts"): tokens -> typed AST (cql6/ast.h),
// following CQL 6's table of precedence (lowest first: transforms and `if`, `or`, `and`,
// `not`, `in`, the relational operators (chained), `abs`, `+ -`, `* / %`, `|`, `&`, `~`,
// `attacks`/`attackedby`, the direction filters, `light`/`dark`).
#pragma once

#include <string_view>

#include "cql6/ast.h"

namespace cql6 {

/// Parses a CQL 6 script (`cql(...)` header, then its filters). Throws Error (located, with
/// what was expected) for a syntax or type error, and for CQL 6 features of a later issue
/// (variables, loops, find, echo, sort, functions, dictionaries, strings, comment, path...):
/// "CQL 6 'echo' is not supported yet".
Script parse(std::string_view text);

/// True when `text` starts (after blanks and comments) with CQL 6's header `cql(` or `cql (`.
bool looks_like_cql6(std::string_view text);

}  // namespace cql6
