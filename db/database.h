// Database: a cqldb database directory (games.mdb + headers.sqlite; layout in schema.h).
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>

#include "db/game_reader.h"
#include "db/game_store.h"
#include "db/game_writer.h"
#include "db/sqlite_db.h"

namespace db {

/// Figures about a database, as shown by `cqldb info`.
struct DatabaseInfo {
  uint32_t games = 0;                  ///< committed games
  uint64_t rejected = 0;               ///< rejected games in the import log
  uint64_t warnings = 0;               ///< warnings in the import log
  uint64_t files = 0;                  ///< source files imported (one per file per import)
  uint64_t uncommitted_records = 0;    ///< LMDB records above the count: left by a crash, or
                                       ///< a batch between its two commits right now
  uint64_t games_bytes = 0;            ///< games.mdb on disk, bytes
  uint64_t headers_bytes = 0;          ///< headers.sqlite plus its WAL on disk, bytes
  double bytes_per_game = 0;           ///< (games_bytes + headers_bytes) / games; 0 if empty
  uint32_t format_version = 0;         ///< schema::kFormatVersion of the files
  uint32_t record_format_version = 0;  ///< kRecordFormatVersion of the records
  uint64_t games_with_clocks = 0;      ///< games with typed clock times (issue 23)
  uint64_t games_with_evals = 0;       ///< games with typed engine evaluations
  uint64_t move_record_bytes = 0;      ///< pages of the "games" sub-db (move records), bytes
  uint64_t annotation_bytes = 0;       ///< pages of the "annotations" sub-db, bytes
};

/// An open database directory. Move-only. Open each directory at most once per process at
/// a time (an LMDB rule); share the Database, or readers made from it, between threads.
///
/// Readers and the writer made from a Database keep the stores open by themselves, but must
/// not be used once the directory has been opened again in this process.
class Database {
 public:
  /// Opens the database in `dir`, creating the directory, both stores and the schema when
  /// missing. Throws FormatError for a format version mismatch or for stores that do not
  /// belong together (one holds games, the other is missing or new), LmdbError/SqliteError
  /// for I/O failures. Rebuilds secondary indexes an interrupted first import left out.
  static Database create_or_open(const std::filesystem::path& dir);
  /// Opens an existing database for reading only. Throws FormatError when `dir` is not a
  /// cqldb database of this format version.
  static Database open_readonly(const std::filesystem::path& dir);
  /// Opens an existing database read-write to recompute its signatures (`cqldb reindex`):
  /// like create_or_open(), but also accepts an older layout that a reindex upgrades
  /// (schema::kOldestUpgradableFormatVersion and later) and signatures of another format
  /// version. Use such a Database only to rewrite every signature (GameWriter::
  /// set_signature) and then GameWriter::mark_signatures_current(). Throws FormatError
  /// when `dir` holds no cqldb database or one a reindex cannot upgrade.
  static Database open_for_reindex(const std::filesystem::path& dir);

  Database(Database&&) noexcept;
  Database& operator=(Database&&) noexcept;
  ~Database();

  /// The database directory.
  const std::filesystem::path& path() const { return store_->dir(); }
  /// True when opened with open_readonly().
  bool read_only() const { return store_->read_only(); }
  /// True when opened with open_for_reindex() and the stored format or signature version is
  /// not the current one: a reindex has to rewrite every signature.
  bool signatures_outdated() const { return store_->signatures_outdated(); }
  /// The single writer. Throws db::Error when the database is read-only or another writer
  /// (in any process) is active.
  GameWriter writer(const WriterOptions& options = {});
  /// A new snapshot reader (see GameReader).
  GameReader reader() const { return GameReader(*this); }
  /// Counts and sizes; reads one consistent SQLite snapshot.
  DatabaseInfo info();

 private:
  friend class GameReader;
  Database(std::shared_ptr<GameStore> store, sqlite::Connection sql);
  /// Throws FormatError when headers.sqlite counts more games than games.mdb holds.
  void check_stores_agree();

  std::shared_ptr<GameStore> store_;  // games.mdb
  sqlite::Connection sql_;            // headers.sqlite, for info() and maintenance
};

}  // namespace db
