#include "query/query.h"

#include "cql/error.h"
#include "cql/parser.h"
#include "cql6/parser.h"

namespace query {

namespace {

std::string located(const std::string& source, uint32_t line, uint32_t column, const std::string& message,
                    const std::string& expected) {
  std::string out = source + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message;
  if (!expected.empty()) out += " (expected " + expected + ")";
  return out;
}

}  // namespace

QueryError::QueryError(std::string source_name, uint32_t line, uint32_t column, std::string message,
                       std::string expected)
    : std::runtime_error(located(source_name, line, column, message, expected)),
      source_name_(std::move(source_name)),
      line_(line),
      column_(column),
      message_(std::move(message)),
      expected_(std::move(expected)) {}

Dialect parse_dialect(const std::string& name) {
  if (name == "auto") return Dialect::kAuto;
  if (name == "cqls" || name == "cql-s" || name == "cql1") return Dialect::kCqlS;
  if (name == "cql6") return Dialect::kCql6;
  throw std::invalid_argument("unknown dialect '" + name + "' (expected auto, cqls or cql6)");
}

Query Query::compile(const std::string& text, const std::string& source_name) {
  return compile(text, source_name, Dialect::kAuto);
}

Query Query::compile(const std::string& text, const std::string& source_name, Dialect dialect) {
  Query q;
  q.text_ = text;
  q.source_name_ = source_name;
  if (dialect == Dialect::kCql6 || (dialect == Dialect::kAuto && cql6::looks_like_cql6(text))) {
    q.dialect_ = Dialect::kCql6;
    try {
      const cql6::Script script = cql6::parse(text);
      q.cql6_.input = script.header.input;
      q.cql6_.output = script.header.output;
      q.cql6_.quiet = script.header.quiet;
      q.cql6_.silent = script.header.silent;
      q.cql6_.matchstring = script.header.matchstring;
      q.program_ = std::make_unique<eval::Program>(eval::Program::compile_cql6(script));
    } catch (const cql6::Error& e) {
      throw QueryError(source_name, e.loc().line, e.loc().column, e.what(), e.expected());
    }
    q.plan_ = std::make_unique<planner::Plan>(planner::Plan::make(*q.program_));
    return q;
  }
  cql::ParseResult parsed = cql::parse(text, source_name);
  if (!parsed.ok()) {
    const cql::ParseError& e = *parsed.error;
    throw QueryError(source_name, e.line(), e.column(), e.message(), e.expected());
  }
  q.script_ = std::make_unique<cql::Script>(std::move(*parsed.script));
  try {
    q.program_ = std::make_unique<eval::Program>(eval::Program::compile(*q.script_));
  } catch (const cql::CompileError& e) {
    throw QueryError(source_name, e.loc.line, e.loc.column, e.what());
  }
  q.plan_ = std::make_unique<planner::Plan>(planner::Plan::make(*q.program_));
  return q;
}

ScriptFiles Query::files() const {
  ScriptFiles files;
  if (dialect_ == Dialect::kCql6) {  // cql(input FILE output FILE)
    files.pgn = cql6_.input.value_or("");
    files.output = cql6_.output.value_or("");
    return files;
  }
  for (const cql::KeywordItem* k : script_->match.keywords()) {
    if (k->keyword != cql::Keyword::Pgn && k->keyword != cql::Keyword::Output) continue;
    const auto& patterns = k->as<cql::TextArgs>().patterns;
    if (patterns.empty()) continue;
    (k->keyword == cql::Keyword::Pgn ? files.pgn : files.output) = patterns.front().text;
  }
  return files;
}

}  // namespace query
