#include "db/site_name.h"

namespace db {

std::optional<SiteParts> split_site_url(std::string_view site) {
  const size_t colon = site.find("://");
  if (colon == std::string_view::npos || colon == 0) return std::nullopt;
  for (char ch : site.substr(0, colon)) {
    const bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                    ch == '+' || ch == '-' || ch == '.';
    if (!ok) return std::nullopt;
  }
  const size_t host = colon + 3;
  const size_t path = site.find('/', host);
  if (path == std::string_view::npos || path == host) return std::nullopt;  // no path, or no host
  const size_t last = site.rfind('/');
  if (last + 1 >= site.size()) return std::nullopt;  // ends in '/': nothing to cut off
  return SiteParts{site.substr(0, last + 1), site.substr(last + 1)};
}

std::string site_name_sql(std::string_view games_alias) {
  const std::string g(games_alias);
  return "((SELECT site_row.name FROM sites site_row WHERE site_row.id = " + g + ".site_id) || IFNULL(" + g +
         ".site_suffix, ''))";
}

}  // namespace db
