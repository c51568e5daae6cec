// :unstoppablepawns, :passedpawnrace and :perpendicular (seed 000, CQL-Position-List): positions built for
// each rule, the reference's examples, and the colour transformation.
#include <gtest/gtest.h>

#include <string>

#include "eval_test_util.h"

namespace {

using cqltest::on;

// ---- :unstoppablepawns -----------------------------------------------------------------------

TEST(UnstoppablePawns, RuleOfTheSquare) {
  EXPECT_TRUE(on(":unstoppablepawns P >0", "7k/8/P7/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":unstoppablepawns P 1", "7k/8/P7/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":unstoppablepawns P >0", "1k6/8/P7/8/8/8/8/4K3 w - - 0 1"));
  // The defending king moves first: Kd8 reaches the square of a6 (needs a7, a8).
  EXPECT_FALSE(on(":unstoppablepawns P >0", "3k4/8/P7/8/8/8/8/4K3 b - - 0 1"));
  EXPECT_TRUE(on(":unstoppablepawns P >0", "3k4/8/P7/8/8/8/8/4K3 w - - 0 1"));
  // Not passed (b7 guards a8's path), or the path is obstructed.
  EXPECT_FALSE(on(":unstoppablepawns P >0", "7k/1p6/P7/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":unstoppablepawns P >0", "N6k/8/P7/8/8/8/8/4K3 w - - 0 1"));
}

TEST(UnstoppablePawns, OnlyAgainstKingAndPawns) {
  EXPECT_FALSE(on(":unstoppablepawns P >0", "7k/8/P7/8/8/8/8/n3K3 w - - 0 1"));
  EXPECT_TRUE(on(":unstoppablepawns P >0", "7k/7p/P7/8/8/8/8/4K3 w - - 0 1"));
}

TEST(UnstoppablePawns, BothColoursOnTheQueenSide) {
  const char* script = ":unstoppablepawns [Pp][a-d?] >0 : >0";
  EXPECT_TRUE(on(script, "7k/8/P7/8/8/1p6/8/7K w - - 0 1"));
  EXPECT_FALSE(on(script, "7k/8/P7/8/8/1p6/2K5/8 w - - 0 1"));  // Kc2 catches b3
  EXPECT_TRUE(on(":unstoppablepawns [Pp] 2", "7k/8/P7/8/8/1p6/8/7K w - - 0 1"));
  EXPECT_TRUE(on(":unstoppablepawns [Pp] 1 : 0", "7k/8/P7/8/8/1p6/2K5/8 w - - 0 1"));
  EXPECT_TRUE(on(":flipcolor :unstoppablepawns [Pp] 0 : 1", "7k/8/P7/8/8/1p6/2K5/8 w - - 0 1"));
  EXPECT_FALSE(on(":unstoppablepawns [Pp] 0 : 1", "7k/8/P7/8/8/1p6/2K5/8 w - - 0 1"));
}

// ---- :perpendicular --------------------------------------------------------------------------

TEST(Perpendicular, OrthogonalLines) {
  EXPECT_TRUE(on(":perpendicular Q r", "r3k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
  EXPECT_TRUE(on(":perpendicular R R", "4k3/8/8/1R6/8/8/8/R3K3 w - - 0 1"));
  // Same file: the lines only cross on the rooks' own squares.
  EXPECT_FALSE(on(":perpendicular R R", "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on(":perpendicular R b", "4kb2/8/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on(":perpendicular N r", "r3k3/8/8/8/8/8/8/1N2K3 w - - 0 1"));
}

TEST(Perpendicular, DiagonalsOfOneSquareColour) {
  EXPECT_TRUE(on(":perpendicular B b", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));    // c1, f8 dark
  EXPECT_FALSE(on(":perpendicular B b", "2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));  // c8 light
  EXPECT_TRUE(on(":perpendicular Q b", "2b1k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
  EXPECT_TRUE(on(":flipcolor :perpendicular b B", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));
}

// ---- :passedpawnrace -------------------------------------------------------------------------

TEST(PassedPawnRace, FasterPawnWins) {
  // a6 needs two moves, h2 one: Black wins although White is to move.
  const char* fen = "7k/8/P7/8/8/8/7p/K7 w - - 0 1";
  EXPECT_FALSE(on(":passedpawnrace P", fen));
  EXPECT_TRUE(on(":passedpawnrace p", fen));
  EXPECT_FALSE(on(":passedpawnrace", fen));
  EXPECT_TRUE(on(":flipcolor :passedpawnrace P", fen));
}

TEST(PassedPawnRace, EqualRaceGoesToTheSideToMove) {
  EXPECT_TRUE(on(":passedpawnrace P", "7k/8/P7/8/8/7p/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(":passedpawnrace p", "7k/8/P7/8/8/7p/8/K7 w - - 0 1"));
  EXPECT_TRUE(on(":passedpawnrace p", "7k/8/P7/8/8/7p/8/K7 b - - 0 1"));
  EXPECT_TRUE(on(":passedpawnrace", "7k/8/P7/8/8/7p/8/K7 b - - 0 1"));
}

TEST(PassedPawnRace, OnlyDecidedAgainstKingAndPawns) {
  EXPECT_TRUE(on(":passedpawnrace", "7k/8/P7/8/8/8/8/4K3 w - - 0 1"));  // no black pawn
  EXPECT_FALSE(on(":passedpawnrace P", "7k/8/P7/8/8/8/8/n3K3 w - - 0 1"));
  EXPECT_FALSE(on(":passedpawnrace p", "7k/8/P7/8/8/8/8/4K3 w - - 0 1"));  // no black pawn
  EXPECT_FALSE(on(":passedpawnrace P", "1k6/8/P7/8/8/8/8/4K3 w - - 0 1"));  // caught by Kb8
}

}  // namespace
