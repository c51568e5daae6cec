// Condition::holds_summary (condition.h): the planner's first, cheap test on the fixed-place
// Summary of a signature (index/signature.h), before any decoding.
#include <algorithm>

#include "eval/board_predicates.h"
#include "planner/condition.h"

namespace planner {

namespace {

constexpr chess::PieceType kType[6] = {chess::KING, chess::QUEEN, chess::ROOK,
                                       chess::BISHOP, chess::KNIGHT, chess::PAWN};

/// Count (or power with `power`) of the kinds in `mask` in material `key`; kings count 1.
int64_t material_of(const sig::MaterialKey& key, cql::PieceMask mask, bool power) {
  int64_t total = 0;
  for (int i = 0; i < 12; ++i) {
    if (!(mask >> i & 1)) continue;
    const chess::Color c = chess::Color(i / 6);
    const int n = kType[i % 6] == chess::KING ? 1 : key.count(c, kType[i % 6]);
    total += power ? int64_t(n) * eval::piece_power(chess::make_piece(c, kType[i % 6])) : n;
  }
  return total;
}

/// Same as in condition.cpp: some value of [first, last] lies in the range (`end` for end-N).
bool in_window(int64_t lo, int64_t hi, bool lo_end, bool hi_end, int64_t first, int64_t last, int64_t end) {
  int64_t l = lo_end ? end - lo : lo, h = hi_end ? end - hi : hi;
  return std::max(l, first) <= std::min(h, last);
}

}  // namespace

bool Condition::holds_summary(const sig::Summary& s, const eval::GameInfo* info) const {
  switch (op) {
    case CondOp::kAnd:
      for (const Condition& k : kids)
        if (!k.holds_summary(s, info)) return false;
      return true;
    case CondOp::kOr:
      for (const Condition& k : kids)
        if (k.holds_summary(s, info)) return true;
      return false;
    // Run tests: every run's count (power) of the kinds is at least their least counts'
    // sum, so "some run has at most hi" needs that sum <= hi. Lower bounds say nothing else.
    case CondOp::kCountRun:
    case CondOp::kPowerRun:
      return material_of(s.min_material, pieces, op == CondOp::kPowerRun) <= hi;
    case CondOp::kSameRun:
      if ((value & 1) && s.null_moves()) return true;
      for (const Condition& k : kids)
        if (!k.holds_summary(s, info)) return false;
      return true;
    case CondOp::kMaterial: {  // an exact key has at least the least counts of every kind
      const sig::MaterialKey key(uint64_t(lo) & sig::MaterialKey::kValidBits);
      for (int nibble = 0; nibble < 10; ++nibble)
        if ((key.bits() >> (4 * nibble) & 15) < (s.min_material.bits() >> (4 * nibble) & 15)) return false;
      return true;
    }
    case CondOp::kPromotion:
      for (int i = 0; i < 12; ++i) {
        if (!(pieces >> i & 1)) continue;
        chess::PieceType pt = kType[i % 6];
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
    case CondOp::kFinalSide: return ((value & 1) && s.null_moves()) || s.final_side() == chess::Color(lo);
    case CondOp::kFinalMate: return s.null_moves() || s.final_mate();
    case CondOp::kFinalStalemate: return s.null_moves() || s.final_stalemate();
    case CondOp::kAnyCheck: return s.checks[chess::WHITE] + s.checks[chess::BLACK] > 0;
    case CondOp::kEnPassant: return (s.flags & sig::kByteEnPassant) != 0;
    case CondOp::kCastled: return (s.castlings & lo) != 0;
    case CondOp::kHasMove: return s.plies > 0;
    case CondOp::kPlyWindow: return in_window(lo, hi, lo_from_end, hi_from_end, 0, s.plies, s.plies);
    case CondOp::kMoveWindow: {
      int64_t first = 1 + s.start_game_ply / 2, last = 1 + (int64_t(s.start_game_ply) + s.plies) / 2;
      return in_window(lo, hi, lo_from_end, hi_from_end, first, last, last);
    }
    case CondOp::kFalse: return false;
    case CondOp::kResult: return !info || ((lo >> info->result) & 1);
    case CondOp::kElo: {
      if (!info) return true;
      auto in = [&](int64_t v) { return v >= lo && v <= hi; };
      if (value == 1) return in(info->white_elo);
      if (value == 2) return in(info->black_elo);
      return in(info->white_elo) || in(info->black_elo);
    }
    default: return true;  // kTrue, and any op this test does not know: may hold
  }
}

}  // namespace planner
