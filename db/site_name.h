// Site names stored as a shared prefix plus a per-game suffix (issue 23): a lichess game's
// [Site "https://lichess.org/91b7584a"] keeps "https://lichess.org/" once in `sites` and
// "91b7584a" in games.site_suffix, instead of a `sites` row and a UNIQUE index entry per
// game. Every reader of a game's site name builds it with site_name_sql (schema.h).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace db {

/// A URL site name cut after its last '/': `prefix` ends with '/', `suffix` is not empty.
struct SiteParts {
  std::string_view prefix;  ///< "https://lichess.org/"
  std::string_view suffix;  ///< "91b7584a"
};

/// The parts of `site` when it is a URL with a path, "scheme://host/path" (scheme letters,
/// digits, '+', '-', '.'; a host of at least one character; a path not ending in '/'), cut
/// after the last '/'; std::nullopt for every other name, which is stored whole. The cut
/// depends on the name only, so equal names always get equal parts.
std::optional<SiteParts> split_site_url(std::string_view site);

/// SQL for the full site name of the game row `games_alias` (e.g. "g"): the `sites` name of
/// its site_id followed by its site_suffix, if any. Only for databases with the
/// games.site_suffix column (every one opened through db::Database; schema.h).
std::string site_name_sql(std::string_view games_alias);

}  // namespace db
