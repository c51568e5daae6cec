#include "eval/game_keywords.h"

#include <cctype>
#include <string>

#include "eval/start_position.h"

namespace eval {

namespace {

IntRange between(int64_t lo, int64_t hi) {
  IntRange r;
  r.lo = lo;
  r.hi = hi;
  return r;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

/// kVariant bits of one variant name (0 = no stored game).
int variant_bits(const std::string& name) {
  std::string v = lower(name);
  if (v == "normal" || v == "standard" || v == "chess") return 3;
  if (v == "chess960" || v == "fischerandom" || v == "960" || v == "fischer random" || v == "chess 960")
    return 2;
  return 0;
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
  Node n;
  n.op = Op::kStartPosition;
  std::vector<IntRange>& numbers = n.set(payload::StartNumbers{}).numbers;
  switch (k) {
    case cql::Keyword::IsChess960: numbers = {between(1, kLastChess960Position)}; break;
    case cql::Keyword::IsShuffleChess: numbers = {between(1, kLastShufflePosition)}; break;
    case cql::Keyword::StartPosition: {
      const auto& a = std::get<cql::StartPositionArgs>(item.args);
      if (a.any) numbers.push_back(between(1, kLastShufflePosition));
      for (const cql::StartPositionSpec& e : a.entries)
        if (e.fics.empty()) numbers.push_back(between(e.first, e.last));
      break;
    }
    case cql::Keyword::Variant: {
      n.op = Op::kVariant;
      uint8_t bits = 0;
      for (const std::string& code : std::get<cql::CodeListArgs>(item.args).codes) bits |= uint8_t(variant_bits(code));
      n.set(payload::VariantRules{bits});
      break;
    }
    default: break;
  }
  return n;
}

}  // namespace eval
