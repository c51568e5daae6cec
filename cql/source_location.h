// Positions in CQL source text.
#pragma once

#include <cstdint>

namespace cql {

/// A 1-based line and column in a CQL script. Columns count Unicode code points (a UTF-8
/// multi-byte character is one column), tabs count as one column. line == 0 means "unknown".
struct SourceLoc {
  uint32_t line = 0;    ///< 1-based line number
  uint32_t column = 0;  ///< 1-based column number

  friend bool operator==(const SourceLoc&, const SourceLoc&) = default;
};

}  // namespace cql
