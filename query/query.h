// query::Query: the one entry point from CQL text to a runnable query (parse -> compile ->
// plan; SPEC-NOTES "The route of a query"). The command, the shell, benchmarks and tests build
// a Query and hand it to query::Executor (query/executor.h); nothing else wires the stages.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
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

/// The language of a query text: CQL 1.0 with the CQL-S extensions (`(match ...)`), or CQL 6
/// (issue 36; SPEC "CQL 6 scripts"). kAuto reads CQL 6 when the text starts (after blanks
/// and comments) with CQL 6's header `cql(`.
enum class Dialect : uint8_t { kAuto, kCqlS, kCql6 };

/// Parses a dialect name: "auto", "cqls" (also "cql1", "cql-s"), "cql6". Throws
/// std::invalid_argument naming the accepted values.
Dialect parse_dialect(const std::string& name);

/// What a CQL 6 script's `cql(...)` header asks besides filtering (issue 36).
struct Cql6Options {
  std::optional<std::string> input;   ///< `input file`: ignored, the database is the input
  std::optional<std::string> output;  ///< `output file`: write the matched games there as PGN
  bool quiet = false;                 ///< `quiet`
  bool silent = false;                ///< `silent`
  /// `matchstring "text"`: the mark of a matched position in the output file instead of
  /// `CQL` ("": no mark), as CQL 6.2 writes it
  std::optional<std::string> matchstring;
};

/// A parsed, compiled and planned CQL script. Move-only; the plan refers to the program,
/// which lives on the heap so that moving the Query keeps it valid.
class Query {
 public:
  /// Parses and compiles `text` (`source_name` names it in errors: a file name, or "-e") and
  /// derives the planner's plan. Throws QueryError.
  static Query compile(const std::string& text, const std::string& source_name);
  /// The same in the given dialect (kAuto: as above).
  static Query compile(const std::string& text, const std::string& source_name, Dialect dialect);

  /// The dialect the text was read in (never kAuto).
  Dialect dialect() const { return dialect_; }
  /// The CQL 6 header's options (empty for CQL-S).
  const Cql6Options& cql6_options() const { return cql6_; }

  const eval::Program& program() const { return *program_; }
  const planner::Plan& plan() const { return *plan_; }
  /// The plan, for switches that change only how it prunes (bench_query --no-windows).
  planner::Plan& plan() { return *plan_; }
  const std::string& text() const { return text_; }
  const std::string& source_name() const { return source_name_; }
  /// True when the text was parsed as CQL 1.0 / CQL-S (script() is there).
  bool has_cqls_script() const { return script_ != nullptr; }
  /// The parsed CQL-S script (cql/ast.h), read once: what the front-ends ask about the text
  /// (files(), the player hints of headers/player_hints.h) comes from here. Precondition:
  /// has_cqls_script() (a CQL 6 script is compiled from cql6/ast.h and not kept).
  const cql::Script& script() const { return *script_; }
  /// The file names of the match list's CQL 1.0 `:pgn FILE` and `:output FILE`, or of a
  /// CQL 6 header's `input FILE` and `output FILE` ("" when absent; for CQL-S the first
  /// argument of the last such keyword).
  ScriptFiles files() const;

 private:
  std::string text_, source_name_;
  std::unique_ptr<cql::Script> script_;
  Dialect dialect_ = Dialect::kCqlS;
  Cql6Options cql6_;
  std::unique_ptr<eval::Program> program_;
  std::unique_ptr<planner::Plan> plan_;
};

}  // namespace query
