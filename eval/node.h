// The executable form of position lists: designators and keywords compiled to typed nodes
// over bitboards (stage 4, eval::Program). Built once per query by compile.cpp; evaluated
// per position by node.cpp without allocation or string work.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "cql/keywords.h"
#include "db/stored_move.h"
#include "eval/int_range.h"
#include "eval/node_payload.h"
#include "headers/game_info.h"
#include "eval/pawn_structure.h"
#include "eval/piece_mask.h"
#include "eval/board_memo.h"
#include "eval/variant_index.h"

namespace analysis {
class AnalysisContext;  // analysis/session.h
}

namespace db {
class RecordView;
}

namespace eval {

/// Header values of one game (headers/game_info.h).
using GameInfo = headers::GameInfo;

struct ControlFlags;  // eval/control.h
struct Accumulators;  // eval/accumulator.h


class RelationLine;  // eval/relation.h

/// The promoted-piece marks (PosCtx::promoted) after move `m`: a promoted piece keeps its
/// mark when it moves, a promotion adds one, a capture removes the captured piece's mark.
inline chess::Bitboard update_promoted(chess::Bitboard promoted, chess::Move m) {
  if (m == chess::Move::null() || m.kind() == chess::Move::CASTLING) return promoted;
  chess::Bitboard from = chess::square_bb(m.from_sq()), to = chess::square_bb(m.to_sq());
  bool was_promoted = promoted & from;
  promoted &= ~(from | to);
  if (was_promoted || m.kind() == chess::Move::PROMOTION) promoted |= to;
  return promoted;
}

/// The stored-move rule of every replay (db/stored_move.h).
using db::is_playable_stored;

/// Everything a node may ask about the position being evaluated. Filled by GameMatcher.
struct PosCtx {
  const chess::Position* pos = nullptr;  ///< the position
  chess::Bitboard promoted = 0;          ///< squares holding promoted pieces
  chess::Move next = chess::Move::none();  ///< the move played from here (none at the end)
  uint32_t ply = 0;            ///< plies from the game start (0 = start position)
  uint32_t last_ply = 0;       ///< ply of the last main-line position
  int last_movenumber = 1;     ///< FEN full-move number of the last main-line position
  uint32_t occurrences = 1;    ///< times this position occurred so far (repetition keywords)
  const GameInfo* info = nullptr;  ///< header values (null when the program needs none)
  uint8_t next_facts = 0;      ///< next_fact bits of the next move (eval/lookahead.h); 0 at
                               ///< the end or when the program needs no lookahead
  uint16_t checks_given[2] = {0, 0};  ///< checks each colour gave in the moves leading here
  int16_t start_position = 0;  ///< Shuffle Chess number of the game's start (start_position.h)
  bool chess960 = false;       ///< the game is stored as variant "chess960"
  /// Per sequence id (Program::sequences()), per ply: 1 where that sequence starts a match
  /// (eval/sequence.h). Null when the program has no sequences.
  const std::vector<std::vector<uint8_t>>* sequence_hits = nullptr;
  bool inside_variation = false;  ///< the position belongs to a variation (not the main line)
  /// The first position of a variation's line when the variation branches from the main
  /// line: a main-line position, collected with its variation (its next move is the
  /// variation's first). CQL 6 `mainline` / `variation` read it (VariationWalker).
  bool branch_of_main_line = false;
  uint32_t line_first_ply = 0;    ///< ply of the first position of the line being searched
                                  ///< (0 on the main line); sequence_hits index = ply - this
  /// :line (eval/line.h): the moves of the line being searched from this position on
  /// (line_moves[0] == next), `line_moves_left` of them; null unless Program::needs_line_moves().
  const chess::Move* line_moves = nullptr;
  uint32_t line_moves_left = 0;
  const chess::Position* start = nullptr;  ///< :line*: the game's start position (ply 0)
  /// The relations of the line being searched (eval/relation.h), asked with relation id and
  /// index ply - line_first_ply. Null when the program has no relations.
  RelationLine* relation = nullptr;
  /// Per tag number (Program::tags()): the square of the piece the tag is bound to in this
  /// position (one bit; 0 when that piece was captured). Set only for programs with tags.
  chess::Bitboard tag_squares[2] = {0, 0};
  /// The move leading here captured or promoted, or this is the game's start: the first
  /// position of the line with its material (material never comes back once changed).
  bool material_new = true;
  /// :cut / :exclude / :skip record what fired here (eval/control.h); null without them.
  ControlFlags* control = nullptr;
  /// :accumulate / :sumrange counters of this position (eval/accumulator.h); null without.
  Accumulators* accumulators = nullptr;
  /// The worker's engine and result cache for :evaluation / :moveevaluation
  /// (analysis/session.h); set by the replay stage (query/). Null: a per-thread default context is used.
  analysis::AnalysisContext* analysis = nullptr;
  /// Serial of the game being matched, unique per thread (GameMatcher::match); 0 when unknown.
  /// Per-thread caches of one game (the CQL 6 history of `move previous`) are keyed by it.
  uint64_t game = 0;
  /// The game's record while it is matched (CQL 6 navigation over the variation tree, issue
  /// 37: eval/cql6_values.cpp); null when unknown.
  const db::RecordView* record = nullptr;
  /// Inside a variation: its number in record order (1 = the first `(` of the record), as
  /// VariationWalker reports it; 0 on the main line.
  uint32_t variation_serial = 0;
};

/// A compiled piece designator: piece kinds on squares, with promotion restrictions.
/// `squares` is already transformed; an empty set never matches (SPEC Transformations).
struct Designator {
  PieceMask pieces = 0;        ///< kinds (cql/pieces.h layout)
  PieceMask promoted = 0;      ///< kinds that must be promoted pieces (`~`)
  PieceMask not_promoted = 0;  ///< kinds that must not be promoted pieces (`~~`)
  chess::Bitboard squares = ~chess::Bitboard(0);  ///< where (bit s = square s)
  int8_t tag = -1;  ///< >= 0: only the piece bound to tag number `tag` (`$name`, CQL-Tagging);
                    ///< `pieces` is then every piece kind

  /// The squares of `c.pos` whose content matches (subset of `squares`).
  chess::Bitboard matches(const PosCtx& c) const;
  bool operator==(const Designator&) const = default;
};

/// What a node tests. Keyword ops are named after the keyword (seed 004, CQL-Position-List).
/// The payload type an op reads (Node::payload, eval/node_payload.h) is named after
/// "payload:"; ops without one carry payload::None.
enum class Op : uint8_t {
  kTrue, kFalse,
  kDesignator,       // d[0] matches somewhere
  kMate, kStalemate, kCheck, kDoubleCheck, kContactCheck,  // d[0] optional checker filter
  kWtm, kBtm, kInitial, kTerminal,
  kCastling,         // payload: Castling (rights given); exactly one of them held
  kEndgame,
  kFen,              // payload: FenPosition
  kGameIsOver, kMatingMaterial,
  kCannotWin,        // payload: Side
  kHalfmoveClock,
  kHalfmoveClockLimit,  // payload: ClockLimit
  kFiftyMoveRule,
  kRepetition,       // payload: Occurrences (3 or 5)
  kPieceCount, kPower,
  kPowerDifference, kPieceCountDifference,  // payload: ColorsSwapped (one designator)
  kAttackCount,
  kRay,              // d = steps, payload: RayKind
  kInside,           // d[0] on d[0].squares restricted to the region
  kMoveFrom, kMoveTo, kPromote, kNoPromotion, kEnPassant,
  kIsCastling,       // payload: Castling (ANY_CASTLING if none given)
  kMoveNumber, kHalfmoveNumber,
  kResult,           // payload: ResultSet
  kElo, kWhiteElo, kBlackElo,  // range; Elo 0 = none
  kList,             // lists[0] matches (a nested position list, e.g. :not (position ...))
  kAnd, kOr, kXor,   // over lists
  kCond,             // lists: condition, expression, ..., [default]
  // pawn and piece structure (CQL-S, eval/pawn_structure.h, eval/piece_structure.h)
  kPawnCount,            // d[0] pawns, payload: PawnSpec (chain and ranges)
  kPawnCountDifference,  // d[0] [, d[1]], payload: PawnSpec (chain), range = difference
  kGoodBishop,           // d[0] bishops, payload: PawnSpec (ranges = opponents : own)
  kOpposition,           // d[0] kings (K and/or k)
  kPerpendicular,        // d[0], d[1] line pieces
  kUnstoppablePawns,     // d[0] pawns, payload: PawnSpec (ranges: none/one (sum) or two
                         // (white : black))
  kPassedPawnRace,       // d[0] P and/or p; none: the side to move
  // ---- game traversal (eval/lookahead.h, eval/start_position.h)
  kNextFact,         // payload: NextFacts (the next move must produce one of them)
  kIsCheckCount,     // next move checks, and the mover's check count with it is in range
  kIsNull, kForced,  // the next move is a null move / the only legal move
  kCheckCount,       // payload: CheckCounts (checks White / Black received so far)
  kNthCheck,         // the last move checked, and it was its side's n-th check, n in range
  kStartPosition,    // payload: StartNumbers (the start's Shuffle Chess number is in one)
  kVariant,          // payload: VariantRules
  kInsideVariation,  // the position belongs to a variation
  kSequence,         // :sequence / :gappedsequence: payload: SequenceId (eval/sequence.h),
                     // lists = its element lists (for the canonical form only),
                     // range.lo = range.hi = its SequenceSpec::Kind (for the planner)
  kControl,          // :cut / :exclude with an argument lists[0], payload: ControlBits;
                     // true (the argument is evaluated on its own: Alternative::controls)
  kAccumulate,       // :accumulate / :accumulate*: payload: Counter (eval/accumulator.h);
                     // true (the counting is done before the lists are evaluated)
  kSumRange,         // :sumrange: payload: Counter, whose value is in range
  kLineTable,        // a list decided over the line (nested counting keyword, :endmost,
                     // :following, :preceding; eval/match_count.h): payload: SequenceId,
                     // lists[0] = the list, range = the count range (canonical form only)
  kLine,             // :line / :line*: payload: Line (eval/line.h)
  kRelation,         // :relation: payload: RelationId (eval/relation.h)
  kTagMatch,         // :tagmatch: payload: TagNumber; the tagged piece matches d[0]
  kEndgameEvaluation,  // Gaviota tablebases (analysis/tablebase.h): payload: TablebaseProbe,
                       // range = plies to mate
  kExchangeEvaluation,  // next move's static exchange value (eval/exchange.h) in range;
                        // payload: ExchangeDepth, d[0] = captured-piece filter
  kMaxSwapEvaluation,   // best exchange value of d[0]'s moves to d[1] (eval/exchange.h) in range
  kEvaluation,       // engine score in range (centipawns) or mate (eval/analysis_keywords.h);
                     // payload: EngineQueryBits
  kMoveEvaluation,   // engine score change of the next move of d[0] to d[1] in range (same)
  kCql6,             // a CQL 6 filter without a CQL-S counterpart (issue 36): payload: Cql6,
                     // evaluated by eval/cql6_eval.h; the planner treats it as "may hold"
};

/// How much a node costs to evaluate, for order_by_cost (SPEC-NOTES "Evaluation speed"): the
/// keyword table's `cost` column (cql/keywords.h), copied by the compiler.
using Cost = cql::Cost;

class PositionList;
struct LineSpec;  // compiled :line / :line* (eval/line.h)

/// One compiled keyword or designator.
struct Node {
  Op op = Op::kTrue;
  bool negate = false;              ///< result inverted
  Cost cost = Cost::kCheap;         ///< evaluation cost class (order_by_cost)
  IntRange range;                   ///< the range the op's value must lie in (see Op)
  std::vector<Designator> d;        ///< the designator arguments, in keyword order
  std::vector<std::shared_ptr<const PositionList>> lists;  ///< sub-lists (logic ops)
  NodePayload payload;              ///< the op's constant data (see Op, eval/node_payload.h)

  /// The payload of type `T`; asserts (debug builds) that the op carries that type.
  template <class T>
  const T& as() const {
    const T* p = std::get_if<T>(&payload);
    assert(p && "Node::as: payload of another type (see Op)");
    return *p;
  }
  /// Sets the payload to `v` and returns it.
  template <class T>
  T& set(T v) {
    payload = std::move(v);
    return *std::get_if<T>(&payload);
  }

  /// Evaluates the node in the position `c`.
  bool match(const PosCtx& c) const;
};

/// Orders a conjunction for evaluation, cheapest test first (e.g. `:btm`, `:movenumber`
/// before pawn structure or exchange evaluation), keeping the written order within a cost
/// class. Done only when every node is free of side effects (no sub-lists, controls,
/// accumulation, lines, relations or engine/tablebase probes): then the conjunction's value
/// does not depend on the order, only the work skipped after the first false node does.
void order_by_cost(std::vector<Node>& nodes);

/// A compiled position list: one conjunction of nodes per distinct transformation of the
/// list. It matches when some variant's nodes all match; `negated` (bare `:not`) inverts that.
class PositionList {
 public:
  std::vector<std::vector<Node>> variants;  ///< one conjunction per transformation
  bool negated = false;                     ///< the list contained a bare `:not`
  uint8_t control = 0;  ///< bits of a bare :cut / :exclude / :skip (eval/control.h): fire
                        ///< when the list matches
  VariantIndex index;                       ///< built by compile() once variants are final
  BoardMemo memo;  ///< built with the index: answers a position whose inputs equal the last one's

  /// True if the list matches the position `c` (fires its bare control keywords).
  bool match(const PosCtx& c) const;

 private:
  /// True if some variant's nodes all match at `c` (`negated` not applied).
  bool any_variant(const PosCtx& c) const;
  /// The memo's counting pass (eval/accumulator.cpp) of this list at the position of `c`
  /// (whose memo key with counters is `key`), when the thread's last one was at a position
  /// with the same inputs and `c` is not counting; else null.
  const MemoSlot* counted_here(const PosCtx& c, const MemoKey& key) const;
};

}  // namespace eval
