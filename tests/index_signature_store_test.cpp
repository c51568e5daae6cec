// Signatures in the database: written with their game, read one by one or scanned in id
// order, rewritten by a reindex, and the format checks that ask for `cqldb reindex`.
#include <gtest/gtest.h>

#include <lmdb.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "db/database.h"
#include "db/game_blocks.h"
#include "db/errors.h"
#include "db/lmdb_env.h"
#include "db/lmdb_txn.h"
#include "db/record_builder.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/sqlite_statement.h"
#include "import/game_builder.h"
#include "import/importer.h"
#include "index/reindex.h"
#include "index/signature.h"
#include "index/signature_builder.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

using cqltest::TempDir;

/// A real game (header, record, signature) built from PGN movetext.
import::BuiltGame game(const std::string& movetext){import::RawGame raw;
raw.text = "[White \"A\"]\n[Black \"B\"]\n\n" + movetext;
raw.ordinal = 1;
raw.first_line = 1;
import::GameBuilder builder;
import::BuiltGame built;
builder.build(raw, "games.pgn", built);
EXPECT_TRUE(built.stored) << built.reason;
return built;
}  // namespace

/// The signature computed by replaying the stored record of game `id`.
std::string recomputed(db::GameReader& reader, uint32_t id) {
  std::string_view record;
  EXPECT_TRUE(reader.record(id, record));
  sig::SignatureBuilder builder;
  sig::compute_signature(db::RecordView::parse(record), builder);
  std::string bytes;
  sig::encode(builder.signature(), bytes);
  return bytes;
}

void import_sample(const fs::path& dir, const std::string& file = "mates-30.pgn") {
  db::Database database = db::Database::create_or_open(dir);
  import::import_files(database, {kSample + "/" + file}, import::ImportOptions{}, nullptr);
}

/// Expects every committed game to have the signature a replay of its record gives.
void expect_all_signatures_current(const fs::path& dir) {
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();
  ASSERT_GT(reader.game_count(), 0u);
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    std::string_view bytes;
    ASSERT_TRUE(reader.signature(id, bytes)) << id;
    EXPECT_EQ(bytes, recomputed(reader, id)) << id;
  }
}

/// Runs `body` on the raw LMDB environment of the database in `dir` (no Database may be
/// open in this process meanwhile).
template <typename Body>
void with_raw_lmdb(const fs::path& dir, Body body) {
  db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile);
  db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
  body(txn);
  txn.commit();
}

void set_sqlite_format_version(const fs::path& dir, int64_t version) {
  db::sqlite::Connection sql(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
  db::sqlite::Statement update(sql, "UPDATE meta SET value = ?1 WHERE key = 'format_version'");
  update.bind(1, version);
  update.run();
}

/// Expects both ways of opening `dir` for use to throw FormatError containing `fragment`.
void expect_format_error(const fs::path& dir, const std::string& fragment) {
  for (bool read_only : {false, true}) {
    try {
      if (read_only)
        db::Database::open_readonly(dir);
      else
        db::Database::create_or_open(dir);
      ADD_FAILURE() << "no FormatError (read_only=" << read_only << ")";
    } catch (const db::FormatError& e) {
      EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
    }
  }
}

TEST(SignatureStoreTest, ImportStoresTheSignatureOfEveryGame) {
  TempDir dir;
  import_sample(dir.db());
  expect_all_signatures_current(dir.db());
  db::Database database = db::Database::open_readonly(dir.db());
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 30u);
  std::string_view bytes;
  EXPECT_FALSE(reader.signature(0, bytes));
  EXPECT_FALSE(reader.signature(31, bytes));
}

TEST(SignatureStoreTest, ScanGivesEveryIdAndEmptyBytesForGamesWithout) {
  TempDir dir;
  const import::BuiltGame a = game("1. e4 e5 2. Nf3 *");
  const import::BuiltGame b = game("1. d4 d5 2. c4 dxc4 *");
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    for (uint32_t id = 1; id <= 10; ++id) {
      const import::BuiltGame& g = id % 2 ? a : b;
      // Games 3, 4, 7 and 10 are added without a signature.
      const bool without = id == 3 || id == 4 || id == 7 || id == 10;
      writer.add_game(g.header, g.record, without ? std::string_view() : g.signature);
    }
    writer.finish();
  }
  db::Database database = db::Database::open_readonly(dir.db());
  db::GameReader reader = database.reader();
  std::string_view bytes;
  EXPECT_FALSE(reader.signature(3, bytes));
  ASSERT_TRUE(reader.signature(2, bytes));
  EXPECT_EQ(bytes, b.signature);

  std::string seen;
  auto scan = reader.scan_signatures();
  uint32_t id, expected = 1;
  while (scan.next(id, bytes)) {
    EXPECT_EQ(id, expected++);
    seen += bytes.empty() ? '-' : (bytes == a.signature ? 'a' : 'b');
  }
  EXPECT_EQ(seen, "ab--ab-ba-");
  for (auto [first, last, want] : {std::tuple{3u, 5u, "--a"}, std::tuple{4u, 4u, "-"},
                                   std::tuple{6u, 99u, "b-ba-"}, std::tuple{9u, 9u, "a"}}) {
    std::string part;
    auto range = reader.scan_signatures(first, last);
    while (range.next(id, bytes)) part += bytes.empty() ? '-' : (bytes == a.signature ? 'a' : 'b');
    EXPECT_EQ(part, want) << first << ".." << last;
  }
}

TEST(SignatureStoreTest, SetSignatureReplacesAndDeletesWithoutTouchingTheHeaders) {
  TempDir dir;
  const import::BuiltGame a = game("1. e4 e5 *");
  const import::BuiltGame b = game("1. d4 d5 *");
  db::Database database = db::Database::create_or_open(dir.db());
  {
    db::GameWriter writer = database.writer();
    writer.add_game(a.header, a.record, a.signature);
    writer.add_game(b.header, b.record, b.signature);
    writer.commit();
    EXPECT_THROW(writer.set_signature(3, a.signature), std::out_of_range);
    writer.set_signature(1, b.signature);
    writer.set_signature(2, {});
    writer.commit();  // LMDB only
    EXPECT_EQ(writer.committed_games(), 2u);
    writer.finish();
  }
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 2u);
  std::string_view bytes;
  ASSERT_TRUE(reader.signature(1, bytes));
  EXPECT_EQ(bytes, b.signature);
  EXPECT_FALSE(reader.signature(2, bytes));
}

TEST(SignatureStoreTest, SignaturesAboveTheCommittedCountAreDeletedByTheNextWriter) {
  TempDir dir;
  const import::BuiltGame a = game("1. e4 e5 *");
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    writer.add_game(a.header, a.record, a.signature);
    writer.finish();
  }
  // What a crash between the LMDB and the SQLite commit of game 2 leaves behind.
  with_raw_lmdb(dir.db(), [&](db::lmdb::Txn& txn) {
    const uint32_t two = 2;
    std::string block;  // blocks of one game (db/game_blocks.h)
    db::blocks::encode_block({a.record}, block);
    txn.put(*txn.open_dbi(db::schema::kGamesDbi, db::lmdb::kDbiIntegerKey),
            db::lmdb::integer_key(two), block);
    db::blocks::encode_block({a.signature}, block);
    txn.put(*txn.open_dbi(db::schema::kSignaturesDbi, db::lmdb::kDbiIntegerKey),
            db::lmdb::integer_key(two), block);
  });
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();           // cleans up
    EXPECT_EQ(writer.add_game(a.header, a.record), 2u);  // no signature this time
    writer.finish();
    db::GameReader reader = database.reader();
    std::string_view bytes;
    EXPECT_FALSE(reader.signature(2, bytes));
  }
}

TEST(SignatureStoreTest, AnotherSignatureVersionAsksForAReindex) {
  TempDir dir;
  import_sample(dir.db());
  with_raw_lmdb(dir.db(), [](db::lmdb::Txn& txn) {
    txn.put(*txn.open_dbi(db::schema::kMetaDbi), db::schema::kMetaSignatureFormatVersion, "0");
  });
  expect_format_error(dir.db(),
                      "holds signatures of format version 0 but this cqldb reads version " +
                          std::to_string(sig::kSignatureFormatVersion) +
                          "; rebuild them with `cqldb reindex --db " + dir.db().string() + "`");
  const sig::ReindexSummary s = sig::reindex(dir.db(), sig::ReindexOptions{}, nullptr);
  EXPECT_TRUE(s.upgraded);
  EXPECT_EQ(s.rewritten, 30u);
  expect_all_signatures_current(dir.db());
}

TEST(SignatureStoreTest, AVersionOneDatabaseIsUpgradedByAReindex) {
  TempDir dir;
  import_sample(dir.db(), "studies-30.pgn");
  // Turn it into what cqldb wrote before signatures existed.
  with_raw_lmdb(dir.db(), [](db::lmdb::Txn& txn) {
    const db::lmdb::Dbi meta = *txn.open_dbi(db::schema::kMetaDbi);
    txn.put(meta, db::schema::kMetaFormatVersion, "1");
    txn.del(meta, db::schema::kMetaSignatureFormatVersion);
    const db::lmdb::Dbi signatures =
        *txn.open_dbi(db::schema::kSignaturesDbi, db::lmdb::kDbiIntegerKey);
    ASSERT_EQ(mdb_drop(txn.handle(), signatures.handle, 1), 0);  // deletes the sub-db
  });
  set_sqlite_format_version(dir.db(), 1);
  expect_format_error(dir.db(), "has format version 1 but this cqldb reads version " +
                                    std::to_string(db::schema::kFormatVersion) +
                                    "; upgrade it with `cqldb reindex --db " + dir.db().string() +
                                    "`");

  sig::ReindexOptions options;
  options.games_per_commit = 7;  // several batches
  options.threads = 3;
  std::vector<sig::ReindexProgress> progress;
  const sig::ReindexSummary s = sig::reindex(
      dir.db(), options, [&](const sig::ReindexProgress& p) { progress.push_back(p); });
  EXPECT_TRUE(s.upgraded);
  EXPECT_FALSE(s.interrupted);
  EXPECT_EQ(s.games, 30u);
  EXPECT_EQ(s.rewritten, 30u);
  EXPECT_EQ(s.failed, 0u);
  EXPECT_GT(s.bytes, 0u);
  ASSERT_FALSE(progress.empty());
  EXPECT_EQ(progress.back().done, 30u);
  EXPECT_EQ(progress.back().total, 30u);
  expect_all_signatures_current(dir.db());
  db::Database database = db::Database::open_readonly(dir.db());
  EXPECT_EQ(database.info().format_version, db::schema::kFormatVersion);

  // A second reindex of a current database upgrades nothing and changes nothing.
  const sig::ReindexSummary again = sig::reindex(dir.db(), sig::ReindexOptions{}, nullptr);
  EXPECT_FALSE(again.upgraded);
  EXPECT_EQ(again.bytes, s.bytes);
}

TEST(SignatureStoreTest, ReindexRestoresMissingAndWrongSignatures) {
  TempDir dir;
  import_sample(dir.db(), "players-3000.pgn.zst");
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    for (uint32_t id = 1; id <= 3000; id += 7) writer.set_signature(id, {});
    for (uint32_t id = 2; id <= 3000; id += 11) writer.set_signature(id, "not a signature");
    writer.finish();
  }
  const sig::ReindexSummary s = sig::reindex(dir.db(), sig::ReindexOptions{}, nullptr);
  EXPECT_FALSE(s.upgraded);
  EXPECT_EQ(s.rewritten, 3000u);
  expect_all_signatures_current(dir.db());
}

TEST(SignatureStoreTest, ReindexDropsTheSignatureOfAGameThatCannotBeReplayed) {
  TempDir dir;
  const import::BuiltGame good = game("1. e4 e5 *");
  db::RecordBuilder builder;
  builder.reset();
  // Well-formed (the stored-move rule lets replay play it) but not a legal move: signatures
  // are computed only from legal moves (index/signature_builder.cpp), so reindex drops it.
  builder.add_move(chess::Move(chess::SQ_E2, chess::SQ_E5));
  const std::string bad(builder.finish());
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    writer.add_game(good.header, good.record, good.signature);
    db::GameHeader header = good.header;
    header.plies = 1;
    writer.add_game(header, bad, good.signature);  // a wrong signature
    writer.add_game(good.header, good.record, good.signature);
    writer.finish();
  }
  const sig::ReindexSummary s = sig::reindex(dir.db(), sig::ReindexOptions{}, nullptr);
  EXPECT_EQ(s.rewritten, 2u);
  EXPECT_EQ(s.failed, 1u);
  ASSERT_EQ(s.first_failures.size(), 1u);
  EXPECT_EQ(s.first_failures[0], "game 2: stored move at ply 1 is illegal on its board");
  db::Database database = db::Database::open_readonly(dir.db());
  db::GameReader reader = database.reader();
  std::string_view bytes;
  EXPECT_TRUE(reader.signature(1, bytes));
  EXPECT_FALSE(reader.signature(2, bytes));
  EXPECT_TRUE(reader.signature(3, bytes));
}

TEST(SignatureStoreTest, ReindexNeedsTheWriterLock) {
  TempDir dir;
  import_sample(dir.db());
  db::Database database = db::Database::create_or_open(dir.db());
  db::GameWriter writer = database.writer();
  // A second process: the lock is per process and file (flock), so fork.
  const pid_t child = fork();
  if (child == 0) {
    try {
      sig::reindex(dir.db(), sig::ReindexOptions{}, nullptr);
      _exit(0);
    } catch (const db::Error& e) {
      _exit(std::string(e.what()).find("another writer") != std::string::npos ? 3 : 1);
    } catch (...) {
      _exit(2);
    }
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
}

TEST(SignatureStoreTest, ReindexCommand) {
  TempDir dir;
  import_sample(dir.db());
  const std::string command =
      std::string(CQLDB_BINARY) + " reindex --db '" + dir.db().string() + "' -q 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[256];
  while (size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  EXPECT_EQ(WEXITSTATUS(status), 0) << output;
  EXPECT_NE(output.find("reindexed 30 of 30 games"), std::string::npos) << output;
  EXPECT_NE(output.find("signatures 30,"), std::string::npos) << output;
  expect_all_signatures_current(dir.db());
}

}  // namespace
