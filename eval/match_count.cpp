#include "eval/match_count.h"

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

}  // namespace eval
