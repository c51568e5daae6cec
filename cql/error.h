// The error raised for any malformed CQL script.
#pragma once

#include <stdexcept>
#include <string>

#include "cql/source_location.h"

namespace cql {

/// A parse error. what() is the full message in the form
///   `query.cql:3:14: unknown keyword ':foo' in position list (expected a position-list keyword)`
/// i.e. "<source>:<line>:<column>: <message>[ (expected <expected>)]".
class ParseError : public std::runtime_error {
 public:
  ParseError(std::string source_name, SourceLoc loc, std::string token, std::string message,
             std::string expected = {});

  const std::string& source_name() const { return source_name_; }
  SourceLoc loc() const { return loc_; }
  uint32_t line() const { return loc_.line; }
  uint32_t column() const { return loc_.column; }
  /// The offending token as written (may be empty at end of input).
  const std::string& token() const { return token_; }
  /// What went wrong, without location and without the "expected" part.
  const std::string& message() const { return message_; }
  /// What the parser expected instead (may be empty).
  const std::string& expected() const { return expected_; }

 private:
  std::string source_name_;
  SourceLoc loc_;
  std::string token_;
  std::string message_;
  std::string expected_;
};

/// A script keyword whose evaluation is not implemented yet, or a keyword that is valid CQL
/// but cannot be used the way it was written (e.g. `:flipcolor` together with
/// `match:eithercolor`). Raised after parsing (eval/compile.cpp, headers/header_filter.cpp);
/// carries the keyword's location but no source name (query::QueryError adds it).
class CompileError : public std::runtime_error {
 public:
  CompileError(SourceLoc where, const std::string& message) : std::runtime_error(message), loc(where) {}
  SourceLoc loc;  ///< line and column of the offending keyword
};

}  // namespace cql
