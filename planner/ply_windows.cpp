#include "planner/ply_windows.h"

#include <algorithm>

#include "eval/board_predicates.h"

namespace planner {

namespace {

/// Lists with more variants than this get every ply (the windows cost more than they save).
constexpr size_t kMaxVariants = 16;

constexpr chess::PieceType kType[6] = {chess::KING, chess::QUEEN, chess::ROOK,
                                       chess::BISHOP, chess::KNIGHT, chess::PAWN};

/// Count (or power) of the kinds in `mask` (cql::PieceMask bits 0..11) in `key`.
int64_t material_of(const sig::MaterialKey& key, uint32_t mask, bool power) {
  int64_t total = 0;
  for (int i = 0; i < 12; ++i) {
    if (!(mask >> i & 1)) continue;
    const chess::Color c = chess::Color(i / 6);
    const int n = kType[i % 6] == chess::KING ? 1 : key.count(c, kType[i % 6]);
    total += power ? int64_t(n) * eval::piece_power(chess::make_piece(c, kType[i % 6])) : n;
  }
  return total;
}

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
    default: return false;
  }
}

/// True if `item` may hold at ply `p` of the game of `s`, whose material there is `key`.
bool item_holds(const PlyWindows::Item& item, const sig::Signature& s, uint32_t p, const sig::MaterialKey& key) {
  switch (item.kind) {
    case PlyWindows::Item::kCount: return item.range.contains(material_of(key, item.pieces, false));
    case PlyWindows::Item::kPower: return item.range.contains(material_of(key, item.pieces, true));
    case PlyWindows::Item::kFinal: return s.null_moves || p == s.plies;  // mate/stalemate end a game
    case PlyWindows::Item::kHalfmove: return item.range.contains(p, s.plies);
    case PlyWindows::Item::kMove: {
      const int64_t last = 1 + (int64_t(s.start_game_ply) + s.plies) / 2;
      return item.range.contains(1 + (int64_t(s.start_game_ply) + p) / 2, last);
    }
  }
  return true;
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
      lists.push_back(std::move(l));
    }
    w.alternatives_.push_back(std::move(lists));
  }
  return w;
}

void PlyWindows::compute(const sig::Signature& s, unsigned alternatives, std::vector<uint8_t>& allowed) const {
  allowed.assign(size_t(s.plies) + 1, 0);
  const bool have_runs = !s.material.empty();
  for (size_t a = 0; a < alternatives_.size(); ++a) {
    if (!(alternatives >> a & 1)) continue;
    for (const List& list : alternatives_[a]) {
      if (list.empty()) {  // may match at every ply
        std::fill(allowed.begin(), allowed.end(), 1);
        return;
      }
      size_t run = 0;
      for (uint32_t p = 0; p <= s.plies; ++p) {
        if (allowed[p]) continue;
        sig::MaterialKey key;
        if (have_runs) {
          while (run + 1 < s.material.size() && s.material[run].last_ply < p) ++run;
          key = s.material[run].key;
        }
        for (const Variant& v : list) {
          bool all = true;
          for (const Item& item : v) {
            if ((item.kind == Item::kCount || item.kind == Item::kPower) && !have_runs) continue;
            if (!item_holds(item, s, p, key)) {
              all = false;
              break;
            }
          }
          if (all) {
            allowed[p] = 1;
            break;
          }
        }
      }
    }
  }
}

}  // namespace planner
