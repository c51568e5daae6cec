// The executable form of position lists: designators and keywords compiled to typed nodes
// over bitboards (stage 4, eval::Program). Built once per query by compile.cpp; evaluated
// per position by node.cpp without allocation or string work.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "db/stored_move.h"
#include "headers/game_info.h"
#include "eval/pawn_structure.h"
#include "eval/piece_mask.h"
#include "eval/variant_index.h"

namespace analysis {
class AnalysisContext;  // analysis/session.h
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

/// An integer range with bounds resolved to inclusive values; bounds written `end` / `end-N`
/// are relative to the game's last main-line position and resolved per game.
struct IntRange {
  int64_t lo = INT64_MIN;  ///< inclusive lower bound (or N of end-N when lo_from_end)
  int64_t hi = INT64_MAX;  ///< inclusive upper bound (or N of end-N when hi_from_end)
  bool lo_from_end = false;
  bool hi_from_end = false;
  bool contains(int64_t v) const { return v >= lo && v <= hi; }
  /// Membership with `end` = `end_value`.
  bool contains(int64_t v, int64_t end_value) const {
    int64_t l = lo_from_end ? end_value - lo : lo;
    int64_t h = hi_from_end ? end_value - hi : hi;
    return v >= l && v <= h;
  }
  bool operator==(const IntRange&) const = default;
};

/// What a node tests. Keyword ops are named after the keyword (seed 004, CQL-Position-List).
enum class Op : uint8_t {
  kTrue, kFalse,
  kDesignator,       // d[0] matches somewhere
  kMate, kStalemate, kCheck, kDoubleCheck, kContactCheck,  // d[0] optional checker filter
  kWtm, kBtm, kInitial, kTerminal,
  kCastling,         // value = CastlingRight set given; exactly one of them held
  kEndgame, kFen, kGameIsOver, kMatingMaterial, kCannotWin,  // kCannotWin: value = Color
  kHalfmoveClock, kHalfmoveClockLimit, kFiftyMoveRule,
  kRepetition,       // value = occurrence count (3 or 5)
  kPieceCount, kPower, kPowerDifference, kPieceCountDifference, kAttackCount,
  kRay,              // d = steps, value = RayFilter index
  kInside,           // d[0] on d[0].squares restricted to the region
  kMoveFrom, kMoveTo, kPromote, kNoPromotion, kEnPassant,
  kIsCastling,       // value = CastlingRight set (ANY_CASTLING if none given)
  kMoveNumber, kHalfmoveNumber,
  kResult,           // value = bit set over db::ResultCode
  kElo, kWhiteElo, kBlackElo,  // range; Elo 0 = none
  kList,             // lists[0] matches (a nested position list, e.g. :not (position ...))
  kAnd, kOr, kXor,   // over lists
  kCond,             // lists: condition, expression, ..., [default]
  // pawn and piece structure (CQL-S, eval/pawn_structure.h, eval/piece_structure.h)
  kPawnCount,            // d[0] pawns, pawn = chain and ranges
  kPawnCountDifference,  // d[0] [, d[1]], pawn = chain, range = difference
  kGoodBishop,           // d[0] bishops, pawn->ranges = opponents : own
  kOpposition,           // d[0] kings (K and/or k)
  kPerpendicular,        // d[0], d[1] line pieces
  kUnstoppablePawns,     // d[0] pawns, pawn->ranges: none/one (sum) or two (white : black)
  kPassedPawnRace,       // d[0] P and/or p; none: the side to move
  // ---- game traversal (eval/lookahead.h, eval/start_position.h)
  kNextFact,         // value = next_fact bit the next move must produce
  kIsCheckCount,     // next move checks, and the mover's check count with it is in range
  kIsNull, kForced,  // the next move is a null move / the only legal move
  kCheckCount,       // ranges[0], ranges[1]: checks White / Black received so far;
                     // value = 1: only where that count was reached (start, or after a check)
  kNthCheck,         // the last move checked, and it was its side's n-th check, n in range
  kStartPosition,    // the start position's Shuffle Chess number is in some of `ranges`
  kVariant,          // value bits: 1 standard start rules (no variant tag), 2 chess960 tag
  kInsideVariation,  // the position belongs to a variation
  kSequence,         // :sequence / :gappedsequence: value = sequence id (eval/sequence.h),
                     // lists = its element lists (for the canonical form only),
                     // range.lo = range.hi = its SequenceSpec::Kind (for the planner)
  kControl,          // :cut / :exclude with an argument lists[0], value = control bits;
                     // true (the argument is evaluated on its own: Alternative::controls)
  kAccumulate,       // :accumulate / :accumulate*: value = counter index (eval/accumulator.h);
                     // true (the counting is done before the lists are evaluated)
  kSumRange,         // :sumrange: counter `value` is in range (eval/accumulator.h)
  kLineTable,        // a list decided over the line (nested counting keyword, :endmost,
                     // :following, :preceding; eval/match_count.h): value = sequence id,
                     // lists[0] = the list, range = the count range (canonical form only)
  kLine,             // :line / :line*: `line` (eval/line.h)
  kRelation,         // :relation: value = relation id (eval/relation.h)
  kTagMatch,         // :tagmatch: the piece of tag number `value` matches d[0]
  kEndgameEvaluation,  // Gaviota tablebases (eval/tablebase.h): value = outcome | star bit,
                       // range = plies to mate, ranges[0] = piece counts with tables
  kExchangeEvaluation,  // next move's static exchange value (eval/exchange.h) in range;
                        // value = max plies (0 = unlimited), d[0] = captured-piece filter
  kMaxSwapEvaluation,   // best exchange value of d[0]'s moves to d[1] (eval/exchange.h) in range
  kEvaluation,       // engine score in range (centipawns) or mate (eval/analysis.h);
                     // value = EngineQuery::pack()
  kMoveEvaluation,   // engine score change of the next move of d[0] to d[1] in range (same)
};

class PositionList;
struct LineSpec;  // compiled :line / :line* (eval/line.h)

/// One compiled keyword or designator.
struct Node {
  Op op = Op::kTrue;
  bool negate = false;              ///< result inverted
  int64_t value = 0;                ///< op-specific constant (see Op)
  IntRange range;                   ///< op-specific range
  std::vector<IntRange> ranges;     ///< op-specific further ranges (kCheckCount, kStartPosition)
  std::vector<Designator> d;        ///< op-specific designators
  std::vector<std::shared_ptr<const PositionList>> lists;  ///< sub-lists (logic ops)
  std::shared_ptr<const chess::Position> fen;  ///< kFen: the position to compare with
  std::shared_ptr<const PawnCountSpec> pawn;  ///< pawn-structure ops: chain and ranges
  std::shared_ptr<const LineSpec> line;       ///< kLine: the compiled move line

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

  /// True if the list matches the position `c`.
  bool match(const PosCtx& c) const;
};

}  // namespace eval
