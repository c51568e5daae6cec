// Help for each keyword of the keyword table (cql/keywords.h): its family, where the seeds
// and reference pages describe it, and one example that runs on the sample database
// (examples/sample/); plus "did you mean" suggestions for a mistyped keyword. Used by
// `cqldb help :KEYWORD`, the shell's `help :KEYWORD` and the parser's errors.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "cql/keywords.h"

namespace cql {

/// The help row of one keyword.
struct KeywordHelp {
  Keyword keyword;
  std::string_view family;   ///< the group it belongs to, e.g. "Simple position keywords"
  char list;                 ///< the list the example is written for: 'M' match, 'P' position,
                             ///< 'R' relation
  std::string_view example;  ///< the example fragment (inside that list)
  std::string_view source;   ///< seed or reference section describing it, e.g.
                             ///< "seed 001, \"Simple keywords\" (#position:castling)"
};

/// All help rows, in keyword-table order (one per keyword; a test checks that every keyword
/// of cql/keywords.h has one).
std::span<const KeywordHelp> all_keyword_help();
/// The help row of `k`; nullptr for a keyword that has none yet.
const KeywordHelp* find_keyword_help(Keyword k);
/// The example of `help` as a whole script: `(match FRAGMENT)`, `(match (position
/// FRAGMENT))` or `(match (position :relation (FRAGMENT)))`.
std::string example_script(const KeywordHelp& help);

/// Known keyword names (without ':') closest to `name` by edit distance (Levenshtein over
/// bytes, case-insensitive), best first: at most `limit`, each within distance
/// max(1, length/3), plus keywords that start with `name` when it has 4 or more letters.
/// Empty when nothing is close.
std::vector<std::string_view> similar_keywords(std::string_view name, size_t limit = 3);

/// " (did you mean :a or :b?)" for the suggestions of `name`, or "" when there are none.
std::string did_you_mean(std::string_view name);

}  // namespace cql
