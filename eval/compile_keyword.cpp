// ListCompiler::keyword_node: one keyword item of a position list -> a compiled Node
// (eval/node.h), the keyword semantics of seeds 000/001/004 and the reference pages; the
// decisions are in SPEC-NOTES.md. keyword_node asks each family's compiler in turn; each
// is one switch over the keywords of its family.
#include "eval/list_compiler.h"

namespace eval::compile_detail {

const std::vector<cql::PieceDesignator>& KeywordSite::pieces() const {
  static const std::vector<cql::PieceDesignator> kNone;  // aliases like :nocheck take none
  if (auto* a = std::get_if<cql::DesignatorArgs>(&item.args)) return a->pieces;
  if (auto* a = std::get_if<cql::CountArgs>(&item.args)) return a->pieces;
  return kNone;
}

IntRange KeywordSite::range0() const {
  return int_range(std::get<cql::CountArgs>(item.args).ranges.at(0), item);
}

void ListCompiler::with_designators(const KeywordSite& s, Node& n, Op op) {
  n.op = op;
  for (const cql::PieceDesignator& p : s.pieces()) n.d.push_back(designator(p, s.t));
}

void ListCompiler::sub_lists(const KeywordSite& s, Node& n, Op op) {
  n.op = op;
  for (const cql::List& l : std::get<cql::SubListArgs>(s.item.args).lists) n.lists.push_back(compile(l, s.t));
}

Node ListCompiler::keyword_node(const KeywordItem& item, Keyword k, const Transform& t) {
  Node n;
  if (transform_keyword(k)) return n;  // handled by compile(): kTrue, dropped
  // One family's compiler per group of the keyword table (cql/keyword_help.h families); a
  // new keyword is one case in its family's switch.
  const KeywordSite site{item, k, t, t.swaps_colors()};
  const bool compiled = logic_node(site, n) || position_node(site, n) || piece_node(site, n) ||
                        move_node(site, n) || game_node(site, n) || line_node(site, n) ||
                        evaluation_node(site, n);
  if (!compiled) not_supported(item);
  // the cost class is the keyword table's column (cql/keywords.h), but a node that became a
  // constant costs nothing, and :check with a designator looks for the checking pieces
  n.cost = n.op == Op::kTrue || n.op == Op::kFalse ? Cost::kCheap
           : n.op == Op::kCheck && !n.d.empty()    ? Cost::kExpensive
                                                   : cql::keyword_info(k).cost;
  return n;
}

/// The logic of sub-lists: :and, :or, :xor, :cond, :not.
bool ListCompiler::logic_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  switch (s.k) {
    // ---- logic
    case Keyword::And: sub_lists(s, n, Op::kAnd); return true;
    case Keyword::Or: sub_lists(s, n, Op::kOr); return true;
    case Keyword::Xor: sub_lists(s, n, Op::kXor); return true;
    case Keyword::Cond: sub_lists(s, n, Op::kCond); return true;
    case Keyword::Not: {
      const auto& lists = std::get<cql::SubListArgs>(item.args).lists;
      if (lists.empty()) return true;  // bare :not is List::negated
      sub_lists(s, n, Op::kList);
      n.negate = true;
      return true;
    }
    default: return false;
  }
}

/// The keywords of one position: check, mate, side to move, clocks, repetitions, the
/// variant-only keywords and the CQL 1.0 options without effect.
bool ListCompiler::position_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Keyword k = s.k;
  const Transform& t = s.t;
  const bool swap = s.swap;
  switch (s.k) {
    // ---- simple position keywords
    case Keyword::Mate: n.op = Op::kMate; return true;
    case Keyword::Stalemate: n.op = Op::kStalemate; return true;
    case Keyword::Check: with_designators(s, n, Op::kCheck); return true;
    case Keyword::DoubleCheck: with_designators(s, n, Op::kDoubleCheck); return true;
    case Keyword::ContactCheck: with_designators(s, n, Op::kContactCheck); return true;
    case Keyword::Wtm: n.op = swap ? Op::kBtm : Op::kWtm; return true;
    case Keyword::Btm: n.op = swap ? Op::kWtm : Op::kBtm; return true;
    case Keyword::Initial: n.op = Op::kInitial; return true;
    case Keyword::Terminal: n.op = Op::kTerminal; return true;
    case Keyword::Castling:
      n.op = Op::kCastling;
      n.set(payload::Castling{uint8_t(castling_rights_of(t.apply(s.pieces().at(0).pieces)))});
      return true;
    case Keyword::Endgame: n.op = Op::kEndgame; return true;
    case Keyword::Fen: {
      auto pos = std::make_shared<chess::Position>();
      chess::FenError err = pos->set_fen(std::get<cql::FenArgs>(item.args).fen);
      if (!err.ok()) throw CompileError(item.loc, "invalid FEN for :fen: " + err.message);
      n.op = Op::kFen;
      n.set(payload::FenPosition{pos});
      return true;
    }
    case Keyword::GameIsOver: n.op = Op::kGameIsOver; return true;
    case Keyword::MatingMaterial: n.op = Op::kMatingMaterial; return true;
    case Keyword::WhiteCannotWin:
    case Keyword::BlackCannotWin:
      n.op = Op::kCannotWin;
      n.set(payload::Side{(k == Keyword::WhiteCannotWin) != swap ? chess::WHITE : chess::BLACK});
      return true;
    case Keyword::HalfmoveClock: n.op = Op::kHalfmoveClock; n.range = s.range0(); return true;
    case Keyword::HalfmoveClockLimit: {
      IntRange r = s.range0();
      n.op = Op::kHalfmoveClockLimit;
      n.set(payload::ClockLimit{r.hi != INT64_MAX ? r.hi : r.lo});
      return true;
    }
    case Keyword::FiftyMoveRule: n.op = Op::kFiftyMoveRule; return true;
    case Keyword::ThreefoldRepetition:
    case Keyword::FivefoldRepetition:
      n.op = Op::kRepetition;
      n.set(payload::Occurrences{k == Keyword::ThreefoldRepetition ? 3u : 5u});
      needs_repetition_ = true;
      return true;
    // ---- variant-only keywords: never satisfied in standard chess (SPEC Variants)
    case Keyword::KingOnTheHill: case Keyword::Losing: case Keyword::MustCapture:
    case Keyword::ThreeChecks: case Keyword::PieceDrop:
      n.op = Op::kFalse;
      return true;
    // ---- CQL 1.0 output options without effect
    case Keyword::MarkAll: case Keyword::NoAnnotate: return true;
    default: return false;
  }
}

/// Piece configuration, pawn and piece structure.
bool ListCompiler::piece_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Keyword k = s.k;
  const Transform& t = s.t;
  const bool swap = s.swap;
  switch (s.k) {
    // ---- piece configuration
    case Keyword::PieceCount: with_designators(s, n, Op::kPieceCount); n.range = s.range0(); return true;
    case Keyword::Power: with_designators(s, n, Op::kPower); n.range = s.range0(); return true;
    case Keyword::PowerDifference:
    case Keyword::PieceCountDifference:
      with_designators(s, n, k == Keyword::PowerDifference ? Op::kPowerDifference
                                                     : Op::kPieceCountDifference);
      n.range = s.range0();
      n.set(payload::ColorsSwapped{n.d.size() == 1 && swap});
      return true;
    case Keyword::AttackCount: with_designators(s, n, Op::kAttackCount); n.range = s.range0(); return true;
    case Keyword::Ray: case Keyword::RayAttack: case Keyword::RayDiagonal:
    case Keyword::RayOrthogonal: case Keyword::RayHorizontal: case Keyword::RayVertical: {
      const auto& ray = std::get<cql::RayArgs>(item.args);
      n.op = Op::kRay;
      for (const cql::PieceDesignator& p : ray.ray) n.d.push_back(designator(p, t));
      if (ray.range) n.range = int_range(*ray.range, item);
      else n.range.lo = 1;
      n.set(payload::RayKind{uint8_t(k == Keyword::Ray ? 0 : k == Keyword::RayAttack ? 1
                                     : k == Keyword::RayDiagonal ? 2 : k == Keyword::RayOrthogonal ? 3
                                     : k == Keyword::RayHorizontal ? 4 : 5)});
      return true;
    }
    case Keyword::Inside: {
      const auto& a = std::get<cql::DesignatorArgs>(item.args);
      n.op = Op::kInside;
      n.d.push_back(designator(a.pieces.at(0), t));
      n.d[0].squares &= a.region ? a.region->squares : ~chess::Bitboard(0);  // region not transformed
      return true;
    }
    // ---- pawn and piece structure (eval/pawn_structure.h, eval/piece_structure.h)
    case Keyword::PawnCount:
    case Keyword::PawnCountDifference: {
      const auto& a = std::get<cql::PawnCountArgs>(item.args);
      const bool difference = k == Keyword::PawnCountDifference;
      if (auto conflict = pawn_attributes_conflict(a.attributes)) throw CompileError(item.loc, *conflict);
      n.op = difference ? Op::kPawnCountDifference : Op::kPawnCount;
      for (const cql::PieceDesignator& p : a.pieces) n.d.push_back(designator(p, t));
      if (n.d.empty()) n.d.push_back(Designator{cql::piece_mask::kWhitePawn | cql::piece_mask::kBlackPawn});
      n.set(payload::PawnSpec{std::make_shared<const PawnCountSpec>(make_pawn_count_spec(a, difference, swap))});
      if (difference) n.range = int_range(a.ranges.at(0), item);
      return true;
    }
    case Keyword::GoodBishop: {
      with_designators(s, n, Op::kGoodBishop);
      auto spec = std::make_shared<PawnCountSpec>();
      spec->ranges = std::get<cql::CountArgs>(item.args).ranges;
      n.set(payload::PawnSpec{spec});
      return true;
    }
    case Keyword::Opposition: with_designators(s, n, Op::kOpposition); return true;
    case Keyword::Perpendicular: with_designators(s, n, Op::kPerpendicular); return true;
    case Keyword::PassedPawnRace: with_designators(s, n, Op::kPassedPawnRace); return true;
    case Keyword::UnstoppablePawns: {
      with_designators(s, n, Op::kUnstoppablePawns);
      auto spec = std::make_shared<PawnCountSpec>();
      spec->ranges = std::get<cql::CountArgs>(item.args).ranges;
      if (swap && spec->ranges.size() == 2) std::swap(spec->ranges[0], spec->ranges[1]);
      spec->swapped = swap;
      n.set(payload::PawnSpec{spec});
      return true;
    }
    default: return false;
  }
}

/// The next move and the position after it (lookahead).
bool ListCompiler::move_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Transform& t = s.t;
  switch (s.k) {
    // ---- the next move
    case Keyword::MoveFrom: with_designators(s, n, Op::kMoveFrom); return true;
    case Keyword::MoveTo: with_designators(s, n, Op::kMoveTo); return true;
    case Keyword::Promote:
      with_designators(s, n, Op::kPromote);
      if (n.d[0].pieces == 0) n.op = Op::kNoPromotion;  // `:promote []`: not a promotion
      return true;
    case Keyword::EnPassant: n.op = Op::kEnPassant; return true;
    case Keyword::IsCastling: {
      n.op = Op::kIsCastling;
      const auto& ps = s.pieces();
      n.set(payload::Castling{uint8_t(ps.empty() ? chess::ANY_CASTLING : castling_rights_of(t.apply(ps[0].pieces)))});
      return true;
    }
    case Keyword::MoveNumber: n.op = Op::kMoveNumber; n.range = s.range0(); return true;
    case Keyword::HalfmoveNumber: n.op = Op::kHalfmoveNumber; n.range = s.range0(); return true;
    // ---- lookahead: the position after the next move (eval/lookahead.h)
    case Keyword::IsCheck: {
      const auto& ranges = std::get<cql::CountArgs>(item.args).ranges;
      n.op = ranges.empty() ? Op::kNextFact : Op::kIsCheckCount;
      if (ranges.empty()) n.set(payload::NextFacts{next_fact::kCheck});
      else n.range = s.range0();
      return true;
    }
    case Keyword::IsContactCheck: n.op = Op::kNextFact; n.set(payload::NextFacts{next_fact::kContactCheck}); return true;
    case Keyword::IsDoubleCheck: n.op = Op::kNextFact; n.set(payload::NextFacts{next_fact::kDoubleCheck}); return true;
    case Keyword::IsMate: n.op = Op::kNextFact; n.set(payload::NextFacts{next_fact::kMate}); return true;
    case Keyword::IsStalemate: n.op = Op::kNextFact; n.set(payload::NextFacts{next_fact::kStalemate}); return true;
    case Keyword::IsNull: n.op = Op::kIsNull; return true;
    case Keyword::Forced: n.op = Op::kForced; return true;
    // Stored moves are legal and valid (the importer and GameMatcher check every one), and
    // the Antichess-only keywords never hold in standard chess (SPEC Variants).
    case Keyword::IsIllegal: case Keyword::IsInvalid:
    case Keyword::CaptureForced: case Keyword::TakesLastPiece:
      n.op = Op::kFalse;
      return true;
    default: return false;
  }
}

/// Game information (result, ratings) and the game keywords (start position, variant).
bool ListCompiler::game_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Keyword k = s.k;
  const bool swap = s.swap;
  switch (s.k) {
    // ---- game information
    case Keyword::Result: {
      n.op = Op::kResult;
      uint8_t& codes = n.set(payload::ResultSet{}).codes;
      for (cql::GameResult r : std::get<cql::ResultArgs>(item.args).values) {
        db::ResultCode code = db::ResultCode::kUnknown;
        switch (r) {
          case cql::GameResult::WhiteWins: code = swap ? db::ResultCode::kBlackWins : db::ResultCode::kWhiteWins; break;
          case cql::GameResult::BlackWins: code = swap ? db::ResultCode::kWhiteWins : db::ResultCode::kBlackWins; break;
          case cql::GameResult::Draw: code = db::ResultCode::kDraw; break;
          case cql::GameResult::Unknown: code = db::ResultCode::kUnknown; break;
          case cql::GameResult::BothLose: continue;  // never stored
        }
        codes |= uint8_t(1u << int(code));
      }
      needs_game_info_ = true;
      return true;
    }
    case Keyword::Elo: n.op = Op::kElo; n.range = s.range0(); needs_game_info_ = true; return true;
    case Keyword::WhiteElo:
    case Keyword::BlackElo:
      n.op = (k == Keyword::WhiteElo) != swap ? Op::kWhiteElo : Op::kBlackElo;
      n.range = s.range0();
      needs_game_info_ = true;
      return true;
    case Keyword::WhiteRating:
    case Keyword::BlackRating: {
      // The database keeps Elo ratings only: another rating system counts as missing (0),
      // so only its `-` range matches (SPEC-NOTES Header conditions).
      const auto& a = std::get<cql::RatingArgs>(item.args);
      n.op = (k == Keyword::WhiteRating) != swap ? Op::kWhiteElo : Op::kBlackElo;
      n.range = int_range(a.range, item);
      if (a.system != cql::RatingSystem::Elo) {
        n.op = n.range.contains(0) ? Op::kTrue : Op::kFalse;
        return true;
      }
      needs_game_info_ = true;
      return true;
    }
    // :ispromotedpiece (seed 000 index): the next move is made by a promoted piece,
    // i.e. :movefrom U~
    case Keyword::IsPromotedPiece: {
      Designator d;
      d.pieces = d.promoted = cql::piece_mask::kAnyPiece;
      n.op = Op::kMoveFrom;
      n.d.push_back(d);
      return true;
    }
    // ---- game keywords (eval/start_position.h)
    case Keyword::IsChess960:
    case Keyword::IsShuffleChess:
    case Keyword::StartPosition:
    case Keyword::Variant: n = game_keyword_node(item, k); return true;
    default: return false;
  }
}

/// What spans positions: sequences, relations, tags, counting, control, accumulators and
/// move lines.
bool ListCompiler::line_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Keyword k = s.k;
  const Transform& t = s.t;
  const bool swap = s.swap;
  switch (s.k) {
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
      n.set(payload::SequenceId{uint32_t(sequences_.size())});
      n.range.lo = n.range.hi = int64_t(spec->kind);  // for the planner (planner/condition.cpp)
      n.lists = spec->elements;
      sequences_.push_back(std::move(spec));
      return true;
    }
    // ---- relation (eval/relation.h) and tags (CQL-Tagging)
    case Keyword::Relation: {
      if (!relations_) not_supported(item);
      n.op = Op::kRelation;
      n.set(payload::RelationId{uint32_t(relations_->size())});
      relations_->push_back(std::make_shared<const RelationSpec>(compile_relation(
          std::get<cql::SubListArgs>(item.args).lists.at(0), pattern_, int_range)));
      return true;
    }
    case Keyword::TagMatch: {
      const auto& a = std::get<cql::NameArgs>(item.args);
      n.op = Op::kTagMatch;
      n.set(payload::TagNumber{uint8_t(tag_number(a.name, item.loc))});
      if (!a.piece) throw CompileError(item.loc, ":tagmatch needs a piece designator");
      if (!a.piece->tag.empty()) throw CompileError(a.piece->loc, ":tagmatch takes a piece designator, not a tag");
      n.d.push_back(designator(*a.piece, t));
      return true;
    }
    // ---- counting
    case Keyword::CheckCount: {
      const auto& a = std::get<cql::CountArgs>(item.args);
      std::vector<IntRange> ranges;
      for (const cql::Range& r : a.ranges) ranges.push_back(int_range(r, item));
      n = check_count_node(ranges, a.plus_form, swap);
      return true;
    }
    case Keyword::MatchCount: case Keyword::PretransformMatchCount:
    case Keyword::RepetitionCount: case Keyword::PretransformRepetitionCount:
    case Keyword::Variations:
      return true;  // rules of the top-level list (Program::compile), not nodes
    // :variationsonly also restricts its own list to positions inside variations (the
    // top-level list's scope already does that; a nested list needs the node)
    case Keyword::VariationsOnly: n.op = Op::kInsideVariation; return true;
    case Keyword::InsideVariation: n.op = Op::kInsideVariation; return true;
    // ---- control (eval/control.h); the bare forms are PositionList::control (compile())
    case Keyword::Cut:
    case Keyword::Exclude: {
      const auto& lists = std::get<cql::SubListArgs>(item.args).lists;
      if (lists.empty()) return true;
      const cql::List& sub = lists[0];
      const cql::List* outer_cut = cut_sub_list_;
      if (k == Keyword::Cut) cut_sub_list_ = &sub;
      n.op = Op::kControl;  // evaluated on its own at every position (Alternative::controls)
      n.lists.push_back(compile(sub, t));
      cut_sub_list_ = outer_cut;
      const uint8_t bits = k == Keyword::Exclude ? control::kExclude
                           : sub.find(Keyword::Preceding) ? control::kCutPreceding
                                                          : control::kCut;
      n.set(payload::ControlBits{bits});
      if (!controls) not_supported(item);
      controls->push_back(ControlArgument{n.lists[0], bits, SIZE_MAX});
      return true;
    }
    case Keyword::Skip: case Keyword::Reset:  // Reset: ResetPlan in compile()
    case Keyword::EndMost: case Keyword::Following: case Keyword::Preceding:
      return true;  // list rules: compile() (control bits) and wrap_line_rules (eval/match_count.h)
    // ---- accumulators (eval/accumulator.h)
    case Keyword::Accumulate:
    case Keyword::AccumulateStar:
    case Keyword::SumRange: {
      const auto& a = std::get<cql::NameArgs>(item.args);
      const AccumulatorNames::Entry* entry = accumulator_names ? accumulator_names->find(a.name) : nullptr;
      if (!entry) throw CompileError(item.loc, "accumulator '" + a.name + "' is never accumulated (:accumulate)");
      uint32_t& counter = n.set(payload::Counter{uint32_t(entry->index + (entry->star && swap ? 1 : 0))}).index;
      if (auto group = reset_.first ? reset_.first->counter(a.name, reset_.second, swap) : std::nullopt)
        counter = uint32_t(*group);
      if (k == Keyword::SumRange) {
        n.op = Op::kSumRange;
        if (!a.range) throw CompileError(item.loc, ":sumrange needs a range");
        n.range = int_range(*a.range, item);
      } else {
        n.op = Op::kAccumulate;
      }
      return true;
    }
    // ---- move lines (eval/line.h); a line that can never match (a drop, a designator
    // shifted off the board) drops this transformation of the list
    case Keyword::Line:
    case Keyword::LineStar: {
      const payload::Line& line = n.set(payload::Line{compile_line(std::get<cql::LineArgs>(item.args), t, item.loc)});
      n.op = Op::kLine;
      for (const LineMoveSpec& m : line.spec->moves)
        if (m.kind == LineMoveSpec::Kind::kNever) n.op = Op::kFalse;
      return true;
    }
    default: return false;
  }
}

/// Evaluations: tablebases, static exchange, engine.
bool ListCompiler::evaluation_node(const KeywordSite& s, Node& n) {
  const KeywordItem& item = s.item;
  const Keyword k = s.k;
  const Transform& t = s.t;
  const bool swap = s.swap;
  switch (s.k) {
    // ---- tablebases (analysis/tablebase.h)
    case Keyword::EndgameEvaluation:
    case Keyword::EndgameEvaluationStar: n = endgame_node(item, k, swap); return true;
    // ---- static exchange evaluation (eval/exchange.h); values are the mover's, so a
    // colour flip changes only the designators
    case Keyword::ExchangeEvaluation: {
      const auto& a = std::get<cql::EvaluationArgs>(item.args);
      if (a.exchange_depth && *a.exchange_depth < 1)
        throw CompileError(item.loc, ":exchangeevaluation: the depth counts plies and must be at least 1 (or *)");
      n.op = Op::kExchangeEvaluation;
      n.set(payload::ExchangeDepth{a.exchange_depth ? int(std::min<int64_t>(*a.exchange_depth, kMaxExchangePlies)) : 0});
      n.range = whole_pawn_range(a.score.value());
      for (const cql::PieceDesignator& p : a.pieces) n.d.push_back(designator(p, t));
      return true;
    }
    case Keyword::MaxSwapEvaluation: with_designators(s, n, Op::kMaxSwapEvaluation); n.range = s.range0(); return true;
    // ---- engine evaluation (eval/analysis_keywords.h)
    case Keyword::Evaluation:
    case Keyword::MoveEvaluation: {
      std::vector<Designator> ds;
      for (const cql::PieceDesignator& p : std::get<cql::EvaluationArgs>(item.args).pieces)
        ds.push_back(designator(p, t));
      n = engine_node(item, k, std::move(ds), swap);
      return true;
    }
    default: return false;
  }
}

}  // namespace eval::compile_detail
