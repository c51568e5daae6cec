#include "eval/control.h"

#include <algorithm>

#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"

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
    return;
  }
  if (bits & (control::kSkip | control::kCutPreceding)) {
    restore_position(a, counts);
    if (!at.inside_variation) counts.ply_hit[a * counts.plies + at.ply] = 0;
  }
  if (bits & (control::kCut | control::kCutPreceding)) stopped_[a] = 1;
}


void reject_bare_control(const cql::List& list, const cql::KeywordItem& owner) {
  cql::walk(list, [&](const cql::KeywordItem& item) {
    if (item.keyword == cql::Keyword::SumRange)  // counters exist in the per-position pass only
      throw CompileError(item.loc, "not yet supported: :sumrange inside " + cql::keyword_spelling(owner.keyword));
    const bool bare = item.keyword == cql::Keyword::Skip ||
                      ((item.keyword == cql::Keyword::Cut || item.keyword == cql::Keyword::Exclude) &&
                       std::get<cql::SubListArgs>(item.args).lists.empty());
    if (bare)
      throw CompileError(item.loc, "not yet supported: " + cql::keyword_spelling(item.keyword) +
                                       " without an argument inside " + cql::keyword_spelling(owner.keyword));
  });
}

}  // namespace eval
