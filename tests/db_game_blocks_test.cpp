// Game blocks (db/game_blocks.h): records and signatures of consecutive games in one LMDB
// entry. The format on its own, then a real corpus imported in several batches: every game
// read through blocks equals what the importer built, block by block and at random, and a
// block cut by a crash between the two commits is repaired by the next writer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "db/database.h"
#include "db/errors.h"
#include "db/game_blocks.h"
#include "db/lmdb_cursor.h"
#include "db/lmdb_env.h"
#include "db/lmdb_txn.h"
#include "db/schema.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cqltest::TempDir;

const std::string kCorpus = CQLDB_CORPUS_DIR;

std::string parse_error(uint32_t last_id, const std::string& value) {
  db::blocks::BlockView block;
  return db::blocks::BlockView::parse(last_id, value, block) ? "parsed" : "rejected";
}

TEST(GameBlocks, EncodedBlocksGiveBackEveryValue) {
  // Small values (2-byte offsets), an empty one (a game without a signature), and a block
  // past 64 KiB (4-byte offsets).
  for (size_t big : {size_t(0), size_t(70000)}) {
    std::vector<std::string> values = {"a", "", "record three", std::string(big, 'x'), "z"};
    std::vector<std::string_view> views(values.begin(), values.end());
    std::string value;
    db::blocks::encode_block(views, value);
    EXPECT_EQ(uint8_t(value[0]), big ? 4 : 2);
    db::blocks::BlockView block;
    ASSERT_TRUE(db::blocks::BlockView::parse(104, value, block));
    EXPECT_EQ(block.first_id(), 100u);
    EXPECT_EQ(block.last_id(), 104u);
    EXPECT_FALSE(block.holds(99));
    EXPECT_FALSE(block.holds(105));
    for (uint32_t i = 0; i < values.size(); ++i) {
      std::string_view bytes;
      ASSERT_TRUE(block.entry(100 + i, bytes));
      EXPECT_EQ(bytes, values[i]) << i;
    }
  }
}

TEST(GameBlocks, MalformedBlocksAreRejected) {
  std::string value;
  db::blocks::encode_block({"abc", "de"}, value);
  EXPECT_EQ(parse_error(2, value), "parsed");
  EXPECT_EQ(parse_error(1, value), "rejected");  // two games cannot end at game 1
  EXPECT_EQ(parse_error(2, value.substr(0, value.size() - 1)), "rejected");  // short payload
  EXPECT_EQ(parse_error(2, value + "!"), "rejected");                        // bytes left over
  EXPECT_EQ(parse_error(2, value.substr(0, 2)), "rejected");                 // no header
  std::string bad = value;
  bad[0] = 3;  // offset width
  EXPECT_EQ(parse_error(2, bad), "rejected");
  bad = value;
  bad[1] = bad[2] = 0;  // no games
  EXPECT_EQ(parse_error(2, bad), "rejected");
  bad = value;
  bad[3] = 9;  // game 1 ends after game 2 does: parses, but its entry is refused
  db::blocks::BlockView block;
  ASSERT_TRUE(db::blocks::BlockView::parse(2, bad, block));
  std::string_view bytes;
  EXPECT_FALSE(block.entry(1, bytes));
  EXPECT_FALSE(block.entry(2, bytes));
}

TEST(GameBlocks, BuilderClosesBlocksAtTheTargetSize) {
  db::blocks::BlockBuilder builder;
  EXPECT_FALSE(builder.full_for(100000));  // an empty builder takes any value
  builder.add(7, std::string(10000, 'a'));
  EXPECT_FALSE(builder.full_for(6000));
  EXPECT_TRUE(builder.full_for(7000));
  EXPECT_THROW(builder.add(9, "b"), std::invalid_argument);
  builder.add(8, "b");
  EXPECT_EQ(builder.pending(8).value_or("?"), "b");
  EXPECT_FALSE(builder.pending(9));
  builder.clear();
  EXPECT_TRUE(builder.empty());
}

/// Every game of the annotated corpus (2,554 games with variations, long and short records)
/// imported in batches of 500.
class BlockedCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new TempDir;
    db::Database database = db::Database::create_or_open(dir_->db());
    import::ImportOptions options;
    options.games_per_commit = 500;
    import::import_files(database, {kCorpus + "/annotated.pgn"}, options, nullptr);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }

  /// (last id, game count, value size) of every block of sub-db `name`.
  struct BlockInfo {
    uint32_t last, count;
    size_t bytes;
  };
  static std::vector<BlockInfo> blocks_of(const fs::path& dir, const char* name) {
    std::vector<BlockInfo> out;
    db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile, {.read_only = true});
    db::lmdb::Txn txn = db::lmdb::Txn::begin_read(env);
    const db::lmdb::Dbi dbi = *txn.open_dbi(name, db::lmdb::kDbiIntegerKey);
    db::lmdb::Cursor cursor(txn, dbi);
    std::string_view key, value;
    for (bool found = cursor.first(key, value); found; found = cursor.next(key, value)) {
      uint32_t last = 0;
      std::memcpy(&last, key.data(), sizeof last);
      db::blocks::BlockView block;
      EXPECT_TRUE(db::blocks::BlockView::parse(last, value, block)) << name << " " << last;
      out.push_back({last, block.count(), value.size()});
    }
    return out;
  }

  static TempDir* dir_;
};

TempDir* BlockedCorpus::dir_ = nullptr;

TEST_F(BlockedCorpus, BlocksCoverEveryGameOnceAndFillTheirPages) {
  db::Database database = db::Database::open_readonly(dir_->db());
  const uint32_t games = database.reader().game_count();
  ASSERT_GT(games, 2500u);
  for (const char* name : {db::schema::kGamesDbi, db::schema::kSignaturesDbi}) {
    const std::vector<BlockInfo> blocks = blocks_of(dir_->db(), name);
    uint32_t next = 1;
    size_t full = 0;
    for (const BlockInfo& b : blocks) {
      EXPECT_EQ(b.last - b.count + 1, next) << name << ": games " << next << ".." << b.last;
      next = b.last + 1;
      // Over the target only as a block of one game.
      if (b.bytes > db::blocks::kBlockTargetBytes) {
        EXPECT_EQ(b.count, 1u) << name << " " << b.last;
      }
      if (b.bytes > db::blocks::kBlockTargetBytes - 2048) ++full;
    }
    EXPECT_EQ(next, games + 1) << name;
    // Batches of 500 games: a block ends at every commit, so at least 8 blocks; most
    // others are full.
    EXPECT_GE(blocks.size(), games / 500) << name;
    EXPECT_LT(blocks.size(), games / 10) << name;
    EXPECT_GT(full, blocks.size() / 3) << name;
  }
}

TEST_F(BlockedCorpus, RandomReadsEqualTheScanAndTheSignatureScan) {
  db::Database database = db::Database::open_readonly(dir_->db());
  db::GameReader reader = database.reader();
  std::vector<std::string> records(reader.game_count() + 1), sigs(reader.game_count() + 1);
  {
    auto scan = reader.scan();
    uint32_t id = 0;
    std::string_view bytes;
    uint32_t seen = 0;
    while (scan.next(id, bytes)) {
      ASSERT_EQ(id, ++seen);
      records[id] = bytes;
    }
    EXPECT_EQ(seen, reader.game_count());
    auto sig_scan = reader.scan_signatures();
    seen = 0;
    while (sig_scan.next(id, bytes)) {
      ASSERT_EQ(id, ++seen);
      sigs[id] = bytes;
    }
    EXPECT_EQ(seen, reader.game_count());
  }
  std::vector<uint32_t> ids(reader.game_count());
  for (uint32_t i = 0; i < ids.size(); ++i) ids[i] = i + 1;
  std::shuffle(ids.begin(), ids.end(), std::mt19937(16));
  for (uint32_t id : ids) {
    std::string_view bytes;
    ASSERT_TRUE(reader.record(id, bytes)) << id;
    EXPECT_EQ(bytes, records[id]) << id;
    EXPECT_FALSE(bytes.empty());
    ASSERT_TRUE(reader.signature(id, bytes)) << id;
    EXPECT_EQ(bytes, sigs[id]) << id;
  }
  // A scan of a middle range starts inside a block.
  auto scan = reader.scan(1234, 1300);
  uint32_t id = 0, expected = 1234;
  std::string_view bytes;
  while (scan.next(id, bytes)) {
    EXPECT_EQ(id, expected++);
    EXPECT_EQ(bytes, records[id]);
  }
  EXPECT_EQ(expected, 1301u);
  std::string_view none;
  EXPECT_FALSE(reader.record(reader.game_count() + 1, none));
}

TEST_F(BlockedCorpus, ABlockCutByACrashIsRepairedByTheNextWriter) {
  TempDir copy;
  fs::create_directories(copy.db());
  for (const auto& e : fs::directory_iterator(dir_->db()))
    if (e.path().filename().string().find("-lock") == std::string::npos)
      fs::copy(e.path(), copy.db() / e.path().filename());
  uint32_t games = 0, first = 0;
  std::vector<std::string> tail;  // the records of the last block
  {
    db::Database database = db::Database::open_readonly(copy.db());
    db::GameReader reader = database.reader();
    games = reader.game_count();
  }
  // The last block of the records, grown by three junk games and stored under the new
  // last id: what a writer that put more games in that block and died before its SQLite
  // commit would leave (ours close a block at every commit; the repair is cut anyway).
  {
    db::lmdb::Env env = db::lmdb::Env::open(copy.db() / db::schema::kGamesFile);
    db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
    const db::lmdb::Dbi dbi = *txn.open_dbi(db::schema::kGamesDbi, db::lmdb::kDbiIntegerKey);
    std::string_view value;
    ASSERT_TRUE(txn.get(dbi, db::lmdb::integer_key(games), value));
    db::blocks::BlockView block;
    ASSERT_TRUE(db::blocks::BlockView::parse(games, value, block));
    first = block.first_id();
    for (uint32_t id = first; id <= games; ++id) {
      std::string_view bytes;
      ASSERT_TRUE(block.entry(id, bytes));
      tail.emplace_back(bytes);
    }
    std::vector<std::string_view> grown(tail.begin(), tail.end());
    for (int i = 0; i < 3; ++i) grown.push_back("junk");
    std::string encoded;
    db::blocks::encode_block(grown, encoded);
    ASSERT_TRUE(txn.del(dbi, db::lmdb::integer_key(games)));
    const uint32_t last = games + 3;
    txn.put(dbi, db::lmdb::integer_key(last), encoded);
    txn.commit();
  }
  {
    db::Database database = db::Database::create_or_open(copy.db());
    EXPECT_EQ(database.info().uncommitted_records, 3u);
    db::GameReader reader = database.reader();
    std::string_view bytes;
    ASSERT_TRUE(reader.record(games, bytes));  // read through the grown block
    EXPECT_EQ(bytes, tail.back());
    EXPECT_FALSE(reader.record(games + 1, bytes));
  }
  {
    db::Database database = db::Database::create_or_open(copy.db());
    { db::GameWriter writer = database.writer(); }  // cuts the block back
    EXPECT_EQ(database.info().uncommitted_records, 0u);
    db::GameReader reader = database.reader();
    for (uint32_t id = first; id <= games; ++id) {
      std::string_view bytes;
      ASSERT_TRUE(reader.record(id, bytes)) << id;
      EXPECT_EQ(bytes, tail[id - first]) << id;
    }
  }
  // And the database takes more games after it.
  {
    db::Database database = db::Database::create_or_open(copy.db());
    import::import_files(database, {kCorpus + "/mates.pgn"}, import::ImportOptions{}, nullptr);
    db::GameReader reader = database.reader();
    EXPECT_GT(reader.game_count(), games);
    auto scan = reader.scan();
    uint32_t id = 0, seen = 0;
    std::string_view bytes;
    while (scan.next(id, bytes)) EXPECT_EQ(id, ++seen);
    EXPECT_EQ(seen, reader.game_count());
  }
}

}  // namespace
