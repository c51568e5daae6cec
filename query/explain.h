// `explain` without running the query (the command's `--explain`, the shell's `explain`, the
// web page's plan, Python's Database.explain; a sharded database's per shard through
// query::Store::explain_estimates): the values bound to the header SQL and the estimates the
// posting index and the header store give before any game is read. The plan itself and the
// figures of a run are explain_plan and explain_stats (query/executor.h).
#pragma once

#include <cstdint>
#include <string>

#include "db/database.h"
#include "query/query.h"

namespace query {

/// The values bound to the `?` placeholders of each alternative's header SQL, as
/// "  bound values:         ?1 = 'Alekhine', ?2 = 1990\n" lines (text SQL-quoted); "" when
/// the SQL has none.
std::string explain_bound_values(const Query& query);

/// The estimates of each alternative before any game record is read, as text lines:
/// the games the posting index keeps (postings.bin; "not available" when missing or stale)
/// and the games the header SQL keeps, out of the database's games. Reads only the posting
/// index and the header store: milliseconds on 344k games.
std::string explain_estimates(const Query& query, db::Database& database);

/// `n` with thousands separators, as the explain texts print figures: 344248 -> "344,248".
std::string with_commas(uint64_t n);

}  // namespace query
