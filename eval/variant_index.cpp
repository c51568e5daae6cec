#include "eval/variant_index.h"

#include <algorithm>
#include <utility>

#include "eval/node.h"

namespace eval {

namespace {

/// True if `n` can be a key: a non-negated plain designator whose kinds exclude the empty
/// square (it needs a piece on one of its squares).
bool keyable(const Node& n) {
  if (n.op != Op::kDesignator || n.negate) return false;
  const Designator& d = n.d[0];
  return !(d.pieces & cql::piece_mask::kEmpty) && !d.promoted && !d.not_promoted && d.tag < 0 && d.pieces;
}

}  // namespace

void VariantIndex::sort_unique(std::vector<uint32_t>& v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
}

void VariantIndex::build(const std::vector<std::vector<Node>>& variants, size_t min_variants) {
  groups_.clear();
  unkeyed_.clear();
  offered_once_ = false;
  active_ = variants.size() >= min_variants;
  if (!active_) return;
  // (bucket, variant) pairs per group in variant order, then stored flat per group (counting
  // sort: each bucket keeps its variants ascending). Second keys are dropped beyond a total of
  // about kMaxEntries pairs and for lists of fewer than 64 variants, so that lists with hundreds of thousands of variants (the compile
  // bounds of eval/list_compiler.h) index in linear time.
  constexpr size_t kMaxEntries = 1'000'000;
  // Lists of fewer than 64 variants (e.g. the many small lists nested in a transformed
  // list) keep one key: their buckets are short anyway.
  const int max_pairs =
      variants.size() < 64 ? 0 : int(std::clamp<size_t>(kMaxEntries / variants.size(), 1, kMaxPairs));
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> entries;  // per group: (bucket, variant)
  for (uint32_t v = 0; v < variants.size(); ++v) {
    const Designator* first = nullptr;
    const Designator* second = nullptr;
    for (const Node& n : variants[v]) {
      if (!keyable(n)) continue;
      const Designator& d = n.d[0];
      if (!first || chess::popcount(d.squares) < chess::popcount(first->squares)) {
        second = first;
        first = &d;
      } else if (!second || chess::popcount(d.squares) < chess::popcount(second->squares)) {
        second = &d;
      }
    }
    if (!first) {
      unkeyed_.push_back(v);
      continue;
    }
    if (second && chess::popcount(first->squares) * chess::popcount(second->squares) > max_pairs) second = nullptr;
    const PieceMask second_kinds = second ? second->pieces : PieceMask(0);
    auto g = std::find_if(groups_.begin(), groups_.end(),
                          [&](const Group& x) { return x.first == first->pieces && x.second == second_kinds; });
    if (g == groups_.end()) {
      groups_.emplace_back();
      entries.emplace_back();
      g = groups_.end() - 1;
      g->first = first->pieces;
      g->second = second_kinds;
    }
    auto& out = entries[size_t(g - groups_.begin())];
    g->first_squares |= first->squares;
    if (second) g->second_squares |= second->squares;
    for (chess::Bitboard b1 = first->squares; b1;) {
      const uint32_t s1 = uint32_t(chess::pop_lsb(b1));
      if (!second) {
        out.emplace_back(s1, v);
        continue;
      }
      for (chess::Bitboard b2 = second->squares; b2;) out.emplace_back(s1 * 64 + uint32_t(chess::pop_lsb(b2)), v);
    }
  }
  size_t placed = unkeyed_.size();
  for (const auto& out : entries) placed += out.size();
  offered_once_ = placed == variants.size();
  for (size_t gi = 0; gi < groups_.size(); ++gi) {
    Group& g = groups_[gi];
    const auto& out = entries[gi];
    const size_t buckets = g.second ? 64 * 64 : 64;
    g.start.assign(buckets + 1, 0);
    for (const auto& [bucket, v] : out) ++g.start[bucket + 1];
    for (size_t b = 0; b < buckets; ++b) g.start[b + 1] += g.start[b];
    g.variants.resize(out.size());
    std::vector<uint32_t> next(g.start.begin(), g.start.end() - 1);
    for (const auto& [bucket, v] : out) g.variants[next[bucket]++] = v;
  }
}

}  // namespace eval
