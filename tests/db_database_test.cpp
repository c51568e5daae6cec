// Database, GameWriter and GameReader: creation, batches, reopening, appending, snapshots,
// format checks and the import log.
#include <gtest/gtest.h>

#include <lmdb.h>
#include <stdlib.h>

#include <atomic>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/database.h"
#include "db/errors.h"
#include "db/game_blocks.h"
#include "db/game_record.h"
#include "db/lmdb_cursor.h"
#include "db/lmdb_txn.h"
#include "db/schema.h"
#include "db/sqlite_statement.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;

using cqltest::TempDir;

/// The synthetic header of game `id` as imported from `file`.
db::GameHeader make_header(uint32_t id, const std::string& file = "games.pgn") {
  static const char* const kResults[] = {"1-0", "0-1", "1/2-1/2", "*"};
  db::GameHeader h;
  h.source_file = file;
  h.ordinal = id;
  h.white = "Player " + std::to_string(id % 7);
  h.black = "Player " + std::to_string((id + 3) % 11);
  h.event = "Event " + std::to_string(id % 3);
  h.site = id % 2 ? "Wijk aan Zee" : "";
  h.date = id % 4 ? "1985.??.??" : "2001.03.17";
  h.round = std::to_string(id % 9);
  h.result = kResults[id % 4];
  h.white_elo = id % 5 ? 2000 + int(id) : 0;
  h.black_elo = 2100;
  h.eco = id % 6 ? "B90" : "";
  h.plies = 10 + id % 5;
  if (id % 10 == 0) {
    h.start_fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
    h.variant = "chess960";
  }
  if (id % 3 == 0) h.other_tags = {{"Annotator", "Me"}, {"PlyCount", std::to_string(h.plies)}};
  return h;
}

/// The move record (or, with `notes`, the annotation record) of game `id`: plies()
/// pseudo-moves plus a comment on every 5th game.
std::string make_record(uint32_t id, bool notes = false) {
  db::RecordBuilder b;
  b.reset();
  const uint32_t plies = 10 + id % 5;
  for (uint32_t i = 0; i < plies; ++i) {
    chess::Square from = chess::Square((id + i) % 64), to = chess::Square((id + 2 * i + 1) % 64);
    b.add_move(from == to ? chess::Move::null() : chess::Move(from, to));
  }
  if (id % 5 == 0) b.add_comment("game " + std::to_string(id));
  const std::string moves(b.finish());
  return notes ? std::string(b.annotations()) : moves;
}

void add_games(db::GameWriter& writer, uint32_t count, const std::string& file = "games.pgn") {
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t id = writer.next_game_id();
    ASSERT_EQ(writer.add_game(make_header(id, file), make_record(id), {}, make_record(id, true)), id);
  }
}

/// Checks that every game of the reader's snapshot reads back as written.
void expect_games_intact(db::GameReader& reader, const std::string& file = "games.pgn") {
  std::string record;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    ASSERT_TRUE(reader.read_record(id, record)) << id;
    EXPECT_EQ(record, make_record(id)) << id;
    db::GameHeader expected = make_header(id, file);
    expected.id = id;
    db::GameHeader h = reader.header(id);
    EXPECT_EQ(h.white, expected.white);
    EXPECT_EQ(h.ordinal, expected.ordinal);
    EXPECT_EQ(h.result, expected.result);
  }
}

TEST(DatabaseTest, TwoBatchesReopenAndIdsContinue) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    EXPECT_EQ(writer.next_game_id(), 1u);
    add_games(writer, 25);
    writer.commit();
    EXPECT_EQ(writer.committed_games(), 25u);
    add_games(writer, 17);
    EXPECT_EQ(writer.pending_games(), 17u);
    writer.finish();
    EXPECT_EQ(writer.committed_games(), 42u);
  }
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameReader reader = database.reader();
    EXPECT_EQ(reader.game_count(), 42u);
    expect_games_intact(reader);
  }
  db::GameWriter writer = database.writer();
  EXPECT_EQ(writer.next_game_id(), 43u);
  add_games(writer, 10);
  writer.finish();
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 52u);
  expect_games_intact(reader);
}

TEST(DatabaseTest, SecondImportAppendsWithItsOwnFileRow) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    add_games(writer, 30, "first.pgn");
    writer.finish();
  }
  {
    db::GameWriter writer = database.writer();
    EXPECT_EQ(writer.next_game_id(), 31u);
    for (uint32_t i = 0; i < 5; ++i) {
      db::GameHeader h = make_header(31 + i, "second.pgn");
      h.ordinal = i + 1;
      h.id = 31 + i;
      writer.add_game(h, make_record(31 + i), {}, make_record(31 + i, true));
    }
    writer.finish();
  }
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 35u);
  EXPECT_EQ(reader.header(30).source_file, "first.pgn");
  db::GameHeader h = reader.header(33);
  EXPECT_EQ(h.source_file, "second.pgn");
  EXPECT_EQ(h.ordinal, 3u);
  EXPECT_EQ(database.info().files, 2u);
}

TEST(DatabaseTest, HeaderRoundTripAndColumns) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    add_games(writer, 12);
    writer.finish();
  }
  db::GameReader reader = database.reader();
  for (uint32_t id : {1u, 3u, 4u, 5u, 6u, 10u, 12u}) {
    db::GameHeader expected = make_header(id);
    expected.id = id;
    db::GameHeader h = reader.header(id);
    EXPECT_EQ(h.id, id);
    EXPECT_EQ(h.source_file, expected.source_file);
    EXPECT_EQ(h.ordinal, expected.ordinal);
    EXPECT_EQ(h.white, expected.white);
    EXPECT_EQ(h.black, expected.black);
    EXPECT_EQ(h.event, expected.event);
    EXPECT_EQ(h.site, expected.site);
    EXPECT_EQ(h.date, expected.date);
    EXPECT_EQ(h.round, expected.round);
    EXPECT_EQ(h.result, expected.result);
    EXPECT_EQ(h.white_elo, expected.white_elo);
    EXPECT_EQ(h.black_elo, expected.black_elo);
    EXPECT_EQ(h.eco, expected.eco);
    EXPECT_EQ(h.plies, expected.plies);
    EXPECT_EQ(h.start_fen, expected.start_fen);
    EXPECT_EQ(h.variant, expected.variant);
    EXPECT_EQ(h.other_tags, expected.other_tags);
  }
  EXPECT_THROW(reader.header(13), std::out_of_range);
  db::GameHeader unused;
  EXPECT_FALSE(reader.read_header(0, unused));

  // The derived columns used by header filters.
  db::sqlite::Connection sql(dir.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement row(sql,
                            "SELECT year, month, day, result, white_elo, eco, fen FROM games "
                            "WHERE id = ?1");
  row.bind(1, int64_t(4));  // 2001.03.17, "1-0", Elo 2004, ECO B90, standard start
  ASSERT_TRUE(row.step());
  EXPECT_EQ(row.column_int64(0), 2001);
  EXPECT_EQ(row.column_int64(1), 3);
  EXPECT_EQ(row.column_int64(2), 17);
  EXPECT_EQ(row.column_int64(3), int64_t(db::ResultCode::kWhiteWins));
  EXPECT_EQ(row.column_int64(4), 2004);
  EXPECT_EQ(row.column_text(5), "B90");
  EXPECT_TRUE(row.column_is_null(6));
  row.reset();
  row.bind(1, int64_t(5));  // 1985.??.??, "0-1", no white Elo
  ASSERT_TRUE(row.step());
  EXPECT_EQ(row.column_int64(0), 1985);
  EXPECT_TRUE(row.column_is_null(1));
  EXPECT_TRUE(row.column_is_null(2));
  EXPECT_EQ(row.column_int64(3), int64_t(db::ResultCode::kBlackWins));
  EXPECT_TRUE(row.column_is_null(4));
  row.reset();
  row.bind(1, int64_t(6));  // no ECO, "1/2-1/2"
  ASSERT_TRUE(row.step());
  EXPECT_EQ(row.column_int64(3), int64_t(db::ResultCode::kDraw));
  EXPECT_TRUE(row.column_is_null(5));
  row.reset();
  row.bind(1, int64_t(7));  // "*"
  ASSERT_TRUE(row.step());
  EXPECT_EQ(row.column_int64(3), int64_t(db::ResultCode::kUnknown));
  row.reset();
  // Player names are interned once.
  db::sqlite::Statement players(sql, "SELECT count(*) FROM players");
  ASSERT_TRUE(players.step());
  EXPECT_EQ(players.column_int64(0), 11);
}

TEST(DatabaseTest, ReaderSeesItsSnapshotOnly) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  db::GameWriter writer = database.writer();
  add_games(writer, 10);
  writer.commit();

  db::GameReader before = database.reader();
  add_games(writer, 5);  // an open batch: invisible to everybody
  db::GameReader during = database.reader();
  EXPECT_EQ(during.game_count(), 10u);
  writer.commit();

  EXPECT_EQ(before.game_count(), 10u);
  std::string_view bytes;
  EXPECT_FALSE(before.record(11, bytes));
  uint32_t id = 0, scanned = 0;
  auto scan = before.scan();
  while (scan.next(id, bytes)) EXPECT_EQ(id, ++scanned);
  EXPECT_EQ(scanned, 10u);

  db::GameReader after = database.reader();
  EXPECT_EQ(after.game_count(), 15u);
  before.refresh();
  EXPECT_EQ(before.game_count(), 15u);
  ASSERT_TRUE(before.record(15, bytes));
  EXPECT_EQ(bytes, make_record(15));
  expect_games_intact(after);
}

TEST(DatabaseTest, ScanRangeAndParallelReaders) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    add_games(writer, 100);
    writer.finish();
  }
  db::GameReader a = database.reader(), b = database.reader();
  uint32_t id = 0, count = 0;
  std::string_view bytes;
  auto scan = a.scan(40, 60);
  while (scan.next(id, bytes)) {
    EXPECT_EQ(id, 40 + count++);
    EXPECT_EQ(db::RecordView::parse(bytes).main_line_size(), 10 + id % 5);
  }
  EXPECT_EQ(count, 21u);
  auto tail = b.scan(95);
  count = 0;
  while (tail.next(id, bytes)) ++count;
  EXPECT_EQ(count, 6u);
  auto empty = b.scan(200);
  EXPECT_FALSE(empty.next(id, bytes));
}

TEST(DatabaseTest, UncommittedBatchIsDiscardedWithTheWriter) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    add_games(writer, 8);
    writer.commit();
    add_games(writer, 4);
  }
  db::GameWriter writer = database.writer();
  EXPECT_EQ(writer.next_game_id(), 9u);
  add_games(writer, 2);
  writer.finish();
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 10u);
  expect_games_intact(reader);
}

TEST(DatabaseTest, OnlyOneWriterAndNoneWhenReadOnly) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    EXPECT_THROW(database.writer(), db::Error);
    db::GameHeader h = make_header(5);
    h.id = 5;  // not the next id
    EXPECT_THROW(writer.add_game(h, make_record(5)), std::invalid_argument);
    add_games(writer, 3);
    writer.finish();
  }
  db::Database database = db::Database::open_readonly(dir.db());
  EXPECT_TRUE(database.read_only());
  EXPECT_THROW(database.writer(), db::Error);
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 3u);
  expect_games_intact(reader);
}

TEST(DatabaseTest, BadRecordOrPliesIsRefusedAndTheWriterGoesOn) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  db::GameWriter writer = database.writer();
  add_games(writer, 2);
  EXPECT_THROW(writer.add_game(make_header(3), "\x40 not a record"), db::CorruptRecord);
  db::GameHeader wrong_plies = make_header(3);
  wrong_plies.plies += 1;
  EXPECT_THROW(writer.add_game(wrong_plies, make_record(3)), std::invalid_argument);
  EXPECT_EQ(writer.next_game_id(), 3u);
  add_games(writer, 2);
  writer.finish();
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 4u);
  expect_games_intact(reader);
}

TEST(DatabaseTest, ReadersInOtherThreadsDuringAnImport) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  std::atomic<bool> done{false};
  std::thread import([&] {
    db::GameWriter writer = database.writer();
    for (int batch = 0; batch < 30; ++batch) {
      add_games(writer, 150);
      writer.commit();
    }
    writer.finish();
    done = true;
  });
  auto read_while_importing = [&] {
    uint32_t last_count = 0, snapshots = 0;
    while (!done || snapshots == 0) {
      db::GameReader reader = database.reader();
      EXPECT_GE(reader.game_count(), last_count);  // counts only grow
      EXPECT_EQ(reader.game_count() % 150, 0u);    // whole batches only
      last_count = reader.game_count();
      uint32_t id = 0;
      std::string_view bytes;
      auto scan = reader.scan(last_count > 50 ? last_count - 50 : 1);
      while (scan.next(id, bytes)) ASSERT_EQ(bytes, make_record(id));
      ++snapshots;
    }
  };
  std::thread reader_a(read_while_importing), reader_b(read_while_importing);
  import.join();
  reader_a.join();
  reader_b.join();
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 4500u);
}

TEST(DatabaseTest, InfoCountsGamesLogAndBytes) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    add_games(writer, 20);
    writer.add_log({"games.pgn", 21, 300, "Nf9", "illegal move", db::LogKind::kRejected});
    writer.add_log({"games.pgn", 7, 40, "", "unknown character", db::LogKind::kWarning});
    writer.add_log({"games.pgn", 22, 310, "", "no result", db::LogKind::kRejected});
    writer.add_import({"games.pgn", 1000, 1002, 22, 20, 2, 1});
    writer.finish();
  }
  db::DatabaseInfo info = database.info();
  EXPECT_EQ(info.games, 20u);
  EXPECT_EQ(info.rejected, 2u);
  EXPECT_EQ(info.warnings, 1u);
  EXPECT_EQ(info.files, 1u);
  EXPECT_EQ(info.uncommitted_records, 0u);
  EXPECT_EQ(info.format_version, db::schema::kFormatVersion);
  EXPECT_EQ(info.record_format_version, db::kRecordFormatVersion);
  EXPECT_GT(info.games_bytes, 0u);
  EXPECT_GT(info.headers_bytes, 0u);
  EXPECT_GT(info.bytes_per_game, 0.0);

  db::sqlite::Connection sql(dir.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement log(sql,
                            "SELECT f.path, l.ordinal, l.line, l.move, l.reason FROM import_log l "
                            "JOIN files f ON f.id = l.file_id WHERE l.kind = 'rejected' "
                            "ORDER BY l.id");
  ASSERT_TRUE(log.step());
  EXPECT_EQ(log.column_text(0), "games.pgn");
  EXPECT_EQ(log.column_int64(1), 21);
  EXPECT_EQ(log.column_int64(2), 300);
  EXPECT_EQ(log.column_text(3), "Nf9");
  EXPECT_EQ(log.column_text(4), "illegal move");
}

TEST(DatabaseTest, LogOnlyBatchCommits) {
  TempDir dir;
  db::Database database = db::Database::create_or_open(dir.db());
  db::GameWriter writer = database.writer();
  writer.add_log({"bad.pgn", 1, 1, "", "not PGN", db::LogKind::kRejected});
  writer.finish();
  EXPECT_EQ(database.info().rejected, 1u);
  EXPECT_EQ(database.info().games, 0u);
}

/// Whether headers.sqlite has the secondary index `name`.
bool has_index(const fs::path& dir, const char* name) {
  db::sqlite::Connection sql(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql, "SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = ?1");
  q.bind(1, std::string_view(name));
  return q.step();
}

TEST(DatabaseTest, NoSecondaryIndexOnGamesAfterBulkLoadOrAnInterruptedOne) {
  // Issue 42: header filters and duplicate lookups read the header bitmaps
  // (db/header_bitmaps.h); no index on games is built, before, during or after a load.
  TempDir dir;
  const char* kOld[] = {"games_seg_white", "games_seg_black", "games_opening_eco", "games_year", "games_eco"};
  auto none = [&] {
    for (const char* name : kOld) EXPECT_FALSE(has_index(dir.db(), name)) << name;
  };
  {
    db::Database database = db::Database::create_or_open(dir.db());
    none();
    db::GameWriter writer = database.writer();  // empty database: a bulk load
    add_games(writer, 5);
    writer.commit();  // no finish(): as if the import was interrupted
  }
  none();
  {
    db::Database database = db::Database::create_or_open(dir.db());
    none();
    db::GameWriter writer = database.writer();
    add_games(writer, 2);
    writer.finish();
  }
  none();
}

void set_sqlite_version(const fs::path& dir, int64_t version) {
  db::sqlite::Connection sql(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
  db::sqlite::Statement update(sql, "UPDATE meta SET value = ?1 WHERE key = 'format_version'");
  update.bind(1, version);
  update.run();
}

void set_lmdb_version(const fs::path& dir, std::string_view version) {
  db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile);
  db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
  db::lmdb::Dbi meta = *txn.open_dbi(db::schema::kMetaDbi);
  txn.put(meta, db::schema::kMetaFormatVersion, version);
  txn.commit();
}

void expect_format_error(const fs::path& dir, const std::string& fragment) {
  for (bool read_only : {false, true}) {
    try {
      if (read_only) {
        db::Database::open_readonly(dir);
      } else {
        db::Database::create_or_open(dir);
      }
      ADD_FAILURE() << "no FormatError (read_only=" << read_only << ")";
    } catch (const db::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
}

TEST(DatabaseTest, FormatVersionMismatchIsAClearError) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    add_games(writer, 3);
    writer.finish();
  }
  set_sqlite_version(dir.db(), 999);
  expect_format_error(dir.db(),
                      "headers.sqlite has format version 999 but this cqldb reads "
                      "version " +
                          std::to_string(db::schema::kFormatVersion));
  set_sqlite_version(dir.db(), db::schema::kFormatVersion);
  set_lmdb_version(dir.db(), "7");
  expect_format_error(dir.db(), "games.mdb has format version 7");
  set_lmdb_version(dir.db(), std::to_string(db::schema::kFormatVersion));
  EXPECT_EQ(db::Database::open_readonly(dir.db()).reader().game_count(), 3u);
}

/// Sets the record format version of both stores of the database in `dir`.
void set_record_version(const fs::path& dir, int64_t version) {
  {
    db::sqlite::Connection sql(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    db::sqlite::Statement update(sql, "UPDATE meta SET value = ?2 WHERE key = ?1");
    update.bind(1, db::schema::kMetaRecordFormatVersion);
    update.bind(2, version);
    update.run();
  }
  db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile);
  db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
  db::lmdb::Dbi meta = *txn.open_dbi(db::schema::kMetaDbi);
  txn.put(meta, db::schema::kMetaRecordFormatVersion, std::to_string(version));
  txn.commit();
}

/// Turns the blocked store of the database in `dir` (db/game_blocks.h) into what a cqldb of
/// record format `version` (<= 4) wrote: one LMDB entry a game for records and signatures
/// (none for a game without a signature), and the version in both stores.
void make_per_game_store(const fs::path& dir, int64_t version) {
  {
    db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile);
    db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
    for (const char* name : {db::schema::kGamesDbi, db::schema::kSignaturesDbi}) {
      const db::lmdb::Dbi dbi = *txn.open_dbi(name, db::lmdb::kDbiIntegerKey);
      std::vector<std::pair<uint32_t, std::string>> values;
      {
        db::lmdb::Cursor cursor(txn, dbi);
        std::string_view key, value;
        for (bool found = cursor.first(key, value); found; found = cursor.next(key, value)) {
          uint32_t last = 0;
          ASSERT_EQ(key.size(), sizeof last);
          std::memcpy(&last, key.data(), sizeof last);
          db::blocks::BlockView block;
          ASSERT_TRUE(db::blocks::BlockView::parse(last, value, block)) << name << " " << last;
          for (uint32_t id = block.first_id(); id <= block.last_id(); ++id) {
            std::string_view bytes;
            ASSERT_TRUE(block.entry(id, bytes));
            values.emplace_back(id, std::string(bytes));
          }
        }
      }
      ASSERT_EQ(mdb_drop(txn.handle(), dbi.handle, 0), 0);  // empties the sub-db
      for (const auto& [id, bytes] : values)
        if (!bytes.empty()) txn.put(dbi, db::lmdb::integer_key(id), bytes);
    }
    txn.commit();
  }
  set_record_version(dir, version);
}

// Record format 5 stores the records (of format 4: packed main lines; 3 added bit-coded
// typed blocks) and the signatures in blocks of consecutive games. It reads stores of
// formats 2..4, one entry a game, as they are; opened for writing, a format-2 or -3 store is
// stamped 4 in both stores (it may then get records an older cqldb would report as
// damaged) and keeps one entry a game, also for the games it gets. A version below the
// oldest read is refused.
class RecordFormatStamp : public ::testing::TestWithParam<int> {};

TEST_P(RecordFormatStamp, OlderFormatIsReadAndStampedByAWriter) {
  static_assert(db::kRecordFormatVersion == 5 && db::kOldestRecordFormatVersion == 2 &&
                db::kLastPerGameRecordFormatVersion == 4);
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    add_games(writer, 3);
    writer.finish();
  }
  make_per_game_store(dir.db(), GetParam());
  {
    db::Database database = db::Database::open_readonly(dir.db());
    EXPECT_EQ(database.info().record_format_version, uint32_t(GetParam()));
    db::GameReader reader = database.reader();
    expect_games_intact(reader);
  }
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    add_games(writer, 2);
    writer.finish();
  }
  {
    db::Database database = db::Database::open_readonly(dir.db());
    EXPECT_EQ(database.info().record_format_version, db::kLastPerGameRecordFormatVersion);
    db::GameReader reader = database.reader();
    EXPECT_EQ(reader.game_count(), 5u);
    expect_games_intact(reader);
  }
  {  // still one entry a game
    db::lmdb::Env env = db::lmdb::Env::open(dir.db() / db::schema::kGamesFile, {.read_only = true});
    db::lmdb::Txn txn = db::lmdb::Txn::begin_read(env);
    EXPECT_EQ(txn.entries(*txn.open_dbi(db::schema::kGamesDbi, db::lmdb::kDbiIntegerKey)), 5u);
  }
  set_record_version(dir.db(), 1);
  expect_format_error(dir.db(), "(game records) has format version 1");
}

INSTANTIATE_TEST_SUITE_P(DatabaseTest, RecordFormatStamp, ::testing::Values(2, 3, 4));

TEST(DatabaseTest, NotADatabaseOrMismatchedStores) {
  TempDir dir;
  EXPECT_THROW(db::Database::open_readonly(dir.db()), db::FormatError);
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    add_games(writer, 3);
    writer.finish();
  }
  fs::path headers = dir.db() / db::schema::kHeadersFile;
  fs::remove(headers);
  fs::remove(headers.string() + "-wal");
  fs::remove(headers.string() + "-shm");
  expect_format_error(dir.db(), "headers.sqlite is missing");  // games.mdb without headers
  fs::remove(dir.db() / db::schema::kGamesFile);
  fs::remove(dir.db() / (std::string(db::schema::kGamesFile) + "-lock"));
  {
    db::sqlite::Connection foreign(headers, db::sqlite::OpenMode::kReadWriteCreate);
    foreign.exec("CREATE TABLE t(x)");
  }
  expect_format_error(dir.db(), "not a cqldb database");
}

}  // namespace
