// Helpers shared by the CQL 6 front-end tests (issues 36 and 37).
#pragma once

#include <string>

#include "query/query.h"

namespace cqltest {

/// The located error Query::compile gives for CQL 6 script `text` read as the file "s.cql"
/// ("s.cql:LINE:COLUMN: what (expected ...)"), or "" when it compiles.
inline std::string cql6_error_of(const std::string& text) {
  try {
    query::Query::compile(text, "s.cql");
  } catch (const query::QueryError& e) {
    return e.what();
  }
  return "";
}

}  // namespace cqltest
