#include "planner/postings_plan.h"

#include <algorithm>
#include <bit>

#include "chess/bitboard.h"
#include "eval/board_predicates.h"
#include "planner/material.h"

namespace planner {

namespace {

using sig::GameSet;
using sig::Postings;
using Result = std::optional<GameSet>;

/// More postings than this in one union: the union costs more than it saves; keep all.
constexpr size_t kMaxUnion = 256;

/// The games with a flag (flags are never dense; a damaged file keeps every game).
Result flag(const Postings& p, sig::PostingFlag f) {
  const GameSet* s = p.find(sig::flag_key(f));
  return s ? Result(*s) : std::nullopt;
}

/// Union of the postings `keys`; nullopt (every game) when one of them is dense.
Result unite_keys(const Postings& p, const std::vector<uint32_t>& keys) {
  if (keys.size() > kMaxUnion) return std::nullopt;
  std::vector<const GameSet*> sets;
  for (uint32_t key : keys) {
    const GameSet* s = p.find(key);
    if (!s) return std::nullopt;
    sets.push_back(s);
  }
  return GameSet::unite(sets);
}

/// The material classes (index/postings.h) a run in which every kid of a kSameRun holds can
/// have, from the kids that pin one non-pawn kind's count or put a group of them at 0 (the
/// others are left to the signatures): the union of their postings. nullopt when no kid
/// narrows, or more than kMaxUnion classes remain.
Result material_classes(const std::vector<Condition>& kids, const Postings& p) {
  uint8_t allowed[8];  // per class field: bit v = count v possible (v = 3: 3 or more)
  std::fill(allowed, allowed + 8, uint8_t(15));
  bool narrowed = false;
  auto field_of = [](int bit) { return 4 * (bit / 6) + (bit % 6 - 1); };  // bits Q R B N of a side
  for (const Condition& k : kids) {
    if (k.op != CondOp::kCountRun) continue;
    uint32_t mask = k.as<cond::RunMaterial>().pieces & 0xFFF;
    if (mask & ((1u << 5) | (1u << 11))) continue;  // pawns: not in the class
    const int64_t kings = ((mask & 1) ? 1 : 0) + ((mask >> 6 & 1) ? 1 : 0);
    mask &= ~((1u << 0) | (1u << 6));
    if (!mask) continue;
    const int64_t lo = k.as<cond::RunMaterial>().lo - kings, hi = k.as<cond::RunMaterial>().hi - kings;
    if (std::popcount(mask) == 1) {  // one kind: count in [lo, hi]
      const int f = field_of(std::countr_zero(mask));
      uint8_t values = 0;
      for (int v = 0; v < 4; ++v)
        if (v < 3 ? (v >= lo && v <= hi) : hi >= 3) values |= uint8_t(1u << v);
      allowed[f] &= values;
      narrowed = true;
    } else if (hi <= 0) {  // a sum of counts at most 0: each of them 0
      for (uint32_t m = mask; m; m &= m - 1) allowed[field_of(std::countr_zero(m))] &= 1;
      narrowed = true;
    }
  }
  if (!narrowed) return std::nullopt;
  size_t product = 1;
  for (uint8_t a : allowed) product *= size_t(std::popcount(unsigned(a)));
  if (product == 0) return GameSet();
  if (product > kMaxUnion) return std::nullopt;
  std::vector<uint32_t> keys{0};
  for (int f = 0; f < 8; ++f) {
    std::vector<uint32_t> next;
    for (uint32_t partial : keys)
      for (int v = 0; v < 4; ++v)
        if (allowed[f] >> v & 1) next.push_back(partial | uint32_t(v) << (2 * f));
    keys.swap(next);
  }
  for (uint32_t& m : keys) m = sig::material_class_key(m);
  return unite_keys(p, keys);
}

/// `set` plus the games with null moves when `with_null` (a mate or stalemate may then occur
/// before the final position; condition.h value bit 0).
Result or_null_moves(Result set, const Postings& p, bool with_null) {
  if (!set || !with_null) return set;
  Result nulls = flag(p, sig::kFlagNullMoves);
  if (!nulls) return std::nullopt;
  *set |= *nulls;
  return set;
}

/// The games where some kind of PieceMask `pieces` stood on some square of `squares`.
Result ever(const Postings& p, cql::PieceMask pieces, chess::Bitboard squares) {
  std::vector<uint32_t> keys;
  for (int i = 0; i < 12; ++i) {
    if (!(pieces >> i & 1)) continue;
    for (chess::Bitboard b = squares; b; b &= b - 1) {
      if (keys.size() >= kMaxUnion) return std::nullopt;
      keys.push_back(sig::ever_key(piece_of_bit(i), __builtin_ctzll(b)));
    }
  }
  return unite_keys(p, keys);
}

/// The games with some material run where the non-king kind `pc` counts in [lo, hi].
Result count_in(const Postings& p, chess::Piece pc, int64_t lo, int64_t hi) {
  std::vector<uint32_t> keys;
  for (int64_t n = std::max<int64_t>(lo, 0); n <= std::min<int64_t>(hi, 15); ++n)
    keys.push_back(sig::count_key(pc, int(n)));
  return unite_keys(p, keys);
}

/// Ops the postings say nothing about (counts on a part of the board, differences, windows,
/// home pawns, header values): posting_set() gives every game for them.
bool outside_postings(CondOp op) {
  switch (op) {
    case CondOp::kCountAtLeast:
    case CondOp::kPowerAtLeast:
    case CondOp::kDiffRun:
    case CondOp::kPlyWindow:
    case CondOp::kMoveWindow:
    case CondOp::kHomePawns:
    case CondOp::kResult:
    case CondOp::kElo: return true;
    default: return false;
  }
}

/// Intersects `acc` (nullopt = every game) with `s`.
void and_into(Result& acc, Result s) {
  if (!s) return;
  if (acc)
    *acc &= *s;
  else
    acc = std::move(s);
}

/// A run test (kCountRun, kPowerRun) with a sum over the kinds of `c.pieces` in [lo, hi]:
/// every kind contributes >= 0 (kings a fixed amount), so each non-king kind on its own is at
/// most hi minus the kings' part, and a lone kind also at least lo minus it.
Result run_sum(const Condition& test, const Postings& p) {
  const bool power = test.op == CondOp::kPowerRun;
  const cond::RunMaterial& c = test.as<cond::RunMaterial>();
  int64_t fixed = 0;  // kings
  std::vector<int> kinds;
  for (int i = 0; i < 12; ++i) {
    if (!(c.pieces >> i & 1)) continue;
    if (kPieceTypeOfBit[i % 6] == chess::KING)
      fixed += power ? eval::piece_power(piece_of_bit(i)) : 1;
    else
      kinds.push_back(i);
  }
  if (kinds.empty()) return fixed >= c.lo && fixed <= c.hi ? std::nullopt : Result(GameSet());
  if (c.hi - fixed < 0) return GameSet();
  Result out;
  for (int i : kinds) {
    const chess::Piece pc = piece_of_bit(i);
    const int64_t unit = power ? eval::piece_power(pc) : 1;
    if (unit <= 0) continue;
    const int64_t hi = (c.hi - fixed) / unit;
    // lo only binds a lone kind: ceil((lo - fixed) / unit)
    const int64_t lo = kinds.size() == 1 ? (c.lo - fixed + unit - 1) / unit : 0;
    if (hi >= 15 && lo <= 0) continue;  // no bound
    and_into(out, count_in(p, pc, lo, hi));
  }
  return out;
}

}  // namespace

std::optional<GameSet> posting_set(const Condition& c, const Postings& p) {
  if (outside_postings(c.op)) return std::nullopt;
  switch (c.op) {
    case CondOp::kTrue: return std::nullopt;
    case CondOp::kFalse: return GameSet();
    case CondOp::kAnd: {
      Result acc;
      for (const Condition& k : c.kids) and_into(acc, posting_set(k, p));
      return acc;
    }
    case CondOp::kOr: {
      std::vector<GameSet> kids;
      for (const Condition& k : c.kids) {
        Result s = posting_set(k, p);
        if (!s) return std::nullopt;
        kids.push_back(std::move(*s));
      }
      std::vector<const GameSet*> ptrs;
      for (const GameSet& s : kids) ptrs.push_back(&s);
      return GameSet::unite(ptrs);
    }
    case CondOp::kEver: return ever(p, c.as<cond::PieceSquares>().pieces, c.as<cond::PieceSquares>().squares);
    case CondOp::kFinalEver: {  // final[] is a subset of ever[]
      const cond::PieceSquares& e = c.as<cond::PieceSquares>();
      return or_null_moves(ever(p, e.pieces, e.squares), p, e.or_null_moves);
    }
    case CondOp::kCountRun:
    case CondOp::kPowerRun: return run_sum(c, p);
    case CondOp::kSameRun: {
      // One run satisfying every kid: each kid holds in some run.
      Result acc;
      for (const Condition& k : c.kids) and_into(acc, posting_set(k, p));
      and_into(acc, material_classes(c.kids, p));  // ... and all of them in one run
      return or_null_moves(std::move(acc), p, c.as<cond::SameRun>().or_null_moves);
    }
    case CondOp::kFinalMate: return or_null_moves(flag(p, sig::kFlagFinalMate), p, true);
    case CondOp::kFinalStalemate: return or_null_moves(flag(p, sig::kFlagFinalStalemate), p, true);
    case CondOp::kFinalSide:
      return or_null_moves(flag(p, c.as<cond::FinalSide>().side == chess::WHITE ? sig::kFlagFinalWhiteToMove
                                                                                : sig::kFlagFinalBlackToMove),
                           p, c.as<cond::FinalSide>().or_null_moves);
    case CondOp::kAnyCheck:
      return unite_keys(p, {sig::flag_key(sig::kFlagWhiteInCheck), sig::flag_key(sig::kFlagBlackInCheck)});
    case CondOp::kDoubleCheck:
      return unite_keys(p, {sig::flag_key(sig::kFlagWhiteInDoubleCheck), sig::flag_key(sig::kFlagBlackInDoubleCheck)});
    case CondOp::kPromotion: {
      std::vector<uint32_t> keys;
      for (int i = 0; i < 12; ++i) {
        if (!(c.as<cond::Promotion>().pieces >> i & 1)) continue;
        const chess::PieceType pt = kPieceTypeOfBit[i % 6];
        if (pt >= chess::KNIGHT && pt <= chess::QUEEN) keys.push_back(sig::promotion_key(chess::Color(i / 6), pt));
      }
      return unite_keys(p, keys);
    }
    case CondOp::kEnPassant: return flag(p, sig::kFlagEnPassant);
    case CondOp::kHasVariations: return flag(p, sig::kFlagVariations);
    case CondOp::kCastled: {
      std::vector<uint32_t> keys;
      for (int bit = 0; bit < 4; ++bit)
        if (c.as<cond::Castling>().rights >> bit & 1) keys.push_back(sig::castling_key(bit));
      return unite_keys(p, keys);
    }
    case CondOp::kCastledAt: {
      // The move-number buckets overlapping the range; a bound from the game's end is
      // known only per game: every bucket then.
      std::vector<uint32_t> keys;
      const cond::Castling& castling = c.as<cond::Castling>();
      const eval::IntRange& r = castling.moves;
      for (int bit = 0; bit < 4; ++bit) {
        if (!(castling.rights >> bit & 1)) continue;
        for (int b = 0; b < 8; ++b) {
          const int64_t first = sig::kCastlingMoveBuckets[b];
          const int64_t last = b < 7 ? sig::kCastlingMoveBuckets[b + 1] - 1 : INT64_MAX;
          if (r.lo_from_end || r.hi_from_end || (r.lo <= last && r.hi >= first))
            keys.push_back(sig::castling_move_key(bit, b));
        }
      }
      return unite_keys(p, keys);
    }
    case CondOp::kHasMove: return flag(p, sig::kFlagHasMove);
    case CondOp::kMaterial: {
      // :fen: exactly this material in some run (each kind's count in some run) and every
      // piece on a square its kind ever occupied.
      const cond::FenMaterial& material = c.as<cond::FenMaterial>();
      const sig::MaterialKey key(material.key);
      Result acc;
      for (int colour = 0; colour < 2; ++colour)
        for (int pt = chess::PAWN; pt <= chess::QUEEN; ++pt) {
          const chess::Piece pc = chess::make_piece(chess::Color(colour), chess::PieceType(pt));
          const int n = key.count(chess::Color(colour), chess::PieceType(pt));
          and_into(acc, unite_keys(p, {sig::count_key(pc, n)}));
        }
      for (size_t pc = 0; pc < material.boards.size(); ++pc)
        for (chess::Bitboard b = material.boards[pc]; b; b &= b - 1)
          and_into(acc, unite_keys(p, {sig::ever_key(chess::Piece(pc), __builtin_ctzll(b))}));
      return acc;
    }
    default: return std::nullopt;  // outside_postings()
  }
}

std::optional<std::vector<uint32_t>> posting_candidates(const Condition& c, const Postings& p,
                                                        uint32_t game_count) {
  Result s = posting_set(c, p);
  if (!s) return std::nullopt;
  Result unindexed = flag(p, sig::kFlagUnindexed);
  if (!unindexed) return std::nullopt;
  *s |= *unindexed;
  std::vector<uint32_t> ids = s->ids();
  // Ids beyond this database's snapshot are not candidates; games the index does not cover
  // all are.
  ids.erase(std::upper_bound(ids.begin(), ids.end(), std::min(game_count, p.covered())), ids.end());
  for (uint32_t id = p.covered() + 1; id <= game_count; ++id) ids.push_back(id);
  ids.erase(std::remove(ids.begin(), ids.end(), 0u), ids.end());
  return ids;
}

bool uses_postings(const Condition& c) {
  switch (c.op) {
    case CondOp::kAnd:
    case CondOp::kSameRun:
      for (const Condition& k : c.kids)
        if (uses_postings(k)) return true;
      return false;
    case CondOp::kOr:
      for (const Condition& k : c.kids)
        if (!uses_postings(k)) return false;
      return !c.kids.empty();
    case CondOp::kTrue: return false;
    default: return !outside_postings(c.op);
  }
}

}  // namespace planner
