// Issue 18: the import takes a game's position index entries from GameBuilder's own play of
// the main line (standard start) or from index_record (a FEN or Chess960 start), into the
// batch's vector when given one. Whichever way, they must be exactly what a reindex derives
// from the stored record (posindex::index_record): checked here game by game on real games.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "import/game_builder.h"
#include "import/pgn_splitter.h"
#include "index/position_index_build.h"

namespace {

struct CaptureCounts {
  int games = 0;       // stored games compared
  int from_fen = 0;    // of them with a start FEN (index_record inside the builder)
  int complete = 0;    // of them ending within the indexed plies
};

/// Builds the first `limit` games of ../shared/corpus/`file` twice, once into a batch sink
/// and once into BuiltGame::positions, and compares both with index_record of the record.
void compare_corpus(const std::string& file, int limit, CaptureCounts& counts) {
  import::PgnSplitter games(import::InputStream(std::string(CQLDB_CORPUS_DIR) + "/" + file));
  import::RawGame raw;
  import::GameBuilder own, sunk;
  std::vector<posindex::GameEntry> sink;
  sunk.set_position_sink(&sink);
  import::BuiltGame a, b;
  posindex::FreshGame expected;
  for (int n = 0; n < limit && games.next(raw); ++n) {
    own.build(raw, file, a);
    sink.clear();
    sunk.build(raw, file, b);
    EXPECT_EQ(a.stored, b.stored) << file << " game " << n + 1;
    if (!a.stored) continue;
    ++counts.games;
    counts.from_fen += !a.header.start_fen.empty();
    posindex::index_record(a.record, expected);
    counts.complete += (expected.flags & posindex::GameFacts::kComplete) != 0;
    const std::string where = file + " game " + std::to_string(n + 1);
    ASSERT_EQ(a.position_count, expected.entries.size()) << where;
    ASSERT_EQ(a.positions.entries.size(), expected.entries.size()) << where;
    ASSERT_EQ(b.position_count, expected.entries.size()) << where;
    ASSERT_EQ(sink.size(), expected.entries.size()) << where;
    EXPECT_TRUE(b.positions.entries.empty()) << where;
    for (size_t i = 0; i < expected.entries.size(); ++i) {
      const posindex::GameEntry& e = expected.entries[i];
      for (const posindex::GameEntry* got : {&a.positions.entries[i], &sink[i]}) {
        ASSERT_EQ(got->key, e.key) << where << " ply " << i;
        ASSERT_EQ(got->move, e.move) << where << " ply " << i;
        ASSERT_EQ(got->ply, e.ply) << where << " ply " << i;
      }
    }
    for (const import::BuiltGame* g : {&a, &b}) {
      EXPECT_EQ(g->positions.flags, expected.flags) << where;
      const chess::Frontier& f = g->positions.frontier;
      const chess::Frontier& x = expected.frontier;
      EXPECT_TRUE(f.castling == x.castling && f.white_home == x.white_home && f.black_home == x.black_home &&
                  f.white_men == x.white_men && f.black_men == x.black_men && f.white_pawns == x.white_pawns &&
                  f.black_pawns == x.black_pawns)
          << where;
    }
  }
}

TEST(PositionIndexCapture, MasterGamesEqualIndexRecord) {
  CaptureCounts c;
  compare_corpus("players-344k.pgn.zst", 20000, c);
  EXPECT_GT(c.games, 19900);
  EXPECT_GT(c.complete, 100);  // short games end within the indexed plies
}

TEST(PositionIndexCapture, AnnotatedStudiesAndMatesEqualIndexRecord) {
  CaptureCounts annotated, studies, mates;
  compare_corpus("annotated.pgn", 1 << 30, annotated);
  EXPECT_GT(annotated.games, 2500);
  compare_corpus("studies.pgn", 1 << 30, studies);
  compare_corpus("mates.pgn", 1 << 30, mates);
  EXPECT_GT(studies.from_fen + mates.from_fen, 100);  // the index_record path is covered
}

}  // namespace
