#include "eval/game_keywords.h"

#include "cql/game_keyword_values.h"

namespace eval {

namespace {

IntRange between(int64_t lo, int64_t hi) {
  IntRange r;
  r.lo = lo;
  r.hi = hi;
  return r;
}

}  // namespace

Node check_count_node(const std::vector<IntRange>& ranges, bool plus_form, bool swap) {
  Node n;
  if (ranges.size() == 1) {  // the n-th check of the side that just moved: colour-neutral
    n.op = Op::kNthCheck;
    n.range = ranges[0];
    return n;
  }
  n.op = Op::kCheckCount;
  // ranges[0] / [1] of the node: checks White / Black received.
  IntRange white_received = plus_form ? ranges[1] : ranges[0];
  IntRange black_received = plus_form ? ranges[0] : ranges[1];
  if (swap) std::swap(white_received, black_received);
  n.set(payload::CheckCounts{{white_received, black_received}, plus_form});
  return n;
}

Node game_keyword_node(const cql::KeywordItem& item, cql::Keyword k) {
  const cql::GameKeywordValues v = cql::game_keyword_values(item, k);
  Node n;
  if (v.is_variant) {
    n.op = Op::kVariant;
    n.set(payload::VariantRules{v.variant_bits});
    return n;
  }
  n.op = Op::kStartPosition;
  std::vector<IntRange>& numbers = n.set(payload::StartNumbers{}).numbers;
  for (const auto& [lo, hi] : v.start_ranges) numbers.push_back(between(lo, hi));
  return n;
}

}  // namespace eval
