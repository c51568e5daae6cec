// CQL 6.2's `path` / `⊢` (SPEC-NOTES "Published examples: path and dashes (expath)"): the
// evaluation of cql6::Kind::kPathFilter and the filters that read a path's state
// (`pathcount`, `pathstart`, `pathlastposition`, `pathmax`), plus `primary` / `secondary`.
// eval/cql6_eval.cpp hands these kinds over from its match / number and cql6_values.cpp from
// its position; the path calls back into cql6_eval for its constituents (one evaluator).
//
// A path is searched from the current position along the line being searched (the main
// line, or a variation's line: CQL 6.2's primary continuations; SPEC-NOTES says what that
// leaves out). Every way of matching the constituents is tried in CQL 6.2's order (a
// repetition tries the rest first, then one more); the path matches when some way consumes
// at least one move, and its value is the largest number of moves consumed (counting only
// moves of focused pieces with `focus`), or the largest `max` value at the end of a way.
//
// Work the search leaves out, never changing an answer (SPEC-NOTES "Published examples: path
// and dashes", Saving work): a start whose first dash cannot take the move played there is
// refused before the focus is evaluated (when the focus, the holders before that dash and
// its sets have no side effect); a promote / capture dash with pure sets tests its flags on
// the move before its sets; a bare dash (`――`) takes any move without a context; a bare dash
// repeated (`――*`, `―― {2,}`) is a loop that jumps to the next move where the dash after it
// may fit (per line and dash, a table made once per game); a focused dash stops once every
// focused piece is gone. The facts these rest on: eval/cql6_path_facts.h.
#pragma once

#include <cstdint>

#include "cql6/ast.h"
#include "eval/cql6_eval.h"

namespace eval::cql6_path {

/// True for the kinds this file evaluates.
inline bool owns(cql6::Kind k) {
  return k == cql6::Kind::kPathFilter || k == cql6::Kind::kPathCount || k == cql6::Kind::kPathStart ||
         k == cql6::Kind::kPathLastPosition || k == cql6::Kind::kPathMax || k == cql6::Kind::kMovePrimary;
}

/// True if the filter `n` (one of owns()) matches at `c` (a path: some way matched and its
/// value is in the path's range).
bool match(const cql6::Node& n, const cql6_eval::Ctx& c);
/// The numeric value of `n` at `c` (a path: its length or max; `pathcount`, `pathmax`);
/// false when it has none.
bool number(const cql6::Node& n, const cql6_eval::Ctx& c, int64_t& out);
/// The position value (ply on the main line) of `n` at `c` (`path lastposition`,
/// `pathstart`, `pathlastposition`); false when it has none.
bool position(const cql6::Node& n, const cql6_eval::Ctx& c, int64_t& ply);

/// True if evaluating `n` changes state that other positions see (`nestban` bans later
/// starts inside a matched path).
bool has_state(const cql6::Node& n);

}  // namespace eval::cql6_path
