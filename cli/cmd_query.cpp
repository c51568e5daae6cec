// `cqldb query --db DIR (SCRIPT.cql | -e TEXT) [--format ids|table|jsonl|pgn|html] [-o FILE]
//               [--limit N] [--threads N] [--quiet] [--engine PATH]
//               [--tablebases DIR[:DIR]]`
//
// Exit codes: 0 success (also with no match), 1 runtime failure (database, output file),
// 2 usage error or a script that does not parse or compile (message `file:line:col: ...`),
// 130 interrupted by Ctrl-C (the matches found so far are still written).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "cli/query_output.h"
#include "chess/position.h"
#include "db/database.h"
#include "import/pgn_cache.h"
#include "headers/game_order.h"
#include "headers/header_store.h"
#include "headers/player_hints.h"
#include "query/executor.h"
#include "query/explain.h"
#include "query/open_database.h"
#include "query/query.h"
#include "query/sharded.h"
#include "render/html_report.h"

namespace cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void on_query_sigint(int) {
  g_cancel.store(true);
}

/// Reads the script text from `path` ("-" = stdin); false if it cannot be read.
bool read_script(const std::string& path, std::string& text) {
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), {});
    return !std::cin.bad();
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  text.assign(std::istreambuf_iterator<char>(in), {});
  return !in.bad();
}

void print_summary(const query::Stats& s) {
  std::fprintf(
      stderr, "%s%s, %s game%s searched, %.2f s (%s candidates, %s positions evaluated)\n",
      s.cancelled ? "interrupted: " : "", query::matches_text(s).c_str(),
      with_commas(s.games_total).c_str(), s.games_total == 1 ? "" : "s",
      s.seconds, with_commas(s.candidates).c_str(), with_commas(s.positions).c_str());
  if (!s.damaged.empty()) {
    std::string ids;
    for (size_t i = 0; i < s.damaged.size() && i < 10; ++i) ids += (i ? ", " : "") + std::to_string(s.damaged[i]);
    if (s.damaged.size() > 10) ids += ", ...";
    std::fprintf(stderr, "%s damaged game%s skipped: id%s %s (cqldb check --db DIR lists the damage)\n",
                 with_commas(s.damaged.size()).c_str(), s.damaged.size() == 1 ? "" : "s",
                 s.damaged.size() == 1 ? "" : "s", ids.c_str());
  }
  if (s.engine_calls || s.cache_hits)
    std::fprintf(stderr, "engine: %s searches, %s results from the analysis cache\n",
                 with_commas(s.engine_calls).c_str(), with_commas(s.cache_hits).c_str());
}

/// What `cqldb query` was asked, after its options were read and checked.
struct QueryCommand {
  std::string db_dir, pgn_file, script_path, text, source_name, output, engine;
  query::Dialect dialect = query::Dialect::kAuto;  ///< --dialect
  OutputFormat format = OutputFormat::kTable;
  bool format_given = false;  ///< --format was given (else :output FILE switches to pgn)
  bool cql6_marks = false;    ///< PGN to a CQL 6 script's `output FILE`: CQL 6.2's comments
  bool from_script = false;   ///< the text came from a script file (its :pgn may be beside it)
  std::optional<headers::SortOrder> sort_order;
  uint64_t limit = 0;
  unsigned threads = 0;
  bool quiet = false, explain = false, explain_analyze = false, no_planner = false;
  std::vector<std::string> no_stages;
};

/// Reads and checks the options into `cmd` and the script text; the exit code when the
/// command is done (--help, a usage error), nullopt when it should run.
std::optional<int> read_query_command(const std::vector<std::string>& args, QueryCommand& cmd) {
  namespace po = boost::program_options;
  std::string expression, fen, format_name = "table", dialect_name = "auto";
  po::options_description options("Options");
  options.add_options()("db", po::value(&cmd.db_dir), "database directory")(
      "pgn", po::value(&cmd.pgn_file),
      "search this PGN file instead of --db: imported once into a cached database beside it "
      "(or under $XDG_CACHE_HOME/cqldb), reused while the file is unchanged (also :pgn FILE in "
      "the script)")(
      "script", po::value(&cmd.script_path), "CQL script file (- = stdin)")(
      "expression,e", po::value(&expression), "the CQL script given as text")(
      "dialect", po::value(&dialect_name)->default_value("auto"),
      "the script's language: cqls (CQL 1.0 with the CQL-S extensions), cql6 (CQL 6.1/6.2, "
      "docs/cql6.md) or auto (CQL 6 when the script starts with its header `cql(`)")(
      "fen", po::value(&fen), "the games that reach this exact position: (match (position :fen \"FEN\"))")(
      "format", po::value(&format_name)->default_value("table"), "ids, table, jsonl, pgn or html (a page with a board diagram of each matched position)")(
      "output,o", po::value(&cmd.output), "file to write the results to (default or -: stdout)")(
      "limit", po::value(&cmd.limit)->default_value(0),
      "keep the first N matches of the order (0 = all); without --sort the search stops at N")(
      "sort", po::value<std::string>(),
      "order the matches: date, elo, white, black, event or id; a leading - reverses (date "
      "oldest first, elo strongest first, names A-Z); with --limit N the first N of that order")(
      "threads", po::value(&cmd.threads)->default_value(0), "search threads (0 = all cores)")(
      "quiet,q", "no progress display")(
      "explain", "print the plan (header SQL and bound values, signature conditions, estimates from the posting index) without running the query")(
      "explain-analyze", "run the query and print the plan and the figures of each stage (to stderr)")(
      "no-planner", "prune nothing: replay every game (header conditions are still tested, after the replay)")(
      "no-stage", po::value<std::vector<std::string>>()->composing(),
      "switch one pruning stage off: postings, positions, headers, signatures or windows (repeatable)");
  add_analysis_options(options, cmd.engine);
  po::positional_options_description positional;
  positional.add("script", 1);
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("query", options, positional, args, vm)) return *exit;
  if (vm.count("script") + vm.count("expression") + vm.count("fen") != 1) {
    std::fprintf(stderr,
                 "cqldb query: give either a script file, -e TEXT or --fen FEN (see `cqldb query --help`)\n");
    return kUsageError;
  }
  if (vm.count("sort")) {
    cmd.sort_order = headers::parse_sort_order(vm["sort"].as<std::string>());
    if (!cmd.sort_order) {
      std::fprintf(stderr, "cqldb query: cannot sort by '%s' (expected %s)\n", vm["sort"].as<std::string>().c_str(),
                   std::string(headers::sort_order_names()).c_str());
      return kUsageError;
    }
  }
  if (vm.count("fen")) {
    // --fen is sugar for a :fen list; the FEN is checked here for a message naming the option.
    chess::Position check;
    const chess::FenError err = check.set_fen(fen);
    if (!err.ok() || fen.find('"') != std::string::npos) {
      std::fprintf(stderr, "cqldb query: --fen: %s\n", err.ok() ? "a FEN has no '\"'" : err.message.c_str());
      return kUsageError;
    }
    expression = "(match (position :fen \"" + fen + "\"))";
  }
  const std::optional<OutputFormat> format = parse_output_format(format_name);
  if (!format) {
    std::fprintf(stderr, "cqldb query: unknown format '%s' (expected %s)\n", format_name.c_str(),
                 std::string(output_format_names()).c_str());
    return kUsageError;
  }
  try {
    cmd.dialect = query::parse_dialect(dialect_name);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "cqldb query: --dialect: %s\n", e.what());
    return kUsageError;
  }
  cmd.format = *format;
  cmd.format_given = !vm["format"].defaulted();
  cmd.text = expression;
  cmd.from_script = vm.count("script") != 0;
  cmd.source_name = vm.count("expression") ? "-e" : vm.count("fen") ? "--fen" : cmd.script_path;
  if (cmd.from_script && !read_script(cmd.script_path, cmd.text)) {
    std::fprintf(stderr, "cqldb query: cannot read %s\n", cmd.script_path.c_str());
    return kUsageError;
  }
  cmd.quiet = vm.count("quiet") != 0;
  cmd.explain = vm.count("explain") != 0;
  cmd.explain_analyze = vm.count("explain-analyze") != 0;
  cmd.no_planner = vm.count("no-planner") != 0;
  if (vm.count("no-stage")) cmd.no_stages = vm["no-stage"].as<std::vector<std::string>>();
  apply_analysis_options(vm);
  return std::nullopt;
}

/// The database to search: --db DIR, or the cached database of --pgn FILE or the script's
/// CQL 1.0 `:pgn FILE` (import/pgn_cache.h; the command line wins); also takes the script's
/// `:output FILE`. Sets cmd.db_dir; the exit code of a usage error, else nullopt.
std::optional<int> choose_database(QueryCommand& cmd, const query::Query& compiled) {
  const query::ScriptFiles files = compiled.files();
  if (!cmd.db_dir.empty() && !cmd.pgn_file.empty()) {
    std::fprintf(stderr, "cqldb query: give either --db DIR or --pgn FILE\n");
    return kUsageError;
  }
  if (cmd.db_dir.empty() && cmd.pgn_file.empty()) cmd.pgn_file = files.pgn;
  else if (!files.pgn.empty() && !cmd.db_dir.empty())
    std::fprintf(stderr, "note: the script's %s %s is not searched: --db %s is\n",
                 compiled.dialect() == query::Dialect::kCql6 ? "input" : ":pgn", files.pgn.c_str(), cmd.db_dir.c_str());
  if (cmd.db_dir.empty() && cmd.pgn_file.empty()) {
    std::fprintf(stderr, "cqldb query: give --db DIR, or a PGN file (--pgn FILE or :pgn FILE in the script)\n");
    return kUsageError;
  }
  if (!cmd.pgn_file.empty()) {
    std::string& pgn = cmd.pgn_file;
    if (!std::filesystem::is_regular_file(pgn) && cmd.from_script && !files.pgn.empty() &&
        pgn == files.pgn) {  // a script's :pgn may be relative to the script's directory
      const std::filesystem::path beside = std::filesystem::path(cmd.script_path).parent_path() / pgn;
      if (std::filesystem::is_regular_file(beside)) pgn = beside.string();
    }
    if (!std::filesystem::is_regular_file(pgn)) {
      std::fprintf(stderr, "cqldb query: cannot read the PGN file %s\n", pgn.c_str());
      return kUsageError;
    }
    const import::PgnCache cache = import::cached_database(pgn);
    if (cache.imported) {
      std::fprintf(stderr, "importing %s once into %s (reused while the file is unchanged)\n", pgn.c_str(),
                   cache.dir.c_str());
      std::fprintf(stderr, "imported %s games, rejected %s\n", with_commas(cache.summary.imported).c_str(),
                   with_commas(cache.summary.rejected).c_str());
    } else {
      std::fprintf(stderr, "searching %s through its cached database %s\n", pgn.c_str(), cache.dir.c_str());
    }
    cmd.db_dir = cache.dir.string();
  }
  if (cmd.output.empty() && !files.output.empty()) {
    cmd.output = files.output;  // :output FILE: the matching games as PGN with {MATCH} comments
    if (!cmd.format_given) cmd.format = OutputFormat::kPgn;
    // a CQL 6 script's `output FILE`: marked as CQL 6.2 marks them (cli/query_output.h)
    cmd.cql6_marks = compiled.dialect() == query::Dialect::kCql6 && cmd.format == OutputFormat::kPgn;
  }
  if (!require_database("query", cmd.db_dir)) return kUsageError;
  return std::nullopt;
}

/// The stages switched off by --no-planner and --no-stage; false after printing the error
/// for an unknown stage name.
bool switch_stages_off(const QueryCommand& cmd, query::ExecuteOptions& run_options) {
  if (cmd.no_planner) run_options.planner_off();
  for (const std::string& name : cmd.no_stages) {
    if (std::find(std::begin(query::kPruningStages), std::end(query::kPruningStages), name) ==
        std::end(query::kPruningStages)) {
      std::fprintf(stderr, "cqldb query: unknown stage '%s' (expected %s)\n", name.c_str(),
                   query::pruning_stage_names().c_str());
      return false;
    }
    run_options.disabled.insert(name);
  }
  return true;
}

/// Runs the query with a progress line on a terminal and Ctrl-C as cancel (the matches found
/// so far are kept).
query::Result run_with_progress(const QueryCommand& cmd, const query::Query& compiled, const query::Store& store,
                                query::ExecuteOptions& run_options) {
  run_options.threads = cmd.threads;
  run_options.limit = cmd.limit;
  run_options.sort = cmd.sort_order;
  run_options.cancel = &g_cancel;
  run_options.engine = cmd.engine;
  const bool show_progress = !cmd.quiet && isatty(STDERR_FILENO);
  if (show_progress)
    run_options.progress = [](uint64_t searched, uint64_t total, uint64_t matches) {
      std::fprintf(stderr, "\rsearching: %s / %s games, %s matches ", with_commas(searched).c_str(),
                   with_commas(total).c_str(), with_commas(matches).c_str());
    };
  g_cancel = false;
  auto previous = std::signal(SIGINT, on_query_sigint);
  query::Result result;
  try {
    result = store.execute(compiled, run_options);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  std::signal(SIGINT, previous);
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  return result;
}

/// Writes the matches in the chosen format (html shows the script above the games).
void write_results(const QueryCommand& cmd, const query::Query& compiled, const query::Store& store,
                   const std::vector<eval::GameMatch>& matches, std::ostream& out) {
  query::Store::Reader reader = store.reader();  // global ids for a sharded database
  if (cmd.format == OutputFormat::kHtml) {
    render::HtmlReportOptions report;
    report.query_text = compiled.text();
    render::write_html_report(out, reader, matches, report);
  } else {
    PgnMarks marks;
    marks.cql6 = cmd.cql6_marks;
    marks.quiet = compiled.cql6_options().quiet;
    marks.silent = compiled.cql6_options().silent;
    marks.match_text = compiled.cql6_options().matchstring.value_or("CQL");
    write_matches(out, cmd.format, reader, matches, marks);
  }
  out.flush();
}

}  // namespace

int run_query(const std::vector<std::string>& args) {
  QueryCommand cmd;
  if (const std::optional<int> exit = read_query_command(args, cmd)) return *exit;
  std::optional<query::Query> compiled;
  try {
    compiled.emplace(query::Query::compile(cmd.text, cmd.source_name, cmd.dialect));
  } catch (const query::QueryError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return kUsageError;
  }
  if (const std::optional<int> exit = choose_database(cmd, *compiled)) return *exit;
  // an ordinary database, or a sharded one (query/sharded.h): the same answers, ids global
  const std::unique_ptr<query::Store> store = query::Store::open(cmd.db_dir, true);
  OutputTarget target(cmd.output);
  if (!target.ok()) {
    std::fprintf(stderr, "cqldb query: cannot write %s\n", cmd.output.c_str());
    return 1;
  }
  std::ostream& out = target.stream();
  query::ExecuteOptions run_options;
  if (!switch_stages_off(cmd, run_options)) return kUsageError;
  const std::string plan = query::explain_plan(*compiled, run_options.enabled("signatures")) +
                           query::explain_bound_values(*compiled);
  if (cmd.explain) {  // the plan and the estimates, without running the query
    out << plan << store->explain_estimates(*compiled);
    out.flush();
    return out ? 0 : 1;
  }
  if (cmd.explain_analyze) std::fputs(plan.c_str(), stderr);
  query::Result result = run_with_progress(cmd, *compiled, *store, run_options);
  const query::Stats& stats = result.stats;
  write_results(cmd, *compiled, *store, result.matches, out);
  print_summary(stats);
  if (stats.matches == 0 && compiled->has_cqls_script()) {  // SPEC "Player names": a quoted plain name that only a substring finds
    std::vector<std::string> hints;  // a sharded database: each shard's, once
    for (const query::Store::Part& part : store->parts())
      for (std::string& hint : headers::players::quoted_name_hints(part.dir, compiled->script()))
        if (std::find(hints.begin(), hints.end(), hint) == hints.end()) hints.push_back(std::move(hint));
    for (const std::string& hint : hints) std::fprintf(stderr, "%s\n", hint.c_str());
  }
  if (cmd.explain_analyze) std::fputs(query::explain_stats(stats).c_str(), stderr);
  if (!out) {
    std::fprintf(stderr, "cqldb query: writing the results failed\n");
    return 1;
  }
  return stats.cancelled ? 130 : 0;
}

}  // namespace cli
