#include "cli/shell_state.h"

#include <algorithm>
#include <numeric>


namespace cli {

ShellState::ShellState(db::Database database, std::string name, bool interactive, std::ostream& out,
                       std::ostream& err)
    : database_(std::move(database)),
      name_(std::move(name)),
      interactive_(interactive),
      out_(out),
      err_(err) {
  refresh_game_count();
}

void ShellState::refresh_game_count() {
  db::GameReader reader = database_.reader();
  game_count_ = reader.game_count();
}

headers::HeaderStore ShellState::header_store() const { return headers::HeaderStore(database_.path()); }

uint64_t ShellState::result_size() const {
  return result_.all ? game_count_ : result_.games.size();
}

std::vector<uint32_t> ShellState::result_ids() const {
  std::vector<uint32_t> ids;
  if (result_.all) {
    ids.resize(game_count_);
    std::iota(ids.begin(), ids.end(), 1u);
  } else {
    ids.reserve(result_.games.size());
    for (const eval::GameMatch& m : result_.games) ids.push_back(m.id);
  }
  return ids;
}

const eval::GameMatch* ShellState::find_match(uint32_t id) const {
  if (result_.all) return nullptr;
  auto it = std::lower_bound(result_.games.begin(), result_.games.end(), id,
                             [](const eval::GameMatch& m, uint32_t v) { return m.id < v; });
  return it != result_.games.end() && it->id == id ? &*it : nullptr;
}

void ShellState::set_result(std::vector<eval::GameMatch> games, const std::string& step,
                            bool refine) {
  if (!refine || result_.all) result_.steps.clear();
  result_.all = false;
  result_.games = std::move(games);
  result_.steps.push_back(step);
}

void ShellState::reset_result() {
  result_ = CurrentResult{};
}

std::atomic<bool>& ShellState::cancel_flag() {
  static std::atomic<bool> flag{false};
  return flag;
}

}  // namespace cli
