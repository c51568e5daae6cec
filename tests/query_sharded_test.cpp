// Sharded databases (issue 38, query/sharded.h): the sample split by shard_database into 3
// shards answers every query of a mixed set, sorted orders, limits and opening trees exactly
// as the unsharded database (ids global); the manifest is checked on reading; a game's file
// and ordinal survive the copy. The command line and the Python module are tested over the
// same code in python/tests/test_sharded.py.
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "chess/position.h"
#include "import/importer.h"
#include "query/sharded.h"
#include "index/tree_json.h"
#include "temp_dir.h"

namespace {

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample/";

class ShardedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new cqltest::TempDir("sharded");
    {
      db::Database database = db::Database::create_or_open(dir_->path / "one");
      import::import_files(database,
                           {kSample + "players-3000.pgn.zst", kSample + "annotated-40.pgn", kSample + "studies-30.pgn",
                            kSample + "mates-30.pgn"},
                           import::ImportOptions{}, nullptr);
    }
    query::shard_database(dir_->path / "one", 3, dir_->path / "many");
    one_ = query::Store::open(dir_->path / "one", true).release();
    many_ = query::Store::open(dir_->path / "many", true).release();
  }
  static void TearDownTestSuite() {
    delete one_;
    delete many_;
    delete dir_;
  }
  static cqltest::TempDir* dir_;
  static query::Store* one_;
  static query::Store* many_;
};
cqltest::TempDir* ShardedTest::dir_ = nullptr;
query::Store* ShardedTest::one_ = nullptr;
query::Store* ShardedTest::many_ = nullptr;

std::vector<uint32_t> ids(const std::vector<eval::GameMatch>& matches) {
  std::vector<uint32_t> out;
  for (const eval::GameMatch& m : matches) out.push_back(m.id);
  return out;
}

TEST_F(ShardedTest, ManifestCoversEveryGame) {
  ASSERT_TRUE(many_->sharded());
  const std::vector<query::ShardInfo> shards = query::read_manifest(dir_->path / "many");
  ASSERT_EQ(shards.size(), 3u);
  EXPECT_EQ(shards[0].first_id, 1u);
  EXPECT_EQ(shards[1].first_id, shards[0].games + 1);
  EXPECT_EQ(many_->game_count(), one_->game_count());
  // a manifest whose ranges do not follow each other is refused
  const std::filesystem::path bad = dir_->path / "bad";
  std::filesystem::create_directories(bad);
  std::ofstream(bad / query::kShardManifest)
      << R"({"format":"cqldb-sharded","version":1,"shards":[{"path":"a","first_id":2,"games":5}]})";
  EXPECT_THROW(query::read_manifest(bad), std::runtime_error);
}

TEST_F(ShardedTest, QueriesSortsAndLimitsEqualTheUnshardedDatabase) {
  const char* scripts[] = {"(match (position :mate))", "(match :player Alekhine (position :check))",
                           "(match (position :variations :check))", "(match (position :promote [RBNrbn]))",
                           "(match :whiteelo >=2600 (position :piececount [Qq] 0))",
                           "cql() mate", "cql() flipcolor {btm check}"};  // CQL 6 (issue 36) too
  for (const char* text : scripts) {
    const query::Query q = query::Query::compile(text, "-e");
    query::ExecuteOptions options;
    const query::Result a = one_->execute(q, options), b = many_->execute(q, options);
    EXPECT_EQ(ids(a.matches), ids(b.matches)) << text;
    EXPECT_EQ(a.stats.matches, b.stats.matches) << text;
    for (size_t i = 0; i < a.matches.size() && i < b.matches.size(); ++i) {
      EXPECT_EQ(a.matches[i].plies, b.matches[i].plies) << text;
      EXPECT_EQ(a.matches[i].variation_plies, b.matches[i].variation_plies) << text;
    }
    options.limit = 5;
    EXPECT_EQ(ids(one_->execute(q, options).matches), ids(many_->execute(q, options).matches)) << text;
    for (const char* order : {"-date", "elo", "white", "-id"}) {
      std::vector<eval::GameMatch> x = a.matches, y = b.matches;
      one_->sort(x, *headers::parse_sort_order(order));
      many_->sort(y, *headers::parse_sort_order(order));
      EXPECT_EQ(ids(x), ids(y)) << text << " sorted by " << order;
      // issue 40: --sort with --limit keeps the first N of the whole sorted answer, and the
      // summary says so ("7 of 76 matches")
      query::ExecuteOptions sorted;
      sorted.sort = headers::parse_sort_order(order);
      sorted.limit = 7;
      const query::Result c = one_->execute(q, sorted), d = many_->execute(q, sorted);
      EXPECT_EQ(ids(c.matches), ids(d.matches)) << text << " sorted by " << order << " limit 7";
      x.resize(std::min<size_t>(x.size(), 7));
      EXPECT_EQ(ids(d.matches), ids(x)) << text << " sorted by " << order << " limit 7";
      EXPECT_EQ(query::matches_text(c.stats), query::matches_text(d.stats)) << text << " sorted by " << order;
    }
  }
}

TEST_F(ShardedTest, TreesAndGamesEqualTheUnshardedDatabase) {
  for (const char* moves : {"", "e4", "e4 c5", "d4 Nf6 c4", "e4 e5 Nf3 Nc6 Bb5"}) {
    chess::Position pos;
    ASSERT_TRUE(pos.set_fen(posindex::kStartFen).ok());
    std::string error;
    ASSERT_TRUE(posindex::play_san_moves(pos, moves, error)) << error;
    EXPECT_EQ(one_->tree_json(pos), many_->tree_json(pos)) << moves;
  }
  query::Store::Reader a = one_->reader(), b = many_->reader();
  for (uint32_t id : {1u, 1034u, 1035u, 2500u, one_->game_count()}) {
    db::GameHeader x, y;
    ASSERT_TRUE(a.read_header(id, x) && b.read_header(id, y)) << id;
    EXPECT_EQ(x.source_file, y.source_file) << id;
    EXPECT_EQ(x.ordinal, y.ordinal) << id;
    EXPECT_EQ(x.white, y.white) << id;
    EXPECT_EQ(x.site, y.site) << id;
    EXPECT_EQ(y.id, id);
  }
  db::GameHeader none;
  EXPECT_FALSE(b.read_header(one_->game_count() + 1, none));
}

}  // namespace
