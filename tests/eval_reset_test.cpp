// :reset (CQL-Position-List position:reset, seed 000 "Zurücksetzen", CQL 3.GX extension):
// the transformations of a list with :reset are grouped by the element of its last-written
// transformation keyword, each group counting on accumulators of its own
// (eval/accumulator.h ResetPlan). The tripled-pawn example of the pages runs on built
// positions and on the first games of players-344k, compared with pawns counted on the board.
#include <gtest/gtest.h>

#include "eval_corpus_slice.h"
#include "eval_test_util.h"

namespace {

using cqltest::Hits;
using cqltest::on;

constexpr size_t kSliceGames = 10000;

// CQL-Position-List / seed 000 position:reset: tripled pawns.
const char* kTripled =
    ":reset acc Pe2 :flipcolor :accumulate* acc :sumrange acc 3 :shiftvertical :shifthorizontal";

/// True if some file holds exactly three pawns of one colour.
bool tripled(const chess::Position& p) {
  for (int c = 0; c < 2; ++c) {
    const chess::Piece pawn = chess::make_piece(chess::Color(c), chess::PAWN);
    for (int f = 0; f < 8; ++f) {
      int n = 0;
      for (int r = 0; r < 8; ++r) n += p.piece_on(chess::make_square(chess::File(f), chess::Rank(r))) == pawn;
      if (n == 3) return true;
    }
  }
  return false;
}

TEST(EvalReset, TripledPawnsOnBuiltPositions) {
  EXPECT_TRUE(on(kTripled, "4k3/8/8/8/4P3/4P3/4P3/4K3 w - - 0 1"));      // e2 e3 e4
  EXPECT_TRUE(on(kTripled, "4k3/p7/p7/p7/8/8/8/4K3 w - - 0 1"));         // a7 a6 a5: black
  EXPECT_TRUE(on(kTripled, "4k3/8/7P/7P/7P/8/P7/4K3 b - - 0 1"));        // h-file, a lone a2
  EXPECT_FALSE(on(kTripled, "4k3/8/8/4P3/4P3/4P3/4P3/4K3 w - - 0 1"));   // four: exactly 3
  EXPECT_FALSE(on(kTripled, "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1"));       // doubled only
  EXPECT_FALSE(on(kTripled, "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1"));        // three, on three files
  EXPECT_FALSE(on(kTripled, "4k3/8/8/8/4p3/4P3/4P3/4K3 w - - 0 1"));     // 2 + 1 of the other colour
  // Without :reset the counter holds every matching variant: three white pawns anywhere.
  const char* kNoReset = "Pe2 :flipcolor :accumulate* acc :sumrange acc 3 :shiftvertical :shifthorizontal";
  EXPECT_TRUE(on(kNoReset, "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1"));
  EXPECT_FALSE(on(kNoReset, "4k3/8/8/8/4P3/4P3/P3P3/4K3 w - - 0 1"));
  EXPECT_FALSE(on(kTripled, "4k3/8/8/8/8/8/PPP5/4K3 w - - 0 1"));
  EXPECT_TRUE(on(kTripled, "4k3/8/8/8/4P3/4P3/P3P3/4K3 w - - 0 1"));
}

TEST(EvalReset, PlainAccumulateAndGroupsOfOtherKeywords) {
  // :accumulate (one counter): both colours of one file add up.
  const char* kFile = ":reset n Pe2 :flipcolor :accumulate n :sumrange n 3 :shiftvertical :shifthorizontal";
  EXPECT_TRUE(on(kFile, "4k3/8/8/8/4p3/4P3/4P3/4K3 w - - 0 1"));
  EXPECT_FALSE(on(kFile, "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1"));
  // Grouped by :shiftvertical (written last): three white pawns on one rank.
  const char* kRank = ":reset n Pd4 :accumulate n :sumrange n 3 :shifthorizontal :shiftvertical";
  EXPECT_TRUE(on(kRank, "4k3/8/8/8/P1P1P3/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(kRank, "4k3/8/8/8/P1P5/4P3/8/4K3 w - - 0 1"));
  // A list without transformations is one group.
  EXPECT_TRUE(on(":reset n P :accumulate n :sumrange n 1", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1"));
}

TEST(EvalReset, TripledPawnsOnTheCorpus) {
  auto& slice = cqltest::CorpusSlice::get(kSliceGames);
  const Hits hits = slice.query(std::string("(match (position ") + kTripled + "))");
  EXPECT_EQ(hits, slice.query(std::string("(match (position ") + kTripled + "))", /*planned=*/true));
  Hits expected;
  slice.for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
    for (uint32_t ply = 0; ply < line.size(); ++ply)
      if (tripled(line[ply])) expected[id].push_back(ply);
  });
  EXPECT_EQ(hits, expected);
  EXPECT_FALSE(hits.empty());
  size_t positions = 0;
  for (const auto& [id, plies] : hits) positions += plies.size();
  std::printf("tripled pawns: %zu games, %zu positions of %zu games\n", hits.size(), positions, kSliceGames);
  // The pages' "better way" (at least three pawns on a file) finds a superset.
  const Hits at_least = slice.query("(match (position :piececount P[d2-7] 3 6 :shifthorizontal :flipcolor))");
  for (const auto& [id, plies] : hits) {
    auto it = at_least.find(id);
    ASSERT_NE(it, at_least.end()) << id;
    for (uint32_t p : plies) EXPECT_TRUE(std::binary_search(it->second.begin(), it->second.end(), p)) << id;
  }
}

TEST(EvalReset, Errors) {
  // the reset accumulator must be accumulated by the list itself
  EXPECT_THROW(cqltest::compile("(match (position :reset a :accumulate b))"), eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :shiftvertical :and ((position :accumulate a))))"),
               eval::CompileError);
  // ... and is used only there
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :accumulate a :shiftvertical) (position :sumrange a 1))"),
               eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :accumulate a) (position Pd2 :accumulate a))"),
               eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :accumulate a) (position :reset a :accumulate a))"),
               eval::CompileError);
  EXPECT_NO_THROW(cqltest::compile(std::string("(match (position ") + kTripled + "))"));
}

}  // namespace
