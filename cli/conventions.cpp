#include "cli/conventions.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "query/open_database.h"
#include "db/header_bitmaps.h"
#include "index/postings.h"

#include "query/sharded.h"

namespace cli {

bool require_database(std::string_view command, const std::string& dir) {
  if (query::holds_database(dir)) return true;
  // A sharded database (query/sharded.h) is accepted by query, tree, export, info, check and
  // serve; the other commands are told to run on each shard.
  if (query::is_sharded(dir)) {
    for (std::string_view reader : {"query", "tree", "export", "info", "check", "serve"})
      if (command == reader) return true;
    std::fprintf(stderr,
                 "cqldb %.*s: %s is a sharded database; `cqldb %.*s` works on one database: run it "
                 "on each shard (%s/shard-000 ...)\n",
                 int(command.size()), command.data(), dir.c_str(), int(command.size()), command.data(), dir.c_str());
    return false;
  }
  std::fprintf(stderr, "cqldb %.*s: %s; check the --db path, or create one with `cqldb import --db %s FILE.pgn`\n",
               int(command.size()), command.data(), query::no_database_message(dir).c_str(), dir.c_str());
  return false;
}

OutputTarget::OutputTarget(const std::string& path) : stdout_(path.empty() || path == "-") {
  if (!stdout_) file_.open(path, std::ios::binary);
}

std::ostream& OutputTarget::stream() {
  if (stdout_) return std::cout;
  return file_;
}

size_t terminal_width() {
  return terminal_columns().value_or(80);
}

std::optional<size_t> terminal_columns() {
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == '\0' && n >= 20 && n <= 10000) return size_t(n);
  }
  winsize size{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 20)
    return size.ws_col;
  return std::nullopt;
}

std::string wrap_text(std::string_view text, size_t indent, size_t width) {
  std::string out, line(indent, ' ');
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view word = text.substr(pos, end - pos);
    pos = end + 1;
    if (word.empty()) continue;
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line.assign(indent, ' ');
    }
    if (line.size() > indent) line += ' ';
    line += word;
  }
  return out + line + '\n';
}

std::string human_bytes(uint64_t n) {
  char buf[32];
  if (n >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%.2f GiB", double(n) / (1ull << 30));
  else if (n >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%.1f MiB", double(n) / (1ull << 20));
  else if (n >= 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", double(n) / 1024);
  else std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(n));
  return buf;
}

DatabaseSize database_size(const std::filesystem::path& dir, uint64_t games_bytes,
                           uint64_t headers_bytes) {
  DatabaseSize size;
  size.games_bytes = games_bytes;
  size.headers_bytes = headers_bytes;
  size.postings_bytes = sig::postings_bytes(dir);  // postings.bin and its segments
  size.header_bitmaps_bytes = db::header_bitmaps_bytes(dir);
  return size;
}

}  // namespace cli
