// :evaluation and :moveevaluation with the real UCI engine (Debian's stockfish, installed by
// .ci/install-deps): the reference examples (CQL-Position-List "position:evaluation",
// "position:moveevaluation"; seed 000), the result cache, and engines that are missing,
// crash, are killed mid-query or hang (a clear error, never a hang).
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "cql/parser.h"
#include "db/database.h"
#include "analysis/session.h"
#include "eval/analysis_keywords.h"
#include "analysis/engine.h"
#include "eval/program.h"
#include "cli_test_util.h"
#include "eval_test_util.h"
#include "import/importer.h"

namespace fs = std::filesystem;
using analysis::AnalysisContext;
using analysis::AnalysisSession;
using analysis::EngineError;
using analysis::EngineScore;

namespace {

/// Writes an executable shell script `name` with `body` into `dir`.
std::string fake_engine(const fs::path& dir, const std::string& name, const std::string& body) {
  fs::path p = dir / name;
  std::ofstream(p) << "#!/bin/sh\n" << body;
  ::chmod(p.c_str(), 0755);
  return p.string();
}

/// A script speaking enough UCI to start, then running `on_go` when asked to search.
std::string uci_prelude(const std::string& on_go) {
  return "while read line; do\n"
         "  case \"$line\" in\n"
         "    uci) echo 'id name fake'; echo uciok;;\n"
         "    isready) echo readyok;;\n"
         "    go*) " + on_go + ";;\n"
         "  esac\n"
         "done\n";
}

/// Runs `items` as a position list on the game `pgn` with the engine context `analysis`;
/// returns the matched plies.
std::vector<uint32_t> engine_plies(const std::string& items, const std::string& pgn, AnalysisContext& analysis) {
  return cqltest::run_game(cqltest::pos(items), pgn, {}, &analysis).plies;
}

std::string fen_game(const std::string& fen, const std::string& moves = "") {
  return "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + moves + " *\n";
}

/// The real engine, without cache, shared by the tests of one fixture.
class EngineTest : public ::testing::Test {
 protected:
  EngineTest() : session_("stockfish", {}), analysis_(session_) {}
  /// True if `items` match the single position `fen`.
  bool on(const std::string& items, const std::string& fen) {
    return !engine_plies(items, fen_game(fen), analysis_).empty();
  }
  AnalysisSession session_;
  AnalysisContext analysis_;
};

// White to move, a queen up.
const char* kWhiteQueenUp = "4k3/8/8/8/8/8/4P3/3QK3 w - - 0 1";
// The same board, Black to move.
const char* kWhiteQueenUpBtm = "4k3/8/8/8/8/8/4P3/3QK3 b - - 0 1";
// White mates in one (Qb8#).
const char* kMateInOne = "6k1/5ppp/8/8/8/8/1Q3PPP/1R4K1 w - - 0 1";
// White mates in two (Kb6, Rh8#): 3 plies.
const char* kMateInTwo = "k7/8/2K5/8/8/8/8/7R w - - 0 1";
// White is mated (fool's mate).
const char* kMated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
// Black to move is stalemated.
const char* kStalemate = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";

}  // namespace

namespace {

/// The nodes of the first variant of the first top-level list of `items`.
std::vector<eval::Node> first_variant(const std::string& items) {
  static std::vector<eval::Program> keep;  // the nodes' lists are shared with the program
  keep.push_back(eval::Program::compile(cql::parse_or_throw("(match (position " + items + "))", "t.cql")));
  return keep.back().alternatives().at(0).lists.at(0)->variants.at(0);
}

/// The centipawn range :evaluation compiles `range` to.
eval::IntRange compiled_range(const std::string& range) {
  for (const eval::Node& n : first_variant(":evaluation depth 1 " + range + " sidetomove"))
    if (n.op == eval::Op::kEvaluation) return n.range;
  ADD_FAILURE() << "no engine node";
  return {};
}

}  // namespace

// Pawn units are compared in whole centipawns; bounds round inward.
TEST(EngineCompile, PawnBoundsBecomeCentipawns) {
  EXPECT_EQ(compiled_range(">=2.5").lo, 250);
  EXPECT_EQ(compiled_range(">2.5").lo, 251);
  EXPECT_EQ(compiled_range(">=2.555").lo, 256);
  EXPECT_EQ(compiled_range("<=-3").hi, -300);
  EXPECT_EQ(compiled_range("<3").hi, 299);
  EXPECT_EQ(compiled_range("-1 1.5").lo, -100);
  EXPECT_EQ(compiled_range("-1 1.5").hi, 150);
  EXPECT_EQ(compiled_range("unlimited 0.5").lo, INT64_MIN);
}

// Engine nodes, and lists holding one, come last in their conjunction: cheap items decide first.
TEST(EngineCompile, EngineNodesAreEvaluatedLast) {
  auto nodes = first_variant(":evaluation depth 8 >=3 sidetomove :wtm :piececount Q 1");
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes.back().op, eval::Op::kEvaluation);
  nodes = first_variant(":not (position :moveevaluation U ? depth 2 >=3 sidetomove) Ka1 :btm");
  ASSERT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodes.back().op, eval::Op::kList);
  EXPECT_TRUE(eval::uses_engine(nodes.back()));
  EXPECT_FALSE(eval::uses_engine(nodes.front()));
}

TEST(EngineUci, ResolvesStockfishAndRejectsMissingEngines) {
  std::string path = analysis::resolve_engine("stockfish");
  EXPECT_TRUE(path == "/usr/games/stockfish" || path.ends_with("/stockfish")) << path;
  EXPECT_THROW(analysis::resolve_engine("no-such-engine-cqldb"), EngineError);
  try {
    analysis::resolve_engine("/nonexistent/stockfish");
    FAIL();
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("not found"), std::string::npos) << e.what();
  }
}

TEST(EngineUci, ReportsMateAndCentipawnScores) {
  analysis::EngineConfig config;
  config.path = analysis::resolve_engine("stockfish");
  analysis::UciEngine engine(config);
  EngineScore mate = engine.analyse(kMateInOne, false, cql::EngineLimit::Depth, 6);
  EXPECT_EQ(mate.kind, EngineScore::Kind::kMate);
  EXPECT_EQ(mate.value, 1);
  EXPECT_EQ(mate.mate_plies(), 1);
  EngineScore up = engine.analyse(kWhiteQueenUp, false, cql::EngineLimit::Depth, 8);
  EXPECT_EQ(up.kind, EngineScore::Kind::kCentipawns);
  EXPECT_GT(up.value, 500);
  EngineScore timed = engine.analyse(kWhiteQueenUpBtm, false, cql::EngineLimit::MoveTime, 100);
  EXPECT_LT(analysis::centipawns(timed), -500);
  EXPECT_GT(engine.pid(), 0);
  engine.stop();
  EXPECT_EQ(engine.pid(), -1);
}

// Reference: "position:evaluation depth 4 >=2.5 sidetomove: the side to move has (probably) a
// winning position"; "<=-2.5 sidetomove: a losing position".
TEST_F(EngineTest, SideToMoveExamples) {
  EXPECT_TRUE(on(":evaluation depth 4 >=2.5 sidetomove", kWhiteQueenUp));
  EXPECT_FALSE(on(":evaluation depth 4 <=-2.5 sidetomove", kWhiteQueenUp));
  EXPECT_TRUE(on(":evaluation depth 4 <=-2.5 sidetomove", kWhiteQueenUpBtm));
  EXPECT_FALSE(on(":evaluation depth 4 >=2.5 sidetomove", kWhiteQueenUpBtm));
  EXPECT_FALSE(on(":evaluation depth 4 >=2.5 sidetomove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
  EXPECT_TRUE(on(":evaluation depth 4 -1 1 sidetomove", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"));
}

// Reference: "position:evaluation movetime 3000 <=-3.0 absolute: Black is (probably) losing"
// (100 ms here); absolute scores do not depend on the side to move.
TEST_F(EngineTest, AbsoluteExamples) {
  EXPECT_TRUE(on(":evaluation movetime 100 >=3.0 absolute", kWhiteQueenUp));
  EXPECT_TRUE(on(":evaluation movetime 100 >=3.0 absolute", kWhiteQueenUpBtm));
  EXPECT_FALSE(on(":evaluation depth 6 <=-3.0 absolute", kWhiteQueenUpBtm));
  // `unlimited` bounds
  EXPECT_TRUE(on(":evaluation depth 6 3 unlimited absolute", kWhiteQueenUpBtm));
  EXPECT_FALSE(on(":evaluation depth 6 unlimited 3 absolute", kWhiteQueenUpBtm));
}

// Under :flipcolor `absolute` means Black's view (SPEC Transformations: the roles swap).
TEST_F(EngineTest, FlipColorSwapsAbsoluteView) {
  EXPECT_FALSE(on(":evaluation depth 6 <=-3 absolute", kWhiteQueenUp));
  EXPECT_TRUE(on(":flipcolor :evaluation depth 6 <=-3 absolute", kWhiteQueenUp));
  EXPECT_TRUE(on(":flipcolor :evaluation depth 6 >=3 sidetomove", kWhiteQueenUp));
}

// Reference: "position:evaluation depth 6 mate: either side can be mated in at most 3 moves
// (6 plies)". Depth d admits mates within d plies.
TEST_F(EngineTest, MateExamples) {
  EXPECT_TRUE(on(":evaluation depth 6 mate", kMateInOne));
  EXPECT_TRUE(on(":evaluation depth 6 mate", kMateInTwo));
  EXPECT_TRUE(on(":evaluation depth 3 mate", kMateInTwo));
  EXPECT_FALSE(on(":evaluation depth 2 mate", kMateInTwo));  // 3 plies > 2
  EXPECT_FALSE(on(":evaluation depth 6 mate", kWhiteQueenUp));
  EXPECT_TRUE(on(":evaluation depth 1 mate", kMated));  // mated now: 0 plies
  // mate scores lie beyond every pawn bound
  EXPECT_TRUE(on(":evaluation depth 6 >=10000 sidetomove", kMateInOne));
  EXPECT_TRUE(on(":evaluation depth 1 <=-10000 sidetomove", kMated));
  EXPECT_TRUE(on(":evaluation depth 1 <=-10000 absolute", kMated));
  EXPECT_TRUE(on(":flipcolor :evaluation depth 1 >=10000 absolute", kMated));
}

TEST_F(EngineTest, PositionsWithoutMovesNeedNoEngine) {
  EXPECT_TRUE(on(":evaluation depth 5 -0.5 0.5 sidetomove", kStalemate));
  EXPECT_FALSE(on(":evaluation depth 5 mate", kStalemate));
  EXPECT_EQ(session_.engine_calls.load(), 0u);
}

// Reference: "position:moveevaluation U ? depth 4 >=3.0 sidetomove: the score difference is at
// least 3.0 pawn units: the last move was (probably) a blunder". 2. Qg4?? loses the queen to
// Bxg4; the list matches the position the blunder is played from (ply 2: its next move).
TEST_F(EngineTest, MoveEvaluationFindsBlunder) {
  const std::string game = "1. e4 d5 2. Qg4 Bxg4 *\n";
  EXPECT_EQ(engine_plies(":moveevaluation U ? depth 4 >=3.0 sidetomove", game, analysis_),
            std::vector<uint32_t>{2});
  // "A a depth 4 <=-3.0 absolute": a white capture that loses 3 pawns; here none
  EXPECT_TRUE(engine_plies(":moveevaluation A a depth 4 <=-3.0 absolute", game, analysis_).empty());
  // white moves that lose at least 3 pawns, from White's view
  EXPECT_EQ(engine_plies(":moveevaluation A ? depth 4 <=-3.0 absolute", game, analysis_),
            std::vector<uint32_t>{2});
  // the mover designator: no black blunder
  EXPECT_TRUE(engine_plies(":moveevaluation a ? depth 4 >=3.0 sidetomove", game, analysis_).empty());
  // the target designator: Qg4 goes to an empty square
  EXPECT_TRUE(engine_plies(":moveevaluation Q U depth 4 >=3.0 sidetomove", game, analysis_).empty());
  EXPECT_EQ(engine_plies(":moveevaluation Q .g4 depth 4 >=3.0 sidetomove", game, analysis_),
            std::vector<uint32_t>{2});
}

// The engine node is evaluated last: a false cheap condition means no engine search.
TEST_F(EngineTest, CheapConditionsPruneFirst) {
  EXPECT_FALSE(on(":evaluation depth 8 >=3 sidetomove :piececount Q 0", kWhiteQueenUp));
  EXPECT_FALSE(on(":evaluation depth 8 >=3 sidetomove :btm", kWhiteQueenUp));
  EXPECT_EQ(session_.engine_calls.load(), 0u);
  EXPECT_TRUE(on(":evaluation depth 8 >=3 sidetomove :wtm", kWhiteQueenUp));
  EXPECT_EQ(session_.engine_calls.load(), 1u);
}

TEST(EngineCache, SecondSessionTakesResultsFromTheCache) {
  cqltest::TempDir dir("engine-cache");
  const fs::path file = dir.path / analysis::AnalysisCache::kFileName;
  const std::string game = "1. e4 d5 2. Qg4 Bxg4 *\n";
  {
    AnalysisSession session("stockfish", file);
    AnalysisContext analysis(session);
    EXPECT_EQ(engine_plies(":moveevaluation U ? depth 5 >=3.0 sidetomove", game, analysis), std::vector<uint32_t>{2});
    EXPECT_EQ(session.engine_calls.load(), 5u);  // the 5 positions, each once
    EXPECT_EQ(session.cache_hits.load(), 3u);    // plies 1..3 as "after" and "before"
    session.flush();
  }
  ASSERT_TRUE(fs::exists(file));
  AnalysisSession session("stockfish", file);
  AnalysisContext analysis(session);
  EXPECT_EQ(engine_plies(":moveevaluation U ? depth 5 >=3.0 sidetomove", game, analysis), std::vector<uint32_t>{2});
  EXPECT_EQ(session.engine_calls.load(), 0u);
  EXPECT_EQ(session.cache_hits.load(), 8u);
  // another limit is another result
  engine_plies(":evaluation depth 4 >=3.0 sidetomove", game, analysis);
  EXPECT_EQ(session.engine_calls.load(), 5u);
}

TEST(EngineFailure, MissingEngineIsAnError) {
  AnalysisSession session("/nonexistent/engine", {});
  AnalysisContext analysis(session);
  try {
    engine_plies(":evaluation depth 2 >=1 sidetomove", fen_game(kWhiteQueenUp), analysis);
    FAIL() << "no error";
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/engine"), std::string::npos) << e.what();
  }
}

TEST(EngineFailure, KilledEngineIsAnError) {
  AnalysisSession session("stockfish", {});
  AnalysisContext analysis(session);
  EXPECT_FALSE(engine_plies(":evaluation depth 4 >=3 sidetomove", fen_game(kWhiteQueenUpBtm), analysis).size());
  const pid_t pid = analysis.engine_pid();
  ASSERT_GT(pid, 0);
  ASSERT_EQ(::kill(pid, SIGKILL), 0);
  try {
    engine_plies(":evaluation depth 4 >=3 sidetomove", fen_game(kWhiteQueenUp), analysis);
    FAIL() << "no error";
  } catch (const EngineError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("stopped unexpectedly"), std::string::npos) << what;
    EXPECT_NE(what.find("signal 9"), std::string::npos) << what;
  }
  EXPECT_EQ(analysis.engine_pid(), -1);
}

TEST(EngineFailure, EngineExitingMidSearchIsAnError) {
  cqltest::TempDir dir("engine-exit");
  const std::string path = fake_engine(dir.path, "crash.sh", uci_prelude("exit 3"));
  AnalysisSession session(path, {});
  AnalysisContext analysis(session);
  try {
    engine_plies(":evaluation depth 4 >=3 sidetomove", fen_game(kWhiteQueenUp), analysis);
    FAIL() << "no error";
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("exited with status 3"), std::string::npos) << e.what();
  }
}

TEST(EngineFailure, HangingEngineTimesOut) {
  cqltest::TempDir dir("engine-hang");
  const std::string path = fake_engine(dir.path, "hang.sh", uci_prelude("sleep 30"));
  AnalysisSession session(path, {});
  session.config.movetime_margin_ms = 300;
  AnalysisContext analysis(session);
  const auto t0 = std::chrono::steady_clock::now();
  try {
    engine_plies(":evaluation movetime 100 >=3 sidetomove", fen_game(kWhiteQueenUp), analysis);
    FAIL() << "no error";
  } catch (const EngineError& e) {
    EXPECT_NE(std::string(e.what()).find("hangs"), std::string::npos) << e.what();
  }
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST(EngineFailure, NonUciProgramIsAnError) {
  AnalysisSession session("/bin/true", {});
  AnalysisContext analysis(session);
  EXPECT_THROW(engine_plies(":evaluation depth 4 >=3 sidetomove", fen_game(kWhiteQueenUp), analysis), EngineError);
}

TEST(EngineFailure, CancelStopsTheWait) {
  cqltest::TempDir dir("engine-cancel");
  const std::string path = fake_engine(dir.path, "slow.sh", uci_prelude("sleep 30"));
  std::atomic<bool> cancel{true};
  AnalysisSession session(path, {}, &cancel);
  AnalysisContext analysis(session);
  EXPECT_THROW(engine_plies(":evaluation depth 4 >=3 sidetomove", fen_game(kWhiteQueenUp), analysis),
               analysis::EngineCancelled);
  EXPECT_EQ(analysis.engine_pid(), -1);
}

// ---- `cqldb query` end to end

namespace {

/// Runs `cqldb query --db DB -e SCRIPT --format ids --quiet ARGS...`.
cqltest::Outcome cli_query(const fs::path& db, const std::string& script, const std::vector<std::string>& args) {
  std::vector<std::string> all{"query", "--db", db.string(), "-e", script, "--format", "ids", "--quiet"};
  all.insert(all.end(), args.begin(), args.end());
  return cqltest::run_cqldb(all, db.parent_path());
}

}  // namespace

TEST(EngineCli, EngineDyingMidQueryEndsTheQueryWithAMessage) {
  cqltest::TempDir dir("engine-cli");
  {
    db::Database database = db::Database::create_or_open(dir.path / "db");
    import::import_files(database, {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/mates-30.pgn"},
                         import::ImportOptions{}, nullptr);
  }
  const std::string script = "(match (position :evaluation depth 4 >=1 sidetomove))";
  // answers three searches, then exits: "killed" in the middle of the query
  const std::string dying = fake_engine(
      dir.path, "dying.sh",
      "n=0\n" + uci_prelude("n=$((n+1)); [ $n -gt 3 ] && exit 0; echo 'info depth 1 score cp 50'; echo 'bestmove a2a3'"));
  cqltest::Outcome r = cli_query(dir.path / "db", script, {"--threads", "1", "--engine", dying});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("chess engine " + dying + ": the engine stopped unexpectedly"), std::string::npos) << r.err;
  // a missing engine
  r = cli_query(dir.path / "db", script, {"--engine", "/nonexistent/engine"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("not found"), std::string::npos) << r.err;
  // the real engine: searches, then the same query from the cache
  const std::string small = "(match (position :wtm :evaluation depth 4 >=1 sidetomove))";
  r = cli_query(dir.path / "db", small, {});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" 0 results from the analysis cache"), std::string::npos) << r.err;
  EXPECT_TRUE(fs::exists(dir.path / "db" / analysis::AnalysisCache::kFileName));
  r = cli_query(dir.path / "db", small, {});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("engine: 0 searches"), std::string::npos) << r.err;
}
