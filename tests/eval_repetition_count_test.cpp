// :repetitioncount / :pretransformrepetitioncount (CQL-Position-List "Matching count
// keywords"): a top-level list is satisfied when the longest run of consecutive positions
// of a line it matches has a length in the range (`0`: the list never matches).
#include <gtest/gtest.h>

#include "eval_test_util.h"

namespace {

using cqltest::pos;
using cqltest::kScotch;  // captures at 5 6 7 8 (one run of four, on d4), then 12
using cqltest::run_game;

// Captures at plies 3 dxe4, 4 Nxe4 (on e4), 5 Qxd2+, 6 Bxd2 (on d2): one run of four over
// two squares.
const char* kTwoSquares = "1. e4 d5 2. Nc3 dxe4 3. Nxe4 Qxd2+ 4. Bxd2 *";
// No capture at all.
const char* kQuiet = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 *";

bool matches(const std::string& items, const char* pgn) { return run_game(pos(items), pgn).matched; }

TEST(EvalRepetitionCount, LongestRunOfConsecutiveMatches) {
  EXPECT_TRUE(matches(":moveto U :repetitioncount >=4", kScotch));
  EXPECT_TRUE(matches(":moveto U :repetitioncount 4", kScotch));
  EXPECT_FALSE(matches(":moveto U :repetitioncount >=5", kScotch));
  EXPECT_FALSE(matches(":moveto U :repetitioncount 5", kScotch));  // 5 captures, not in a row
  EXPECT_TRUE(matches(":moveto U :matchcount 5", kScotch));
  EXPECT_FALSE(matches(":moveto U :repetitioncount 1 3", kScotch));  // the longest run counts
  EXPECT_FALSE(matches(":moveto U :repetitioncount 0", kScotch));
}

TEST(EvalRepetitionCount, ZeroMeansNeverMatches) {
  EXPECT_TRUE(matches(":moveto U :repetitioncount 0", kQuiet));
  EXPECT_FALSE(matches(":moveto U :repetitioncount >=1", kQuiet));
  EXPECT_TRUE(matches(":moveto U :repetitioncount 0 2", kQuiet));
  // Knights going back and forth: every position but the last has a knight move next.
  EXPECT_TRUE(matches(":movefrom [Nn] :repetitioncount 6", kQuiet));
  EXPECT_FALSE(matches(":movefrom [Nn] :repetitioncount >=7", kQuiet));
}

TEST(EvalRepetitionCount, ReportsTheMatchedPlies) {
  cqltest::GameResult r = run_game(pos(":moveto U :repetitioncount >=4"), kScotch);
  ASSERT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (std::vector<uint32_t>{5, 6, 7, 8, 12}));
}

TEST(EvalRepetitionCount, PretransformCountsEachVariantOnItsOwn) {
  // All four captures of the run are on d4.
  EXPECT_TRUE(matches(":moveto Ud4 :pretransformrepetitioncount >=4 :shift", kScotch));
  EXPECT_FALSE(matches(":moveto Ud4 :pretransformrepetitioncount >=5 :shift", kScotch));
  // The run of four is on e4 twice, then on d2 twice: only the plain form sees four.
  EXPECT_TRUE(matches(":moveto Ue4 :repetitioncount >=4 :shift", kTwoSquares));
  EXPECT_FALSE(matches(":moveto Ue4 :pretransformrepetitioncount >=3 :shift", kTwoSquares));
  EXPECT_TRUE(matches(":moveto Ue4 :pretransformrepetitioncount 2 :shift", kTwoSquares));
}

TEST(EvalRepetitionCount, RunsDoNotSpanLines) {
  // Main line: captures at plies 5..8; the variation 4... Qxd4?? is not searched by default.
  EXPECT_TRUE(matches(":moveto U :repetitioncount 4", kScotch));
  // In a variation, the run starts again at the branch position.
  const char* with_variation = "1. e4 d5 2. exd5 (2. Nc3 dxe4 3. Nxe4 Qxd2+ 4. Bxd2) 2... Qxd5 3. Nc3 *";
  EXPECT_TRUE(matches(":moveto U :repetitioncount 2", with_variation));
  EXPECT_TRUE(matches(":moveto U :variationsonly :repetitioncount 4", with_variation));
  EXPECT_TRUE(matches(":moveto U :variations :repetitioncount 4", with_variation));
}

TEST(EvalRepetitionCount, RejectedCombinations) {
  EXPECT_THROW(cqltest::compile(pos(":moveto U :repetitioncount 2 :matchcount 3")), eval::CompileError);
  EXPECT_THROW(cqltest::compile(pos(":moveto U :repetitioncount 2 :pretransformrepetitioncount 3")),
               eval::CompileError);
  // Inside a sequence element (the queen-sacrifice example): eval_nested_count_test.cpp.
}

}  // namespace
