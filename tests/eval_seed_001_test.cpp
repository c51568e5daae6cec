// Seed 001 - Scidb's older English page "CQL - The position list" (CQL-S): every example
// that states what it matches and is not already tested for seed 004, run end to end on FEN
// positions and short legal games. Where the page gives an "equivalent query", the keyword
// and that query are compared on the same positions.
//
// Shared with seed 004 and tested there: :and (kings in opposition), (position Ra3 :not),
// the :attackcount, :piececount, :power, :ray, :rayattack, :movefrom Ra3 / U?8, :moveto
// R[b1-8], :promote [RBN] / [BN]a8 / Re8, :movenumber and :result examples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using cqltest::on;
using cqltest::plies;
using cqltest::Plies;

// ---- Logical keywords ------------------------------------------------------------------------

/// The ideal mirror mate query with the given "attacked at least twice" range.
std::string mirror_mate(const std::string& twice) {
  return "(match (position :flipcolor :and ("
         "(position :attackcount k . 8 :attackcount A k 1 :mate :btm)"
         "(position :not :attackcount k .e4 1 :attackcount A .e4 " +
         twice + " :shift))))";
}

bool mirror_mate_matches(const std::string& twice, const std::string& fen) {
  return cqltest::run_fen(mirror_mate(twice), fen);
}

TEST(Seed001PositionList, NotIdealMirrorMate) {
  // Kd5 mated by Qd3 with knights on d7 and d8: every empty neighbour is covered once.
  const char* ideal = "3N4/3N4/8/3k4/8/3Q4/8/7K b - - 0 1";
  const char* ideal_white = "7k/8/3q4/8/3K4/8/3n4/3n4 w - - 0 1";  // colour flipped
  const char* doubly = "3N4/3N4/8/3k4/R7/3Q4/8/7K b - - 0 1";      // Ra4 covers c4-e4 too
  const char* back_rank = "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1";  // not surrounded by empties
  for (const std::string twice : {"2 unlimited", ">=2"}) {         // seed 001 / seed 000 spelling
    EXPECT_TRUE(mirror_mate_matches(twice, ideal)) << twice;
    EXPECT_TRUE(mirror_mate_matches(twice, ideal_white)) << twice;
    EXPECT_FALSE(mirror_mate_matches(twice, doubly)) << twice;
    EXPECT_FALSE(mirror_mate_matches(twice, back_rank)) << twice;
  }
}

TEST(Seed001PositionList, OrTwoBishopsOfTheSameColour) {
  const std::string dark =
      "[a1,a3,a5,a7,b2,b4,b6,b8,c1,c3,c5,c7,d2,d4,d6,d8,e1,e3,e5,e7,f2,f4,f6,f8,g1,g3,g5,g7,"
      "h2,h4,h6,h8]";
  const std::string light =
      "[a2,a4,a6,a8,b1,b3,b5,b7,c2,c4,c6,c8,d1,d3,d5,d7,e2,e4,e6,e8,f1,f3,f5,f7,g2,g4,g6,g8,"
      "h1,h3,h5,h7]";
  const std::string l001 = ":or ((position :piececount B" + dark + " 2 9) (position :piececount b" +
                           dark + " 2 9) (position :piececount b" + light +
                           " 2 9) (position :piececount B" + light + " 2 9))";
  // Seed 000 writes the same query with the light/dark square designators.
  const std::string l000 =
      ":or ((position :piececount BL? 2) (position :piececount bL? 2) "
      "(position :piececount BD? 2) (position :piececount bD? 2))";
  struct Case {
    const char* fen;
    bool same_colour;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true},   // Bc1 Be3: both dark
      {"2b1k3/8/4b3/8/8/8/8/4K3 w - - 0 1", true},   // bc8 be6: both light
      {"4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", false},   // Bc1 dark, Bf1 light
      {"4k3/8/8/8/8/4b3/8/2B1K3 w - - 0 1", false},  // one white, one black
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(l001, c.fen), c.same_colour) << c.fen;
    EXPECT_EQ(on(l000, c.fen), c.same_colour) << c.fen;
  }
}

// ---- Simple keywords -------------------------------------------------------------------------

TEST(Seed001PositionList, BlackAndWhiteCannotWinAsTheirEquivalentQueries) {
  const std::string black_eq =
      ":or ((position :piececount a 1) (position :piececount a 2 :piececount i 1))";
  const std::string white_eq =
      ":or ((position :piececount A 1) (position :piececount A 2 :piececount I 1))";
  struct Case {
    const char* fen;
    bool black_cannot, white_cannot;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true, true},
      {"4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", true, true},
      {"4kb2/8/8/8/8/8/8/4KR2 w - - 0 1", true, false},
      {"4kr2/8/8/8/8/8/8/4KN2 w - - 0 1", false, true},
      {"3nkn2/8/8/8/8/8/4P3/4K3 w - - 0 1", false, false},  // two knights; a pawn
      {"4k3/p7/8/8/8/8/8/4K3 w - - 0 1", false, true},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(":blackcannotwin", c.fen), c.black_cannot) << c.fen;
    EXPECT_EQ(on(black_eq, c.fen), c.black_cannot) << c.fen;
    EXPECT_EQ(on(":whitecannotwin", c.fen), c.white_cannot) << c.fen;
    EXPECT_EQ(on(white_eq, c.fen), c.white_cannot) << c.fen;
    // Seed 000: the negated forms match where that side (theoretically) can still win.
    EXPECT_EQ(on("!:blackcannotwin", c.fen), !c.black_cannot) << c.fen;
    EXPECT_EQ(on("!:whitecannotwin", c.fen), !c.white_cannot) << c.fen;
  }
}

std::string castling_fen(const std::string& rights) {
  return "r3k2r/8/8/8/8/8/8/R3K2R w " + rights + " - 0 1";
}

TEST(Seed001PositionList, CastlingWhiteKingside) {
  EXPECT_TRUE(on(":castling K", castling_fen("KQkq")));
  EXPECT_TRUE(on(":castling K", castling_fen("Kkq")));
  EXPECT_FALSE(on(":castling K", castling_fen("Qk")));
  EXPECT_FALSE(on(":castling K", castling_fen("-")));
}

TEST(Seed001PositionList, CastlingWhiteKingsideOrQueensideButNotBoth) {
  EXPECT_TRUE(on(":castling [KQ]", castling_fen("K")));
  EXPECT_TRUE(on(":castling [KQ]", castling_fen("Qkq")));
  EXPECT_FALSE(on(":castling [KQ]", castling_fen("KQkq")));
  EXPECT_FALSE(on(":castling [KQ]", castling_fen("kq")));
}

TEST(Seed001PositionList, CastlingWhiteKingsideAndQueenside) {
  EXPECT_TRUE(on(":castling K :castling Q", castling_fen("KQ")));
  EXPECT_TRUE(on(":castling K :castling Q", castling_fen("KQkq")));
  EXPECT_FALSE(on(":castling K :castling Q", castling_fen("Kkq")));
  EXPECT_FALSE(on(":castling K :castling Q", castling_fen("Q")));
}

TEST(Seed001PositionList, CastlingLettersFollowTheColourFlip) {
  // SPEC: :flipcolor swaps the castling letters.
  EXPECT_TRUE(on(":castling K :flipcolor", castling_fen("k")));
  EXPECT_TRUE(on(":castling K :flipcolor", castling_fen("K")));
  EXPECT_FALSE(on(":castling K :flipcolor", castling_fen("Qq")));
}

TEST(Seed001PositionList, ContactCheckAsItsEquivalentQuery) {
  const std::string eq =
      ":check :or ((position :doublecheck) (position :attackcount [NP] k 1 :flipcolor) "
      "(position [QR]d4 k[c4,e4,d3,d5] :flipcolor :shift) "
      "(position [QB]d4 k[c3,c5,e3,e5] :flipcolor :shift))";
  struct Case {
    const char* fen;
    bool contact;
  };
  const Case cases[] = {
      {"4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1", true},    // queen next to the king
      {"4k3/3Q4/8/8/8/8/8/4K3 b - - 0 1", true},    // diagonally next to it
      {"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", false},   // distant rook
      {"4k3/8/3N4/8/8/8/8/6K1 b - - 0 1", true},    // knight
      {"4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1", true},  // double check
      {"4k3/5B2/8/8/8/8/8/6K1 b - - 0 1", true},    // adjacent bishop
      {"4k3/8/8/1B6/8/8/8/6K1 b - - 0 1", false},   // distant bishop
      {"4k3/3P4/8/8/8/8/8/6K1 b - - 0 1", true},    // pawn
      {"4K3/4q3/8/8/8/8/8/4k3 w - - 0 1", true},    // White in contact check
      {"4K3/8/8/8/4r3/8/8/4k3 w - - 0 1", false},
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(":contactcheck", c.fen), c.contact) << c.fen;
    EXPECT_EQ(on(eq, c.fen), c.contact) << c.fen;
    EXPECT_EQ(on(":nocontactcheck", c.fen), !c.contact) << c.fen;
  }
}

TEST(Seed001PositionList, DoubleCheckAndNoDoubleCheck) {
  EXPECT_TRUE(on(":doublecheck", "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_FALSE(on(":doublecheck", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_FALSE(on(":nodoublecheck", "4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_TRUE(on(":nodoublecheck", "4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"));
  EXPECT_TRUE(on(":nodoublecheck", "4k3/8/8/8/8/8/8/3R2K1 b - - 0 1"));
}

TEST(Seed001PositionList, EndgameAsItsEquivalentQuery) {
  const std::string eq =
      ":or ("
      "(position :piececount [Qq] 0 :piececount [RBN] 0 3 :piececount [rbn] 0 3)"
      "(position :piececount Q 1 :piececount q 1 :piececount [Rr] 0 :piececount I 0 1 "
      ":piececount i 0 1)"
      "(position :piececount Q 1 :piececount R 0 :piececount I 0 1 :piececount q 0 "
      ":power [rbn] 0 16 :flipcolor))";
  struct Case {
    const char* fen;
    bool endgame;
  };
  const Case cases[] = {
      {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
      {"4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1", true},  // pawns are not limited
      {"r3k3/8/8/8/8/8/8/RBN1K3 w - - 0 1", true},            // R+B+N v R
      {"r3k3/8/8/8/8/8/8/RBN1K2R w - - 0 1", false},          // four pieces
      {"3qk1n1/8/8/8/8/8/8/3QK1N1 w - - 0 1", true},          // Q+N v Q+N
      {"3qk1n1/8/8/8/8/8/8/2NQK1N1 w - - 0 1", false},        // two minors with the queen
      {"rbn1k3/8/8/8/8/8/8/3QK1N1 w - - 0 1", true},          // Q+N v R+B+N (11)
      {"rbn1k2r/8/8/8/8/8/8/3QK1N1 w - - 0 1", true},         // Q+N v R+R+B+N (16)
      {"rbnbk2r/8/8/8/8/8/8/3QK1N1 w - - 0 1", false},        // 19
      {"r3k3/8/8/8/8/8/8/R2QK3 w - - 0 1", false},            // Q+R v R
      {"3qk1n1/8/8/8/8/8/8/RBN1K3 w - - 0 1", true},          // colour-flipped third case
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(":endgame", c.fen), c.endgame) << c.fen;
    EXPECT_EQ(on(eq, c.fen), c.endgame) << c.fen;
    EXPECT_EQ(on(":noendgame", c.fen), !c.endgame) << c.fen;
    EXPECT_EQ(on("!:endgame", c.fen), !c.endgame) << c.fen;  // seed 000
  }
}

TEST(Seed001PositionList, FiftyMoveRuleFirstPositionAfterFiftyQuietMoves) {
  const char* fen = "4k3/8/8/8/8/8/8/R3K3 w - - 99 80";
  EXPECT_EQ(plies(":fiftymoverule", "80. Ra2 Kd7 81. Ra3 Kd6 *", fen), Plies({1}));
  EXPECT_EQ(plies(":fiftymoverule", "80. Ra2 Kd7 81. Ra3 *", "4k3/8/8/8/8/8/8/R3K3 w - - 97 80"),
            Plies({3}));
  EXPECT_EQ(plies(":fiftymoverule", "80. Ra2 Kd7 *", "4k3/8/8/8/8/8/8/R3K3 w - - 60 80"), Plies());
  EXPECT_EQ(plies(":fiftymoverule", "1. e4 e5 2. Nf3 *"), Plies());
}

TEST(Seed001PositionList, GameIsOverAsItsAbbreviation) {
  // The page's :losing and :checkcount 3 parts never hold in standard chess (SPEC Variants).
  const std::string eq =
      ":or ((position :mate) (position :stalemate) (position :nomatingmaterial))";
  struct Case {
    const char* fen;
    bool over;
  };
  const Case cases[] = {
      {"R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1", true},  // mate
      {"k7/8/1Q6/8/8/8/8/4K3 b - - 0 1", true},        // stalemate
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},         // bare kings
      {"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},        // K+B v K
      {"4k3/8/8/8/8/8/8/4R1K1 b - - 0 1", false},      // check, not mate
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(":gameisover", c.fen), c.over) << c.fen;
    EXPECT_EQ(on(eq, c.fen), c.over) << c.fen;
    EXPECT_EQ(on("!:gameisover", c.fen), !c.over) << c.fen;  // seed 000
  }
}

TEST(Seed001PositionList, HalfmoveClockLimitThirty) {
  EXPECT_TRUE(on(":halfmoveclocklimit 30", "4k3/8/8/8/8/8/8/R3K3 w - - 30 40"));
  EXPECT_TRUE(on(":halfmoveclocklimit 30", "4k3/8/8/8/8/8/8/R3K3 w - - 0 40"));
  EXPECT_FALSE(on(":halfmoveclocklimit 30", "4k3/8/8/8/8/8/8/R3K3 w - - 31 40"));
}

TEST(Seed001PositionList, MateInTheFirstTwentyMoves) {
  EXPECT_EQ(plies(":mate :movenumber 1 20", "1. f3 e5 2. g4 Qh4# 0-1"), Plies({4}));
  EXPECT_EQ(
      plies(":mate :movenumber 1 20", "25. Rd8# 1-0", "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 25"),
      Plies());
  EXPECT_EQ(plies(":nomate", "1. f3 e5 2. g4 Qh4# 0-1"), Plies({0, 1, 2, 3}));
}

TEST(Seed001PositionList, NoMatingMaterialAsItsEquivalentQuery) {
  const std::string dark =
      "[a1,a3,a5,a7,b2,b4,b6,b8,c1,c3,c5,c7,d2,d4,d6,d8,e1,e3,e5,e7,f2,f4,f6,f8,g1,g3,g5,g7,"
      "h2,h4,h6,h8]";
  const std::string light =
      "[a2,a4,a6,a8,b1,b3,b5,b7,c2,c4,c6,c8,d1,d3,d5,d7,e2,e4,e6,e8,f1,f3,f5,f7,g2,g4,g6,g8,"
      "h1,h3,h5,h7]";
  const std::string eq =
      ":or ((position :piececount U 2) "
      "(position :piececount U 3 :piececount [Ii] 1) "
      "(position :piececount U 4 :piececount [Bb]" +
      dark +
      " 2) "
      "(position :piececount U 4 :piececount [Bb]" +
      light + " 2))";
  struct Case {
    const char* fen;
    bool none;
  };
  const Case cases[] = {
      {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},      {"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
      {"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // bishops both on dark squares
      {"2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  // opposite colours
      {"4k3/8/8/8/8/4B3/8/2B1K3 w - - 0 1", true},   // K+B+B v K, bishops alike
      {"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},   {"4k3/8/8/8/8/8/8/4KR2 w - - 0 1", false},
      {"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(on(":nomatingmaterial", c.fen), c.none) << c.fen;
    EXPECT_EQ(on(eq, c.fen), c.none) << c.fen;
    EXPECT_EQ(on(":matingmaterial", c.fen), !c.none) << c.fen;
    EXPECT_EQ(on("!:matingmaterial", c.fen), c.none) << c.fen;  // seed 000
  }
}

TEST(Seed001PositionList, RepetitionFirstPositionOccurringTheThirdTime) {
  const char* three = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 Nf6 4. Ng1 Ng8 5. e4 *";
  EXPECT_EQ(plies(":repetition", three), Plies({8}));
  EXPECT_EQ(plies(":threefoldrepetition", three), Plies({8}));  // seed 000 name
  EXPECT_EQ(plies(":repetition", "1. Nf3 Nf6 2. Ng1 Ng8 3. e4 *"), Plies());
  // Same placement, but castling rights lost on the way: not the same position.
  EXPECT_EQ(plies(":repetition", "1. Nf3 Nf6 2. Rg1 Rg8 3. Rh1 Rh8 4. Rg1 Rg8 5. Rh1 Rh8 *"),
            Plies());
  // Repetitions need not be in succession.
  EXPECT_EQ(plies(":repetition", "1. Nf3 Nf6 2. Ng1 Ng8 3. Nc3 Nc6 4. Nb1 Nb8 5. e4 *"),
            Plies({8}));
}

TEST(Seed001PositionList, NegatedSimpleKeywordAliases) {
  const char* mate = "R5k1/5ppp/8/8/8/8/5PPP/6K1 b - - 0 1";
  const char* stalemate = "k7/8/1Q6/8/8/8/8/4K3 b - - 0 1";
  EXPECT_FALSE(on(":nomate", mate));
  EXPECT_TRUE(on(":nomate", stalemate));
  EXPECT_FALSE(on(":nostalemate", stalemate));
  EXPECT_TRUE(on(":nostalemate", mate));
  EXPECT_FALSE(on(":nocheck", mate));
  EXPECT_TRUE(on(":nocheck", stalemate));
}

// ---- Transformation keywords: :inside ---------------------------------------------------------

TEST(Seed001PositionList, InsideTripledPawns) {
  const std::string tripled = ":piececount P[b2-7] 3 :shifthorizontal";
  EXPECT_TRUE(on(tripled, "4k3/8/2P5/2P5/8/2P5/8/4K3 w - - 0 1"));   // c3 c5 c6
  EXPECT_TRUE(on(tripled, "4k3/8/P7/P7/8/P7/8/4K3 w - - 0 1"));      // a file
  EXPECT_TRUE(on(tripled, "4k3/8/7P/7P/8/7P/8/4K3 w - - 0 1"));      // h file
  EXPECT_FALSE(on(tripled, "4k3/8/2P5/8/8/2P5/8/4K3 w - - 0 1"));    // doubled
  EXPECT_FALSE(on(tripled, "4k3/8/2P5/2p5/8/2P5/8/4K3 w - - 0 1"));  // one is black
}

TEST(Seed001PositionList, InsideTripledPawnsOneOnTheMainDiagonal) {
  const std::string l =
      ":inside P[b2-7] [b2,c3,d4,e5,f6,g7] :piececount P[b2-7] 3 :shifthorizontal";
  EXPECT_TRUE(on(l, "4k3/8/2P5/2P5/8/2P5/8/4K3 w - - 0 1"));   // c3 is on the diagonal
  EXPECT_TRUE(on(l, "7k/3P4/8/8/3P4/8/3P4/4K3 w - - 0 1"));    // d2 d4 d7
  EXPECT_FALSE(on(l, "4k3/8/2P5/2P5/2P5/8/8/4K3 w - - 0 1"));  // c4 c5 c6
  // The region is not shifted with the pawns (SPEC): c2 lies on the shifted diagonal only.
  EXPECT_FALSE(on(l, "4k3/8/2P5/2P5/8/8/2P5/4K3 w - - 0 1"));  // c2 c5 c6
  // The diagonal pawn must belong to the shifted (tripled) file.
  EXPECT_FALSE(on(l, "4k3/8/2P5/2P5/2PP4/8/8/4K3 w - - 0 1"));
}

// ---- Piece configuration: the seed-001 spellings ---------------------------------------------

TEST(Seed001PositionList, PowerDifferenceBlackUpAnExchangeUnlimited) {
  const std::string l = ":powerdifference [RrBbNn] unlimited -2";
  EXPECT_TRUE(on(l, "4k2r/8/8/8/8/8/8/2B1K3 w - - 0 1"));
  EXPECT_TRUE(on(l, "3rk2r/8/8/8/8/8/8/2B1K3 w - - 0 1"));
  EXPECT_FALSE(on(l, "4k1n1/8/8/8/8/8/8/2B1K3 w - - 0 1"));
}

TEST(Seed001PositionList, AttackCountUnlimitedUpperBound) {
  const std::string l = ":attackcount n [KRQ] 3 unlimited";
  EXPECT_TRUE(on(l, "k7/8/8/8/3n4/5K2/2R1Q3/8 w - - 0 1"));
  EXPECT_FALSE(on(l, "k7/8/8/8/3n4/5K2/4Q3/8 w - - 0 1"));
}

// ---- Move keywords ---------------------------------------------------------------------------

TEST(Seed001PositionList, MoveFromEmptySquareNeverMatches) {
  EXPECT_EQ(plies(":movefrom .", "1. e4 e5 2. Nf3 Nc6 *"), Plies());
}

TEST(Seed001PositionList, MoveToAnyPieceIsACaptureMoveToEmptyIsNot) {
  const char* game = "1. e4 d5 2. exd5 Qxd5 3. Nc3 *";
  EXPECT_EQ(plies(":moveto U", game), Plies({2, 3}));
  EXPECT_EQ(plies(":moveto .", game), Plies({0, 1, 4}));
}

TEST(Seed001PositionList, IsCastlingAndNoCastling) {
  const char* game = "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O O-O 5. Re1 *";
  EXPECT_EQ(plies(":iscastling", game), Plies({6, 7}));
  // :nocastling is !:iscastling: it also holds at the end, where no move follows.
  EXPECT_EQ(plies(":nocastling", game), Plies({0, 1, 2, 3, 4, 5, 8, 9}));
  EXPECT_EQ(plies(":moveto U", game), Plies());  // castling captures nothing
}

TEST(Seed001PositionList, PromoteEmptyDesignatorNextMoveIsNotAPromotion) {
  const char* fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
  // Like every :promote, the empty form needs a next move, so the last position fails.
  EXPECT_EQ(plies(":promote []", "1. a8=Q Kg6 2. Qa7 *", fen), Plies({1, 2}));
  EXPECT_EQ(plies(":promote []", "1. a8=Q *", fen), Plies());
}

}  // namespace
