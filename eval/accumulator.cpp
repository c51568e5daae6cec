#include "eval/accumulator.h"

#include <algorithm>

#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"

namespace eval {

void accumulate(const std::vector<std::shared_ptr<const PositionList>>& lists, const PosCtx& c,
                Accumulators& acc) {
  std::fill(acc.counts.begin(), acc.counts.end(), 0);
  acc.counting = true;
  for (const auto& list : lists) {
    for (const std::vector<Node>& variant : list->variants) {
      bool all = true;
      for (const Node& n : variant)
        if (!n.match(c)) {
          all = false;
          break;
        }
      if (!all) continue;
      for (const Node& n : variant)
        if (n.op == Op::kAccumulate) ++acc.counts[size_t(n.value)];
    }
  }
  acc.counting = false;
}


AccumulatorNames accumulator_names(const cql::List& match) {
  AccumulatorNames out;
  cql::walk(match, [&](const cql::KeywordItem& item) {
    if (item.keyword != cql::Keyword::Accumulate && item.keyword != cql::Keyword::AccumulateStar) return;
    const bool star = item.keyword == cql::Keyword::AccumulateStar;
    const std::string& name = std::get<cql::NameArgs>(item.args).name;
    auto [it, added] = out.names.try_emplace(name);
    if (!added) {
      if (it->second.star != star)
        throw CompileError(item.loc, "accumulator '" + name + "' is used with both :accumulate and :accumulate*");
      return;
    }
    it->second.index = out.counters;
    it->second.star = star;
    out.counters += star ? 2 : 1;
  });
  return out;
}

}  // namespace eval
