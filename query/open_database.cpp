#include "query/open_database.h"

#include "db/schema.h"

namespace query {

bool holds_database(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(dir / db::schema::kHeadersFile, ec);
}

std::string no_database_message(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::exists(dir, ec)) return "no cqldb database at " + dir.string() + " (the directory does not exist)";
  return dir.string() + " holds no cqldb database (no " + db::schema::kHeadersFile + ")";
}

db::Database open_database(const std::filesystem::path& dir) {
  if (!holds_database(dir)) throw NoDatabase(no_database_message(dir));
  return db::Database::open_readonly(dir);
}

}  // namespace query
