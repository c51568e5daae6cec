// `explain` without running the query (shell `explain`, `cqldb query --explain`, Python's
// Database.explain): the plan
// with its bound SQL values and the estimates the posting index and the header store give
// before any game is read. `explain analyze` runs the query and adds the stage figures
// (query::explain_stats).
#pragma once

#include <string>

#include "db/database.h"
#include "query/query.h"

namespace query {

/// The values bound to the `?` placeholders of each alternative's header SQL, as
/// "  bound values:         ?1 = 'Alekhine', ?2 = 1990\n" lines (text SQL-quoted); "" when
/// the SQL has none.
std::string explain_bound_values(const query::Query& query);

/// The estimates of each alternative before any game record is read, as text lines:
/// the games the posting index keeps (postings.bin; "not available" when missing or stale)
/// and the games the header SQL keeps, out of the database's games. Reads only postings.bin
/// and headers.sqlite: milliseconds on 344k games.
std::string explain_estimates(const query::Query& query, db::Database& database);

}  // namespace query
