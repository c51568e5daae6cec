#include "import/pgn_cache.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>

#include "db/database.h"
#include "db/schema.h"

namespace import {

namespace fs = std::filesystem;

namespace {

/// "ABSOLUTE-PATH\nSIZE\nMTIME-NS\n": what identifies the version of `pgn` a cache holds.
std::string stamp_of(const fs::path& pgn) {
  const fs::path absolute = fs::absolute(pgn);
  const auto size = fs::file_size(absolute);
  const auto mtime = fs::last_write_time(absolute).time_since_epoch();
  std::ostringstream out;
  out << absolute.string() << '\n'
      << size << '\n'
      << std::chrono::duration_cast<std::chrono::nanoseconds>(mtime).count() << '\n';
  return out.str();
}

fs::path cache_dir_for(const fs::path& pgn) {
  const fs::path absolute = fs::absolute(pgn);
  const fs::path parent = absolute.parent_path();
  if (access(parent.c_str(), W_OK) == 0) return fs::path(absolute.string() + ".cqldb");
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = fs::path(home) / ".cache";
  else base = fs::temp_directory_path();
  char hash[20];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(stable_path_hash(absolute.string())));
  return base / "cqldb" / (absolute.filename().string() + "-" + hash);
}

}  // namespace

uint64_t stable_path_hash(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;  // FNV-1a offset basis
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ull;  // FNV prime
  }
  return hash;
}

PgnCache cached_database(const fs::path& pgn) {
  std::error_code ec;
  if (!fs::is_regular_file(pgn, ec)) throw std::runtime_error("cannot read the PGN file " + pgn.string());
  const std::string stamp = stamp_of(pgn);
  PgnCache cache;
  cache.dir = cache_dir_for(pgn);
  const fs::path stamp_file = cache.dir / "source.txt";
  {
    std::ifstream in(stamp_file, std::ios::binary);
    std::string recorded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && recorded == stamp && fs::exists(cache.dir / db::schema::kHeadersFile, ec)) return cache;
  }
  if (fs::exists(cache.dir, ec)) fs::remove_all(cache.dir);
  fs::create_directories(cache.dir);
  {
    db::Database database = db::Database::create_or_open(cache.dir);
    cache.summary = import_files(database, {pgn.string()}, ImportOptions{}, nullptr);
  }
  cache.imported = true;
  std::ofstream(stamp_file, std::ios::binary) << stamp;  // written last: the cache is complete
  return cache;
}

}  // namespace import
