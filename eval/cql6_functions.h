// CQL 6 value keywords of the published examples (issue 37; SPEC-NOTES "Published examples:
// values, parameters, output (exvalues)"): `rank`, `file`, `makesquare`, `type`,
// `typename`, `piecename`, `sqrt`, `fen`, `variation`, `puremate`, `modelmate`. Part of the
// one CQL 6 evaluator: eval/cql6_values.cpp hands these kinds (cql6/ast.h, from kRank on) here
// and these call back into eval/cql6_eval.h for their operands. Squares are 0..63 from a1;
// ranks and files are 1..8 as CQL 6 numbers them.
#pragma once

#include <cstdint>
#include <string>

#include "cql6/ast.h"
#include "eval/cql6_eval.h"

namespace eval::cql6_functions {

/// True if `k` is one of the kinds answered here.
bool handles(cql6::Kind k);
/// True if `n` matches at `c` (a value: it has one; a set: not empty).
bool match(const cql6::Node& n, const cql6_eval::Ctx& c);
/// The squares of the set filter `n` (`makesquare`, `puremate`, `modelmate`) at `c`.
uint64_t squares(const cql6::Node& n, const cql6_eval::Ctx& c);
/// The value of the numeric filter `n` (`rank`, `file`, `type`, `sqrt`); false when none
/// (`rank` of a set that is not one square, `sqrt` of a negative number).
bool number(const cql6::Node& n, const cql6_eval::Ctx& c, int64_t& out);
/// The value of the string filter `n` (`typename`, `piecename`, `fen`); false when none.
bool string(const cql6::Node& n, const cql6_eval::Ctx& c, std::string& out);

}  // namespace eval::cql6_functions
