// query::Query: the one entry point from CQL text to a runnable query (parse -> compile ->
// plan; SPEC-NOTES "The route of a query"). The command, the shell, benchmarks and tests build
// a Query and hand it to query::Executor (query/executor.h); nothing else wires the stages.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "cql/ast.h"
#include "eval/program.h"
#include "planner/plan.h"

namespace query {

/// A located query error: what() is "<source>:<line>:<column>: <message>[ (expected ...)]",
/// the same form for parse errors (cql::ParseError) and compile errors (cql::CompileError).
class QueryError : public std::runtime_error {
 public:
  QueryError(std::string source_name, uint32_t line, uint32_t column, std::string message,
             std::string expected = {});
  const std::string& source_name() const { return source_name_; }
  uint32_t line() const { return line_; }      ///< 1-based
  uint32_t column() const { return column_; }  ///< 1-based
  /// What went wrong, without location and without the "expected" part.
  const std::string& message() const { return message_; }
  /// What was expected instead (may be empty).
  const std::string& expected() const { return expected_; }

 private:
  std::string source_name_;
  uint32_t line_, column_;
  std::string message_, expected_;
};

/// The files a script names with CQL 1.0's `:pgn FILE` (search that PGN file, through its
/// cached database: import/pgn_cache.h) and `:output FILE` (write the matching games there
/// as PGN with {MATCH} comments).
struct ScriptFiles {
  std::string pgn;     ///< :pgn FILE
  std::string output;  ///< :output FILE
};

/// A parsed, compiled and planned CQL script. Move-only; the plan refers to the program,
/// which lives on the heap so that moving the Query keeps it valid.
class Query {
 public:
  /// Parses and compiles `text` (`source_name` names it in errors: a file name, or "-e") and
  /// derives the planner's plan. Throws QueryError.
  static Query compile(const std::string& text, const std::string& source_name);

  const eval::Program& program() const { return *program_; }
  const planner::Plan& plan() const { return *plan_; }
  /// The plan, for switches that change only how it prunes (bench_query --no-windows).
  planner::Plan& plan() { return *plan_; }
  const std::string& text() const { return text_; }
  const std::string& source_name() const { return source_name_; }
  /// The parsed script (cql/ast.h), read once: what the front-ends ask about the text
  /// (files(), the player hints of headers/player_hints.h) comes from here.
  const cql::Script& script() const { return *script_; }
  /// The file names of the match list's CQL 1.0 `:pgn FILE` and `:output FILE` ("" when
  /// absent; the first argument of the last such keyword).
  ScriptFiles files() const;

 private:
  std::string text_, source_name_;
  std::unique_ptr<cql::Script> script_;
  std::unique_ptr<eval::Program> program_;
  std::unique_ptr<planner::Plan> plan_;
};

}  // namespace query
