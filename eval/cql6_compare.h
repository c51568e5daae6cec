// The comparison of two CQL 6 numeric values (issue 36): `== != < <= > >=` and CQL 6.2's
// position relations `[<] [<=] [>] [>=]` (`≺ ≼ ≻ ≽`), shared by the evaluator's chained
// comparison (eval/cql6_eval.cpp) and the prechecks of `find` / `echo` bodies
// (eval/cql6_values.cpp).
#pragma once

#include <cstdint>

#include "cql6/ast.h"

namespace eval::cql6_eval {

/// True if `a op b`. Positions are compared as their positionids (on the main line the ply:
/// every later position descends from an earlier one); CQL 6.2 tests `[>=]` exactly as `[>]`
/// (its relationalnode.cpp).
inline bool compare(int64_t a, cql6::Cmp op, int64_t b) {
  switch (op) {
    case cql6::Cmp::kLt: return a < b;
    case cql6::Cmp::kLe: return a <= b;
    case cql6::Cmp::kEq: return a == b;
    case cql6::Cmp::kGe: return a >= b;
    case cql6::Cmp::kGt: return a > b;
    case cql6::Cmp::kPrecedes: return a < b;
    case cql6::Cmp::kPrecedesEq: return a <= b;
    case cql6::Cmp::kSucceeds: case cql6::Cmp::kSucceedsEq: return a > b;
    default: return a != b;
  }
}

}  // namespace eval::cql6_eval
