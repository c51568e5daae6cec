#include "planner/position_plan.h"

#include <algorithm>
#include <iterator>

namespace planner {

namespace {

using Ids = std::optional<std::vector<uint32_t>>;

void and_into(Ids& acc, Ids next) {
  if (!next) return;
  if (!acc) {
    acc = std::move(next);
    return;
  }
  std::vector<uint32_t> both;
  std::set_intersection(acc->begin(), acc->end(), next->begin(), next->end(), std::back_inserter(both));
  acc = std::move(both);
}

}  // namespace

std::optional<std::vector<uint32_t>> position_candidates(const Condition& c, const posindex::PositionIndex& index,
                                                         uint32_t game_count) {
  switch (c.op) {
    case CondOp::kMaterial: {
      const auto& position = c.as<cond::FenMaterial>().position;
      if (!position) return std::nullopt;
      return index.candidates(*position, game_count);
    }
    case CondOp::kAnd:
    case CondOp::kSameRun: {
      // kSameRun: every kid holds in one run, so each holds.
      Ids acc;
      for (const Condition& k : c.kids) and_into(acc, position_candidates(k, index, game_count));
      return acc;
    }
    case CondOp::kOr: {
      std::vector<uint32_t> all;
      for (const Condition& k : c.kids) {
        Ids s = position_candidates(k, index, game_count);
        if (!s) return std::nullopt;
        std::vector<uint32_t> merged;
        std::set_union(all.begin(), all.end(), s->begin(), s->end(), std::back_inserter(merged));
        all.swap(merged);
      }
      if (c.kids.empty()) return std::nullopt;
      return all;
    }
    case CondOp::kFalse: return std::vector<uint32_t>{};
    default: return std::nullopt;
  }
}

bool uses_position_index(const Condition& c) {
  switch (c.op) {
    case CondOp::kMaterial: return c.as<cond::FenMaterial>().position != nullptr;
    case CondOp::kAnd:
    case CondOp::kSameRun:
      return std::any_of(c.kids.begin(), c.kids.end(), [](const Condition& k) { return uses_position_index(k); });
    case CondOp::kOr:
      return !c.kids.empty() &&
             std::all_of(c.kids.begin(), c.kids.end(), [](const Condition& k) { return uses_position_index(k); });
    default: return false;
  }
}

}  // namespace planner
