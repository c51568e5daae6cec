// The keyword table of CQL 1.0 + CQL-S: every keyword of the seeds (000-004) and of
// reference/scidb-help-en, with the lists that accept it, its argument signature, whether
// `!:kw` is allowed, and a one-line description. The parser is driven by this table and
// later stages use it for help output.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "cql/pieces.h"

namespace cql {

/// The kinds of list: `(match ...)`, `(position ...)`, relation specifiers.
enum class ListKind : uint8_t { Match, Position, Relation };

/// Bit set over ListKind.
enum ListMask : uint8_t {
  kInMatch = 1,
  kInPosition = 2,
  kInRelation = 4,
};

constexpr uint8_t list_bit(ListKind k) {
  return uint8_t(1u << static_cast<unsigned>(k));
}

/// One enumerator per keyword. The table order in keywords.cpp follows this order.
enum class Keyword : uint16_t {
  // Logical (match and position lists)
  And,
  Cond,
  Not,
  Or,
  Xor,
  // Simple position keywords
  BlackCannotWin,
  Btm,
  Castling,
  Check,
  ContactCheck,
  DoubleCheck,
  Endgame,
  Fen,
  FivefoldRepetition,
  GameIsOver,
  HalfmoveClock,
  Initial,
  InsideVariation,
  IsPromotedPiece,
  KingOnTheHill,
  Losing,
  Mate,
  MatingMaterial,
  MustCapture,
  NoCheck,
  Stalemate,
  Terminal,
  ThreeChecks,
  ThreefoldRepetition,
  Variations,
  VariationsOnly,
  WhiteCannotWin,
  Wtm,
  // Transformations
  Flip,
  FlipColor,
  FlipDiagonal,
  FlipDihedral,
  FlipHorizontal,
  FlipVertical,
  Inside,
  Shift,
  ShiftDiagonal,
  ShiftHorizontal,
  ShiftMainDiagonal,
  ShiftOffDiagonal,
  ShiftVertical,
  // Piece configuration
  AttackCount,
  GoodBishop,
  Opposition,
  PawnCount,
  PawnCountDifference,
  Perpendicular,
  PieceCount,
  PieceCountDifference,
  Power,
  PowerDifference,
  Ray,
  RayAttack,
  RayDiagonal,
  RayHorizontal,
  RayOrthogonal,
  RayVertical,
  // Moves
  CaptureForced,
  EnPassant,
  Forced,
  HalfmoveNumber,
  IsCastling,
  IsCheck,
  IsContactCheck,
  IsDoubleCheck,
  IsIllegal,
  IsInvalid,
  IsMate,
  IsNull,
  IsStalemate,
  MoveFrom,
  MoveNumber,
  MoveTo,
  NoEnPassant,
  Promote,
  TakesLastPiece,
  // Sequences
  GappedSequence,
  Line,
  LineStar,
  Match,
  MatchConsecutive,
  Sequence,
  // Game information usable in position lists (and match lists)
  BlackElo,
  Elo,
  IsChess960,
  IsShuffleChess,
  Result,
  StartPosition,
  Variant,
  WhiteElo,
  // Relation
  Relation,
  // Counting
  CheckCount,
  MatchCount,
  PretransformMatchCount,
  PretransformRepetitionCount,
  RepetitionCount,
  // Analysis
  EndgameEvaluation,
  EndgameEvaluationStar,
  Evaluation,
  ExchangeEvaluation,
  MaxSwapEvaluation,
  MoveEvaluation,
  PassedPawnRace,
  UnstoppablePawns,
  // Accumulators
  Accumulate,
  AccumulateStar,
  Reset,
  SumRange,
  // Tagging
  TagMatch,
  ForAny,
  // Control
  Cut,
  Exclude,
  Skip,
  // Meaningless (CQL 1.0 compatibility)
  MarkAll,
  NoAnnotate,
  // Older Scidb position-list keywords (seed 001) and see-also spellings
  BlackRating,
  EndMost,
  FiftyMoveRule,
  Final,
  Following,
  HalfmoveClockLimit,
  NoCastling,
  NoContactCheck,
  NoDoubleCheck,
  NoEndgame,
  NoLosing,
  NoMate,
  NoMatingMaterial,
  NoPieceDrop,
  NoStalemate,
  Null,
  PieceDrop,
  Preceding,
  Repetition,
  WhiteRating,
  // Relation list
  ChangeSideToMove,
  IgnoreSideToMove,
  MissingPieceCount,
  NewPieceCount,
  OriginalDifferentCount,
  OriginalSameCount,
  Pattern,
  SameSideToMove,
  // Match list: events
  Event,
  EventCategory,
  EventCountry,
  EventDate,
  EventMode,
  EventType,
  Round,
  Site,
  Subround,
  TimeMode,
  // Match list: players
  AverageRating,
  AverageRatingStar,
  BirthYear,
  BlackBirthYear,
  BlackCountry,
  BlackDeathYear,
  BlackGender,
  BlackId,
  BlackIsComputer,
  BlackIsHuman,
  BlackPlayer,
  BlackTitle,
  Country,
  DeathYear,
  Gender,
  IsComputer,
  IsHuman,
  Player,
  Rating,
  RatingDifference,
  Title,
  WhiteBirthYear,
  WhiteCountry,
  WhiteDeathYear,
  WhiteGender,
  WhiteId,
  WhiteIsComputer,
  WhiteIsHuman,
  WhitePlayer,
  WhiteTitle,
  // Match list: game header
  Annotator,
  Date,
  Eco,
  GameNumber,
  HasMarker,
  HasSpecialMarker,
  PlyCount,
  Termination,
  Year,
  // Match list: game data
  Comment,
  Error,
  GoodGame,
  HasAnnotation,
  HasComments,
  HasVariations,
  Tag,
  // Match list: transformation, meaningless
  EitherColor,
  Output,
  Pgn,
};

/// The shape of a keyword's arguments; the parser has one routine per signature.
enum class Signature : uint8_t {
  None,                 ///< no argument
  OptSubList,           ///< nothing, or one sub-list of the containing kind (:not :cut :exclude)
  SubLists,             ///< `( (list) (list) ... )` of the containing kind
  Cond,                 ///< `( (cond) (expr) ... )` or `(cond) (expr) ...` of the containing kind
  RelationSpec,         ///< `( relation-keywords )` (also `(relation ...)`)
  Piece,                ///< one piece designator
  OptPiece,             ///< an optional piece designator
  TwoPieces,            ///< two piece designators
  PieceSquares,         ///< a piece designator and a square designator (:inside)
  PieceRange,           ///< a piece designator and a range
  PiecesRange,          ///< one or two piece designators and a range
  TwoPiecesRange,       ///< two piece designators and a range
  Ray,                  ///< `(designator designator ...)` and an optional range
  PawnCount,            ///< [designator] attributes [range [: range]]
  PawnCountDifference,  ///< one or two designators, attributes, range
  GoodBishop,           ///< designator range : range
  UnstoppablePawns,     ///< designator range [: range]
  Count,                ///< integer range
  MoveCount,            ///< integer range, `end` / `end-N` allowed
  OptCount,             ///< optional integer range
  GameRange,            ///< integer range, `*` and `-` allowed
  CategoryRange,        ///< like GameRange, Roman numerals allowed
  CheckCount,           ///< range | `+n+m` | range : range
  Line,                 ///< `( moves )` or `"moves"`
  Fen,                  ///< a quoted FEN
  Name,                 ///< an accumulator name
  NameRange,            ///< an accumulator name and a range
  NamePiece,            ///< a tag name and a piece designator
  Evaluation,           ///< depth|movetime N, then `mate` or score-range sidetomove|absolute
  MoveEvaluation,       ///< two designators, depth|movetime N, score-range, sidetomove|absolute
  ExchangeEvaluation,   ///< [depth|*] score-range [designator]
  EndgameEvaluation,    ///< remis|mate|*mate|+mate|-mate [range]
  Text,                 ///< a word (substring match) or "pattern"
  QuotedText,           ///< a "pattern"
  FileName,             ///< a word or string
  PlayerId,             ///< a word or string
  Results,              ///< comma list of 1-0 0-1 1/2 1/2-1/2 0-0 *
  EventModes,           ///< comma list of event modes
  EventTypes,           ///< comma list of event types
  TimeModes,            ///< comma list of time modes
  Terminations,         ///< comma list of termination reasons
  Gender,               ///< f | m | w | x
  SpecialMarkers,       ///< comma list of special markers
  DecodeError,          ///< one decoding-error name
  Countries,            ///< comma list of country codes
  Titles,               ///< comma list of titles
  Variants,             ///< comma list of chess variants
  Languages,            ///< optional comma list of language codes
  Markers,              ///< optional comma list of game markers
  Date,                 ///< a date range
  Eco,                  ///< comma list of ECO ranges, or * / -
  Rating,               ///< rating system and a range (`*` / `-` allowed)
  StartPositions,       ///< comma list of position numbers, number ranges, FICS names, or *
  Tag,                  ///< PGN tag name (or *) and an optional value pattern
};

/// The evaluation cost class of the node a position-list keyword compiles to (eval::Node::cost):
/// a conjunction is evaluated cheapest first (eval::order_by_cost, SPEC-NOTES "Evaluation
/// speed"). Exceptions decided by the compiler (eval/compile_keyword.cpp): a node that became
/// constant (true / false) is kCheap, `:check` with a designator is kExpensive.
enum class Cost : uint8_t {
  kCheap,      ///< reads a stored fact (side to move, move number, the next move, headers)
  kMedium,     ///< a few bitboard operations (designators, piece counts)
  kExpensive,  ///< more (attacks, pawn structure, exchanges, move generation)
  kOrdered,    ///< side effects, or slow in ways that must not be reordered (sub-lists,
               ///< controls, accumulation, lines, relations, engine and tablebase probes):
               ///< a conjunction holding one keeps its written order
};

/// Where a keyword is documented.
enum class Origin : uint8_t {
  Cql10,    ///< the CQL 1.0 manual (seed 004)
  CqlS,     ///< Scidb's CQL-S extension (seeds 000/001, reference pages)
  Legacy,   ///< only on the older Scidb page (seed 001), superseded
  SeeAlso,  ///< only named in an index or see-also line; behaviour as in `same_as`/description
};

struct KeywordInfo {
  Keyword keyword;
  std::string_view name;  ///< without ':' (e.g. "line*")
  uint8_t lists;          ///< ListMask: which lists accept it
  Signature signature;
  bool negatable;  ///< `!:kw` allowed
  Origin origin;
  PieceMask allowed_pieces;            ///< designator arguments may only use these kinds (0 = any)
  bool piecetype_only;                 ///< designator arguments must not have squares
  std::optional<Keyword> same_as;      ///< another spelling of that keyword
  std::optional<Keyword> negation_of;  ///< means `!:that` (e.g. :nocheck)
  std::string_view usage;              ///< argument summary for help, e.g. "<piece> <range>"
  std::string_view description;        ///< one line
  Cost cost = Cost::kCheap;            ///< evaluation cost of its node (position lists)
  bool lookahead = false;              ///< reads the position after the next move
                                       ///< (eval::PosCtx::next_facts, eval/lookahead.h)
};

/// All keywords in enumerator order.
std::span<const KeywordInfo> all_keywords();
/// The table row of `k`.
const KeywordInfo& keyword_info(Keyword k);
/// Looks a keyword up by name (without ':'); nullptr if unknown.
const KeywordInfo* find_keyword(std::string_view name);
/// ":name".
std::string keyword_spelling(Keyword k);
/// "match list", "position list", "relation list".
std::string_view list_kind_name(ListKind k);

}  // namespace cql
