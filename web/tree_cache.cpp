#include "web/tree_cache.h"

#include <algorithm>

namespace web {

std::shared_ptr<const posindex::Tree> TreeCache::get(const std::string& key, size_t top_games,
                                                     const std::function<posindex::Tree(size_t)>& build) {
  std::shared_future<std::shared_ptr<const posindex::Tree>> waiting;
  std::promise<std::shared_ptr<const posindex::Tree>> promise;
  const size_t top = std::max(top_games, kTopGames);
  {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(entries_.begin(), entries_.end(),
                           [&](const Entry& e) { return e.key == key && e.top_games >= top_games; });
    if (it != entries_.end()) {
      entries_.splice(entries_.begin(), entries_, it);
      waiting = it->tree;
    } else {
      entries_.push_front({key, top, promise.get_future().share()});
      if (entries_.size() > kEntries) entries_.pop_back();
    }
  }
  if (waiting.valid()) return waiting.get();  // kept, or being built by another thread
  try {
    auto tree = std::make_shared<const posindex::Tree>(build(top));
    promise.set_value(tree);
    return tree;
  } catch (...) {
    promise.set_exception(std::current_exception());
    std::lock_guard lock(mutex_);
    entries_.remove_if([&](const Entry& e) { return e.key == key && e.top_games == top; });
    throw;
  }
}

}  // namespace web
