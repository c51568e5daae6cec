// planner::Condition: a necessary condition on a game, tested on its signature
// (index/signature.h) and header values, derived from a compiled position list. Derived
// conditions may only be weaker than the query (a superset of its matches); full evaluation
// always decides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/types.h"
#include "headers/game_info.h"
#include "eval/node.h"
#include "index/signature.h"

namespace planner {

/// What a condition tests.
enum class CondOp : uint8_t {
  kTrue,          ///< nothing known: keep the game
  kFalse,         ///< the list can never match
  kAnd,           ///< all kids hold
  kOr,            ///< some kid holds
  kEver,          ///< some kind of `pieces` stood on a square of `squares` in some position
  kCountRun,      ///< some material run has count(pieces) in [lo, hi] (whole board)
  kCountAtLeast,  ///< some material run has count(pieces) >= lo (a part of the board)
  kPowerRun,      ///< some material run has power(pieces) in [lo, hi]
  kPowerAtLeast,  ///< some material run has power(pieces) >= lo
  kDiffRun,       ///< some run has (white - black) count or power of `pieces` in [lo, hi]
  kFinalMate,     ///< the final position is mate (or a null move makes it unknowable)
  kFinalStalemate,///< the final position is stalemate (or null moves)
  kAnyCheck,      ///< some position has the side to move in check
  kDoubleCheck,   ///< some position has the side to move in double check (either colour:
                  ///< Signature::double_checks != 0; colour-blind, so :flipcolor needs nothing)
  kPromotion,     ///< a promotion to one of the kinds in `pieces` was played
  kEnPassant,     ///< an en-passant capture was played
  kHasVariations, ///< the record has variations (Signature::has_variations)
  kCastled,       ///< a castling with one of the rights in `lo` was played
  kCastledAt,     ///< a castling with one of the rights in `value` was played from a position
                  ///< whose full-move number lies in the range (lo, hi, *_from_end): one
                  ///< variant's `:iscastling` and `:movenumber` at the same position
  kHasMove,       ///< the main line has at least one move
  kPlyWindow,     ///< some ply 0..N lies in the range (lo, hi, *_from_end)
  kMoveWindow,    ///< some position's full-move number lies in the range
  kMaterial,      ///< some run has exactly the material key `lo` and every piece of `boards`
                  ///< stands on squares it ever occupied (:fen)
  kSameRun,       ///< one material run satisfies every kid (kids: run tests only); value
                  ///< bit 1: the last run only, bit 0: or the game has null moves
  kFinalEver,     ///< like kEver on the final position (value bit 0: or null moves)
  kFinalSide,     ///< the side to move at the final position is `lo` (value bit 0: or null
                  ///< moves)
  kHomePawns,     ///< some ply has the home pawns of mask `lo` present and those of `hi`
                  ///< gone (bit 8 * colour + file), by Signature::home_pawn_until
  kResult,        ///< GameInfo result bit in `lo`
  kElo,           ///< GameInfo Elo (`lo`.. `hi`; which: value 0 either, 1 white, 2 black)
};

/// A node of a necessary condition.
struct Condition {
  CondOp op = CondOp::kTrue;
  cql::PieceMask pieces = 0;               ///< kinds tested (kEver, counts, promotions)
  chess::Bitboard squares = ~chess::Bitboard(0);  ///< kEver squares
  int64_t lo = 0, hi = 0;                  ///< op-specific bounds / values
  bool lo_from_end = false, hi_from_end = false;  ///< kPlyWindow / kMoveWindow `end-N`
  int value = 0;                           ///< op-specific (kDiffRun: 0 count, 1 power; +2 = negate)
  std::vector<chess::Bitboard> boards;     ///< kMaterial: squares per chess::Piece (16)
  std::vector<Condition> kids;             ///< kAnd / kOr

  /// Evaluates on a decoded signature (decoded at least to scope()) and header values.
  bool holds(const sig::Signature& s, const eval::GameInfo* info) const;
  /// The cheap first test on a signature's Summary (sig::read_summary: flags, promotion
  /// types, least material, plies) and header values: true whenever holds() is (it only
  /// replaces what the Summary lacks by "may hold"). Equal to holds() when scope() is
  /// kHeader, so such conditions never decode a signature.
  bool holds_summary(const sig::Summary& s, const eval::GameInfo* info) const;
  /// The signature sections holds() reads.
  sig::DecodeScope scope() const;
  /// True if holds() reads GameInfo.
  bool needs_game_info() const;
  /// Readable form for --explain, e.g. "ever(R on a3) and final mate".
  std::string describe() const;
};

/// The necessary condition for `list` to match some main-line position (kTrue when nothing
/// can be derived: a negated list, or only keywords the signature says nothing about).
/// Lists with more than `max_variants` transformed variants are weakened (never made wrong).
Condition derive(const eval::PositionList& list, size_t max_variants = 64);

/// Simplifies a condition: drops kTrue kids of kAnd, kFalse kids of kOr, folds constants.
Condition simplify(Condition c);

}  // namespace planner
