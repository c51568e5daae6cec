// :pawncountdifference, :goodbishop and :opposition (seed 000, CQL-Position-List): the
// reference's examples and positions built for each rule, under transformations too.
#include <gtest/gtest.h>

#include <string>

#include "eval_test_util.h"

namespace {

using cqltest::on;

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// ---- :pawncountdifference --------------------------------------------------------------------

TEST(PawnCountDifference, MoreAdvancedPassedPawnsThanBlack) {
  const char* script = ":pawncountdifference P[?5-7] p[?2-4] passed-lines >0";
  // White a6 b6 (passed, advanced), black h3 (passed, advanced): 2 - 1.
  EXPECT_TRUE(on(script, "4k3/8/PP6/8/8/7p/8/4K3 w - - 0 1"));
  // White's two passed pawns on one file count once (lines): 1 - 1.
  EXPECT_FALSE(on(script, "4k3/8/P7/P7/8/7p/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncountdifference P[?5-7] p[?2-4] passed 1", "4k3/8/P7/P7/8/7p/8/4K3 w - - 0 1"));
  // Not advanced: the designator leaves them out.
  EXPECT_FALSE(on(script, "4k3/8/8/8/PP6/7p/8/4K3 w - - 0 1"));
}

TEST(PawnCountDifference, OneDesignatorIsWhiteMinusBlack) {
  const char* fen = "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1";  // connected 3 : 2
  EXPECT_TRUE(on(":pawncountdifference [Pp] connected 1", fen));
  EXPECT_FALSE(on(":pawncountdifference [Pp] connected -1", fen));
  EXPECT_TRUE(on(":pawncountdifference p P connected -1", fen));
  // Under :flipcolor the difference is Black minus White in the flipped list.
  EXPECT_TRUE(on(":flipcolor :pawncountdifference [Pp] connected 1",
                 "4k3/ppp5/8/8/8/8/PP6/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncountdifference [Pp] connected 1", "4k3/ppp5/8/8/8/8/PP6/4K3 w - - 0 1"));
}

// ---- :goodbishop -----------------------------------------------------------------------------

TEST(GoodBishop, DarkSquaredGoodBishop) {
  // Bc1 (dark). Black pawns d6 (dark) e7 (dark) a6 (light): 2/3 dark. White pawns e4 f3 (light
  // squares: e4 light, f3 light) and c3 (dark): 2/3 not blocking.
  const char* fen = "4k3/4p3/p2p4/8/4P3/2P2P2/8/2B1K3 w - - 0 1";
  EXPECT_TRUE(on(":goodbishop B[D?] >50% : >50%", fen));
  EXPECT_TRUE(on(":goodbishop B >50% : >50%", fen));
  EXPECT_FALSE(on(":goodbishop B[L?] >50% : >50%", fen));
  EXPECT_TRUE(on(":goodbishop B 2 : 2", fen));
  EXPECT_FALSE(on(":goodbishop B 3 : 2", fen));
  // The same bishop is bad for the other ranges.
  EXPECT_FALSE(on(":goodbishop [Bb] <=30% : <=20%", fen));
}

TEST(GoodBishop, BadBishopEitherSide) {
  // Black's light bishop c8 behind its own light-squared pawns d5? (d5 light) e6 (light) f7
  // (light); White pawns c2? none: white pawns on dark squares b2? (b2 dark) only.
  const char* fen = "2b1k3/5p2/4p3/3p4/8/8/1P6/4K3 w - - 0 1";
  EXPECT_TRUE(on(":goodbishop [Bb] <=30% : <=20%", fen));
  EXPECT_FALSE(on(":goodbishop B <=30% : <=20%", fen));
  // No pawns for a percentage: never.
  EXPECT_FALSE(on(":goodbishop b <=30% : <=20%", "2b1k3/5p2/4p3/3p4/8/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":goodbishop b 0 : 0", "2b1k3/5p2/4p3/3p4/8/8/8/4K3 w - - 0 1"));
}

// ---- :opposition -----------------------------------------------------------------------------

TEST(Opposition, StartPositionMatches) {
  EXPECT_TRUE(on(":opposition K", kStart));
  EXPECT_FALSE(on(":opposition k", kStart));
  EXPECT_TRUE(on(":opposition", kStart));
}

TEST(Opposition, DirectDistantAndDiagonal) {
  // Ke4 ke6, black to move: White has the (direct) opposition.
  EXPECT_TRUE(on(":opposition K", "8/8/4k3/8/4K3/8/8/8 b - - 0 1"));
  EXPECT_FALSE(on(":opposition k", "8/8/4k3/8/4K3/8/8/8 b - - 0 1"));
  EXPECT_FALSE(on(":opposition", "8/8/4k3/8/4K3/8/8/8 b - - 0 1"));  // side to move lacks it
  EXPECT_TRUE(on(":opposition k", "8/8/4k3/8/4K3/8/8/8 w - - 0 1"));
  // Distant (e2/e6) and diagonal (c3/e5) opposition, White to move: Black has it.
  EXPECT_TRUE(on(":opposition k", "8/8/4k3/8/8/8/4K3/8 w - - 0 1"));
  EXPECT_TRUE(on(":opposition k", "8/8/8/4k3/8/2K5/8/8 w - - 0 1"));
  // Odd distance: the side to move can take it.
  EXPECT_TRUE(on(":opposition K", "8/8/4k3/8/8/4K3/8/8 w - - 0 1"));
  EXPECT_TRUE(on(":flipcolor :opposition K", "8/8/4k3/8/4K3/8/8/8 w - - 0 1"));
  EXPECT_TRUE(on("!:opposition K", "8/8/4k3/8/4K3/8/8/8 w - - 0 1"));
}

}  // namespace
