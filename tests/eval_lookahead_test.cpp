// Lookahead keywords (CQL-Position-List "Move keywords", seed 000): the position after the
// next move of the line; variant-only move keywords; game keywords :ischess960
// :isshufflechess :startposition :variant and the Shuffle Chess numbering.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chess/start_position.h"
#include "eval_test_util.h"

namespace {

using Plies = std::vector<uint32_t>;

Plies plies(const std::string& items, const std::string& movetext, const std::string& fen = "",
            const std::string& extra_tags = "") {
  std::string tags = extra_tags;
  if (!fen.empty()) tags += "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n";
  return cqltest::run_game(cqltest::pos(items), tags + "\n" + movetext + "\n").plies;
}

const char* const kScholar = "1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0";

TEST(Lookahead, IsCheckAndIsMateLookAtTheNextMove) {
  EXPECT_EQ(plies(":ischeck", kScholar), Plies({6}));
  EXPECT_EQ(plies(":ismate", kScholar), Plies({6}));
  EXPECT_EQ(plies(":iscontactcheck", kScholar), Plies({6}));  // queen next to the king
  EXPECT_EQ(plies(":isdoublecheck", kScholar), Plies());
  EXPECT_EQ(plies(":mate", kScholar), Plies({7}));
  // The last position has no next move: !:ischeck holds there (it is :not (position ...)).
  EXPECT_EQ(plies("!:ischeck :halfmovenumber >=6", kScholar), Plies({7}));
}

TEST(Lookahead, NonContactAndDoubleCheck) {
  // 1. Bb5+ is a distant check; 1... Nf3+ discovers the rook: double check.
  EXPECT_EQ(plies(":ischeck", "1. Bb5+ Kf7 *", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), Plies({0}));
  EXPECT_EQ(plies(":iscontactcheck", "1. Bb5+ Kf7 *", "4k3/8/8/8/8/8/8/4KB2 w - - 0 1"), Plies());
  // Knight e4 leaves the rook's file and checks as well: double check.
  EXPECT_EQ(plies(":isdoublecheck", "1... Nf3+ 2. Kf2 *", "k3r3/8/8/4n3/8/8/8/4K3 b - - 0 1"),
            Plies({0}));
  EXPECT_EQ(plies(":iscontactcheck", "1... Nf3+ 2. Kf2 *", "k3r3/8/8/4n3/8/8/8/4K3 b - - 0 1"),
            Plies({0}));  // a double check is a contact check
}

TEST(Lookahead, IsStalemate) {
  EXPECT_EQ(plies(":isstalemate", "1. Qb6 1/2-1/2", "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1"), Plies({0}));
  EXPECT_EQ(plies(":stalemate", "1. Qb6 1/2-1/2", "k7/8/8/1Q6/8/8/8/4K3 w - - 0 1"), Plies({1}));
  EXPECT_EQ(plies(":isstalemate", kScholar), Plies());
}

TEST(Lookahead, IsCheckWithRangeCountsTheMoversChecks) {
  // White checks from plies 2 and 4, Black never.
  const char* game = "1. e4 f6 2. Qh5+ g6 3. Qxg6+ hxg6 *";
  EXPECT_EQ(plies(":ischeck", game), Plies({2, 4}));
  EXPECT_EQ(plies(":ischeck 1", game), Plies({2}));
  EXPECT_EQ(plies(":ischeck 2", game), Plies({4}));
  EXPECT_EQ(plies(":ischeck >=3", game), Plies());
  // Reference: (position :matchcount 1 :ischeck) = the only check of the game.
  EXPECT_TRUE(cqltest::run_game(cqltest::pos(":matchcount 1 :ischeck"), kScholar).matched);
  EXPECT_FALSE(cqltest::run_game(cqltest::pos(":matchcount 1 :ischeck"), game).matched);
}

TEST(Lookahead, IsNull) {
  EXPECT_EQ(plies(":isnull", "1. e4 -- 2. d4 *"), Plies({1}));
  EXPECT_EQ(plies("!:isnull :halfmovenumber <=1", "1. e4 -- 2. d4 *"), Plies({0}));
  EXPECT_EQ(plies(":isnull", kScholar), Plies());
}

TEST(Lookahead, Forced) {
  const char* fen = "k7/8/1K6/8/8/8/8/7R w - - 0 1";
  // 1. Rh7 Kb8 2. Rh8#: Black to move at ply 1 has only Kb8.
  EXPECT_EQ(plies(":forced", "1. Rh7 Kb8 2. Rh8# 1-0", fen), Plies({1}));
  EXPECT_EQ(plies("!:forced", "1. Rh7 Kb8 2. Rh8# 1-0", fen), Plies({0, 2, 3}));
}

TEST(Lookahead, IllegalInvalidAndAntichessKeywordsNeverHold) {
  for (const char* kw : {":isillegal", ":isinvalid", ":captureforced", ":takeslastpiece"}) {
    EXPECT_EQ(plies(kw, kScholar), Plies()) << kw;
    EXPECT_EQ(plies(std::string("!") + kw, kScholar), Plies({0, 1, 2, 3, 4, 5, 6, 7})) << kw;
  }
}

TEST(ShuffleChessNumber, Numbering) {
  using chess::shuffle_chess_number;
  EXPECT_EQ(shuffle_chess_number(""), 518);
  EXPECT_EQ(shuffle_chess_number("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"), 518);
  EXPECT_EQ(shuffle_chess_number("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"), 3398);
  EXPECT_EQ(shuffle_chess_number("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"), 960);
  EXPECT_EQ(shuffle_chess_number("bqnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/BQNBNRKR w KQkq - 0 1"), 1);
  // King right of both rooks / left of both rooks (same B, Q, N as the standard array).
  EXPECT_EQ(shuffle_chess_number("rnbqrbnk/pppppppp/8/8/8/8/PPPPPPPP/RNBQRBNK w - - 0 1"), 960 + 518);
  EXPECT_EQ(shuffle_chess_number("knbqrbnr/pppppppp/8/8/8/8/PPPPPPPP/KNBQRBNR w - - 0 1"), 1920 + 518);
  // Only some castling rights, bishops on one colour, a missing pawn, a moved piece: none.
  EXPECT_EQ(shuffle_chess_number("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"), 0);
  EXPECT_EQ(shuffle_chess_number("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKNBR w - - 0 1"), 0);
  EXPECT_EQ(shuffle_chess_number("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"), 0);
  EXPECT_EQ(shuffle_chess_number("not a fen"), 0);
}

const char* const k960Tags = "[Variant \"chess960\"]\n";
const char* const k960Fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
const char* const k960Moves = "1. e4 e5 *";

TEST(GameKeywords, StandardGame) {
  EXPECT_EQ(plies(":ischess960 :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":isshufflechess :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":startposition 518 :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":startposition 518,3398 :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":startposition 3398", kScholar), Plies());
  EXPECT_EQ(plies(":startposition * :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":startposition 0", kScholar), Plies());
  EXPECT_EQ(plies(":startposition misc/runaway", kScholar), Plies());
  EXPECT_EQ(plies(":variant normal :initial", kScholar), Plies({0}));
  EXPECT_EQ(plies(":variant chess960", kScholar), Plies());
  EXPECT_EQ(plies(":variant suicide,giveaway,losers", kScholar), Plies());
}

TEST(GameKeywords, Chess960AndOtherStarts) {
  EXPECT_EQ(plies(":ischess960 :initial", k960Moves, k960Fen, k960Tags), Plies({0}));
  EXPECT_EQ(plies(":startposition 960 :initial", k960Moves, k960Fen, k960Tags), Plies({0}));
  EXPECT_EQ(plies(":startposition 1-959", k960Moves, k960Fen, k960Tags), Plies());
  EXPECT_EQ(plies(":variant chess960 :initial", k960Moves, k960Fen, k960Tags), Plies({0}));
  EXPECT_EQ(plies(":variant normal :initial", k960Moves, k960Fen, k960Tags), Plies({0}));
  // A game from a middlegame position is no Shuffle Chess start: number 0.
  const char* mid = "4k3/8/8/8/8/8/8/4K2R w K - 0 30";
  EXPECT_EQ(plies(":ischess960", "30. Kf1 *", mid), Plies());
  EXPECT_EQ(plies(":isshufflechess", "30. Kf1 *", mid), Plies());
  EXPECT_EQ(plies(":startposition 0 :initial", "30. Kf1 *", mid), Plies({0}));
  EXPECT_EQ(plies("!:isshufflechess :initial", "30. Kf1 *", mid), Plies({0}));
}

}  // namespace
