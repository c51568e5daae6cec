// The text of `cqldb query --explain` and the shell's `explain`: header SQL, signature
// conditions, candidates after each stage, games replayed, positions evaluated, times.
#pragma once

#include <string>

#include "eval/program.h"
#include "eval/search.h"
#include "planner/plan.h"

namespace planner {

/// The plan of `program`: per colour alternative its header SQL (with `?` for the bound
/// values) and its signature condition; `plan` null = the planner is off.
std::string explain_plan(const eval::Program& program, const Plan* plan);

/// The figures of one search: games, candidates after the header filter and after the
/// signatures, games replayed, positions evaluated, matches, and time per stage.
std::string explain_stats(const eval::SearchStats& stats, bool planner_on);

}  // namespace planner
