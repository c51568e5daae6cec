// The shell's `tree` command (issue 18): the opening tree of a position over the current
// result (all games after `reset`). `tree e4 c5` steps in by SAN moves, `tree back` undoes
// the last move, `tree start` returns to the start position, `tree fen FEN` jumps to one.
#include <chrono>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/san.h"
#include "cli/options.h"
#include "cli/shell_commands.h"
#include "cli/tree_output.h"
#include "db/database.h"
#include "index/position_index.h"
#include "index/position_tree.h"

namespace cli {

namespace {

/// A session's path through the tree: the positions from the root, with the SAN moves between.
struct TreePath {
  std::vector<chess::Position> positions;  ///< positions[0] is the root
  std::vector<std::string> moves;          ///< moves[i] leads from positions[i] to positions[i + 1]
};

/// The path of `state`'s session (one per ShellState, made at the start position).
TreePath& path_of(const ShellState& state) {
  static std::map<const ShellState*, TreePath> paths;
  TreePath& path = paths[&state];
  if (path.positions.empty()) {
    path.positions.emplace_back();
    (void)path.positions.back().set_fen(kStartFen);
  }
  return path;
}

std::string path_text(const TreePath& path) {
  if (path.moves.empty()) return path.positions[0].fen();
  std::string s;
  for (size_t i = 0; i < path.moves.size(); ++i) {
    const chess::Position& pos = path.positions[i];
    if (pos.side_to_move() == chess::WHITE) s += std::to_string(pos.fullmove_number()) + ".";
    else if (i == 0) s += std::to_string(pos.fullmove_number()) + "...";
    s += path.moves[i] + " ";
  }
  s.pop_back();
  return s;
}

}  // namespace

CommandStatus shell_tree(ShellState& state, const CommandInput& input) {
  TreePath& path = path_of(state);
  const std::vector<std::string>& words = input.words;
  if (!words.empty() && words[0] == "back") {
    if (path.moves.empty()) {
      state.err() << "tree: already at the root position\n";
      return CommandStatus::kFailed;
    }
    path.moves.pop_back();
    path.positions.pop_back();
  } else if (!words.empty() && (words[0] == "start" || words[0] == "fen")) {
    chess::Position root;
    std::string fen = kStartFen;
    if (words[0] == "fen") {
      if (words.size() < 2) {
        state.err() << "usage: tree fen \"FEN\"\n";
        return CommandStatus::kFailed;
      }
      fen.clear();
      for (size_t i = 1; i < words.size(); ++i) fen += (i > 1 ? " " : "") + words[i];
    }
    const chess::FenError err = root.set_fen(fen);
    if (!err.ok()) {
      state.err() << "tree: " << err.message << '\n';
      return CommandStatus::kFailed;
    }
    path.positions.assign(1, root);
    path.moves.clear();
  } else {
    // Step in: every word a SAN move (move numbers allowed); all or nothing.
    TreePath next = path;
    for (const std::string& word : words) {
      chess::Position pos = next.positions.back();
      std::string error;
      if (!play_san_moves(pos, word, error)) {
        state.err() << "tree: " << error << '\n';
        return CommandStatus::kFailed;
      }
      if (pos.game_ply() == next.positions.back().game_ply()) continue;  // a move number alone
      // The word's move, written as SAN again (play_san_moves accepted it).
      std::string_view token(word);
      token.remove_prefix(token.find_last_of('.') == std::string_view::npos ? 0 : token.find_last_of('.') + 1);
      next.moves.push_back(chess::to_san(next.positions.back(), chess::parse_san(next.positions.back(), token)));
      next.positions.push_back(pos);
    }
    path = std::move(next);
  }
  const auto start = std::chrono::steady_clock::now();
  state.refresh_game_count();
  std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(state.database().path());
  if (!index) {
    state.err() << "tree: no current position index: run `cqldb reindex --db DIR --positions-only`\n";
    return CommandStatus::kFailed;
  }
  db::GameReader reader = state.database().reader();
  std::vector<uint32_t> ids;
  if (!state.result().all) ids = state.result_ids();
  posindex::Tree tree;
  try {
    tree = posindex::build_tree(*index, reader, path.positions.back(), state.result().all ? nullptr : &ids);
  } catch (const std::runtime_error& e) {
    state.err() << "tree: " << e.what() << '\n';
    return CommandStatus::kFailed;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  state.out() << "position: " << path_text(path) << '\n'
              << format_tree_table(tree, path.positions.back(), reader) << with_commas(tree.total.games) << " of "
              << with_commas(state.result_size()) << " games reach it";
  char buf[48];
  std::snprintf(buf, sizeof buf, " (%.1f ms)\n", ms);
  state.out() << buf;
  return CommandStatus::kOk;
}

}  // namespace cli
