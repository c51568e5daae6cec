// Conventions shared by every `cqldb` command: which directories count as a database, `-`
// as standard output, the terminal width for tables and help, one size figure.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace cli {

/// Exit code of a usage error (a bad option, a directory that holds no database).
inline constexpr int kUsageError = 2;

/// True when `dir` holds a cqldb database (query::holds_database). Otherwise prints
/// "cqldb COMMAND: DIR holds no cqldb database ..." to stderr, naming `cqldb import` as the
/// way to create one, and returns false: the caller exits with kUsageError. Every command
/// but `import` checks this before opening, so a mistyped --db never creates a database.
bool require_database(std::string_view command, const std::string& dir);

/// Where a command writes its output: standard output when `path` is empty or "-",
/// otherwise the file `path` (truncated).
class OutputTarget {
 public:
  /// Opens the file when there is one; check ok() afterwards.
  explicit OutputTarget(const std::string& path);
  /// False when the file could not be opened for writing.
  bool ok() const { return stdout_ || file_.is_open(); }
  /// True when writing to standard output.
  bool is_stdout() const { return stdout_; }
  /// The stream to write to.
  std::ostream& stream();

 private:
  bool stdout_;
  std::ofstream file_;
};

/// Columns of the terminal: $COLUMNS when it is a number >= 20, else the width of the
/// terminal on stdout; nullopt when neither is known (output to a file or a pipe).
std::optional<size_t> terminal_columns();

/// terminal_columns(), or 80 when unknown.
size_t terminal_width();

/// `text` wrapped at `width` columns; every line starts with `indent` blanks. Words longer
/// than a line stay whole on a line of their own.
std::string wrap_text(std::string_view text, size_t indent, size_t width);

/// `n` bytes as "532 B", "12.3 KiB", "146.1 MiB" or "1.25 GiB" (binary units).
std::string human_bytes(uint64_t n);

/// The size of a database on disk, one figure for `cqldb info` and the shell's `info`:
/// games.mdb + the header store (SQLite, with its WAL) + postings.bin, in bytes.
struct DatabaseSize {
  uint64_t games_bytes = 0;     ///< games.mdb
  uint64_t headers_bytes = 0;   ///< the header store (db::schema::kHeadersFile) and its WAL
  uint64_t postings_bytes = 0;  ///< postings.bin; 0 when missing
  uint64_t header_bitmaps_bytes = 0;  ///< header-bitmaps.bin and its segments; 0 when missing
  /// The sum of the four.
  uint64_t total() const { return games_bytes + headers_bytes + postings_bytes + header_bitmaps_bytes; }
};

/// Measures the database in `dir` from the stores' figures (games, headers) and the file
/// sizes of postings.bin and the header bitmaps (db/header_bitmaps.h).
DatabaseSize database_size(const std::filesystem::path& dir, uint64_t games_bytes,
                           uint64_t headers_bytes);

}  // namespace cli
