// Seed 003 (transformations, German) end to end: the designator transformations whose images
// the page states (already pinned as square sets in eval_transform_test.cpp) used as
// transformation keywords of position lists on FEN positions; and the examples of
// reference/scidb-help-en/CQL-Examples.txt that use only supported keywords (passed pawns
// without accumulators, smothered mate, Allumwandlung). The position-list examples of
// seed 003 (Rc3 qg3, Pc2 Rc1, Nd4 kf3, Rc2 Bh8) are the seed-004 ones, tested there.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using cqltest::on;

/// The FEN (White to move) of the board `kings` with `piece` added on `square`; the caller
/// keeps the kings out of the piece's way.
std::string with(char piece, const std::string& square, const char* kings = "k7/8/8/8/8/8/8/7K") {
  std::string rows[8];
  std::string k = kings;
  int r = 0;
  for (char ch : k) {
    if (ch == '/') {
      ++r;
      continue;
    }
    if (ch >= '1' && ch <= '8')
      rows[r] += std::string(ch - '0', '.');
    else
      rows[r] += ch;
  }
  const int file = square[0] - 'a', rank = square[1] - '1';
  rows[7 - rank][file] = piece;
  std::string fen;
  for (int i = 0; i < 8; ++i) {
    int empty = 0;
    for (char ch : rows[i]) {
      if (ch == '.') {
        ++empty;
        continue;
      }
      if (empty) fen += char('0' + empty);
      empty = 0;
      fen += ch;
    }
    if (empty) fen += char('0' + empty);
    if (i < 7) fen += '/';
  }
  return fen + " w - - 0 1";
}

// ---- Flips -----------------------------------------------------------------------------------

TEST(Seed003Transformations, DiagonalFlipOfRookA8IsH1) {
  // :flipdiagonal = identity, the a1-h8 flip (a8 -> h1) and the a8-h1 flip (a8 -> a8).
  EXPECT_TRUE(on("Ra8 :flipdiagonal", with('R', "a8", "8/8/8/3k4/8/8/8/4K3")));
  EXPECT_TRUE(on("Ra8 :flipdiagonal", with('R', "h1", "8/8/8/3k4/8/8/8/4K3")));
  EXPECT_FALSE(on("Ra8 :flipdiagonal", with('R', "h8", "8/8/8/3k4/8/8/8/4K3")));
  EXPECT_FALSE(on("Ra8 :flipdiagonal", with('R', "a1", "8/8/8/3k4/8/8/8/4K3")));
}

TEST(Seed003Transformations, OffDiagonalFlipOfBishopOnAFileIsOnEighthRank) {
  const std::string l = "[Bb][a1-8] :flipdiagonal";
  const char* kings = "8/8/8/8/4k3/8/8/K7";
  EXPECT_TRUE(on(l, with('b', "a5", kings)));  // identity
  EXPECT_TRUE(on(l, with('B', "d8", kings)));  // a8-h1 flip: the eighth rank
  EXPECT_TRUE(on(l, with('b', "d1", kings)));  // a1-h8 flip: the first rank
  EXPECT_FALSE(on(l, with('B', "d4", kings)));
}

TEST(Seed003Transformations, VerticalFlipOfF6IsC6) {
  EXPECT_TRUE(on("Uf6 :flipvertical", with('N', "c6")));
  EXPECT_FALSE(on("Uf6 :flipvertical", with('N', "f3")));
}

TEST(Seed003Transformations, HorizontalFlipOfF6IsF3) {
  EXPECT_TRUE(on("Uf6 :fliphorizontal", with('N', "f3")));
  EXPECT_FALSE(on("Uf6 :fliphorizontal", with('N', "c6")));
}

TEST(Seed003Transformations, DihedralImagesOfQueenC2) {
  for (const char* sq : {"c2", "b3", "b6", "c7", "f7", "g6", "g3", "f2"})
    EXPECT_TRUE(on("Qc2 :flip", with('Q', sq))) << sq;
  for (const char* sq : {"c3", "d2", "b2", "e2"})
    EXPECT_FALSE(on("Qc2 :flip", with('Q', sq))) << sq;
  for (const char* sq : {"b3", "f7"})  // :flipdihedral is the same keyword
    EXPECT_TRUE(on("Qc2 :flipdihedral", with('Q', sq))) << sq;
}

// ---- Shifts ----------------------------------------------------------------------------------

TEST(Seed003Transformations, ThreeRightShiftsOfQueenA4KeepA4) {
  // Three unit right shifts of Qa4 give Q[a4-d4] (the left edge square stays), while kd4
  // goes to kg4; so the list matches Qb4 kg4, which a plain translation would not.
  const std::string l = "Qa4 kd4 :shifthorizontal";
  EXPECT_TRUE(on(l, "8/8/8/8/Q2k4/8/8/7K b - - 0 1"));    // Qa4 kd4
  EXPECT_TRUE(on(l, "8/8/8/8/1Q4k1/8/8/7K b - - 0 1"));   // Qb4 kg4
  EXPECT_TRUE(on(l, "8/8/8/8/3Q2k1/8/8/7K b - - 0 1"));   // Qd4 kg4
  EXPECT_FALSE(on(l, "8/8/8/8/4Q1k1/8/8/7K b - - 0 1"));  // Qe4 kg4
  EXPECT_FALSE(on(l, "8/8/8/8/1Q1k4/8/8/7K b - - 0 1"));  // Qb4 kd4
}

TEST(Seed003Transformations, TranslationOfQueensB3C4ReachesD4E5) {
  EXPECT_TRUE(on("Qb3 Qc4 :shift", "7k/8/8/4Q3/3Q4/8/8/K7 b - - 0 1"));
  EXPECT_FALSE(on("Qb3 Qc4 :shift", "7k/8/4Q3/8/3Q4/8/8/K7 b - - 0 1"));  // d4 e6
  EXPECT_FALSE(on("Qb3 Qc4 :shift", "7k/8/8/3Q4/4Q3/8/8/K7 w - - 0 1"));  // e4 d5
}

TEST(Seed003Transformations, MainDiagonalShiftIsRightThenUp) {
  const std::string l = "Rb2 kd3 :shiftmaindiagonal";
  EXPECT_TRUE(on(l, "8/8/8/8/4k3/2R5/8/K7 w - - 0 1"));   // Rc3 ke4
  EXPECT_TRUE(on(l, "8/8/8/8/8/3k4/1R6/K7 w - - 0 1"));   // Rb2 kd3
  EXPECT_FALSE(on(l, "8/8/8/8/8/4k3/2R5/K7 w - - 0 1"));  // Rc2 ke3: right only
  EXPECT_FALSE(on(l, "8/8/8/8/8/8/4k3/K1R5 w - - 0 1"));  // Rc1 ke2: right then down
}

TEST(Seed003Transformations, OffDiagonalShiftIsRightThenDown) {
  const std::string l = "Rb2 kd3 :shiftoffdiagonal";
  EXPECT_TRUE(on(l, "8/8/8/8/8/8/4k3/K1R5 w - - 0 1"));   // Rc1 ke2
  EXPECT_TRUE(on(l, "8/8/8/8/2k5/R7/8/7K w - - 0 1"));    // Ra3 kc4: left then up
  EXPECT_FALSE(on(l, "8/8/8/8/4k3/2R5/8/K7 w - - 0 1"));  // Rc3 ke4
}

TEST(Seed003Transformations, DiagonalShiftIsBoth) {
  const std::string l = "Rb2 kd3 :shiftdiagonal";
  EXPECT_TRUE(on(l, "8/8/8/8/8/8/4k3/K1R5 w - - 0 1"));
  EXPECT_TRUE(on(l, "8/8/8/8/4k3/2R5/8/K7 w - - 0 1"));
  EXPECT_FALSE(on(l, "8/8/8/8/8/4k3/2R5/K7 w - - 0 1"));
}

TEST(Seed003Transformations, ColorFlipOfRbpOnA2C2IsRBPOnA7C7) {
  const std::string l = "[Rbp][a2,c2] :flipcolor";
  EXPECT_TRUE(on(l, "4k3/2r5/8/8/8/8/8/4K3 w - - 0 1"));   // rc7
  EXPECT_TRUE(on(l, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1"));    // Pa7
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/8/R7/4K3 w - - 0 1"));    // Ra2: the identity
  EXPECT_FALSE(on(l, "4k3/2R5/8/8/8/8/8/4K3 w - - 0 1"));  // Rc7
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/2r5/4K3 w - - 0 1"));  // rc2
}

// ---- CQL-Examples ----------------------------------------------------------------------------

TEST(SeedRefExamples, WhitePassedPawn) {
  const std::string l = "Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 :shift";
  EXPECT_TRUE(on(l, "4k3/pp6/8/8/4P3/8/8/4K3 w - - 0 1"));     // Pe4 v a7 b7
  EXPECT_TRUE(on(l, "4k3/2p5/8/8/P7/8/8/4K3 w - - 0 1"));      // Pa4 v c7
  EXPECT_TRUE(on(l, "4k3/8/8/4P3/3p4/8/8/4K3 w - - 0 1"));     // the d4 pawn is behind
  EXPECT_FALSE(on(l, "4k3/pp6/5p2/8/4P3/8/8/4K3 w - - 0 1"));  // f6 stops e4
  EXPECT_FALSE(on(l, "4k3/4p3/8/8/4P3/8/8/4K3 w - - 0 1"));    // e7 blocks e4
  EXPECT_FALSE(on(l, "4k3/8/8/6p1/7P/8/8/4K3 w - - 0 1"));     // g5 stops h4
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"));        // no pawn
}

TEST(SeedRefExamples, BlackPassedPawn) {
  const std::string l = "pd7 :piececount [pP][d2-6] 0 :piececount P[c2-6,e2-6] 0 :shift";
  EXPECT_TRUE(on(l, "4k3/8/8/3p4/8/8/PP6/4K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k3/8/8/8/4P3/8/8/4K3 w - - 0 1"));
}

TEST(SeedRefExamples, SmotheredMate) {
  const std::string l = ":flipcolor :attackcount k [A.] 0 :mate";
  EXPECT_TRUE(on(l, "6rk/5Npp/8/8/8/8/8/6K1 b - - 0 1"));
  EXPECT_TRUE(on(l, "6k1/8/8/8/8/8/5nPP/6RK w - - 0 1"));       // White smothered
  EXPECT_FALSE(on(l, "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1"));  // back-rank mate
  EXPECT_FALSE(on(l, "6rk/6pp/8/8/8/8/8/6K1 b - - 0 1"));       // smothered, no mate
}

TEST(SeedRefExamples, AllumwandlungPromotionsIntoAllPieces) {
  const std::string script =
      "(match (position :promote [Qq]) (position :promote [Rr]) (position :promote [Bb]) "
      "(position :promote [Nn]))";
  const std::string fen = "[SetUp \"1\"]\n[FEN \"8/PPPP4/8/7k/8/8/8/K7 w - - 0 1\"]\n\n";
  const auto all =
      cqltest::run_game(script, fen + "1. a8=Q Kh4 2. b8=R Kh5 3. c8=B Kh4 4. d8=N Kh5 *\n");
  EXPECT_TRUE(all.matched);
  EXPECT_EQ(all.plies, std::vector<uint32_t>({0, 2, 4, 6}));
  // The order of the position lists is not significant.
  EXPECT_TRUE(cqltest::run_game(script, fen + "1. d8=N Kh4 2. c8=B Kh5 3. b8=R Kh4 4. a8=Q Kh5 *\n")
                  .matched);
  EXPECT_FALSE(
      cqltest::run_game(script, fen + "1. a8=Q Kh4 2. b8=R Kh5 3. c8=B Kh4 4. d8=Q+ Kh5 *\n")
          .matched);
}

}  // namespace
