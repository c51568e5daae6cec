#include "planner/plan.h"

#include <algorithm>

#include "eval/node.h"
#include "planner/postings_plan.h"

namespace planner {

namespace {

bool checks_where_matched(const eval::PositionList& list);

/// True if `n`, a conjunct of a list, holds only where the side to move is in check: `check`
/// itself, a CQL 6 filter whose hints for its own position include one (Op::kCql6's hint
/// list), or a disjunction each of whose lists does. Nested lists of other ops (lines,
/// sequences, a CQL 6 constituent's conditions elsewhere) may hold at other positions: no.
bool checks_here(const eval::Node& n) {
  if (n.negate) return false;
  switch (n.op) {
    case eval::Op::kCheck: return true;
    case eval::Op::kCql6: return !n.lists.empty() && checks_where_matched(*n.lists[0]);
    case eval::Op::kOr:
      if (n.lists.empty()) return false;
      for (const auto& l : n.lists)
        if (!checks_where_matched(*l)) return false;
      return true;
    default: return false;
  }
}

/// True if every position where `list` matches has the side to move in check (each variant
/// has a conjunct for which checks_here holds).
bool checks_where_matched(const eval::PositionList& list) {
  if (list.negated || list.variants.empty()) return false;
  for (const std::vector<eval::Node>& variant : list.variants)
    if (std::none_of(variant.begin(), variant.end(), checks_here)) return false;
  return true;
}

}  // namespace

Plan Plan::make(const eval::Program& program) {
  Plan plan;
  for (const eval::Alternative& alt : program.alternatives()) {
    Condition c;
    const AccumulatingScope accumulating(alt.accumulating);
    if (!program.negated()) {
      c.op = CondOp::kAnd;
      // A list whose MatchCount admits 0 (`:matchcount 0`) need not match anywhere: it
      // says nothing a signature could refute.
      // A list that searches variations may match positions the signature (main line)
      // never saw, but only in a game that has variations: `:variations` needs the
      // main-line condition or variations, `:variationsonly` variations.
      for (size_t i = 0; i < alt.lists.size(); ++i) {
        if (alt.counts[i].admits_zero()) continue;
        Condition has_variations;
        has_variations.op = CondOp::kHasVariations;
        switch (alt.scopes[i]) {
          case eval::LineScope::kMainLine:
            c.kids.push_back(derive(*alt.lists[i]));
            // `matchcount m` over positions in check: m main-line positions in check
            if (alt.counts[i].lo >= 2 && checks_where_matched(*alt.lists[i])) {
              Condition checks;
              checks.op = CondOp::kAnyCheck;
              checks.set(cond::Checks{alt.counts[i].lo});
              c.kids.push_back(std::move(checks));
            }
            break;
          case eval::LineScope::kVariationsOnly: c.kids.push_back(has_variations); break;
          case eval::LineScope::kAll: {
            Condition either;
            either.op = CondOp::kOr;
            either.kids = {has_variations, derive(*alt.lists[i])};
            c.kids.push_back(simplify(std::move(either)));
            break;
          }
        }
      }
      c = simplify(std::move(c));
    }
    plan.prunes_ |= c.op != CondOp::kTrue;
    plan.scope_ = std::max(plan.scope_, c.scope());
    plan.needs_game_info_ |= c.needs_game_info();
    plan.conditions_.push_back(std::move(c));
  }
  plan.windows_ = PlyWindows::make(program);
  plan.prunes_ |= plan.windows_.active();  // the windows need the filter too
  return plan;
}

unsigned Plan::keep(const sig::Signature& s, const eval::GameInfo* info, unsigned alternatives) const {
  unsigned kept = 0;
  for (size_t i = 0; i < conditions_.size(); ++i)
    if ((alternatives >> i & 1) && conditions_[i].holds(s, info)) kept |= 1u << i;
  if (kept && prunes_by_windows()) kept = windows_.prune(s, kept);
  return kept;
}

std::optional<std::vector<uint32_t>> Plan::posting_candidates(const sig::Postings& postings, size_t alternative,
                                                              uint32_t game_count) const {
  if (alternative >= conditions_.size()) return std::nullopt;
  return planner::posting_candidates(conditions_[alternative], postings, game_count);
}

bool Plan::ply_windows(std::string_view bytes, unsigned alternatives, sig::Signature& scratch,
                       std::vector<uint8_t>& allowed) const {
  if (!has_ply_windows()) return false;
  sig::decode(bytes, scratch, windows_.scope());
  windows_.compute(scratch, alternatives, allowed);
  return true;
}

unsigned Plan::keep_encoded(std::string_view bytes, const eval::GameInfo* info, unsigned alternatives,
                            sig::Signature& scratch) const {
  sig::Summary summary;
  if (!sig::read_summary(bytes, summary)) return alternatives;  // unreadable: keep, replay decides
  unsigned kept = 0;
  for (size_t i = 0; i < conditions_.size(); ++i)
    if ((alternatives >> i & 1) && conditions_[i].holds_summary(summary, info)) kept |= 1u << i;
  if (kept && prunes_by_windows()) kept = windows_.prune(summary, kept);
  if (!kept || scope() == sig::DecodeScope::kHeader) return kept;  // the Summary decided
  sig::decode(bytes, scratch, scope());
  return keep(scratch, info, kept);
}

}  // namespace planner
