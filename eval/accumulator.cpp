#include "eval/accumulator.h"

#include "eval/board_memo.h"

#include <unordered_set>

#include <algorithm>

#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/sequence.h"
#include "eval/transform.h"

namespace eval {

namespace {

/// Adds the matching variants of `list` at `c` to `acc.counts`. A list with a variant index
/// (eval/variant_index.h) tries only the variants the index offers, each once: the others
/// cannot match, so the counts are the same as when every variant is tried.
void count_variants_uncached(const PositionList& list, const PosCtx& c, Accumulators& acc,
                             std::vector<uint32_t>* matched = nullptr);

/// count_variants_uncached, answered from the list's memo (eval/board_memo.h) when the
/// position's inputs equal those of the thread's last evaluation of the list.
void count_variants(const PositionList& list, const PosCtx& c, Accumulators& acc) {
  if (!list.memo.active() || !BoardMemo::enabled()) return count_variants_uncached(list, c, acc);
  MemoKey key;
  list.memo.key(c, false, key);
  MemoSlot& slot = memo_slot(list.memo.id(), 1);
  if (slot.id == list.memo.id() && slot.key == key) {
    for (const auto& [counter, added] : slot.deltas) acc.counts[counter] += added;
    return;
  }
  const std::vector<uint32_t>& counters = list.memo.accumulate_counters();
  slot.deltas.clear();
  for (uint32_t i : counters) slot.deltas.emplace_back(i, -acc.counts[i]);
  slot.id = 0;  // not valid while counting
  slot.matched.clear();
  count_variants_uncached(list, c, acc, &slot.matched);
  for (auto& [counter, added] : slot.deltas) added += acc.counts[counter];
  slot.id = list.memo.id();
  slot.key = key;
}

void count_variants_uncached(const PositionList& list, const PosCtx& c, Accumulators& acc,
                             std::vector<uint32_t>* matched) {
  auto count = [&](const std::vector<Node>& variant) {
    for (const Node& n : variant)
      if (!n.match(c)) return;
    if (matched) matched->push_back(uint32_t(&variant - list.variants.data()));
    for (const Node& n : variant)
      if (n.op == Op::kAccumulate) ++acc.counts[n.as<payload::Counter>().index];
  };
  if (list.index.active()) {
    thread_local std::vector<uint32_t> scratch;
    list.index.for_each(*c.pos, scratch, [&](uint32_t v) { count(list.variants[v]); });
    return;
  }
  for (const std::vector<Node>& variant : list.variants) count(variant);
}

}  // namespace

void accumulate(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                Accumulators& acc) {
  std::fill(acc.counts.begin(), acc.counts.end(), 0);
  acc.counting = true;
  for (const auto& list : lists) count_variants(*list, c, acc);
  acc.counting = false;
}


AccumulatorNames accumulator_names(const cql::List& match) {
  AccumulatorNames out;
  cql::walk(match, [&](const cql::KeywordItem& item) {
    if (item.keyword != cql::Keyword::Accumulate && item.keyword != cql::Keyword::AccumulateStar) return;
    const bool star = item.keyword == cql::Keyword::AccumulateStar;
    const std::string& name = std::get<cql::NameArgs>(item.args).name;
    auto [it, added] = out.names.try_emplace(name);
    if (!added) {
      if (it->second.star != star)
        throw CompileError(item.loc, "accumulator '" + name + "' is used with both :accumulate and :accumulate*");
      return;
    }
    it->second.index = out.counters;
    it->second.star = star;
    out.counters += star ? 2 : 1;
  });
  return out;
}

}  // namespace eval

namespace eval {

void add_accumulation(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                      Accumulators& acc) {
  acc.counting = true;
  for (const auto& list : lists) count_variants(*list, c, acc);
  acc.counting = false;
}

namespace {

/// True if some node of `list` at any depth satisfies `pred`.
template <class Pred>
bool any_node(const PositionList& list, Pred&& pred) {
  for (const auto& variant : list.variants)
    for (const Node& n : variant) {
      if (pred(n)) return true;
      for (const auto& sub : n.lists)
        if (any_node(*sub, pred)) return true;
    }
  return false;
}

/// Calls `f(list)` for `list` and every position list nested in it.
template <class F>
void for_each_list(const cql::List& list, F&& f) {
  f(list);
  for (const cql::Element& e : list.elements) {
    if (const auto* sub = std::get_if<cql::Box<cql::List>>(&e)) {
      for_each_list(**sub, f);
    } else if (const auto* item = std::get_if<cql::KeywordItem>(&e)) {
      if (const auto* a = std::get_if<cql::SubListArgs>(&item->args))
        for (const cql::List& l : a->lists) for_each_list(l, f);
    }
  }
}

bool accumulates(const cql::List& list, const std::string& name) {
  for (const cql::KeywordItem* item : list.keywords())
    if ((item->keyword == cql::Keyword::Accumulate || item->keyword == cql::Keyword::AccumulateStar) &&
        std::get<cql::NameArgs>(item->args).name == name)
      return true;
  return false;
}

}  // namespace

bool reads_counters(const PositionList& list) {
  return any_node(list, [](const Node& n) { return n.op == Op::kSumRange; });
}

bool reads_line_tables(const PositionList& list) {
  return any_node(list, [](const Node& n) { return n.op == Op::kSequence || n.op == Op::kLineTable; });
}

AccumulatorNames AccumulatorNames::shifted(size_t offset) const {
  AccumulatorNames out = *this;
  for (auto& [name, entry] : out.names) entry.index += offset;
  return out;
}

ResetPlan::ResetPlan(const cql::List& list, std::span<const TransformKeyword> keywords,
                     const AccumulatorNames& names, size_t& counters) {
  for (const cql::KeywordItem* item : list.keywords()) {
    if (item->keyword != cql::Keyword::Reset) continue;
    const std::string& name = std::get<cql::NameArgs>(item->args).name;
    const AccumulatorNames::Entry* entry = names.find(name);
    if (!entry || !accumulates(list, name))
      throw CompileError(item->loc, ":reset " + name + ": the accumulator must be accumulated (:accumulate / "
                                                       ":accumulate*) by the same position list");
    bool dup = false;
    for (const Reset& r : resets_) dup |= r.name == name;
    if (!dup) resets_.push_back(Reset{name, 0, entry->star ? size_t(2) : size_t(1)});
  }
  if (resets_.empty() || keywords.empty()) {
    transforms_ = compose(keywords);
    group_.assign(transforms_.size(), 0);
  } else {
    const std::vector<Transform> rest = compose(keywords.first(keywords.size() - 1));
    const std::vector<Transform> last = transform_set(keywords.back());
    if (rest.size() * last.size() > kMaxComposeSteps)
      throw TransformLimitError("the transformation keywords of this position list give too many variants to "
                                "compose (more than " + std::to_string(kMaxComposeSteps) + " steps)");
    for (size_t g = 0; g < last.size(); ++g) {
      std::unordered_set<Transform, TransformHash> in_group;
      for (const Transform& x : rest) {
        const Transform t = x.then(last[g]);
        if (!in_group.insert(t).second) continue;
        transforms_.push_back(t);
        group_.push_back(g);
      }
    }
  }
  const size_t groups = group_.empty() ? 1 : group_.back() + 1;
  for (Reset& r : resets_) {
    r.base = counters;
    counters += groups * r.width;
  }
}

std::optional<size_t> ResetPlan::counter(const std::string& name, size_t i, bool swap) const {
  for (const Reset& r : resets_)
    if (r.name == name) return r.base + group_[i] * r.width + (r.width == 2 && swap ? 1 : 0);
  return std::nullopt;
}

void check_resets(const cql::List& match) {
  std::map<std::string, const cql::List*> owner;  // reset name -> its list
  for_each_list(match, [&](const cql::List& list) {
    for (const cql::KeywordItem* item : list.keywords()) {
      if (item->keyword != cql::Keyword::Reset) continue;
      const std::string& name = std::get<cql::NameArgs>(item->args).name;
      auto [it, added] = owner.try_emplace(name, &list);
      if (!added && it->second != &list)
        throw CompileError(item->loc, ":reset " + name + " in a second position list (an accumulator can be reset "
                                                         "by one position list only)");
    }
  });
  if (owner.empty()) return;
  for_each_list(match, [&](const cql::List& list) {
    for (const cql::KeywordItem* item : list.keywords()) {
      if (item->keyword != cql::Keyword::Accumulate && item->keyword != cql::Keyword::AccumulateStar &&
          item->keyword != cql::Keyword::SumRange)
        continue;
      const std::string& name = std::get<cql::NameArgs>(item->args).name;
      auto it = owner.find(name);
      if (it != owner.end() && it->second != &list)
        throw CompileError(item->loc, cql::keyword_spelling(item->keyword) + " " + name +
                                          ": the accumulator is reset (:reset) by another position list; it can "
                                          "be used only there");
    }
  });
}

}  // namespace eval

namespace eval {

bool sequences_read_counters(const std::vector<std::shared_ptr<const SequenceSpec>>& sequences) {
  for (const auto& spec : sequences)
    for (const auto& element : spec->elements)
      if (reads_counters(*element)) return true;
  return false;
}

void check_line_counters(const std::vector<std::shared_ptr<const SequenceSpec>>& sequences,
                         const std::vector<Alternative>& alternatives, const cql::List& match) {
  if (!sequences_read_counters(sequences)) return;
  for (const Alternative& alt : alternatives)
    for (const auto& list : alt.accumulating) {
      if (!reads_line_tables(*list)) continue;
      const cql::KeywordItem* first = nullptr;
      cql::walk(match, [&](const cql::KeywordItem& item) {
        if (!first && item.keyword == cql::Keyword::SumRange) first = &item;
      });
      throw CompileError(first ? first->loc : match.loc,
                         ":sumrange in a sequence or counted position list cannot be used when a list with "
                         ":accumulate contains a sequence or counted position list itself");
    }
}

}  // namespace eval
