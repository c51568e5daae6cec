// The typed AST of a CQL script: what the parser (cql/parser.h) returns and
// eval::Program::compile reads (SPEC-NOTES "The route of a query").
//
// A Script is one match list. A List holds, in source order, Elements: piece designators
// (position lists), keyword items, and position lists (match lists). Every keyword item
// carries its Keyword enumerator and typed arguments (KeywordArgs); nothing downstream needs
// to compare keyword strings. Square sets are already resolved to 64-bit sets (a1 = bit 0).
//
// Desugaring done by the parser:
//   `!:kw args`  ->  `:not (position :kw args)` (`(match ...)` in a match list), bang = true
//   bare `:not`  ->  List::negated = true (the keyword item is not kept)
// Everything else is kept as written (e.g. `:nocheck` stays Keyword::NoCheck; see
// KeywordInfo::negation_of / same_as for its meaning).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "cql/designator.h"
#include "cql/keywords.h"
#include "cql/lexer.h"
#include "cql/line.h"
#include "cql/pawn_attributes.h"
#include "cql/range.h"
#include "cql/source_location.h"
#include "cql/vocabulary.h"

namespace cql {

struct List;

/// A heap-allocated value with deep copy; lets List contain Lists through a variant.
template <class T>
class Box {
 public:
  Box() : p_(std::make_unique<T>()) {}
  Box(T v) : p_(std::make_unique<T>(std::move(v))) {}  // NOLINT: implicit by design
  Box(const Box& o) : p_(std::make_unique<T>(*o.p_)) {}
  Box(Box&&) noexcept = default;
  Box& operator=(const Box& o) {
    if (this != &o) p_ = std::make_unique<T>(*o.p_);
    return *this;
  }
  Box& operator=(Box&&) noexcept = default;
  T& operator*() { return *p_; }
  const T& operator*() const { return *p_; }
  T* operator->() { return p_.get(); }
  const T* operator->() const { return p_.get(); }

 private:
  std::unique_ptr<T> p_;
};

// ---- keyword arguments, one struct per family of Signature ----

/// Signature::None.
struct NoArgs {};

/// OptSubList (0 or 1 list), SubLists (>= 1), Cond (>= 1, condition/expression pairs, an odd
/// count ends with a default expression), RelationSpec (exactly 1 relation list).
struct SubListArgs {
  std::vector<List> lists;
  bool wrapped = true;  ///< Cond only: written inside an extra pair of parentheses
};

/// Piece, OptPiece, TwoPieces, PieceSquares.
struct DesignatorArgs {
  std::vector<PieceDesignator> pieces;     ///< 0..2 designators
  std::optional<SquareDesignator> region;  ///< :inside's square designator
};

/// PieceRange, PiecesRange, TwoPiecesRange, Count, MoveCount, OptCount, GameRange,
/// CategoryRange, CheckCount, GoodBishop, UnstoppablePawns. `ranges` has two entries for the
/// `<range> : <range>` forms (white : black, or opponents' pawns : own pawns for :goodbishop);
/// it is empty for an :ischeck without range.
struct CountArgs {
  std::vector<PieceDesignator> pieces;
  std::vector<Range> ranges;
  bool plus_form = false;  ///< :checkcount written as `+n+m`
};

/// PawnCount, PawnCountDifference. `ranges` holds 1, or 2 for `<range> : <range>` (white :
/// black); it is empty when the range was omitted (`:pawncount [Pp] trio-islands` on the
/// page), which means ">= 1" like :ray's default.
struct PawnCountArgs {
  std::vector<PieceDesignator> pieces;  ///< 0..2 (0 = all pawns)
  std::vector<PawnAttribute> attributes;
  std::vector<Range> ranges;
};

/// Ray.
struct RayArgs {
  std::vector<PieceDesignator> ray;  ///< >= 2 designators in ray order
  std::optional<Range> range;        ///< absent: >= 1
};

/// Fen.
struct FenArgs {
  std::string fen;
};

/// Name (accumulator), NameRange (:sumrange), NamePiece (:tagmatch, :forany).
struct NameArgs {
  std::string name;
  std::optional<PieceDesignator> piece;
  std::optional<Range> range;
};

/// Evaluation, MoveEvaluation, ExchangeEvaluation (scores in pawn units).
struct EvaluationArgs {
  std::vector<PieceDesignator>
      pieces;                        ///< :moveevaluation movers/targets; :exchangeevaluation target
  std::optional<EngineLimit> limit;  ///< depth / movetime
  int64_t limit_value = 0;           ///< plies or milliseconds
  bool mate = false;                 ///< :evaluation ... mate
  std::optional<ScoreRange> score;
  std::optional<ScoreView> view;
  std::optional<int64_t> exchange_depth;  ///< :exchangeevaluation max plies
  bool exchange_depth_unlimited = false;  ///< :exchangeevaluation *
};

/// EndgameEvaluation.
struct EndgameArgs {
  EndgameOutcome outcome = EndgameOutcome::Draw;
  std::optional<Range> plies;  ///< distance to mate in plies
};

/// A string argument: unquoted = case-insensitive substring, quoted = Pattern-Matching pattern.
struct TextPattern {
  std::string text;
  bool quoted = false;
  friend bool operator==(const TextPattern&, const TextPattern&) = default;
};

/// Text, QuotedText, FileName, PlayerId, Tag (name, then optional value).
struct TextArgs {
  std::vector<TextPattern> patterns;
};

/// Comma lists of closed vocabularies.
template <class E>
struct ChoiceArgs {
  std::vector<E> values;
};
using ResultArgs = ChoiceArgs<GameResult>;
using EventModeArgs = ChoiceArgs<EventMode>;
using EventTypeArgs = ChoiceArgs<EventType>;
using TimeModeArgs = ChoiceArgs<TimeMode>;
using TerminationArgs = ChoiceArgs<Termination>;
using GenderArgs = ChoiceArgs<Gender>;
using SpecialMarkerArgs = ChoiceArgs<SpecialMarker>;
using DecodeErrorArgs = ChoiceArgs<DecodeError>;

/// Countries, Titles, Variants, Languages, Markers: open vocabularies, kept as written.
struct CodeListArgs {
  std::vector<std::string> codes;  ///< may be empty for the optional lists
};

/// Date.
struct DateArgs {
  DateRange range;
};

/// Eco.
struct EcoArgs {
  Range::Kind special = Range::Kind::Interval;  ///< Any (`*`) / Missing (`-`) replace the list
  std::vector<EcoRange> ranges;
};

/// Rating.
struct RatingArgs {
  RatingSystem system = RatingSystem::Elo;
  Range range;
};

/// One entry of :startposition: a number range (Shuffle Chess numbering 0..3840) or a FICS
/// variant name like `misc/runaway`.
struct StartPositionSpec {
  uint16_t first = 0;
  uint16_t last = 0;
  std::string fics;  ///< non-empty: a FICS name (first/last unused)
  friend bool operator==(const StartPositionSpec&, const StartPositionSpec&) = default;
};

/// StartPositions.
struct StartPositionArgs {
  bool any = false;  ///< `*`
  std::vector<StartPositionSpec> entries;
};

using KeywordArgs = std::variant<NoArgs, SubListArgs, DesignatorArgs, CountArgs, PawnCountArgs,
                                 RayArgs, LineArgs, FenArgs, NameArgs, EvaluationArgs, EndgameArgs,
                                 TextArgs, ResultArgs, EventModeArgs, EventTypeArgs, TimeModeArgs,
                                 TerminationArgs, GenderArgs, SpecialMarkerArgs, DecodeErrorArgs,
                                 CodeListArgs, DateArgs, EcoArgs, RatingArgs, StartPositionArgs>;

/// One keyword with its arguments.
struct KeywordItem {
  Keyword keyword = Keyword::Mate;
  KeywordArgs args;
  SourceLoc loc;                                      ///< of the keyword token (or of '!')
  KeywordSpelling spelling = KeywordSpelling::Plain;  ///< `:kw` or `position:kw`...
  bool bang = false;  ///< a `:not` item that was written `!:kw` (its list holds that keyword)

  const KeywordInfo& info() const { return keyword_info(keyword); }
  /// The argument struct; precondition: it holds a T.
  template <class T>
  const T& as() const {
    return std::get<T>(args);
  }
};

using Element = std::variant<PieceDesignator, KeywordItem, Box<List>>;

/// A match, position or relation list.
struct List {
  ListKind kind = ListKind::Position;
  bool negated = false;           ///< a bare `:not` occurred in the list
  std::vector<Element> elements;  ///< in source order
  SourceLoc loc;                  ///< of the '('

  /// Keyword items in order.
  std::vector<const KeywordItem*> keywords() const;
  /// Piece designators in order (position lists).
  std::vector<const PieceDesignator*> designators() const;
  /// Position lists in order (match lists).
  std::vector<const List*> position_lists() const;
  /// The first item with keyword k, or nullptr.
  const KeywordItem* find(Keyword k) const;
  bool has(Keyword k) const { return find(k) != nullptr; }
};

/// Calls `on_keyword` for every keyword item and `on_designator` for every piece designator
/// of `list` and of all nested lists (keyword arguments, position lists, move lines), in
/// source order; either callback may be empty.
void walk(const List& list, const std::function<void(const KeywordItem&)>& on_keyword,
          const std::function<void(const PieceDesignator&)>& on_designator = {});

/// A parsed script: one match list.
struct Script {
  List match;
  std::string source_name;
};

}  // namespace cql
