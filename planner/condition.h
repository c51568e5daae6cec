// planner::Condition: a necessary condition on a game, tested on its signature
// (index/signature.h) and header values, derived from a compiled position list. Derived
// conditions may only be weaker than the query (a superset of its matches); full evaluation
// always decides.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "headers/game_info.h"
#include "eval/node.h"
#include "index/signature.h"

namespace planner {

/// What a condition tests. The payload type an op reads (Condition::payload) follows
/// "payload:"; ops without one carry cond::None.
enum class CondOp : uint8_t {
  kTrue,          ///< nothing known: keep the game
  kFalse,         ///< the list can never match
  kAnd,           ///< all kids hold
  kOr,            ///< some kid holds
  kEver,          ///< payload: PieceSquares; some of its kinds stood on one of its squares in
                  ///< some position
  kCountRun,      ///< payload: RunMaterial; some material run has count(pieces) in [lo, hi]
                  ///< (whole board)
  kCountAtLeast,  ///< payload: RunMaterial; some run has count(pieces) >= lo (a part of the board)
  kPowerRun,      ///< payload: RunMaterial; some run has power(pieces) in [lo, hi]
  kPowerAtLeast,  ///< payload: RunMaterial; some run has power(pieces) >= lo
  kDiffRun,       ///< payload: RunMaterial; some run has (white - black) count or power of
                  ///< `pieces` in [lo, hi]
  kFinalMate,     ///< the final position is mate (or a null move makes it unknowable)
  kFinalStalemate,///< the final position is stalemate (or null moves)
  kAnyCheck,      ///< some position has the side to move in check; with a Checks payload, at
                  ///< least Checks::at_least main-line positions do
  kDoubleCheck,   ///< some position has the side to move in double check (either colour:
                  ///< Signature::double_checks != 0; colour-blind, so :flipcolor needs nothing)
  kPromotion,     ///< payload: Promotion; a promotion to one of its kinds was played
  kEnPassant,     ///< an en-passant capture was played
  kHasVariations, ///< the record has variations (Signature::has_variations)
  kCastled,       ///< payload: Castling; a castling with one of its rights was played
  kCastledAt,     ///< payload: Castling; a castling with one of its rights was played from a
                  ///< position whose full-move number lies in `moves`: one variant's
                  ///< `:iscastling` and `:movenumber` at the same position
  kHasMove,       ///< the main line has at least one move
  kPlyWindow,     ///< payload: Window; some ply 0..N lies in the range
  kMoveWindow,    ///< payload: Window; some position's full-move number lies in the range
  kMaterial,      ///< payload: FenMaterial; some run has exactly its material key and every
                  ///< piece of its boards stands on squares it ever occupied (:fen)
  kSameRun,       ///< payload: SameRun; one material run satisfies every kid (kids: run
                  ///< tests only)
  kFinalEver,     ///< payload: PieceSquares; like kEver on the final position
  kFinalSide,     ///< payload: FinalSide; the side to move at the final position
  kHomePawns,     ///< payload: HomePawns; some ply has its present home pawns there and its
                  ///< gone ones gone, by Signature::home_pawn_until
  kResult,        ///< payload: Results; the GameInfo result is one of them
  kElo,           ///< payload: Elo; a GameInfo Elo in its range
};

/// The typed per-family payloads of a Condition (issue 15).
namespace cond {

/// The ops without data.
struct None {};
/// kEver, kFinalEver: some kind of `pieces` on a square of `squares`.
struct PieceSquares {
  cql::PieceMask pieces = 0;
  chess::Bitboard squares = ~chess::Bitboard(0);
  bool or_null_moves = false;  ///< kFinalEver: a game with null moves also holds
};
/// The run tests (kCountRun, kCountAtLeast, kPowerRun, kPowerAtLeast, kDiffRun): the count or
/// power of the kinds `pieces` in one material run, in [lo, hi] (the AtLeast ops: >= lo).
struct RunMaterial {
  cql::PieceMask pieces = 0;
  int64_t lo = 0, hi = 0;
  bool power = false;              ///< kDiffRun: power instead of count
  bool black_minus_white = false;  ///< kDiffRun: black - white (colours swapped)
};
/// kPlyWindow, kMoveWindow: the plies / full-move numbers (bounds may count from the end).
struct Window {
  eval::IntRange range;
};
/// kCastled, kCastledAt: chess::CastlingRight bits; kCastledAt: the full-move numbers.
struct Castling {
  uint8_t rights = 0;
  eval::IntRange moves;
};
/// kPromotion: the kinds promoted to.
struct Promotion {
  cql::PieceMask pieces = 0;
};
/// kMaterial: the material key (sig::MaterialKey::bits) and the squares of every piece
/// (16 boards, index chess::Piece) of a :fen position.
struct FenMaterial {
  uint64_t key = 0;
  std::vector<chess::Bitboard> boards;
  /// The :fen position itself, for the position index (planner/position_plan.h).
  std::shared_ptr<const chess::Position> position;
};
/// kHomePawns: home pawns present / gone at one ply (bit 8 * colour + file).
struct HomePawns {
  uint16_t present = 0, gone = 0;
};
/// kResult: bit set over db::ResultCode.
struct Results {
  uint8_t codes = 0;
};
/// kElo: the Elo range; which: 0 either player, 1 White, 2 Black.
struct Elo {
  eval::IntRange range;
  uint8_t which = 0;
};
/// kFinalSide: the side to move at the final position.
struct FinalSide {
  chess::Color side = chess::WHITE;
  bool or_null_moves = false;  ///< a game with null moves also holds
};
/// kAnyCheck with a count (Plan::make: `matchcount m` over positions in check): at least
/// `at_least` main-line positions have the side to move in check. Signature::checks counts
/// them per side, each saturating at sig::kMaxChecks (a saturated side may have any more).
struct Checks {
  int64_t at_least = 1;
};
/// kSameRun: which runs count.
struct SameRun {
  bool last_only = false;      ///< the last material run only (the final position)
  bool or_null_moves = false;  ///< a game with null moves also holds
};

}  // namespace cond

using CondPayload = std::variant<cond::None, cond::PieceSquares, cond::RunMaterial, cond::Window,
                                 cond::Castling, cond::Promotion, cond::FenMaterial,
                                 cond::HomePawns, cond::Results, cond::Elo, cond::FinalSide,
                                 cond::SameRun, cond::Checks>;

/// A node of a necessary condition.
struct Condition {
  CondOp op = CondOp::kTrue;
  CondPayload payload;                     ///< the op's data (see CondOp)
  std::vector<Condition> kids;             ///< kAnd / kOr / kSameRun

  /// The payload of type `T`; asserts (debug builds) that the op carries that type.
  template <class T>
  const T& as() const {
    const T* p = std::get_if<T>(&payload);
    assert(p && "Condition::as: payload of another type (see CondOp)");
    return *p;
  }
  template <class T>
  T& as() {
    T* p = std::get_if<T>(&payload);
    assert(p && "Condition::as: payload of another type (see CondOp)");
    return *p;
  }
  /// Sets the payload to `v` and returns it.
  template <class T>
  T& set(T v) {
    payload = std::move(v);
    return *std::get_if<T>(&payload);
  }

  /// Evaluates on a decoded signature (decoded at least to scope()) and header values.
  bool holds(const sig::Signature& s, const eval::GameInfo* info) const;
  /// The cheap first test on a signature's Summary (sig::read_summary: flags, promotion
  /// types, least material, plies) and header values: true whenever holds() is (it only
  /// replaces what the Summary lacks by "may hold"). Equal to holds() when scope() is
  /// kHeader, so such conditions never decode a signature.
  bool holds_summary(const sig::Summary& s, const eval::GameInfo* info) const;
  /// The signature sections holds() reads.
  sig::DecodeScope scope() const;
  /// kAnd (`all`: every kid) or kOr (some kid) of `test(kid)` over the kids, stopping at the
  /// first kid that decides: the one loop of holds() and holds_summary().
  template <class Test>
  bool kids_hold(bool all, const Test& test) const {
    for (const Condition& k : kids)
      if (test(k) != all) return !all;
    return all;
  }
  /// True if holds() reads GameInfo.
  bool needs_game_info() const;
  /// Readable form for --explain, e.g. "ever(R on a3) and final mate".
  std::string describe() const;
};

/// The necessary condition for `list` to match some main-line position (kTrue when nothing
/// can be derived: a negated list, or only keywords the signature says nothing about).
/// Lists with more than `max_variants` transformed variants are weakened (never made wrong).
Condition derive(const eval::PositionList& list, size_t max_variants = 64);

/// While alive, derive() knows the accumulating lists of the alternative being planned
/// (eval::Alternative::accumulating): a :sumrange whose range starts at 1 or more then
/// needs one of the lists that accumulate its counter to match (issue 21). Without a scope
/// :sumrange gives no condition. One per thread at a time (nesting restores the outer).
class AccumulatingScope {
 public:
  explicit AccumulatingScope(const std::vector<std::shared_ptr<const eval::PositionList>>& lists);
  ~AccumulatingScope();
  AccumulatingScope(const AccumulatingScope&) = delete;
  AccumulatingScope& operator=(const AccumulatingScope&) = delete;

 private:
  const std::vector<std::shared_ptr<const eval::PositionList>>* previous_;
};

/// Simplifies a condition: drops kTrue kids of kAnd, kFalse kids of kOr, folds constants.
Condition simplify(Condition c);

}  // namespace planner
