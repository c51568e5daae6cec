#include "db/database.h"

#include <sys/stat.h>

#include <string>

#include "db/errors.h"
#include "db/file_lock.h"
#include "db/record_format.h"
#include "db/schema.h"
#include "db/sqlite_statement.h"

namespace db {

namespace {

/// Bytes allocated on disk for `file` (0 when it does not exist).
uint64_t disk_bytes(const std::filesystem::path& file) {
  struct stat st;
  if (::stat(file.c_str(), &st) != 0) return 0;
  return uint64_t(st.st_blocks) * 512;
}

/// Checks the format versions recorded in headers.sqlite. `for_reindex` also accepts the
/// layout versions a reindex upgrades.
void check_headers_version(sqlite::Connection& sql, const std::filesystem::path& file,
                           bool for_reindex = false) {
  const auto format = schema::read_meta(sql, schema::kMetaFormatVersion);
  if (!(for_reindex && format && *format >= schema::kOldestUpgradableFormatVersion &&
        *format <= schema::kFormatVersion))
    schema::check_format_version(format, schema::kFormatVersion, file.string(),
                                 file.parent_path().string());
  schema::check_record_format_version(schema::read_meta(sql, schema::kMetaRecordFormatVersion),
                                      file.string() + " (game records)");
}

}  // namespace

Database::Database(std::shared_ptr<GameStore> store, sqlite::Connection sql)
    : store_(std::move(store)), sql_(std::move(sql)) {}

Database::Database(Database&&) noexcept = default;
Database& Database::operator=(Database&&) noexcept = default;
Database::~Database() = default;

Database Database::create_or_open(const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  const std::filesystem::path headers = dir / schema::kHeadersFile;
  const bool headers_existed = std::filesystem::exists(headers);
  std::shared_ptr<GameStore> store = GameStore::open(dir, false);
  if (const uint64_t records = store->record_entries(); !headers_existed && records > 0)
    throw FormatError(dir.string() + ": games.mdb holds " + std::to_string(records) +
                      " games but headers.sqlite is missing");
  sqlite::Connection sql(headers, sqlite::OpenMode::kReadWriteCreate);
  if (!schema::has_tables(sql)) {
    if (!schema::is_empty(sql))
      throw FormatError(headers.string() + " has other tables: not a cqldb database");
    schema::create_tables(sql);
  }
  check_headers_version(sql, headers);
  // Older records stay readable; new ones are of the store's version (a per-game store
  // stays per-game, record_format.h).
  schema::stamp_record_format_version(sql, store->record_format());
  schema::create_player_eco_tables(sql);  // issue 17 A: a database made before them
  schema::add_site_suffix(sql);            // issue 23: likewise
  Database database(std::move(store), std::move(sql));
  database.check_stores_agree();
  // A first import builds the secondary indexes at its end; if it was interrupted, build
  // them now (only when no writer is running: it may have dropped them on purpose).
  if (schema::read_meta(database.sql_, schema::kMetaCommittedGames).value_or(0) > 0) {
    if (auto lock = FileLock::try_lock(dir / schema::kWriterLockFile))
      schema::create_indexes(database.sql_);
  }
  return database;
}

Database Database::open_readonly(const std::filesystem::path& dir) {
  const std::filesystem::path headers = dir / schema::kHeadersFile;
  if (!std::filesystem::exists(headers))
    throw FormatError(headers.string() + " is missing: not a cqldb database");
  sqlite::Connection sql(headers, sqlite::OpenMode::kReadOnly);
  if (!schema::has_tables(sql))
    throw FormatError(headers.string() + " has no cqldb tables: not a cqldb database");
  check_headers_version(sql, headers);
  if (!schema::has_player_eco_tables(sql)) {
    // A database made before issue 17 A: add the (empty) tables its queries name, when the
    // file is writable; otherwise such queries fail with SQLite's "no such table".
    try {
      sqlite::Connection writable(headers, sqlite::OpenMode::kReadWrite);
      schema::create_player_eco_tables(writable);
    } catch (const std::exception&) {
    }
  }
  if (!schema::has_site_suffix(sql)) {
    // A database made before issue 23's site suffixes: the site name readers name the
    // column (db/site_name.h). Added when the file is writable, as above.
    try {
      sqlite::Connection writable(headers, sqlite::OpenMode::kReadWrite);
      schema::add_site_suffix(writable);
    } catch (const std::exception&) {
    }
  }
  Database database(GameStore::open(dir, true), std::move(sql));
  database.check_stores_agree();
  return database;
}

Database Database::open_for_reindex(const std::filesystem::path& dir) {
  const std::filesystem::path headers = dir / schema::kHeadersFile;
  if (!std::filesystem::exists(headers) || !std::filesystem::exists(dir / schema::kGamesFile))
    throw FormatError(dir.string() + " is not a cqldb database (" + schema::kHeadersFile + " or " +
                      schema::kGamesFile + " is missing)");
  sqlite::Connection sql(headers, sqlite::OpenMode::kReadWrite);
  if (!schema::has_tables(sql))
    throw FormatError(headers.string() + " has no cqldb tables: not a cqldb database");
  check_headers_version(sql, headers, true);
  Database database(GameStore::open(dir, false, true), std::move(sql));
  database.check_stores_agree();
  return database;
}

void Database::check_stores_agree() {
  const int64_t committed = schema::read_meta(sql_, schema::kMetaCommittedGames).value_or(0);
  const uint64_t records = store_->record_entries();
  if (uint64_t(committed) > records)
    throw FormatError(path().string() + ": headers.sqlite counts " + std::to_string(committed) +
                      " games but games.mdb holds only " + std::to_string(records));
}

GameWriter Database::writer(const WriterOptions& options) {
  if (read_only()) throw Error("database " + path().string() + " is open read-only");
  return GameWriter(store_, options);
}

DatabaseInfo Database::info() {
  DatabaseInfo info;
  // One statement, so one consistent snapshot.
  sqlite::Statement counts(sql_,
                           "SELECT (SELECT value FROM meta WHERE key = ?1), "
                           "(SELECT count(*) FROM import_log WHERE kind = 'rejected'), "
                           "(SELECT count(*) FROM import_log WHERE kind = 'warning'), "
                           "(SELECT count(*) FROM files), "
                           "(SELECT value FROM meta WHERE key = ?2), "
                           "(SELECT value FROM meta WHERE key = ?3), "
                           "(SELECT count(*) FROM games WHERE (flags & 8) != 0), "
                           "(SELECT count(*) FROM games WHERE (flags & 16) != 0)");
  counts.bind(1, schema::kMetaCommittedGames);
  counts.bind(2, schema::kMetaFormatVersion);
  counts.bind(3, schema::kMetaRecordFormatVersion);
  counts.step();
  info.games = uint32_t(counts.column_int64(0));
  info.rejected = uint64_t(counts.column_int64(1));
  info.warnings = uint64_t(counts.column_int64(2));
  info.files = uint64_t(counts.column_int64(3));
  info.format_version = uint32_t(counts.column_int64(4));
  info.record_format_version = uint32_t(counts.column_int64(5));
  info.games_with_clocks = uint64_t(counts.column_int64(6));
  info.games_with_evals = uint64_t(counts.column_int64(7));
  counts.reset();
  {
    lmdb::Txn txn = lmdb::Txn::begin_read(store_->env());
    info.move_record_bytes = txn.page_bytes(store_->games());
    info.annotation_bytes = txn.page_bytes(store_->annotations());
  }

  const uint64_t records = store_->record_entries();
  info.uncommitted_records = records > info.games ? records - info.games : 0;
  info.games_bytes = disk_bytes(store_->file(schema::kGamesFile));
  const std::filesystem::path headers = store_->file(schema::kHeadersFile);
  info.headers_bytes = disk_bytes(headers) + disk_bytes(headers.string() + "-wal");
  if (info.games > 0)
    info.bytes_per_game = double(info.games_bytes + info.headers_bytes) / info.games;
  return info;
}

}  // namespace db
