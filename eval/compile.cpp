// Program::compile: the typed AST (cql/ast.h) -> position-list nodes (eval/node.h) and header
// filters (headers/header_filter.h). Transformations (seed 003, SPEC) are applied here, once:
// every designator of a list is compiled once per distinct transformation of the list.
// The list compiler itself is eval/list_compiler.h, its keyword cases eval/compile_keyword.cpp.
#include "eval/list_compiler.h"

namespace eval {

namespace compile_detail {

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

/// :endgameevaluation / :endgameevaluation* (seed 000; analysis/tablebase.h). The tables are
/// opened by the first probe, not here. Throws CompileError for a
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
  Node n;
  n.op = Op::kEndgameEvaluation;
  payload::TablebaseProbe& probe = n.set(payload::TablebaseProbe{});
  probe.outcome = uint8_t(outcome);
  probe.star = k == Keyword::EndgameEvaluationStar;
  if (a.plies) n.range = int_range(*a.plies, item);
  probe.table_pieces.lo = 2;
  // The largest table by file name (no library call); none found: any Gaviota size, so that
  // the first probe reports the missing tables.
  const int by_files = analysis::tablebase::max_pieces_by_files();
  probe.table_pieces.hi = by_files > 0 ? by_files : analysis::tablebase::kGaviotaMaxPieces;
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

}  // namespace compile_detail

namespace compile_detail {


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

}  // namespace compile_detail

using namespace compile_detail;

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
    alt.header = headers::HeaderFilter::compile(match, flip);
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
        // a list with a bare :exclude / :skip asks nothing of the game by itself; a bare :cut
        // never exempts its list (SPEC "Game traversal": its other filters decide)
        constexpr uint8_t kExempt = control::kExclude | control::kSkip;
        if (((alt.lists.back()->control & kExempt) || bare_control_in_sequence(list)) && !std::any_of(list.elements.begin(), list.elements.end(), [](const cql::Element& el) {
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
          if (cql::keyword_info(k).lookahead) program.needs_lookahead_ = true;  // table column
          if (k == Keyword::CheckCount || k == Keyword::IsCheck)
            program.needs_check_counts_ = true;
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
