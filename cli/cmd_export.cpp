// `cqldb export --db DIR [--id N | --from N --to M] [-o FILE]`
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "query/sharded.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "query/open_database.h"
#include "db/pgn_writer.h"

namespace cli {

int run_export(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, output;
  uint32_t id = 0, from = 1, to = UINT32_MAX;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "id", po::value(&id), "export only game N")(
      "from", po::value(&from), "first game id (default 1)")(
      "to", po::value(&to), "last game id (default: the last game)")(
      "output,o", po::value(&output), "PGN file to write (default or -: stdout)");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("export", options, positional, args, vm)) return *exit;
  if (vm.count("id") && (vm.count("from") || vm.count("to"))) {
    std::fprintf(stderr, "cqldb export: give either --id N or --from N --to M, not both\n");
    return kUsageError;
  }
  if (from == 0 || from > to) {
    std::fprintf(stderr, "cqldb export: --from %u --to %u is an empty range (ids start at 1; "
                 "--from must not exceed --to)\n", from, to);
    return kUsageError;
  }
  if (vm.count("id")) from = to = id;
  if (!require_database("export", db_dir)) return kUsageError;
  // an ordinary database, or a sharded one: the shards' games in global id order
  std::unique_ptr<query::Store> store = query::Store::open(db_dir, true);
  const uint32_t game_count = store->game_count();
  if (vm.count("id") && (id == 0 || id > game_count)) {
    std::fprintf(stderr, "cqldb export: no game %u (the database has %u games)\n", id, game_count);
    return 1;
  }
  if (!vm.count("id") && from > game_count) {
    std::fprintf(stderr, "cqldb export: no games from id %u on (the database has %u games)\n", from, game_count);
    return 1;
  }
  OutputTarget target(output);
  if (!target.ok()) {
    std::fprintf(stderr, "cqldb export: cannot write %s\n", output.c_str());
    return 1;
  }
  std::ostream& out = target.stream();
  std::string text;
  db::GameHeader header;
  uint64_t written = 0;
  for (const query::Store::Part& part : store->parts()) {
    const uint32_t last = part.first_id + part.games - 1;
    if (part.games == 0 || last < from || part.first_id > to) continue;
    db::GameReader reader = part.database->reader();
    const uint32_t offset = part.first_id - 1;
    auto scan = reader.scan(std::max(from, part.first_id) - offset, std::min(to, last) - offset);
    uint32_t game_id;
    std::string_view bytes;
    while (scan.next(game_id, bytes)) {
      reader.read_header(game_id, header);
      text.clear();
      std::string_view notes;
      if (!bytes.empty() && (uint8_t(bytes[0]) & db::kHasAnnotations)) reader.annotations(game_id, notes);
      db::write_pgn(header, db::RecordView::parse(bytes, notes), text);
      out.write(text.data(), std::streamsize(text.size()));
      ++written;
    }
  }
  out.flush();
  if (!target.is_stdout())
    std::fprintf(stderr, "exported %llu game%s to %s\n", static_cast<unsigned long long>(written),
                 written == 1 ? "" : "s", output.c_str());
  return out ? 0 : 1;
}

}  // namespace cli
