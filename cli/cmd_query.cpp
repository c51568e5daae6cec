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
#include <unordered_map>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/explain.h"
#include "cli/script_files.h"
#include "cli/options.h"
#include "cli/query_output.h"
#include "analysis/tablebase.h"
#include "chess/position.h"
#include "db/database.h"
#include "headers/game_order.h"
#include "headers/header_store.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "headers/player_hints.h"
#include "query/executor.h"
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
      stderr, "%s%s match%s, %s game%s searched, %.2f s (%s candidates, %s positions evaluated)\n",
      s.cancelled ? "interrupted: " : "", with_commas(s.matches).c_str(),
      s.matches == 1 ? "" : "es", with_commas(s.games_total).c_str(), s.games_total == 1 ? "" : "s",
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

}  // namespace

int run_query(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, script_path, expression, fen, format_name = "table", output, engine;
  uint64_t limit = 0;
  unsigned threads = 0;
  po::options_description options("Options");
  std::string pgn_file;
  options.add_options()("db", po::value(&db_dir), "database directory")(
      "pgn", po::value(&pgn_file),
      "search this PGN file instead of --db: imported once into a cached database beside it "
      "(or under $XDG_CACHE_HOME/cqldb), reused while the file is unchanged (also :pgn FILE in "
      "the script)")(
      "script", po::value(&script_path), "CQL script file (- = stdin)")(
      "expression,e", po::value(&expression), "the CQL script given as text")(
      "fen", po::value(&fen), "the games that reach this exact position: (match (position :fen \"FEN\"))")(
      "format", po::value(&format_name)->default_value("table"), "ids, table, jsonl, pgn or html (a page with a board diagram of each matched position)")(
      "output,o", po::value(&output), "file to write the results to (default or -: stdout)")(
      "limit", po::value(&limit)->default_value(0), "stop after N matches (0 = all)")(
      "sort", po::value<std::string>(),
      "order the matches: date, elo, white, black, event or id; a leading - reverses (date "
      "oldest first, elo strongest first, names A-Z; with --limit the first N found are sorted)")(
      "threads", po::value(&threads)->default_value(0), "search threads (0 = all cores)")(
      "quiet,q", "no progress display")(
      "explain", "print the plan (header SQL and bound values, signature conditions, estimates from the posting index) without running the query")(
      "explain-analyze", "run the query and print the plan and the figures of each stage (to stderr)")(
      "no-planner", "prune nothing: replay every game (header conditions are still tested, after the replay)")(
      "no-stage", po::value<std::vector<std::string>>()->composing(),
      "switch one pruning stage off: postings, positions, headers, signatures or windows (repeatable)")(
      "engine", po::value(&engine),
      "UCI engine for :evaluation / :moveevaluation (default: $CQLDB_ENGINE, else stockfish)")(
      "tablebases", po::value<std::string>(),
      "Gaviota tablebase directories DIR[:DIR] for :endgameevaluation (default: "
      "$CQLDB_TABLEBASES, else /usr/share/gaviotatb/gtb4)");
  po::positional_options_description positional;
  positional.add("script", 1);
  po::variables_map vm;
  switch (parse_options("query", options, positional, args, vm)) {
    case ParseOutcome::kExit:
      return 0;
    case ParseOutcome::kFail:
      return 2;
    case ParseOutcome::kRun:
      break;
  }
  if (vm.count("script") + vm.count("expression") + vm.count("fen") != 1) {
    std::fprintf(stderr,
                 "cqldb query: give either a script file, -e TEXT or --fen FEN (see `cqldb query --help`)\n");
    return 2;
  }
  std::optional<headers::SortOrder> sort_order;
  if (vm.count("sort")) {
    sort_order = headers::parse_sort_order(vm["sort"].as<std::string>());
    if (!sort_order) {
      std::fprintf(stderr, "cqldb query: cannot sort by '%s' (expected %s)\n", vm["sort"].as<std::string>().c_str(),
                   std::string(headers::sort_order_names()).c_str());
      return 2;
    }
  }
  if (vm.count("fen")) {
    // --fen is sugar for a :fen list; the FEN is checked here for a message naming the option.
    chess::Position check;
    const chess::FenError err = check.set_fen(fen);
    if (!err.ok() || fen.find('"') != std::string::npos) {
      std::fprintf(stderr, "cqldb query: --fen: %s\n", err.ok() ? "a FEN has no '\"'" : err.message.c_str());
      return 2;
    }
    expression = "(match (position :fen \"" + fen + "\"))";
  }
  std::optional<OutputFormat> format = parse_output_format(format_name);
  if (!format) {
    std::fprintf(stderr, "cqldb query: unknown format '%s' (expected %s)\n", format_name.c_str(),
                 std::string(output_format_names()).c_str());
    return 2;
  }
  std::string text = expression;
  std::string source_name = vm.count("expression") ? "-e" : vm.count("fen") ? "--fen" : script_path;
  if (vm.count("script") && !read_script(script_path, text)) {
    std::fprintf(stderr, "cqldb query: cannot read %s\n", script_path.c_str());
    return 2;
  }
  if (vm.count("tablebases")) analysis::tablebase::configure(vm["tablebases"].as<std::string>());
  std::optional<query::Query> compiled;
  try {
    compiled.emplace(query::Query::compile(text, source_name));
  } catch (const query::QueryError& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }

  // CQL 1.0's :pgn FILE and :output FILE (cli/script_files.h); the command line wins.
  const ScriptFiles files = script_files(text, source_name);
  if (!db_dir.empty() && !pgn_file.empty()) {
    std::fprintf(stderr, "cqldb query: give either --db DIR or --pgn FILE\n");
    return kUsageError;
  }
  if (db_dir.empty() && pgn_file.empty()) pgn_file = files.pgn;
  else if (!files.pgn.empty() && !db_dir.empty())
    std::fprintf(stderr, "note: the script's :pgn %s is not searched: --db %s is\n", files.pgn.c_str(),
                 db_dir.c_str());
  if (db_dir.empty() && pgn_file.empty()) {
    std::fprintf(stderr, "cqldb query: give --db DIR, or a PGN file (--pgn FILE or :pgn FILE in the script)\n");
    return kUsageError;
  }
  if (!pgn_file.empty()) {
    if (!std::filesystem::is_regular_file(pgn_file) && vm.count("script") && !files.pgn.empty() &&
        pgn_file == files.pgn) {  // a script's :pgn may be relative to the script's directory
      const std::filesystem::path beside = std::filesystem::path(script_path).parent_path() / pgn_file;
      if (std::filesystem::is_regular_file(beside)) pgn_file = beside.string();
    }
    if (!std::filesystem::is_regular_file(pgn_file)) {
      std::fprintf(stderr, "cqldb query: cannot read the PGN file %s\n", pgn_file.c_str());
      return kUsageError;
    }
    db_dir = cached_database(pgn_file).string();
  }
  if (output.empty() && !files.output.empty()) {
    output = files.output;  // :output FILE: the matching games as PGN with {MATCH} comments
    if (vm["format"].defaulted()) format = OutputFormat::kPgn;
  }
  if (!require_database("query", db_dir)) return kUsageError;
  // an ordinary database, or a sharded one (query/sharded.h): the same answers, ids global
  std::unique_ptr<query::Store> store = query::Store::open(db_dir, true);
  OutputTarget target(output);
  if (!target.ok()) {
    std::fprintf(stderr, "cqldb query: cannot write %s\n", output.c_str());
    return 1;
  }
  std::ostream& out = target.stream();

  query::ExecuteOptions run_options;
  if (vm.count("no-planner")) run_options.planner_off();
  if (vm.count("no-stage")) {
    for (const std::string& name : vm["no-stage"].as<std::vector<std::string>>()) {
      if (std::find(std::begin(query::kPruningStages), std::end(query::kPruningStages), name) ==
          std::end(query::kPruningStages)) {
        std::fprintf(stderr, "cqldb query: unknown stage '%s' (expected postings, headers, signatures or windows)\n",
                     name.c_str());
        return 2;
      }
      run_options.disabled.insert(name);
    }
  }
  if (vm.count("explain")) {  // the plan and the estimates, without running the query
    std::string plan_text;
    if (store->sharded()) {
      plan_text = store->explain(*compiled);
    } else {
      plan_text = query::explain_plan(*compiled, run_options.enabled("signatures"));
      plan_text += explain_bound_values(*compiled) + explain_estimates(*compiled, *store->parts()[0].database);
    }
    out << plan_text;
    out.flush();
    return out ? 0 : 1;
  }
  const bool explain = vm.count("explain-analyze") != 0;
  if (explain)
    std::fputs((query::explain_plan(*compiled, run_options.enabled("signatures")) + explain_bound_values(*compiled)).c_str(),
               stderr);
  run_options.threads = threads;
  run_options.limit = limit;
  run_options.cancel = &g_cancel;
  run_options.engine = engine;
  const bool show_progress = !vm.count("quiet") && isatty(STDERR_FILENO);
  if (show_progress)
    run_options.progress = [](uint64_t searched, uint64_t total, uint64_t matches) {
      std::fprintf(stderr, "\rsearching: %s / %s games, %s matches ", with_commas(searched).c_str(),
                   with_commas(total).c_str(), with_commas(matches).c_str());
    };
  g_cancel = false;
  auto previous = std::signal(SIGINT, on_query_sigint);
  query::Result result;
  try {
    result = store->execute(*compiled, run_options);
  } catch (...) {
    std::signal(SIGINT, previous);
    throw;
  }
  std::signal(SIGINT, previous);
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  const query::Stats& stats = result.stats;
  std::vector<eval::GameMatch>& matches = result.matches;
  if (sort_order) store->sort(matches, *sort_order);

  query::Store::Reader reader = store->reader();
  if (*format == OutputFormat::kHtml) {  // the report shows the script above the games
    render::HtmlReportOptions report;
    report.query_text = compiled->text();
    render::write_html_report(out, reader, matches, report);
  } else {
    write_matches(out, *format, reader, matches);
  }
  out.flush();
  print_summary(stats);
  if (stats.matches == 0 && !store->sharded()) {  // SPEC "Player names": a quoted plain name that only a substring finds
    db::sqlite::Connection sql(std::filesystem::path(db_dir) / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    for (const std::string& hint : headers::players::quoted_name_hints(sql, compiled->text()))
      std::fprintf(stderr, "%s\n", hint.c_str());
  }
  if (explain) std::fputs(query::explain_stats(stats).c_str(), stderr);
  if (!out) {
    std::fprintf(stderr, "cqldb query: writing the results failed\n");
    return 1;
  }
  return stats.cancelled ? 130 : 0;
}

}  // namespace cli
