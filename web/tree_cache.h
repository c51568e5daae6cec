// The opening trees `cqldb serve` built last (issue 39): the explorer asks for the tree and
// the game list of each position the user steps to (two requests at once) and steps back
// and forth, so the last trees are kept and a tree being built is shared with whoever asks
// for it meanwhile. Keyed by position, scope (query, filters) and game count, so a tree is
// never served for another database state.
#pragma once

#include <cstddef>
#include <functional>
#include <future>
#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "index/position_tree.h"

namespace web {

/// A small cache of recent trees, shared by the HTTP threads. Thread-safe.
class TreeCache {
 public:
  /// Trees kept at most (the least recently used one is dropped first).
  static constexpr size_t kEntries = 16;
  /// Top games each cached tree keeps (Tree::top_games): five pages of the game list.
  static constexpr size_t kTopGames = 50;

  /// The tree of `key` holding at least `top_games` top games: a kept one, the one another
  /// thread is building (waited for), or `build(n)` run here with n = max(top_games,
  /// kTopGames) and kept. An exception of `build` is rethrown to every waiter and nothing
  /// is kept.
  std::shared_ptr<const posindex::Tree> get(const std::string& key, size_t top_games,
                                            const std::function<posindex::Tree(size_t)>& build);

 private:
  struct Entry {
    std::string key;
    size_t top_games = 0;
    std::shared_future<std::shared_ptr<const posindex::Tree>> tree;
  };
  std::mutex mutex_;
  std::list<Entry> entries_;  // most recently used first
};

}  // namespace web
