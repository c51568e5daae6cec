#include "cql/error.h"

#include <utility>

namespace cql {

namespace {

std::string format_error(const std::string& source, SourceLoc loc, const std::string& message,
                         const std::string& expected) {
  std::string out = source.empty() ? std::string("<query>") : source;
  out += ':' + std::to_string(loc.line) + ':' + std::to_string(loc.column) + ": " + message;
  if (!expected.empty()) out += " (expected " + expected + ")";
  return out;
}

}  // namespace

ParseError::ParseError(std::string source_name, SourceLoc loc, std::string token,
                       std::string message, std::string expected)
    : std::runtime_error(format_error(source_name, loc, message, expected)),
      source_name_(std::move(source_name)),
      loc_(loc),
      token_(std::move(token)),
      message_(std::move(message)),
      expected_(std::move(expected)) {}

}  // namespace cql
