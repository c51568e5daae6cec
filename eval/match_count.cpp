#include "eval/match_count.h"

#include <algorithm>

namespace eval {

bool count_variant_matches(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& counts) {
  if (list.negated) {
    bool m = list.match(c);
    counts[0] += m;
    return m;
  }
  bool any = false;
  for (size_t v = 0; v < list.variants.size(); ++v) {
    bool all = true;
    for (const Node& n : list.variants[v]) {
      if (!n.match(c)) {
        all = false;
        break;
      }
    }
    counts[v] += all;
    any |= all;
  }
  return any;
}

bool track_variant_runs(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& runs,
                        std::vector<uint32_t>& longest) {
  std::vector<uint32_t> hit(runs.size(), 0);
  bool any = count_variant_matches(list, c, hit);
  for (size_t v = 0; v < runs.size(); ++v) {
    runs[v] = hit[v] ? runs[v] + 1 : 0;
    longest[v] = std::max(longest[v], runs[v]);
  }
  return any;
}

}  // namespace eval
