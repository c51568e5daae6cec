// Seed 002 (square designators, German) with reference/scidb-help-en/CQL-Square-Designators
// and CQL-Piece-Designators: every example designator that states what it denotes or
// matches, run end to end as a position list on FEN positions and short games. Square sets
// are checked by counting them with the any-content designator `?` (:piececount ?S n holds
// exactly when S has n squares).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using cqltest::on;
using cqltest::plies;
using cqltest::Plies;

const char* kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const char* kKings = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";

/// True if the square designator `squares` denotes exactly `n` squares (and not n - 1 or
/// n + 1), measured on the start position.
::testing::AssertionResult denotes(const std::string& squares, int n) {
  const std::string c = ":piececount ?" + squares + " ";
  const bool exact = on(c + std::to_string(n), kStart);
  const bool less = n > 0 && on(c + std::to_string(n - 1), kStart);
  const bool more = on(c + std::to_string(n + 1), kStart);
  if (exact && !less && !more) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << squares << " does not denote " << n << " squares";
}

// ---- Square designators ----------------------------------------------------------------------

TEST(Seed002SquareDesignators, EmptySquareDesignatorIsAllSixtyFourSquares) {
  EXPECT_TRUE(denotes("", 64));
  EXPECT_TRUE(on("R", "4k3/8/8/8/8/7R/8/4K3 w - - 0 1"));  // a white rook anywhere
  EXPECT_FALSE(on("R", kKings));
}

TEST(Seed002SquareDesignators, SimpleSquareBlackBishopOnB3) {
  EXPECT_TRUE(on("bb3", "4k3/8/8/8/8/1b6/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("bb3", "4k3/8/8/8/8/1B6/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("bb3", "4k3/8/8/8/8/2b5/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, QuestionMarkFileOrRankMeansAll) {
  EXPECT_TRUE(denotes("?3", 8));
  EXPECT_TRUE(denotes("b?", 8));
  EXPECT_TRUE(denotes("??", 64));
  EXPECT_TRUE(on("R?3", "4k3/8/8/8/8/6R1/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("R?3", "4k3/8/8/8/6R1/8/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, LightAndDarkSquares) {
  EXPECT_TRUE(denotes("[L?]", 32));
  EXPECT_TRUE(denotes("[D1]", 4));  // a1 c1 e1 g1
  EXPECT_TRUE(denotes("L?", 32));
  EXPECT_TRUE(denotes("?D", 32));
  EXPECT_TRUE(on("R[D1]", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));    // a1 is dark
  EXPECT_FALSE(on("R[D1]", "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"));  // b1 is light
  EXPECT_FALSE(on("R[D1]", "4k3/8/8/8/8/8/R7/4K3 w - - 0 1"));   // a2: not the first rank
}

TEST(Seed002SquareDesignators, FilesAToCOnTheFirstRank) {
  EXPECT_TRUE(denotes("[a-c1]", 3));
  EXPECT_TRUE(on("R[a-c1]", "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"));
  EXPECT_FALSE(on("R[a-c1]", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, RanksThreeToFiveOnTheBFile) {
  EXPECT_TRUE(denotes("[b3-5]", 3));
  EXPECT_TRUE(on("Q[b3-5]", "4k3/8/8/8/1Q6/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("Q[b3-5]", "4k3/8/1Q6/8/8/8/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, NineSquaresF6ToH8) {
  EXPECT_TRUE(denotes("[f-h6-8]", 9));
  EXPECT_TRUE(on("N[f-h6-8]", "4k3/8/7N/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("N[f-h6-8]", "4k3/8/8/7N/8/8/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, SquaresA1AndC4) {
  EXPECT_TRUE(denotes("[a1,c4]", 2));
  EXPECT_TRUE(on("N[a1,c4]", "4k3/8/8/8/2N5/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("N[a1,c4]", "4k3/8/8/8/1N6/8/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, FirstTwoRanksPlusA8AndH8) {
  EXPECT_TRUE(denotes("[a-h1-2,a8,h8]", 18));
  EXPECT_TRUE(on("N[a-h1-2,a8,h8]", "N3k3/8/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on("N[a-h1-2,a8,h8]", "1N2k3/8/8/8/8/8/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, EmptyBracketsDenoteNoSquare) {
  EXPECT_TRUE(denotes("[]", 0));
  EXPECT_FALSE(on("?[]", kStart));  // very different from the empty designator
  EXPECT_TRUE(on("?", kStart));
}

TEST(Seed002SquareDesignators, ReserveNeverHoldsAPieceInStandardChess) {
  // SPEC: [+] and [*] exist for drop variants; [+] never matches a square of the board.
  EXPECT_TRUE(denotes("[+]", 0));
  EXPECT_TRUE(denotes("[+,a1]", 1));
  EXPECT_TRUE(denotes("[*]", 64));
  EXPECT_FALSE(on("N[+]", kStart));
  EXPECT_TRUE(on("R[+,a1]", kStart));
  EXPECT_FALSE(on("R[+,a1]", "4k3/8/8/8/8/8/8/1R2K3 w - - 0 1"));
  EXPECT_TRUE(on("R[*]", "4k3/8/8/8/8/7R/8/4K3 w - - 0 1"));
}

// ---- Piece designators on the square-designator pages ----------------------------------------

TEST(Seed002SquareDesignators, WhiteMinorPieceOnA1) {
  EXPECT_TRUE(on("Ia1", "4k3/8/8/8/8/8/8/B3K3 w - - 0 1"));
  EXPECT_TRUE(on("Ia1", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1"));
  EXPECT_FALSE(on("Ia1", "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_FALSE(on("Ia1", "4k3/8/8/8/8/8/8/n3K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, WhiteRookOnTheFirstTwoRanks) {
  EXPECT_TRUE(on("R[a-h1-2]", "4k3/8/8/8/8/8/6R1/4K3 w - - 0 1"));
  EXPECT_FALSE(on("R[a-h1-2]", "4k3/8/8/8/8/6R1/8/4K3 w - - 0 1"));
}

TEST(Seed002SquareDesignators, WhitePieceOrBlackRookOnFirstTwoRanksOrCorners) {
  const std::string l = "[Ar][a-h1-2,a8,h8]";
  EXPECT_TRUE(on(l, "4k2r/8/8/8/4K3/8/8/8 w - - 0 1"));    // rh8 in a corner
  EXPECT_TRUE(on(l, "4k3/8/8/8/4K3/8/1r6/8 w - - 0 1"));   // rb2
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"));     // Ke1
  EXPECT_FALSE(on(l, "4k3/8/8/3r4/4K3/8/8/8 w - - 0 1"));  // Ke4, rd5
  EXPECT_FALSE(on(l, "4k3/8/8/8/4K3/8/1b6/8 w - - 0 1"));  // a black bishop on b2
}

TEST(Seed002SquareDesignators, WhiteNonKingPieceInACorner) {
  const std::string l = "[RBNQP][a1,h1,a8,h8]";
  EXPECT_TRUE(on(l, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"));
  EXPECT_TRUE(on(l, "4k2N/8/8/8/8/8/8/4K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/8/K7 w - - 0 1"));    // the king
  EXPECT_FALSE(on(l, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1"));  // a black rook
}

TEST(Seed002SquareDesignators, LightSquaredBishop) {
  EXPECT_TRUE(on("[Bb]L?", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"));     // Bf1
  EXPECT_TRUE(on("[Bb]L?", "2b1k3/8/8/8/8/8/8/4K3 w - - 0 1"));    // bc8
  EXPECT_FALSE(on("[Bb]L?", "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1"));  // bf8 Bc1: dark
}

TEST(Seed002SquareDesignators, WhiteBishopOnNoSquareNeverMatches) {
  EXPECT_FALSE(on("B[]", kStart));
  EXPECT_FALSE(on("B[]", "4k3/8/8/8/8/8/BBBBBBBB/4K3 w - - 0 1"));
}

// ---- CQL-Piece-Designators -------------------------------------------------------------------

TEST(SeedRefPieceDesignators, WhiteRookOnA2) {
  EXPECT_TRUE(on("Ra2", "4k3/8/8/8/8/8/R7/4K3 w - - 0 1"));
  EXPECT_FALSE(on("Ra2", "4k3/8/8/8/8/8/r7/4K3 w - - 0 1"));
}

TEST(SeedRefPieceDesignators, BlackBishopOnC1) {
  EXPECT_TRUE(on("bc1", "4k3/8/8/8/8/8/8/2b1K3 w - - 0 1"));
  EXPECT_FALSE(on("bc1", "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1"));
}

TEST(SeedRefPieceDesignators, WhiteRookOrBlackBishopOnD1) {
  EXPECT_TRUE(on("[Rb]d1", "4k3/8/8/8/8/8/8/3RK3 w - - 0 1"));
  EXPECT_TRUE(on("[Rb]d1", "4k3/8/8/8/8/8/8/3bK3 w - - 0 1"));
  EXPECT_FALSE(on("[Rb]d1", "4k3/8/8/8/8/8/8/3rK3 w - - 0 1"));
}

TEST(SeedRefPieceDesignators, WhiteQueenOrBlackRookOnD1OrH3) {
  EXPECT_TRUE(on("[Qr][d1,h3]", "4k3/8/8/8/8/7r/8/4K3 w - - 0 1"));
  EXPECT_TRUE(on("[Qr][d1,h3]", "4k3/8/8/8/8/8/8/3QK3 w - - 0 1"));
  EXPECT_TRUE(on("[Qr][d1,h3]", "4k3/8/8/8/8/7r/8/3QK3 w - - 0 1"));  // both
  EXPECT_FALSE(on("[Qr][d1,h3]", "4k3/8/8/8/8/7R/8/3qK3 w - - 0 1"));
}

TEST(SeedRefPieceDesignators, AllowedPieceTypeDesignators) {
  // One position holding a white rook b1 and knight c1, a black queen d8 and bishop f8.
  const char* fen = "3qkb2/8/8/8/8/8/8/1RN1K3 w - - 0 1";
  struct Case {
    const char* designator;
    bool matches;
  };
  const Case cases[] = {
      {"Ab1", true},  {"ab1", false}, {"ad8", true},  {"Ad8", false}, {"Mb1", true},
      {"Mc1", false}, {"md8", true},  {"mf8", false}, {"Ic1", true},  {"Ib1", false},
      {"if8", true},  {"id8", false}, {"Ub1", true},  {"Ua1", false}, {".a1", true},
      {".b1", false}, {"?a1", true},  {"?b1", true},  {"Ke1", true},  {"ke1", false},
  };
  for (const Case& c : cases) EXPECT_EQ(on(c.designator, fen), c.matches) << c.designator;
}

// A white pawn promotes to a queen on a8 (a corner) and moves on; a king stays put.
const char* kPromotes = "7k/P7/8/8/8/8/8/K7 w - - 0 1";

TEST(SeedRefPieceDesignators, AnyPromotedPiece) {
  EXPECT_EQ(plies("U~", "1. a8=Q+ Kh7 2. Qb8 *", kPromotes), Plies({1, 2, 3}));
  EXPECT_EQ(plies("U~", "1. Kb2 Kg8 *", kPromotes), Plies());
}

TEST(SeedRefPieceDesignators, PromotedQueenInACorner) {
  const std::string l = "[Q~q~][a1,h1,a8,h8]";
  EXPECT_EQ(plies(l, "1. a8=Q+ Kh7 2. Qb8 Kg6 3. Qh8 *", kPromotes), Plies({1, 2, 5}));
  // A queen that was never a pawn does not count.
  EXPECT_EQ(plies(l, "1... Kh7 *", "Q6k/8/8/8/8/8/8/K7 b - - 0 1"), Plies());
}

TEST(SeedRefPieceDesignators, AnyPieceNotFromPromotion) {
  // The kings are never promoted pieces.
  EXPECT_EQ(plies("U~~", "1. a8=Q+ Kh7 *", kPromotes), Plies({0, 1, 2}));
  EXPECT_EQ(plies("[Q~~R~~B~~N~~]", "1. a8=Q+ Kh7 *", kPromotes), Plies());
}

TEST(SeedRefPieceDesignators, QueenInACornerNotFromPromotion) {
  const std::string l = "[Q~~q~~][a1,h1,a8,h8]";
  EXPECT_EQ(plies(l, "1... Kh7 *", "Q6k/8/8/8/8/8/8/K7 b - - 0 1"), Plies({0, 1}));
  EXPECT_EQ(plies(l, "1. a8=Q+ Kh7 *", kPromotes), Plies());
}

}  // namespace
