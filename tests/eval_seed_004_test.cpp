// Seed 004 - the CQL 1.0 manual page "The Position List" (English): every example that states
// what it matches, run end to end (parse -> compile -> GameMatcher) on positions built from
// FENs and on short legal games. Each example gets a position that must match and one that
// must not. Examples shared with seeds 001/000 are tested here once (see the comments there).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using cqltest::on;
using cqltest::plies;
using cqltest::Plies;

// ---- Piece designators inside a position -----------------------------------------------------

TEST(Seed004PositionList, RookOnA3) {
  EXPECT_TRUE(on("Ra3", "4k3/8/8/8/8/R7/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("Ra3", "4k3/8/8/8/R7/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("Ra3", "4k3/8/8/8/8/r7/8/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, WhiteMajorPieceOnTheAFile) {
  EXPECT_TRUE(on("[RQ][a1-8]", "4k3/8/8/Q7/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("[RQ][a1-8]", "4k3/8/8/q7/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("[RQ][a1-8]", "4k3/8/8/8/1Q6/8/8/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, WhiteMajorOnAFileAndBlackQueenOnHFile) {
  EXPECT_TRUE(on("[RQ][a1-8] q[h1-8]", "4k3/7q/8/8/8/8/R7/4K3 w - - 0 1"));
  EXPECT_FALSE(on("[RQ][a1-8] q[h1-8]", "4k3/6q1/8/8/8/8/R7/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, EmptyD4BlackMinorOnD3PieceInACorner) {
  const std::string l = ".d4 id3 U[a1,h1,a8,h8]";
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/3n4/8/R5K1 w - - 0 1"));
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/3b4/8/R5K1 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/3n4/8/1R4K1 w - - 0 1"));   // no piece in a corner
  EXPECT_FALSE(on(l, "4k3/8/8/8/3P4/3n4/8/R5K1 w - - 0 1"));  // d4 not empty
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/3N4/8/R5K1 w - - 0 1"));    // white minor on d3
}

TEST(Seed004PositionList, RepeatingPieceDesignatorsHasNoEffect) {
  for (const char* fen : {"4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1",
                          "4k3/8/8/8/8/8/8/RR1QK3 w - - 0 1", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"}) {
    EXPECT_EQ(on("R Q", fen), on("R R Q Q", fen)) << fen;
  }
  EXPECT_TRUE(on("R R Q Q", "4k3/8/8/8/8/8/8/RQ2K3 w - - 0 1"));  // one rook is enough
  EXPECT_FALSE(on("R Q", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
}

// ---- Simple keywords -------------------------------------------------------------------------

const char* kBlackMatedRQ = "R5k1/5ppp/8/8/8/8/5PPP/3Q2K1 b - - 0 1";
const char* kWhiteMatedRQ = "6k1/5ppp/8/8/8/7R/5PPP/r5KQ w - - 0 1";

TEST(Seed004PositionList, RookQueenMate) {
  EXPECT_TRUE(on("R Q :mate", kBlackMatedRQ));
  EXPECT_TRUE(on("R Q :mate", kWhiteMatedRQ));                              // "one side is in mate"
  EXPECT_FALSE(on("R Q :mate", "R5k1/5pp1/8/8/8/8/5PPP/3Q2K1 b - - 0 1"));  // Kh7 escapes
  EXPECT_FALSE(on("R :mate", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
}

TEST(Seed004PositionList, RookQueenMateWhiteMustBeMated) {
  EXPECT_TRUE(on("R Q :mate :wtm", kWhiteMatedRQ));
  EXPECT_FALSE(on("R Q :mate :wtm", kBlackMatedRQ));
  EXPECT_TRUE(on("R Q :mate :btm", kBlackMatedRQ));
}

TEST(Seed004PositionList, RookQueenInitial) {
  EXPECT_EQ(plies("R Q :initial", "1. e4 e5 *"), Plies({0}));
  EXPECT_EQ(plies("R Q :initial", "1. Ra2 Kd7 *", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), Plies());
}

TEST(Seed004PositionList, RookQueenInitialWhiteInCheck) {
  const std::string l = "R Q :initial :check :wtm";
  EXPECT_EQ(plies(l, "1. Kd2 Kd7 *", "4k3/8/8/8/8/8/8/RQ2K2r w - - 0 1"), Plies({0}));
  EXPECT_EQ(plies(l, "1. e4 e5 *"), Plies());
  // The check must be in the first position: a check later in the game does not count.
  EXPECT_EQ(plies(l, "1. Kd2 Rh2+ 2. Kc3 *", "4k3/8/8/8/8/8/8/RQ2K2r w - - 0 1"), Plies({0}));
}

TEST(Seed004PositionList, CheckAndNocheck) {
  EXPECT_TRUE(on(":check", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_FALSE(on(":check", "4k3/8/8/8/8/8/8/3R2K1 b - - 0 1"));
  EXPECT_TRUE(on(":nocheck", "4k3/8/8/8/8/8/8/3R2K1 b - - 0 1"));
  EXPECT_FALSE(on(":nocheck", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
}

TEST(Seed004PositionList, MarkAllAndNoAnnotateDoNotChangeWhatMatches) {
  // Output options of CQL 1.0; cqldb marks every matched position anyway.
  const char* game = "1. e4 e5 2. Nf3 *";
  EXPECT_EQ(plies(":wtm :markall", game), Plies({0, 2}));
  EXPECT_EQ(plies(":wtm :noannotate", game), Plies({0, 2}));
}

TEST(Seed004PositionList, InitialAndTerminal) {
  EXPECT_EQ(plies(":initial", "1. e4 e5 2. Nf3 *"), Plies({0}));
  EXPECT_EQ(plies(":terminal", "1. e4 e5 2. Nf3 *"), Plies({3}));
  EXPECT_EQ(plies(":wtm", "1. e4 e5 2. Nf3 *"), Plies({0, 2}));
  EXPECT_EQ(plies(":btm", "1. e4 e5 2. Nf3 *"), Plies({1, 3}));
}

// ---- Transformation keywords -----------------------------------------------------------------

TEST(Seed004PositionList, RookC2BishopH8WhiteToMove) {
  EXPECT_TRUE(on("Rc2 Bh8 :wtm", "4k2B/8/8/8/8/8/2R5/4K3 w - - 0 1"));
  EXPECT_FALSE(on("Rc2 Bh8 :wtm", "4k2B/8/8/8/8/8/2R5/4K3 b - - 0 1"));
}

TEST(Seed004PositionList, UnitLeftShiftGivesRookB2BishopG8) {
  const std::string l = "Rc2 Bh8 :wtm :shifthorizontal";
  EXPECT_TRUE(on(l, "4k1B1/8/8/8/8/8/1R6/4K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k1B1/8/8/8/8/8/1R6/4K3 b - - 0 1"));
  EXPECT_FALSE(on(l, "4k1B1/8/8/8/8/8/2R5/4K3 w - - 0 1"));  // shifts move every designator
}

TEST(Seed004PositionList, HorizontalFlipOfRookC2BishopH8) {
  // The page prints "Rb8 Bg1"; the horizontal flip of Rc2 Bh8 is Rc7 Bh1 (SPEC: f6 -> f3).
  const std::string l = "Rc2 Bh8 :wtm :fliphorizontal";
  EXPECT_TRUE(on(l, "4k3/2R5/8/8/8/8/8/4K2B w - - 0 1"));
  EXPECT_FALSE(on(l, "1R6/8/8/8/8/8/8/k3K1B1 w - - 0 1"));
}

TEST(Seed004PositionList, ColorFlipSwapsColoursSquaresAndSideToMove) {
  // The colour flip of (position Rb2 Bg8 :wtm) is a black rook on b7, a black bishop on g1
  // and black to move (SPEC; the page's "Rb8 Bg1 :btm" keeps the white letters and squares).
  const std::string l = "Rb2 Bg8 :wtm :flipcolor";
  EXPECT_TRUE(on(l, "4K3/1r6/8/8/8/8/8/4k1b1 b - - 0 1"));
  EXPECT_FALSE(on(l, "4K3/1r6/8/8/8/8/8/4k1b1 w - - 0 1"));
  EXPECT_FALSE(on(l, "1R2K3/8/8/8/8/8/8/4k1B1 b - - 0 1"));
  EXPECT_TRUE(on(l, "4k1B1/8/8/8/8/8/1R6/4K3 w - - 0 1"));  // the identity is in the set
}

/// "7k/8/8/8/8/<rank 3>/8/K7 w": kings out of the way, rank 3 as given.
std::string rank3(const std::string& r) {
  return "7k/8/8/8/8/" + r + "/8/K7 w - - 0 1";
}

TEST(Seed004PositionList, ShiftHorizontalRookFourSquaresLeftOfQueen) {
  const std::string l = "Rc3 qg3 :shifthorizontal";
  EXPECT_TRUE(on(l, rank3("2R3q1")));                      // Rc3 qg3
  EXPECT_TRUE(on(l, rank3("1R3q2")));                      // Rb3 qf3
  EXPECT_TRUE(on(l, rank3("R3q3")));                       // Ra3 qe3
  EXPECT_TRUE(on(l, rank3("3R3q")));                       // Rd3 qh3
  EXPECT_FALSE(on(l, rank3("2R4q")));                      // five squares apart
  EXPECT_FALSE(on(l, "7k/8/8/8/2R3q1/8/8/K7 w - - 0 1"));  // another rank
}

TEST(Seed004PositionList, ShiftVerticalRookOnCQueenOnGSameRank) {
  const std::string l = "Rc3 qg3 :shiftvertical";
  EXPECT_TRUE(on(l, "7k/2R3q1/8/8/8/8/8/K7 w - - 0 1"));
  EXPECT_TRUE(on(l, rank3("2R3q1")));
  EXPECT_FALSE(on(l, rank3("3R3q")));                      // d and h files
  EXPECT_FALSE(on(l, "7k/8/8/8/2R5/6q1/8/K7 w - - 0 1"));  // c4, g3: not the same rank
}

TEST(Seed004PositionList, ShiftRookFourSquaresLeftOfQueenOnAnyRank) {
  const std::string l = "Rc3 qg3 :shift";
  EXPECT_TRUE(on(l, "7k/8/1R3q2/8/8/8/8/K7 w - - 0 1"));
  EXPECT_TRUE(on(l, rank3("3R3q")));
  EXPECT_FALSE(on(l, "7k/8/1R6/5q2/8/8/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(l, "7k/8/1R4q1/8/8/8/8/K7 w - - 0 1"));
}

TEST(Seed004PositionList, FlipHorizontalRc3Qg3OrRc6Qg6) {
  const std::string l = "Rc3 qg3 :fliphorizontal";
  EXPECT_TRUE(on(l, rank3("2R3q1")));
  EXPECT_TRUE(on(l, "7k/8/2R3q1/8/8/8/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(l, "7k/8/2R5/8/8/6q1/8/K7 w - - 0 1"));
}

TEST(Seed004PositionList, FlipDiagonalRc3Qg3OrRc3Qc7) {
  const std::string l = "Rc3 qg3 :flipdiagonal";
  EXPECT_TRUE(on(l, rank3("2R3q1")));
  EXPECT_TRUE(on(l, "7k/2q5/8/8/8/2R5/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(l, "7k/8/2R3q1/8/8/8/8/K7 w - - 0 1"));  // Rc6 qg6: a horizontal flip
}

TEST(Seed004PositionList, ShiftVerticalRookBehindPawnOnTheCFile) {
  const std::string l = "Pc2 Rc1 :shiftvertical";
  EXPECT_TRUE(on(l, "7k/8/8/2P5/8/8/8/2R4K w - - 0 1"));   // Rc1 Pc5
  EXPECT_TRUE(on(l, "7k/2P5/8/8/8/8/2R5/7K w - - 0 1"));   // Rc2 Pc7: the edge rule (page)
  EXPECT_FALSE(on(l, "7k/8/8/2R5/8/2P5/8/7K w - - 0 1"));  // rook in front of the pawn
  EXPECT_FALSE(on(l, "7k/8/8/3P4/8/8/8/3R3K w - - 0 1"));  // another file
}

TEST(Seed004PositionList, ShiftRookBehindPawnOnAnyFile) {
  const std::string l = "Pc2 Rc1 :shift";
  EXPECT_TRUE(on(l, "7k/8/5P2/8/8/8/5R2/7K w - - 0 1"));
  EXPECT_TRUE(on(l, "7k/8/8/3P4/8/8/8/3R3K w - - 0 1"));
  EXPECT_FALSE(on(l, "7k/8/5R2/8/8/8/5P2/7K w - - 0 1"));
  EXPECT_FALSE(on(l, "7k/8/5P2/8/8/8/4R3/7K w - - 0 1"));
}

TEST(Seed004PositionList, ShiftFlipKnightAttacksBlackKing) {
  const std::string l = "Nd4 kf3 :shift :flip";
  const std::string lc = "Nd4 kf3 :shift :flip :flipcolor";
  const std::string attack = ":attackcount N k 1 100 :flipcolor";  // the page's faster form
  struct Case {
    const char* fen;
    bool white_knight_attacks_black_king;
    bool knight_attacks_enemy_king;
  };
  const Case cases[] = {
      {"7k/8/6N1/8/8/8/8/K7 b - - 0 1", true, true},    // Ng6 -> kh8
      {"8/8/8/8/8/k7/8/1N5K b - - 0 1", true, true},    // Nb1 -> ka3
      {"8/8/8/3k4/8/4N3/8/7K b - - 0 1", true, true},   // Ne3 -> kd5
      {"7k/8/8/6N1/8/8/8/K7 w - - 0 1", false, false},  // Ng5 does not attack h8
      {"7K/8/6n1/8/8/8/8/k7 w - - 0 1", false, true},   // ng6 -> Kh8
      {"7k/8/6n1/8/8/8/8/K7 w - - 0 1", false, false},  // own knight next to the king
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(l, c.fen), c.white_knight_attacks_black_king) << c.fen;
    EXPECT_EQ(on(lc, c.fen), c.knight_attacks_enemy_king) << c.fen;
    EXPECT_EQ(on(attack, c.fen), c.knight_attacks_enemy_king) << c.fen;
  }
}

// ---- Piece configuration keywords ------------------------------------------------------------

TEST(Seed004PositionList, PieceCountExactlyTwoWhiteRooks) {
  EXPECT_TRUE(on(":piececount R 2", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1"));
  EXPECT_FALSE(on(":piececount R 2", "4k3/8/8/8/8/8/R7/R3K2R w - - 0 1"));  // three
  EXPECT_FALSE(on(":piececount R 2", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on(":piececount R 2", "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1"));  // black rooks
}

TEST(Seed004PositionList, PieceCountKnightD4RooksOnAFileFourQueensOnEighthRank) {
  const std::string l1 = "Nd4 :piececount [Rr][a1-8] 1 3 :piececount [Qq][a-h8] 4";
  const std::string l2 = "Nd4 :piececount [Rr][a?] 1 3 :piececount [Qq][?8] 4";
  const char* yes = "QqQq2k1/8/8/8/3N4/8/8/R6K w - - 0 1";
  for (const std::string& l : {l1, l2}) {
    EXPECT_TRUE(on(l, yes)) << l;
    EXPECT_TRUE(on(l, "QqQq2k1/r7/8/8/3N4/8/8/R6K w - - 0 1")) << l;   // two rooks
    EXPECT_FALSE(on(l, "QqQq2k1/8/8/8/4N3/8/8/R6K w - - 0 1")) << l;   // knight on e4
    EXPECT_FALSE(on(l, "QqQ3k1/8/8/8/3N4/8/8/R6K b - - 0 1")) << l;    // three queens
    EXPECT_FALSE(on(l, "QqQq2k1/8/8/8/3N4/8/8/1R5K w - - 0 1")) << l;  // no rook on a
  }
}

TEST(Seed004PositionList, PowerOfBlackPiecesIsSix) {
  EXPECT_TRUE(on(":power a 6", "2b1kb2/8/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(":power a 6", "4k3/pppppp2/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(":power a 6", "4k2r/8/8/8/8/8/8/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, PowerOfWhitePiecesOnWhiteHalf) {
  const std::string l = ":power A[a-h1-4] 10 25";
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/8/8/R2QK3 w - - 0 1"));    // 14
  EXPECT_FALSE(on(l, "4k3/8/8/3Q4/8/8/8/R3K3 w - - 0 1"));  // queen on d5: 5
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/8/RQQQK3 w - - 0 1"));  // 32
}

TEST(Seed004PositionList, PowerDifferenceWhiteExactlyFourAhead) {
  EXPECT_TRUE(on(":powerdifference U 4", "4k3/8/8/8/8/8/p7/R3K3 w - - 0 1"));   // R v p
  EXPECT_TRUE(on(":powerdifference U 4", "4k3/8/8/8/8/8/r7/Q3K3 w - - 0 1"));   // Q v r
  EXPECT_FALSE(on(":powerdifference U 4", "4k3/8/8/8/8/8/n7/R3K3 w - - 0 1"));  // R v n
  EXPECT_FALSE(on(":powerdifference U 4", "4k3/8/8/8/8/8/P7/r3K3 w - - 0 1"));  // -4
}

TEST(Seed004PositionList, PowerDifferenceOneFewerToTwoMoreRooks) {
  const std::string l = ":powerdifference [Rr] -5 10";
  EXPECT_TRUE(on(l, "r3k3/8/8/8/8/8/8/R3K2R w - - 0 1"));   // 2 v 1
  EXPECT_TRUE(on(l, "r3k2r/8/8/8/8/8/8/R3K3 w - - 0 1"));   // 1 v 2
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/8/8/R3K2R w - - 0 1"));    // 2 v 0
  EXPECT_FALSE(on(l, "r3k2r/8/8/8/8/8/8/4K3 w - - 0 1"));   // 0 v 2
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/R7/R3K2R w - - 0 1"));  // 3 v 0
}

TEST(Seed004PositionList, PowerDifferenceBlackUpAnExchange) {
  const std::string l = ":powerdifference [RrBbNn] -1000 -2";
  EXPECT_TRUE(on(l, "4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k1b1/8/8/8/8/8/8/2R1K3 w - - 0 1"));
  EXPECT_TRUE(on(l, "4k2r/pppppppp/8/8/8/8/8/2B1KQ2 w - - 0 1"));  // Q and p not counted
}

TEST(Seed004PositionList, AttackCountWhiteDoubleAttackOnBlackKing) {
  EXPECT_TRUE(on(":attackcount A k 2", "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_FALSE(on(":attackcount A k 2", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_FALSE(on(":attackcount A k 2", "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, AttackCountEitherKingUnderDoubleAttack) {
  const std::string l = ":attackcount A k 2 :flipcolor";
  EXPECT_TRUE(on(l, "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_TRUE(on(l, "4r1k1/8/8/8/8/3n4/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
}

TEST(Seed004PositionList, AttackCountExactlyOneWhitePieceAttacksEmptyH3) {
  EXPECT_TRUE(on(":attackcount A .h3 1", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));
  EXPECT_FALSE(on(":attackcount A .h3 1", "4k3/8/8/8/8/8/8/4KBN1 w - - 0 1"));   // two
  EXPECT_FALSE(on(":attackcount A .h3 1", "4k3/8/8/8/8/7p/8/4KB2 w - - 0 1"));   // h3 taken
  EXPECT_FALSE(on(":attackcount A .h3 1", "4k3/8/8/8/8/8/6p1/4KB2 w - - 0 1"));  // blocked
}

TEST(Seed004PositionList, AttackCountRookOrBishopOnA8ToC8AttacksFirstRank) {
  // Each white rook or bishop on a8-c8 attacks at most one first-rank square (its file, or
  // h1 along the long diagonal), so the page's range 5 9 cannot be reached; the count is 3.
  const char* fen = "BRR5/8/4k3/8/8/8/8/7K w - - 0 1";
  EXPECT_TRUE(on(":attackcount [RB][a-c8] ??1 3", fen));
  EXPECT_FALSE(on(":attackcount [RB][a-c8] ??1 5 9", fen));
  EXPECT_TRUE(on(":attackcount [RB][a-c8] ??1 2", "BR6/8/4k3/8/8/8/8/7K w - - 0 1"));
  EXPECT_TRUE(on(":attackcount [RB][a-c8] ??1 0", "BR6/1p6/4k3/8/8/8/1p6/7K w - - 0 1"));
}

TEST(Seed004PositionList, AttackCountBlackKnightOnKingAndMajorsAtLeastThree) {
  const std::string l = ":attackcount n [KRQ] 3 100";
  EXPECT_TRUE(on(l, "k7/8/8/8/3n4/5K2/2R1Q3/8 w - - 0 1"));
  EXPECT_FALSE(on(l, "k7/8/8/8/3n4/5K2/4Q3/8 w - - 0 1"));
}

TEST(Seed004PositionList, RayWhiteQueenAttacksBlackKing) {
  EXPECT_TRUE(on(":ray (k Q)", "k7/8/8/8/8/8/8/Q3K3 b - - 0 1"));
  EXPECT_TRUE(on(":ray (k Q)", "k7/8/8/8/8/8/6Q1/4K3 b - - 0 1"));
  EXPECT_FALSE(on(":ray (k Q)", "k7/8/8/8/p7/8/8/Q3K3 b - - 0 1"));
  EXPECT_FALSE(on(":ray (k Q)", "k7/8/8/8/8/8/8/1Q2K3 b - - 0 1"));
}

TEST(Seed004PositionList, RayQueenOnAFilePinsKnightToKingOnLastFourRanks) {
  const std::string l = ":ray (Qa? n k[?4-8])";
  EXPECT_TRUE(on(l, "k7/8/8/8/n7/8/8/Q3K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "8/8/8/8/8/k7/n7/Q6K w - - 0 1"));     // king on a3
  EXPECT_FALSE(on(l, "1k6/8/8/8/1n6/8/8/1Q5K w - - 0 1"));  // queen on b1
}

TEST(Seed004PositionList, RayThreeQueensAndKingWithOneEmptySquareBetween) {
  const std::string l = ":ray (Qa? Qc? Qe? kg?)";
  EXPECT_TRUE(on(l, "8/8/8/Q1Q1Q1k1/8/8/8/4K3 b - - 0 1"));   // on the fifth rank
  EXPECT_TRUE(on(l, "8/6k1/8/4Q3/8/2Q5/8/Q3K3 b - - 0 1"));   // on the a1-h8 diagonal
  EXPECT_FALSE(on(l, "8/8/8/Q1Q1Qpk1/8/8/8/4K3 w - - 0 1"));  // f5 is not empty
  EXPECT_FALSE(on(l, "8/8/8/1Q1Q1Qk1/8/8/8/4K3 b - - 0 1"));  // queens on b, d, f
}

TEST(Seed004PositionList, RayTwoToFourBlackKnightsPinned) {
  EXPECT_TRUE(on(":ray (Q n k) 2 4", "k7/8/8/3n4/n7/8/8/Q3K2Q w - - 0 1"));
  EXPECT_FALSE(on(":ray (Q n k) 2 4", "k7/8/8/8/n7/8/8/Q3K3 w - - 0 1"));
}

TEST(Seed004PositionList, RayOrthogonalRookPinsBishop) {
  EXPECT_TRUE(on(":rayorthogonal (R b k)", "k7/b7/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on(":rayorthogonal (R b k)", "k7/1b6/8/8/8/8/8/4K2R w - - 0 1"));
  EXPECT_TRUE(on(":ray (R b k)", "k7/1b6/8/8/8/8/8/4K2R w - - 0 1"));  // any line for :ray
}

TEST(Seed004PositionList, RayDiagonalQueenBishopBatteryPinsKnight) {
  EXPECT_TRUE(on(":raydiagonal (Q B n k)", "8/6k1/8/4n3/8/2B5/8/Q3K3 w - - 0 1"));
  EXPECT_FALSE(on(":raydiagonal (Q B n k)", "k7/8/n7/8/B7/8/8/Q3K3 w - - 0 1"));
  EXPECT_TRUE(on(":rayorthogonal (Q B n k)", "k7/8/n7/8/B7/8/8/Q3K3 w - - 0 1"));
}

TEST(Seed004PositionList, RayVerticalRookOnAFilePinsBishop) {
  EXPECT_TRUE(on(":rayvertical (R[a1-8] b k)", "k7/b7/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on(":rayvertical (R[a1-8] b k)", "8/8/8/7K/8/8/8/R1bk4 w - - 0 1"));
  EXPECT_TRUE(on(":rayhorizontal (R[a1-8] b k)", "8/8/8/7K/8/8/8/R1bk4 w - - 0 1"));
}

TEST(Seed004PositionList, RayHorizontalKingsTwoEmptySquaresApart) {
  const std::string l = ":rayhorizontal (K . . k)";
  EXPECT_TRUE(on(l, "8/8/8/K3k3/8/8/8/8 w - - 0 1"));
  EXPECT_TRUE(on(l, "8/8/8/K2k4/8/8/8/8 w - - 0 1"));
  EXPECT_FALSE(on(l, "8/8/8/K1k5/8/8/8/8 w - - 0 1"));    // one empty square
  EXPECT_FALSE(on(l, "8/8/8/K1p1k3/8/8/8/8 w - - 0 1"));  // a pawn between them
  EXPECT_FALSE(on(l, "4k3/8/8/8/4K3/8/8/8 w - - 0 1"));   // same file
  EXPECT_TRUE(on(":ray (K . . k)", "4k3/8/8/8/4K3/8/8/8 w - - 0 1"));
}

TEST(Seed004PositionList, RayAttackBlackPiecePinnedToKing) {
  EXPECT_TRUE(on(":rayattack (A a k)", "k7/b7/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_TRUE(on(":rayattack (A a k)", "k7/1b6/8/8/8/8/8/4K2B w - - 0 1"));
  // A white king (or a rook on a diagonal) behind the piece does not pin it.
  EXPECT_FALSE(on(":rayattack (A a k)", "k7/b7/8/8/8/8/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(":rayattack (A a k)", "k7/1b6/8/8/8/8/8/4K2R w - - 0 1"));
  EXPECT_TRUE(on(":ray (A a k)", "k7/b7/8/8/8/8/8/K7 w - - 0 1"));
}

TEST(Seed004PositionList, RayAttackThreePinsByPieceOnD5) {
  const std::string l = ":rayattack (Ad5 a [rk][a-h1-4]) 3";
  EXPECT_TRUE(on(l, "7K/8/8/3Q4/2n1p3/3b4/r5r1/3k4 w - - 0 1"));
  EXPECT_FALSE(on(l, "7K/8/8/3Q4/2n5/3b4/r5r1/3k4 w - - 0 1"));  // two pins
}

TEST(Seed004PositionList, RayAttackMultiplePinStalemate) {
  const std::string l = ":stalemate :rayattack (A a k) 2 8 :flipcolor";
  EXPECT_TRUE(on(l, "kn5R/n7/2P5/8/8/8/8/R3K3 b - - 0 1"));
  EXPECT_TRUE(on(l, "r3k3/8/8/8/8/2p5/N7/KN5r w - - 0 1"));  // White stalemated
  EXPECT_FALSE(on(":stalemate :rayattack (A a k) 2 8", "r3k3/8/8/8/8/2p5/N7/KN5r w - - 0 1"));
  EXPECT_FALSE(on(l, "k7/8/1Q6/8/8/8/8/4K3 b - - 0 1"));  // stalemate without pins
}

// ---- Move keywords ---------------------------------------------------------------------------

const char* kRookA3 = "4k3/8/8/8/8/R7/8/4K3 w - - 0 1";

TEST(Seed004PositionList, MoveFromWhiteRookOnA3) {
  EXPECT_EQ(plies(":movefrom Ra3", "1. Ra4 Kd7 2. Ra5 *", kRookA3), Plies({0}));
  EXPECT_EQ(plies(":movefrom Ra3", "1. Kd2 Kd7 2. Ra4 *", kRookA3), Plies({2}));
  EXPECT_EQ(plies(":movefrom Ra3", "1. Kd2 Kd7 2. Kc3 *", kRookA3), Plies());
}

TEST(Seed004PositionList, MoveFromSomePieceOnTheEighthRank) {
  EXPECT_EQ(plies(":movefrom U?8", "1. Ra4 Kd7 2. Ra5 Ke8 *", kRookA3), Plies({1}));
  EXPECT_EQ(plies(":movefrom U?8", "1. Ra8+ Kd7 2. Ra7+ *", kRookA3), Plies({1, 2}));
}

TEST(Seed004PositionList, MoveToEmptyA3) {
  EXPECT_EQ(plies(":moveto .a3", "1. a3 a6 2. b3 *"), Plies({0}));
  EXPECT_EQ(plies(":moveto .a3", "1. b4 Na6 2. b5 Nb8 3. b6 *"), Plies());
}

TEST(Seed004PositionList, MoveToCapturesWhiteRookOnBFile) {
  EXPECT_EQ(plies(":moveto R[b1-8]", "1... Rxb4 *", "4k3/8/8/8/1R6/8/7K/1r6 b - - 0 1"),
            Plies({0}));
  // A white rook moving to the b file is written :movefrom R :moveto ?b?.
  const char* rook_a1 = "4k3/8/8/8/8/8/7K/R7 w - - 0 1";
  EXPECT_EQ(plies(":moveto R[b1-8]", "1. Rb1 *", rook_a1), Plies());
  EXPECT_EQ(plies(":movefrom R :moveto ?b?", "1. Rb1 *", rook_a1), Plies({0}));
  EXPECT_EQ(plies(":movefrom R :moveto ?b?", "1... Rxb4 *", "4k3/8/8/8/1R6/8/7K/1r6 b - - 0 1"),
            Plies());
}

TEST(Seed004PositionList, PromoteWhiteUnderpromotion) {
  const char* white = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
  EXPECT_EQ(plies(":promote [RBN]", "1. a8=N *", white), Plies({0}));
  EXPECT_EQ(plies(":promote [RBN]", "1. a8=R *", white), Plies({0}));
  EXPECT_EQ(plies(":promote [RBN]", "1. a8=Q *", white), Plies());
  EXPECT_EQ(plies(":promote [RBN]", "1... a1=N *", "k7/8/8/8/8/8/p6K/8 b - - 0 1"), Plies());
}

TEST(Seed004PositionList, PromoteToBishopOrKnightOnA8) {
  EXPECT_EQ(plies(":promote [BN]a8", "1. a8=B *", "8/P6k/8/8/8/8/8/K7 w - - 0 1"), Plies({0}));
  EXPECT_EQ(plies(":promote [BN]a8", "1. b8=N *", "8/1P5k/8/8/8/8/8/K7 w - - 0 1"), Plies());
}

TEST(Seed004PositionList, PromoteToRookCapturingQueenOnE8) {
  const std::string l = ":promote Re8 :movefrom Pf7 :moveto q";
  const char* fen = "4q2k/5P2/8/8/8/8/8/K7 w - - 0 1";
  EXPECT_EQ(plies(l, "1. fxe8=R+ *", fen), Plies({0}));
  EXPECT_EQ(plies(l, "1. fxe8=Q+ *", fen), Plies());
  EXPECT_EQ(plies(l, "1. f8=R+ *", fen), Plies());
}

TEST(Seed004PositionList, CastlingIsAKingMoveOfTwoSquares) {
  const std::string l = ":movefrom [Kk]e? :moveto .[c?,g?]";
  EXPECT_EQ(plies(l, "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 5. Re1 *"), Plies({6, 7}));
  EXPECT_EQ(plies(l, "1. d4 d5 2. Nc3 Nc6 3. Bf4 Bf5 4. Qd2 Qd7 5. O-O-O O-O-O *"), Plies({8, 9}));
  EXPECT_EQ(plies(l, "1. e4 e5 2. Ke2 Ke7 3. Kf3 *"), Plies());
}

TEST(Seed004PositionList, EnPassantAndNoEnPassant) {
  const char* game = "1. e4 a6 2. e5 d5 3. exd6 *";
  EXPECT_EQ(plies(":enpassant", game), Plies({4}));
  // :noenpassant is !:enpassant (reference page): it also holds at the end of the game,
  // where there is no next move to be an en-passant capture.
  EXPECT_EQ(plies(":noenpassant", game), Plies({0, 1, 2, 3, 5}));
}

TEST(Seed004PositionList, MoveNumberTenToTwentyCheck) {
  const std::string l = ":movenumber 10 20 :check";
  EXPECT_EQ(plies(l, "10. Ra8+ Kd7 *", "4k3/8/8/8/8/8/8/R3K3 w - - 0 10"), Plies({1}));
  EXPECT_EQ(plies(l, "21. Ra8+ Kd7 *", "4k3/8/8/8/8/8/8/R3K3 w - - 0 21"), Plies());
  EXPECT_EQ(plies(l, "9. Ra8+ Kd7 *", "4k3/8/8/8/8/8/8/R3K3 w - - 0 9"), Plies());
}

TEST(Seed004PositionList, MoveNumberThirtyFiveMate) {
  const std::string l = ":movenumber 35 :mate";
  EXPECT_EQ(plies(l, "35. Rd8# 1-0", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 35"), Plies({1}));
  EXPECT_EQ(plies(l, "34. Rd8# 1-0", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 34"), Plies());
  // SPEC: the move number is the FEN full-move number of the mate position, which Black's
  // 35th move makes 36.
  EXPECT_EQ(plies(l, "35... Rd1# 0-1", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 35"), Plies());
  EXPECT_EQ(
      plies(":movenumber 36 :mate", "35... Rd1# 0-1", "3r2k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 35"),
      Plies({1}));
}

// ---- Logical keywords ------------------------------------------------------------------------

TEST(Seed004PositionList, AndKingsInOppositionKnightOnE2WhiteInCheck) {
  // Also seed 001 and seed 000 ":and".
  const std::string l = ":wtm :check :and ((position Ke2 kg2 :shift :flip) (position Ne2))";
  EXPECT_TRUE(on(l, "4r3/8/8/8/4K1k1/8/4N3/8 w - - 0 1"));   // Ke4 kg4, Re8 checks
  EXPECT_TRUE(on(l, "8/1b6/4k3/8/4K3/8/4N3/8 w - - 0 1"));   // Ke4 ke6, Bb7 checks
  EXPECT_FALSE(on(l, "8/8/8/8/4K1k1/8/4N3/8 w - - 0 1"));    // no check
  EXPECT_FALSE(on(l, "4r3/8/8/8/4K2k/8/4N3/8 w - - 0 1"));   // kings three files apart
  EXPECT_FALSE(on(l, "4r3/8/8/8/4K1k1/8/3N4/8 w - - 0 1"));  // knight on d2
}

TEST(Seed004PositionList, OrCheckAndOppositionOrKnightOnE2) {
  const std::string l = ":wtm :check :or ((position Ke1 kg1 :shift :flip) (position Ne2))";
  EXPECT_TRUE(on(l, "4r3/8/8/8/4K1k1/8/8/8 w - - 0 1"));    // opposition
  EXPECT_TRUE(on(l, "4r3/8/8/8/4K3/8/4N3/7k w - - 0 1"));   // knight on e2
  EXPECT_TRUE(on(l, "4r3/8/8/8/4K1k1/8/4N3/8 w - - 0 1"));  // both
  EXPECT_FALSE(on(l, "4r3/8/8/8/4K3/8/8/7k w - - 0 1"));    // neither
  EXPECT_FALSE(on(l, "8/8/8/8/4K1k1/8/4N3/8 w - - 0 1"));   // no check
  // Ke1 kg1 lie on the first rank, so by the edge rule (SPEC) the up shifts keep them there
  // and the list also matches kings two files apart on different ranks.
  EXPECT_TRUE(on(l, "4r3/6k1/8/8/4K3/8/8/8 w - - 0 1"));
  EXPECT_FALSE(on(":wtm :check :or ((position Ke2 kg2 :shift :flip) (position Ne2))",
                  "4r3/6k1/8/8/4K3/8/8/8 w - - 0 1"));
}

TEST(Seed004PositionList, NotRookA3IsAnythingElseOnA3) {
  for (const char* fen : {"4k3/8/8/8/8/R7/8/4K3 w - - 0 1", "4k3/8/8/8/8/r7/8/4K3 w - - 0 1",
                          "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/Q7/8/4K3 w - - 0 1",
                          "4k3/8/8/8/8/p7/8/4K3 w - - 0 1"}) {
    EXPECT_EQ(on("Ra3 :not", fen), on("[aQBNPK.]a3", fen)) << fen;
    EXPECT_EQ(on("Ra3 :not", fen), !on("Ra3", fen)) << fen;
  }
  EXPECT_FALSE(on("Ra3 :not", "4k3/8/8/8/8/R7/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on("Ra3 :not", "4k3/8/8/8/8/r7/8/4K3 w - - 0 1"));
}

TEST(Seed004PositionList, BareNotNegatesTheWholeTransformedList) {
  // SPEC: with transformations, the list matches when no transform of the rest matches.
  const std::string l = "Ra3 :shifthorizontal :not";
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/7R/8/4K3 w - - 0 1"));  // a white rook on the third rank
  EXPECT_TRUE(on(l, "4k3/8/8/8/7R/8/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/7r/8/4K3 w - - 0 1"));
}

// ---- Game-related keywords -------------------------------------------------------------------

TEST(Seed004PositionList, ResultEloLowerRatedPlayerBeatsStronger) {
  // Also seed 001 and seed 000 ":result" (with "2600 unlimited" / ">=2600").
  const std::string l = ":result 1-0 :whiteelo 0 2300 :blackelo 2600 3000 :flipcolor";
  auto match = [&](uint8_t result, uint16_t white, uint16_t black) {
    eval::GameInfo info;
    info.result = result;
    info.white_elo = white;
    info.black_elo = black;
    return !plies(l, "1. e4 e5 *", "", info).empty();
  };
  EXPECT_TRUE(match(1, 2250, 2650));   // 1-0, White 2250 beats 2650
  EXPECT_TRUE(match(2, 2650, 2250));   // 0-1, Black 2250 beats 2650 (colour flip)
  EXPECT_FALSE(match(1, 2400, 2650));  // winner too strong
  EXPECT_FALSE(match(2, 2250, 2650));  // the stronger player won
  EXPECT_FALSE(match(3, 2250, 2650));  // draw
  EXPECT_FALSE(match(1, 2250, 2500));  // loser too weak
}

TEST(Seed004PositionList, EloAtLeastOnePlayer) {
  auto match = [](const std::string& l, uint16_t white, uint16_t black) {
    eval::GameInfo info;
    info.white_elo = white;
    info.black_elo = black;
    return !plies(l, "1. e4 *", "", info).empty();
  };
  EXPECT_TRUE(match(":elo 2500 2600", 2550, 2000));
  EXPECT_TRUE(match(":elo 2500 2600", 2000, 2550));
  EXPECT_FALSE(match(":elo 2500 2600", 2000, 2700));
  EXPECT_TRUE(match(":whiteelo 2500 2600", 2550, 2000));
  EXPECT_FALSE(match(":blackelo 2500 2600", 2550, 2000));
}

}  // namespace
