// Evaluation of compiled CQL 6 filters (issue 36): the node Op::kCql6 (eval/node.h) holds a
// CQL 6 filter whose transforms are already expanded (eval/compile_cql6.cpp) and answers it
// at one position. Set filters are bitboards (bit s = square s, a1 = 0), numeric filters
// int64; nothing is allocated per position (the future positions of `line` and the earlier
// positions of `move previous` / `line <--` live in per-thread buffers).
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "cql6/ast.h"
#include "headers/game_info.h"

namespace db {
class RecordView;
}

namespace eval {

struct PosCtx;  // eval/node.h

namespace cql6_eval {

/// The position a CQL 6 filter is evaluated at, and its place in the line being searched.
struct Ctx {
  const chess::Position* pos = nullptr;
  chess::Move next = chess::Move::none();   ///< the move played from here (none at the end)
  uint32_t ply = 0;                         ///< plies from the game start
  const headers::GameInfo* info = nullptr;  ///< result and Elo (null when not needed)
  const chess::Move* moves = nullptr;       ///< the line's moves from here (moves[0] == next)
  uint32_t moves_left = 0;                  ///< how many of them
  uint32_t past = 0;                        ///< moves[-1] .. moves[-past] led here (main line)
  const chess::Position* start = nullptr;   ///< the game's start position (main line), or null
  bool main_line = true;                    ///< not inside a variation
  bool on_main_line = true;  ///< the position is a main-line one (also a variation's branch
                             ///< position on the main line): CQL 6 `mainline`, `variation`
  bool next_secondary = false;  ///< `next` is not the position's first continuation (a game-tree
                                ///< line following a variation; see also next_is_secondary())
  uint64_t game = 0;                        ///< PosCtx::game: the game's serial (0 = unknown)
  const db::RecordView* record = nullptr;   ///< PosCtx::record (the variation tree), or null
  const chess::Position* game_start = nullptr;  ///< the game's start position (also in variations)
  uint32_t variation = 0;                   ///< PosCtx::variation_serial (0: main line)
  int64_t node = -1;  ///< its index in the game tree (CQL 6.2 positionid) when known, else -1
};

/// True if `c.next` is a secondary move (not its position's first continuation): a
/// variation's first move at the position its line starts from, or next_secondary.
inline bool next_is_secondary(const Ctx& c) { return c.next_secondary || (c.node < 0 && !c.main_line && c.past == 0); }

/// The context of PosCtx `c` (eval/node.h).
Ctx from(const PosCtx& c);

/// True if filter `n` matches at `c` (a set: nonempty; a number: it has a value).
bool match(const cql6::Node& n, const Ctx& c);
/// The squares of the set filter `n` at `c` (empty when it does not match).
uint64_t squares(const cql6::Node& n, const Ctx& c);
/// The value of the numeric (or set: its size) filter `n` at `c`; false when it has none.
bool number(const cql6::Node& n, const Ctx& c, int64_t& out);
/// CQL 6 `movenumber` of the position `ply` plies after the game's first position (its
/// start or FEN), with White to move there or not: the move number counted from 1 at the
/// first position, whoever moves first (CQL 6.2 ignores a FEN's full-move number). White
/// first: plies 2m-2 and 2m-1 are move m; Black first: ply 0 is move 1, then plies 2m-3
/// and 2m-2 are move m.
constexpr int64_t move_number(int64_t ply, bool white_to_move) {
  const bool white_first = white_to_move == (ply % 2 == 0);
  return (white_first || !white_to_move ? ply : ply + 1) / 2 + 1;
}

/// The positions consumed by the match of the last `line` that matched on this thread (its
/// value for CQL 6 `sort`, issue 37: the first match the line's search finds, greedy).
int64_t last_line_length();
/// The position value (positionid) of the last position of the match of the last `line` that
/// matched on this thread (`line lastposition`).
int64_t last_line_position();
/// True if move `m` from `c` fits the dash `n` (its left and right sets and capture read at
/// `c`, its promotion), not looking at its target. `parts` (a path's focus): bit 0 the king
/// of a castling may fit, bit 1 its rook (3: both, and every other move).
bool dash_fits(const cql6::Node& n, const Ctx& c, chess::Move m, unsigned parts = 3);
/// While alive: `from` / `to` evaluated in the target of `dash` (played from `head`) see a
/// castling as the squares of the piece the dash's sets name (CQL 6.2's dash-owned from/to).
/// With a path's focus (`m` the castling played, `parts` as for dash_fits) only the focused
/// piece's squares of it count (CQL 6.2 narrows the dash's sets so).
class DashScope {
 public:
  DashScope(const cql6::Node& dash, const Ctx& head, chess::Move m = chess::Move::none(), unsigned parts = 3);
  ~DashScope();
  DashScope(const DashScope&) = delete;
  DashScope& operator=(const DashScope&) = delete;

 private:
  bool saved_;
  uint64_t from_, to_;
};

}  // namespace cql6_eval
}  // namespace eval
