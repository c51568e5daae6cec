// `cqldb players --db DIR [PATTERN] [--limit N]` and `cqldb players import --db DIR FILE`
// (issue 17 A): the players of a database by player key, and the import of a player list.
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "db/file_lock.h"
#include "db/schema.h"
#include "headers/player_name.h"
#include "headers/players.h"
#include "query/open_database.h"

namespace cli {

namespace {

std::string range_text(int lo, int hi) {
  if (lo == 0 && hi == 0) return "-";
  if (lo == hi) return std::to_string(lo);
  return std::to_string(lo) + "-" + std::to_string(hi);
}

int run_players_import(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, file;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "file", po::value(&file)->required(), "player list: FIDE TXT rating list or CSV");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("players import", options, positional, args, vm)) return *exit;
  if (!require_database("players import", db_dir)) return kUsageError;
  { db::Database check = query::open_database(db_dir); }  // a database of this format
  auto lock = db::FileLock::try_lock(std::filesystem::path(db_dir) / db::schema::kWriterLockFile);
  if (!lock) {
    std::fprintf(stderr, "cqldb players import: %s is being written by another process\n", db_dir.c_str());
    return 1;
  }
  const auto started = std::chrono::steady_clock::now();
  std::vector<headers::players::ListError> errors;
  std::vector<headers::players::PlayerRecord> records;
  try {
    records = headers::players::read_player_list(file, errors);
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "cqldb players import: %s: %s\n", file.c_str(), e.what());
    return 1;
  }
  for (size_t i = 0; i < errors.size() && i < 10; ++i)
    std::fprintf(stderr, "%s:%zu: %s\n", file.c_str(), errors[i].line, errors[i].message.c_str());
  if (errors.size() > 10) std::fprintf(stderr, "... and %zu more bad lines\n", errors.size() - 10);
  const double read_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  const headers::players::PlayerListImport imported = headers::players::import_player_list(db_dir, records);
  const headers::players::LinkCounts& link = imported.link;
  std::printf("player list:   %s entries read (%s bad lines) in %.2f s, %s stored in %.2f s\n",
              with_commas(records.size()).c_str(), with_commas(errors.size()).c_str(), read_seconds,
              with_commas(uint64_t(imported.stored)).c_str(), imported.store_seconds);
  std::printf("games linked:  %s games, %s sides by FIDE id, %s by name, %s with a title; "
              "%s ambiguous spellings; %.2f s\n",
              with_commas(uint64_t(link.games)).c_str(), with_commas(uint64_t(link.sides_by_fide_id)).c_str(),
              with_commas(uint64_t(link.sides_by_name)).c_str(),
              with_commas(uint64_t(link.sides_with_title)).c_str(),
              with_commas(uint64_t(link.ambiguous_names)).c_str(), link.seconds);
  return errors.empty() ? 0 : 1;
}

}  // namespace

int run_players(const std::vector<std::string>& args) {
  if (!args.empty() && args[0] == "import")
    return run_players_import(std::vector<std::string>(args.begin() + 1, args.end()));
  namespace po = boost::program_options;
  std::string db_dir, pattern;
  int64_t limit = 50;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "pattern", po::value(&pattern), "name: a substring, or with * or ? a pattern on the name or player key")(
      "limit", po::value(&limit)->default_value(50), "list at most N players (0 = all)");
  po::positional_options_description positional;
  positional.add("pattern", 1);
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("players", options, positional, args, vm)) return *exit;
  if (!require_database("players", db_dir)) return kUsageError;
  { db::Database check = query::open_database(db_dir); }  // a database of this format
  const auto started = std::chrono::steady_clock::now();
  const bool is_pattern = !headers::is_plain_name(pattern);
  const std::vector<headers::players::PlayerSummary> players =
      headers::players::list_players(db_dir, pattern, is_pattern);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::printf("%7s  %-9s  %-9s  %s\n", "games", "Elo", "years", "player key: spellings (games)");
  size_t shown = 0;
  for (const headers::players::PlayerSummary& p : players) {
    if (limit > 0 && shown == size_t(limit)) break;
    ++shown;
    std::string spellings;
    for (const auto& [name, games] : p.spellings)
      spellings += (spellings.empty() ? "" : ", ") + name + " (" + with_commas(uint64_t(games)) + ")";
    std::printf("%7s  %-9s  %-9s  %s: %s\n", with_commas(uint64_t(p.games)).c_str(),
                range_text(p.elo_min, p.elo_max).c_str(), range_text(p.first_year, p.last_year).c_str(),
                p.key.c_str(), spellings.c_str());
  }
  std::fprintf(stderr, "%s players (%zu shown) in %.3f s\n", with_commas(players.size()).c_str(), shown, seconds);
  return 0;
}

}  // namespace cli
