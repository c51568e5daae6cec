// Condition::holds_summary (condition.h): the planner's first, cheap test on the fixed-place
// Summary of a signature (index/signature.h), before any decoding.
#include <algorithm>

#include "eval/board_predicates.h"
#include "planner/condition.h"
#include "planner/material.h"

namespace planner {

bool Condition::holds_summary(const sig::Summary& s, const eval::GameInfo* info) const {
  if (const std::optional<bool> shared = shared_field_test(*this, s, info)) return *shared;
  switch (op) {
    case CondOp::kAnd:
    case CondOp::kOr:
      return kids_hold(op == CondOp::kAnd, [&](const Condition& k) { return k.holds_summary(s, info); });
    // Run tests: every run's count (power) of the kinds is at least their least counts'
    // sum, so "some run has at most hi" needs that sum <= hi. Lower bounds say nothing else.
    case CondOp::kCountRun:
    case CondOp::kPowerRun:
      return material_of(s.min_material, as<cond::RunMaterial>().pieces, op == CondOp::kPowerRun) <=
             as<cond::RunMaterial>().hi;
    case CondOp::kSameRun:
      if (as<cond::SameRun>().or_null_moves && s.null_moves()) return true;
      return kids_hold(true, [&](const Condition& k) { return k.holds_summary(s, info); });
    case CondOp::kMaterial: {  // an exact key has at least the least counts of every kind
      const sig::MaterialKey key(as<cond::FenMaterial>().key & sig::MaterialKey::kValidBits);
      for (int nibble = 0; nibble < 10; ++nibble)
        if ((key.bits() >> (4 * nibble) & 15) < (s.min_material.bits() >> (4 * nibble) & 15)) return false;
      return true;
    }
    case CondOp::kPromotion:
      for (int i = 0; i < 12; ++i) {
        if (!(as<cond::Promotion>().pieces >> i & 1)) continue;
        chess::PieceType pt = kPieceTypeOfBit[i % 6];
        if (pt >= chess::KNIGHT && pt <= chess::QUEEN && (s.promoted_types >> (pt - chess::KNIGHT) & 1)) return true;
      }
      return false;
    case CondOp::kCountAtLeast:
    case CondOp::kPowerAtLeast:
    case CondOp::kDiffRun:
    case CondOp::kEver:
    case CondOp::kFinalEver:
    case CondOp::kHomePawns: return true;
    // The header-scope tests, exactly as holds() computes them.
    case CondOp::kFinalSide: {
      const cond::FinalSide& f = as<cond::FinalSide>();
      return (f.or_null_moves && s.null_moves()) || s.final_side() == f.side;
    }
    case CondOp::kFinalMate: return s.null_moves() || s.final_mate();
    case CondOp::kFinalStalemate: return s.null_moves() || s.final_stalemate();
    case CondOp::kEnPassant: return (s.flags & sig::kByteEnPassant) != 0;
    case CondOp::kHasVariations: return (s.flags & sig::kByteVariations) != 0;
    case CondOp::kCastled: case CondOp::kCastledAt: case CondOp::kHasMove: case CondOp::kPlyWindow:
    case CondOp::kMoveWindow: case CondOp::kResult: case CondOp::kElo: case CondOp::kAnyCheck:
    case CondOp::kDoubleCheck: break;  // shared_field_test answered above
    case CondOp::kFalse: return false;
    default: return true;  // kTrue, and any op this test does not know: may hold
  }
  return true;
}

}  // namespace planner
