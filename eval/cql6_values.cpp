// The CQL 6 expression layer (eval/cql6_values.h): variables, loops, find, echo, positions,
// strings. The meaning of each filter follows the CQL 6 documentation and, where it is
// silent, CQL 6.2 (SPEC-NOTES "CQL 6 scripts, part 2: decisions (issue 37)").
#include "eval/cql6_values.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <map>
#include <memory>
#include <regex>
#include <unordered_map>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "db/record_view.h"
#include "eval/cql6_compare.h"
#include "eval/cql6_functions.h"
#include "eval/node.h"
#include "eval/cql6_path.h"

namespace eval::cql6_values {

namespace {

using chess::Bitboard;
using chess::Move;
using chess::Position;
using cql6::Kind;
using cql6::Node;
using cql6::Type;
using cql6_eval::Ctx;

/// Most iterations of one `while` (CQL 6.2 has no bound): past it the filter fails.
constexpr uint64_t kMaxWhileIterations = 1'000'000;

thread_local uint64_t t_game = 1;    // this thread's game serial (begin_game())
thread_local uint64_t t_search = 1;  // this thread's search serial (begin_search())
thread_local GameOutput t_output;  // of the game being matched
// the variation being searched (begin_variation_line()): serial, branch path, first ply
thread_local uint32_t t_line_serial = 0;
thread_local std::vector<uint32_t> t_line_path;
thread_local uint32_t t_line_first_ply = 0;
// the main-line ply the script is evaluated at (script()), or -1 inside a variation
thread_local int64_t t_origin = -1;

/// One variable's value; `game` is the serial of the game it was set in (non-persistent
/// variables set in an earlier game read as unbound).
struct Value {
  bool bound = false;
  uint64_t game = 0;
  int64_t num = 0;   // number, position (ply), piece identity
  uint64_t set = 0;  // set
  std::string str;   // string
};

/// The storage of one compiled script on one thread.
struct State {
  uint64_t search = 0;  // the search it belongs to: a new search starts unbound
  std::vector<Value> vars;
  std::vector<std::map<std::string, Value>> dicts;
  std::vector<uint64_t> dict_game;  // the game a non-persistent dictionary was last used in
  std::vector<std::string> groups;  // of the last `~~` that matched
};

thread_local State* t_state = nullptr;
thread_local int64_t t_script = 0;  // the id of the kScript being evaluated (0: none)
thread_local State t_fallback;  // part-2 nodes evaluated outside a kScript root (tests)

[[gnu::always_inline]] inline State& state() { return t_state ? *t_state : t_fallback; }

[[gnu::always_inline]] inline Value& var(const Node& v) {
  State& s = state();
  const size_t slot = size_t(v.value);
  if (s.vars.size() <= slot) s.vars.resize(slot + 1);
  Value& x = s.vars[slot];
  if (!(v.flags & cql6::kVarPersistent) && x.game != t_game) {
    x.bound = false;
    x.game = t_game;
  }
  return x;
}

std::map<std::string, Value>& dict(const Node& v) {
  State& s = state();
  const size_t slot = size_t(v.value);
  if (s.dicts.size() <= slot) {
    s.dicts.resize(slot + 1);
    s.dict_game.resize(slot + 1, 0);
  }
  if (!(v.flags & cql6::kVarPersistent) && s.dict_game[slot] != t_game) {
    s.dicts[slot].clear();
    s.dict_game[slot] = t_game;
  }
  return s.dicts[slot];
}

// ---- the game's main line: positions by ply and piece identities

struct GameView {
  uint64_t game = 0;
  const Move* base = nullptr;  // the main line's moves from ply 0
  uint32_t total = 0;          // plies of the main line (positions: total + 1)
  std::vector<Position> positions;
  std::vector<std::array<uint8_t, 64>> ids;  // per ply: square -> piece identity (0 = empty)
  std::vector<std::array<uint8_t, 65>> where;  // per ply: identity -> square (64 = gone)
  std::vector<uint64_t> boards;  // per ply: a hash of the piece placement (echo, same board)
  // per ply: the next ply with the same placement hash (UINT32_MAX: none), and the first ply
  // with it (made with every board by same_board_chains)
  std::vector<uint32_t> same_next, same_first;
  // per piece identity (line mode): the plies from which it stands on a square (64: gone),
  // (ply, square) in ply order, the first at ply 0; made once per game (timeline())
  std::vector<std::vector<std::pair<uint32_t, uint8_t>>> timelines;
  bool has_null = false;  // the line has a null move (made with timelines)
  // With `variations` (tree mode) every position of the game tree is a node, numbered in
  // CQL 6.2's order (depth first, the main continuation before the variations: the main line
  // is 0..its plies, so positionid = ply there); the vectors above are then by node, and
  // `total` is the last node. base == nullptr in tree mode.
  bool tree = false;
  std::vector<uint32_t> parent;     // by node (root: itself)
  std::vector<uint32_t> plies;      // by node
  std::vector<uint32_t> last_desc;  // by node: its last descendant (subtree = node..last_desc)
  std::vector<uint32_t> chain;      // by node: the first node of its run of first children
  std::vector<uint32_t> chain_end;  // by node: the last node of that run
  std::vector<uint8_t> depth;       // by node: variations it is nested in (0 = main line)
  std::vector<uint8_t> secondary;   // by node: reached by a move that is not the first child
  std::vector<Move> next;           // by node: the move to node + 1 when that is its first child
  std::vector<Move> in_move;        // by node: the move leading to it (none at the root)
  std::vector<std::vector<uint32_t>> children;  // by node, in record order (first = main)
  std::vector<uint32_t> var_first;  // by variation serial (1-based): the node after its first move
  // the moves of every run of first children laid out in one array, a variation's run led by
  // the move into its first node: a node's Ctx::moves points at its entry (moves[0] = the
  // move to its first child, moves[-1] = the move that led to it, also at a variation's start)
  std::vector<Move> line_moves;
  std::vector<uint32_t> line_index;  // by node: its entry in line_moves

  /// Drops what was derived from the last game's positions (identities, timelines, board
  /// hashes and their chains): a new game, or a new tree, starts.
  void forget_derived() {
    ids.clear();
    where.clear();
    timelines.clear();
    boards.clear();
    same_next.clear();
    same_first.clear();
  }
};

thread_local GameView t_view;
thread_local bool t_tree = false;  // the script being evaluated searches variations

/// Builds the tree of `c`'s game in `v` (tree mode); false when the record's moves do not
/// replay (the view is then unusable).
bool build_tree(GameView& v, const Ctx& c) {
  v.tree = true;
  v.base = nullptr;
  // nodes in record order first
  struct Raw {
    uint32_t parent;
    Move move;
    std::vector<uint32_t> kids;
  };
  std::vector<Raw> raw(1, Raw{0, Move::none(), {}});
  std::vector<uint32_t> var_raw(1, 0);  // serial -> raw node after its first move
  struct Frame {
    uint32_t cur, prev;
    uint32_t serial;
    bool first;
  };
  std::vector<Frame> frames(1, Frame{0, 0, 0, false});
  uint32_t serial = 0;
  for (const db::Token& t : c.record->tokens(db::RecordView::TypedText::kNone)) {
    if (t.kind == db::TokenKind::kMove) {
      Frame& f = frames.back();
      const uint32_t id = uint32_t(raw.size());
      raw.push_back(Raw{f.cur, t.move, {}});
      raw[f.cur].kids.push_back(id);
      if (f.first) {
        var_raw[f.serial] = id;
        f.first = false;
      }
      f.prev = f.cur;
      f.cur = id;
    } else if (t.kind == db::TokenKind::kBeginVariation) {
      const uint32_t at = frames.back().prev;
      frames.push_back(Frame{at, at, ++serial, true});
      var_raw.push_back(0);
    } else if (t.kind == db::TokenKind::kEndVariation) {
      if (frames.size() > 1) frames.pop_back();
    }
  }
  // depth-first numbering, first children first
  const size_t n = raw.size();
  std::vector<uint32_t> order(n), number(n);
  std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
  uint32_t next_number = 0;
  number[0] = next_number++;
  order[0] = 0;
  v.last_desc.assign(n, 0);
  while (!stack.empty()) {
    auto& [node, k] = stack.back();
    if (k < raw[node].kids.size()) {
      const uint32_t kid = raw[node].kids[k++];
      number[kid] = next_number;
      order[next_number++] = kid;
      stack.push_back({kid, 0});
    } else {
      v.last_desc[number[node]] = next_number - 1;
      stack.pop_back();
    }
  }
  v.parent.assign(n, 0);
  v.plies.assign(n, 0);
  v.chain.assign(n, 0);
  v.chain_end.assign(n, 0);
  v.depth.assign(n, 0);
  v.secondary.assign(n, 0);
  v.next.assign(n, Move::none());
  v.in_move.assign(n, Move::none());
  v.children.assign(n, {});
  v.positions.clear();
  v.positions.reserve(n);
  v.positions.push_back(*c.game_start);
  for (uint32_t i = 0; i < n; ++i) {
    const Raw& r = raw[order[i]];
    for (uint32_t kid : r.kids) v.children[i].push_back(number[kid]);
    if (!r.kids.empty()) v.next[i] = raw[r.kids[0]].move;
    if (i == 0) continue;
    const uint32_t p = number[r.parent];
    v.parent[i] = p;
    v.plies[i] = v.plies[p] + 1;
    v.in_move[i] = r.move;
    const bool first = raw[r.parent].kids[0] == order[i];
    v.secondary[i] = !first;
    v.depth[i] = uint8_t(std::min(255, v.depth[p] + (first ? 0 : 1)));
    v.chain[i] = first ? v.chain[p] : i;
    Position next = v.positions[p];
    chess::UndoInfo u;
    if (r.move == Move::null()) {
      if (next.in_check()) return false;
      next.do_null_move(u);
    } else {
      if (!db::is_playable_stored(next, r.move)) return false;
      next.do_move(r.move, u);
    }
    v.positions.push_back(next);
  }
  for (uint32_t i = n; i-- > 0;)
    v.chain_end[i] = (!v.children[i].empty()) ? v.chain_end[i + 1] : i;
  v.line_moves.clear();
  v.line_moves.reserve(2 * n);
  v.line_index.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) {
    if (v.chain[i] != i) continue;  // not the first node of a run
    if (i > 0) v.line_moves.push_back(v.in_move[i]);
    for (uint32_t j = i; j <= v.chain_end[i]; ++j) {
      v.line_index[j] = uint32_t(v.line_moves.size());
      v.line_moves.push_back(v.next[j]);
    }
  }
  v.var_first.assign(var_raw.size(), 0);
  for (size_t k = 1; k < var_raw.size(); ++k) v.var_first[k] = number[var_raw[k]];
  v.total = uint32_t(n - 1);
  return true;
}

/// The view of `c`'s game, or null when `c` is not on a main line with known moves (tree
/// mode: when the game's record is not known).
GameView* view(const Ctx& c) {
  if (t_tree && c.record && c.game_start && c.record->has_variations()) {
    GameView& v = t_view;
    if (v.game != t_game || !v.tree) {
      v.game = t_game;
      v.forget_derived();
      if (!build_tree(v, c)) {
        v.positions.clear();
        v.total = 0;
        v.tree = false;
        return nullptr;
      }
    }
    return v.positions.empty() ? nullptr : &v;
  }
  if (!c.start || !c.main_line || !c.moves || c.past != c.ply) return nullptr;
  GameView& v = t_view;
  if (v.tree && v.game == t_game) v.game = 0;  // a tree of another script: rebuild as a line
  v.tree = false;
  const Move* base = c.moves - c.ply;
  const uint32_t total = c.ply + c.moves_left;
  if (v.game != t_game || v.base != base || v.total != total || v.positions.empty() ||
      v.positions[0].key() != c.start->key()) {
    v.game = t_game;
    v.base = base;
    v.total = total;
    v.positions.assign(1, *c.start);
    v.forget_derived();
  }
  return &v;
}

const Position* position_at(GameView& v, uint32_t ply) {
  if (ply > v.total) return nullptr;
  if (v.tree) return &v.positions[ply];
  v.positions.reserve(v.total + 1);
  while (v.positions.size() <= ply) {
    Position next = v.positions.back();
    const Move m = v.base[v.positions.size() - 1];
    chess::UndoInfo u;
    if (m == Move::null()) next.do_null_move(u);
    else next.do_move(m, u);
    v.positions.push_back(next);
  }
  return &v.positions[ply];
}

/// The side to move at node `k` of `v` (every move, a null move too, passes the turn).
chess::Color side_at(const GameView& v, size_t k) {
  const uint32_t plies = v.tree ? v.plies[k] - v.plies[0] : uint32_t(k);
  return chess::Color((int(v.positions[0].side_to_move()) + int(plies & 1)) & 1);
}

/// The squares move `m` (not null) of side `us` changes: from, to, and the captured pawn's
/// square of an en passant capture or the king's and rook's destinations of a castling (64:
/// none).
std::array<int, 4> touched_squares(Move m, chess::Color us) {
  std::array<int, 4> touched{m.from_sq(), m.to_sq(), 64, 64};
  if (m.kind() == Move::EN_PASSANT) {
    touched[2] = m.to_sq() ^ 8;
  } else if (m.kind() == Move::CASTLING) {
    const chess::CastlingRight cr = chess::castling_right(us, m.to_sq() > m.from_sq());
    touched[2] = Position::castling_king_to(cr);
    touched[3] = Position::castling_rook_to(cr);
  }
  return touched;
}

/// The piece identities at `ply` (CQL 6: a piece keeps its identity when it moves, a
/// promoted pawn keeps the pawn's; a captured piece's identity is gone).
const std::array<uint8_t, 64>* ids_at(GameView& v, uint32_t ply) {
  if (ply > v.total) return nullptr;
  if (v.ids.empty()) {
    v.ids.reserve(v.total + 1);  // pointers handed out stay valid for the whole game
    std::array<uint8_t, 64> first{};
    const Position& p0 = v.positions[0];
    for (int s = 0; s < 64; ++s)
      if (p0.piece_on(chess::Square(s)) != chess::NO_PIECE) first[size_t(s)] = uint8_t(s + 1);
    v.ids.push_back(first);
  }
  while (v.ids.size() <= ply) {
    // the node before (its parent in tree mode, which has a smaller number) and the move
    const size_t k = v.tree ? v.parent[v.ids.size()] : v.ids.size() - 1;
    std::array<uint8_t, 64> next = v.ids[k];
    const Move m = v.tree ? v.in_move[v.ids.size()] : v.base[k];
    if (m != Move::null() && m != Move::none()) {
      // from, to, then the en passant pawn's square or the castling king's and rook's
      const std::array<int, 4> t = touched_squares(m, side_at(v, k));
      if (m.kind() == Move::CASTLING) {
        const uint8_t king = next[size_t(t[0])], rook = next[size_t(t[1])];
        next[size_t(t[0])] = next[size_t(t[1])] = 0;
        next[size_t(t[2])] = king;
        next[size_t(t[3])] = rook;
      } else {
        if (m.kind() == Move::EN_PASSANT) next[size_t(t[2])] = 0;
        next[size_t(t[1])] = next[size_t(t[0])];
        next[size_t(t[0])] = 0;
      }
    }
    v.ids.push_back(next);
  }
  return &v.ids[ply];
}

/// The square of piece identity `id` at `ply` (64 when it is gone).
int square_of(GameView& v, uint32_t ply, int64_t id) {
  if (id < 1 || id > 64 || !ids_at(v, ply)) return 64;
  if (v.where.empty()) {
    v.where.reserve(v.total + 1);
    std::array<uint8_t, 65> w;
    w.fill(64);
    const std::array<uint8_t, 64>& ids = v.ids[0];
    for (int s = 0; s < 64; ++s)
      if (ids[size_t(s)]) w[ids[size_t(s)]] = uint8_t(s);
    v.where.push_back(w);
  }
  // each node's table from the one before it (its parent in tree mode): only the squares the
  // move touched change
  while (v.where.size() <= ply) {
    const size_t k = v.where.size();
    const size_t before = v.tree ? v.parent[k] : k - 1;
    const Move m = v.tree ? v.in_move[k] : v.base[before];
    std::array<uint8_t, 65> w = v.where[before];
    if (m != Move::null() && m != Move::none()) {
      const std::array<int, 4> touched = touched_squares(m, side_at(v, before));
      const std::array<uint8_t, 64>& was = v.ids[before];
      const std::array<uint8_t, 64>& now = v.ids[k];
      for (const int s : touched)
        if (s < 64 && was[size_t(s)]) w[was[size_t(s)]] = 64;
      for (const int s : touched)
        if (s < 64 && now[size_t(s)]) w[now[size_t(s)]] = uint8_t(s);
    }
    v.where.push_back(w);
  }
  return v.where[ply][size_t(id)];
}

/// The timeline of piece identity `id` (1..64) on a line (not tree mode): the plies from
/// which it stands on a square (64: gone), first at ply 0. Made for every identity at once,
/// once per game.
const std::vector<std::pair<uint32_t, uint8_t>>& timeline(GameView& v, int64_t id) {
  if (v.timelines.empty()) {
    square_of(v, v.total, 1);  // every ply's squares
    v.timelines.assign(65, {});
    for (size_t k = 1; k <= 64; ++k) v.timelines[k].emplace_back(0, v.where[0][k]);
    v.has_null = false;
    for (uint32_t p = 1; p <= v.total; ++p) {
      const Move m = v.base[p - 1];
      if (m == Move::null()) v.has_null = true;
      if (m == Move::null() || m == Move::none()) continue;
      // only the pieces on the squares the move touched (from, to, en passant, castling) move
      const std::array<uint8_t, 65>& was = v.where[p - 1];
      const std::array<uint8_t, 65>& now = v.where[p];
      const std::array<uint8_t, 64>& ids_was = v.ids[p - 1];
      const std::array<uint8_t, 64>& ids_now = v.ids[p];
      const std::array<int, 4> touched = touched_squares(m, side_at(v, p - 1));
      for (const int sq : touched) {
        if (sq >= 64) continue;
        for (const uint8_t piece : {ids_was[size_t(sq)], ids_now[size_t(sq)]}) {
          std::vector<std::pair<uint32_t, uint8_t>>& line = v.timelines[piece];
          if (piece && was[piece] != now[piece] && line.back().first != p) line.emplace_back(p, now[piece]);
        }
      }
    }
  }
  return v.timelines[size_t(id >= 1 && id <= 64 ? id : 0)];
}

/// A hash of the piece placement at `ply` (equal placements, equal hashes).
uint64_t board_at(GameView& v, uint32_t ply) {
  while (v.boards.size() <= ply) {
    const Position* p = position_at(v, uint32_t(v.boards.size()));
    if (!p) return 0;
    uint64_t h = 0x9E3779B97F4A7C15ULL;
    for (int color = 0; color < 2; ++color)
      for (int t = chess::PAWN; t <= chess::KING; ++t) {
        h ^= p->pieces(chess::Color(color), chess::PieceType(t));
        h *= 0xFF51AFD7ED558CCDULL;
        h ^= h >> 33;
      }
    v.boards.push_back(h);
  }
  return v.boards[ply];
}

/// Links the plies 0..total of `v` with equal placement hashes (GameView::same_next,
/// same_first), so that an echo over the same board visits only them: one pass over the
/// game instead of one per source.
void same_board_chains(GameView& v) {
  if (!v.same_next.empty()) return;
  board_at(v, v.total);
  const uint32_t n = uint32_t(v.boards.size());
  // an open-addressing table of the plies seen so far by hash (few games repeat a placement)
  thread_local std::vector<uint32_t> slots;
  size_t size = 16;
  while (size < 2 * size_t(n)) size *= 2;
  slots.assign(size, UINT32_MAX);
  v.same_next.assign(n, UINT32_MAX);
  v.same_first.assign(n, 0);
  thread_local std::vector<uint32_t> last;  // per chain's first ply: its last ply so far
  last.resize(n);
  for (uint32_t ply = 0; ply < n; ++ply) {
    const uint64_t h = v.boards[ply];
    size_t i = size_t(h ^ (h >> 29)) & (size - 1);
    while (slots[i] != UINT32_MAX && v.boards[slots[i]] != h) i = (i + 1) & (size - 1);
    if (slots[i] == UINT32_MAX) {
      slots[i] = ply;
      v.same_first[ply] = ply;
    } else {
      const uint32_t first = slots[i];
      v.same_first[ply] = first;
      v.same_next[last[first]] = ply;
    }
    last[v.same_first[ply]] = ply;
  }
}

/// The ply path (eval/match_location.h) of node `node` of the game tree `v`: from the root,
/// the plies of each run of first children and the number of each other child taken (its
/// place among its parent's children: 1 = the first variation); empty on the main line.
std::vector<uint32_t> ply_path(const GameView& v, uint32_t node) {
  std::vector<uint32_t> chain;
  for (uint32_t x = node; x != 0 && chain.size() <= v.parent.size(); x = v.parent[x]) chain.push_back(x);
  std::vector<uint32_t> path;
  uint32_t at = 0, run = 0;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const std::vector<uint32_t>& kids = v.children[at];
    const size_t k = size_t(std::find(kids.begin(), kids.end(), *it) - kids.begin());
    if (k == 0) {
      ++run;
    } else {
      path.push_back(run);
      path.push_back(uint32_t(k));
      run = 1;
    }
    at = *it;
  }
  if (!path.empty()) path.push_back(run);
  return path;
}

/// The context of the main-line position at `ply` of `c`'s game.
/// The node of `c` in its game's view `v` (its ply on a line; tree mode: its number in the
/// game tree, CQL 6.2's positionid), or -1 when unknown.
int64_t node_of(const Ctx& c, const GameView* v) {
  if (c.node >= 0) return c.node;
  if (!v || !v->tree || c.main_line) return c.ply;
  if (c.variation == 0 || c.variation >= v->var_first.size()) return -1;
  const uint32_t first = v->var_first[c.variation];
  if (c.past == 0) return v->parent[first];  // the position the variation branches from
  const int64_t at = int64_t(first) + c.past - 1;
  return at <= int64_t(v->chain_end[first]) ? at : -1;
}

bool ctx_at(const Ctx& c, int64_t ply, Ctx& out) {
  GameView* v = view(c);
  if (!v || ply < 0 || ply > int64_t(v->total)) return false;
  const Position* pos = position_at(*v, uint32_t(ply));
  if (v->tree) {
    const uint32_t i = uint32_t(ply);
    out = c;
    out.pos = pos;
    out.ply = v->plies[i];
    out.moves = v->line_moves.data() + v->line_index[i];
    out.moves_left = v->chain_end[i] - i;
    out.next = out.moves_left ? v->next[i] : Move::none();
    out.past = i - v->chain[i] + (v->chain[i] > 0 ? 1 : 0);  // a variation's run: and the move into it
    out.main_line = v->depth[i] == 0;
    out.on_main_line = out.main_line;
    out.start = out.main_line ? c.game_start : nullptr;
    out.node = i;
    out.next_secondary = false;
    return true;
  }
  out = c;
  out.pos = pos;
  out.ply = uint32_t(ply);
  out.moves = v->base + ply;
  out.moves_left = v->total - uint32_t(ply);
  out.next = out.moves_left ? out.moves[0] : Move::none();
  out.past = uint32_t(ply);
  out.main_line = true;
  out.on_main_line = true;
  out.next_secondary = false;
  return true;
}

uint64_t piece_square(const Value& x, const Ctx& c) {
  GameView* v = view(c);
  if (!v || !x.bound) return 0;
  const int64_t at = node_of(c, v);
  if (at < 0) return 0;
  const int s = square_of(*v, uint32_t(at), x.num);
  return s < 64 ? Bitboard(1) << s : 0;
}

// ---- strings

std::string square_name(int s) { return std::string{char('a' + (s & 7)), char('1' + (s >> 3))}; }

/// CQL 6.2's string of a set: its squares, in square order.
std::string set_string(uint64_t b) {
  std::string out;
  if (chess::popcount(b) != 1) out += "[";
  bool first = true;
  for (Bitboard s = b; s;) {
    if (!first) out += ",";
    first = false;
    out += square_name(chess::pop_lsb(s));
  }
  if (chess::popcount(b) != 1) out += "]";
  return out;
}

/// Why std::regex must not be given `pattern` ("" when it may): libstdc++'s regex compiler
/// overflows a signed integer on a long run of digits (a back-reference or a count such as
/// "\\5777777777777777777") and recurses once per nesting level, so a pattern longer than
/// 2,000 bytes, with a run of more than 9 digits or nested more than 100 deep is refused; it
/// copies a repeated part once per count, so the product of the pattern's {m,n} counts (each
/// its larger bound) must stay <= 100,000 (SPEC-NOTES "CQL 6 scripts, part 2": Strings).
std::string regex_limit_error(const std::string& pattern) {
  if (pattern.size() > 2000) return "longer than 2,000 bytes";
  int depth = 0, digits = 0;
  int64_t copies = 1, bound = 0;
  bool in_count = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char ch = pattern[i];
    if (ch == '{') in_count = true, bound = 0;
    if (in_count && ch >= '0' && ch <= '9') bound = std::min<int64_t>(bound * 10 + (ch - '0'), 1000000000);
    if (in_count && ch == '}') {
      in_count = false;
      copies *= std::max<int64_t>(bound, 1);
      if (copies > 100000) return "repetition counts multiplying to more than 100,000";
    }
    digits = (ch >= '0' && ch <= '9') ? digits + 1 : 0;
    if (digits > 9) return "a number of more than 9 digits";
    if (ch == '\\') {
      ++i;  // an escaped character opens no group (an escaped digit still counts as a digit)
      if (i < pattern.size() && pattern[i] >= '0' && pattern[i] <= '9') digits = 1;
      continue;
    }
    if (ch == '(' && ++depth > 100) return "groups nested more than 100 deep";
    if (ch == ')' && depth > 0) --depth;
  }
  return "";
}

const std::regex* regex_of(const Node& pattern, const std::string& text) {
  thread_local std::unordered_map<std::string, std::unique_ptr<std::regex>> cache;
  (void)pattern;
  auto it = cache.find(text);
  if (it != cache.end()) return it->second.get();
  if (cache.size() > 256) cache.clear();
  if (!regex_limit_error(text).empty()) return nullptr;
  try {
    auto re = std::make_unique<std::regex>(text, std::regex::ECMAScript);
    return cache.emplace(text, std::move(re)).first->second.get();
  } catch (const std::regex_error&) {
    return nullptr;
  }
}

/// The key of a dictionary entry (type-tagged, so 1 and "1" differ).
bool key_of(const Node& k, const Ctx& c, std::string& out) {
  switch (k.type) {
    case Type::kString:
      if (!string(k, c, out)) return false;
      out.insert(0, "s");
      return true;
    case Type::kSet: out = "q" + std::to_string(cql6_eval::squares(k, c)); return true;
    default: {
      int64_t v = 0;
      if (!cql6_eval::number(k, c, v)) return false;
      out = (k.type == Type::kPosition ? "p" : "n") + std::to_string(v);
      return true;
    }
  }
}

/// The entry `D[k]` of dictionary node `n` (kDictGet) at `c`; null when its key has no
/// value or the dictionary has no such entry.
const Value* dict_entry(const Node& n, const Ctx& c) {
  std::string key;
  if (!key_of(n.kids[1], c, key)) return nullptr;
  auto& d = dict(n.kids[0]);
  auto it = d.find(key);
  return it == d.end() ? nullptr : &it->second;
}

// ---- assignment

bool assign(const Node& n, const Ctx& c) {
  const Node& v = n.kids[0];
  const Node& rhs = n.kids[1];
  if (n.sub == '+' && v.type == Type::kString) {  // string concatenation (CQL 6.2)
    std::string tail;
    if (!string(rhs, c, tail)) return false;
    Value& x = var(v);
    if (!x.bound) return false;
    x.str += tail;
    return true;
  }
  if (n.sub != '=') {
    int64_t add = 0;
    if (!cql6_eval::number(rhs, c, add)) return false;
    Value& x = var(v);
    if (!x.bound) {
      if (!(v.flags & cql6::kVarPersistent)) return false;
      x.num = 0;  // an unbound persistent starts at 0 (CQL 6.2)
    }
    int64_t r = x.num;
    switch (n.sub) {  // + - * wrap around (two's complement) instead of overflowing
      case '+': r = int64_t(uint64_t(r) + uint64_t(add)); break;
      case '-': r = int64_t(uint64_t(r) - uint64_t(add)); break;
      case '*': r = int64_t(uint64_t(r) * uint64_t(add)); break;
      case '/': if (add == 0 || (add == -1 && r == INT64_MIN)) return false; r /= add; break;
      default: if (add == 0 || (add == -1 && r == INT64_MIN)) return false; r %= add; break;
    }
    x.num = r;
    x.bound = true;
    return true;
  }
  Value value;
  value.bound = true;
  switch (v.type) {
    case Type::kSet: value.set = cql6_eval::squares(rhs, c); break;  // a set assignment always holds
    case Type::kPosition: if (!position(rhs, c, value.num)) return false; break;
    case Type::kString: if (!string(rhs, c, value.str)) return false; break;
    default: if (!cql6_eval::number(rhs, c, value.num)) return false; break;
  }
  Value& x = var(v);
  value.game = x.game;
  x = std::move(value);
  return true;
}

// ---- loops, find, echo

/// True if the value of `n` depends only on the position it is evaluated at (no variable,
/// no `~~` group, no side effect): `find` may then remember it per ply for the game.
bool position_only(const Node& n) {
  switch (n.kind) {
    case Kind::kVar: case Kind::kMatchGroup: case Kind::kDictGet: case Kind::kIsBound:
      return false;
    default: break;
  }
  if (has_side_effect(n)) return false;
  for (const Node& k : n.kids)
    if (!position_only(k)) return false;
  return true;
}

// ---- prechecks: conjuncts of a `find`, `echo` or loop body decided before the body is run
//
// `find` and `echo` evaluate their body at many positions of a game (echo: every pair), a
// square or piece loop at every element of its set. Most
// bodies open with cheap conjuncts that reject most positions: `sidetomove ==
// source:sidetomove`, `s < t`, `N1 == Start:N2`, a dash moving piece E. A conjunct of the
// body's leading part without effects is a precheck when one side of it is known without
// running the evaluator at that position: the same for the whole walk (`source:...`,
// `Start:N2`, a number), remembered per position for the game (a filter of the position
// alone), a piece variable's square (from the per-ply piece identities), or the position's
// own id (echo's target); in a loop, the element itself (`x`) or its piece's square at a fixed
// position (`P:x`, `x != P:x`). A position (element) a precheck rejects is skipped; every other
// runs the whole body as before, so the answer and the effects are the same.

/// Where a precheck operand's value comes from at a position of the walk.
enum class Source : uint8_t {
  kFixed,  ///< the same at every position of one walk: evaluated once per walk
  kPure,   ///< a filter of the position alone: remembered per position for the game
  kPiece,  ///< a piece variable the body does not write: its square there
  kNode,   ///< echo's target variable: the position's own id
  kHere,   ///< anything else without effects: evaluated at the position
  // a square or piece loop's walk over its elements (squares 0..63)
  kElement,    ///< the loop variable: the element's square
  kElementAt,  ///< `P:x`, x the loop variable, P a position the body does not write: the
               ///< square of x's piece at P (a square loop: the element's square)
};

struct Operand {
  Source source = Source::kHere;
  const Node* node = nullptr;
  uint32_t column = 0;  ///< kPure: its column in Plan's memo
};

struct Precheck {
  enum class What : uint8_t { kCompare, kCondition, kDash, kMeet } what = What::kCondition;  // kMeet: `a & b` as a condition
  bool set_mode = false;  ///< kCompare: two sets compared as sets (`==`, `!=`)
  cql6::Cmp op = cql6::Cmp::kEq;
  Operand a, b;           ///< kCompare: both; kCondition: a; kDash: its from and to sets (node null: none)
  const Node* member = nullptr;
};

/// Per thread, per `find` body of the game being matched: its result at each ply (-1 =
/// not evaluated yet). Makes `find` from every position of a game one evaluation per ply.
struct FindMemo {
  uint64_t game = 0;
  std::vector<int8_t> at;
};

/// The prechecks of one `find` / `echo` / loop node, with the per-game memo of its kPure
/// operands; for `find`, whether its body depends on its position alone and its memo.
struct Plan {
  bool body_pure = false;  ///< find: the body depends on its position alone (memo below)
  FindMemo memo;
  std::vector<Precheck> checks;
  bool has_here = false;  ///< some operand is evaluated at the position (echo binds s t first)
  uint32_t columns = 0;
  uint64_t game = 0;
  uint32_t size = 0;
  std::vector<int8_t> known;  ///< column * size + node: -1 not yet, 0 no value, 1 value
  std::vector<int64_t> values;
  /// By column of a condition of the position alone (`variation`, `btm`): per node, the
  /// first node at or after it where the condition holds (UINT32_MAX: none); empty until a
  /// walk of this game needs it (Walk::skip_to).
  std::vector<std::vector<uint32_t>> next_true;
};

/// True if `n` or a node below it leaves state behind for other filters (`line`: the last
/// line's length; `path`: a path's count): a prefix holding one must run in order.
bool leaves_state(const Node& n) {
  if (n.kind == Kind::kLine || n.kind == Kind::kPathFilter) return true;
  for (const Node& k : n.kids)
    if (leaves_state(k)) return true;
  return false;
}

bool has(const std::vector<int64_t>& slots, int64_t s) { return std::find(slots.begin(), slots.end(), s) != slots.end(); }

/// The variable slots the body writes (assignments, loops, echo, unbind; not dictionaries).
void written_vars(const Node& n, std::vector<int64_t>& out) {
  const auto add = [&](const Node& v) {
    if (v.kind == Kind::kVar && !(v.flags & cql6::kVarDictionary)) out.push_back(v.value);
  };
  switch (n.kind) {
    case Kind::kAssign: case Kind::kPieceAssign: case Kind::kSquareLoop: case Kind::kPieceLoop:
    case Kind::kUnbind:
      if (!n.kids.empty()) add(n.kids[0]);
      break;
    case Kind::kEcho:
      if (n.kids.size() > 1) add(n.kids[0]), add(n.kids[1]);
      break;
    default: break;
  }
  for (const Node& k : n.kids) written_vars(k, out);
}

/// True if `n` or a node below it reads what a walk's body may change: a variable the body
/// writes, a dictionary, a `~~` group or a path's state.
bool reads_changing(const Node& n, const std::vector<int64_t>& written) {
  switch (n.kind) {
    case Kind::kVar:
      if ((n.flags & cql6::kVarDictionary) || has(written, n.value)) return true;
      break;
    case Kind::kDictGet: case Kind::kMatchGroup: case Kind::kPathCount: case Kind::kPathStart:
    case Kind::kPathLastPosition: case Kind::kPathMax:
      return true;
    default: break;
  }
  for (const Node& k : n.kids)
    if (reads_changing(k, written)) return true;
  return false;
}

/// True if `n` has the same value wherever it is evaluated at one given position during the
/// walk: stateless, and reading nothing the body may change.
bool closed(const Node& n, const std::vector<int64_t>& written) {
  return stateless(n) && !reads_changing(n, written);
}

/// What the plan of one node is built from: the variables the body writes, and for `echo`
/// its source and target variables.
struct PlanInput {
  std::vector<int64_t> written;
  int64_t source = -1, target = -1;  ///< echo: slots of s and t (-1: find)
  int64_t element = -1;              ///< a loop: the slot of its variable
};

/// Where `x`'s value comes from at the positions of a walk; false when it cannot be a precheck
/// operand (it has an effect). accept() gives a kPure operand its memo column.
bool classify(const Node& x, const PlanInput& in, Operand& out) {
  out.node = &x;
  if (!stateless(x)) return false;
  const auto is_var = [](const Node& v) { return v.kind == Kind::kVar && !(v.flags & cql6::kVarDictionary); };
  if (x.kind == Kind::kNumber || (x.kind == Kind::kDesignator && (x.kinds & cql6::kAllKinds) == cql6::kAllKinds)) {
    out.source = Source::kFixed;  // a number, a square designator (any piece or none: `a1`)
  } else if (in.element >= 0 && is_var(x) && x.value == in.element) {
    out.source = Source::kElement;
  } else if (in.element >= 0 && x.kind == Kind::kAt && x.kids.size() == 2 && is_var(x.kids[0]) &&
             is_var(x.kids[1]) && x.kids[1].value == in.element && !has(in.written, x.kids[0].value)) {
    out.source = Source::kElementAt;
  } else if (is_var(x)) {
    if (x.value == in.target) out.source = Source::kNode;
    else if (x.value == in.source) out.source = Source::kFixed;
    else if (has(in.written, x.value)) out.source = Source::kHere;
    else out.source = (x.flags & cql6::kVarPiece) ? Source::kPiece : Source::kFixed;
  } else if (x.kind == Kind::kAt && x.kids.size() == 2 && x.kids[0].kind == Kind::kVar &&
             !(x.kids[0].flags & cql6::kVarDictionary) && x.kids[0].value != in.target &&
             !has(in.written, x.kids[0].value) && closed(x.kids[1], in.written)) {
    out.source = Source::kFixed;  // `s:f`, `Start:N2`: f at a position fixed for the walk
  } else if (position_only(x) && closed(x, in.written)) {
    out.source = in.element >= 0 ? Source::kFixed : Source::kPure;  // a loop stays at one position
  } else {
    out.source = Source::kHere;
  }
  return true;
}

/// Adds precheck `p` to `plan`: its kPure operands get their memo columns, and a kHere
/// operand makes the walk bind its variables before checking.
void accept(Plan& plan, Precheck p) {
  for (Operand* o : {&p.a, &p.b}) {
    if (!o->node) continue;
    if (o->source == Source::kPure) o->column = plan.columns++;
    if (o->source == Source::kHere) plan.has_here = true;
  }
  plan.checks.push_back(p);
}

/// The prechecks of `body` (a find's or echo's). Only the leading conjuncts count: those
/// before the first one with an effect or leaving state (skipping a position must not skip
/// an effect the full body would have had).
void make_plan(const Node& body, const PlanInput& in, Plan& plan) {
  constexpr size_t kMaxChecks = 8;
  std::vector<const Node*> members;
  conjuncts(body, members);
  for (const Node* m : members) {
    if (!stateless(*m)) break;
    if (plan.checks.size() == kMaxChecks) break;
    Precheck p;
    p.member = m;
    if (m->kind == Kind::kCompare && m->kids.size() == 2 && m->kids[0].type != Type::kString &&
        m->kids[1].type != Type::kString) {
      p.what = Precheck::What::kCompare;
      p.op = m->ops[0];
      p.set_mode = m->kids[0].type == Type::kSet && m->kids[1].type == Type::kSet &&
                   (p.op == cql6::Cmp::kEq || p.op == cql6::Cmp::kNe);
      if (!classify(m->kids[0], in, p.a) || !classify(m->kids[1], in, p.b)) continue;
      if (p.a.source == Source::kHere && p.b.source == Source::kHere) continue;  // nothing saved
      accept(plan, p);
    } else if (m->kind == Kind::kIntersect && m->kids.size() == 2) {
      p.what = Precheck::What::kMeet;  // `T & a1` as a condition: the two sets meet
      p.set_mode = true;
      if (!classify(m->kids[0], in, p.a) || !classify(m->kids[1], in, p.b)) continue;
      if (p.a.source == Source::kHere && p.b.source == Source::kHere) continue;
      accept(plan, p);
    } else if (m->kind == Kind::kDash && in.element >= 0) {
      continue;  // a loop stays at one position: the dash runs in the body
    } else if (m->kind == Kind::kDash && !m->kids.empty() && !(m->flags & cql6::kDashCount)) {
      p.what = Precheck::What::kDash;
      // its from (to) set, when a variable the body does not write
      const auto side = [&](const Node& x) {
        if (x.kind == Kind::kVar && !(x.flags & cql6::kVarDictionary) && !has(in.written, x.value) &&
            x.value != in.target && x.value != in.source)
          return Operand{(x.flags & cql6::kVarPiece) ? Source::kPiece : Source::kFixed, &x, 0};
        return Operand{Source::kHere, nullptr, 0};
      };
      p.a = side(m->kids[0]);
      // a capture's to square is the captured piece's (en passant: not the move's)
      if (m->kids.size() > 1 && !(m->flags & cql6::kDashCapture)) p.b = side(m->kids[1]);
      accept(plan, p);
    } else {
      p.what = Precheck::What::kCondition;
      if (!classify(*m, in, p.a) || p.a.source == Source::kHere || p.a.source == Source::kNode ||
          p.a.source == Source::kElement)
        continue;
      accept(plan, p);
    }
  }
}

thread_local int t_walks = 0;  // walks alive on this thread (their plans must stay)

/// The plan of `find` / `echo` / loop node `n` (made once per node, thread and search).
Plan& plan_of(const Node& n) {
  thread_local uint64_t search = 0;
  thread_local std::unordered_map<const Node*, std::unique_ptr<Plan>> plans;
  if (search != t_search && t_walks == 0) {  // a later query's node may reuse an address
    search = t_search;
    plans.clear();
  }
  const Node* const key = &n;
  auto it = plans.find(key);
  if (it != plans.end()) return *it->second;
  auto plan = std::make_unique<Plan>();
  PlanInput in;
  const Node* body = &n.kids[0];
  if (n.kind == Kind::kEcho) {
    body = &n.kids[2];
    in.source = n.kids[0].value;
    in.target = n.kids[1].value;
  } else if (n.kind == Kind::kSquareLoop || n.kind == Kind::kPieceLoop) {
    body = &n.kids[2];
    in.element = n.kids[0].value;
  }
  if (n.kind == Kind::kFind) plan->body_pure = position_only(*body);
  written_vars(*body, in.written);
  if (in.element >= 0) {  // a loop whose body writes its variable keeps the plain walk
    if (!has(in.written, in.element)) {
      in.written.push_back(in.element);
      make_plan(*body, in, *plan);
    }
    return *plans.emplace(key, std::move(plan)).first->second;
  }
  // echo: a body that writes its own variables keeps the plain walk; the target variable
  // changes at each position, as if the body wrote it
  if (!has(in.written, in.source) && !has(in.written, in.target)) {
    if (in.target >= 0) in.written.push_back(in.target);
    make_plan(*body, in, *plan);
  }
  return *plans.emplace(key, std::move(plan)).first->second;
}

/// The move played from node `i` of `v` (none at the end of its line).
Move next_move(const GameView& v, uint32_t i) {
  if (v.tree) return v.chain_end[i] > i ? v.next[i] : Move::none();
  return i < v.total ? v.base[i] : Move::none();
}

/// One walk of a `find` or `echo` (from the position `c`) with its plan's prechecks.
class Walk {
 public:
  /// `c`: the walk's position (echo: with its source variable bound); `echo`: the echo node
  /// (its variables are bound before an operand is evaluated at a target), or null.
  /// A loop's walk (over its elements, squares 0..63): `ids` the piece identities at `c` for a
  /// piece loop, null for a square loop; the loop binds its variable before may_match().
  Walk(Plan& plan, GameView& v, const Ctx& c, const Node* echo, bool loop = false,
       const std::array<uint8_t, 64>* ids = nullptr)
      : plan_(plan), v_(v), c_(c), echo_(echo), loop_(loop), ids_(ids) {
    ++t_walks;
    if (plan.checks.empty()) return;
    if (plan.columns && (plan.game != t_game || plan.size != v.total + 1)) {
      plan.game = t_game;
      plan.size = v.total + 1;
      plan.known.assign(size_t(plan.columns) * plan.size, -1);
      plan.values.assign(size_t(plan.columns) * plan.size, 0);
      plan.next_true.assign(plan.columns, {});
    }
    for (size_t k = 0; k < plan.checks.size() && k < fixed_.size(); ++k) {
      const Precheck& p = plan.checks[k];
      fixed_[k][0] = prepare(p, p.a);
      fixed_[k][1] = prepare(p, p.b);
      if (p.what == Precheck::What::kCondition && p.a.source == Source::kFixed && !fixed_[k][0].has)
        never_ = true;  // a condition false for the whole walk
      if (p.what == Precheck::What::kCompare && p.a.source == Source::kFixed &&
          p.b.source == Source::kFixed && !holds(p, fixed_[k][0], fixed_[k][1]))
        never_ = true;
      if (p.what == Precheck::What::kCompare && !p.set_mode) narrow(p, fixed_[k][0], fixed_[k][1]);
      if (p.what == Precheck::What::kCondition && p.a.source == Source::kPure && !loop && !never_ &&
          cond_count_ < conds_.size()) {
        // jumps over the nodes where a condition of the position alone fails: decided once
        // for the game at every node (the walks of a game visit them all between them)
        std::vector<uint32_t>& next = plan.next_true[p.a.column];
        if (next.size() != plan.size) {
          next.assign(plan.size, UINT32_MAX);
          uint32_t after = UINT32_MAX;
          for (uint32_t i = plan.size; i-- > 0;) {
            if (value(p, p.a, fixed_[k][0], i).has) after = i;
            next[i] = after;
          }
        }
        conds_[cond_count_++] = &next;
      }
      if (v.tree || loop || jump_count_ == jumps_.size()) continue;
      // jumps (a line): a piece variable equal to a fixed set, or moving (a dash from it)
      const bool meet = p.what == Precheck::What::kMeet;
      if ((p.what == Precheck::What::kCompare && p.set_mode && p.op == cql6::Cmp::kEq) || meet) {
        if (p.a.source == Source::kPiece && p.b.source == Source::kFixed && fixed_[k][0].has)
          jumps_[jump_count_++] = Jump{false, fixed_[k][0].v, uint64_t(fixed_[k][1].v), meet};
        else if (p.b.source == Source::kPiece && p.a.source == Source::kFixed && fixed_[k][1].has)
          jumps_[jump_count_++] = Jump{false, fixed_[k][1].v, uint64_t(fixed_[k][0].v), meet};
      } else if (p.what == Precheck::What::kDash && p.a.node && p.a.source == Source::kPiece && fixed_[k][0].has) {
        jumps_[jump_count_++] = Jump{true, fixed_[k][0].v, 0};
      }
    }
  }

  /// The first node >= `i` where the jumps allow a match (may_match() still decides there);
  /// UINT32_MAX when none is left. On a line, from the pieces' timelines: a walk then visits
  /// only the plies where its piece stands on the square asked, or moves.
  uint32_t skip_to(uint32_t i) {
    if ((!jump_count_ && !cond_count_) || never_) return i;
    for (;;) {
      uint32_t j = i;
      for (size_t k = 0; k < cond_count_ && j != UINT32_MAX; ++k)
        j = j < conds_[k]->size() ? (*conds_[k])[j] : UINT32_MAX;
      for (size_t k = 0; k < jump_count_ && j != UINT32_MAX; ++k) j = std::max(j, next_ok(jumps_[k], j));
      if (j == i || j == UINT32_MAX) return j;
      i = j;
    }
  }

  ~Walk() { --t_walks; }
  Walk(const Walk&) = delete;
  Walk& operator=(const Walk&) = delete;

  /// True if the plan has prechecks (else may_match() is always true).
  bool active() const { return !plan_.checks.empty(); }
  /// True if an operand is evaluated at the position itself (a loop binds its variable first).
  bool reads_here() const { return plan_.has_here; }
  /// The nodes the order prechecks leave (may_match() is false outside; empty when lo > hi).
  uint32_t lo() const { return never_ ? 1 : lo_; }
  uint32_t hi() const { return never_ ? 0 : hi_; }

  /// True unless a precheck shows the body cannot match at node `i`.
  bool may_match(uint32_t i) {
    if (never_ || i < lo_ || i > hi_) return false;
    here_made_ = false;
    for (size_t k = 0; k < plan_.checks.size(); ++k) {
      const Precheck& p = plan_.checks[k];
      switch (p.what) {
        case Precheck::What::kDash: {
          const Move m = next_move(v_, i);
          if (m == Move::none()) return false;
          if (m == Move::null() || m.kind() == Move::CASTLING) break;
          if ((p.member->flags & cql6::kDashPromote) && m.kind() != Move::PROMOTION) return false;
          if (p.a.node) {
            const Val from = value(p, p.a, fixed_[k][0], i);
            if (!(uint64_t(from.v) & (uint64_t(1) << m.from_sq()))) return false;
          }
          if (p.b.node) {
            const Val to = value(p, p.b, fixed_[k][1], i);
            if (!(uint64_t(to.v) & (uint64_t(1) << m.to_sq()))) return false;
          }
          break;
        }
        case Precheck::What::kCondition:
          if (!value(p, p.a, fixed_[k][0], i).has) return false;
          break;
        case Precheck::What::kCompare: {
          const Val a = value(p, p.a, fixed_[k][0], i);
          const Val b = value(p, p.b, fixed_[k][1], i);
          if (!holds(p, a, b)) return false;
          break;
        }
        case Precheck::What::kMeet: {
          const Val a = value(p, p.a, fixed_[k][0], i);
          if (!a.v) return false;
          if (!(a.v & value(p, p.b, fixed_[k][1], i).v)) return false;
          break;
        }
      }
    }
    return true;
  }

 private:
  struct Val {
    bool has = false;
    int64_t v = 0;  // a number, or a set's squares
  };

  /// A value of operand `o` for precheck `p` (a condition: has = it matches).
  static Val eval(const Precheck& p, const Operand& o, const Ctx& c) {
    Val out;
    if (p.what == Precheck::What::kCondition) {
      out.has = cql6_eval::match(*o.node, c);
    } else if (p.what == Precheck::What::kDash || p.set_mode) {
      out.has = true;
      out.v = int64_t(cql6_eval::squares(*o.node, c));
    } else {
      out.has = cql6_eval::number(*o.node, c, out.v);
    }
    return out;
  }

  /// What a walk knows of `o` before it starts (kFixed: its value; kPiece: its identity).
  Val prepare(const Precheck& p, const Operand& o) {
    if (!o.node) return {};
    if (o.source == Source::kFixed) return eval(p, o, c_);
    if (o.source == Source::kPiece) {
      const Value& x = var(*o.node);
      return Val{x.bound, x.bound ? x.num : 0};
    }
    if (o.source == Source::kElementAt) {  // the node of P
      int64_t at = 0;
      if (!position(o.node->kids[0], c_, at) || at < 0 || at > int64_t(v_.total)) return {};
      if (ids_) square_of(v_, uint32_t(at), 1);  // makes the pieces' squares at P
      return Val{true, at};
    }
    return {};
  }

  /// An order precheck between the node's id and a fixed number (`s < t`, `t >= 5`)
  /// narrows the nodes the walk may match to a range.
  void narrow(const Precheck& p, const Val& a, const Val& b) {
    if (p.op == cql6::Cmp::kEq || p.op == cql6::Cmp::kNe) return;
    const bool node_left = p.a.source == Source::kNode && p.b.source == Source::kFixed;
    const bool node_right = p.b.source == Source::kNode && p.a.source == Source::kFixed;
    if (!node_left && !node_right) return;
    const Val& k = node_left ? b : a;
    if (!k.has) {
      never_ = true;
      return;
    }
    // every operator but == and != holds on one side of a threshold: find which side
    const int64_t key = k.v;
    if (key < -(int64_t(1) << 40) || key > (int64_t(1) << 40)) return;
    const auto fits = [&](int64_t x) {
      return node_left ? cql6_eval::compare(x, p.op, key) : cql6_eval::compare(key, p.op, x);
    };
    const auto clamp = [](int64_t x) { return uint32_t(std::clamp<int64_t>(x, 0, int64_t(UINT32_MAX))); };
    if (fits(key + 1) && !fits(key - 1)) {
      const int64_t from = fits(key) ? key : key + 1;
      if (from > int64_t(UINT32_MAX)) never_ = true;
      else lo_ = std::max(lo_, clamp(from));
    } else if (fits(key - 1) && !fits(key + 1)) {
      const int64_t to = fits(key) ? key : key - 1;
      if (to < 0) never_ = true;
      else hi_ = std::min(hi_, clamp(to));
    }
  }

  static bool holds(const Precheck& p, const Val& a, const Val& b) {
    if (p.set_mode) return (a.v == b.v) == (p.op == cql6::Cmp::kEq);
    if (p.op == cql6::Cmp::kNe) return !(a.has && b.has && a.v == b.v);  // CQL 6.2: not ==
    return a.has && b.has && cql6_eval::compare(a.v, p.op, b.v);
  }

  [[gnu::always_inline]] Val value(const Precheck& p, const Operand& o, const Val& known, uint32_t i) {
    switch (o.source) {
      case Source::kFixed: return known;
      case Source::kNode:
        return Val{true, p.set_mode ? 0 : int64_t(i)};
      case Source::kPiece: {
        const int s = known.has ? square_of(v_, i, known.v) : 64;
        const uint64_t bb = s < 64 ? uint64_t(1) << s : 0;
        if (p.what == Precheck::What::kCondition) return Val{bb != 0, 0};
        if (p.what == Precheck::What::kDash || p.set_mode) return Val{true, int64_t(bb)};
        return Val{true, bb ? 1 : 0};
      }
      case Source::kPure: {
        const size_t at = size_t(o.column) * plan_.size + i;
        if (plan_.known[at] < 0) {
          Ctx c;
          if (!ctx_at(c_, i, c)) return {};
          const Val x = eval(p, o, c);
          plan_.known[at] = x.has;
          plan_.values[at] = x.v;
        }
        return Val{plan_.known[at] == 1, plan_.values[at]};
      }
      case Source::kElement:
      case Source::kElementAt: {
        int s = int(i);
        if (o.source == Source::kElementAt) {
          if (!known.has) s = 64;
          else if (ids_) s = size_t(known.v) < v_.where.size() ? v_.where[size_t(known.v)][(*ids_)[i]]
                                                                 : square_of(v_, uint32_t(known.v), (*ids_)[i]);
        }
        const uint64_t bb = s < 64 ? uint64_t(1) << s : 0;
        if (p.what == Precheck::What::kCondition) return Val{bb != 0, 0};
        if (p.set_mode) return Val{true, int64_t(bb)};
        if (o.source == Source::kElementAt && !known.has) return {};
        return Val{true, bb ? 1 : 0};
      }
      case Source::kHere:
        if (loop_) return eval(p, o, c_);  // the loop has bound its variable
        if (!here_made_) {
          if (!here_) here_.emplace();
          if (!ctx_at(c_, i, *here_)) return {};
          here_made_ = true;
          if (echo_) {
            Value& s = var(echo_->kids[0]);
            s.bound = true;
            s.num = node_of(c_, &v_);
            Value& t = var(echo_->kids[1]);
            t.bound = true;
            t.num = i;
          }
        }
        return eval(p, o, *here_);
    }
    return {};
  }

  /// A piece variable's condition known from its timeline: it moves from the position (a
  /// dash from it), or its square set equals `squares` (set-mode `==`), or with `within` is
  /// one of them (`T & a1`).
  struct Jump {
    bool moves = false;
    int64_t id = 0;
    uint64_t squares = 0;
    bool within = false;
  };

  uint32_t next_ok(const Jump& jump, uint32_t i) {
    const std::vector<std::pair<uint32_t, uint8_t>>& line = timeline(v_, jump.id);
    if (jump.moves && v_.has_null) return i;  // a null move "moves" the king: not in the timeline
    auto it = std::upper_bound(line.begin(), line.end(), i,
                               [](uint32_t ply, const std::pair<uint32_t, uint8_t>& e) { return ply < e.first; });
    if (it == line.begin()) return i;
    --it;  // the segment holding i
    for (; it != line.end(); ++it) {
      if (jump.moves) {  // it leaves its square at the next change (moved, or captured: a superset)
        if (it->second == 64 || it + 1 == line.end()) return UINT32_MAX;
        return std::max(i, (it + 1)->first - 1);
      }
      const uint64_t bb = it->second < 64 ? uint64_t(1) << it->second : 0;
      if (jump.within ? (bb & jump.squares) != 0 : bb == jump.squares) return std::max(i, it->first);
    }
    return UINT32_MAX;
  }

  Plan& plan_;
  GameView& v_;
  const Ctx& c_;
  const Node* echo_;
  bool loop_ = false;
  const std::array<uint8_t, 64>* ids_ = nullptr;
  bool never_ = false;
  uint32_t lo_ = 0, hi_ = UINT32_MAX;  // nodes outside [lo_, hi_] fail an order precheck (`s < t`)
  std::optional<Ctx> here_;  // the context of the node being checked, made for kHere operands
  bool here_made_ = false;
  std::array<std::array<Val, 2>, 8> fixed_{};
  std::array<Jump, 8> jumps_{};
  size_t jump_count_ = 0;
  std::array<const std::vector<uint32_t>*, 4> conds_{};  // Plan::next_true of its conditions
  size_t cond_count_ = 0;
};

/// Runs loop `n` at `c`. Without `all`: the body runs for every element and the result is
/// the squares of the elements it matched for (CQL 6.2: the loop is a set filter). With
/// `all`: stops at the first element it fails for; `every` says whether none failed (an
/// empty set: true). The variable is unbound afterwards (CQL 6.2).
uint64_t run_loop(const Node& n, const Ctx& c, bool& every) {
  const Node& v = n.kids[0];
  const bool all = n.flags & cql6::kLoopAll;
  const uint64_t set = cql6_eval::squares(n.kids[1], c);
  every = true;
  std::array<uint8_t, 64> ids{};  // a copy: the body may extend the game's tables
  if (n.kind == Kind::kPieceLoop) {
    GameView* gv = view(c);
    const int64_t at = node_of(c, gv);
    const std::array<uint8_t, 64>* here = gv && at >= 0 ? ids_at(*gv, uint32_t(at)) : nullptr;
    if (!here) {
      every = !(set & c.pos->pieces());
      return 0;
    }
    ids = *here;
  }
  Bitboard todo = set;
  if (n.kind == Kind::kPieceLoop) todo &= c.pos->pieces();
  uint64_t hits = 0;
  // prechecks of the body (`P:x`, `x != P:x`): need the game's view
  GameView* gv = todo ? view(c) : nullptr;
  std::optional<Walk> walk;
  if (gv) walk.emplace(plan_of(n), *gv, c, nullptr, true, n.kind == Kind::kPieceLoop ? &ids : nullptr);
  const bool prechecks = walk && walk->active();
  const bool bind_first = prechecks && walk->reads_here();  // an operand reads the variable
  for (Bitboard s = todo; s;) {
    const int sq = chess::pop_lsb(s);
    bool hit = false;
    if (!prechecks || bind_first || walk->may_match(uint32_t(sq))) {
      Value& x = var(v);
      x.bound = true;
      if (n.kind == Kind::kPieceLoop) x.num = ids[size_t(sq)];
      else x.set = Bitboard(1) << sq;
      hit = (!bind_first || walk->may_match(uint32_t(sq))) && cql6_eval::match(n.kids[2], c);
    }
    if (hit) hits |= Bitboard(1) << sq;
    if (!hit) every = false;
    if (all && !hit) break;
  }
  var(v).bound = false;
  return hits;
}

bool loop(const Node& n, const Ctx& c) {
  bool every = true;
  const uint64_t hits = run_loop(n, c, every);
  return (n.flags & cql6::kLoopAll) ? every : hits != 0;
}

/// `piece x = S` / `◭x = S`: x becomes the piece on the one square of S (CQL 6.2: fails,
/// leaving x as it was, unless S is exactly one occupied square).
bool piece_assign(const Node& n, const Ctx& c) {
  const uint64_t s = cql6_eval::squares(n.kids[1], c);
  if (chess::popcount(s) != 1 || !(s & c.pos->pieces())) return false;
  GameView* gv = view(c);
  const int64_t at = node_of(c, gv);
  const std::array<uint8_t, 64>* here = gv && at >= 0 ? ids_at(*gv, uint32_t(at)) : nullptr;
  if (!here) return false;
  const uint8_t id = (*here)[size_t(chess::lsb(s))];
  if (!id) return false;
  Value& x = var(n.kids[0]);
  x.bound = true;
  x.num = id;
  return true;
}

/// The positions `find` counts from `c` (at most `stop` of them; CQL 6.2: the current
/// position included, forward to the end of the line or back to its start).
int64_t find_count(const Node& n, const Ctx& c, int64_t stop) {
  GameView* v = view(c);
  if (!v) return cql6_eval::match(n.kids[0], c) ? 1 : 0;
  const bool back = n.flags & cql6::kFindBackward;
  // the memo, when the body depends on its position alone (decided once per node)
  Plan& plan = plan_of(n);
  FindMemo* memo = nullptr;
  if (plan.body_pure) {
    memo = &plan.memo;
    if (memo->game != t_game || memo->at.size() != size_t(v->total) + 1) {
      memo->game = t_game;
      memo->at.assign(size_t(v->total) + 1, -1);
    }
  }
  int64_t found = 0;
  const int64_t start = node_of(c, v);
  if (start < 0) return 0;
  Walk walk(plan, *v, c, nullptr);
  const bool prechecks = !memo && walk.active();
  // forward: the node and its descendants (tree mode: the subtree, numbered node..last_desc);
  // back: the node and its ancestors
  const int64_t last = v->tree ? int64_t(v->last_desc[size_t(start)]) : int64_t(v->total);
  for (int64_t ply = start; back ? ply >= 0 : ply <= last;
       ply = back ? (v->tree ? (ply == 0 ? -1 : int64_t(v->parent[size_t(ply)])) : ply - 1) : ply + 1) {
    if (prechecks && !back) {  // the jumps of piece variables (a line)
      const uint32_t j = walk.skip_to(uint32_t(ply));
      if (j == UINT32_MAX || int64_t(j) > last) break;
      ply = j;
    }
    bool hit;
    if (memo && memo->at[size_t(ply)] >= 0) {
      hit = memo->at[size_t(ply)];
    } else if (prechecks && !walk.may_match(uint32_t(ply))) {
      hit = false;
    } else {
      Ctx at;
      if (!ctx_at(c, ply, at)) break;
      hit = cql6_eval::match(n.kids[0], at);
      if (memo) memo->at[size_t(ply)] = hit;
    }
    if (hit && ++found >= stop) break;
  }
  return found;
}

bool find(const Node& n, const Ctx& c, int64_t* count) {
  const bool all = n.flags & cql6::kFindAll, range = n.flags & cql6::kHasRange;
  const int64_t stop = all ? INT64_MAX : range ? (n.hi < 0 ? INT64_MAX : n.hi + 1) : 1;
  const int64_t k = find_count(n, c, stop);
  if (count) *count = k;
  if (range) return k >= n.lo && (n.hi < 0 || k <= n.hi);
  return k > 0;
}

/// `echo (s t) body`: the body at every other position t of the game, with s the current
/// position (CQL 6.2: the body is evaluated at t). Cost: (positions of the game) body
/// evaluations per position, so positions² per game.
bool echo(const Node& n, const Ctx& c, int64_t* value = nullptr) {
  GameView* v = view(c);
  if (!v) return false;
  const int64_t self = node_of(c, v);
  if (self < 0) return false;
  if (v->total == 0) return false;  // no other position: nothing is bound
  bool any = false;
  const bool numeric = value && n.kids[2].type == Type::kNumber;
  bool has_value = false;
  // the body requires `s & t == .` (n.flags & kEchoSameBoard, eval/compile_cql6.cpp): only
  // targets with the source's placement can match, found by a per-game placement hash
  const bool same_board = n.flags & cql6::kEchoSameBoard;
  const uint64_t here = same_board ? board_at(*v, uint32_t(self)) : 0;
  uint32_t chain = 0;  // same board: the next ply with the source's placement to visit
  if (same_board) {
    same_board_chains(*v);
    chain = v->same_first[size_t(self)];
  }
  {  // the prechecks' fixed operands (`source:...`) read s
    Value& s = var(n.kids[0]);
    s.bound = true;
    s.num = self;
  }
  Walk walk(plan_of(n), *v, c, &n);
  const bool prechecks = walk.active();
  const int64_t first = prechecks ? int64_t(walk.lo()) : 0;
  const int64_t last = prechecks ? std::min<int64_t>(walk.hi(), v->total) : v->total;
  bool skipped = first > 0 || last < int64_t(v->total);
  for (int64_t ply = first; ply <= last; ++ply) {
    if (same_board) {  // straight to the next ply with the source's placement
      while (chain != UINT32_MAX && int64_t(chain) < ply) chain = v->same_next[chain];
      if (chain == UINT32_MAX || int64_t(chain) > last) {
        skipped = true;
        break;
      }
      if (int64_t(chain) != ply) skipped = true;
      ply = chain;
    }
    if (prechecks) {  // the jumps of piece variables (a line)
      const uint32_t j = walk.skip_to(uint32_t(ply));
      if (int64_t(j) != ply) {
        skipped = true;
        if (j == UINT32_MAX || int64_t(j) > last) break;
        ply = j;
      }
    }
    if (ply == self) continue;
    if ((same_board && board_at(*v, uint32_t(ply)) != here) || (prechecks && !walk.may_match(uint32_t(ply)))) {
      skipped = true;
      continue;
    }
    Ctx at;
    if (!ctx_at(c, ply, at)) break;
    Value& s = var(n.kids[0]);
    s.bound = true;
    s.num = self;
    Value& t = var(n.kids[1]);
    t.bound = true;
    t.num = ply;
    if (numeric) {  // CQL 6.2: a numeric echo's value is the largest its body had
      int64_t x = 0;
      if (cql6_eval::number(n.kids[2], at, x)) {
        any = true;
        if (!has_value || x > *value) *value = x;
        has_value = true;
      }
    } else if (cql6_eval::match(n.kids[2], at)) {
      any = true;
    }
  }
  if (skipped) {  // the variables as the full walk leaves them: s here, t the last other position
    Value& s = var(n.kids[0]);
    s.bound = true;
    s.num = self;
    Value& t = var(n.kids[1]);
    t.bound = true;
    t.num = int64_t(v->total) == self ? int64_t(v->total) - 1 : int64_t(v->total);
  }
  return any;
}

bool script(const Node& n, const Ctx& c) {
  const bool saved_tree = t_tree;
  t_tree = n.flags & 1;  // the script searches variations: positions are the game tree's
  if (t_tree && !c.main_line && c.past == 0 && c.node < 0) {
    t_tree = saved_tree;
    return false;  // a variation's branch position: it is a position of its parent line
  }
  struct Restore {
    bool v;
    ~Restore() { t_tree = v; }
  } restore{saved_tree};
  thread_local std::unordered_map<int64_t, State> states;
  if (states.size() > 64 && !states.count(n.value)) states.clear();  // queries of a long-lived thread
  State* saved = t_state;
  const int64_t saved_id = t_script;
  t_origin = c.main_line ? int64_t(c.ply) : -1;
  t_state = &states[n.value];
  t_script = n.value;
  if (t_state->search != t_search) {  // a new search of the same compiled script: all unbound
    *t_state = State{};
    t_state->search = t_search;
  }
  bool all = true;
  for (const Node& k : n.kids)
    if (!cql6_eval::match(k, c)) {
      all = false;
      break;
    }
  t_state = saved;
  t_script = saved_id;
  return all;
}

}  // namespace

bool tree_of(const Ctx& c, TreeRef& out, int64_t& node) {
  if (!t_tree || !c.record || !c.record->has_variations()) return false;
  GameView* v = view(c);
  if (!v || !v->tree) return false;
  node = node_of(c, v);
  if (node < 0 || node > int64_t(v->total)) return false;
  out.children = &v->children;
  out.parent = &v->parent;
  out.last_desc = &v->last_desc;
  out.in_move = &v->in_move;
  out.secondary = &v->secondary;
  out.positions = &v->positions;
  return true;
}

bool tree_ctx(const Ctx& c, int64_t node, Ctx& out) { return ctx_at(c, node, out); }

bool previous_ctx(const Ctx& c, Ctx& out) {
  GameView* v = view(c);
  const int64_t at = node_of(c, v);
  if (!v || at <= 0) return false;
  return ctx_at(c, v->tree ? int64_t(v->parent[size_t(at)]) : at - 1, out);
}

bool reads_piece_variable(const Node& n) {
  if (n.kind == Kind::kVar && (n.flags & cql6::kVarPiece)) return true;
  for (const Node& k : n.kids)
    if (reads_piece_variable(k)) return true;
  return false;
}

void begin_search() { ++t_search; }

uint64_t search_serial() { return t_search; }

void begin_game() {
  ++t_game;
  t_output = GameOutput{};
}

const GameOutput& game_output() { return t_output; }

CommentMark comment_mark() {
  return CommentMark{t_output.comments.size(), t_output.variation_comments.size(), t_output.tree_comments.size()};
}

void comment_rewind(const CommentMark& m) {
  if (t_output.comments.size() > m.comments) t_output.comments.resize(m.comments);
  if (t_output.variation_comments.size() > m.variation_comments)
    t_output.variation_comments.resize(m.variation_comments);
  if (t_output.tree_comments.size() > m.tree_comments) t_output.tree_comments.resize(m.tree_comments);
}

void comments_since(const CommentMark& m, CommentSpan& out) {
  out.comments.assign(t_output.comments.begin() + std::ptrdiff_t(std::min(m.comments, t_output.comments.size())),
                      t_output.comments.end());
  out.variation_comments.assign(
      t_output.variation_comments.begin() +
          std::ptrdiff_t(std::min(m.variation_comments, t_output.variation_comments.size())),
      t_output.variation_comments.end());
  out.tree_comments.assign(
      t_output.tree_comments.begin() + std::ptrdiff_t(std::min(m.tree_comments, t_output.tree_comments.size())),
      t_output.tree_comments.end());
}

void add_comments(const CommentSpan& span) {
  t_output.comments.insert(t_output.comments.end(), span.comments.begin(), span.comments.end());
  t_output.variation_comments.insert(t_output.variation_comments.end(), span.variation_comments.begin(),
                                     span.variation_comments.end());
  t_output.tree_comments.insert(t_output.tree_comments.end(), span.tree_comments.begin(), span.tree_comments.end());
}

void begin_variation_line(uint32_t serial, const std::vector<uint32_t>& path, uint32_t first_ply) {
  t_line_serial = serial;
  t_line_path = path;
  t_line_first_ply = first_ply;
}

namespace {
/// The text of header `tag` (for kTag: the tag `name`, from the games table's columns or
/// GameText::tags); null when the game has none.
const std::string* tag_text(const headers::GameText& t, cql6::HeaderTag tag, const std::string& name = {}) {
  if (tag == cql6::HeaderTag::kTag) {
    static const std::array<std::pair<const char*, cql6::HeaderTag>, 6> kColumns = {{
        {"White", cql6::HeaderTag::kWhite}, {"Black", cql6::HeaderTag::kBlack}, {"Event", cql6::HeaderTag::kEvent},
        {"Site", cql6::HeaderTag::kSite}, {"Date", cql6::HeaderTag::kDate}, {"ECO", cql6::HeaderTag::kEco}}};
    for (const auto& [column, which] : kColumns)  // an empty text is no value (as CQL 6.2)
      if (name == column) {
        const std::string* s = tag_text(t, which);
        return s && !s->empty() ? s : nullptr;
      }
    if (name == "Round") return &t.round;
    for (const auto& [tag_name, value] : t.tags)
      if (tag_name == name) return &value;
    static const std::string kNoDate = "????.??.??";
    if (name == "EventDate") return &kNoDate;  // CQL 6.2 (Scid's game): an unknown date
    return nullptr;
  }
  switch (tag) {
    case cql6::HeaderTag::kWhite: return &t.white;
    case cql6::HeaderTag::kBlack: return &t.black;
    case cql6::HeaderTag::kEvent: return &t.event;
    case cql6::HeaderTag::kSite: return &t.site;
    case cql6::HeaderTag::kDate: return &t.date;
    case cql6::HeaderTag::kEco: return &t.eco;
    default: return nullptr;
  }
}
}  // namespace

bool year(const Ctx& c, int64_t& out) {
  if (!c.info || !c.info->text || c.info->text->year == 0) return false;
  out = c.info->text->year;
  return true;
}

bool header_text(const Node& n, const Ctx& c) {
  if (!c.info || !c.info->text) return false;
  const headers::GameText& t = *c.info->text;
  const auto tag = cql6::HeaderTag(n.sub);
  if (tag == cql6::HeaderTag::kPlayer)
    return t.white.find(n.text) != std::string::npos || t.black.find(n.text) != std::string::npos;
  const std::string* s = tag_text(t, tag);
  return s && s->find(n.text) != std::string::npos;
}

namespace {
/// The last common ancestor of nodes a and b (on a line: the earlier), -1 when unknown.
int64_t lca(const GameView* v, int64_t a, int64_t b) {
  if (!v || !v->tree) return std::min(a, b);
  if (a < 0 || b < 0 || a > int64_t(v->total) || b > int64_t(v->total)) return -1;
  while (a != b) {
    if (v->plies[size_t(a)] >= v->plies[size_t(b)] && a != 0) a = v->parent[size_t(a)];
    else b = v->parent[size_t(b)];
  }
  return a;
}
/// The plies from node a to node b through their last common ancestor.
int64_t distance(const GameView* v, int64_t a, int64_t b) {
  if (!v || !v->tree) return a > b ? a - b : b - a;
  const int64_t l = lca(v, a, b);
  if (l < 0) return -1;
  return int64_t(v->plies[size_t(a)]) + v->plies[size_t(b)] - 2 * int64_t(v->plies[size_t(l)]);
}
/// CQL 6.2's code of the move leading to node i: its destination, origin (a castling: the
/// king's) and moving piece.
int64_t move_code(const GameView* v, size_t i) {
  const Move m = v->in_move[i];
  const Position& before = v->positions[v->parent[i]];
  if (m == Move::null() || m == Move::none()) return 0;
  int from = m.from_sq(), to = m.to_sq();
  if (m.kind() == Move::CASTLING)
    to = Position::castling_king_to(chess::castling_right(before.side_to_move(), to > from));
  return (int64_t(to) * 100 + from) * 100 + int64_t(before.piece_on(chess::Square(from)));
}
/// consecutivemoves(a b): the longest run of equal moves (same piece, origin, destination)
/// common to the paths from the last common ancestor of a and b to each (0 when a and b are
/// the same, or one is an ancestor of the other).
int64_t consecutive_moves(const GameView* v, int64_t a, int64_t b) {
  if (!v || a == b) return 0;
  const int64_t l = lca(v, a, b);
  if (l < 0 || l == a || l == b) return 0;
  auto path = [&](int64_t x) {
    std::vector<int64_t> p;
    for (; x != l; x = v->tree ? int64_t(v->parent[size_t(x)]) : x - 1) p.push_back(v->tree ? move_code(v, size_t(x)) : 0);
    std::reverse(p.begin(), p.end());
    return p;
  };
  const std::vector<int64_t> pa = path(a), pb = path(b);
  int64_t best = 0;
  std::vector<int64_t> prev(pb.size() + 1, 0), cur(pb.size() + 1, 0);
  for (size_t i = 1; i <= pa.size(); ++i) {
    for (size_t j = 1; j <= pb.size(); ++j) {
      cur[j] = pa[i - 1] == pb[j - 1] ? prev[j - 1] + 1 : 0;
      best = std::max(best, cur[j]);
    }
    std::swap(prev, cur);
  }
  return best;
}
/// True if node a is node b or an ancestor of it.
bool is_ancestor(const GameView* v, int64_t a, int64_t b) {
  if (!v || !v->tree) return a <= b;
  if (a < 0 || b < 0 || a > int64_t(v->total) || b > int64_t(v->total)) return false;
  return a <= b && b <= int64_t(v->last_desc[size_t(a)]);
}
}  // namespace

bool position(const Node& n, const Ctx& c, int64_t& ply) {
  switch (n.kind) {
    case Kind::kVar: {
      const Value& x = var(n);
      if (!x.bound) return false;
      ply = x.num;
      return true;
    }
    case Kind::kCurrentPosition: {
      GameView* v = view(c);
      ply = v ? node_of(c, v) : c.ply;
      return ply >= 0;
    }
    case Kind::kParent: {
      GameView* v = view(c);
      const int64_t at = node_of(c, v);
      if (!v || at <= 0) return false;
      ply = v->tree ? int64_t(v->parent[size_t(at)]) : at - 1;
      return true;
    }
    case Kind::kChild: {
      GameView* v = view(c);
      const int64_t at = node_of(c, v);
      if (!v || at < 0) return false;
      if (v->tree) {
        const auto& kids = v->children[size_t(at)];
        if (n.value < 0 || size_t(n.value) >= kids.size()) return false;
        ply = kids[size_t(n.value)];
        return true;
      }
      if (n.value != 0 || c.moves_left == 0) return false;  // without variations: the next position only
      ply = at + 1;
      return true;
    }
    case Kind::kPositionAt: {
      int64_t id = 0;
      GameView* v = view(c);
      if (!v || !cql6_eval::number(n.kids[0], c, id) || id < 0 || id > int64_t(v->total)) return false;
      ply = id;
      return true;
    }
    case Kind::kLca: {
      int64_t a = 0, b = 0;
      if (!position(n.kids[0], c, a) || !position(n.kids[1], c, b)) return false;
      ply = lca(view(c), a, b);
      return ply >= 0;
    }
    case Kind::kAt: {
      int64_t where = 0;
      Ctx at;
      if (!position(n.kids[0], c, where) || !ctx_at(c, where, at)) return false;
      return position(n.kids[1], at, ply);
    }
    case Kind::kDictGet: {
      const Value* e = dict_entry(n, c);
      if (!e) return false;
      ply = e->num;
      return true;
    }
    case Kind::kIf:
      if (cql6_eval::match(n.kids[0], c)) return position(n.kids[1], c, ply);
      return n.kids.size() > 2 && position(n.kids[2], c, ply);
    case Kind::kCompound:
      for (size_t i = 0; i + 1 < n.kids.size(); ++i)
        if (!cql6_eval::match(n.kids[i], c)) return false;
      return !n.kids.empty() && position(n.kids.back(), c, ply);
    case Kind::kLine:  // `line lastposition`
      if (!cql6_eval::match(n, c)) return false;
      ply = cql6_eval::last_line_position();
      return true;
    default: return cql6_path::owns(n.kind) && cql6_path::position(n, c, ply);  // path (expath)
  }
}

bool string(const Node& n, const Ctx& c, std::string& out) {
  if (cql6_functions::handles(n.kind)) return cql6_functions::string(n, c, out);
  switch (n.kind) {
    case Kind::kString: out = n.text; return true;
    case Kind::kHeaderValue: {
      if (!c.info || !c.info->text) return false;
      if (cql6::HeaderTag(n.sub) == cql6::HeaderTag::kTag) {  // these come from the games row
        static const std::array<std::string, 4> kResults = {"*", "1-0", "0-1", "1/2-1/2"};
        if (n.text == "Result") {
          out = kResults[c.info->result & 3];
          return true;
        }
        if (n.text == "WhiteElo" || n.text == "BlackElo") {
          const uint16_t elo = n.text == "WhiteElo" ? c.info->white_elo : c.info->black_elo;
          if (!elo) return false;
          out = std::to_string(elo);
          return true;
        }
      }
      const std::string* s = tag_text(*c.info->text, cql6::HeaderTag(n.sub), n.text);
      if (!s) return false;
      out = *s;
      return true;
    }
    case Kind::kVar: {
      const Value& x = var(n);
      if (!x.bound) return false;
      out = x.str;
      return true;
    }
    case Kind::kConcat: {
      std::string a, b;
      if (!string(n.kids[0], c, a) || !string(n.kids[1], c, b)) return false;
      out = a + b;
      return true;
    }
    case Kind::kRegex: {
      std::string text, pattern;
      if (!string(n.kids[0], c, text) || !string(n.kids[1], c, pattern)) return false;
      const std::regex* re = regex_of(n.kids[1], pattern);
      std::smatch m;
      try {
        if (!re || !std::regex_search(text, m, *re)) return false;
      } catch (const std::regex_error&) {  // error_complexity / error_stack: no match
        return false;
      }
      out = m[0].str();
      State& s = state();
      s.groups.clear();
      for (size_t i = 0; i < m.size(); ++i) s.groups.push_back(m[i].str());
      return true;
    }
    case Kind::kMatchGroup: {
      const State& s = state();
      if (n.value < 0 || size_t(n.value) >= s.groups.size()) return false;
      out = s.groups[size_t(n.value)];
      return true;
    }
    case Kind::kStr: {
      const Node& a = n.kids[0];
      if (a.type == Type::kString) return string(a, c, out);
      if (a.type == Type::kSet) {
        out = set_string(cql6_eval::squares(a, c));
        return true;
      }
      int64_t v = 0;
      if (!cql6_eval::number(a, c, v)) return false;
      out = std::to_string(v);
      return true;
    }
    case Kind::kLowercase:
    case Kind::kUppercase:
      if (!string(n.kids[0], c, out)) return false;
      for (char& ch : out)
        ch = char(n.kind == Kind::kLowercase ? std::tolower(static_cast<unsigned char>(ch))
                                             : std::toupper(static_cast<unsigned char>(ch)));
      return true;
    case Kind::kIndex: {
      std::string s;
      int64_t i = 0;
      if (!string(n.kids[0], c, s) || !cql6_eval::number(n.kids[1], c, i)) return false;
      if (i < 0) i += int64_t(s.size());
      if (i < 0 || i >= int64_t(s.size())) return false;
      out = std::string(1, s[size_t(i)]);
      return true;
    }
    case Kind::kDictGet: {
      const Value* e = dict_entry(n, c);
      if (!e) return false;
      out = e->str;
      return true;
    }
    case Kind::kAt: {
      int64_t where = 0;
      Ctx at;
      if (!position(n.kids[0], c, where) || !ctx_at(c, where, at)) return false;
      return string(n.kids[1], at, out);
    }
    case Kind::kIf:
      if (cql6_eval::match(n.kids[0], c)) return string(n.kids[1], c, out);
      return n.kids.size() > 2 && string(n.kids[2], c, out);
    case Kind::kCompound:
      for (size_t i = 0; i + 1 < n.kids.size(); ++i)
        if (!cql6_eval::match(n.kids[i], c)) return false;
      return !n.kids.empty() && string(n.kids.back(), c, out);
    default: return false;
  }
}

uint64_t squares(const Node& n, const Ctx& c) {
  if (cql6_functions::handles(n.kind)) return cql6_functions::squares(n, c);
  switch (n.kind) {
    case Kind::kVar: {
      const Value& x = var(n);
      if (!x.bound) return 0;
      if (n.flags & cql6::kVarPiece) return piece_square(x, c);
      return x.set;
    }
    case Kind::kDictGet: {
      const Value* e = dict_entry(n, c);
      return e ? e->set : 0;
    }
    case Kind::kAt: {
      int64_t where = 0;
      Ctx at;
      if (!position(n.kids[0], c, where) || !ctx_at(c, where, at)) return 0;
      return cql6_eval::squares(n.kids[1], at);
    }
    case Kind::kSquareLoop:
    case Kind::kPieceLoop: {
      bool every = true;
      return run_loop(n, c, every);
    }
    case Kind::kPosIntersect: {
      int64_t a = 0, b = 0;
      Ctx ca, cb;
      if (!position(n.kids[0], c, a) || !position(n.kids[1], c, b) || !ctx_at(c, a, ca) || !ctx_at(c, b, cb)) return 0;
      // the squares where no piece kind differs (empty in both, or the same piece)
      Bitboard differ = 0;
      for (int color = 0; color < 2; ++color)
        for (int t = chess::PAWN; t <= chess::KING; ++t)
          differ |= ca.pos->pieces(chess::Color(color), chess::PieceType(t)) ^
                    cb.pos->pieces(chess::Color(color), chess::PieceType(t));
      return ~differ;
    }
    default: return 0;
  }
}

bool number(const Node& n, const Ctx& c, int64_t& out) {
  if (n.type == Type::kPosition) return position(n, c, out);
  if (cql6_functions::handles(n.kind)) return cql6_functions::number(n, c, out);
  if (n.type == Type::kSet) {
    out = chess::popcount(cql6_values::squares(n, c));
    return true;
  }
  switch (n.kind) {
    case Kind::kEcho: return echo(n, c, &out);
    case Kind::kPieceId: {
      const Bitboard b = cql6_eval::squares(n.kids[0], c);
      if (chess::popcount(b) != 1 || !(b & c.pos->pieces())) return false;
      GameView* v = view(c);
      const int64_t at = node_of(c, v);
      const std::array<uint8_t, 64>* known = v && at >= 0 ? ids_at(*v, uint32_t(at)) : nullptr;
      if (!known || !(*known)[size_t(chess::lsb(b))]) return false;
      out = (*known)[size_t(chess::lsb(b))];
      return true;
    }
    case Kind::kConsecutiveMoves: {
      int64_t a = 0, b = 0;
      if (!position(n.kids[0], c, a) || !position(n.kids[1], c, b)) return false;
      out = consecutive_moves(view(c), a, b);
      return out > 0 && out >= n.lo && (n.hi < 0 || out <= n.hi);
    }
    case Kind::kVar: {
      const Value& x = var(n);
      if (!x.bound) return false;
      out = x.num;
      return true;
    }
    case Kind::kDictGet: {
      const Value* e = dict_entry(n, c);
      if (!e) return false;
      out = e->num;
      return true;
    }
    case Kind::kFind: return find(n, c, &out);
    case Kind::kPositionId: {
      GameView* v = view(c);
      out = v ? node_of(c, v) : c.ply;
      return out >= 0;
    }
    case Kind::kDepth: {
      GameView* v = view(c);
      const int64_t at = node_of(c, v);
      if (v && v->tree && at >= 0) out = v->depth[size_t(at)];
      else out = c.main_line ? 0 : 1;
      return true;
    }
    case Kind::kSideToMove: out = c.pos->side_to_move() == chess::WHITE ? 1 : -1; return true;
    case Kind::kDistance: {
      int64_t a = 0, b = 0;
      if (!position(n.kids[0], c, a) || !position(n.kids[1], c, b)) return false;
      out = distance(view(c), a, b);
      return out >= 0;
    }
    case Kind::kAt: {
      int64_t where = 0;
      Ctx at;
      if (!position(n.kids[0], c, where) || !ctx_at(c, where, at)) return false;
      return cql6_eval::number(n.kids[1], at, out);
    }
    case Kind::kInt: {
      std::string s;
      if (!string(n.kids[0], c, s)) return false;
      const char* b = s.data();
      const char* e = s.data() + s.size();
      if (b != e && *b == '+') ++b;
      auto [p, ec] = std::from_chars(b, e, out);
      return ec == std::errc() && p == e && b != e;
    }
    case Kind::kSort: {
      const Node& a = n.kids[0];
      if (a.type == Type::kBool) {  // a line: the positions its match consumed
        if (!cql6_eval::match(a, c)) return false;
        out = cql6_eval::last_line_length();
      } else if (!cql6_eval::number(a, c, out)) {
        return false;
      }
      const bool min = n.flags & cql6::kSortMin;
      const size_t key = size_t(std::max<int64_t>(n.value, 0));
      if (t_output.sorts.size() <= key) t_output.sorts.resize(key + 1), t_output.sort_nodes.resize(key + 1);
      if (!t_output.sort_nodes[key]) t_output.sort_nodes[key] = &n;
      std::optional<int64_t>& best = t_output.sorts[key];
      if (!best || (min ? out < *best : out > *best)) best = out;
      if (key == 0) {
        t_output.sort = *best;
        t_output.has_sort = true;
      }
      return true;
    }
    default: return false;
  }
}

bool match(const Node& n, const Ctx& c) {
  if (cql6_functions::handles(n.kind)) return cql6_functions::match(n, c);
  switch (n.kind) {
    case Kind::kScript: return script(n, c);
    case Kind::kAssign: return assign(n, c);
    case Kind::kDictAssign: {
      std::string key;
      if (!key_of(n.kids[1], c, key)) return false;
      Value value;
      value.bound = true;
      const Node& rhs = n.kids[2];
      switch (rhs.type) {
        case Type::kSet: value.set = cql6_eval::squares(rhs, c); break;
        case Type::kPosition: if (!position(rhs, c, value.num)) return false; break;
        case Type::kString: if (!string(rhs, c, value.str)) return false; break;
        default: if (!cql6_eval::number(rhs, c, value.num)) return false; break;
      }
      dict(n.kids[0])[key] = std::move(value);
      return true;
    }
    case Kind::kUnbind: {
      const Node& t = n.kids[0];
      if (t.kind == Kind::kDictGet) {
        std::string key;
        if (key_of(t.kids[1], c, key)) dict(t.kids[0]).erase(key);
        return true;
      }
      if (t.flags & cql6::kVarDictionary) dict(t).clear();
      else var(t).bound = false;
      return true;
    }
    case Kind::kIsBound: {
      const Node& t = n.kids[0];
      if (t.kind == Kind::kDictGet) return cql6_values::match(t, c);
      if (t.flags & cql6::kVarDictionary) return !dict(t).empty();
      return var(t).bound;
    }
    case Kind::kSquareLoop:
    case Kind::kPieceLoop: return loop(n, c);
    case Kind::kPieceAssign: return piece_assign(n, c);
    case Kind::kLoopRepeat: {  // `loop f`: f until it fails; gives up like `while`
      bool seen = false;
      for (uint64_t i = 0; cql6_eval::match(n.kids[0], c); ++i) {
        if (i >= kMaxWhileIterations) return false;
        seen = true;
      }
      return seen;
    }
    case Kind::kWhile: {
      if (n.sub == 1) {  // every match of a literal pattern (CQL 6.2's string iterator)
        std::string text;
        const std::regex* re = regex_of(n.kids[0].kids[1], n.kids[0].kids[1].text);
        if (!re || !string(n.kids[0].kids[0], c, text)) return false;
        try {
          for (auto it = std::sregex_iterator(text.begin(), text.end(), *re); it != std::sregex_iterator(); ++it) {
            State& s = state();
            s.groups.clear();
            for (size_t i = 0; i < it->size(); ++i) s.groups.push_back((*it)[i].str());
            cql6_eval::match(n.kids[1], c);
          }
        } catch (const std::regex_error&) {  // error_complexity / error_stack: no more matches
        }
        return true;
      }
      for (uint64_t i = 0; cql6_eval::match(n.kids[0], c); ++i) {
        if (i >= kMaxWhileIterations) return false;
        cql6_eval::match(n.kids[1], c);
      }
      return true;
    }
    case Kind::kFind: return find(n, c, nullptr);
    case Kind::kEcho: return echo(n, c);
    case Kind::kTry: {  // CQL 6.2: 1 == find <-- all {btm secondary}
      GameView* v = view(c);
      int64_t at = node_of(c, v);
      if (!v || !v->tree || at < 0) return false;
      int found = 0;
      for (; at > 0; at = v->parent[size_t(at)])
        found += v->secondary[size_t(at)] && v->positions[size_t(at)].side_to_move() == chess::BLACK;
      return found == 1;
    }
    case Kind::kAncestor:
    case Kind::kDescendant: {
      int64_t a = 0, b = 0;
      if (!position(n.kids[0], c, a) || !position(n.kids[1], c, b)) return false;
      return n.kind == Kind::kAncestor ? is_ancestor(view(c), a, b) : is_ancestor(view(c), b, a);
    }
    case Kind::kStrIn: {
      std::string a, b;
      return string(n.kids[0], c, a) && string(n.kids[1], c, b) && b.find(a) != std::string::npos;
    }
    case Kind::kAt: {
      int64_t where = 0;
      Ctx at;
      if (!position(n.kids[0], c, where) || !ctx_at(c, where, at)) return false;
      return cql6_eval::match(n.kids[1], at);
    }
    case Kind::kComment: {
      if (n.sub == 1) return true;  // message: not written
      // inside a variation: only positions of the line being searched have a ply path
      // a node of the game tree reached by a path or line (from any line): its own ply path
      std::vector<uint32_t> tree_path;
      if (!c.main_line && c.node >= 0) {
        const GameView* v = view(c);
        if (!v || !v->tree || size_t(c.node) >= v->parent.size()) return true;
        tree_path = ply_path(*v, uint32_t(c.node));
        if (tree_path.empty()) return true;
      } else if (!c.main_line &&
                 (c.variation == 0 || c.variation != t_line_serial || c.ply < t_line_first_ply)) {
        return true;
      }
      std::string text;
      for (const Node& part : n.kids) {
        std::string s;
        if (part.type == Type::kString) string(part, c, s);
        else if (part.type == Type::kSet) s = set_string(cql6_eval::squares(part, c));
        else if (part.type == Type::kPosition || part.type == Type::kNumber) {
          int64_t v = 0;
          if (cql6_eval::number(part, c, v)) s = std::to_string(v);
        } else {
          s = cql6_eval::match(part, c) ? "true" : "false";
        }
        text += s;
      }
      for (char& ch : text)
        if (ch == '}') ch = ')';  // keeps the PGN comment closed where it should be
      if (c.main_line) {
        t_output.comments.emplace_back(c.ply, std::move(text));
      } else if (!tree_path.empty()) {
        if (t_origin >= 0) t_output.tree_comments.emplace_back(uint32_t(t_origin), std::move(tree_path), std::move(text));
      } else {
        std::vector<uint32_t> where = t_line_path;
        where.push_back(c.ply - t_line_first_ply);
        t_output.variation_comments.emplace_back(std::move(where), std::move(text));
      }
      return true;
    }
    case Kind::kSettag: {
      std::string name, value;
      if (!string(n.kids[0], c, name) || !string(n.kids[1], c, value)) return true;
      for (auto& [k, v] : t_output.tags)
        if (k == name) {
          v = value;
          return true;
        }
      t_output.tags.emplace_back(std::move(name), std::move(value));
      return true;
    }
    case Kind::kRemoveComment: return true;  // cqldb writes no comments of its own to remove
    default: break;
  }
  switch (n.type) {
    case Type::kSet: return cql6_values::squares(n, c) != 0;
    case Type::kString: {
      std::string s;
      return string(n, c, s);
    }
    case Type::kPosition: {
      int64_t p = 0;
      return position(n, c, p);
    }
    default: {
      int64_t v = 0;
      return cql6_values::number(n, c, v);
    }
  }
}

bool stateless(const Node& n) { return !has_side_effect(n) && !leaves_state(n); }

void conjuncts(const Node& body, std::vector<const Node*>& out) {
  if (body.kind == Kind::kCompound || body.kind == Kind::kAnd) {
    for (const Node& k : body.kids) conjuncts(k, out);
    return;
  }
  out.push_back(&body);
}

bool has_side_effect(const Node& n) {
  switch (n.kind) {
    case Kind::kAssign: case Kind::kDictAssign: case Kind::kUnbind: case Kind::kSquareLoop: case Kind::kPieceLoop:
    case Kind::kEcho: case Kind::kRegex: case Kind::kSort: case Kind::kComment: case Kind::kSettag:
    case Kind::kRemoveComment: case Kind::kPieceAssign:
      return true;
    case Kind::kPathFilter: if (cql6_path::has_state(n)) return true; break;  // nestban
    default: break;
  }
  for (const Node& k : n.kids)
    if (has_side_effect(k)) return true;
  return false;
}

void check_patterns(const Node& n) {
  if (n.kind == Kind::kRegex && n.kids[1].kind == Kind::kString) {
    if (const std::string why = regex_limit_error(n.kids[1].text); !why.empty())
      throw cql6::Error(n.kids[1].loc, "regular expression not accepted: " + why);
    try {
      std::regex re(n.kids[1].text, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw cql6::Error(n.kids[1].loc, "invalid regular expression \"" + n.kids[1].text + "\": " + e.what());
    }
  }
  for (const Node& k : n.kids) check_patterns(k);
}

}  // namespace eval::cql6_values
