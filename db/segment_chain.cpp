#include "db/segment_chain.h"

namespace db {

ChainUpdate update_segment_chain(const SegmentChain& chain, uint32_t count, bool rebuild) {
  ChainUpdate result;
  std::optional<std::vector<ChainSpan>> spans;
  if (!rebuild) spans = chain.open();
  if (spans && (spans->empty() || spans->back().last > count)) spans.reset();  // not this database's
  if (spans && spans->back().last == count) {
    result.segments = spans->size();
    return result;
  }
  result.rebuilt = !spans;
  const uint32_t first = spans ? spans->back().last + 1 : 1;
  result.from_import = chain.write(first, count);  // an empty database: a base covering no game
  result.added = count >= first ? count - first + 1 : 0;
  if (!spans) {
    chain.remove_segments();
    result.segments = 1;
    return result;
  }
  spans->push_back({first, count});
  while (spans->size() >= 2) {
    const ChainSpan a = (*spans)[spans->size() - 2], b = spans->back();
    if (a.games() > b.games() || a.games() + b.games() > chain.max_merged_games) break;
    chain.merge(a, b);
    ++result.merges;
    result.merged_games += a.games() + b.games();
    spans->pop_back();
    spans->back().last = b.last;
  }
  result.segments = spans->size();
  return result;
}

}  // namespace db
