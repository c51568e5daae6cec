// `cqldb duplicates --db DIR [--format table|jsonl]` (issue 16): lists the groups of
// duplicate games (same main-line moves and start position, White, Black, Date and
// result; db/duplicate_index.h).
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "db/duplicate_index.h"
#include "db/game_reader.h"
#include "query/open_database.h"

namespace cli {

int run_duplicates(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, format_name = "table";
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "format", po::value(&format_name)->default_value("table"), "table or jsonl");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("duplicates", options, positional, args, vm)) return *exit;
  if (format_name != "table" && format_name != "jsonl") {
    std::fprintf(stderr, "cqldb duplicates: unknown format '%s' (expected table or jsonl)\n",
                 format_name.c_str());
    return 2;
  }
  if (!require_database("duplicates", db_dir)) return kUsageError;
  db::Database database = query::open_database(db_dir);
  db::GameReader reader = database.reader();
  const std::vector<std::vector<uint32_t>> groups = db::duplicate_groups(database);
  uint64_t games = 0;
  for (const auto& g : groups) games += g.size();
  if (format_name == "jsonl") {
    for (size_t i = 0; i < groups.size(); ++i) {
      std::string line = "{\"group\":" + std::to_string(i + 1) + ",\"ids\":[";
      for (size_t j = 0; j < groups[i].size(); ++j)
        line += (j ? "," : "") + std::to_string(groups[i][j]);
      std::printf("%s]}\n", line.c_str());
    }
    return 0;
  }
  if (!groups.empty()) std::printf("%7s %6s  %s\n", "group", "games", "ids");
  for (size_t i = 0; i < groups.size(); ++i) {
    std::string ids;
    for (uint32_t id : groups[i]) ids += (ids.empty() ? "" : " ") + std::to_string(id);
    std::printf("%7zu %6zu  %s\n", i + 1, groups[i].size(), ids.c_str());
  }
  std::printf("%s group%s of duplicates: %s games, %s of them extra copies, among %s games\n",
              with_commas(groups.size()).c_str(), groups.size() == 1 ? "" : "s",
              with_commas(games).c_str(), with_commas(games - groups.size()).c_str(),
              with_commas(reader.game_count()).c_str());
  return 0;
}

}  // namespace cli
