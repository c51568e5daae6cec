// What the search of a CQL 6.2 `path` (eval/cql6_path.cpp) may leave out without changing an
// answer (SPEC-NOTES "Published examples: path and dashes", Saving work): facts about a path
// node worked out once per game (which dash every way starts with, which sets have no side
// effect) and the move-level tests a dash's fit needs before its sets are evaluated
// (promote / capture flags, the squares a move leaves and reaches). Squares are 0..63 from a1.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "cql6/ast.h"

namespace eval::cql6_path_facts {

using chess::Bitboard;
using chess::Move;
using chess::Position;
using cql6::Kind;
using cql6::Node;

/// What the search of a path node may skip, worked out once per node and game (the node of a
/// later query may reuse a freed node's address, never within a game: PosCtx::game grows per
/// thread).
struct Facts {
  const Node* path = nullptr;
  uint64_t game = 0;
  bool starts_dash = false;         // every way starts with a move dash (after pure holders)
  const Node* first = nullptr;      // ... and always with this one (null: not known)
  bool focus_pure = false;          // the focus has no side effect
  bool first_pure = false;          // ... nor first's sets (and promotion text)
  bool first_early = false;         // ... and they read no path state (`pathcount`, `pathstart`...:
                                    // their values differ before the search is set up)
  std::vector<const Node*> pure;    // dashes with promote / capture whose sets have no side effect
  // how often testing first's sets before the search refused a start (kept across games: when
  // it seldom does, the test is only a second evaluation of the sets and is given up)
  mutable uint64_t set_tries = 0, set_refusals = 0;
};

/// The facts of path `n` (cql6::Kind::kPathFilter) for game serial `game` (Ctx::game; 0:
/// unknown, worked out again at each call). The reference stays valid until the next call on
/// this thread.
const Facts& facts_of(const Node& n, uint64_t game);

/// True if every way through the path constituent `con` starts with a move dash.
bool starts_with_dash(const Node& con);
/// The dash every way through constituent `con` starts with, or null.
const Node* first_dash(const Node& con);
/// True if evaluating `n` cannot change anything another evaluation sees (no assignment,
/// loop, `~~`, sort, comment, nor a path: a path sets the status `pathcount` reads after it).
bool pure(const Node& n);
/// True if `n` reads the state of a path search (`pathcount`, `pathstart`, `pathlastposition`,
/// `pathmax`): inside a search it is that search's, before it another's.
bool reads_path_state(const Node& n);

/// True unless the move `m` surely does not fit the dash `d` for its promote / capture flags
/// alone (as dash_fits() decides them; only asked for dashes whose sets are pure). `pos()`
/// gives the position the move is played from (asked only for a capture).
template <class Pos>
bool flags_may_fit(const Node& d, Move m, Pos&& pos) {
  if (m == Move::none()) return false;
  if (m == Move::null()) return !(d.flags & (cql6::kDashCapture | cql6::kDashPromote));
  if (d.flags & cql6::kDashPromote) {
    if (m.kind() != Move::PROMOTION) return false;
    const int t = m.promotion_type() - 1;
    if (!(d.flags & cql6::kDashPromoteText) && !(d.kinds & ((1u << t) | (1u << (6 + t))))) return false;
  }
  if (d.flags & cql6::kDashCapture) {
    if (m.kind() == Move::CASTLING) return false;
    if (m.kind() != Move::EN_PASSANT && pos().piece_on(m.to_sq()) == chess::NO_PIECE) return false;
  }
  return true;
}
/// flags_may_fit() with the position at hand.
bool flags_may_fit(const Node& d, const Position& pos, Move m);

/// True if the dash `d` has no sets, no target and no flags: every move fits it, a null move
/// when the side making it has a king (dash_fits(): from the king's square to itself).
bool bare(const Node& d);
/// True if move `m` from `pos` is a null move a bare dash does not take (no king to move).
bool null_unfit(const Position& pos, Move m);

/// The square (0..63) of the piece `m` captures on `pos`, or 64 (none for a null move, a
/// castling or Move::none()). Also the evaluator's (eval/cql6_eval.cpp: dashes, `move capture`).
int captured_square(const Position& pos, Move m);
/// The squares a piece moving by `m` from `pos` leaves (a castling: the king's and the
/// rook's; a null move: the mover's king, as dash_fits() reads it).
Bitboard origins(const Position& pos, Move m);
/// The squares a dash's right set must hold for move `m` from `pos` to fit it (`capture`: a
/// capture dash, the captured piece's square; a castling: the king's and the rook's
/// destinations; a null move: the mover's king, as dash_fits() reads it).
Bitboard destinations(const Position& pos, Move m, bool capture);

}  // namespace eval::cql6_path_facts
