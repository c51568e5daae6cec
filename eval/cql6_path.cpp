// CQL 6.2's `path` (eval/cql6_path.h). The search follows CQL 6.2's path semantics (its
// documentation's path pages and, where they are silent, its behaviour): a stack of
// constituents still to match, tried depth first; a success at the end of the stack keeps
// the longest way (or the largest `max`); `firstmatch` stops at the first success.
// What it may leave out without changing an answer (facts per path node, a dash's move-level
// tests) is in eval/cql6_path_facts.h.
#include "eval/cql6_path.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "db/record_view.h"
#include "eval/cql6_path_facts.h"
#include "eval/cql6_values.h"

namespace eval::cql6_path {

namespace {

using chess::Bitboard;
using chess::Move;
using chess::Position;
using cql6::Kind;
using cql6::Node;
using cql6_eval::Ctx;
using namespace cql6_path_facts;

/// Upper bound of search steps per path evaluation (a pathological script: a group of
/// position filters repeated without moves, nested repetitions over a long game). Past it
/// the search stops with what it found.
constexpr uint64_t kMaxSteps = 20'000'000;

/// One entry of the stack of constituents still to match: a constituent, or a repetition in
/// progress (CQL 6.2's RepeatInProcessCon) with the occurrences done and where the last began.
struct Item {
  const Node* con = nullptr;
  bool repeating = false;
  int64_t seen = 0;
  uint32_t began = 0;
};

/// The search of one path evaluation. Along a line (no game tree) positions are numbered
/// by plies from the start; in a game tree (`variations`, a game with variations: CQL 6.2
/// follows every move from a position) by their node in the tree (cql6_values::TreeRef).
struct Search {
  const Node* path = nullptr;
  const Facts* facts = nullptr;                // facts(*path)
  Ctx start;
  struct LineCache* line = nullptr;            // positions of the line (position_at)
  std::vector<Bitboard> focus;                 // focus[k]: squares of focused pieces there
  bool focused = false;
  bool tree = false;                           // searching the game tree
  cql6_values::TreeRef t;                      // ... that tree
  uint32_t root = 0;                           // ... and the start's node
  std::vector<uint8_t> focus_made;             // tree: focus[node - root] is made
  std::vector<Item> stack;
  uint32_t cur = 0;    // plies from the start (tree: the node)
  int64_t count = 0;   // moves consumed (focused moves with focus)
  bool found = false;
  int64_t best_count = -1;
  uint32_t best_cur = 0;
  int64_t best_max = 0;
  uint64_t steps = 0;
  cql6_values::CommentMark mark;      // the comments before the search
  cql6_values::CommentSpan best_comments;  // those the best way made (CQL 6.2 keeps only its)
};

/// facts_of() of path `n`, the last answer of this thread kept here (asked twice per
/// evaluation, by hopeless() and run(): plain thread-locals, no call). Every facts_of() call
/// of this file goes through here, so the pointer kept is never one facts_of() has freed.
const Facts& facts(const Node& n, uint64_t game) {
  thread_local const Node* node = nullptr;
  thread_local uint64_t serial = 0;
  thread_local const Facts* known = nullptr;
  if (game != 0 && node == &n && serial == game) return *known;
  const Facts& f = facts_of(n, game);
  node = game != 0 ? &n : nullptr;
  serial = game;
  known = &f;
  return f;
}

/// The searches running on this thread, innermost last (`pathcount` reads the innermost).
thread_local std::vector<Search*> t_running;

/// The last successful path of the game (CQL 6.2's path status, read by `pathcount`... after it).
struct Status {
  uint64_t game = 0;
  bool ok = false;
  int64_t start = 0, last = 0, count = 0, max = 0;  // start, last: positions (positionid)
  int64_t start_ply = 0;
};
thread_local Status t_status;

/// `nestban`: per path node, the plies of the line (of the game) inside paths it matched.
struct Nest {
  uint64_t game = 0;
  const Move* line = nullptr;
  std::vector<bool> banned;  // by ply
};

Nest& nest_of(const Node& n, const Ctx& c, bool tree) {
  thread_local std::vector<std::pair<const Node*, std::unique_ptr<Nest>>> nests;
  Nest* found = nullptr;
  for (auto& [k, v] : nests)
    if (k == &n) found = v.get();
  if (!found) {
    if (nests.size() > 256) nests.clear();  // nodes of earlier queries
    nests.emplace_back(&n, std::make_unique<Nest>());
    found = nests.back().second.get();
  }
  const Move* line = tree || !c.moves ? nullptr : c.moves - c.past;  // tree: by node
  if (found->game != c.game || found->line != line) {
    found->game = c.game;
    found->line = line;
    found->banned.clear();
  }
  return *found;
}

/// The positions of the line being searched, by index along it (index = Ctx::past), kept for
/// the whole game: every path evaluation of the line reads them (made on demand, forward
/// from a position some evaluation started at). Per thread and nesting depth (a path inside
/// a path's constituent has its own: resetting it never moves positions the outer one uses).
/// A move of a line as a focus reads it (made once per line from its position): the squares
/// it leaves and reaches (a castling: the king's), the captured piece's square (0: none) and
/// a castling's rook squares.
struct Step {
  Bitboard from = 0, to = 0, cap = 0, rook_from = 0, rook_to = 0;
  enum Kind : uint8_t { kMove, kCastling, kNull } kind = kMove;
};

struct LineCache {
  uint64_t game = 0;
  const Move* line = nullptr;   // the line's first move (Ctx::moves - Ctx::past)
  uint32_t length = 0;          // its moves
  std::vector<Move> moves;      // a variation's moves (its buffer is reused by the next one)
  std::vector<Position> positions;
  std::vector<uint8_t> made;
  std::vector<Step> steps;           // steps[i]: the move from index i (when step_made[i])
  std::vector<uint8_t> step_made;
  /// Per promote / capture dash (skippable()): next[i] = the first index >= i (of those from
  /// `from` on) whose move may fit it for its flags (flags_may_fit()), or `length`.
  struct Next {
    const Node* dash = nullptr;
    uint32_t from = 0;
    std::vector<uint32_t> next;
  };
  std::vector<Next> nexts;
};
LineCache& line_cache(size_t depth) {
  thread_local std::vector<std::unique_ptr<LineCache>> pool;
  while (pool.size() <= depth) pool.push_back(std::make_unique<LineCache>());
  return *pool[depth];
}

/// Makes the cache of `depth` the line of `c` (a new game or line forgets the old one) and
/// stores c's position there.
LineCache* enter_line(const Ctx& c, size_t depth) {
  LineCache& l = line_cache(depth);
  const Move* line = c.moves - c.past;
  const uint32_t length = c.past + c.moves_left;
  // a variation's buffer is reused by the next variation (often as long): compare its moves
  const bool same_moves = c.main_line ? true : std::equal(l.moves.begin(), l.moves.end(), line, line + length);
  if (c.game == 0 || l.game != c.game || l.line != line || l.length != length || !same_moves) {
    l.game = c.game;
    l.line = line;
    l.length = length;
    if (c.main_line) l.moves.clear();
    else l.moves.assign(line, line + length);
    l.positions.assign(size_t(length) + 1, Position());  // sized once: pointers stay valid
    l.made.assign(size_t(length) + 1, 0);
    l.nexts.clear();
    l.steps.assign(size_t(length) + 1, Step());
    l.step_made.assign(size_t(length) + 1, 0);
  }
  if (!l.made[c.past]) {
    l.positions[c.past] = *c.pos;
    l.made[c.past] = 1;
  }
  return &l;
}

const Position& position_at(Search& s, uint32_t k) {
  if (k == 0) return *s.start.pos;
  LineCache& l = *s.line;
  const size_t at = size_t(s.start.past) + k;
  if (!l.made[at]) {
    size_t from = at;
    while (!l.made[from - 1]) --from;  // index start.past is made (enter_line)
    for (; from <= at; ++from) {
      l.positions[from] = l.positions[from - 1];
      const Move m = l.line[from - 1];
      chess::UndoInfo u;
      if (m == Move::null()) l.positions[from].do_null_move(u);
      else l.positions[from].do_move(m, u);
      l.made[from] = 1;
    }
  }
  return l.positions[at];
}

/// The context `k` plies after the start along the line (tree: of node k).
Ctx ctx_at(Search& s, uint32_t k) {
  if (s.tree) {
    if (k == s.root) return s.start;
    Ctx n;
    cql6_values::tree_ctx(s.start, k, n);
    return n;
  }
  if (k == 0) return s.start;
  Ctx n = s.start;
  n.pos = &position_at(s, k);
  n.ply = s.start.ply + k;
  n.moves = s.start.moves + k;
  n.moves_left = s.start.moves_left - k;
  n.next = n.moves_left ? n.moves[0] : Move::none();
  n.past = s.start.past + k;
  n.next_secondary = false;
  n.on_main_line = n.main_line;
  return n;
}

/// The focused squares after move `m` from `pos` (pieces keep their identity when they move,
/// castle or promote, and lose it when captured).
Bitboard focus_after(const Position& pos, Move m, Bitboard f) {
  if (m == Move::null()) return f;
  auto move_bit = [&](chess::Square from, chess::Square to) {
    if (f & chess::square_bb(from)) f = (f & ~chess::square_bb(from)) | chess::square_bb(to);
  };
  if (m.kind() == Move::CASTLING) {
    const chess::Color us = pos.side_to_move();
    const chess::CastlingRight cr = chess::castling_right(us, m.to_sq() > m.from_sq());
    const bool king = f & chess::square_bb(m.from_sq()), rook = f & chess::square_bb(m.to_sq());
    f &= ~(chess::square_bb(m.from_sq()) | chess::square_bb(m.to_sq()));
    if (king) f |= chess::square_bb(Position::castling_king_to(cr));
    if (rook) f |= chess::square_bb(Position::castling_rook_to(cr));
    return f;
  }
  const int cap = captured_square(pos, m);
  if (cap != 64) f &= ~chess::square_bb(chess::Square(cap));
  move_bit(m.from_sq(), m.to_sq());
  return f;
}

/// The focused squares at `k` plies after the start.
/// The step of the move from `k` plies after the start (k < s.start.moves_left).
const Step& step_at(Search& s, uint32_t k) {
  LineCache& l = *s.line;
  const size_t at = size_t(s.start.past) + k;
  Step& st = l.steps[at];
  if (!l.step_made[at]) {
    const Move m = s.start.moves[k];
    st = Step();
    if (m == Move::null()) {
      st.kind = Step::kNull;
    } else if (m.kind() == Move::CASTLING) {
      const Position& pos = position_at(s, k);
      const chess::CastlingRight cr = chess::castling_right(pos.side_to_move(), m.to_sq() > m.from_sq());
      st.kind = Step::kCastling;
      st.from = chess::square_bb(m.from_sq());
      st.to = chess::square_bb(Position::castling_king_to(cr));
      st.rook_from = chess::square_bb(m.to_sq());
      st.rook_to = chess::square_bb(Position::castling_rook_to(cr));
    } else {
      const int cap = captured_square(position_at(s, k), m);
      st.from = chess::square_bb(m.from_sq());
      st.to = chess::square_bb(m.to_sq());
      st.cap = cap == 64 ? 0 : chess::square_bb(chess::Square(cap));
    }
    l.step_made[at] = 1;
  }
  return st;
}

/// focus_after() by a line's step.
Bitboard focus_after(const Step& st, Bitboard f) {
  switch (st.kind) {
    case Step::kNull: return f;
    case Step::kCastling: {
      const bool king = f & st.from, rook = f & st.rook_from;
      f &= ~(st.from | st.rook_from);
      if (king) f |= st.to;
      if (rook) f |= st.rook_to;
      return f;
    }
    default:
      f &= ~st.cap;
      return (f & st.from) ? (f & ~st.from) | st.to : f;
  }
}

Bitboard focus_at(Search& s, uint32_t k) {
  while (s.focus.size() <= k) {
    const uint32_t j = uint32_t(s.focus.size() - 1);
    s.focus.push_back(focus_after(step_at(s, j), s.focus.back()));
  }
  return s.focus[k];
}

/// Which parts of the move from `k` plies after the start are focused: bit 0 the moving
/// piece (a castling: the king), bit 1 a castling's rook; 0 when the move is not in focus.
unsigned focused_parts(Search& s, uint32_t k) {
  const Bitboard f = focus_at(s, k);
  const Step& st = step_at(s, k);
  switch (st.kind) {
    case Step::kNull: return 0;
    case Step::kCastling: return ((f & st.from) ? 1u : 0u) | ((f & st.rook_from) ? 2u : 0u);
    default:
      if (f & st.from) return 3;
      return ((s.path->flags & cql6::kPathFocusCapture) && (f & st.cap)) ? 3 : 0;
  }
}

/// Tree: the focused squares at node `k` (in the start's subtree).
Bitboard tree_focus(Search& s, uint32_t k) {
  const size_t i = k - s.root;
  if (!s.focus_made[i]) {
    const uint32_t p = (*s.t.parent)[k];
    s.focus[i] = focus_after((*s.t.positions)[p], (*s.t.in_move)[k], tree_focus(s, p));
    s.focus_made[i] = 1;
  }
  return s.focus[i];
}

/// Tree: focused_parts() of the move leading to node `k`.
unsigned tree_focused_parts(Search& s, uint32_t k) {
  const Move m = (*s.t.in_move)[k];
  if (m == Move::null()) return 0;
  const uint32_t p = (*s.t.parent)[k];
  const Bitboard f = tree_focus(s, p);
  if (m.kind() == Move::CASTLING)
    return ((f & chess::square_bb(m.from_sq())) ? 1u : 0u) | ((f & chess::square_bb(m.to_sq())) ? 2u : 0u);
  if (f & chess::square_bb(m.from_sq())) return 3;
  if (s.path->flags & cql6::kPathFocusCapture) {
    const int cap = captured_square((*s.t.positions)[p], m);
    if (cap != 64 && (f & chess::square_bb(chess::Square(cap)))) return 3;
  }
  return 0;
}

/// True if the move from `k` plies after the start is a secondary move (a variation's first
/// move, from the position its line starts at).
bool secondary(const Search& s, uint32_t k) { return !s.start.main_line && s.start.past + k == 0; }

void compute(Search& s);

/// True if `d` is a promote / capture dash whose flags may be tested before its sets (they
/// have no side effect, so not evaluating them when the flags already fail changes nothing).
bool skippable(const Search& s, const Node& d) {
  if (!(d.flags & (cql6::kDashCapture | cql6::kDashPromote))) return false;
  const std::vector<const Node*>& p = s.facts->pure;
  return std::find(p.begin(), p.end(), &d) != p.end();
}

void merge(Search& s) {
  if (s.cur == (s.tree ? s.root : 0)) return;  // CQL 6.2: no path of length zero
  const Node& max = s.path->kids[1];
  if (max.kind != Kind::kNone) {
    int64_t v = 0;
    if (cql6_eval::number(max, ctx_at(s, s.cur), v) && (!s.found || v > s.best_max)) {
      s.found = true;
      s.best_max = v;
      s.best_count = s.count;
      s.best_cur = s.cur;
      cql6_values::comments_since(s.mark, s.best_comments);
    }
    return;
  }
  if (s.count > s.best_count) {
    s.found = true;
    s.best_count = s.count;
    s.best_cur = s.cur;
    cql6_values::comments_since(s.mark, s.best_comments);
  }
}

/// Tree: the dash `d` played by the move from node `head` to its child `tail` (`parts`: as
/// focused_parts()), then the rest of the path.
void tree_step(Search& s, const Node& d, uint32_t head, uint32_t tail, unsigned parts) {
  const Move m = (*s.t.in_move)[tail];
  const bool plain = bare(d) && m != Move::null();
  if (plain ? m == Move::none() : skippable(s, d) && !flags_may_fit(d, (*s.t.positions)[head], m)) return;
  Ctx hc;
  if (!plain) {
    hc = ctx_at(s, head);
    if (!cql6_eval::dash_fits(d, hc, m, parts)) return;
  }
  const uint32_t saved = s.cur;
  s.cur = tail;
  ++s.count;
  bool hit = d.kids[2].kind == Kind::kNone;
  const cql6_values::CommentMark mark = cql6_values::comment_mark();
  if (!hit) {
    const cql6_eval::DashScope scope(d, hc, m, parts);
    hit = cql6_eval::match(d.kids[2], ctx_at(s, tail));
  }
  if (hit) compute(s);
  cql6_values::comment_rewind(mark);  // this way's comments: kept by merge() if it is the best
  --s.count;
  s.cur = saved;
}

/// Tree: a dash from the current node follows every move from it (CQL 6.2); with focus, from
/// the start its focused moves, elsewhere the first focused move on every way down (a
/// focused move's subtree is not searched further for another).
void tree_dash(Search& s, const Node& d) {
  const uint32_t from = s.cur;
  const bool primary = s.path->flags & cql6::kPathPrimary;
  const std::vector<uint32_t>& kids = (*s.t.children)[from];
  if (kids.empty()) return;
  if (!s.focused) {
    for (size_t i = 0; i < kids.size(); ++i)
      if (!(primary && i > 0)) tree_step(s, d, from, kids[i], 3);
    return;
  }
  if (from == s.root) {
    for (size_t i = 0; i < kids.size(); ++i)
      if (!(primary && i > 0))
        if (const unsigned parts = tree_focused_parts(s, kids[i])) tree_step(s, d, from, kids[i], parts);
    return;
  }
  if (!tree_focus(s, from)) return;  // every focused piece is gone: none moves below
  const uint32_t stop = (*s.t.last_desc)[from];
  for (uint32_t k = from + 1; k <= stop;) {
    const unsigned parts = tree_focused_parts(s, k);
    if (!parts) {
      ++k;
      continue;
    }
    if (!(primary && (*s.t.secondary)[k])) tree_step(s, d, (*s.t.parent)[k], k, parts);
    k = (*s.t.last_desc)[k] + 1;
  }
}

void dash(Search& s, const Node& d) {
  if (s.tree) {
    tree_dash(s, d);
    return;
  }
  const uint32_t from = s.cur;
  uint32_t k = from;
  if (k >= s.start.moves_left) return;  // the end of the line
  unsigned parts = 3;
  if (s.focused) {
    // the first focused move along the line (from the start: only the move played there)
    while (k < s.start.moves_left && !(parts = focused_parts(s, k))) {
      if (from == 0) return;
      if (!focus_at(s, k + 1)) return;  // every focused piece is gone: none moves again
      ++k;
    }
    if (k >= s.start.moves_left) return;
  }
  if ((s.path->flags & cql6::kPathPrimary) && secondary(s, k)) return;
  const Move m = s.start.moves[k];
  const bool plain = bare(d) && m != Move::null();
  if (plain ? m == Move::none()
            : skippable(s, d) && !flags_may_fit(d, m, [&]() -> const Position& { return position_at(s, k); }))
    return;
  Ctx head;
  if (!plain) {
    head = ctx_at(s, k);
    if (!cql6_eval::dash_fits(d, head, m, parts)) return;
  }
  s.cur = k + 1;
  ++s.count;
  bool hit = d.kids[2].kind == Kind::kNone;
  const cql6_values::CommentMark mark = cql6_values::comment_mark();
  if (!hit) {
    const cql6_eval::DashScope scope(d, head, m, parts);
    hit = cql6_eval::match(d.kids[2], ctx_at(s, s.cur));
  }
  if (hit) compute(s);
  cql6_values::comment_rewind(mark);  // this way's comments: kept by merge() if it is the best
  --s.count;
  s.cur = from;
}

/// True if the rest of the search (the stack) surely fails from the current position without
/// evaluating anything: it starts with the promote / capture dash `d` (skippable()) and no
/// move the dash would take from here passes its flags (no focus).
bool rest_fails_here(Search& s, const Node& d) {
  const bool primary = s.path->flags & cql6::kPathPrimary;
  if (s.tree) {
    const std::vector<uint32_t>& kids = (*s.t.children)[s.cur];
    const Position& pos = (*s.t.positions)[s.cur];
    for (size_t i = 0; i < kids.size() && !(primary && i > 0); ++i)
      if (flags_may_fit(d, pos, (*s.t.in_move)[kids[i]])) return false;
    return true;
  }
  const uint32_t k = s.cur;
  if (k >= s.start.moves_left || (primary && secondary(s, k))) return true;
  return !flags_may_fit(d, s.start.moves[k], [&]() -> const Position& { return position_at(s, k); });
}

/// The first index >= `at` (plies after the start, at >= 0) whose move may fit the dash `d`
/// (skippable()) for its flags alone, or the line's end (s.start.moves_left). Tables of the
/// line cache, made once per line and dash: every search of the line jumps by them.
uint32_t next_fit(Search& s, const Node& d, uint32_t at) {
  LineCache& l = *s.line;
  LineCache::Next* t = nullptr;
  for (LineCache::Next& x : l.nexts)
    if (x.dash == &d) t = &x;
  const uint32_t base = s.start.past;  // index of the start along the line
  if (!t || t->from > base) {
    if (!t) {
      l.nexts.push_back(LineCache::Next{&d, 0, {}});
      t = &l.nexts.back();
    }
    t->from = base;
    t->next.assign(size_t(l.length) + 1, l.length);
    for (uint32_t i = l.length; i-- > base;) {
      const bool may = flags_may_fit(d, l.line[i], [&]() -> const Position& { return position_at(s, i - base); });
      t->next[i] = may ? i : t->next[i + 1];
    }
  }
  const size_t i = size_t(base) + at;
  return i >= t->next.size() ? s.start.moves_left : t->next[i] - base;
}

/// A repetition of a bare dash (`――*`, `―― {2,}`) in progress, without focus (`top`, popped):
/// the same ways as compute()'s recursion (the rest first, then one more move), walked as a
/// loop along the line (a tree: while the way does not branch). The rest is not tried where
/// rest_fails_here(). At a branch of the tree the recursion takes over.
void repeat_bare(Search& s, const Item& top) {
  const Node& con = *top.con;
  const bool primary = s.path->flags & cql6::kPathPrimary;
  const bool first_match = s.path->flags & cql6::kPathFirstMatch;
  const Node* skip = nullptr;
  if (!s.stack.empty() && !s.stack.back().repeating)
    if (const Node* d = first_dash(*s.stack.back().con); d && skippable(s, *d)) skip = d;
  const uint32_t cur0 = s.cur;
  const int64_t count0 = s.count;
  for (int64_t seen = top.seen;; ++seen) {
    if (seen >= con.lo && !(skip && rest_fails_here(s, *skip))) compute(s);
    if (first_match && s.found) break;
    if (!(con.hi < 0 || seen < con.hi)) break;
    if (seen == top.seen && seen > 0 && top.began == s.cur) break;  // no move in the last one
    if ((s.steps += 2) > kMaxSteps) break;
    if (skip && !s.tree && !(primary && secondary(s, s.cur))) {
      // jump to the next position where the rest may start (with enough occurrences): the
      // positions in between only add a move each (the rest fails there, trying nothing)
      const uint32_t least = s.cur + uint32_t(std::max<int64_t>(1, con.lo - seen));
      const uint32_t to = least >= s.start.moves_left ? s.start.moves_left : next_fit(s, *skip, least);
      const int64_t more = int64_t(to) - int64_t(s.cur);  // moves added
      if (to >= s.start.moves_left || (con.hi >= 0 && seen + more > con.hi)) break;
      bool stuck = false;  // a null move on the way the dash does not take: the way ends there
      for (uint32_t k = s.cur; k + 1 < to && !stuck; ++k)
        stuck = s.start.moves[k] == Move::null() && null_unfit(position_at(s, k), Move::null());
      if (stuck) break;
      if ((s.steps += 2 * uint64_t(more - 1)) > kMaxSteps) break;
      seen += more - 1;  // the loop adds the last one
      s.count += more - 1;
      s.cur = to - 1;
    }
    if (s.tree) {
      const std::vector<uint32_t>& kids = (*s.t.children)[s.cur];
      if (kids.empty()) break;
      if (kids.size() > 1 && !primary) {  // a branch: every move from here, as compute() does
        s.stack.push_back(Item{&con, true, seen + 1, s.cur});
        s.stack.push_back(Item{&con.kids[0], false, 0, 0});
        compute(s);
        s.stack.pop_back();
        s.stack.pop_back();
        break;
      }
      if (null_unfit((*s.t.positions)[s.cur], (*s.t.in_move)[kids[0]])) break;
      s.cur = kids[0];
    } else {
      if (s.cur >= s.start.moves_left || (primary && secondary(s, s.cur))) break;
      if (s.start.moves[s.cur] == Move::null() && null_unfit(position_at(s, s.cur), Move::null())) break;
      ++s.cur;
    }
    ++s.count;
  }
  s.cur = cur0;
  s.count = count0;
}

void compute(Search& s) {
  if (++s.steps > kMaxSteps) return;
  if (s.stack.empty()) {
    merge(s);
    return;
  }
  if ((s.path->flags & cql6::kPathFirstMatch) && s.found) return;
  const Item top = s.stack.back();
  s.stack.pop_back();
  const Node& con = *top.con;
  if (top.repeating && !s.focused && con.kids[0].kind == Kind::kDash && bare(con.kids[0])) {
    repeat_bare(s, top);
  } else if (top.repeating) {
    // CQL 6.2's repetition in progress: enough occurrences: the rest first; then one more
    // (not when the last occurrence consumed no move: it would repeat forever)
    if (top.seen >= con.lo) compute(s);
    if ((con.hi < 0 || top.seen < con.hi) && !(top.seen > 0 && top.began == s.cur)) {
      s.stack.push_back(Item{&con, true, top.seen + 1, s.cur});
      s.stack.push_back(Item{&con.kids[0], false, 0, 0});
      compute(s);
      s.stack.pop_back();
      s.stack.pop_back();
    }
  } else if (con.kind == Kind::kPathRepeat) {
    s.stack.push_back(Item{&con, true, 0, s.cur});
    compute(s);
    s.stack.pop_back();
  } else if (con.kind == Kind::kPathChain) {
    for (size_t i = con.kids.size(); i-- > 0;) s.stack.push_back(Item{&con.kids[i], false, 0, 0});
    compute(s);
    s.stack.resize(s.stack.size() - con.kids.size());
  } else if (con.kind == Kind::kDash) {
    dash(s, con);
  } else {  // a holder; its comments (and the rest's) are kept by merge() for the best way
    const cql6_values::CommentMark mark = cql6_values::comment_mark();
    if (cql6_eval::match(con, ctx_at(s, s.cur))) compute(s);
    cql6_values::comment_rewind(mark);
  }
  s.stack.push_back(top);
}

/// The position value (positionid: the ply on a line, the node in a tree) of the best way's end.
int64_t last_position(const Search& s) { return s.tree ? int64_t(s.best_cur) : int64_t(s.start.ply) + s.best_cur; }

/// A search of this thread for the nesting depth of the next run(), its fields reset (its
/// buffers keep their capacity: nothing is allocated per evaluation once warm).
Search& fresh_search() {
  thread_local std::vector<std::unique_ptr<Search>> pool;
  const size_t depth = t_running.size();
  while (pool.size() <= depth) pool.push_back(std::make_unique<Search>());
  Search& s = *pool[depth];
  s.stack.clear();
  s.focus.clear();
  s.cur = 0;
  s.count = 0;
  s.found = false;
  s.best_count = -1;
  s.best_cur = 0;
  s.best_max = 0;
  s.steps = 0;
  s.tree = false;
  s.focus_made.clear();
  s.mark = cql6_values::comment_mark();
  s.best_comments = {};
  return s;
}

/// True if path `n` surely does not match at `c` on a line (not a game tree), decided before its
/// focus is evaluated (which then is not: only when it has no side effect): every way starts
/// with a dash, and there is no move from here, or the first dash cannot take the move played
/// here (its flags, its left set not holding the moving piece or its right set not the
/// destination; only when its sets have no side effect either).
bool surely_fails(const Node& n, const Ctx& c, const Facts& f) {
  if (!f.starts_dash || !f.focus_pure) return false;
  if (!c.moves || c.moves_left == 0) return true;
  const Node* d = f.first;
  if (!d || !f.first_pure) return false;
  if ((n.flags & cql6::kPathPrimary) && !c.main_line && c.past == 0) return true;  // secondary()
  const Move m = c.moves[0];
  if (m == Move::none()) return true;
  if ((d->flags & (cql6::kDashCapture | cql6::kDashPromote)) && !flags_may_fit(*d, *c.pos, m)) return true;
  // the sets: evaluated here and again by the search when the start is not refused, so only
  // while they refuse at least one start in four (after 64 tries)
  if (!f.first_early || (f.set_tries >= 64 && f.set_refusals * 4 < f.set_tries)) return false;
  ++f.set_tries;
  const bool refused =
      (d->kids[0].kind != Kind::kNone && !(cql6_eval::squares(d->kids[0], c) & origins(*c.pos, m))) ||
      (d->kids[1].kind != Kind::kNone &&
       !(cql6_eval::squares(d->kids[1], c) & destinations(*c.pos, m, d->flags & cql6::kDashCapture)));
  f.set_refusals += refused;
  return refused;
}

/// True if path `n` surely does not match at `c`, found before a search is set up (a line:
/// surely_fails(); a game with variations is left to run(), which knows whether it is a tree).
bool hopeless(const Node& n, const Ctx& c) {
  if (!c.pos) return true;
  if (c.record && c.record->has_variations()) return false;
  return surely_fails(n, c, facts(n, c.game));
}

/// Runs path `n` from `c`; true (with `s` holding the best way) when it matched.
bool run(const Node& n, const Ctx& c, Search& s) {
  if (!c.pos) return false;
  const Facts& facts = cql6_path::facts(n, c.game);
  int64_t node = 0;
  s.tree = c.record && c.record->has_variations() && cql6_values::tree_of(c, s.t, node);
  if (!s.tree && c.record && c.record->has_variations() && surely_fails(n, c, facts)) return false;
  s.root = s.tree ? uint32_t(node) : 0;
  const int64_t here = s.tree ? node : int64_t(c.ply);  // the position's key for nestban
  const bool nestban = (n.flags & cql6::kPathNestBan) && c.game != 0;
  if (nestban) {
    Nest& nest = nest_of(n, c, s.tree);
    if (size_t(here) < nest.banned.size() && nest.banned[size_t(here)]) return false;
  }
  s.path = &n;
  s.facts = &facts;
  s.start = c;
  if (s.tree) {
    s.start.node = node;
    s.cur = s.root;
  }
  if (!c.moves) s.start.moves_left = 0;  // no line to follow
  if (c.moves && !s.tree) s.line = enter_line(c, t_running.size());
  s.focused = n.kids[0].kind != Kind::kNone;
  if (s.focused) {
    s.focus.push_back(cql6_eval::squares(n.kids[0], c) & c.pos->pieces());
    if (s.tree) {
      const size_t size = (*s.t.last_desc)[s.root] - s.root + 1;
      s.focus.resize(size);
      s.focus_made.assign(size, 0);
      s.focus_made[0] = 1;
    }
    // from the start only a move played there can be the first focused move
    if (facts.starts_dash) {
      bool any = false;
      if (s.tree) {
        for (uint32_t k : (*s.t.children)[s.root]) any = any || tree_focused_parts(s, k);
      } else {
        any = s.start.moves_left != 0 && focused_parts(s, 0);
      }
      if (!any) return false;
    }
  }
  for (size_t i = n.kids.size(); i-- > 2;) s.stack.push_back(Item{&n.kids[i], false, 0, 0});
  t_running.push_back(&s);
  compute(s);
  t_running.pop_back();
  s.stack.clear();
  if (!s.found) return false;
  const int64_t value = n.kids[1].kind != Kind::kNone ? s.best_max : s.best_count;
  if ((n.flags & cql6::kPathHasRange) && (value < n.lo || (n.hi >= 0 && value > n.hi))) return false;
  cql6_values::add_comments(s.best_comments);
  t_status = Status{c.game, true, here, last_position(s), s.best_count, s.best_max, int64_t(c.ply)};
  if (nestban) {
    Nest& nest = nest_of(n, c, s.tree);
    if (s.tree) {  // the positions from the start to the one before the path's last
      for (uint32_t k = s.best_cur; k != s.root;) {
        k = (*s.t.parent)[k];
        if (nest.banned.size() <= k) nest.banned.resize(size_t(k) + 1, false);
        nest.banned[k] = true;
      }
    } else {
      const size_t end = size_t(c.ply) + s.best_cur;  // the positions before the path's last one
      if (nest.banned.size() < end) nest.banned.resize(end, false);
      for (size_t p = c.ply; p < end; ++p) nest.banned[p] = true;
    }
  }
  return true;
}

const Status* status(const Ctx& c) {
  return t_status.ok && t_status.game == c.game ? &t_status : nullptr;
}

}  // namespace

bool match(const Node& n, const Ctx& c) {
  switch (n.kind) {
    case Kind::kPathFilter: {
      return !hopeless(n, c) && run(n, c, fresh_search());
    }
    case Kind::kMovePrimary: {
      // the move that led here: a variation's first move is secondary, every other primary
      cql6_values::TreeRef t;
      int64_t node = 0;
      if (cql6_values::tree_of(c, t, node)) return node > 0 && bool((*t.secondary)[size_t(node)]) == (n.sub == 1);
      if (c.past == 0) return n.sub == 0 && c.ply > 0;
      const bool second = !c.main_line && c.past == 1;
      return second == (n.sub == 1);
    }
    case Kind::kPathStart:
    case Kind::kPathLastPosition: {
      int64_t p = 0;
      return cql6_path::position(n, c, p);
    }
    default: {
      int64_t v = 0;
      return cql6_path::number(n, c, v);
    }
  }
}

bool number(const Node& n, const Ctx& c, int64_t& out) {
  switch (n.kind) {
    case Kind::kPathFilter: {
      if (n.flags & cql6::kPathLastPos) return cql6_path::position(n, c, out);
      if (hopeless(n, c)) return false;
      Search& s = fresh_search();
      if (!run(n, c, s)) return false;
      out = n.kids[1].kind != Kind::kNone ? s.best_max : s.best_count;
      return true;
    }
    case Kind::kPathCount: {
      // `pathcountunfocused` (sub 1) is CQL 6.2's `ply - pathstart:ply - pathcount`
      if (!t_running.empty()) {
        const Search& s = *t_running.back();
        out = n.sub ? int64_t(c.ply) - int64_t(s.start.ply) - s.count : s.count;
        return true;
      }
      const Status* st = status(c);
      if (!st || st->count <= 0) return false;
      out = n.sub ? int64_t(c.ply) - st->start_ply - st->count : st->count;
      return true;
    }
    case Kind::kPathMax: {
      if (!t_running.empty()) {
        const Search& s = *t_running.back();
        if (!s.found) return false;
        out = s.best_max;
        return true;
      }
      const Status* st = status(c);
      if (!st) return false;
      out = st->max;
      return true;
    }
    case Kind::kPathStart:
    case Kind::kPathLastPosition: return cql6_path::position(n, c, out);
    default: return cql6_path::match(n, c) ? (out = 1, true) : false;
  }
}

bool position(const Node& n, const Ctx& c, int64_t& ply) {
  switch (n.kind) {
    case Kind::kPathFilter: {
      if (hopeless(n, c)) return false;
      Search& s = fresh_search();
      if (!run(n, c, s)) return false;
      ply = last_position(s);
      return true;
    }
    case Kind::kPathStart: {
      if (!t_running.empty()) {
        const Search& s = *t_running.back();
        ply = s.tree ? int64_t(s.root) : int64_t(s.start.ply);
        return true;
      }
      const Status* st = status(c);
      if (!st) return false;
      ply = st->start;
      return true;
    }
    case Kind::kPathLastPosition: {
      if (!t_running.empty()) {
        const Search& s = *t_running.back();
        if (!s.found) return false;
        ply = last_position(s);
        return true;
      }
      const Status* st = status(c);
      if (!st) return false;
      ply = st->last;
      return true;
    }
    default: return false;
  }
}

bool has_state(const Node& n) {
  if (n.kind == Kind::kPathFilter && (n.flags & cql6::kPathNestBan)) return true;
  for (const Node& k : n.kids)
    if (has_state(k)) return true;
  return false;
}

}  // namespace eval::cql6_path
