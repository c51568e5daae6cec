// The CLI hint of SPEC "Player names" (issue 17 A): when a query finds nothing and one of its
// quoted player names without wildcards would find players as an unquoted substring.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cql/ast.h"
#include "db/sqlite_db.h"

namespace headers::players {

/// One line for each quoted `:player` / `:whiteplayer` / `:blackplayer` argument of the
/// parsed `script` (every list, nested ones too; the :player ones first, then :whiteplayer,
/// then :blackplayer, each in source order) without wildcards that some stored spelling
/// contains (ignoring case), e.g. `hint: :player "Kasparov" must match a whole name (or
/// player key); "Kasparov*" or unquoted Kasparov (a substring) find players`. Empty when
/// there is nothing to hint.
std::vector<std::string> quoted_name_hints(db::sqlite::Connection& sql, const cql::Script& script);

/// quoted_name_hints over a read-only connection of its own to the header store of the
/// database in `db_dir`.
std::vector<std::string> quoted_name_hints(const std::filesystem::path& db_dir, const cql::Script& script);

}  // namespace headers::players
