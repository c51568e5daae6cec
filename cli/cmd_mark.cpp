// `cqldb mark --db DIR --id N --marker M [--clear]`: sets or clears a Scid-style game marker
// (db/game_markers.h), which CQL's match:hasmarker asks for.
#include <cstdio>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/options.h"
#include "db/game_markers.h"

namespace cli {

int run_mark(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, marker;
  int64_t id = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "id", po::value(&id)->required(), "game number (as `cqldb query` lists it)")(
      "marker", po::value(&marker), "one of w b m e n p t k q ! ? u 1-6 (Scid's game flags)")(
      "clear", "remove the marker (without --marker: every marker of the game)");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("mark", options, positional, args, vm)) return *exit;
  const bool clear = vm.count("clear") > 0;
  if (marker.empty() && !clear) {
    std::fprintf(stderr, "cqldb mark: --marker is required (or --clear to remove every marker)\n");
    return 2;
  }
  if (id < 1 || id > int64_t(UINT32_MAX)) {
    std::fprintf(stderr, "cqldb mark: --id must be a game number from 1\n");
    return 2;
  }
  try {
    db::set_game_marker(db_dir, uint32_t(id), marker, clear);
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "cqldb mark: %s\n", e.what());
    return 1;
  }
  const std::string now = db::game_markers(db_dir, uint32_t(id));
  std::printf("game %lld markers: %s\n", static_cast<long long>(id), now.empty() ? "(none)" : now.c_str());
  return 0;
}

}  // namespace cli
