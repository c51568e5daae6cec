#include "eval/control.h"

#include <algorithm>

#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/sequence.h"

namespace eval {

void ControlState::start_game(size_t alternatives) {
  stopped_.assign(alternatives, 0);
  excluded_.assign(alternatives, 0);
  flags = {};
}

void ControlState::start_line(const CountRefs& counts) {
  std::fill(stopped_.begin(), stopped_.end(), 0);
  line_count_.assign(counts.list_count.begin(), counts.list_count.end());
  line_variant_count_.resize(counts.variant_count.size());
  for (size_t i = 0; i < counts.variant_count.size(); ++i)
    line_variant_count_[i].assign(counts.variant_count[i].begin(), counts.variant_count[i].end());
}

void ControlState::begin_position(size_t a, const CountRefs& counts) {
  const size_t n = counts.lists_per_alternative, first = a * n;
  saved_count_.assign(counts.list_count.begin() + std::ptrdiff_t(first),
                      counts.list_count.begin() + std::ptrdiff_t(first + n));
  saved_run_.assign(counts.list_run.begin() + std::ptrdiff_t(first),
                    counts.list_run.begin() + std::ptrdiff_t(first + n));
  saved_variant_count_.resize(n);
  saved_variant_run_.resize(n);
  for (size_t i = 0; i < n; ++i) {
    saved_variant_count_[i].assign(counts.variant_count[first + i].begin(), counts.variant_count[first + i].end());
    saved_variant_run_[i].assign(counts.variant_run[first + i].begin(), counts.variant_run[first + i].end());
  }
  flags.bits = 0;
  flags.armed = true;
}

void ControlState::restore_position(size_t a, CountRefs& counts) const {
  const size_t n = counts.lists_per_alternative, first = a * n;
  for (size_t i = 0; i < n; ++i) {
    counts.list_count[first + i] = saved_count_[i];
    counts.list_run[first + i] = 0;  // the position does not match: runs end here
    counts.variant_count[first + i] = saved_variant_count_[i];
    std::fill(counts.variant_run[first + i].begin(), counts.variant_run[first + i].end(), 0);
  }
}

void ControlState::end_position(size_t a, const PosCtx& at, CountRefs& counts) {
  flags.armed = false;
  const uint8_t bits = flags.bits;
  if (!bits) return;
  if (bits & control::kExclude) {
    stopped_[a] = 1;
    if (!at.inside_variation) {
      excluded_[a] = 1;
      return;
    }
    const size_t n = counts.lists_per_alternative, first = a * n;  // undo the whole line
    for (size_t i = first; i < first + n; ++i) {
      counts.list_count[i] = line_count_[i];
      counts.variant_count[i] = line_variant_count_[i];
    }
    const auto row = counts.variation_hit.begin() + std::ptrdiff_t(a * counts.variation_plies);
    std::fill(row, row + std::ptrdiff_t(counts.variation_plies), 0);
    return;
  }
  if (bits & (control::kSkip | control::kCutPreceding)) {
    restore_position(a, counts);
    if (!at.inside_variation) counts.ply_hit[a * counts.plies + at.ply] = 0;
    else counts.variation_hit[a * counts.variation_plies + (at.ply - at.line_first_ply)] = 0;
  }
  if (bits & (control::kCut | control::kCutPreceding)) stopped_[a] = 1;
}


namespace {

bool is_sequence_keyword(cql::Keyword k) {
  return k == cql::Keyword::Sequence || k == cql::Keyword::GappedSequence || k == cql::Keyword::Match ||
         k == cql::Keyword::MatchConsecutive;
}

/// The first bare :cut / :exclude / :skip item of `list` itself, or null; `with_cut` false:
/// a bare :exclude / :skip only.
const cql::KeywordItem* bare_control(const cql::List& list, bool with_cut = true) {
  for (const cql::KeywordItem* item : list.keywords()) {
    if (item->keyword == cql::Keyword::Skip) return item;
    if (((with_cut && item->keyword == cql::Keyword::Cut) || item->keyword == cql::Keyword::Exclude) &&
        std::get<cql::SubListArgs>(item->args).lists.empty())
      return item;
  }
  return nullptr;
}

/// Calls `f(sub, in_sequence)` for every list directly nested in `list` (boxed lists and
/// keyword arguments); `in_sequence`: `sub` is an element of a sequence keyword.
template <class F>
void for_each_child(const cql::List& list, F&& f) {
  for (const cql::Element& e : list.elements) {
    if (const auto* sub = std::get_if<cql::Box<cql::List>>(&e)) {
      f(**sub, false);
    } else if (const auto* item = std::get_if<cql::KeywordItem>(&e)) {
      if (const auto* a = std::get_if<cql::SubListArgs>(&item->args))
        for (const cql::List& l : a->lists) f(l, is_sequence_keyword(item->keyword));
    }
  }
}

void check_nested(const cql::List& list, const cql::KeywordItem& owner) {
  for_each_child(list, [&](const cql::List& sub, bool in_sequence) {
    if (in_sequence) return;  // checked when that sequence is compiled
    if (const cql::KeywordItem* item = bare_control(sub))
      throw CompileError(item->loc, cql::keyword_spelling(item->keyword) +
                                        " without an argument in a position list nested inside " +
                                        cql::keyword_spelling(owner.keyword) +
                                        " (it may stand in the sequence element or counted list itself)");
    check_nested(sub, owner);
  });
}

}  // namespace

void check_line_controls(const cql::List& list, const cql::KeywordItem& owner) { check_nested(list, owner); }

bool bare_control_in_sequence(const cql::List& list) {
  bool found = false;
  for_each_child(list, [&](const cql::List& sub, bool in_sequence) {
    if (found) return;
    const cql::KeywordItem* item = in_sequence ? bare_control(sub, /*with_cut=*/false) : nullptr;
    found = item || bare_control_in_sequence(sub);
  });
  return found;
}

void hoist_element_controls(const SequenceSpec& spec, const cql::KeywordItem& item,
                            std::vector<std::shared_ptr<const SequenceSpec>>& sequences,
                            std::vector<ControlArgument>* controls) {
  using Kind = SequenceSpec::Kind;
  for (size_t i = 0; i < spec.elements.size(); ++i) {
    const uint8_t bits = spec.elements[i]->control;
    if (!bits) continue;
    if (!controls)
      throw CompileError(item.loc, "a bare :cut / :exclude / :skip in " + cql::keyword_spelling(item.keyword) +
                                       " cannot be used here");
    std::shared_ptr<const PositionList> reader = spec.elements[i];  // :match, :matchconsecutive
    if (spec.kind == Kind::kSequence || spec.kind == Kind::kGapped) {
      auto prefix = std::make_shared<SequenceSpec>();
      prefix->kind = spec.kind == Kind::kSequence ? Kind::kSequenceEnd : Kind::kGappedEnd;
      prefix->elements.assign(spec.elements.begin(), spec.elements.begin() + std::ptrdiff_t(i + 1));
      Node n;
      n.op = Op::kLineTable;
      n.set(payload::SequenceId{uint32_t(sequences.size())});
      n.lists.push_back(spec.elements[i]);
      sequences.push_back(std::move(prefix));
      auto list = std::make_shared<PositionList>();
      list->variants.push_back({std::move(n)});
      reader = std::move(list);
    }
    controls->push_back(ControlArgument{std::move(reader), bits, SIZE_MAX});
  }
}

}  // namespace eval
