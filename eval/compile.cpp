// Program::compile: the typed AST (cql/ast.h) -> position-list nodes (eval/node.h) and header
// filters (eval/header_filter.h). Transformations (seed 003, SPEC) are applied here, once:
// every designator of a list is compiled once per distinct transformation of the list.
#include <algorithm>
#include <cmath>
#include <set>
#include <string>

#include "db/game_header.h"
#include "eval/analysis.h"
#include "eval/exchange.h"
#include "eval/game_keywords.h"
#include "eval/line.h"
#include "eval/accumulator.h"
#include "eval/control.h"
#include "eval/lookahead.h"
#include "eval/match_count.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/relation.h"
#include "eval/sequence.h"
#include "eval/tablebase.h"
#include "eval/transform.h"

namespace eval {

CompileError::CompileError(cql::SourceLoc l, const std::string& message)
    : std::runtime_error(message), loc(l) {}

namespace {

using cql::Keyword;
using cql::KeywordItem;

[[noreturn]] void not_supported(const KeywordItem& item) {
  throw CompileError(item.loc, "not yet supported: " + cql::keyword_spelling(item.keyword));
}

/// The transformation keyword of `k`, if it is one (`:inside` is not: it filters shifts).
std::optional<TransformKeyword> transform_keyword(Keyword k) {
  switch (k) {
    case Keyword::Flip:
    case Keyword::FlipDihedral: return TransformKeyword::kFlip;
    case Keyword::FlipHorizontal: return TransformKeyword::kFlipHorizontal;
    case Keyword::FlipVertical: return TransformKeyword::kFlipVertical;
    case Keyword::FlipDiagonal: return TransformKeyword::kFlipDiagonal;
    case Keyword::FlipColor: return TransformKeyword::kFlipColor;
    case Keyword::Shift: return TransformKeyword::kShift;
    case Keyword::ShiftHorizontal: return TransformKeyword::kShiftHorizontal;
    case Keyword::ShiftVertical: return TransformKeyword::kShiftVertical;
    case Keyword::ShiftMainDiagonal: return TransformKeyword::kShiftMainDiagonal;
    case Keyword::ShiftOffDiagonal: return TransformKeyword::kShiftOffDiagonal;
    case Keyword::ShiftDiagonal: return TransformKeyword::kShiftDiagonal;
    default: return std::nullopt;
  }
}

/// Resolves a range written in the script to inclusive integer bounds.
IntRange int_range(const cql::Range& r, const KeywordItem& item) {
  if (r.percent) throw CompileError(item.loc, "percentages are not allowed for " + cql::keyword_spelling(item.keyword));
  IntRange out;
  if (r.kind == cql::Range::Kind::Any) {  // `*`: value present (Elo > 0)
    out.lo = 1;
    return out;
  }
  if (r.kind == cql::Range::Kind::Missing) {  // `-`: value missing (Elo 0)
    out.lo = out.hi = 0;
    return out;
  }
  if (r.lo) {
    out.lo_from_end = r.lo->from_end;
    out.lo = r.lo->from_end ? r.lo->value - (r.lo_strict ? 1 : 0) : r.lo->value + (r.lo_strict ? 1 : 0);
  }
  if (r.hi) {
    out.hi_from_end = r.hi->from_end;
    out.hi = r.hi->from_end ? r.hi->value + (r.hi_strict ? 1 : 0) : r.hi->value - (r.hi_strict ? 1 : 0);
  }
  return out;
}

/// :endgameevaluation / :endgameevaluation* (seed 000; eval/tablebase.h). Initialises the
/// tablebases (tablebase::prepare). Throws CompileError when no table is found, for a
/// distance to mate given with `remis`, and for `end` in the distance.
Node endgame_node(const KeywordItem& item, Keyword k, bool swap) {
  using O = cql::EndgameOutcome;
  const auto& a = std::get<cql::EndgameArgs>(item.args);
  O outcome = a.outcome;
  if (swap && outcome == O::WhiteWins) outcome = O::BlackWins;
  else if (swap && outcome == O::BlackWins) outcome = O::WhiteWins;
  const std::string name = cql::keyword_spelling(item.keyword);
  if (outcome == O::Draw && a.plies)
    throw CompileError(item.loc, name + ": a distance to mate needs a mate result (mate, *mate, +mate, -mate)");
  if (a.plies && ((a.plies->lo && a.plies->lo->from_end) || (a.plies->hi && a.plies->hi->from_end)))
    throw CompileError(item.loc, name + ": `end` is not allowed in a distance to mate");
  const tablebase::Status status = tablebase::prepare();
  if (status.max_pieces == 0)
    throw CompileError(item.loc, name + ": no Gaviota tablebases found in " + status.dirs +
                                     " (set --tablebases or CQLDB_TABLEBASES)");
  Node n;
  n.op = Op::kEndgameEvaluation;
  n.value = int64_t(outcome) | (k == Keyword::EndgameEvaluationStar ? tablebase::kStarBit : 0);
  if (a.plies) n.range = int_range(*a.plies, item);
  IntRange pieces;
  pieces.lo = 2;
  pieces.hi = status.max_pieces;
  n.ranges.push_back(pieces);
  return n;
}

/// A pawn-unit score range (cql::ScoreRange) as inclusive integer bounds, for values that
/// are whole pawn units (exchange values): `>-0.5` = `>=0`, `<3` = `<=2`. Empty when no
/// integer fits (then nothing matches).
IntRange whole_pawn_range(const cql::ScoreRange& r) {
  IntRange out;
  auto bounded = [](double v) { return std::clamp(v, -1e9, 1e9); };  // far beyond any value
  if (r.lo) out.lo = r.lo_strict ? int64_t(std::floor(bounded(*r.lo))) + 1 : int64_t(std::ceil(bounded(*r.lo)));
  if (r.hi) out.hi = r.hi_strict ? int64_t(std::ceil(bounded(*r.hi))) - 1 : int64_t(std::floor(bounded(*r.hi)));
  return out;
}

/// Castling letters K Q k q of a designator -> CastlingRight bits.
int castling_rights_of(cql::PieceMask mask) {
  using namespace cql::piece_mask;
  int rights = 0;
  if (mask & kWhiteKing) rights |= chess::WHITE_OO;
  if (mask & kWhiteQueen) rights |= chess::WHITE_OOO;
  if (mask & kBlackKing) rights |= chess::BLACK_OO;
  if (mask & kBlackQueen) rights |= chess::BLACK_OOO;
  return rights;
}

/// Compiles position lists under a transformation.
MatchCount match_count_of(const cql::List& list);

class ListCompiler {
 public:
  ListCompiler(bool& needs_game_info, bool& needs_repetition,
               std::vector<std::shared_ptr<const SequenceSpec>>& sequences,
               std::vector<std::shared_ptr<const RelationSpec>>* relations = nullptr,
               const std::vector<TagSpec>* tags = nullptr)
      : needs_game_info_(needs_game_info), needs_repetition_(needs_repetition), sequences_(sequences),
        relations_(relations), tags_(tags) {}

  /// Compiles `list` with every element transformed by (the list's own transformations,
  /// then) `outer`.
  /// `top`: `list` is a top-level position list (its counting keywords are the game's
  /// MatchCount; nested ones become line tables, eval/match_count.h).
  std::shared_ptr<const PositionList> compile(const cql::List& list, const Transform& outer, bool top = false) {
    std::vector<TransformKeyword> keywords;
    for (const cql::Element& e : list.elements) {
      if (auto* item = std::get_if<KeywordItem>(&e))
        if (auto tk = transform_keyword(item->keyword)) keywords.push_back(*tk);
    }
    auto out = std::make_shared<PositionList>();
    out->negated = list.negated;
    std::set<std::string> seen;  // canonical forms of the variants compiled so far
    const chess::Bitboard outer_pattern = pattern_;
    static const AccumulatorNames kNoNames;
    size_t no_counters = 0;
    const ResetPlan plan(list, keywords, accumulator_names ? *accumulator_names : kNoNames,
                         accumulator_counters ? *accumulator_counters : no_counters);  // :reset groups
    const auto outer_reset = reset_;
    for (size_t ti = 0; ti < plan.transforms().size(); ++ti) {
      reset_ = {&plan, ti};
      Transform t = plan.transforms()[ti].then(outer);
      // relation:pattern: the squares of the list's top-level designators under t
      pattern_ = 0;
      for (const cql::Element& e : list.elements)
        if (auto* p = std::get_if<cql::PieceDesignator>(&e)) pattern_ |= t.apply(p->squares.squares);
      std::vector<Node> nodes;
      bool never = false;  // some node can never match under t (a designator left the board)
      for (const cql::Element& e : list.elements) {
        Node n = element(e, t);
        if (n.op == Op::kTrue && !n.negate) continue;
        if (n.op == Op::kFalse && !n.negate) never = true;
        nodes.push_back(std::move(n));
      }
      if (never) continue;  // this transformation of the list matches nothing
      // Engine searches are slow: the conjunction's cheap conditions decide first.
      std::stable_partition(nodes.begin(), nodes.end(), [](const Node& n) { return !uses_engine(n); });
      std::string key = canonical(nodes);
      if (!seen.insert(key).second) continue;
      out->variants.push_back(std::move(nodes));
    }
    out->index.build(out->variants);
    pattern_ = outer_pattern;
    reset_ = outer_reset;
    for (const cql::Element& e : list.elements) {  // bare :cut / :exclude / :skip
      const auto* item = std::get_if<KeywordItem>(&e);
      if (!item) continue;
      if (item->keyword == Keyword::Skip) out->control |= control::kSkip;
      if ((item->keyword == Keyword::Cut || item->keyword == Keyword::Exclude) &&
          std::get<cql::SubListArgs>(item->args).lists.empty())
        out->control |= item->keyword == Keyword::Cut ? control::kCut : control::kExclude;
    }
    if (accumulating) {  // lists with :accumulate are counted before evaluation
      bool adds = false;
      for (const auto& v : out->variants)
        for (const Node& n : v) adds |= n.op == Op::kAccumulate;
      if (adds) accumulating->push_back(out);
    }
    const MatchCount nested_count = top ? MatchCount{} : match_count_of(list);
    return wrap_line_rules(list, std::move(out), top ? nullptr : &nested_count, &list == cut_sub_list_, sequences_);
  }

 private:
  Designator designator(const cql::PieceDesignator& p, const Transform& t) {
    Designator d;
    if (!p.tag.empty()) {  // `$name[squares]`: the piece bound to the tag (CQL-Tagging)
      d.tag = int8_t(tag_number(p.tag, p.loc));
      d.pieces = cql::piece_mask::kAnyPiece;
      d.squares = t.apply(p.squares.squares);
      return d;
    }
    d.pieces = t.apply(p.pieces);
    d.promoted = t.apply(p.promoted);
    d.not_promoted = t.apply(p.not_promoted);
    d.squares = t.apply(p.squares.squares);  // the reserve never holds a piece in standard chess
    return d;
  }

  /// The number of the tag `name` (Program::tags()); CompileError if it is not declared.
  size_t tag_number(const std::string& name, cql::SourceLoc loc) const {
    if (tags_)
      for (size_t i = 0; i < tags_->size(); ++i)
        if ((*tags_)[i].name == name) return i;
    throw CompileError(loc, "tag '" + name + "' is not declared by match:forany");
  }

  Node element(const cql::Element& e, const Transform& t) {
    if (auto* p = std::get_if<cql::PieceDesignator>(&e)) {
      Node n;
      n.d.push_back(designator(*p, t));
      n.op = n.d[0].squares ? Op::kDesignator : Op::kFalse;
      return n;
    }
    if (auto* item = std::get_if<KeywordItem>(&e)) return keyword(*item, t);
    const cql::List& sub = **std::get_if<cql::Box<cql::List>>(&e);
    Node n;
    n.op = Op::kList;
    n.lists.push_back(compile(sub, t));
    return n;
  }

  Node keyword(const KeywordItem& item, const Transform& t) {
    const cql::KeywordInfo& info = item.info();
    Keyword k = item.keyword;
    bool negate = false;
    if (info.same_as) k = *info.same_as;
    if (info.negation_of) {
      k = *info.negation_of;
      negate = true;
    }
    Node n = keyword_node(item, k, t);
    n.negate = n.negate != negate;
    return n;
  }

  Node keyword_node(const KeywordItem& item, Keyword k, const Transform& t) {
    Node n;
    const bool swap = t.swaps_colors();
    auto pieces = [&]() -> const std::vector<cql::PieceDesignator>& {
      static const std::vector<cql::PieceDesignator> kNone;  // aliases like :nocheck take none
      if (auto* a = std::get_if<cql::DesignatorArgs>(&item.args)) return a->pieces;
      if (auto* a = std::get_if<cql::CountArgs>(&item.args)) return a->pieces;
      return kNone;
    };
    auto range0 = [&] { return int_range(std::get<cql::CountArgs>(item.args).ranges.at(0), item); };
    auto with_designators = [&](Op op) {
      n.op = op;
      for (const cql::PieceDesignator& p : pieces()) n.d.push_back(designator(p, t));
    };
    auto sub_lists = [&](Op op) {
      n.op = op;
      for (const cql::List& l : std::get<cql::SubListArgs>(item.args).lists) n.lists.push_back(compile(l, t));
    };
    if (transform_keyword(k)) return n;  // handled by compile(): kTrue, dropped
    switch (k) {
      // ---- logic
      case Keyword::And: sub_lists(Op::kAnd); break;
      case Keyword::Or: sub_lists(Op::kOr); break;
      case Keyword::Xor: sub_lists(Op::kXor); break;
      case Keyword::Cond: sub_lists(Op::kCond); break;
      case Keyword::Not: {
        const auto& lists = std::get<cql::SubListArgs>(item.args).lists;
        if (lists.empty()) return n;  // bare :not is List::negated
        sub_lists(Op::kList);
        n.negate = true;
        break;
      }
      // ---- simple position keywords
      case Keyword::Mate: n.op = Op::kMate; break;
      case Keyword::Stalemate: n.op = Op::kStalemate; break;
      case Keyword::Check: with_designators(Op::kCheck); break;
      case Keyword::DoubleCheck: with_designators(Op::kDoubleCheck); break;
      case Keyword::ContactCheck: with_designators(Op::kContactCheck); break;
      case Keyword::Wtm: n.op = swap ? Op::kBtm : Op::kWtm; break;
      case Keyword::Btm: n.op = swap ? Op::kWtm : Op::kBtm; break;
      case Keyword::Initial: n.op = Op::kInitial; break;
      case Keyword::Terminal: n.op = Op::kTerminal; break;
      case Keyword::Castling:
        n.op = Op::kCastling;
        n.value = castling_rights_of(t.apply(pieces().at(0).pieces));
        break;
      case Keyword::Endgame: n.op = Op::kEndgame; break;
      case Keyword::Fen: {
        auto pos = std::make_shared<chess::Position>();
        chess::FenError err = pos->set_fen(std::get<cql::FenArgs>(item.args).fen);
        if (!err.ok()) throw CompileError(item.loc, "invalid FEN for :fen: " + err.message);
        n.op = Op::kFen;
        n.fen = pos;
        break;
      }
      case Keyword::GameIsOver: n.op = Op::kGameIsOver; break;
      case Keyword::MatingMaterial: n.op = Op::kMatingMaterial; break;
      case Keyword::WhiteCannotWin:
      case Keyword::BlackCannotWin:
        n.op = Op::kCannotWin;
        n.value = (k == Keyword::WhiteCannotWin) != swap ? chess::WHITE : chess::BLACK;
        break;
      case Keyword::HalfmoveClock: n.op = Op::kHalfmoveClock; n.range = range0(); break;
      case Keyword::HalfmoveClockLimit: {
        IntRange r = range0();
        n.op = Op::kHalfmoveClockLimit;
        n.value = r.hi != INT64_MAX ? r.hi : r.lo;
        break;
      }
      case Keyword::FiftyMoveRule: n.op = Op::kFiftyMoveRule; break;
      case Keyword::ThreefoldRepetition:
      case Keyword::FivefoldRepetition:
        n.op = Op::kRepetition;
        n.value = k == Keyword::ThreefoldRepetition ? 3 : 5;
        needs_repetition_ = true;
        break;
      // ---- variant-only keywords: never satisfied in standard chess (SPEC Variants)
      case Keyword::KingOnTheHill: case Keyword::Losing: case Keyword::MustCapture:
      case Keyword::ThreeChecks: case Keyword::PieceDrop:
        n.op = Op::kFalse;
        break;
      // ---- CQL 1.0 output options without effect
      case Keyword::MarkAll: case Keyword::NoAnnotate: break;
      // ---- piece configuration
      case Keyword::PieceCount: with_designators(Op::kPieceCount); n.range = range0(); break;
      case Keyword::Power: with_designators(Op::kPower); n.range = range0(); break;
      case Keyword::PowerDifference:
      case Keyword::PieceCountDifference:
        with_designators(k == Keyword::PowerDifference ? Op::kPowerDifference
                                                       : Op::kPieceCountDifference);
        n.range = range0();
        n.value = (n.d.size() == 1 && swap) ? 1 : 0;
        break;
      case Keyword::AttackCount: with_designators(Op::kAttackCount); n.range = range0(); break;
      case Keyword::Ray: case Keyword::RayAttack: case Keyword::RayDiagonal:
      case Keyword::RayOrthogonal: case Keyword::RayHorizontal: case Keyword::RayVertical: {
        const auto& ray = std::get<cql::RayArgs>(item.args);
        n.op = Op::kRay;
        for (const cql::PieceDesignator& p : ray.ray) n.d.push_back(designator(p, t));
        if (ray.range) n.range = int_range(*ray.range, item);
        else n.range.lo = 1;
        n.value = k == Keyword::Ray ? 0 : k == Keyword::RayAttack ? 1 : k == Keyword::RayDiagonal ? 2
                : k == Keyword::RayOrthogonal ? 3 : k == Keyword::RayHorizontal ? 4 : 5;
        break;
      }
      case Keyword::Inside: {
        const auto& a = std::get<cql::DesignatorArgs>(item.args);
        n.op = Op::kInside;
        n.d.push_back(designator(a.pieces.at(0), t));
        n.d[0].squares &= a.region ? a.region->squares : ~chess::Bitboard(0);  // region not transformed
        break;
      }
      // ---- the next move
      case Keyword::MoveFrom: with_designators(Op::kMoveFrom); break;
      case Keyword::MoveTo: with_designators(Op::kMoveTo); break;
      case Keyword::Promote:
        with_designators(Op::kPromote);
        if (n.d[0].pieces == 0) n.op = Op::kNoPromotion;  // `:promote []`: not a promotion
        break;
      case Keyword::EnPassant: n.op = Op::kEnPassant; break;
      case Keyword::IsCastling: {
        n.op = Op::kIsCastling;
        const auto& ps = pieces();
        n.value = ps.empty() ? chess::ANY_CASTLING : castling_rights_of(t.apply(ps[0].pieces));
        break;
      }
      case Keyword::MoveNumber: n.op = Op::kMoveNumber; n.range = range0(); break;
      case Keyword::HalfmoveNumber: n.op = Op::kHalfmoveNumber; n.range = range0(); break;
      // ---- game information
      case Keyword::Result: {
        n.op = Op::kResult;
        for (cql::GameResult r : std::get<cql::ResultArgs>(item.args).values) {
          db::ResultCode code = db::ResultCode::kUnknown;
          switch (r) {
            case cql::GameResult::WhiteWins: code = swap ? db::ResultCode::kBlackWins : db::ResultCode::kWhiteWins; break;
            case cql::GameResult::BlackWins: code = swap ? db::ResultCode::kWhiteWins : db::ResultCode::kBlackWins; break;
            case cql::GameResult::Draw: code = db::ResultCode::kDraw; break;
            case cql::GameResult::Unknown: code = db::ResultCode::kUnknown; break;
            case cql::GameResult::BothLose: continue;  // never stored
          }
          n.value |= int64_t(1) << int(code);
        }
        needs_game_info_ = true;
        break;
      }
      case Keyword::Elo: n.op = Op::kElo; n.range = range0(); needs_game_info_ = true; break;
      case Keyword::WhiteElo:
      case Keyword::BlackElo:
        n.op = (k == Keyword::WhiteElo) != swap ? Op::kWhiteElo : Op::kBlackElo;
        n.range = range0();
        needs_game_info_ = true;
        break;
      case Keyword::WhiteRating:
      case Keyword::BlackRating: {
        // The database keeps Elo ratings only: another rating system counts as missing (0),
        // so only its `-` range matches (SPEC-NOTES Header conditions).
        const auto& a = std::get<cql::RatingArgs>(item.args);
        n.op = (k == Keyword::WhiteRating) != swap ? Op::kWhiteElo : Op::kBlackElo;
        n.range = int_range(a.range, item);
        if (a.system != cql::RatingSystem::Elo) {
          n.op = n.range.contains(0) ? Op::kTrue : Op::kFalse;
          break;
        }
        needs_game_info_ = true;
        break;
      }
      // :ispromotedpiece (seed 000 index): the next move is made by a promoted piece,
      // i.e. :movefrom U~
      case Keyword::IsPromotedPiece: {
        Designator d;
        d.pieces = d.promoted = cql::piece_mask::kAnyPiece;
        n.op = Op::kMoveFrom;
        n.d.push_back(d);
        break;
      }
      // ---- lookahead: the position after the next move (eval/lookahead.h)
      case Keyword::IsCheck: {
        const auto& ranges = std::get<cql::CountArgs>(item.args).ranges;
        n.op = ranges.empty() ? Op::kNextFact : Op::kIsCheckCount;
        n.value = next_fact::kCheck;
        if (!ranges.empty()) n.range = range0();
        break;
      }
      case Keyword::IsContactCheck: n.op = Op::kNextFact; n.value = next_fact::kContactCheck; break;
      case Keyword::IsDoubleCheck: n.op = Op::kNextFact; n.value = next_fact::kDoubleCheck; break;
      case Keyword::IsMate: n.op = Op::kNextFact; n.value = next_fact::kMate; break;
      case Keyword::IsStalemate: n.op = Op::kNextFact; n.value = next_fact::kStalemate; break;
      case Keyword::IsNull: n.op = Op::kIsNull; break;
      case Keyword::Forced: n.op = Op::kForced; break;
      // Stored moves are legal and valid (the importer and GameMatcher check every one), and
      // the Antichess-only keywords never hold in standard chess (SPEC Variants).
      case Keyword::IsIllegal: case Keyword::IsInvalid:
      case Keyword::CaptureForced: case Keyword::TakesLastPiece:
        n.op = Op::kFalse;
        break;
      // ---- sequences (eval/sequence.h): elements first, so nested sequences get smaller ids
      case Keyword::Sequence:
      case Keyword::GappedSequence:
      case Keyword::MatchConsecutive:
      case Keyword::Match: {
        using Kind = SequenceSpec::Kind;
        auto spec = std::make_shared<SequenceSpec>();
        spec->kind = k == Keyword::Sequence         ? Kind::kSequence
                     : k == Keyword::GappedSequence ? Kind::kGapped
                     : k == Keyword::Match          ? Kind::kWholeLine
                                                    : Kind::kAnyOrder;
        for (const cql::List& l : std::get<cql::SubListArgs>(item.args).lists) {
          check_line_controls(l, item);  // eval/control.h
          spec->elements.push_back(compile(l, t));
        }
        if (spec->kind == Kind::kAnyOrder && spec->elements.size() > SequenceSpec::kMaxAnyOrder)
          throw CompileError(item.loc, ":matchconsecutive takes at most " +
                                           std::to_string(SequenceSpec::kMaxAnyOrder) + " position lists");
        hoist_element_controls(*spec, item, sequences_, controls);  // bare :cut ... (eval/control.h)
        n.op = Op::kSequence;
        n.value = int64_t(sequences_.size());
        n.lists = spec->elements;
        sequences_.push_back(std::move(spec));
        break;
      }
      // ---- relation (eval/relation.h) and tags (CQL-Tagging)
      case Keyword::Relation: {
        if (!relations_) not_supported(item);
        n.op = Op::kRelation;
        n.value = int64_t(relations_->size());
        relations_->push_back(std::make_shared<const RelationSpec>(compile_relation(
            std::get<cql::SubListArgs>(item.args).lists.at(0), pattern_, int_range)));
        break;
      }
      case Keyword::TagMatch: {
        const auto& a = std::get<cql::NameArgs>(item.args);
        n.op = Op::kTagMatch;
        n.value = int64_t(tag_number(a.name, item.loc));
        if (!a.piece) throw CompileError(item.loc, ":tagmatch needs a piece designator");
        if (!a.piece->tag.empty()) throw CompileError(a.piece->loc, ":tagmatch takes a piece designator, not a tag");
        n.d.push_back(designator(*a.piece, t));
        break;
      }
      // ---- counting
      case Keyword::CheckCount: {
        const auto& a = std::get<cql::CountArgs>(item.args);
        std::vector<IntRange> ranges;
        for (const cql::Range& r : a.ranges) ranges.push_back(int_range(r, item));
        n = check_count_node(ranges, a.plus_form, swap);
        break;
      }
      case Keyword::MatchCount: case Keyword::PretransformMatchCount:
      case Keyword::RepetitionCount: case Keyword::PretransformRepetitionCount:
      case Keyword::Variations:
        break;  // rules of the top-level list (Program::compile), not nodes
      // :variationsonly also restricts its own list to positions inside variations (the
      // top-level list's scope already does that; a nested list needs the node)
      case Keyword::VariationsOnly: n.op = Op::kInsideVariation; break;
      case Keyword::InsideVariation: n.op = Op::kInsideVariation; break;
      // ---- control (eval/control.h); the bare forms are PositionList::control (compile())
      case Keyword::Cut:
      case Keyword::Exclude: {
        const auto& lists = std::get<cql::SubListArgs>(item.args).lists;
        if (lists.empty()) break;
        const cql::List& sub = lists[0];
        const cql::List* outer_cut = cut_sub_list_;
        if (k == Keyword::Cut) cut_sub_list_ = &sub;
        n.op = Op::kControl;  // evaluated on its own at every position (Alternative::controls)
        n.lists.push_back(compile(sub, t));
        cut_sub_list_ = outer_cut;
        n.value = k == Keyword::Exclude ? control::kExclude
                  : sub.find(Keyword::Preceding) ? control::kCutPreceding
                                                 : control::kCut;
        if (!controls) not_supported(item);
        controls->push_back(ControlArgument{n.lists[0], uint8_t(n.value), SIZE_MAX});
        break;
      }
      case Keyword::Skip: case Keyword::Reset:  // Reset: ResetPlan in compile()
      case Keyword::EndMost: case Keyword::Following: case Keyword::Preceding:
        break;  // list rules: compile() (control bits) and wrap_line_rules (eval/match_count.h)
      // ---- accumulators (eval/accumulator.h)
      case Keyword::Accumulate:
      case Keyword::AccumulateStar:
      case Keyword::SumRange: {
        const auto& a = std::get<cql::NameArgs>(item.args);
        const AccumulatorNames::Entry* entry = accumulator_names ? accumulator_names->find(a.name) : nullptr;
        if (!entry) throw CompileError(item.loc, "accumulator '" + a.name + "' is never accumulated (:accumulate)");
        n.value = int64_t(entry->index + (entry->star && swap ? 1 : 0));
        if (auto group = reset_.first ? reset_.first->counter(a.name, reset_.second, swap) : std::nullopt)
          n.value = int64_t(*group);
        if (k == Keyword::SumRange) {
          n.op = Op::kSumRange;
          if (!a.range) throw CompileError(item.loc, ":sumrange needs a range");
          n.range = int_range(*a.range, item);
        } else {
          n.op = Op::kAccumulate;
        }
        break;
      }
      // ---- move lines (eval/line.h); a line that can never match (a drop, a designator
      // shifted off the board) drops this transformation of the list
      case Keyword::Line:
      case Keyword::LineStar: {
        n.line = compile_line(std::get<cql::LineArgs>(item.args), t, item.loc);
        n.op = Op::kLine;
        for (const LineMoveSpec& m : n.line->moves)
          if (m.kind == LineMoveSpec::Kind::kNever) n.op = Op::kFalse;
        break;
      }
      // ---- game keywords (eval/start_position.h)
      case Keyword::IsChess960:
      case Keyword::IsShuffleChess:
      case Keyword::StartPosition:
      case Keyword::Variant: n = game_keyword_node(item, k); break;
      // ---- pawn and piece structure (eval/pawn_structure.h, eval/piece_structure.h)
      case Keyword::PawnCount:
      case Keyword::PawnCountDifference: {
        const auto& a = std::get<cql::PawnCountArgs>(item.args);
        const bool difference = k == Keyword::PawnCountDifference;
        if (auto conflict = pawn_attributes_conflict(a.attributes)) throw CompileError(item.loc, *conflict);
        n.op = difference ? Op::kPawnCountDifference : Op::kPawnCount;
        for (const cql::PieceDesignator& p : a.pieces) n.d.push_back(designator(p, t));
        if (n.d.empty()) n.d.push_back(Designator{cql::piece_mask::kWhitePawn | cql::piece_mask::kBlackPawn});
        n.pawn = std::make_shared<const PawnCountSpec>(make_pawn_count_spec(a, difference, swap));
        if (difference) n.range = int_range(a.ranges.at(0), item);
        break;
      }
      case Keyword::GoodBishop: {
        with_designators(Op::kGoodBishop);
        auto spec = std::make_shared<PawnCountSpec>();
        spec->ranges = std::get<cql::CountArgs>(item.args).ranges;
        n.pawn = spec;
        break;
      }
      case Keyword::Opposition: with_designators(Op::kOpposition); break;
      case Keyword::Perpendicular: with_designators(Op::kPerpendicular); break;
      case Keyword::PassedPawnRace: with_designators(Op::kPassedPawnRace); break;
      case Keyword::UnstoppablePawns: {
        with_designators(Op::kUnstoppablePawns);
        auto spec = std::make_shared<PawnCountSpec>();
        spec->ranges = std::get<cql::CountArgs>(item.args).ranges;
        if (swap && spec->ranges.size() == 2) std::swap(spec->ranges[0], spec->ranges[1]);
        spec->swapped = swap;
        n.pawn = spec;
        break;
      }
      // ---- tablebases (eval/tablebase.h)
      case Keyword::EndgameEvaluation:
      case Keyword::EndgameEvaluationStar: n = endgame_node(item, k, swap); break;
      // ---- static exchange evaluation (eval/exchange.h); values are the mover's, so a
      // colour flip changes only the designators
      case Keyword::ExchangeEvaluation: {
        const auto& a = std::get<cql::EvaluationArgs>(item.args);
        if (a.exchange_depth && *a.exchange_depth < 1)
          throw CompileError(item.loc, ":exchangeevaluation: the depth counts plies and must be at least 1 (or *)");
        n.op = Op::kExchangeEvaluation;
        n.value = a.exchange_depth ? std::min<int64_t>(*a.exchange_depth, kMaxExchangePlies) : 0;
        n.range = whole_pawn_range(a.score.value());
        for (const cql::PieceDesignator& p : a.pieces) n.d.push_back(designator(p, t));
        break;
      }
      case Keyword::MaxSwapEvaluation: with_designators(Op::kMaxSwapEvaluation); n.range = range0(); break;
      // ---- engine evaluation (eval/analysis.h)
      case Keyword::Evaluation:
      case Keyword::MoveEvaluation: {
        std::vector<Designator> ds;
        for (const cql::PieceDesignator& p : std::get<cql::EvaluationArgs>(item.args).pieces)
          ds.push_back(designator(p, t));
        n = engine_node(item, k, std::move(ds), swap);
        break;
      }
      default: not_supported(item);
    }
    return n;
  }

  /// A text form of a variant's nodes: equal strings = identical transformed lists.
  std::string canonical(const std::vector<Node>& nodes) const {
    std::string s;
    for (const Node& n : nodes) {
      // a sequence's id differs per transformation; its elements and kind identify it
      int64_t value = n.op == Op::kSequence || n.op == Op::kLineTable ? int64_t(sequences_[size_t(n.value)]->kind) : n.value;
      // a relation's id differs per transformation too; only its allowable squares vary
      if (n.op == Op::kRelation) value = 0;
      s += std::to_string(int(n.op)) + (n.negate ? "!" : "") + ":" + std::to_string(value) + ":" +
           std::to_string(n.range.lo) + "," + std::to_string(n.range.hi) + ":";
      for (const Designator& d : n.d)
        s += std::to_string(d.pieces) + "/" + std::to_string(d.promoted) + "/" +
             std::to_string(d.not_promoted) + "@" + std::to_string(d.squares) + "$" +
             std::to_string(d.tag) + ";";
      for (const auto& l : n.lists) {
        s += "(";
        for (const auto& v : l->variants) s += "[" + canonical(v) + "]";
        s += l->negated ? ")!" : ")";
      }
      if (n.fen) s += n.fen->fen();
      if (n.op == Op::kRelation) s += "R" + std::to_string((*relations_)[size_t(n.value)]->allowable);
      if (n.pawn) s += n.pawn->swapped ? "~" : "=";
      if (n.line) s += n.line->canonical();
      for (const IntRange& r : n.ranges) s += "#" + std::to_string(r.lo) + "," + std::to_string(r.hi);
      s += '|';
    }
    return s;
  }

  bool& needs_game_info_;
  bool& needs_repetition_;
  std::vector<std::shared_ptr<const SequenceSpec>>& sequences_;  ///< ids in post-order
  std::vector<std::shared_ptr<const RelationSpec>>* relations_;  ///< null: :relation unsupported
  const std::vector<TagSpec>* tags_;                             ///< :forany tags (may be null)
  chess::Bitboard pattern_ = 0;  ///< top-level designator squares of the list being compiled
  const cql::List* cut_sub_list_ = nullptr;  ///< the argument of the :cut being compiled
  std::pair<const ResetPlan*, size_t> reset_{};  ///< the list's :reset plan, variant being compiled

 public:
  const AccumulatorNames* accumulator_names = nullptr;  ///< the script's accumulators
  size_t* accumulator_counters = nullptr;  ///< Program's counter count (:reset adds counters)
  /// Receives the lists with :accumulate (Alternative::accumulating); null: none expected.
  std::vector<std::shared_ptr<const PositionList>>* accumulating = nullptr;
  /// Receives the arguments of :cut / :exclude (Alternative::controls).
  std::vector<ControlArgument>* controls = nullptr;
};

/// True if `k` is one of the counting keywords that set a top-level list's MatchCount.
bool is_count_rule(Keyword k) {
  return k == Keyword::MatchCount || k == Keyword::PretransformMatchCount ||
         k == Keyword::RepetitionCount || k == Keyword::PretransformRepetitionCount;
}

/// The MatchCount rule of the position list `list`: from its `:matchcount` /
/// `:pretransformmatchcount` / `:repetitioncount` / `:pretransformrepetitioncount` items
/// (several are intersected; a nested list's rule becomes a line table, eval/match_count.h).
/// Throws CompileError for plain and pretransform kinds in one list, and for match counts
/// together with repetition counts.
MatchCount match_count_of(const cql::List& list) {
  MatchCount rule;
  std::set<const KeywordItem*> direct;
  bool plain = false, matches = false;
  for (const cql::Element& e : list.elements) {
    const auto* item = std::get_if<KeywordItem>(&e);
    if (!item || !is_count_rule(item->keyword)) continue;
    direct.insert(item);
    IntRange r = int_range(std::get<cql::CountArgs>(item->args).ranges.at(0), *item);
    bool first = direct.size() == 1;
    rule.lo = first ? r.lo : std::max(rule.lo, r.lo);
    rule.hi = first ? r.hi : std::min(rule.hi, r.hi);
    if (item->keyword == Keyword::PretransformMatchCount || item->keyword == Keyword::PretransformRepetitionCount)
      rule.pretransform = true;
    else
      plain = true;
    if (item->keyword == Keyword::RepetitionCount || item->keyword == Keyword::PretransformRepetitionCount)
      rule.consecutive = true;
    else
      matches = true;
    if (matches && rule.consecutive)
      throw CompileError(item->loc, "not yet supported: " + cql::keyword_spelling(item->keyword) +
                                        " together with a match count in one position list");
    if (plain && rule.pretransform)
      throw CompileError(item->loc, rule.consecutive
                                        ? ":repetitioncount and :pretransformrepetitioncount in one position list"
                                        : ":matchcount and :pretransformmatchcount in one position list");
  }
  return rule;
}

/// The lines the top-level position list `list` searches: `:variations` / `:variationsonly`
/// among its items (`:variationsonly` wins). Either one in a nested list widens the top-level
/// list to the main line and the variations (kAll); a nested `:variationsonly` list then
/// matches only inside variations (its Op::kInsideVariation node).
LineScope line_scope_of(const cql::List& list) {
  LineScope scope = LineScope::kMainLine;
  std::set<const KeywordItem*> direct;
  for (const cql::Element& e : list.elements) {
    const auto* item = std::get_if<KeywordItem>(&e);
    if (!item) continue;
    if (item->keyword == Keyword::VariationsOnly) scope = LineScope::kVariationsOnly;
    else if (item->keyword == Keyword::Variations && scope == LineScope::kMainLine) scope = LineScope::kAll;
    else continue;
    direct.insert(item);
  }
  // relation:variations / :variationsonly belong to their relation list (eval/relation.h)
  cql::walk(list, [&](const KeywordItem& item) {
    if (item.keyword == Keyword::Relation)
      for (const KeywordItem* k : std::get<cql::SubListArgs>(item.args).lists.at(0).keywords()) direct.insert(k);
  });
  cql::walk(list, [&](const KeywordItem& item) {
    if ((item.keyword == Keyword::Variations || item.keyword == Keyword::VariationsOnly) && !direct.count(&item) &&
        scope == LineScope::kMainLine)
      scope = LineScope::kAll;
  });
  return scope;
}

/// True if `k` reads the position after the next move (PosCtx::next_facts).
bool is_lookahead(Keyword k) {
  switch (k) {
    case Keyword::IsCheck: case Keyword::IsContactCheck: case Keyword::IsDoubleCheck:
    case Keyword::IsMate: case Keyword::IsStalemate:
      return true;
    default: return false;
  }
}

}  // namespace

Program Program::compile(const cql::Script& script) {
  Program program;
  const cql::List& match = script.match;
  bool either = false;
  for (const cql::Element& e : match.elements) {
    const auto* item = std::get_if<KeywordItem>(&e);
    if (!item) continue;
    if (item->keyword == Keyword::EitherColor) either = true;
    // Match-list keywords that are neither header conditions nor handled below.
    switch (item->keyword) {
      case Keyword::MatchCount: case Keyword::PretransformMatchCount:
      case Keyword::RepetitionCount: case Keyword::PretransformRepetitionCount:
      case Keyword::Sequence: case Keyword::GappedSequence: case Keyword::Relation:
      case Keyword::Accumulate: case Keyword::AccumulateStar: case Keyword::SumRange:
        throw CompileError(item->loc, "not yet supported: " + cql::keyword_spelling(item->keyword) + " in a match list");
      case Keyword::ForAny: {  // CQL-Tagging: at most two tags, bound per game (game_matcher)
        const auto& a = item->as<cql::NameArgs>();
        if (program.tags_.size() == 2) throw CompileError(item->loc, "at most two tags may be declared by match:forany");
        for (const TagSpec& tag : program.tags_)
          if (tag.name == a.name) throw CompileError(item->loc, "tag '" + a.name + "' is declared twice");
        if (!a.piece || !a.piece->tag.empty())
          throw CompileError(item->loc, "match:forany needs a piece designator");
        program.tags_.push_back(TagSpec{a.name, a.piece->pieces, a.piece->promoted, a.piece->not_promoted});
        break;
      }
      default: break;
    }
  }
  if (!program.tags_.empty()) {
    const KeywordItem* forany = match.find(Keyword::ForAny);
    if (either)
      throw CompileError(forany->loc, "not yet supported: match:forany together with match:eithercolor");
    cql::walk(match, [&](const KeywordItem& item) {
      if (item.keyword == Keyword::Relation)
        throw CompileError(item.loc, "tags (match:forany) may not be used together with position:relation");
    });
  }
  const AccumulatorNames accumulators = accumulator_names(match);
  check_resets(match);  // eval/accumulator.h
  // each colour alternative has counters of its own (per-ply counters, GameMatcher)
  program.accumulator_counters_ = accumulators.counters * (either ? 2 : 1);
  cql::walk(match, [&](const KeywordItem& item) {
    if (item.keyword == Keyword::Cut || item.keyword == Keyword::Exclude || item.keyword == Keyword::Skip)
      program.needs_control_ = true;
  });
  for (int flip = 0; flip <= (either ? 1 : 0); ++flip) {
    Alternative alt;
    alt.color_flipped = flip;
    alt.header = HeaderFilter::compile(match, flip);
    ListCompiler compiler(program.needs_game_info_, program.needs_repetition_, program.sequences_,
                          &program.relations_, &program.tags_);
    const AccumulatorNames alt_accumulators = accumulators.shifted(flip * accumulators.counters);
    compiler.accumulator_names = &alt_accumulators;
    compiler.accumulator_counters = &program.accumulator_counters_;
    compiler.accumulating = &alt.accumulating;
    compiler.controls = &alt.controls;
    Transform t = flip ? Transform::color_flip() : Transform();
    for (const cql::Element& e : match.elements) {
      if (const auto* box = std::get_if<cql::Box<cql::List>>(&e)) {
        const cql::List& list = **box;
        if (flip) {
          for (const cql::Element& inner : list.elements)
            if (const auto* item = std::get_if<KeywordItem>(&inner); item && item->keyword == Keyword::FlipColor)
              throw CompileError(item->loc, ":flipcolor is not allowed together with match:eithercolor");
        }
        alt.lists.push_back(compiler.compile(list, t, /*top=*/true));
        alt.counts.push_back(match_count_of(list));
        for (ControlArgument& arg : alt.controls)
          if (arg.top_list == SIZE_MAX) arg.top_list = alt.lists.size() - 1;
        // a control list (bare :cut / :exclude / :skip) asks nothing of the game by itself
        if ((alt.lists.back()->control || bare_control_in_sequence(list)) && !std::any_of(list.elements.begin(), list.elements.end(), [](const cql::Element& el) {
              const auto* item = std::get_if<KeywordItem>(&el);
              return item && is_count_rule(item->keyword);
            }))
          alt.counts.back().lo = 0;
        alt.scopes.push_back(line_scope_of(list));
        if (alt.scopes.back() != LineScope::kMainLine) program.needs_variations_ = true;
        if (alt.scopes.back() != LineScope::kMainLine && !program.tags_.empty())
          throw CompileError(list.loc, "not yet supported: tags (match:forany) in a list that searches variations");
        cql::walk(list, [&](const KeywordItem& item) {
          const cql::KeywordInfo& info = item.info();
          Keyword k = info.same_as ? *info.same_as : info.negation_of ? *info.negation_of : item.keyword;
          if (is_lookahead(k)) program.needs_lookahead_ = true;
          if (k == Keyword::Line || k == Keyword::LineStar) program.needs_line_moves_ = true;
        });
      }
    }
    program.alternatives_.push_back(std::move(alt));
  }
  for (const auto& r : program.relations_)
    if (r->scope != LineScope::kMainLine) program.needs_relation_variations_ = true;
  check_line_counters(program.sequences_, program.alternatives_, match);  // eval/accumulator.h
  program.negated_ = match.negated;
  return program;
}

}  // namespace eval
