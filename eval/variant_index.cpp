#include "eval/variant_index.h"

#include <algorithm>

#include "eval/node.h"

namespace eval {

void VariantIndex::build(const std::vector<std::vector<Node>>& variants, size_t min_variants) {
  groups_.clear();
  unkeyed_.clear();
  active_ = variants.size() >= min_variants;
  if (!active_) return;
  for (uint32_t v = 0; v < variants.size(); ++v) {
    const Designator* key = nullptr;
    for (const Node& n : variants[v]) {
      if (n.op != Op::kDesignator || n.negate) continue;
      const Designator& d = n.d[0];
      if (d.pieces & cql::piece_mask::kEmpty) continue;
      if (d.promoted || d.not_promoted) continue;
      if (!key || chess::popcount(d.squares) < chess::popcount(key->squares)) key = &d;
    }
    if (!key) {
      unkeyed_.push_back(v);
      continue;
    }
    auto g = std::find_if(groups_.begin(), groups_.end(),
                          [&](const Group& x) { return x.pieces == key->pieces; });
    if (g == groups_.end()) {
      groups_.emplace_back();
      g = groups_.end() - 1;
      g->pieces = key->pieces;
    }
    g->squares |= key->squares;
    for (chess::Bitboard b = key->squares; b;) g->by_square[chess::pop_lsb(b)].push_back(v);
  }
}

}  // namespace eval
