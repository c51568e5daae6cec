// The shell's query commands: `find` (also a bare `(match ...)`), `refine` and `explain`.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <optional>

#include "query/explain.h"
#include "cli/options.h"
#include "cli/shell_commands.h"
#include "cli/shell_input.h"
#include "cql/ast_print.h"
#include "cql/parser.h"
#include "cql6/parser.h"
#include "headers/header_store.h"
#include "query/executor.h"
#include "query/query.h"

namespace cli {

namespace {

/// A query's text and the name its error messages use.
struct ScriptText {
  std::string text;    ///< the CQL script
  std::string source;  ///< "query" for typed text, else the file name
};

/// The script of `input`: typed text starting with '(' or the name of a script file.
bool load_script(ShellState& state, const CommandInput& input, std::string_view command,
                 ScriptText& script) {
  if (input.text.empty()) {
    state.err() << command << ": give a query (match ...) or cql(...) ..., or a script file\n";
    return false;
  }
  if (input.text.front() == '(' || cql6::looks_like_cql6(input.text)) {  // CQL-S or CQL 6 text
    script = {input.text, "query"};
    return true;
  }
  std::vector<std::string> words;
  std::string error;
  if (!split_words(input.text, words, error) || words.size() != 1) {
    state.err() << command << ": " << (error.empty() ? "give one script file" : error) << '\n';
    return false;
  }
  std::ifstream in(words[0], std::ios::binary);
  if (!in) {
    state.err() << command << ": cannot read " << words[0] << '\n';
    return false;
  }
  script = {std::string(std::istreambuf_iterator<char>(in), {}), words[0]};
  return true;
}

/// Prints `message` (already located "source:line:col: ...") with the script line it points
/// at and a caret under column `column` (1-based, counting code points).
void print_located(ShellState& state, const ScriptText& script, const std::string& message,
                   uint32_t line, uint32_t column) {
  std::ostream& err = state.err();
  err << message << '\n';
  if (line == 0 || column == 0) return;
  size_t begin = 0;
  for (uint32_t l = 1; l < line && begin != std::string::npos; ++l) {
    begin = script.text.find('\n', begin);
    if (begin != std::string::npos) ++begin;
  }
  if (begin == std::string::npos || begin > script.text.size()) return;
  size_t end = script.text.find('\n', begin);
  std::string_view text =
      std::string_view(script.text).substr(begin, end == std::string::npos ? end : end - begin);
  std::string caret;
  uint32_t col = 1;
  for (char c : text) {
    if (col >= column) break;
    if ((static_cast<unsigned char>(c) & 0xC0) == 0x80) continue;  // UTF-8 continuation
    caret += c == '\t' ? '\t' : ' ';
    ++col;
  }
  err << "  " << text << "\n  " << caret << "^\n";
}

/// Parses `script`; prints the located error and returns nullopt when it does not parse.
std::optional<cql::Script> parse_script(ShellState& state, const ScriptText& script) {
  cql::ParseResult parsed = cql::parse(script.text, script.source);
  if (!parsed.ok()) {
    print_located(state, script, parsed.error->what(), parsed.error->line(),
                  parsed.error->column());
    return std::nullopt;
  }
  return std::move(parsed.script);
}

/// Parses, compiles and plans `script` (query/query.h); prints the located error and
/// returns nullopt on failure.
std::optional<query::Query> compile_query(ShellState& state, const ScriptText& script) {
  try {
    return query::Query::compile(script.text, script.source);
  } catch (const query::QueryError& e) {
    print_located(state, script, e.what(), e.line(), e.column());
    return std::nullopt;
  }
}

/// `find` and `refine`.
CommandStatus run_query(ShellState& state, const CommandInput& input, bool refine) {
  const char* command = refine ? "refine" : "find";
  ScriptText script;
  if (!load_script(state, input, command, script)) return CommandStatus::kFailed;
  std::optional<query::Query> compiled = compile_query(state, script);
  if (!compiled) return CommandStatus::kFailed;

  state.refresh_game_count();
  const uint64_t in_scope = refine ? state.result_size() : state.game_count();
  std::vector<uint32_t> within;
  query::ExecuteOptions options;
  options.cancel = &state.cancel();
  options.engine = state.engine;
  if (refine && !state.result().all) {
    within = state.result_ids();
    options.within = &within;
  }
  const bool progress = state.interactive() && isatty(STDERR_FILENO);
  if (progress)
    options.progress = [](uint64_t searched, uint64_t total, uint64_t matches) {
      std::fprintf(stderr, "\r\033[Ksearching: %s / %s games, %s matches",
                   with_commas(searched).c_str(), with_commas(total).c_str(),
                   with_commas(matches).c_str());
      std::fflush(stderr);
    };
  // (a Ctrl-C since the command began stops at once)
  query::Result result = query::execute(*compiled, state.database(), options);
  std::vector<eval::GameMatch>& matches = result.matches;
  const query::Stats& stats = result.stats;
  if (progress) {
    std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  }
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.2f s", stats.seconds);
  if (stats.cancelled) {
    state.err() << "interrupted: " << with_commas(stats.games_replayed) << " of "
                << with_commas(stats.candidates) << " candidate games searched, "
                << with_commas(stats.matches) << " matches so far; the current result is "
                << "unchanged\n";
    return CommandStatus::kInterrupted;
  }
  if (refine && !state.result().all) {
    // A game matched by header conditions alone keeps the plies its earlier query matched.
    for (eval::GameMatch& m : matches)
      if (m.plies.empty() && m.variation_plies.empty())
        if (const eval::GameMatch* before = state.find_match(m.id)) {
          m.plies = before->plies;
          m.variation_plies = before->variation_plies;
        }
  }
  const std::string where = refine ? " in the current result" : "";
  const bool replaced_narrower = !refine && !state.result().all;
  state.set_result(std::move(matches), std::string(command) + " " + one_line(script.text), refine);
  state.out() << with_commas(stats.matches) << " of " << with_commas(in_scope) << " games" << where
              << " match (" << with_commas(stats.candidates) << " candidates, " << seconds << ")\n";
  if (!stats.damaged.empty())
    state.err() << with_commas(stats.damaged.size()) << " damaged game" << (stats.damaged.size() == 1 ? "" : "s")
                << " skipped (first id " << stats.damaged.front() << "; `cqldb check` lists them)\n";
  if (replaced_narrower)
    state.out() << "(searched all games; `refine (match ...)` searches only the current result)\n";
  return CommandStatus::kOk;
}

}  // namespace

CommandStatus shell_find(ShellState& state, const CommandInput& input) {
  return run_query(state, input, false);
}

CommandStatus shell_refine(ShellState& state, const CommandInput& input) {
  return run_query(state, input, true);
}

CommandStatus shell_explain(ShellState& state, const CommandInput& command_input) {
  // `explain analyze QUERY` runs the query; plain `explain QUERY` only plans it.
  CommandInput input = command_input;
  const bool analyze = input.text.rfind("analyze", 0) == 0 &&
                       (input.text.size() == 7 || input.text[7] == ' ' || input.text[7] == '(');
  if (analyze) input.text = std::string(trim(std::string_view(input.text).substr(7)));
  ScriptText script;
  if (!load_script(state, input, analyze ? "explain analyze" : "explain", script))
    return CommandStatus::kFailed;
  std::ostream& out = state.out();
  std::string canonical;
  if (cql6::looks_like_cql6(script.text)) {  // issue 36: a CQL 6 script is shown as written
    out << "query (CQL 6, as written):\n";
    canonical = script.text;
  } else {
    std::optional<cql::Script> parsed = parse_script(state, script);
    if (!parsed) return CommandStatus::kFailed;
    cql::PrintOptions pretty;
    pretty.pretty = true;
    out << "query (canonical form):\n";
    canonical = cql::to_string(*parsed, pretty);
  }
  for (size_t at = 0; at < canonical.size();) {
    size_t end = canonical.find('\n', at);
    if (end == std::string::npos) end = canonical.size();
    out << "  " << std::string_view(canonical).substr(at, end - at) << '\n';
    at = end + 1;
  }
  std::optional<query::Query> compiled = compile_query(state, script);
  if (!compiled) return CommandStatus::kFailed;
  const eval::Program& program = compiled->program();

  state.refresh_game_count();
  const uint32_t count = state.game_count();
  const auto& alternatives = program.alternatives();
  std::vector<uint32_t> scope = state.result().all ? std::vector<uint32_t>{} : state.result_ids();
  headers::HeaderStore store = state.header_store();
  for (size_t i = 0; i < alternatives.size(); ++i) {
    const eval::Alternative& alt = alternatives[i];
    if (alternatives.size() > 1)
      out << "alternative " << i + 1
          << (alt.color_flipped ? " (colours flipped, match:eithercolor):\n" : " (as written):\n");
    std::vector<uint32_t> candidates = store.candidates(alt.header, count);
    out << "candidates:   " << with_commas(candidates.size()) << " of " << with_commas(count)
        << " games";
    if (!state.result().all) {
      size_t in_result = 0;
      for (uint32_t id : candidates)
        in_result += std::binary_search(scope.begin(), scope.end(), id);
      out << " (" << with_commas(in_result) << " in the current result, for `refine`)";
    }
    out << '\n';
    out << "position lists: " << alt.lists.size()
        << (alt.lists.empty() ? " (the header conditions decide alone)\n"
                              : " (candidates the signatures keep are replayed)\n");
  }
  if (program.negated()) out << "negated: a game matches when the rest of the list does not\n";
  // The planner's signature conditions and the estimates; with `analyze` the figures of a
  // real run over all games.
  out << query::explain_plan(*compiled, true) << query::explain_bound_values(*compiled);
  if (!analyze) {
    out << query::explain_estimates(*compiled, state.database());
    return CommandStatus::kOk;
  }
  query::ExecuteOptions options;
  options.cancel = &state.cancel();
  options.engine = state.engine;
  query::Result result = query::execute(*compiled, state.database(), options);
  out << query::explain_stats(result.stats);
  return result.stats.cancelled ? CommandStatus::kInterrupted : CommandStatus::kOk;
}

}  // namespace cli
