// Counting keywords (CQL-Position-List "Matching count keywords", seed 000): :checkcount in
// all its forms (colour roles swap under :flipcolor), :matchcount and
// :pretransformmatchcount (SPEC Game traversal).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using Plies = std::vector<uint32_t>;

Plies plies(const std::string& items, const std::string& movetext, const std::string& fen = "") {
  std::string tags;
  if (!fen.empty()) tags = "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n";
  return cqltest::run_game(cqltest::pos(items), tags + "\n" + movetext + "\n").plies;
}

bool matches(const std::string& script, const std::string& movetext) {
  return cqltest::run_game(script, movetext + "\n").matched;
}

// White checks with the moves to plies 3 and 5; Black checks with the move to ply 12.
const char* const kChecks = "1. e4 f6 2. Qh5+ g6 3. Qxg6+ hxg6 4. d3 Rxh2 5. Rxh2 e6 6. Rh8 Bb4+ 7. c3 *";

TEST(CheckCount, SingleRangeIsTheNthCheckOfTheMover) {
  EXPECT_EQ(plies(":checkcount 1", kChecks), Plies({3, 12}));  // first check of either side
  EXPECT_EQ(plies(":checkcount 2", kChecks), Plies({5}));     // "as soon as any side has given second check"
  EXPECT_EQ(plies(":checkcount >=3", kChecks), Plies());
}

TEST(CheckCount, TwoRangesAreChecksWhiteAndBlackReceived) {
  EXPECT_EQ(plies(":checkcount 0 : 0", kChecks), Plies({0, 1, 2}));
  EXPECT_EQ(plies(":checkcount 0 : 1", kChecks), Plies({3, 4}));
  EXPECT_EQ(plies(":checkcount 0 : 2", kChecks), Plies({5, 6, 7, 8, 9, 10, 11}));
  EXPECT_EQ(plies(":checkcount 1 : 2", kChecks), Plies({12, 13}));
  EXPECT_EQ(plies(":checkcount <=2 : 3", kChecks), Plies());  // seed 000 example
  // Seed 000: `:not :checkcount 0 : 0` = some side has received a check.
  EXPECT_EQ(plies(":not :checkcount 0 : 0", kChecks), Plies({3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}));
  // Under :flipcolor the sides swap: Black received 0, White received 1 joins in.
  EXPECT_EQ(plies(":checkcount 1 : 0 :flipcolor", kChecks), Plies({3, 4}));
  EXPECT_EQ(plies(":checkcount 2 : 1 :flipcolor", kChecks), Plies({12, 13}));
}

TEST(CheckCount, PlusFormIsChecksGivenAtTheirFirstPosition) {
  EXPECT_EQ(plies(":checkcount +0+0", kChecks), Plies({0}));
  EXPECT_EQ(plies(":checkcount +1+0", kChecks), Plies({3}));
  EXPECT_EQ(plies(":checkcount +2+0", kChecks), Plies({5}));
  EXPECT_EQ(plies(":checkcount +2+1", kChecks), Plies({12}));
  EXPECT_EQ(plies(":checkcount +0+3", kChecks), Plies());
  EXPECT_EQ(plies(":checkcount +0+1 :flipcolor", kChecks), Plies({3}));
}

TEST(CheckCount, FirstCheckIsMate) {
  // Seed 000: (position :checkcount 1 : 0 :mate :flipcolor) - the first check is mate.
  const char* script = "(match (position :checkcount 1 : 0 :mate :flipcolor))";
  EXPECT_TRUE(matches(script, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"));
  EXPECT_TRUE(matches(script, "1. f3 e5 2. g4 Qh4# 0-1"));
  EXPECT_TRUE(matches(script, "1. e4 e5 2. Qh5 Ke7 3. Qxe5# 1-0"));
  EXPECT_FALSE(matches(script, kChecks));
}

TEST(MatchCount, RangeOfMatchedPositions) {
  EXPECT_TRUE(matches("(match (position :check :matchcount 3))", kChecks));
  EXPECT_FALSE(matches("(match (position :check :matchcount 2))", kChecks));
  EXPECT_TRUE(matches("(match (position :check :matchcount 2 4))", kChecks));
  EXPECT_FALSE(matches("(match (position :check :matchcount >=4))", kChecks));
  // Seed 000: (position :moveto U :matchcount 0) = no capture in the whole game.
  EXPECT_TRUE(matches("(match (position :moveto U :matchcount 0))", "1. e4 e5 2. Nf3 Nc6 *"));
  EXPECT_FALSE(matches("(match (position :moveto U :matchcount 0))", kChecks));
  // Matched plies are the positions the list matched.
  EXPECT_EQ(plies(":check :matchcount 3", kChecks), Plies({3, 5, 12}));
  EXPECT_EQ(plies(":moveto U :matchcount 0", "1. e4 e5 *"), Plies());
}

TEST(MatchCount, MateWithoutEarlierCheck) {
  // Seed 000: (match (position :mate) (position :check :matchcount 1)).
  const char* script = "(match (position :mate) (position :check :matchcount 1))";
  EXPECT_TRUE(matches(script, "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0"));
  EXPECT_FALSE(matches(script, "1. e4 e5 2. Bc4 Bc5 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxe5 Qe7 6. Qxh8 Bxf2+ *"));
}

TEST(MatchCount, QueenCorners) {
  // Seed 000: white and black queens together at least four times to a corner.
  const char* game = "[SetUp \"1\"]\n[FEN \"3qk3/8/8/8/8/8/8/3QK3 w - - 0 1\"]\n\n"
                     "1. Qa1 Qa8 2. Qb1 Qb8 3. Qa1 Qa8 *";
  EXPECT_TRUE(matches("(match (position :flipcolor :matchcount >=4 :movefrom Q :moveto ?[a1,a8,h1,h8]))", game));
  EXPECT_TRUE(matches("(match (position :flipcolor :pretransformmatchcount >=2 :movefrom Q :moveto ?[a1,a8,h1,h8]))", game));
  EXPECT_FALSE(matches("(match (position :flipcolor :pretransformmatchcount >=3 :movefrom Q :moveto ?[a1,a8,h1,h8]))", game));
  // Only White's queen goes to corners (twice): 2 for White, 0 for Black.
  const char* white_only = "[SetUp \"1\"]\n[FEN \"3qk3/8/8/8/8/8/8/3QK3 w - - 0 1\"]\n\n"
                           "1. Qa1 Qc8 2. Qb1 Qd8 3. Qa1 Qc8 *";
  EXPECT_TRUE(matches("(match (position :flipcolor :pretransformmatchcount 2 :movefrom Q :moveto ?[a1,a8,h1,h8]))", white_only));
  EXPECT_TRUE(matches("(match (position :flipcolor :pretransformmatchcount 0 :movefrom Q :moveto ?[a1,a8,h1,h8]))", white_only));
  EXPECT_FALSE(matches("(match (position :flipcolor :pretransformmatchcount 1 :movefrom Q :moveto ?[a1,a8,h1,h8]))", white_only));
}

TEST(MatchCount, PretransformCountsEachShiftOnItsOwn) {
  // Reference: captures on the same square (:pretransformmatchcount ... :shift) vs anywhere.
  const char* same = "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 *";        // two captures on d5
  const char* apart = "1. e4 d5 2. exd5 c6 3. dxc6 Nxc6 *";        // d5, c6, c6
  EXPECT_TRUE(matches("(match (position :moveto Ud4 :matchcount >=2 :shift))", same));
  EXPECT_TRUE(matches("(match (position :moveto Ud4 :pretransformmatchcount >=2 :shift))", same));
  EXPECT_TRUE(matches("(match (position :moveto Ud4 :matchcount >=3 :shift))", apart));
  EXPECT_FALSE(matches("(match (position :moveto Ud4 :pretransformmatchcount >=3 :shift))", apart));
  EXPECT_TRUE(matches("(match (position :moveto Ud4 :pretransformmatchcount 2 :shift))", apart));
}

TEST(MatchCount, MixedIsAnError) {
  // Nested counting lists are decided over the line: eval_nested_count_test.cpp.
  EXPECT_NO_THROW(cqltest::compile("(match (position :not (position :check :matchcount 2)))"));
  EXPECT_THROW(cqltest::compile("(match (position :check :matchcount 2 :pretransformmatchcount 2))"),
               eval::CompileError);
}

}  // namespace
