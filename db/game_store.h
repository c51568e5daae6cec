// GameStore: the LMDB half of a database (games.mdb) with its sub-databases, shared by the
// Database and every GameReader / GameWriter made from it.
#pragma once

#include <filesystem>
#include <memory>

#include "db/lmdb_env.h"
#include "db/lmdb_txn.h"
#include "db/record_format.h"

namespace db {

/// The open LMDB environment of a database directory and its "games", "annotations",
/// "signatures" and "meta" sub-databases (layout in schema.h). Held through std::shared_ptr so that readers
/// and writers keep it open even if the Database object is moved or destroyed first; still,
/// open a directory only once per process (an LMDB rule).
class GameStore {
 public:
  /// Opens (read-write: creates if missing) <dir>/games.mdb and checks its format versions
  /// (layout, records, signatures). A new or empty store gets the current versions. Throws
  /// FormatError on a version mismatch (naming `cqldb reindex` when that repairs it), when
  /// a read-only open finds no store, or when a store holding games has no version;
  /// LmdbError on LMDB failures.
  ///
  /// `for_reindex` (read-write only) also accepts a layout version `cqldb reindex` can
  /// upgrade and signatures of any version, and creates the "signatures" sub-db if missing;
  /// signatures_outdated() then tells whether the versions differ from the current ones.
  static std::shared_ptr<GameStore> open(const std::filesystem::path& dir, bool read_only,
                                         bool for_reindex = false);

  /// The database directory.
  const std::filesystem::path& dir() const { return dir_; }
  /// The environment (non-const: write transactions need it).
  lmdb::Env& env() { return env_; }
  /// The environment, for read transactions.
  const lmdb::Env& env() const { return env_; }
  /// Sub-database of game records: blocks of consecutive games (db/game_blocks.h) when
  /// blocked(), else key = game id (uint32, MDB_INTEGERKEY).
  lmdb::Dbi games() const { return games_; }
  /// Sub-database of signatures, laid out as games().
  lmdb::Dbi signatures() const { return signatures_; }
  /// The store's record format version (meta "record_format_version"; a store opened for
  /// writing reads at least kLastPerGameRecordFormatVersion).
  uint32_t record_format() const { return record_format_; }
  /// True when games() and signatures() hold blocks (record format 5 and later) rather
  /// than one entry a game.
  bool blocked() const { return record_format_ >= kFirstBlockedRecordFormatVersion; }
  /// Sub-database of annotation records: key = game id (uint32, MDB_INTEGERKEY); only games
  /// whose move record has kHasAnnotations have an entry.
  lmdb::Dbi annotations() const { return annotations_; }
  /// Sub-database of meta data (format versions).
  lmdb::Dbi meta() const { return meta_; }
  /// True when opened for a reindex and the stored layout or signature format version is
  /// not the current one (a reindex must finish before the database is usable otherwise).
  bool signatures_outdated() const { return signatures_outdated_; }
  /// True when opened read-only.
  bool read_only() const { return env_.read_only(); }
  /// Number of records stored, including any beyond the committed count: the highest game
  /// id in games() (ids are 1..N without gaps in either layout).
  uint64_t record_entries() const;
  /// Path of a file in the database directory.
  std::filesystem::path file(const char* name) const { return dir_ / name; }

 private:
  GameStore(std::filesystem::path dir, lmdb::Env env)
      : dir_(std::move(dir)), env_(std::move(env)) {}

  std::filesystem::path dir_;         // database directory
  lmdb::Env env_;                     // games.mdb
  lmdb::Dbi games_;                   // "games" sub-db
  lmdb::Dbi signatures_;              // "signatures" sub-db
  lmdb::Dbi meta_;                    // "meta" sub-db
  lmdb::Dbi annotations_;             // "annotations" sub-db
  bool signatures_outdated_ = false;  // see signatures_outdated()
  uint32_t record_format_ = 0;        // see record_format()
};

}  // namespace db
