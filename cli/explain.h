// The explain texts live in query/explain.h (shared with the Python module); the command and
// the shell name them as cli:: functions.
#pragma once

#include "query/explain.h"

namespace cli {
using query::explain_bound_values;
using query::explain_estimates;
}  // namespace cli
