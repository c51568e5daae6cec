#include "planner/ply_windows.h"

#include <algorithm>
#include <type_traits>

#include "eval/board_predicates.h"
#include "planner/material.h"

namespace planner {

namespace {

/// Lists with more variants than this get every ply (the windows cost more than they save).
constexpr size_t kMaxVariants = 16;

/// The understood item of node `n`, if any.
bool item_of(const eval::Node& n, PlyWindows::Item& item) {
  if (n.negate) return false;
  switch (n.op) {
    case eval::Op::kPieceCount:
    case eval::Op::kPower: {
      if (n.d.size() != 1) return false;
      const eval::Designator& d = n.d[0];
      if (d.squares != ~chess::Bitboard(0) || (d.pieces & cql::piece_mask::kEmpty) || d.promoted ||
          d.not_promoted || d.tag >= 0 || n.range.lo_from_end || n.range.hi_from_end)
        return false;
      item.kind = n.op == eval::Op::kPower ? PlyWindows::Item::kPower : PlyWindows::Item::kCount;
      item.pieces = d.pieces & 0xFFF;
      item.range = n.range;
      return true;
    }
    case eval::Op::kMate:
    case eval::Op::kStalemate: item.kind = PlyWindows::Item::kFinal; return true;
    case eval::Op::kHalfmoveNumber: item.kind = PlyWindows::Item::kHalfmove; item.range = n.range; return true;
    case eval::Op::kMoveNumber: item.kind = PlyWindows::Item::kMove; item.range = n.range; return true;
    case eval::Op::kIsCastling:  // the next (main-line) move is a castling of these rights
      item.kind = PlyWindows::Item::kCastling;
      item.pieces = n.as<eval::payload::Castling>().rights & chess::ANY_CASTLING;
      return true;
    default: return false;
  }
}

/// Ply intervals [first, last], ascending and disjoint.
using Intervals = std::vector<std::pair<uint32_t, uint32_t>>;

/// Intersects `a` with `b` (both ascending and disjoint) into `out`.
void intersect(const Intervals& a, const Intervals& b, Intervals& out) {
  out.clear();
  for (size_t i = 0, j = 0; i < a.size() && j < b.size();) {
    const uint32_t lo = std::max(a[i].first, b[j].first), hi = std::min(a[i].second, b[j].second);
    if (lo <= hi) out.emplace_back(lo, hi);
    (a[i].second < b[j].second ? i : j)++;
  }
}

bool has_null_moves(const sig::Signature& s) { return s.null_moves; }
bool has_null_moves(const sig::Summary& s) { return s.null_moves(); }

/// Sets `out` to the plies of the game of `s` where `item` may hold. `S` is sig::Signature
/// or sig::Summary. Count and power items allow every ply here: variant_plies tests them
/// together on the material timeline.
template <class S>
void item_plies(const PlyWindows::Item& item, const S& s, Intervals& out) {
  out.clear();
  const int64_t n = s.plies;
  auto clip = [&](int64_t lo, int64_t hi) {
    lo = std::max<int64_t>(lo, 0);
    hi = std::min<int64_t>(hi, n);
    if (lo <= hi) out.emplace_back(uint32_t(lo), uint32_t(hi));
  };
  switch (item.kind) {
    case PlyWindows::Item::kCount:
    case PlyWindows::Item::kPower: return clip(0, n);
    case PlyWindows::Item::kFinal: return has_null_moves(s) ? clip(0, n) : clip(n, n);  // mate/stalemate end a game
    case PlyWindows::Item::kHalfmove: {
      const eval::IntRange& r = item.range;
      return clip(r.lo_from_end ? n - r.lo : r.lo, r.hi_from_end ? n - r.hi : r.hi);
    }
    case PlyWindows::Item::kMove: {
      // Ply p has move number 1 + (g + p) / 2 (g = start_game_ply), which lies in [L, H]
      // exactly for p in [2L - 2 - g, 2H - 1 - g].
      const eval::IntRange& r = item.range;
      const int64_t g = s.start_game_ply, last = sig::full_move_number(s.start_game_ply, s.plies);
      int64_t lo = r.lo_from_end ? last - r.lo : r.lo, hi = r.hi_from_end ? last - r.hi : r.hi;
      lo = std::max<int64_t>(lo, INT32_MIN);
      hi = std::min<int64_t>(hi, INT32_MAX);
      return clip(2 * lo - 2 - g, 2 * hi - 1 - g);
    }
    case PlyWindows::Item::kCastling: {
      // A side castles at most once, from the ply in castling_plies (the move to the next
      // ply; never from the final position, which has no next move).
      uint32_t plies[4];
      int k = 0;
      for (int bit = 0; bit < 4; ++bit)
        if ((item.pieces & s.castlings) >> bit & 1) plies[k++] = s.castling_plies[bit];
      std::sort(plies, plies + k);
      for (int i = 0; i < k; ++i)
        if (plies[i] < n && (out.empty() || out.back().second < plies[i])) out.emplace_back(plies[i], plies[i]);
      return;
    }
  }
  clip(0, n);
}

/// Sets `out` to the plies where variant `v` may hold (the intersection of its items').
template <class S>
void variant_plies(const PlyWindows::Variant& v, const S& s, Intervals& out, Intervals& item,
                   Intervals& scratch) {
  auto material_item = [](const PlyWindows::Item& it) {
    return it.kind == PlyWindows::Item::kCount || it.kind == PlyWindows::Item::kPower;
  };
  out.assign(1, {0, s.plies});
  if constexpr (std::is_same_v<S, sig::Signature>) {
    // All count and power items in one pass over the material runs: the runs where every
    // one holds (the same as intersecting their windows one by one).
    if (!s.material.empty() && std::any_of(v.begin(), v.end(), material_item)) {
      out.clear();
      for (const sig::MaterialRun& run : s.material) {
        bool all = true;
        for (const PlyWindows::Item& it : v)
          if (material_item(it) &&
              !it.range.contains(material_of(run.key, it.pieces, it.kind == PlyWindows::Item::kPower))) {
            all = false;
            break;
          }
        if (!all) continue;
        if (!out.empty() && out.back().second + 1 == run.first_ply) out.back().second = run.last_ply;
        else out.emplace_back(run.first_ply, run.last_ply);
      }
      if (out.empty()) return;
    }
  }
  for (const PlyWindows::Item& it : v) {
    if (material_item(it)) continue;  // done above, or unknown without the timeline
    item_plies(it, s, item);
    intersect(out, item, scratch);
    out.swap(scratch);
    if (out.empty()) return;
  }
}

}  // namespace

PlyWindows PlyWindows::make(const eval::Program& program) {
  PlyWindows w;
  const bool plain = !program.negated() && program.sequences().empty() && program.relations().empty() &&
                     program.tags().empty() && !program.needs_variations() && !program.needs_control() &&
                     program.accumulator_counters() == 0;
  if (!plain) return w;
  for (const eval::Alternative& alt : program.alternatives()) {
    if (!alt.accumulating.empty()) return PlyWindows();
    std::vector<List> lists;
    std::vector<uint8_t> required;
    for (size_t i = 0; i < alt.lists.size(); ++i) {
      const eval::PositionList& list = *alt.lists[i];
      // Lists counting runs of consecutive positions depend on the positions between.
      if (alt.counts[i].consecutive || alt.scopes[i] != eval::LineScope::kMainLine) return PlyWindows();
      List l;
      bool narrows = !list.negated && !list.variants.empty() && list.variants.size() <= kMaxVariants;
      for (size_t v = 0; narrows && v < list.variants.size(); ++v) {
        Variant items;
        for (const eval::Node& n : list.variants[v]) {
          Item item;
          if (item_of(n, item)) items.push_back(item);
        }
        if (items.empty()) narrows = false;  // this variant may match anywhere
        l.push_back(std::move(items));
      }
      if (!narrows) l.clear();
      for (const Variant& v : l)
        for (const Item& item : v)
          if (item.kind == Item::kCount || item.kind == Item::kPower) w.scope_ = sig::DecodeScope::kMaterial;
      w.active_ |= !l.empty();
      // A list that must match somewhere and narrows: an empty window rules the game out.
      const bool must_match = !alt.counts[i].admits_zero();
      w.can_prune_ |= must_match && !l.empty();
      required.push_back(must_match);
      lists.push_back(std::move(l));
    }
    w.alternatives_.push_back(std::move(lists));
    w.required_.push_back(std::move(required));
  }
  return w;
}

template <class S>
unsigned PlyWindows::prune_on(const S& s, unsigned alternatives) const {
  if (!can_prune_) return alternatives;
  thread_local Intervals variant, item, scratch;  // per game in the signature pass: no allocation
  for (size_t a = 0; a < alternatives_.size(); ++a) {
    if (!(alternatives >> a & 1)) continue;
    for (size_t i = 0; i < alternatives_[a].size(); ++i) {
      const List& list = alternatives_[a][i];
      if (!required_[a][i] || list.empty()) continue;
      bool somewhere = false;
      for (size_t v = 0; v < list.size() && !somewhere; ++v) {
        variant_plies(list[v], s, variant, item, scratch);
        somewhere = !variant.empty();
      }
      if (!somewhere) {  // this list can match at no ply: neither can the alternative
        alternatives &= ~(1u << a);
        break;
      }
    }
  }
  return alternatives;
}

unsigned PlyWindows::prune(const sig::Signature& s, unsigned alternatives) const {
  return prune_on(s, alternatives);
}

unsigned PlyWindows::prune(const sig::Summary& s, unsigned alternatives) const {
  return prune_on(s, alternatives);
}

void PlyWindows::compute(const sig::Signature& s, unsigned alternatives, std::vector<uint8_t>& allowed) const {
  allowed.assign(size_t(s.plies) + 1, 0);
  Intervals variant, item, scratch;
  for (size_t a = 0; a < alternatives_.size(); ++a) {
    if (!(alternatives >> a & 1)) continue;
    for (const List& list : alternatives_[a]) {
      if (list.empty()) {  // may match at every ply
        std::fill(allowed.begin(), allowed.end(), 1);
        return;
      }
      for (const Variant& v : list) {
        variant_plies(v, s, variant, item, scratch);
        for (const auto& [first, last] : variant)
          std::fill(allowed.begin() + first, allowed.begin() + last + 1, 1);
      }
    }
  }
}

}  // namespace planner
