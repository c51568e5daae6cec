// The files of the single page (web/assets/*) and the example queries (examples/queries/*.cql),
// compiled into the binary by CMakeLists.txt (a generated web_assets.cpp), so `cqldb serve`
// needs no install directory.
#pragma once

#include <span>
#include <string_view>

namespace web {

/// One embedded file.
struct Asset {
  std::string_view name;          ///< "assets/app.js" (web/assets), "queries/x.cql" (examples/queries)
  std::string_view content;       ///< its bytes
};

/// Every embedded file, by name.
std::span<const Asset> all_assets();

/// The embedded file `name` ("assets/index.html", "queries/smothered-mate.cql"...); nullptr
/// when there is none.
const Asset* find_asset(std::string_view name);

/// The Content-Type for a file name by its extension ("text/javascript; charset=utf-8"...).
const char* content_type_of(std::string_view name);

}  // namespace web
