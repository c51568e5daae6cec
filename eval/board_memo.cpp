#include "eval/board_memo.h"

#include <algorithm>
#include <atomic>
#include <bit>

#include "eval/accumulator.h"
#include "eval/node.h"

namespace eval {

namespace {

std::atomic<uint32_t> g_next_id{1};
std::atomic<bool> g_enabled{true};

/// A designator whose matches depend only on the placement of its kinds.
bool plain(const Designator& d) { return d.tag < 0 && !d.promoted && !d.not_promoted; }

void add_unique(std::vector<uint32_t>& v, uint32_t x) {
  if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

}  // namespace

void BoardMemo::set_enabled(bool on) { g_enabled.store(on, std::memory_order_relaxed); }
bool BoardMemo::enabled() { return g_enabled.load(std::memory_order_relaxed); }

void BoardMemo::build(const std::vector<std::vector<Node>>& variants) {
  *this = BoardMemo{};
  if (variants.size() < 2) return;  // one conjunction: nothing to save over evaluating it
  for (const std::vector<Node>& variant : variants) {
    for (const Node& n : variant) {
      switch (n.op) {
        case Op::kTrue:
        case Op::kFalse:
          break;
        case Op::kWtm:
        case Op::kBtm:
          reads_side_ = true;
          break;
        case Op::kAccumulate:
          add_unique(accumulate_counters_, n.as<payload::Counter>().index);
          break;
        case Op::kSumRange:
          add_unique(sumrange_counters_, n.as<payload::Counter>().index);
          break;
        case Op::kDesignator:
        case Op::kInside:
        case Op::kPieceCount:
        case Op::kPower:
        case Op::kPowerDifference:
        case Op::kPieceCountDifference:
          if (!n.lists.empty()) return;
          for (const Designator& d : n.d) {
            if (!plain(d)) return;
            kinds_ |= d.pieces;
          }
          break;
        default:
          return;  // reads something else (attacks, moves, history, sub-lists, ...)
      }
    }
  }
  if (sumrange_counters_.size() > kMaxCounters) return;
  const int words = std::popcount(unsigned(kinds_)) + (reads_side_ ? 1 : 0) + 1 + int(sumrange_counters_.size());
  if (words > int(MemoKey::kMaxWords)) return;
  active_ = true;
  id_ = g_next_id.fetch_add(1, std::memory_order_relaxed);
  if (id_ == 0) id_ = g_next_id.fetch_add(1, std::memory_order_relaxed);  // wrapped: 0 means none
}

void BoardMemo::key(const PosCtx& c, bool counters, MemoKey& out) const {
  const chess::Position& pos = *c.pos;
  uint32_t n = 0;
  if (kinds_ & cql::piece_mask::kEmpty) out.words[n++] = pos.pieces();
  for (int color = chess::WHITE; color <= chess::BLACK; ++color) {
    const unsigned kinds = (kinds_ >> (6 * color)) & 0x3F;  // bit i = piece type KING - i
    for (unsigned k = kinds; k; k &= k - 1)
      out.words[n++] = pos.pieces(chess::Color(color), chess::PieceType(chess::KING - __builtin_ctz(k)));
  }
  if (reads_side_) out.words[n++] = uint64_t(pos.side_to_move());
  if (counters) {
    const Accumulators* acc = c.accumulators;
    out.words[n++] = !acc ? 0 : acc->counting ? 1 : 2;
    if (acc && !acc->counting)
      for (uint32_t i : sumrange_counters_) out.words[n++] = uint64_t(acc->value(i));
  }
  out.size = n;
}

MemoSlot& memo_slot(uint32_t id, int kind) {
  thread_local std::array<MemoSlot, 64> slots;
  return slots[(size_t(id) * 2 + size_t(kind)) % slots.size()];
}

}  // namespace eval
