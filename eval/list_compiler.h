// ListCompiler: compiles the position lists of a script under a transformation (stage 4,
// eval::Program::compile). Internal to eval/compile.cpp (Program::compile, the top-level list
// rules) and eval/compile_keyword.cpp (one keyword item -> Node); not part of the eval API.
#pragma once

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include "db/game_header.h"
#include "eval/analysis_keywords.h"
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
#include "analysis/tablebase.h"
#include "eval/analysis_keywords.h"
#include "eval/transform.h"

namespace eval::compile_detail {

using cql::Keyword;
using cql::KeywordItem;

/// Throws CompileError("not yet supported: :kw") at `item`.
[[noreturn]] void not_supported(const KeywordItem& item);

/// The transformation keyword of `k`, if it is one (`:inside` is not: it filters shifts).
std::optional<TransformKeyword> transform_keyword(Keyword k);
/// Resolves a range written in the script to inclusive integer bounds.
IntRange int_range(const cql::Range& r, const KeywordItem& item);
/// :endgameevaluation / :endgameevaluation* (seed 000; analysis/tablebase.h). The tables are
/// opened by the first probe, not here. Throws CompileError for a
/// distance to mate given with `remis`, and for `end` in the distance.
Node endgame_node(const KeywordItem& item, Keyword k, bool swap);
/// A pawn-unit score range (cql::ScoreRange) as inclusive integer bounds, for values that
/// are whole pawn units (exchange values): `>-0.5` = `>=0`, `<3` = `<=2`. Empty when no
/// integer fits (then nothing matches).
IntRange whole_pawn_range(const cql::ScoreRange& r);
/// Castling letters K Q k q of a designator -> CastlingRight bits.
int castling_rights_of(cql::PieceMask mask);

/// The MatchCount rule of a position list (eval/compile.cpp).
MatchCount match_count_of(const cql::List& list);

/// Compiles position lists under a transformation.
/// One keyword item being compiled under a transformation: what each family's compiler
/// (ListCompiler::logic_node ... evaluation_node, eval/compile_keyword.cpp) reads.
struct KeywordSite {
  const KeywordItem& item;
  Keyword k;           ///< the keyword, after aliases and negations are resolved
  const Transform& t;  ///< the transformation of the list variant being compiled
  bool swap;           ///< t swaps the colours
  /// The piece designator arguments (none for aliases like :nocheck).
  const std::vector<cql::PieceDesignator>& pieces() const;
  /// The first range argument (CountArgs); CompileError when it is out of bounds.
  IntRange range0() const;
};

class ListCompiler {
 public:
  /// At most this many transformed list variants are compiled for one script, nested lists
  /// included (each variant of an outer list compiles every variant of its inner lists);
  /// beyond it compile() throws a located CompileError (issue 14: no script may make
  /// compilation run for minutes).
  static constexpr size_t kMaxCompiledVariants = 600'000;

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
    if (keywords.size() > kMaxTransformKeywords)
      throw CompileError(list.loc, "too many transformation keywords in one position list (" +
                                       std::to_string(keywords.size()) + "; at most " +
                                       std::to_string(kMaxTransformKeywords) + ")");
    std::optional<ResetPlan> plan_storage;
    try {
      plan_storage.emplace(list, keywords, accumulator_names ? *accumulator_names : kNoNames,
                           accumulator_counters ? *accumulator_counters : no_counters);  // :reset groups
    } catch (const TransformLimitError& e) {
      throw CompileError(list.loc, e.what());
    }
    const ResetPlan& plan = *plan_storage;
    const auto outer_reset = reset_;
    for (size_t ti = 0; ti < plan.transforms().size(); ++ti) {
      if (++variants_compiled_ > kMaxCompiledVariants)
        throw CompileError(list.loc, "the transformations of nested position lists give more than " +
                                         std::to_string(kMaxCompiledVariants) +
                                         " list variants to compile; use fewer transformation keywords");
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
      order_by_cost(nodes);  // cheap tests first when the order cannot matter
      std::string key = canonical(nodes);
      if (!seen.insert(key).second) continue;
      out->variants.push_back(std::move(nodes));
    }
    out->index.build(out->variants);
    out->memo.build(out->variants);
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
      n.cost = n.op == Op::kDesignator ? Cost::kMedium : Cost::kCheap;
      return n;
    }
    if (auto* item = std::get_if<KeywordItem>(&e)) return keyword(*item, t);
    const cql::List& sub = **std::get_if<cql::Box<cql::List>>(&e);
    Node n;
    n.op = Op::kList;
    n.cost = Cost::kOrdered;
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

  /// Compiles one keyword item (after aliases and negations are resolved) under `t`;
  /// defined in eval/compile_keyword.cpp. Throws CompileError.
  Node keyword_node(const KeywordItem& item, Keyword k, const Transform& t);
  // The family compilers of keyword_node (eval/compile_keyword.cpp): each sets `n` and
  // returns true for a keyword of its family, false for any other. Throw CompileError.
  bool logic_node(const KeywordSite& s, Node& n);
  bool position_node(const KeywordSite& s, Node& n);
  bool piece_node(const KeywordSite& s, Node& n);
  bool move_node(const KeywordSite& s, Node& n);
  bool game_node(const KeywordSite& s, Node& n);
  bool line_node(const KeywordSite& s, Node& n);
  bool evaluation_node(const KeywordSite& s, Node& n);
  /// n.op = op, with the site's piece designators under its transformation.
  void with_designators(const KeywordSite& s, Node& n, Op op);
  /// n.op = op, with the site's sub-lists compiled under its transformation.
  void sub_lists(const KeywordSite& s, Node& n, Op op);

  /// A text form of a variant's nodes: equal strings = identical transformed lists.
  std::string canonical(const std::vector<Node>& nodes) const {
    std::string s;
    for (const Node& n : nodes) {
      // a sequence's id differs per transformation; its elements and kind identify it
      std::string data = n.op == Op::kSequence || n.op == Op::kLineTable
                                ? "q" + std::to_string(int(sequences_[n.as<payload::SequenceId>().id]->kind))
                                : payload_key(n.payload);
      // a relation's id differs per transformation too; only its allowable squares vary
      if (n.op == Op::kRelation)
        data = "R" + std::to_string((*relations_)[n.as<payload::RelationId>().id]->allowable);
      s += std::to_string(int(n.op)) + (n.negate ? "!" : "") + ":" + data + ":" +
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
      s += '|';
    }
    return s;
  }

  bool& needs_game_info_;
  bool& needs_repetition_;
  std::vector<std::shared_ptr<const SequenceSpec>>& sequences_;  ///< ids in post-order
  std::vector<std::shared_ptr<const RelationSpec>>* relations_;  ///< null: :relation unsupported
  size_t variants_compiled_ = 0;  ///< transformed list variants compiled so far (kMaxCompiledVariants)
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

}  // namespace eval::compile_detail
