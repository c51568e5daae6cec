// The shell's `mark ID MARKER` / `mark ID -MARKER` / `mark ID clear`: Scid-style game markers
// (db/game_markers.h), the same as `cqldb mark`.
#include <stdexcept>
#include <string>

#include "cli/shell_commands.h"
#include "db/game_markers.h"

namespace cli {

CommandStatus shell_mark(ShellState& state, const CommandInput& input) {
  const auto& w = input.words;
  auto usage = [&](const std::string& why) {
    state.err() << "mark: " << why << "\nusage: mark ID MARKER | mark ID -MARKER | mark ID clear\n";
    return CommandStatus::kFailed;
  };
  if (w.size() != 2) return usage("expected a game id and a marker");
  uint32_t id = 0;
  try {
    size_t used = 0;
    const unsigned long v = std::stoul(w[0], &used);
    if (used != w[0].size() || v == 0 || v > UINT32_MAX) return usage("'" + w[0] + "' is no game id");
    id = uint32_t(v);
  } catch (const std::exception&) {
    return usage("'" + w[0] + "' is no game id");
  }
  const bool clear_all = w[1] == "clear";
  const bool clear = clear_all || (w[1].size() == 2 && w[1][0] == '-');
  const std::string marker = clear_all ? "" : clear ? w[1].substr(1) : w[1];
  try {
    db::set_game_marker(state.database().path(), id, marker, clear);
  } catch (const std::invalid_argument& e) {
    return usage(e.what());
  }
  const std::string now = db::game_markers(state.database().path(), id);
  state.out() << "game " << id << " markers: " << (now.empty() ? "(none)" : now) << '\n';
  return CommandStatus::kOk;
}

}  // namespace cli
