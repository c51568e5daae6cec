#include "eval/match_count.h"

#include <algorithm>

#include "eval/control.h"

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
  if (list.control && any && c.control) c.control->fire(list.control);  // bare :cut ...
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

namespace eval {

namespace {

/// Raises `out[p]` to 1 where the run of consecutive hits through p (0 off a run) has a
/// length in [lo, hi]. `hit` has one entry per ply.
void mark_runs(const std::vector<uint8_t>& hit, int64_t lo, int64_t hi, std::vector<uint8_t>& out) {
  const size_t n = hit.size();
  const bool zero = lo <= 0 && 0 <= hi;
  for (size_t p = 0; p < n;) {
    if (!hit[p]) {
      out[p] |= zero;
      ++p;
      continue;
    }
    size_t q = p;
    while (q < n && hit[q]) ++q;
    const int64_t len = int64_t(q - p);
    if (len >= lo && len <= hi)
      for (size_t i = p; i < q; ++i) out[i] = 1;
    p = q;
  }
}

}  // namespace

void find_line_table(const SequenceSpec& spec, std::span<const PosCtx> line,
                     std::vector<uint8_t>& scratch, std::vector<uint8_t>& out) {
  using Kind = SequenceSpec::Kind;
  const size_t n = line.size();
  const PositionList& list = *spec.elements.at(0);
  auto in_range = [&](int64_t v) { return v >= spec.count_lo && v <= spec.count_hi; };
  out.assign(n, 0);
  switch (spec.kind) {
    case Kind::kEndmost: {
      bool later = false;
      for (size_t p = n; p-- > 0;) {
        const bool m = list.match(line[p]);
        out[p] = m && !later;
        later |= m;
      }
      return;
    }
    case Kind::kFollowing:
      for (size_t p = 1; p < n; ++p) out[p] = list.match(line[p - 1]);
      return;
    case Kind::kPreceding:
      for (size_t p = 0; p + 1 < n; ++p) out[p] = list.match(line[p + 1]);
      return;
    case Kind::kLineCount: {
      int64_t count = 0;
      for (size_t p = 0; p < n; ++p) count += list.match(line[p]);
      out.assign(n, in_range(count));
      return;
    }
    case Kind::kRunCount:
      scratch.resize(n);
      for (size_t p = 0; p < n; ++p) scratch[p] = list.match(line[p]);
      mark_runs(scratch, spec.count_lo, spec.count_hi, out);
      return;
    case Kind::kPretransformLineCount:
    case Kind::kPretransformRunCount: {
      const size_t slots = list.negated ? 1 : std::max<size_t>(1, list.variants.size());
      std::vector<uint32_t> counts(slots, 0);
      if (spec.kind == Kind::kPretransformLineCount) {
        for (size_t p = 0; p < n; ++p) count_variant_matches(list, line[p], counts);
        bool some = false;
        for (uint32_t c : counts) some |= in_range(c);
        out.assign(n, some);
        return;
      }
      // per variant: its hits along the line (rows of `slots`), then its runs
      std::vector<uint8_t> hits(n * slots, 0);
      for (size_t p = 0; p < n; ++p) {
        std::fill(counts.begin(), counts.end(), 0);
        count_variant_matches(list, line[p], counts);
        for (size_t v = 0; v < slots; ++v) hits[v * n + p] = counts[v] != 0;
      }
      for (size_t v = 0; v < slots; ++v) {
        scratch.assign(hits.begin() + std::ptrdiff_t(v * n), hits.begin() + std::ptrdiff_t((v + 1) * n));
        mark_runs(scratch, spec.count_lo, spec.count_hi, out);
      }
      return;
    }
    default: return;
  }
}

std::shared_ptr<const PositionList> wrap_line_rules(
    const cql::List& list, std::shared_ptr<const PositionList> base, const MatchCount* nested_count,
    bool in_cut, std::vector<std::shared_ptr<const SequenceSpec>>& sequences) {
  using Kind = SequenceSpec::Kind;
  auto spec = std::make_shared<SequenceSpec>();
  const cql::KeywordItem* rule_item = nullptr;  // the keyword that set spec->kind
  auto set = [&](Kind kind, const cql::KeywordItem& item) {
    if (rule_item && !(kind <= Kind::kPretransformRunCount && spec->kind <= Kind::kPretransformRunCount))
      throw CompileError(item.loc, cql::keyword_spelling(item.keyword) + " together with " +
                                       cql::keyword_spelling(rule_item->keyword) + " in one position list");
    spec->kind = kind;
    rule_item = &item;
  };
  for (const cql::Element& e : list.elements) {
    const auto* item = std::get_if<cql::KeywordItem>(&e);
    if (!item) continue;
    switch (item->keyword) {
      case cql::Keyword::MatchCount:
      case cql::Keyword::PretransformMatchCount:
      case cql::Keyword::RepetitionCount:
      case cql::Keyword::PretransformRepetitionCount:
        if (!nested_count) break;  // a top-level list's MatchCount (Program::compile)
        set(nested_count->consecutive ? (nested_count->pretransform ? Kind::kPretransformRunCount : Kind::kRunCount)
                                      : (nested_count->pretransform ? Kind::kPretransformLineCount : Kind::kLineCount),
            *item);
        spec->count_lo = nested_count->lo;
        spec->count_hi = nested_count->hi;
        break;
      case cql::Keyword::EndMost: set(Kind::kEndmost, *item); break;
      case cql::Keyword::Following:
      case cql::Keyword::Preceding:
        if (in_cut && item->keyword == cql::Keyword::Preceding) break;
        if (nested_count)
          throw CompileError(item->loc, cql::keyword_spelling(item->keyword) +
                                            " can be used only in a top-level position list");
        set(item->keyword == cql::Keyword::Following ? Kind::kFollowing : Kind::kPreceding, *item);
        break;
      default: break;
    }
  }
  if (!rule_item) return base;
  check_line_controls(list, *rule_item);  // bare :cut ... of `list` itself fire from `out`
  spec->elements.push_back(base);
  Node n;
  n.op = Op::kLineTable;
  n.set(payload::SequenceId{uint32_t(sequences.size())});
  n.range.lo = spec->count_lo;
  n.range.hi = spec->count_hi;
  n.lists.push_back(std::move(base));
  sequences.push_back(std::move(spec));
  auto out = std::make_shared<PositionList>();
  out->control = n.lists[0]->control;
  out->variants.push_back({std::move(n)});
  return out;
}

}  // namespace eval
