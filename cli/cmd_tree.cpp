// `cqldb tree`: the opening tree of a position (issue 18; index/position_tree.h), over all
// games or those passing header filters (--player, --year, --elo, --filter as the shell's
// `filter` terms).
#include <boost/program_options.hpp>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "cli/tree_output.h"
#include "db/database.h"
#include "headers/filter_terms.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_tree.h"
#include "index/tree_json.h"
#include "query/result_json.h"
#include "query/sharded.h"

namespace cli {

int run_tree(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, fen, moves, format_name = "table", player, year, elo;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "fen", po::value(&fen), "the position (default: the standard start position)")(
      "moves", po::value(&moves), "SAN moves played from --fen or the start, e.g. \"1.e4 c5 2.Nf3\"")(
      "format", po::value(&format_name)->default_value("table"), "table, jsonl or json")(
      "player", po::value(&player), "only games of this player (as the shell's filter player=)")(
      "year", po::value(&year), "only games of these years: 2010 or 2000..2010")(
      "elo", po::value(&elo), "only games with an Elo of at least this (filter elo>=)")(
      "filter", po::value<std::vector<std::string>>()->composing(),
      "a header filter term as the shell's `filter` takes it (repeatable), e.g. result=1-0");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("tree", options, positional, args, vm)) return *exit;
  if (format_name != "table" && format_name != "jsonl" && format_name != "json") {
    std::fprintf(stderr, "cqldb tree: unknown format '%s' (expected table, jsonl or json)\n", format_name.c_str());
    return 2;
  }
  chess::Position pos;
  const chess::FenError err = pos.set_fen(fen.empty() ? kStartFen : fen);
  if (!err.ok()) {
    std::fprintf(stderr, "cqldb tree: --fen: %s\n", err.message.c_str());
    return 2;
  }
  std::string error;
  if (!play_san_moves(pos, moves, error)) {
    std::fprintf(stderr, "cqldb tree: --moves: %s\n", error.c_str());
    return 2;
  }
  std::vector<std::string> terms;
  if (!player.empty()) terms.push_back("player=" + player);
  if (!year.empty()) terms.push_back("year=" + year);
  if (!elo.empty()) terms.push_back("elo>=" + elo);
  if (vm.count("filter"))
    for (const std::string& t : vm["filter"].as<std::vector<std::string>>()) terms.push_back(t);

  if (!require_database("tree", db_dir)) return kUsageError;
  // an ordinary database, or a sharded one whose shards' trees are summed (query/sharded.h)
  std::unique_ptr<query::Store> store = query::Store::open(db_dir, true);
  query::Store::Reader reader = store->reader();
  const auto start = std::chrono::steady_clock::now();
  std::optional<std::vector<uint32_t>> within;
  if (!terms.empty()) {
    std::optional<headers::HeaderFilter> filter = headers::compile_filter_terms(terms, error);
    if (!filter) {
      std::fprintf(stderr, "cqldb tree: %s\n", error.c_str());
      return 2;
    }
    within.emplace();
    for (const query::Store::Part& part : store->parts()) {
      headers::HeaderStore header_store(part.dir);
      for (uint32_t id : header_store.candidates(*filter, part.games)) within->push_back(id + part.first_id - 1);
    }
  }
  posindex::Tree tree;
  try {
    tree = store->tree(pos, within ? &*within : nullptr);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "cqldb tree: %s\n", e.what());
    return 1;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (format_name == "table") {
    std::fputs(format_tree_table(tree, pos, reader).c_str(), stdout);
    std::fprintf(stderr, "%s games reach the position%s (index %s, replayed %s) in %.1f ms\n",
                 with_commas(tree.total.games).c_str(), within ? " among the filtered games" : "",
                 with_commas(tree.index_hits).c_str(), with_commas(tree.replayed).c_str(), ms);
  } else {
    std::printf("%s\n", query::json_text(posindex::tree_json(tree, pos, reader)).c_str());
  }
  return 0;
}

}  // namespace cli
