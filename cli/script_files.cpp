#include "cli/script_files.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>

#include "cli/options.h"
#include "cql/ast.h"
#include "cql/parser.h"
#include "db/database.h"
#include "import/importer.h"

namespace cli {

namespace fs = std::filesystem;

ScriptFiles script_files(const std::string& text, const std::string& source_name) {
  ScriptFiles files;
  const cql::Script script = cql::parse_or_throw(text, source_name);
  for (const cql::KeywordItem* k : script.match.keywords()) {
    if (k->keyword != cql::Keyword::Pgn && k->keyword != cql::Keyword::Output) continue;
    const auto& patterns = k->as<cql::TextArgs>().patterns;
    if (patterns.empty()) continue;
    (k->keyword == cql::Keyword::Pgn ? files.pgn : files.output) = patterns.front().text;
  }
  return files;
}

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
  std::snprintf(hash, sizeof hash, "%016zx", std::hash<std::string>{}(absolute.string()));
  return base / "cqldb" / (absolute.filename().string() + "-" + hash);
}

}  // namespace

fs::path cached_database(const fs::path& pgn) {
  std::error_code ec;
  if (!fs::is_regular_file(pgn, ec))
    throw std::runtime_error("cannot read the PGN file " + pgn.string());
  const std::string stamp = stamp_of(pgn);
  const fs::path dir = cache_dir_for(pgn);
  const fs::path stamp_file = dir / "source.txt";
  {
    std::ifstream in(stamp_file, std::ios::binary);
    std::string recorded((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in && recorded == stamp && fs::exists(dir / "headers.sqlite", ec)) {
      std::fprintf(stderr, "searching %s through its cached database %s\n", pgn.c_str(), dir.c_str());
      return dir;
    }
  }
  if (fs::exists(dir, ec)) fs::remove_all(dir);
  fs::create_directories(dir);
  std::fprintf(stderr, "importing %s once into %s (reused while the file is unchanged)\n", pgn.c_str(),
               dir.c_str());
  import::ImportSummary s;
  {
    db::Database database = db::Database::create_or_open(dir);
    s = import::import_files(database, {pgn.string()}, import::ImportOptions{}, nullptr);
  }
  std::fprintf(stderr, "imported %s games, rejected %s\n", with_commas(s.imported).c_str(),
               with_commas(s.rejected).c_str());
  std::ofstream(stamp_file, std::ios::binary) << stamp;  // written last: the cache is complete
  return dir;
}

}  // namespace cli
