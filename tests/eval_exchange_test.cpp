// :exchangeevaluation and :maxswapevaluation (seed 000 and CQL-Position-List "Analysis
// keywords"; eval/exchange.h): static exchange values on built positions, computed by hand in
// the comments (pawn units, Q9 R5 B3 N3 P1), every reference example that states a result,
// and a real game from the corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "chess/movegen.h"
#include "chess/position.h"
#include "db/record_view.h"
#include "eval/exchange.h"
#include "eval/program.h"
#include "eval_test_util.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"

namespace {

using chess::Square;
using cqltest::on;
using cqltest::plies;
using cqltest::Plies;

chess::Position position(const std::string& fen) {
  chess::Position pos;
  chess::FenError err = pos.set_fen(fen);
  EXPECT_TRUE(err.ok()) << fen << ": " << err.message;
  return pos;
}

Square sq(const char* name) {
  return chess::make_square(chess::File(name[0] - 'a'), chess::Rank(name[1] - '1'));
}

/// The exchange value of the move from `from` to `to` (a capture when `to` holds a piece),
/// at most `max_plies` deep (0 = unlimited).
int see(const std::string& fen, const char* from, const char* to, int max_plies = 0,
        chess::PieceType promotion = chess::NO_PIECE_TYPE) {
  chess::Position pos = position(fen);
  eval::ExchangeMove m;
  m.from = sq(from);
  m.to = sq(to);
  m.promotion = promotion;
  if (!pos.empty(m.to)) m.victim = m.to;
  EXPECT_TRUE(eval::exchange_move_is_legal(pos, m)) << fen << " " << from << to;
  return eval::static_exchange(pos, m, max_plies);
}

/// max_swap_value for designators given as piece letters (PNBRQK pnbrqk A a and `.`, any
/// square).
std::optional<int> max_swap(const std::string& fen, const std::string& movers, const std::string& targets) {
  chess::Position pos = position(fen);
  auto squares = [&](const std::string& letters) {
    chess::Bitboard b = 0;
    for (char l : letters) {
      for (int c = 0; c < 2; ++c)
        for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
          if (l == " PNBRQK"[pt] + (c ? 'a' - 'A' : 0))
            b |= pos.pieces(chess::Color(c), chess::PieceType(pt));
      if (l == '.') b |= ~pos.pieces();
      if (l == 'A') b |= pos.pieces(chess::WHITE);
      if (l == 'a') b |= pos.pieces(chess::BLACK);
    }
    return b;
  };
  return eval::max_swap_value(pos, squares(movers), squares(targets));
}

// ---- static_exchange: captures, defenders, depth -------------------------------------------

TEST(ExchangeValue, UndefendedPieceIsWon) {
  // Rd1xd5: the knight is not defended: +3.
  EXPECT_EQ(see("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), 3);
}

TEST(ExchangeValue, DefendedPawnAndDepth) {
  const char* fen = "4k3/8/4p3/3p4/8/8/8/3RK3 w - - 0 1";
  EXPECT_EQ(see(fen, "d1", "d5"), -4);     // Rxd5 exd5: 1 - 5
  EXPECT_EQ(see(fen, "d1", "d5", 1), 1);   // depth 1: the pawn only
  EXPECT_EQ(see(fen, "d1", "d5", 2), -4);  // depth 2 sees exd5
  EXPECT_EQ(see(fen, "d1", "d5", 9), -4);
}

TEST(ExchangeValue, QuietMoves) {
  // Rd1-d4 steps onto a square the pawn e5 takes: 0 - 5; d3 is safe: 0.
  EXPECT_EQ(see("4k3/8/8/4p3/8/8/8/3RK3 w - - 0 1", "d1", "d4"), -5);
  EXPECT_EQ(see("4k3/8/8/4p3/8/8/8/3RK3 w - - 0 1", "d1", "d3"), 0);
}

TEST(ExchangeValue, EachSideMayStop) {
  // Rd1xd5 (+1) Nf6xd5 (Black 5 - 1 = 4): 1 - 5 = -4. With Nb4 White takes back (3 - 4 =
  // -1 for White after Black's 4): Black still takes, the rook is lost for N+P: -1.
  EXPECT_EQ(see("4k3/8/5n2/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), -4);
  EXPECT_EQ(see("4k3/8/5n2/3p4/1N6/8/8/3RK3 w - - 0 1", "d1", "d5"), -1);
  // c4xd5 (+1) Nf6xd5 (Black 1 - 1 = 0) Nb4xd5 (White 3 - 0 = 3): Black stops: +1.
  EXPECT_EQ(see("4k3/8/5n2/3p4/1NP5/8/8/4K3 w - - 0 1", "c4", "d5"), 1);
}

// ---- pins ---------------------------------------------------------------------------------

TEST(ExchangeValue, AbsolutelyPinnedDefenderCannotRecapture) {
  // Nf6 defends d5 but is pinned to the king f8 by Rf1: Rd1xd5 wins the pawn (+1).
  EXPECT_EQ(see("5k2/8/5n2/3p4/8/8/8/3R1RK1 w - - 0 1", "d1", "d5"), 1);
  // King on g8: no pin, Nxd5 follows: 1 - 5.
  EXPECT_EQ(see("6k1/8/5n2/3p4/8/8/8/3R1RK1 w - - 0 1", "d1", "d5"), -4);
}

TEST(ExchangeValue, PinnedPieceCapturesAlongThePinLine) {
  // Ra4xe4 (+1); the rook e4 now pins Re7 to Ke8, but Re7xe4 captures along the pin line
  // (Black +5 - 1 = 4); Re1xe4 (White +5 - 4 = 1). Black should not recapture: +1.
  const char* fen = "4k3/4r3/8/8/R3p3/8/8/4R1K1 w - - 0 1";
  EXPECT_EQ(see(fen, "a4", "e4"), 1);
  EXPECT_EQ(see(fen, "a4", "e4", 1), 1);
  EXPECT_EQ(see(fen, "a4", "e4", 2), -4);  // Re1's recapture lies beyond the depth
  EXPECT_EQ(see(fen, "a4", "e4", 3), 1);
}

TEST(ExchangeValue, RecaptureThatIgnoresACheckIsNotMade) {
  // Rd3xd5 uncovers Bb1's check on Kh7: Nb6xd5 would leave it, so the pawn is won (+1).
  EXPECT_EQ(see("8/7k/1n6/3p4/8/3R4/8/1B4K1 w - - 0 1", "d3", "d5"), 1);
  EXPECT_EQ(see("8/7k/1n6/3p4/8/3R4/8/6K1 w - - 0 1", "d3", "d5"), -4);  // no bishop
}

// ---- x-rays (batteries) ---------------------------------------------------------------------

TEST(ExchangeValue, DoubledRooks) {
  // Rd2xd5 (+1) Rd8xd5 (Black 5 - 1 = 4) Rd1xd5 (White 5 - 4 = 1): +1.
  EXPECT_EQ(see("3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2", "d5"), 1);
  EXPECT_EQ(see("3r2k1/8/8/3p4/8/8/3R4/6K1 w - - 0 1", "d2", "d5"), -4);  // single rook
}

TEST(ExchangeValue, QueenBehindBishop) {
  // Bd5xe6 (+1) f7xe6 (Black 3 - 1 = 2) Qc4xe6 through d5 (White 1 - 2 = -1): Black takes,
  // White takes back: B for 2P = -1. Depth 2 stops after fxe6: -2. Without the queen: -2.
  const char* fen = "6k1/5p2/4p3/3B4/2Q5/8/8/6K1 w - - 0 1";
  EXPECT_EQ(see(fen, "d5", "e6"), -1);
  EXPECT_EQ(see(fen, "d5", "e6", 2), -2);
  EXPECT_EQ(see("6k1/5p2/4p3/3B4/8/8/8/6K1 w - - 0 1", "d5", "e6"), -2);
}

TEST(ExchangeValue, BishopBehindPawn) {
  // d5xe6 (+1) Bg8xe6 (Black 1 - 1 = 0) Bc4xe6 through d5 (White 3 - 0 = 3): Black should
  // not take: +1. Without Bc4 Black takes and the pawns are even: 0.
  EXPECT_EQ(see("6b1/7k/4p3/3P4/2B5/8/8/6K1 w - - 0 1", "d5", "e6"), 1);
  EXPECT_EQ(see("6b1/7k/4p3/3P4/8/8/8/6K1 w - - 0 1", "d5", "e6"), 0);
}

// ---- kings ----------------------------------------------------------------------------------

TEST(ExchangeValue, KingCapturesOnlyAnUndefendedSquare) {
  // Ke6 takes the rook: 1 - 5. With Bb3 also covering d5 the king may not: +1.
  EXPECT_EQ(see("8/8/4k3/3p4/8/8/8/3RK3 w - - 0 1", "d1", "d5"), -4);
  EXPECT_EQ(see("8/8/4k3/3p4/8/1B6/8/3RK3 w - - 0 1", "d1", "d5"), 1);
}

TEST(ExchangeValue, KingAsLastCapturer) {
  // Ra5xd5 (+1) Nf6xd5 (Black 5 - 1 = 4) Kd4xd5 (White 3 - 4 = -1): -1; depth 2: -4.
  const char* fen = "7k/8/5n2/R2p4/3K4/8/8/8 w - - 0 1";
  EXPECT_EQ(see(fen, "a5", "d5"), -1);
  EXPECT_EQ(see(fen, "a5", "d5", 2), -4);
  // Bb7 also covers d5: after Nxd5 the king may not recapture: 1 - 5.
  EXPECT_EQ(see("7k/1b6/5n2/R2p4/3K4/8/8/8 w - - 0 1", "a5", "d5"), -4);
}

// ---- promotions -----------------------------------------------------------------------------

TEST(ExchangeValue, PromotionByTheMove) {
  // b7xa8=Q: 5 + 8 = 13, Nc7xa8 (Black 9 - 13 = -4): 13 - 9 = 4. =N: 5 + 2, Nxa8: 4 too.
  const char* fen = "r3k3/1Pn5/8/8/8/8/8/4K3 w - - 0 1";
  EXPECT_EQ(see(fen, "b7", "a8", 0, chess::QUEEN), 4);
  EXPECT_EQ(see(fen, "b7", "a8", 1, chess::QUEEN), 13);
  EXPECT_EQ(see(fen, "b7", "a8", 0, chess::KNIGHT), 4);
  EXPECT_EQ(see(fen, "b7", "a8", 1, chess::KNIGHT), 7);
}

TEST(ExchangeValue, RecaptureThatPromotes) {
  // Ra1xf1 (+3) g2xf1=Q (Black 5 + 8 - 3 = 10) Ke2xf1 (White 9 - 10 = -1): -1. Depth 2
  // stops after the promotion: 3 - 5 - 8 = -10.
  EXPECT_EQ(see("7k/8/8/8/8/8/4K1p1/R4n2 w - - 0 1", "a1", "f1"), -1);
  EXPECT_EQ(see("7k/8/8/8/8/8/4K1p1/R4n2 w - - 0 1", "a1", "f1", 2), -10);
}

// ---- :maxswapevaluation over the possible moves -------------------------------------------

TEST(MaxSwapValue, DoesNotDependOnTheSideToMove) {
  // Ne3xd5 wins the undefended rook: 5, with White or Black to move.
  EXPECT_EQ(max_swap("k7/8/8/3r4/8/4N3/8/K7 w - - 0 1", "A", "a"), 5);
  EXPECT_EQ(max_swap("k7/8/8/3r4/8/4N3/8/K7 b - - 0 1", "A", "a"), 5);
  // Black has no capture of a white piece: no value.
  EXPECT_EQ(max_swap("k7/8/8/3r4/8/4N3/8/K7 b - - 0 1", "a", "A"), std::nullopt);
  // A knight defended by a pawn: N for N = 0.
  EXPECT_EQ(max_swap("k7/8/2p5/3n4/8/4N3/8/K7 b - - 0 1", "A", "a"), 0);
}

TEST(MaxSwapValue, QuietMovesCount) {
  // Every move of Nd5 goes to a square Ka8 (a7 b7 b8) does not cover: 0.
  EXPECT_EQ(max_swap("k7/8/8/3N4/8/8/8/K7 w - - 0 1", "N", "."), 0);
  // Rd1-d4 steps into the pawn e5's capture: -5; d3 is safe: 0; the best of both is 0.
  const char* fen = "k7/8/8/4p3/8/8/8/K2R4 w - - 0 1";
  EXPECT_TRUE(on(":maxswapevaluation R .d4 -5", fen));
  EXPECT_TRUE(on(":maxswapevaluation R .[d4,d3] 0", fen));
  EXPECT_TRUE(on(":maxswapevaluation R . 0", fen));
  EXPECT_FALSE(on(":maxswapevaluation R .e4 <0", fen));  // Rd1 does not reach e4
}

TEST(MaxSwapValue, PinnedMoverHasNoMove) {
  // Ne2 is pinned to Ke1 by Re8: Nxc3 is illegal, the knight has no move at all.
  EXPECT_EQ(max_swap("k3r3/8/8/8/8/2r5/4N3/4K3 w - - 0 1", "N", "a"), std::nullopt);
  EXPECT_EQ(max_swap("k3r3/8/8/8/8/2r5/4N3/3K4 w - - 0 1", "N", "a"), 5);  // Kd1: no pin
}

TEST(MaxSwapValue, KingNeverMovesOntoADefendedSquare) {
  EXPECT_EQ(max_swap("7k/8/4p3/3p4/3K4/8/8/8 w - - 0 1", "K", "a"), std::nullopt);
  EXPECT_EQ(max_swap("7k/8/8/3p4/3K4/8/8/8 w - - 0 1", "K", "a"), 1);
}

TEST(MaxSwapValue, EnPassantForTheSideToMoveOnly) {
  // exd6 e.p. takes the pawn d5 (+1); the destination d6 is an empty square.
  EXPECT_EQ(max_swap("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "P", "."), 1);
  EXPECT_EQ(max_swap("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "P", "p"), std::nullopt);
}

TEST(MaxSwapValue, PromotionsTakeTheBestPiece) {
  // b7-b8=Q: Ra8xb8, 8 - 9 = -1; b7xa8=Q Nc7xa8: 13 - 9 = 4; the best is 4.
  EXPECT_EQ(max_swap("r3k3/1Pn5/8/8/8/8/8/4K3 w - - 0 1", "P", "a."), 4);
  // b8 unguarded: b8=Q +8 (an under-promotion would gain less).
  EXPECT_EQ(max_swap("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "P", "."), 8);
}

// ---- the reference examples, end to end --------------------------------------------------

// 1.e4 e5 2.Qh5 Nc6 3.Qxe5+?? Nxe5: ply 4 (before 3.Qxe5+) the queen takes a pawn defended by
// Nc6 (1 - 9 = -8); ply 5 Black takes the undefended queen (+9).
const char* kBlunder = "1. e4 e5 2. Qh5 Nc6 3. Qxe5+ Nxe5 *";

TEST(ExchangeEvaluationExamples, CaptureIsProbablyABlunder) {
  // seed 000: "position:exchangeevaluation * <=−2  Dieser Schlagzug ist (wahrscheinlich) ein
  // Patzer"; the English page writes it without a depth and with <=-3.
  EXPECT_EQ(plies("position:exchangeevaluation * <=-2", kBlunder), (Plies{4}));
  EXPECT_EQ(plies("position:exchangeevaluation * <=\xE2\x88\x92" "2", kBlunder), (Plies{4}));
  EXPECT_EQ(plies("position:exchangeevaluation <=-3", kBlunder), (Plies{4}));
  EXPECT_EQ(plies(":exchangeevaluation unlimited -3", kBlunder), (Plies{4}));  // seed 001
  EXPECT_EQ(plies(":exchangeevaluation * -8", kBlunder), (Plies{4}));
  EXPECT_EQ(plies(":exchangeevaluation * 9", kBlunder), (Plies{5}));
  EXPECT_EQ(plies(":exchangeevaluation 1 1", kBlunder), (Plies{4}));  // depth 1: the pawn
}

TEST(ExchangeEvaluationExamples, TheWhiteQueenCanBeCaptured) {
  // seed 000: "position:exchangeevaluation 1 >−0 Q  Die weiße Dame kann geschlagen werden".
  EXPECT_EQ(plies("position:exchangeevaluation 1 >\xE2\x88\x92" "0 Q", kBlunder), (Plies{5}));
  EXPECT_EQ(plies(":exchangeevaluation 1 >-0 Q", kBlunder), (Plies{5}));
  EXPECT_EQ(plies(":exchangeevaluation 1 >-0 q", kBlunder), Plies{});
  EXPECT_EQ(plies(":exchangeevaluation 1 >-0 Q :flipcolor", kBlunder), (Plies{5}));
}

TEST(ExchangeEvaluationExamples, EnPassantCapturesThePawnOnItsSquare) {
  // 1...d5 2.exd6 e.p. c7xd6: 1 - 1 = 0; the captured pawn stood on d5.
  const char* fen = "4k3/2pp4/8/4P3/8/8/8/4K3 b - - 0 1";
  const char* moves = "1... d5 2. exd6 *";
  EXPECT_EQ(plies(":exchangeevaluation * 0", moves, fen), (Plies{1}));
  EXPECT_EQ(plies(":exchangeevaluation 1 1 pd5", moves, fen), (Plies{1}));
  EXPECT_EQ(plies(":exchangeevaluation * 0 .d6", moves, fen), Plies{});
  EXPECT_EQ(plies(":exchangeevaluation * <0", moves, fen), Plies{});
}

TEST(ExchangeEvaluationExamples, DecimalBoundsAreRoundedInward) {
  // Values are whole pawns: Qxe5 is -8, Nxe5 +9.
  EXPECT_EQ(plies(":exchangeevaluation * -8.5 -7.5", kBlunder), (Plies{4}));
  EXPECT_EQ(plies(":exchangeevaluation * >-8", kBlunder), (Plies{5}));
  EXPECT_EQ(plies(":exchangeevaluation * <9", kBlunder), (Plies{4}));
  EXPECT_EQ(plies(":exchangeevaluation * 8.2 8.8", kBlunder), Plies{});
  EXPECT_EQ(plies(":exchangeevaluation * >=1000", kBlunder), Plies{});
}

TEST(ExchangeEvaluationExamples, NonCapturesAndTheLastPositionNeverMatch) {
  EXPECT_FALSE(on(":exchangeevaluation * unlimited unlimited", "4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1"));
  EXPECT_EQ(plies(":exchangeevaluation * >=-100", "1. e4 e5 2. Nf3 *"), Plies{});
}

TEST(MaxSwapEvaluationExamples, WhiteThreatensToWinMaterial) {
  // English page: (position position:maxswapevaluation A a >=1); seed 000 writes >0.
  // Seed 001 (older English page) writes the range as `1 unlimited`.
  for (const char* l : {"position:maxswapevaluation A a >=1", ":maxswapevaluation A a >0",
                        ":maxswapevaluation A a 1 unlimited"}) {
    EXPECT_TRUE(on(l, "k7/8/8/3r4/8/4N3/8/K7 b - - 0 1")) << l;    // Nxd5 +5, Black to move
    EXPECT_FALSE(on(l, "k7/8/2p5/3n4/8/4N3/8/K7 b - - 0 1")) << l;  // Nxd5 cxd5: 0
  }
  // Colours swapped: Black's Ne6 threatens the white rook d4.
  EXPECT_FALSE(on(":maxswapevaluation A a >=1", "k7/8/4n3/8/3R4/8/8/K7 w - - 0 1"));
  EXPECT_TRUE(on(":maxswapevaluation A a >=1 :flipcolor", "k7/8/4n3/8/3R4/8/8/K7 w - - 0 1"));
}

TEST(MaxSwapEvaluationExamples, WhiteQueenInvadesRankEight) {
  // (position position:maxswapevaluation Q?1-7 ??8 >=0): Qd1-d8 is safe ...
  const char* l = "position:maxswapevaluation Q?1-7 ??8 >=0";
  EXPECT_TRUE(on(l, "6k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1"));
  EXPECT_TRUE(on(":maxswapevaluation Q?1-7 ??8 0 unlimited", "6k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1"));
  EXPECT_FALSE(on(":maxswapevaluation Q?1-7 ??8 0 unlimited", "2r3k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1"));
  // ... unless Rc8 covers d8 (-9); a queen already on rank 8 does not count.
  EXPECT_FALSE(on(l, "2r3k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1"));
  EXPECT_FALSE(on(l, "Q5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1"));
  EXPECT_TRUE(on("position:maxswapevaluation Q?1-7 ??8 -9", "2r3k1/5ppp/8/8/8/8/8/3Q2K1 w - - 0 1"));
}

TEST(ExchangeEvaluationErrors, DepthZeroIsACompileError) {
  try {
    cqltest::compile("(match (position :exchangeevaluation 0 >0))");
    FAIL() << "expected a CompileError";
  } catch (const eval::CompileError& e) {
    EXPECT_EQ(e.loc.line, 1u);
    EXPECT_EQ(e.loc.column, 18u);
    EXPECT_NE(std::string(e.what()).find("depth"), std::string::npos) << e.what();
  }
}

// ---- a real game ------------------------------------------------------------------------------

// ../shared/corpus/annotated.pgn, game 1: Andersson - Robatsch, Munich 1979 (comments and
// variations dropped). Plies count from the start (ply 16 = before 9.Nxd5).
const char* kAndersson =
    "1.c4 c5 2.Nf3 Nf6 3.g3 b6 4.Bg2 Bb7 5.O-O g6 6.b3 Bg7 7.Bb2 O-O 8.Nc3 d5 9.Nxd5 Nxd5 "
    "10.Bxg7 Kxg7 11.cxd5 Qxd5 12.d4 cxd4 13.Qxd4+ Qxd4 14.Nxd4 Bxg2 15.Kxg2 a6 16.Rac1 Ra7 "
    "17.Rc2 Rd8 18.e3 e5 19.Nf3 f6 20.g4 Rd6 21.Rfc1 Nd7 22.Rc6 Rxc6 23.Rxc6 Kf7 24.Nd2 Ke7 "
    "25.Ne4 Rb7 26.b4 Rb8 27.Nc3 f5 28.Nd5+ Kf7 29.Kg3 h5 30.gxf5 gxf5 31.Rd6 Rb7 32.Kh4 Kg7 "
    "33.Kxh5 1-0";

TEST(ExchangeEvaluationCorpus, AnderssonRobatsch1979) {
  auto at = [](int v) { return plies(":exchangeevaluation * " + std::to_string(v), kAndersson); };
  // Checked by hand on the board (plies before the capture):
  // 16 9.Nxd5: Nf6, Bb7, Qd8 defend d5, c4 backs the knight; Bg2 and Qd1 are blocked by Nf3
  //    and d2: Nxd5 Nxd5 cxd5 Bxd5 = +1 -3 +3 -1, Black may stop anywhere: 0.
  // 18 10.Bxg7 Kxg7: 3 - 3 = 0.  23 12...cxd4 Nxd4 (Qxd4? Qxd4 would lose the queen): 0.
  // 25 13...Qxd4 Nxd4: 0.  27 14...Bxg2 Kxg2: 0.  43 22...Rxc6 Rc1xc6: 0.
  // 58 30.gxf5 gxf5: 0.
  EXPECT_EQ(at(0), (Plies{16, 18, 23, 25, 27, 43, 58}));
  // 17 9...Nxd5 cxd5 Bxd5: 3 - 3 + 1.  21 11...Qxd5, no white attacker left (Bg2 blocked).
  // 24 13.Qxd4+ Qxd4 Nxd4: 1 - 9 + 9.  59 30...gxf5 and 64 33.Kxh5: undefended pawns.
  EXPECT_EQ(at(1), (Plies{17, 21, 24, 59, 64}));
  // 20 11.cxd5: Bxd5 (Black nets -2) is still better for Black than leaving the knight.
  EXPECT_EQ(at(2), (Plies{20}));
  EXPECT_EQ(at(3), (Plies{19, 28}));  // 10...Kxg7, 15.Kxg2: undefended bishops
  EXPECT_EQ(at(5), (Plies{44}));      // 23.Rxc6: the rook is undefended
  EXPECT_EQ(at(9), (Plies{26}));      // 14.Nxd4 takes the queen
  // All 17 captures of the game, and nothing else, have a value.
  EXPECT_EQ(plies(":exchangeevaluation * unlimited unlimited", kAndersson).size(), 17u);
  // Before 9.Nxd5 White's best capture is worth 0: Nxd5 (above) and cxd5 (Nxd5 Nxd5 Bxd5:
  // +1 -1 +3 -3); Bb2 and Bg2 are blocked by Nc3 and Nf3.
  Plies swaps = plies(":maxswapevaluation A a 0", kAndersson);
  EXPECT_NE(std::find(swaps.begin(), swaps.end(), 16u), swaps.end());
}

// ---- :maxswapevaluation's own move generation against chess::generate_legal --------------

/// The best exchange value over the legal moves of the side to move (castling and, for a
/// side that is not really to move, king captures left out), by chess::generate_legal.
std::optional<int> best_legal_exchange(const chess::Position& pos) {
  chess::MoveList moves;
  chess::generate_legal(pos, moves);
  std::optional<int> best;
  for (chess::Move m : moves) {
    if (m.kind() == chess::Move::CASTLING || pos.pieces(chess::KING) & chess::square_bb(m.to_sq())) continue;
    const int v = eval::static_exchange(pos, eval::exchange_move(pos, m));
    if (!best || v > *best) best = v;
  }
  return best;
}

TEST(MaxSwapValueCorpus, MovesAreTheLegalMovesOfEitherSide) {
  // Every main-line position of the studies, the mate puzzles and the first 400 annotated
  // games: max_swap_value over all pieces of the side to move equals the best over
  // generate_legal's moves; for the other side (when the side to move is not in check) it
  // equals the same after a null move.
  size_t positions = 0;
  for (const auto& [file, limit] : {std::pair{"studies.pgn", 1000}, {"mates.pgn", 1000}, {"annotated.pgn", 400}}) {
    cqltest::for_each_corpus_position(file, limit, [&](chess::Position& pos) {
      const chess::Color us = pos.side_to_move();
      ++positions;
      ASSERT_EQ(eval::max_swap_value(pos, pos.pieces(us), ~chess::Bitboard(0)), best_legal_exchange(pos))
          << pos.fen();
      if (!pos.in_check()) {
        const std::optional<int> theirs = eval::max_swap_value(pos, pos.pieces(~us), ~chess::Bitboard(0));
        chess::UndoInfo pass;
        pos.do_null_move(pass);
        ASSERT_EQ(theirs, best_legal_exchange(pos)) << pos.fen();
        pos.undo_null_move(pass);
      }
    });
  }
  EXPECT_GT(positions, 20000u);
}


TEST(MaxSwapValueCorpus, EnoughAnswersWhetherTheMaximumReachesIt) {
  // Every main-line position of the studies and the first 300 annotated games, for several
  // designator pairs (white/black/all movers and targets): with `enough`, the result reaches
  // `enough` exactly when the maximum does.
  size_t checked = 0;
  for (const auto& [file, limit] : {std::pair{"studies.pgn", 1000}, {"annotated.pgn", 300}}) {
    cqltest::for_each_corpus_position(file, limit, [&](chess::Position& pos) {
      const chess::Bitboard all = ~chess::Bitboard(0), w = pos.pieces(chess::WHITE), b = pos.pieces(chess::BLACK);
      const std::pair<chess::Bitboard, chess::Bitboard> pairs[] = {{w, b}, {b, w}, {all, all}};
      for (const auto& [movers, targets] : pairs) {
        const std::optional<int> best = eval::max_swap_value(pos, movers, targets);
        for (int enough : {-2, 0, 1, 2, 3, 4, 5, 8, 9, 10, 12, 17, 18}) {
          const std::optional<int> v = eval::max_swap_value(pos, movers, targets, enough);
          ++checked;
          ASSERT_EQ(v && *v >= enough, best && *best >= enough) << pos.fen() << " enough " << enough;
        }
      }
    });
  }
  EXPECT_GT(checked, 100000u);
}

}  // namespace
