// The opening tree (issue 18): counts, scores, ratings, years and best games from the
// position index equal those of replaying every game, over a players-344k slice and the
// annotated corpus, for all games and within a header filter; and the `cqldb tree` command.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "chess/position.h"
#include "cli_test_util.h"
#include "eval_corpus_db.h"
#include "eval_corpus_slice.h"
#include "headers/filter_terms.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_tree.h"
#include "temp_dir.h"

namespace {

void expect_same_stats(const posindex::TreeStats& a, const posindex::TreeStats& b, const std::string& what) {
  EXPECT_EQ(a.games, b.games) << what;
  EXPECT_EQ(a.white, b.white) << what;
  EXPECT_EQ(a.draws, b.draws) << what;
  EXPECT_EQ(a.black, b.black) << what;
  EXPECT_EQ(a.rating_sum, b.rating_sum) << what;
  EXPECT_EQ(a.rated, b.rated) << what;
  EXPECT_EQ(a.opponent_sum, b.opponent_sum) << what;
  EXPECT_EQ(a.mover_points, b.mover_points) << what;
  EXPECT_EQ(a.first_year, b.first_year) << what;
  EXPECT_EQ(a.last_year, b.last_year) << what;
  EXPECT_EQ(a.best.id, b.best.id) << what;
  EXPECT_EQ(a.performance(), b.performance()) << what;
}

void expect_same_tree(const posindex::Tree& indexed, const posindex::Tree& replayed, const std::string& fen) {
  expect_same_stats(indexed.total, replayed.total, fen + " total");
  EXPECT_EQ(indexed.ended, replayed.ended) << fen;
  ASSERT_EQ(indexed.moves.size(), replayed.moves.size()) << fen;
  for (size_t i = 0; i < indexed.moves.size(); ++i) {
    EXPECT_EQ(indexed.moves[i].move, replayed.moves[i].move) << fen;
    expect_same_stats(indexed.moves[i].stats, replayed.moves[i].stats, fen + " move " + std::to_string(i));
  }
  ASSERT_EQ(indexed.top_games.size(), replayed.top_games.size()) << fen;
  for (size_t i = 0; i < indexed.top_games.size(); ++i) EXPECT_EQ(indexed.top_games[i].id, replayed.top_games[i].id);
}

/// 50 probe positions: the start, and positions of games spread over the database at plies
/// from the opening to beyond the indexed 40.
std::vector<chess::Position> probes(const cqltest::CorpusDb& db, size_t count) {
  std::vector<chess::Position> out;
  chess::Position start;
  EXPECT_TRUE(start.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  out.push_back(start);
  const uint32_t plies[] = {1, 2, 3, 5, 8, 12, 20, 30, 41, 60};
  const uint32_t games = db.game_count();
  for (uint32_t i = 0; out.size() < count && i < 10 * count; ++i) {
    const uint32_t id = 1 + uint32_t((uint64_t(i) * 7919) % games);
    std::vector<chess::Position> line;
    if (!db.replay(id, line)) continue;
    const uint32_t ply = plies[i % 10];
    if (ply < line.size()) out.push_back(line[ply]);
  }
  return out;
}

void check_trees(const cqltest::CorpusDb& db, size_t positions, const std::vector<uint32_t>* within) {
  const auto index = posindex::PositionIndex::open(db.dir() / "db");
  ASSERT_TRUE(index.has_value());
  const db::GameReader reader = db.database().reader();
  std::vector<uint32_t> all(reader.game_count());
  std::iota(all.begin(), all.end(), 1u);
  size_t nonempty = 0;
  for (const chess::Position& pos : probes(db, positions)) {
    const posindex::Tree indexed = posindex::build_tree(*index, reader, pos, within);
    const posindex::Tree replayed = posindex::replay_tree(*index, reader, pos, within ? *within : all);
    expect_same_tree(indexed, replayed, pos.fen());
    nonempty += indexed.total.games > 0;
  }
  EXPECT_GT(nonempty, positions / 2);
}

}  // namespace

TEST(OpeningTree, EqualsReplayOverPlayersSlice) {
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  check_trees(slice.db(), 50, nullptr);
}

TEST(OpeningTree, EqualsReplayWithinAHeaderFilter) {
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  std::string error;
  const auto filter = headers::compile_filter_terms({"elo>=2500"}, error);
  ASSERT_TRUE(filter.has_value()) << error;
  headers::HeaderStore store(slice.db().dir() / "db");
  const std::vector<uint32_t> ids = store.candidates(*filter, slice.db().game_count());
  ASSERT_FALSE(ids.empty());
  ASSERT_LT(ids.size(), slice.db().game_count());
  check_trees(slice.db(), 20, &ids);
}

TEST(OpeningTree, EqualsReplayOverAnnotatedCorpus) {
  cqltest::CorpusDb db("tree-annotated", {std::string(CQLDB_CORPUS_DIR) + "/annotated.pgn"});
  check_trees(db, 50, nullptr);
}

TEST(OpeningTree, StartPositionCountsEveryGameOnce) {
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  const auto index = posindex::PositionIndex::open(slice.db().dir() / "db");
  ASSERT_TRUE(index.has_value());
  const db::GameReader reader = slice.db().database().reader();
  chess::Position start;
  ASSERT_TRUE(start.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  const posindex::Tree tree = posindex::build_tree(*index, reader, start);
  // Every game of the slice starts from the standard position.
  EXPECT_EQ(tree.total.games, reader.game_count());
  uint32_t sum = tree.ended;
  for (const posindex::TreeMove& m : tree.moves) sum += m.stats.games;
  EXPECT_EQ(sum, tree.total.games);
  EXPECT_EQ(tree.replayed, 0u);
  ASSERT_FALSE(tree.moves.empty());
  EXPECT_GE(tree.moves[0].stats.games, tree.moves.back().stats.games);
}

TEST(OpeningTree, CliPrintsTableAndExplorerJson) {
  cqltest::TempDir dir("tree-cli");
  const std::string db = (dir.path / "db").string();
  ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db, std::string(CQLDB_CORPUS_DIR) + "/annotated.pgn"}, dir.path).code, 0);
  const auto table = cqltest::run_cqldb({"tree", "--db", db, "--moves", "1.e4 c5"}, dir.path);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("Nf3"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("total"), std::string::npos);
  const auto json = cqltest::run_cqldb({"tree", "--db", db, "--moves", "1.e4 c5", "--format", "jsonl"}, dir.path);
  ASSERT_EQ(json.code, 0) << json.err;
  for (const char* field : {"\"moves\":[", "\"uci\":\"g1f3\"", "\"san\":\"Nf3\"", "\"white\":", "\"draws\":",
                            "\"black\":", "\"averageRating\":", "\"performance\":", "\"topGames\":["})
    EXPECT_NE(json.out.find(field), std::string::npos) << field << "\n" << json.out;
  const auto bad = cqltest::run_cqldb({"tree", "--db", db, "--moves", "1.e4 e4"}, dir.path);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("'e4'"), std::string::npos) << bad.err;
  const auto filtered = cqltest::run_cqldb({"tree", "--db", db, "--year", "1800..1900"}, dir.path);
  EXPECT_EQ(filtered.code, 0) << filtered.err;
}

TEST(OpeningTree, ShellTreeFollowsTheCurrentResult) {
  cqltest::TempDir dir("tree-shell");
  const std::string db = (dir.path / "db").string();
  ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db, std::string(CQLDB_CORPUS_DIR) + "/annotated.pgn"}, dir.path).code, 0);
  const auto all = cqltest::run_cqldb({"shell", "--db", db, "-c", "tree"}, dir.path);
  ASSERT_EQ(all.code, 0) << all.err;
  EXPECT_NE(all.out.find("position: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), std::string::npos)
      << all.out;
  const auto steps =
      cqltest::run_cqldb({"shell", "--db", db, "-c", "filter result=1-0; tree e4 c5; tree back; tree Nc6"}, dir.path);
  ASSERT_EQ(steps.code, 0) << steps.err;
  EXPECT_NE(steps.out.find("position: 1.e4 c5\n"), std::string::npos) << steps.out;
  EXPECT_NE(steps.out.find("position: 1.e4\n"), std::string::npos) << steps.out;
  EXPECT_NE(steps.out.find("position: 1.e4 Nc6\n"), std::string::npos) << steps.out;
  const auto bad = cqltest::run_cqldb({"shell", "--db", db, "-c", "tree back"}, dir.path);
  EXPECT_NE(bad.err.find("already at the root"), std::string::npos) << bad.err;
}
