// Located errors of the CQL 6 front-end (lexer, parser, compiler): line and column of the
// offending token, what went wrong and, for parse errors, what was expected.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace cql6 {

/// A place in the script: 1-based line and column (columns count characters, not bytes).
struct Loc {
  uint32_t line = 1;
  uint32_t column = 1;
};

/// A CQL 6 script error. what() is the message alone; QueryError adds the location.
class Error : public std::runtime_error {
 public:
  Error(Loc loc, std::string message, std::string expected = {})
      : std::runtime_error(message), loc_(loc), expected_(std::move(expected)) {}
  Loc loc() const { return loc_; }
  /// What was expected instead (may be empty).
  const std::string& expected() const { return expected_; }

 private:
  Loc loc_;
  std::string expected_;
};

/// The error for a CQL 6 feature of a later issue: "CQL 6 'echo' is not supported yet", with
/// `detail` after the name when given ("CQL 6 'x' (a variable or function name) is not...").
inline Error not_supported(Loc loc, const std::string& what, const std::string& detail = {}) {
  return Error(loc, "CQL 6 '" + what + "'" + (detail.empty() ? "" : " " + detail) + " is not supported yet");
}

}  // namespace cql6
