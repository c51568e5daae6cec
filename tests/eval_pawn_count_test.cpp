// :pawncount (seed 000, CQL-Position-List): every example of the reference as a test, plus
// positions built for single properties, the filter-chain order, percentages, the counting
// modifiers and the errors the reference demands.
#include <gtest/gtest.h>

#include <string>

#include "eval_test_util.h"

namespace {

using cqltest::on;

/// The error message compiling `items` gives ("" if it compiles).
std::string error_of(const std::string& items) {
  try {
    cqltest::compile(cqltest::pos(items));
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// The reference's diagram: white isolated pawns g2 g3 g4 (consecutive), c2, e5; black a7 f7.
const char* kTripled = "8/p4pk1/8/2R1P1N1/6P1/6P1/2P2KP1/1r5r w - - 0 1";
// Isolated g-pawns g2 g3 g6: tripled, but not three in a row.
const char* kTripledGap = "8/p4pk1/6P1/2R1P1N1/8/6P1/2P2KP1/1r5r w - - 0 1";
// Four isolated g-pawns in a row, g2-g5.
const char* kQuadrupled = "8/p4pk1/8/2R1P1P1/6P1/6P1/2P2KP1/1r5r w - - 0 1";

// ---- the reference's examples ----------------------------------------------------------------

TEST(PawnCountReference, IsolatedConsecutiveThree) {
  EXPECT_TRUE(on(":pawncount [Pp] isolated-consecutive(3) >=3", kTripled));
  EXPECT_FALSE(on(":pawncount [Pp] isolated-consecutive(3) >=3", kTripledGap));
  EXPECT_FALSE(on(":pawncount [Pp] isolated-consecutive(3) >=4", kTripled));
}

TEST(PawnCountReference, IsolatedTripleConsecutiveAlsoFindsGaps) {
  // triple keeps g2 g3 g6; consecutive then keeps only g2 g3: two pawns.
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple-consecutive >=3", kTripled));
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple-consecutive 2", kTripledGap));
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple >=3", kTripledGap));
}

TEST(PawnCountReference, IsolatedExactTriple) {
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple!-consecutive >=3", kTripled));
  // Four isolated g-pawns in a row: triple! finds no file with exactly three.
  EXPECT_FALSE(on(":pawncount [Pp] isolated-triple!-consecutive >=3", kQuadrupled));
  EXPECT_TRUE(on(":pawncount [Pp] isolated-consecutive(3) >=3", kQuadrupled));
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple(4)-consecutive >=4", kQuadrupled));
}

TEST(PawnCountReference, IsolatedTripleCompoundsThree) {
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple-compounds(3) >0", kTripled));
  EXPECT_FALSE(on(":pawncount [Pp] isolated-triple-compounds(3) >0", kTripledGap));
  EXPECT_TRUE(on(":pawncount [Pp] isolated-triple-compounds(3) 1", kTripled));  // one group
}

TEST(PawnCountReference, AllWhitePawnsBlocked) {
  EXPECT_TRUE(on(":pawncount P blocked 100%", "4k3/3p4/8/8/3P4/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount P blocked 100%", "4k3/3p4/8/8/3P4/8/P7/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount P blocked 50%", "4k3/3p4/8/8/3P4/8/P7/4K3 w - - 0 1"));
  // A black pawn behind the white one does not block it.
  EXPECT_FALSE(on(":pawncount P blocked 100%", "4k3/8/8/8/3P4/3p4/8/4K3 w - - 0 1"));
}

TEST(PawnCountReference, QueenSidePawnsBlocked) {
  // d4/d7 face each other; the white h2 pawn is outside the designator.
  const char* fen = "4k3/3p4/8/8/3P4/8/7P/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount [Pp][a-d?] blocked 100%", fen));
  EXPECT_FALSE(on(":pawncount [Pp] blocked 100%", fen));
}

TEST(PawnCountReference, HalfOfQueenSidePawnsDirectlyBlocked) {
  EXPECT_TRUE(on(":pawncount P[a-d?] blocked! >=50%", "4k3/8/8/3p4/3P4/8/P6P/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount P[a-d?] blocked! >=50%", "4k3/8/3p4/8/3P4/8/P6P/4K3 w - - 0 1"));
  // Never true without white queen-side pawns.
  EXPECT_FALSE(on(":pawncount P[a-d?] blocked! >=50%", "4k3/8/8/8/8/8/5P2/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount P[a-d?] blocked! <=50%", "4k3/8/8/8/8/8/5P2/4K3 w - - 0 1"));
}

TEST(PawnCountReference, NotBlockedPercentages) {
  // a2 free, d4 faced by d6 from afar, h4 faced by h5 directly: 1 of 3 not blocked at all,
  // 2 of 3 not blocked directly.
  const char* fen = "4k3/8/3p4/7p/3P3P/8/P7/4K3 w - - 0 1";
  EXPECT_FALSE(on(":pawncount P !blocked >50%", fen));
  EXPECT_TRUE(on(":pawncount P !blocked! >50%", fen));
}

TEST(PawnCountReference, PassedPawnOutsideTheSquare) {
  const char* script = ":pawncount P !inside-passed >0";
  EXPECT_TRUE(on(script, "7k/8/P7/8/8/8/8/4K3 w - - 0 1"));   // Kh8 too far from a8
  EXPECT_FALSE(on(script, "1k6/8/P7/8/8/8/8/4K3 w - - 0 1"));  // Kb8 in the square
  // Black to move: the king gets one tempo (Kd8 catches a6 only with the move).
  EXPECT_FALSE(on(script, "3k4/8/P7/8/8/8/8/4K3 b - - 0 1"));
  EXPECT_TRUE(on(script, "4k3/8/P7/8/8/8/8/4K3 b - - 0 1"));
  // A pawn on its start rank may double-step: a2 needs five moves.
  EXPECT_TRUE(on(script, "7k/8/8/8/8/8/P7/4K3 w - - 0 1"));
  EXPECT_FALSE(on(script, "6k1/8/8/8/8/8/P7/4K3 b - - 0 1"));
}

TEST(PawnCountReference, DoubledPawnsSideBySide) {
  // c2 c3 d2 d3: double! keeps all four, forefront c3 d3, duo: two on the third rank.
  EXPECT_TRUE(on(":pawncount [Pp] double!-forefront-duo >0", "4k3/8/8/8/8/2PP4/2PP4/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount double!-forefront-duo >0", "4k3/8/8/8/8/2PP4/2PP4/4K3 w - - 0 1"));
  // c2 c3 d3 d4: the front pawns stand on different ranks.
  EXPECT_FALSE(on(":pawncount double!-forefront-duo >0", "4k3/8/8/8/3P4/2PP4/2P5/4K3 w - - 0 1"));
  EXPECT_NE(error_of(":pawncount forefront-double!-duo >0").find("double"), std::string::npos);
}

TEST(PawnCountReference, CountingTrios) {
  // Each side: eight pawns on one rank are one trio.
  EXPECT_TRUE(on(":pawncount [Pp] trio-islands", kStart));
  EXPECT_TRUE(on(":pawncount [Pp] trio-islands 2", kStart));
  EXPECT_TRUE(on(":pawncount [Pp] trio 16", kStart));
  EXPECT_FALSE(on(":pawncount [Pp] trio-islands", "4k3/pp6/8/8/8/8/PP6/4K3 w - - 0 1"));
}

TEST(PawnCountReference, CountingChains) {
  // White chain b2-c3-d4 and a lone h2; black chain f7-g6 and a lone a7.
  const char* fen = "4k3/p4p2/6p1/8/3P4/2P5/1P5P/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount [Pp] chained-islands 2", fen));
  EXPECT_TRUE(on(":pawncount [Pp] chained 5", fen));
  EXPECT_TRUE(on(":pawncount P chained(3) 3", fen));
  EXPECT_TRUE(on(":pawncount [Pp] chained!(2) 2", fen));
}

TEST(PawnCountReference, FilterOrderSingleBehind) {
  // White c2 and c7, black c5: c7 is behind the black pawn, but not alone on the file.
  const char* fen = "4k3/2P5/8/2p5/8/8/2P5/4K3 w - - 0 1";
  EXPECT_FALSE(on(":pawncount P single-behind >0", fen));
  EXPECT_TRUE(on(":pawncount P behind-single >0", fen));
  EXPECT_TRUE(on(":pawncount P behind 1", fen));
}

TEST(PawnCountReference, TwoDoubledPawnsNotAdvancedEitherSide) {
  const std::string script = ":flipcolor :pawncount P double-!advanced-compounds >=2";
  EXPECT_TRUE(on(script, "4k3/8/8/8/8/2P2P2/2P2P2/4K3 w - - 0 1"));
  EXPECT_TRUE(on(script, "4k3/2p2p2/2p2p2/8/8/8/8/4K3 w - - 0 1"));  // Black's, via :flipcolor
  EXPECT_FALSE(on(":pawncount P double-!advanced-compounds >=2",
                  "4k3/2p2p2/2p2p2/8/8/8/8/4K3 w - - 0 1"));
  // One doubled pair advanced: only one compound left.
  EXPECT_FALSE(on(script, "4k3/8/2P5/2P5/8/5P2/5P2/4K3 w - - 0 1"));
}

TEST(PawnCountReference, BackwardStoppedPawnOnHalfOpenFile) {
  // d3 is backward (c4 is ahead of it), e5 controls d4, no black d-pawn.
  const char* script = ":pawncount [Pp] backward-stopped-!blocked >0";
  EXPECT_TRUE(on(script, "4k3/8/8/4p3/2P5/3P4/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(script, "4k3/3p4/8/4p3/2P5/3P4/8/4K3 w - - 0 1"));  // d7 faces d3
  EXPECT_FALSE(on(script, "4k3/8/8/8/2P5/3P4/8/4K3 w - - 0 1"));       // nothing controls d4
  EXPECT_FALSE(on(script, "4k3/8/8/4p3/8/2PP4/8/4K3 w - - 0 1"));      // c3 can defend
}

TEST(PawnCountReference, HangingPawnsOnTheFourthRank) {
  const char* script = ":pawncount P?4 stoppable-!blocked-duo! >0";
  EXPECT_TRUE(on(script, "4k3/8/1p2p3/8/2PP4/8/8/4K3 w - - 0 1"));
  // Without b6, c4 is passed: only d4 is left, no duo.
  EXPECT_FALSE(on(script, "4k3/8/4p3/8/2PP4/8/8/4K3 w - - 0 1"));
  // A blocked e4 is filtered out before duo! counts the rank.
  EXPECT_TRUE(on(script, "4k3/8/1p2pp2/8/2PPP3/8/8/4K3 w - - 0 1"));
  // On the third rank the designator excludes them.
  EXPECT_FALSE(on(script, "4k3/8/1p2p3/8/8/2PP4/8/4K3 w - - 0 1"));
}

TEST(PawnCountReference, BothSidesAndOneSide) {
  EXPECT_TRUE(on(":pawncount p bothsides 0", "4k3/pp6/8/8/8/8/7P/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount p oneside >0", "4k3/pp6/8/8/8/8/7P/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount p bothsides 0", "4k3/pp5p/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount p bothsides 1", "4k3/pp5p/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount p oneside >0", "4k3/pp5p/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":pawncount p oneside >0", "4k3/8/8/8/8/8/PP6/4K3 w - - 0 1"));  // no pawns
}

// ---- single properties -----------------------------------------------------------------------

TEST(PawnCountProperties, FileStructures) {
  // White a2, c2 c3, e2 e3 e4; black g7 g6, g4 g3. Counts are summed over both colours.
  const char* fen = "4k3/6p1/6p1/8/4P1p1/2P1P1p1/P1P1P3/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount [Pp] single 1", fen));
  EXPECT_TRUE(on(":pawncount [Pp] single! 1", fen));
  EXPECT_TRUE(on(":pawncount [Pp] double 9", fen));
  EXPECT_TRUE(on(":pawncount [Pp] double! 2", fen));
  EXPECT_TRUE(on(":pawncount [Pp] triple 7", fen));
  EXPECT_TRUE(on(":pawncount [Pp] triple! 3", fen));
  EXPECT_TRUE(on(":pawncount [Pp] triple!(4) 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] consecutive 9", fen));  // c2 c3, e2-e4, g7 g6, g4 g3
  EXPECT_TRUE(on(":pawncount [Pp] consecutive!(2) 6", fen));
  EXPECT_TRUE(on(":pawncount [Pp] compounds 5", fen));
  EXPECT_TRUE(on(":pawncount [Pp] files 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] files(3) 2", fen));
  EXPECT_TRUE(on(":pawncount [Pp] files!(2) 1", fen));
  EXPECT_TRUE(on(":pawncount [Pp] lines 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] ranks 7", fen));
  EXPECT_TRUE(on(":pawncount [Pp] ranks(3) 1", fen));
  EXPECT_TRUE(on(":pawncount [Pp] islands 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] forefront 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] rear 4", fen));
  EXPECT_TRUE(on(":pawncount [Pp] !forefront 6", fen));
}

TEST(PawnCountProperties, RankStructures) {
  // White b2 d2 e2 f2 g2, c4 d4, h5.
  const char* fen = "4k3/8/8/7P/2PP4/8/1P1PPPP1/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount P uno 1", fen));
  EXPECT_TRUE(on(":pawncount P uno! 1", fen));
  EXPECT_TRUE(on(":pawncount P duo 7", fen));
  EXPECT_TRUE(on(":pawncount P duo! 2", fen));
  EXPECT_TRUE(on(":pawncount P trio 5", fen));
  EXPECT_TRUE(on(":pawncount P trio! 0", fen));
  EXPECT_TRUE(on(":pawncount P quart 5", fen));
  EXPECT_TRUE(on(":pawncount P quart!(4) 4", fen));  // d2-g2; b2 stands alone
  EXPECT_TRUE(on(":pawncount P quart(4) 4", fen));
  EXPECT_TRUE(on(":pawncount P quart!(5) 0", fen));
}

TEST(PawnCountProperties, Neighbours) {
  // White a2 b3, d4, f2 g2 h2; black none.
  const char* fen = "4k3/8/8/8/3P4/1P6/P4PPP/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount P isolated 1", fen));  // d4
  EXPECT_TRUE(on(":pawncount P connected 5", fen));
  EXPECT_TRUE(on(":pawncount P integrated 3", fen));   // a2 g2 h2 (edge pawns: one side)
  EXPECT_TRUE(on(":pawncount P halfisolated 2", fen)); // b3 (a), f2 (g)
  EXPECT_TRUE(on(":pawncount P defended 1", fen));     // b3 by a2
  EXPECT_TRUE(on(":pawncount P defender 1", fen));     // a2
  EXPECT_TRUE(on(":pawncount P isolated-advanced 0", fen));
  EXPECT_TRUE(on(":pawncount P advanced 1", "4k3/8/8/3P4/8/8/P7/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount p advanced 1", "4k3/p7/8/8/3p4/8/8/4K3 w - - 0 1"));
}

TEST(PawnCountProperties, PassedCandidateStoppable) {
  // White a4 (passed), c4, e4 (faces e6); black d6 e6.
  const char* fen = "4k3/8/3pp3/8/P1P1P3/8/8/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount P passed 1", fen));        // a4
  EXPECT_TRUE(on(":pawncount P stoppable 2", fen));     // c4 (d6), e4 (d6)
  EXPECT_TRUE(on(":pawncount P unstoppable 1", fen));   // a4
  EXPECT_TRUE(on(":pawncount P unblocked-unstoppable 1", fen));
  EXPECT_TRUE(on(":pawncount P blocked 1", fen));       // e4
  // c4: no pawn ahead on c; one black pawn (d6) on the neighbour files ahead, no white
  // pawn beside or behind on b/d: not a candidate.
  EXPECT_TRUE(on(":pawncount P candidate 1", fen));     // a4 (passed counts)
  EXPECT_TRUE(on(":pawncount P candidate! 0", fen));
  // With a white b3 c4 is a candidate (b3 supports against d6).
  const char* fen2 = "4k3/8/3pp3/8/P1P1P3/1P6/8/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount P candidate! 1", fen2));   // c4; a4 and b3 are passed
  EXPECT_TRUE(on(":pawncount P stopped 2", fen));  // d6 controls c5 and e5
  EXPECT_TRUE(on(":pawncount P stopped 1", "4k3/8/3p4/8/2P5/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":pawncount P stopped 0", "4k3/3p4/8/8/2P5/8/8/4K3 w - - 0 1"));
}

TEST(PawnCountProperties, SymmetricalAndMirrored) {
  // c2/c7 mirrored; d3/d5 symmetrical but not mirrored; h2 with no opponent.
  const char* fen = "4k3/2p5/8/3p4/8/3P4/2P4P/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount P symmetrical 2", fen));
  EXPECT_TRUE(on(":pawncount P mirrored 1", fen));
  EXPECT_TRUE(on(":pawncount [Pp] mirrored 2", fen));
}

TEST(PawnCountProperties, TwoRangesWhiteBlack) {
  const char* fen = "4k3/pp6/8/8/8/8/PPP5/4K3 w - - 0 1";
  EXPECT_TRUE(on(":pawncount [Pp] connected 3 : 2", fen));
  EXPECT_FALSE(on(":pawncount [Pp] connected 2 : 3", fen));
  EXPECT_TRUE(on(":flipcolor :pawncount [Pp] connected 2 : 3", fen));
  EXPECT_TRUE(on(":pawncount [Pp] connected 5", fen));
  EXPECT_TRUE(on(":pawncount [Pp] connected 100%", fen));
}

// ---- errors ----------------------------------------------------------------------------------

TEST(PawnCountErrors, ContradictoryAttributes) {
  EXPECT_NE(error_of(":pawncount P chained-isolated >0").find("contradictory"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P mirrored-unblocked >0").find("contradictory"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P passed-blocked >0").find("contradictory"), std::string::npos);
  EXPECT_EQ(error_of(":pawncount P chained-!isolated >0"), "");
  EXPECT_EQ(error_of(":pawncount P double!-forefront-duo >0"), "");
}

TEST(PawnCountErrors, CountingModifierNotLastAndCountOutOfRange) {
  EXPECT_NE(error_of(":pawncount P islands-passed >0").find("last"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P consecutive(7) >0").find("2..6"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P islands(9) >0").find("1..8"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P chained!(1) >0").find("2..8"), std::string::npos);
  EXPECT_NE(error_of(":pawncount P quart(3) >0").find("4..8"), std::string::npos);
}

}  // namespace

namespace {

// ---- memoised answers (pawn_count_matches' per-thread pawn hash) ------------------------------

TEST(PawnCountMemo, InsideFollowsTheKingWhileThePawnsStandStill) {
  // The pawn h4 never moves; the black king walks a8-e8 into the square of the pawn. The
  // answer changes with the king and the side to move alone, so the memo must key on them.
  const char* fen = "k7/8/8/8/7P/8/8/K7 w - - 0 1";
  const char* moves = "1. Kb1 Kb8 2. Ka1 Kc8 3. Kb1 Kd8 4. Ka1 Ke8 5. Kb1 *";
  EXPECT_EQ(cqltest::plies(":pawncount P inside >0", moves, fen),
            (cqltest::Plies{5, 6, 7, 8, 9}));
  EXPECT_EQ(cqltest::plies(":pawncount P !inside >0", moves, fen), (cqltest::Plies{0, 1, 2, 3, 4}));
}

TEST(PawnCountMemo, SameStructureDifferentDesignatorSquares) {
  // One query with two :pawncount nodes whose pawns are the same but whose squares differ:
  // each answers for its own squares (the memo keys on the spec and the squares).
  const char* fen = "4k3/8/8/8/8/8/P1P5/4K3 w - - 0 1";
  EXPECT_TRUE(cqltest::on(":pawncount Pa? isolated 1 :pawncount P isolated 2", fen));
  EXPECT_FALSE(cqltest::on(":pawncount Pa? isolated 2", fen));
}

}  // namespace
