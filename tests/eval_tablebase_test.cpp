// :endgameevaluation and :endgameevaluation* against the real Gaviota tables Debian ships
// (package gaviotatb: the 3-piece set, /usr/share/gaviotatb/gtb4 by default). Seed 000 /
// CQL-Position-List ":endgameevaluation"; analysis/tablebase.h.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "analysis/tablebase.h"
#include "eval_test_util.h"
#include "planner/plan.h"

namespace {

using cqltest::on;
using cqltest::Plies;
using cqltest::plies;
namespace tb = analysis::tablebase;

// White Ka1 Qd1 v Black Ke8: White mates in 17 plies with White to move, 18 with Black.
const char* kKQkWtm = "4k3/8/8/8/8/8/8/K2Q4 w - - 0 1";
const char* kKQkBtm = "4k3/8/8/8/8/8/8/K2Q4 b - - 0 1";
// Hand-checked mate in one: Kg6 and Ra1 v Kh8, 1.Ra8# (g7/h7 covered by the king).
const char* kKRkMateIn1 = "7k/8/6K1/8/8/8/8/R7 w - - 0 1";
// The mated position after 1.Ra8#: Black to move, White has won (distance 0).
const char* kKRkMated = "R6k/8/6K1/8/8/8/8/8 b - - 0 1";
// Ke6 Pe7 v Ke8, Black to move: stalemate, a draw.
const char* kKPkStalemate = "4k3/4P3/4K3/8/8/8/8/8 b - - 0 1";
// Ke1 Pe2 v Ke3: the defending king stands in front of the pawn: a draw.
const char* kKPkDraw = "8/8/8/8/8/4k3/4P3/4K3 w - - 0 1";
// Pe6 against a king on a1 (outside the pawn's square): White wins whoever moves.
const char* kKPkWin = "8/8/4P3/8/8/8/8/k3K3 b - - 0 1";
// Black Ka1 Qd1 v White Ke8 (kKQkBtm colour-flipped): Black mates.
const char* kkqKBtm = "4K3/8/8/8/8/8/8/k2q4 b - - 0 1";

TEST(Tablebase, DefaultTablesAreDebiansThreePieceSet) {
  tb::Status s = tb::prepare();
  EXPECT_EQ(s.max_pieces, 3) << s.dirs;
  EXPECT_EQ(s.scheme, 4);
}

// First in the file: the "more pieces than the tables" warning is given once per process.
TEST(Tablebase, MissingTableFailsWithOneWarning) {
  const char* krpkr = "4k3/8/4r3/8/8/4P3/4R3/4K3 w - - 0 1";
  testing::internal::CaptureStderr();
  EXPECT_FALSE(on(":endgameevaluation *mate", krpkr));
  EXPECT_FALSE(on(":endgameevaluation remis", krpkr));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no Gaviota table for KRPkr (the tables found hold at most 3 pieces)"),
            std::string::npos) << err;
  testing::internal::CaptureStderr();
  EXPECT_FALSE(on(":endgameevaluation *mate", "4k3/8/4r3/8/8/4P3/4R3/4K3 b - - 0 1"));
  EXPECT_FALSE(on(":endgameevaluation *mate", "4k3/8/4q3/8/8/8/4R3/4K3 w - - 0 1"));
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(err.find("KRPkr"), err.rfind("KRPkr")) << "reported twice: " << err;
}

TEST(Tablebase, ProbeGivesVerdictAndDistanceInPlies) {
  tb::prepare();
  chess::Position pos;
  ASSERT_TRUE(pos.set_fen(kKRkMateIn1).ok());
  tb::ProbeResult r = tb::probe(pos);
  EXPECT_EQ(r.verdict, tb::Verdict::kWhiteWins);
  EXPECT_EQ(r.plies, 1);
  ASSERT_TRUE(pos.set_fen(kKRkMated).ok());
  r = tb::probe(pos);
  EXPECT_EQ(r.verdict, tb::Verdict::kWhiteWins);
  EXPECT_EQ(r.plies, 0);
  ASSERT_TRUE(pos.set_fen(kKPkStalemate).ok());
  EXPECT_EQ(tb::probe(pos).verdict, tb::Verdict::kDraw);
  EXPECT_EQ(tb::material_name(pos), "KPk");
}

TEST(Tablebase, QueenAgainstKingWins) {
  EXPECT_TRUE(on(":endgameevaluation mate", kKQkWtm));
  EXPECT_FALSE(on(":endgameevaluation mate", kKQkBtm));  // Black to move is losing
  EXPECT_TRUE(on(":endgameevaluation +mate", kKQkWtm));
  EXPECT_TRUE(on(":endgameevaluation +mate", kKQkBtm));
  EXPECT_TRUE(on(":endgameevaluation *mate", kKQkBtm));
  EXPECT_FALSE(on(":endgameevaluation -mate", kKQkWtm));
  EXPECT_FALSE(on(":endgameevaluation remis", kKQkWtm));
  EXPECT_TRUE(on(":endgameevaluation -mate", kkqKBtm));
  EXPECT_TRUE(on(":endgameevaluation mate", kkqKBtm));
  EXPECT_FALSE(on(":endgameevaluation +mate", kkqKBtm));
}

TEST(Tablebase, DistanceToMateRangeInPlies) {
  EXPECT_TRUE(on(":endgameevaluation mate 17", kKQkWtm));
  EXPECT_FALSE(on(":endgameevaluation mate 16", kKQkWtm));
  EXPECT_TRUE(on(":endgameevaluation +mate 18", kKQkBtm));
  EXPECT_TRUE(on(":endgameevaluation *mate 10 20", kKQkBtm));
  EXPECT_FALSE(on(":endgameevaluation *mate 19 40", kKQkBtm));
  EXPECT_TRUE(on(":endgameevaluation mate 1", kKRkMateIn1));
  EXPECT_TRUE(on(":endgameevaluation +mate 0", kKRkMated));
  EXPECT_FALSE(on(":endgameevaluation mate", kKRkMated));  // the mated side is to move
}

TEST(Tablebase, PawnEndingsDrawAndWin) {
  EXPECT_TRUE(on(":endgameevaluation remis", kKPkStalemate));
  EXPECT_TRUE(on(":endgameevaluation remis", kKPkDraw));
  EXPECT_FALSE(on(":endgameevaluation *mate", kKPkDraw));
  EXPECT_TRUE(on(":endgameevaluation +mate", kKPkWin));
  EXPECT_FALSE(on(":endgameevaluation mate", kKPkWin));
  EXPECT_FALSE(on(":endgameevaluation remis", kKPkWin));
}

TEST(Tablebase, ColourFlipSwapsWhiteAndBlackWins) {
  EXPECT_FALSE(on(":endgameevaluation +mate", kkqKBtm));
  EXPECT_TRUE(on(":flipcolor :endgameevaluation +mate", kkqKBtm));
  EXPECT_TRUE(on(":flipcolor :endgameevaluation -mate", kKQkBtm));
}

TEST(Tablebase, PositionsAlongAGame) {
  // 1.Rxb1 (K+R v K from here) Kg8 2.Rb8#
  const std::string fen = "7k/8/6K1/8/8/8/8/Rn6 w - - 0 1";
  const std::string moves = "1. Rxb1 Kg8 2. Rb8# 1-0";
  EXPECT_EQ(plies(":endgameevaluation +mate", moves, fen), (Plies{1, 2, 3}));
  EXPECT_EQ(plies(":endgameevaluation mate", moves, fen), (Plies{2}));
  EXPECT_EQ(plies(":endgameevaluation *mate 0", moves, fen), (Plies{3}));
  EXPECT_EQ(plies(":endgameevaluation *mate >=2", moves, fen), (Plies{1}));
  // The star form looks only where the material first occurs (after the capture).
  EXPECT_EQ(plies(":endgameevaluation* +mate", moves, fen), (Plies{1}));
  EXPECT_EQ(plies(":endgameevaluation* mate", moves, fen), (Plies{}));
}

TEST(Tablebase, StarFormInAVariation) {
  // Main line 1.Rxb1 Kg8 2.Rb8#; the variation reaches K+R v K only at 2.Rxb1 (Black to move).
  const std::string game = "[SetUp \"1\"]\n[FEN \"7k/8/6K1/8/8/8/8/Rn6 w - - 0 1\"]\n\n"
                           "1. Rxb1 (1. Kf6 Kg8 2. Rxb1 Kh8 3. Kg6) Kg8 2. Rb8# 1-0\n";
  auto run = [&](const std::string& items) {
    return cqltest::run_game("(match (position :variationsonly " + items + "))", game).matched;
  };
  EXPECT_TRUE(run(":endgameevaluation* +mate"));
  EXPECT_TRUE(run(":endgameevaluation +mate :wtm"));    // after 2...Kh8
  EXPECT_FALSE(run(":endgameevaluation* +mate :wtm"));  // only 2.Rxb1 is examined
}

TEST(Tablebase, StarFormAtTheStartAndAfterPromotion) {
  // K+Q v K from the start: the star form examines the start position only.
  EXPECT_EQ(plies(":endgameevaluation* +mate", "1. Kb2 Kf7 *", kKQkWtm), (Plies{0}));
  EXPECT_EQ(plies(":endgameevaluation +mate", "1. Kb2 Kf7 *", kKQkWtm), (Plies{0, 1, 2}));
  // 1.e8=Q: K+P v K becomes K+Q v K; both materials are examined once.
  const std::string fen = "8/4P3/8/8/8/8/8/k3K3 w - - 0 1";
  EXPECT_EQ(plies(":endgameevaluation* +mate", "1. e8=Q Kb2 *", fen), (Plies{0, 1}));
}

TEST(Tablebase, SeedExamplesCompileAndNeedSixPieceTables) {
  // Seed 000: K+P+P v K+P+P endings; Gaviota has no 6-piece tables, so nothing matches.
  const char* six = "4k3/3pp3/8/8/8/8/3PP3/4K3 w - - 0 1";
  EXPECT_FALSE(on(":piececount U 6 :piececount P 2 :piececount p 2 :endgameevaluation *mate", six));
  EXPECT_FALSE(on(":piececount U 6 :piececount P 2 :piececount p 2 :endgameevaluation mate >=40", six));
  EXPECT_FALSE(on(":endgameevaluation* *mate", six));
}

TEST(Tablebase, MissingTableWithinTheTablesSize) {
  // A directory holding only K+Q v K: K+R v K positions have no table.
  const cqltest::TempDir tmp("tb-kqk-only");
  const std::filesystem::path& dir = tmp.path;
  std::filesystem::copy_file("/usr/share/gaviotatb/gtb4/kqk.gtb.cp4", dir / "kqk.gtb.cp4",
                             std::filesystem::copy_options::overwrite_existing);
  tb::configure(dir.string());
  testing::internal::CaptureStderr();
  EXPECT_TRUE(on(":endgameevaluation mate 17", kKQkWtm));
  EXPECT_FALSE(on(":endgameevaluation *mate", kKRkMateIn1));
  std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("no Gaviota table for KRk"), std::string::npos) << err;
  tb::configure("");
  EXPECT_EQ(tb::prepare().max_pieces, 3);
  EXPECT_TRUE(on(":endgameevaluation mate 1", kKRkMateIn1));
}

TEST(Tablebase, CompileErrors) {
  EXPECT_THROW(cqltest::compile(cqltest::pos(":endgameevaluation remis 5 10")), eval::CompileError);
  // Compiling never touches the tables (analysis/tablebase.h: lazy initialisation); the
  // first probe reports missing tables and ends the query.
  tb::configure("/nonexistent/gaviota");
  EXPECT_NO_THROW(cqltest::compile(cqltest::pos(":endgameevaluation mate")));
  try {
    cqltest::on(":endgameevaluation mate", kKRkMateIn1);
    ADD_FAILURE() << "probed without tables";
  } catch (const tb::TablebaseError& e) {
    EXPECT_NE(std::string(e.what()).find("no Gaviota tablebases found in /nonexistent/gaviota"),
              std::string::npos) << e.what();
  }
  tb::configure("");
  EXPECT_EQ(tb::prepare().max_pieces, 3);
}

TEST(Tablebase, ManyPiecesFailBeforeAnyProbe) {
  const uint64_t before = tb::probe_count();
  EXPECT_FALSE(on(":endgameevaluation *mate", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_FALSE(on(":endgameevaluation remis", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"));  // castling
  EXPECT_EQ(tb::probe_count(), before);
}

TEST(Tablebase, PlannerNeedsMaterialSomeTableHolds) {
  eval::Program program = cqltest::compile(cqltest::pos(":endgameevaluation *mate"));
  planner::Plan plan = planner::Plan::make(program);
  ASSERT_TRUE(plan.prunes());
  const std::string text = plan.condition(0).describe();
  EXPECT_NE(text.find("in 2..3"), std::string::npos) << text;
  // Negated: nothing follows.
  EXPECT_FALSE(planner::Plan::make(cqltest::compile(cqltest::pos(":not (position :endgameevaluation remis)"))).prunes());
}

}  // namespace
