// The CLI hint of SPEC "Player names" (issue 17 A): when a query finds nothing and one of its
// quoted player names without wildcards would find players as an unquoted substring.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "db/sqlite_db.h"

namespace headers::players {

/// One line for each quoted `:player` / `:whiteplayer` / `:blackplayer` argument of `script`
/// without wildcards that some stored spelling contains (ignoring case), e.g.
/// `hint: :player "Kasparov" must match a whole name (or player key); "Kasparov*" or
/// unquoted Kasparov (a substring) find players`. Empty when there is nothing to hint.
std::vector<std::string> quoted_name_hints(db::sqlite::Connection& sql, std::string_view script);

}  // namespace headers::players
