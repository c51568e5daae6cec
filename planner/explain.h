// The plan part of `cqldb query --explain` and the shell's `explain`: header SQL and
// signature conditions per alternative, posting index use, ply windows. The figures of a
// run are printed by query::explain_stats (query/executor.h).
#pragma once

#include <string>

#include "eval/program.h"
#include "planner/plan.h"

namespace planner {

/// The plan of `program`: per colour alternative its header SQL (with `?` for the bound
/// values) and its signature condition; `plan` null = the planner is off.
std::string explain_plan(const eval::Program& program, const Plan* plan);

}  // namespace planner
