#include "eval/pawn_structure.h"
#include "eval/node_payload.h"

#include <algorithm>
#include <atomic>

#include "chess/bitboard.h"
#include "cql/ast.h"

namespace eval {

using chess::Bitboard;
using chess::Color;
using chess::Square;
using cql::PawnAttr;
using cql::PawnAttribute;

namespace {

constexpr Bitboard kQueenSide = chess::FILE_A_BB | (chess::FILE_A_BB << 1) |
                                (chess::FILE_A_BB << 2) | (chess::FILE_A_BB << 3);

/// The files next to the file of `s` (one or two files).
Bitboard adjacent_files(Square s) {
  int f = chess::file_of(s);
  Bitboard b = 0;
  if (f > 0) b |= chess::file_bb(chess::File(f - 1));
  if (f < 7) b |= chess::file_bb(chess::File(f + 1));
  return b;
}

/// The ranks strictly ahead of `s` for a pawn of colour `c`.
Bitboard ranks_ahead(Color c, Square s) {
  int r = chess::rank_of(s);
  if (c == chess::WHITE) return r == 7 ? 0 : ~Bitboard(0) << (8 * (r + 1));
  return (Bitboard(1) << (8 * r)) - 1;
}

/// The ranks strictly behind `s` for a pawn of colour `c`.
Bitboard ranks_behind(Color c, Square s) { return ranks_ahead(chess::Color(c ^ 1), s); }

/// The number of squares of `set` in the run of consecutive occupied squares through `s`
/// going in steps of `delta` (8 = along the file, 1 = along the rank).
int run_length(Bitboard set, Square s, int delta) {
  int n = 1;
  for (int t = s + delta; t < 64 && (delta != 1 || chess::file_of(Square(t)) != 0) &&
                          (set >> t & 1);
       t += delta)
    ++n;
  for (int t = s - delta; t >= 0 && (delta != 1 || chess::file_of(Square(t)) != 7) &&
                          (set >> t & 1);
       t -= delta)
    ++n;
  return n;
}

/// The squares of `set` connected to `s` by diagonal steps (a pawn chain).
Bitboard chain_of(Bitboard set, Square s) {
  Bitboard chain = chess::square_bb(s), frontier = chain;
  while (frontier) {
    Bitboard diag = ((frontier & ~chess::FILE_A_BB) << 7) | ((frontier & ~chess::FILE_H_BB) << 9) |
                    ((frontier & ~chess::FILE_A_BB) >> 9) | ((frontier & ~chess::FILE_H_BB) >> 7);
    frontier = diag & set & ~chain;
    chain |= frontier;
  }
  return chain;
}

/// `n` against the threshold of an attribute: exactly `k` for the exact form, else >= k.
bool at_least(const PawnAttribute& a, int n, int k) { return a.exact ? n == k : n >= k; }

/// The rule of the square: the opponent king reaches the promotion square of the pawn on `s`
/// in time (other pieces disregarded; a pawn on its start rank may double-step).
bool inside_square(const chess::Position& pos, Color c, Square s) {
  Bitboard kings = pos.pieces(Color(c ^ 1), chess::KING);
  if (!kings) return false;
  Square king = chess::lsb(kings);
  int rel_rank = chess::relative_rank(c, chess::rank_of(s));
  int moves = std::min(5, 7 - rel_rank);
  Square promotion = chess::make_square(chess::file_of(s), c == chess::WHITE ? chess::RANK_8
                                                                             : chess::RANK_1);
  int king_moves = chess::distance(king, promotion);
  if (pos.side_to_move() != c) --king_moves;  // the king moves first
  return king_moves <= moves;
}

/// True if the pawn on `s` (colour `c`, in the current set `own`) has the property `a`
/// (negation not applied). `opp` are all opponent pawns on the board.
bool has(const chess::Position& pos, Color c, Bitboard own, Bitboard opp, Square s,
         const PawnAttribute& a) {
  const Bitboard file = chess::file_bb(s), rank = chess::rank_bb(s), adj = adjacent_files(s);
  const Bitboard ahead = ranks_ahead(c, s), behind = ranks_behind(c, s);
  const Bitboard front = chess::shift_forward(c, chess::square_bb(s));
  auto blocked = [&] { return (opp & file & ahead) != 0; };
  auto stoppable = [&] { return (opp & adj & ahead) != 0; };
  switch (a.attr) {
    case PawnAttr::Single: return chess::popcount(own & file) == 1;
    case PawnAttr::Double: return at_least(a, chess::popcount(own & file), 2);
    case PawnAttr::Triple: return at_least(a, chess::popcount(own & file), a.count.value_or(3));
    case PawnAttr::Uno: return chess::popcount(own & rank) == 1;
    case PawnAttr::Duo: return at_least(a, chess::popcount(own & rank), 2);
    case PawnAttr::Trio: return at_least(a, chess::popcount(own & rank), 3);
    case PawnAttr::Quart:
      if (a.count) return at_least(a, run_length(own, s, 1), *a.count);
      return at_least(a, chess::popcount(own & rank), 4);
    case PawnAttr::Connected: return (own & adj) != 0;
    case PawnAttr::Integrated: {
      int f = chess::file_of(s);
      bool ok = true;
      if (f > 0) ok = ok && (own & chess::file_bb(chess::File(f - 1)));
      if (f < 7) ok = ok && (own & chess::file_bb(chess::File(f + 1)));
      return ok;
    }
    case PawnAttr::Isolated: return (own & adj) == 0;
    case PawnAttr::HalfIsolated: {
      int f = chess::file_of(s);
      if (f == 0 || f == 7) return false;
      bool l = own & chess::file_bb(chess::File(f - 1)), r = own & chess::file_bb(chess::File(f + 1));
      return l != r;
    }
    case PawnAttr::Defended: return (chess::pawn_attacks_bb(Color(c ^ 1), s) & own) != 0;
    case PawnAttr::Defender: return (chess::pawn_attacks_bb(c, s) & own) != 0;
    case PawnAttr::Chained:
      return at_least(a, chess::popcount(chain_of(own, s)), a.count.value_or(2));
    case PawnAttr::Passed: return !blocked() && !stoppable();
    case PawnAttr::Candidate: {
      if (blocked()) return false;
      bool candidate =
          chess::popcount(own & adj & ~ahead) >= chess::popcount(opp & adj & ahead);
      return candidate && (!a.exact || stoppable());  // candidate! = candidate-!passed
    }
    case PawnAttr::Blocked: return a.exact ? (opp & front) != 0 : blocked();
    case PawnAttr::Unblocked: return !blocked();
    case PawnAttr::Behind: {
      Bitboard on_file = opp & file;
      if (!on_file || (on_file & ~behind)) return false;
      return !a.exact || (on_file & chess::shift_forward(Color(c ^ 1), chess::square_bb(s)));
    }
    case PawnAttr::Stoppable: return stoppable();
    case PawnAttr::Unstoppable: return !stoppable();
    case PawnAttr::Stopped: return (chess::pawn_attacks_of(Color(c ^ 1), opp) & front) != 0;
    case PawnAttr::Backward: return (own & adj) != 0 && (own & adj & ~ahead) == 0;
    case PawnAttr::Advanced: return chess::relative_rank(c, chess::rank_of(s)) >= chess::RANK_5;
    case PawnAttr::Consecutive:
      return at_least(a, run_length(own, s, 8), a.count.value_or(2));
    case PawnAttr::Inside: return inside_square(pos, c, s);
    case PawnAttr::Symmetrical: return chess::popcount(opp & file) == chess::popcount(own & file);
    case PawnAttr::Mirrored: return __builtin_bswap64(own & file) == (opp & file);
    case PawnAttr::Forefront: return (own & file & ahead) == 0;
    case PawnAttr::Rear: return (own & file & behind) == 0;
    default: return true;  // counting modifiers select nothing
  }
}

/// The squares strictly ahead of the squares of `b` on their files, for colour `c`.
Bitboard front_span(Color c, Bitboard b) {
  b = chess::shift_forward(c, b);
  if (c == chess::WHITE) {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
  } else {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
  }
  return b;
}

/// The squares of `b` moved one file left and one file right (the neighbouring files).
Bitboard beside(Bitboard b) {
  return ((b & ~chess::FILE_H_BB) << 1) | ((b & ~chess::FILE_A_BB) >> 1);
}

/// The pawns of `own` whose file (or rank, `by_rank`) holds `n` pawns of `own` with
/// `keep(n)`.
template <class Keep>
Bitboard by_line_count(Bitboard own, bool by_rank, Keep&& keep) {
  Bitboard kept = 0;
  for (int i = 0; i < 8; ++i) {
    const Bitboard line = own & (by_rank ? chess::rank_bb(chess::Rank(i)) : chess::file_bb(chess::File(i)));
    if (line && keep(chess::popcount(line))) kept |= line;
  }
  return kept;
}

/// The pawns of `own` (colour `c`, the current set) that have the property `a` (negation
/// not applied), computed for the whole set at once: the same answer as `has` for each
/// pawn. nullopt for the attributes only `has` computes.
std::optional<Bitboard> has_set(Color c, Bitboard own, Bitboard opp, const PawnAttribute& a) {
  const Color them = Color(c ^ 1);
  auto blocked = [&] { return own & front_span(them, opp); };
  auto stoppable = [&] { return own & front_span(them, beside(opp)); };
  auto files = [&] { return own | front_span(chess::WHITE, own) | front_span(chess::BLACK, own); };
  switch (a.attr) {
    case PawnAttr::Single: return by_line_count(own, false, [](int n) { return n == 1; });
    case PawnAttr::Double: return by_line_count(own, false, [&](int n) { return at_least(a, n, 2); });
    case PawnAttr::Triple:
      return by_line_count(own, false, [&](int n) { return at_least(a, n, a.count.value_or(3)); });
    case PawnAttr::Uno: return by_line_count(own, true, [](int n) { return n == 1; });
    case PawnAttr::Duo: return by_line_count(own, true, [&](int n) { return at_least(a, n, 2); });
    case PawnAttr::Trio: return by_line_count(own, true, [&](int n) { return at_least(a, n, 3); });
    case PawnAttr::Quart:
      if (a.count) return std::nullopt;
      return by_line_count(own, true, [&](int n) { return at_least(a, n, 4); });
    case PawnAttr::Connected: return own & beside(files());
    case PawnAttr::Isolated: return own & ~beside(files());
    case PawnAttr::Defended: return own & chess::pawn_attacks_of(c, own);
    case PawnAttr::Defender: return own & chess::pawn_attacks_of(them, own);
    case PawnAttr::Passed: return own & ~blocked() & ~stoppable();
    case PawnAttr::Blocked:
      return a.exact ? own & chess::shift_forward(them, opp) : blocked();
    case PawnAttr::Unblocked: return own & ~blocked();
    case PawnAttr::Stoppable: return stoppable();
    case PawnAttr::Unstoppable: return own & ~stoppable();
    case PawnAttr::Stopped:
      return own & chess::shift_forward(them, chess::pawn_attacks_of(them, opp));
    case PawnAttr::Forefront: return own & ~front_span(them, own);
    case PawnAttr::Rear: return own & ~front_span(c, own);
    default: return std::nullopt;
  }
}

/// Counts groups: `key` maps a square to its group line (0..7), `adjacent_lines` merges
/// neighbouring lines into one group (islands) or not (files, ranks). Groups of at least /
/// exactly `k` pawns count.
template <typename Key>
int count_lines(Bitboard set, Key key, bool merge_neighbours, const PawnAttribute& a, int k) {
  int per_line[8] = {};
  for (Bitboard b = set; b;) ++per_line[key(chess::pop_lsb(b))];
  int groups = 0;
  for (int i = 0; i < 8;) {
    if (!per_line[i]) {
      ++i;
      continue;
    }
    int n = 0, j = i;
    do n += per_line[j++];
    while (merge_neighbours && j < 8 && per_line[j]);
    if (at_least(a, n, k)) ++groups;
    i = j;
  }
  return groups;
}

}  // namespace

Bitboard filter_pawns(const chess::Position& pos, Color c, Bitboard set,
                      std::span<const PawnAttribute> filters) {
  const Bitboard opp = pos.pieces(Color(c ^ 1), chess::PAWN);
  for (const PawnAttribute& a : filters) {
    if (const std::optional<Bitboard> with = has_set(c, set, opp, a)) {
      set = a.negated ? set & ~*with : *with;
      continue;
    }
    Bitboard kept = 0;
    for (Bitboard b = set; b;) {
      Square s = chess::pop_lsb(b);
      if (has(pos, c, set, opp, s, a) != a.negated) kept |= chess::square_bb(s);
    }
    set = kept;
  }
  return set;
}

bool pawn_has_attribute(const chess::Position& pos, Color c, Bitboard set, Square s,
                        const PawnAttribute& a) {
  return has(pos, c, set, pos.pieces(Color(c ^ 1), chess::PAWN), s, a) != a.negated;
}

int count_pawns(Color /*c*/, Bitboard set, const std::optional<PawnAttribute>& counting) {
  if (!counting) return chess::popcount(set);
  const PawnAttribute& a = *counting;
  auto file = [](Square s) { return int(chess::file_of(s)); };
  auto rank = [](Square s) { return int(chess::rank_of(s)); };
  switch (a.attr) {
    case PawnAttr::Islands: return count_lines(set, file, true, a, a.count.value_or(1));
    case PawnAttr::Files: return count_lines(set, file, false, a, a.count.value_or(1));
    case PawnAttr::Lines: return count_lines(set, file, false, a, 1);
    case PawnAttr::Ranks: return count_lines(set, rank, false, a, a.count.value_or(1));
    case PawnAttr::Compounds: {
      int groups = 0;
      for (int f = 0; f < 8; ++f)
        groups += count_lines(set & chess::file_bb(chess::File(f)), rank, true, a,
                              a.count.value_or(1));
      return groups;
    }
    case PawnAttr::BothSides:
      return std::min(chess::popcount(set & kQueenSide), chess::popcount(set & ~kQueenSide));
    case PawnAttr::OneSide:
      return (set & kQueenSide) && (set & ~kQueenSide) ? 0 : chess::popcount(set);
    default: return chess::popcount(set);
  }
}

std::optional<std::string> pawn_attributes_conflict(std::span<const PawnAttribute> attrs) {
  // Pairs that no pawn can satisfy together, in either order.
  static constexpr PawnAttr kExclusive[][2] = {
      {PawnAttr::Isolated, PawnAttr::Connected},   {PawnAttr::Isolated, PawnAttr::Integrated},
      {PawnAttr::Isolated, PawnAttr::HalfIsolated}, {PawnAttr::Isolated, PawnAttr::Chained},
      {PawnAttr::Isolated, PawnAttr::Defended},    {PawnAttr::Isolated, PawnAttr::Defender},
      {PawnAttr::Isolated, PawnAttr::Backward},    {PawnAttr::Integrated, PawnAttr::HalfIsolated},
      {PawnAttr::Blocked, PawnAttr::Unblocked},    {PawnAttr::Blocked, PawnAttr::Passed},
      {PawnAttr::Stoppable, PawnAttr::Unstoppable}, {PawnAttr::Stoppable, PawnAttr::Passed},
      {PawnAttr::Stopped, PawnAttr::Unstoppable},  {PawnAttr::Stopped, PawnAttr::Passed},
      {PawnAttr::Mirrored, PawnAttr::Unblocked},   {PawnAttr::Mirrored, PawnAttr::Passed},
  };
  // Pairs where the first, written earlier, leaves nothing for the second.
  static constexpr PawnAttr kOrdered[][2] = {
      {PawnAttr::Forefront, PawnAttr::Double},    {PawnAttr::Forefront, PawnAttr::Triple},
      {PawnAttr::Forefront, PawnAttr::Consecutive}, {PawnAttr::Rear, PawnAttr::Double},
      {PawnAttr::Rear, PawnAttr::Triple},         {PawnAttr::Rear, PawnAttr::Consecutive},
      {PawnAttr::Single, PawnAttr::Double},       {PawnAttr::Single, PawnAttr::Triple},
      {PawnAttr::Single, PawnAttr::Consecutive},  {PawnAttr::Uno, PawnAttr::Duo},
      {PawnAttr::Uno, PawnAttr::Trio},            {PawnAttr::Uno, PawnAttr::Quart},
  };
  auto name = [](PawnAttr x) { return std::string(cql::pawn_attr_info(x).name); };
  for (size_t i = 0; i < attrs.size(); ++i) {
    if (attrs[i].negated) continue;
    for (size_t j = i + 1; j < attrs.size(); ++j) {
      if (attrs[j].negated) continue;
      PawnAttr x = attrs[i].attr, y = attrs[j].attr;
      for (const auto& p : kExclusive)
        if ((p[0] == x && p[1] == y) || (p[0] == y && p[1] == x))
          return "contradictory pawn attributes '" + name(x) + "' and '" + name(y) + "'";
      for (const auto& p : kOrdered)
        if (p[0] == x && p[1] == y)
          return "pawn attribute '" + name(y) + "' can never hold after '" + name(x) +
                 "' (write it before '" + name(x) + "')";
    }
  }
  return std::nullopt;
}

int pawn_count(const PawnCountSpec& spec, const chess::Position& pos, Bitboard squares, Color c,
               int* total) {
  const Bitboard mine = squares & pos.pieces(c, chess::PAWN);
  if (total) *total = chess::popcount(mine);
  if (!mine) return 0;
  Bitboard kept = filter_pawns(pos, c, pos.pieces(c, chess::PAWN), spec.filters) & mine;
  return count_pawns(c, kept, spec.counting);
}

namespace {

bool in_range(const cql::Range& r, int count, int total) {
  return r.percent ? r.contains_ratio(count, total) : r.contains(count);
}

}  // namespace

namespace {

/// pawn_count_matches without the memo.
bool compute_pawn_count_matches(const PawnCountSpec& spec, const chess::Position& pos,
                                Bitboard squares) {
  int white_total = 0, black_total = 0;
  int white = pawn_count(spec, pos, squares, chess::WHITE, &white_total);
  int black = pawn_count(spec, pos, squares, chess::BLACK, &black_total);
  if (spec.ranges.size() == 2)
    return in_range(spec.ranges[0], white, white_total) &&
           in_range(spec.ranges[1], black, black_total);
  if (spec.ranges.empty()) return white + black >= 1;
  return in_range(spec.ranges[0], white + black, white_total + black_total);
}

/// One memoised :pawncount answer: the spec's memo_id and every input the answer reads.
struct PawnMemoEntry {
  uint64_t id = 0;  ///< PawnCountSpec::memo_id; 0 = empty
  Bitboard white = 0, black = 0, squares = 0;  ///< the pawns, the designator's squares on them
  uint32_t kings = 0;  ///< reads_kings: king squares and side to move, else 0
  bool result = false;
};

constexpr size_t kPawnMemoSize = 256;  // entries per thread (a power of two)

/// The next PawnCountSpec::memo_id (ids are never reused, so a memo entry of a spec that no
/// longer exists never answers for another one).
std::atomic<uint64_t> next_memo_id{1};

}  // namespace

bool pawn_count_matches(const PawnCountSpec& spec, const chess::Position& pos, Bitboard squares) {
  if (!spec.memo_id) return compute_pawn_count_matches(spec, pos, squares);
  thread_local PawnMemoEntry memo[kPawnMemoSize];
  const Bitboard white = pos.pieces(chess::WHITE, chess::PAWN);
  const Bitboard black = pos.pieces(chess::BLACK, chess::PAWN);
  const Bitboard on_pawns = squares & (white | black);
  uint32_t kings = 0;
  if (spec.reads_kings) {
    auto king = [&](Color c) {
      const Bitboard k = pos.pieces(c, chess::KING);
      return k ? uint32_t(chess::lsb(k)) : 64u;
    };
    kings = 1u << 20 | king(chess::WHITE) | king(chess::BLACK) << 7 | uint32_t(pos.side_to_move()) << 14;
  }
  uint64_t h = white ^ (black * 0x9E3779B97F4A7C15ull) ^ (on_pawns * 0xC2B2AE3D27D4EB4Full) ^
               (spec.memo_id * 0x165667B19E3779F9ull) ^ kings;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ull;
  h ^= h >> 29;
  PawnMemoEntry& e = memo[h & (kPawnMemoSize - 1)];
  if (e.id == spec.memo_id && e.white == white && e.black == black && e.squares == on_pawns &&
      e.kings == kings)
    return e.result;
  const bool result = compute_pawn_count_matches(spec, pos, squares);
  e = PawnMemoEntry{spec.memo_id, white, black, on_pawns, kings, result};
  return result;
}

int pawn_count_difference(const PawnCountSpec& spec, const chess::Position& pos, Bitboard first,
                          std::optional<Bitboard> second) {
  auto both = [&](Bitboard squares) {
    return pawn_count(spec, pos, squares, chess::WHITE, nullptr) +
           pawn_count(spec, pos, squares, chess::BLACK, nullptr);
  };
  if (second) return both(first) - both(*second);
  int diff = pawn_count(spec, pos, first, chess::WHITE, nullptr) -
             pawn_count(spec, pos, first, chess::BLACK, nullptr);
  return spec.swapped ? -diff : diff;
}

PawnCountSpec make_pawn_count_spec(const cql::PawnCountArgs& args, bool difference, bool swap) {
  PawnCountSpec spec;
  for (const PawnAttribute& a : args.attributes) {
    if (cql::pawn_attr_info(a.attr).counting) spec.counting = a;
    else spec.filters.push_back(a);
  }
  spec.difference = difference;
  spec.swapped = swap;
  for (const PawnAttribute& a : spec.filters) spec.reads_kings |= a.attr == PawnAttr::Inside;
  spec.memo_id = next_memo_id.fetch_add(1, std::memory_order_relaxed);
  if (!difference) {
    spec.ranges = args.ranges;
    if (swap && spec.ranges.size() == 2) std::swap(spec.ranges[0], spec.ranges[1]);
  }
  return spec;
}

int unstoppable_pawns(const chess::Position& pos, Color c, Bitboard squares) {
  const Color them = Color(c ^ 1);
  if (pos.pieces(them) != pos.pieces(them, chess::KING, chess::PAWN)) return 0;
  const Bitboard opp = pos.pieces(them, chess::PAWN);
  int n = 0;
  for (Bitboard b = squares & pos.pieces(c, chess::PAWN); b;) {
    const Square s = chess::pop_lsb(b);
    const Bitboard ahead = ranks_ahead(c, s);
    if (opp & (chess::file_bb(s) | adjacent_files(s)) & ahead) continue;  // not passed
    if (pos.pieces() & chess::file_bb(s) & ahead) continue;                 // path obstructed
    if (!inside_square(pos, c, s)) ++n;
  }
  return n;
}

namespace {

/// The moves the pawn of colour `c` on `s` needs to promote (double step allowed).
int moves_to_promote(Color c, Square s) {
  return std::min(5, 7 - int(chess::relative_rank(c, chess::rank_of(s))));
}

/// The fewest moves one of `c`'s passed pawns with a free path needs to promote, counting
/// only pawns outside the opponent king's square when `need_outside`; 99 if none.
int fastest_pawn(const chess::Position& pos, Color c, bool need_outside) {
  const Bitboard opp = pos.pieces(Color(c ^ 1), chess::PAWN);
  int best = 99;
  for (Bitboard b = pos.pieces(c, chess::PAWN); b;) {
    const Square s = chess::pop_lsb(b);
    const Bitboard ahead = ranks_ahead(c, s);
    if (opp & (chess::file_bb(s) | adjacent_files(s)) & ahead) continue;
    if (pos.pieces() & chess::file_bb(s) & ahead) continue;
    if (need_outside && inside_square(pos, c, s)) continue;
    best = std::min(best, moves_to_promote(c, s));
  }
  return best;
}

}  // namespace

bool wins_passed_pawn_race(const chess::Position& pos, Color c) {
  const Color them = Color(c ^ 1);
  auto pawns_only = [&](Color side) {
    return pos.pieces(side) == pos.pieces(side, chess::KING, chess::PAWN);
  };
  if (!pawns_only(them)) return false;
  const Bitboard opp = pos.pieces(them, chess::PAWN);
  bool has_passed = false;
  for (Bitboard b = pos.pieces(c, chess::PAWN); b && !has_passed;) {
    const Square s = chess::pop_lsb(b);
    has_passed = !(opp & (chess::file_bb(s) | adjacent_files(s)) & ranks_ahead(c, s));
  }
  if (!has_passed) return false;
  const int mine = fastest_pawn(pos, c, true);
  if (mine == 99) return false;
  const int theirs = fastest_pawn(pos, them, pawns_only(c));
  return mine < theirs || (mine == theirs && pos.side_to_move() == c);
}

std::string payload::PawnSpec::key() const { return spec->swapped ? "~" : "="; }

}  // namespace eval
