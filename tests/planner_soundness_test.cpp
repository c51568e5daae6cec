// The planner must never change an answer: every query gives the same games and the same
// matched plies with signature pruning on and off, on real games (annotated, studies, mates
// and the first 50,000 games of the players corpus).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "eval/program.h"
#include "query/executor.h"
#include "query/query.h"
#include "import/importer.h"
#include "import/pgn_splitter.h"
#include "planner/explain.h"
#include "planner/plan.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kCorpus = CQLDB_CORPUS_DIR;

/// One database for the whole suite.
class PlannerSoundness : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("planner");
    dir_ = tmp_->path;
    // The first 50,000 games of the players corpus as a plain PGN file.
    {
      import::PgnSplitter splitter{import::InputStream(kCorpus + "/players-344k.pgn.zst")};
      std::ofstream out(dir_ / "players-50k.pgn", std::ios::binary);
      import::RawGame game;
      for (int i = 0; i < 50000 && splitter.next(game); ++i) out << game.text << "\n";
    }
    db::Database database = db::Database::create_or_open(dir_ / "db");
    import::import_files(database,
                         {(dir_ / "players-50k.pgn").string(), kCorpus + "/annotated.pgn",
                          kCorpus + "/studies.pgn", kCorpus + "/mates.pgn"},
                         {}, nullptr);
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }

  /// Runs `script` with the planner off and on; expects identical answers. Returns the
  /// number of matches and the games the planner pruned.
  static std::pair<uint64_t, uint64_t> check(const std::string& script) {
    db::Database database = db::Database::open_readonly(dir_ / "db");
    const query::Query compiled = query::Query::compile(script, "q.cql");
    const eval::Program& program = compiled.program();
    query::ExecuteOptions off_options;
    off_options.planner_off();
    query::Result off_run = query::execute(compiled, database, off_options);
    query::Result on_run = query::execute(compiled, database, query::ExecuteOptions{});
    const std::vector<eval::GameMatch>& off = off_run.matches;
    const std::vector<eval::GameMatch>& on = on_run.matches;
    const query::Stats& off_stats = off_run.stats;
    const query::Stats& on_stats = on_run.stats;
    EXPECT_EQ(off.size(), on.size()) << script << "\n" << query::explain_plan(compiled, true);
    for (size_t i = 0; i < std::min(off.size(), on.size()); ++i) {
      EXPECT_EQ(off[i].id, on[i].id) << script;
      EXPECT_EQ(off[i].plies, on[i].plies) << script << " game " << off[i].id;
      if (off[i].id != on[i].id) break;
    }
    // --explain figures add up.
    // The posting stage runs for every plan with a condition (the import built postings.bin);
    // a plan without one has nothing to narrow and says so.
    if (!program.negated() && compiled.plan().prunes()) {
      EXPECT_TRUE(on_stats.stage("postings")->ran || on_stats.stage("positions")->ran) << script;
    } else if (!program.negated()) {
      // stages: positions (issue 18), then postings.
      EXPECT_EQ(on_stats.stages.at(1).name, "postings");
      EXPECT_FALSE(on_stats.stages.at(1).ran) << script;
      EXPECT_EQ(on_stats.stages.at(1).note, "nothing to narrow") << script;
    }
    EXPECT_LE(on_stats.after_indexes(), on_stats.games_total) << script;
    EXPECT_LE(on_stats.candidates, on_stats.after_indexes()) << script;
    EXPECT_LE(on_stats.candidates, off_stats.candidates) << script;
    EXPECT_GE(on_stats.candidates, on_stats.after_signatures()) << script;
    EXPECT_GE(on_stats.after_signatures(), on_stats.matches) << script;
    EXPECT_LE(on_stats.games_replayed, on_stats.after_signatures()) << script;
    EXPECT_EQ(off_stats.games_replayed, off_stats.candidates) << script;
    // Without the planner nothing prunes, header conditions included: every game is replayed.
    bool lists = false;
    for (const eval::Alternative& a : program.alternatives()) lists |= !a.lists.empty();
    if (lists) {
      EXPECT_EQ(off_stats.games_replayed, off_stats.games_total) << script;
    }
    return {on_stats.matches, off_stats.candidates - on_stats.after_signatures()};
  }

  static cqltest::TempDir* tmp_;
  static fs::path dir_;  ///< tmp_->path
};

cqltest::TempDir* PlannerSoundness::tmp_ = nullptr;
fs::path PlannerSoundness::dir_;

// At least 60 queries over every implemented keyword family, transformations and negations.
const char* const kQueries[] = {
    // piece patterns and designators
    "(match (position Ra3))", "(match (position Qh7 kg8 Bd3))", "(match (position [Qq]d4))",
    "(match (position .e4 Pd4))", "(match (position Q~))", "(match (position N?8 :btm))",
    "(match (position BL? BD?))", "(match (position R[a-h7] k?8))", "(match (position U[a1,h1,a8,h8] :initial))",
    // material
    "(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0))",
    // the Summary's least counts (capped at 3 pawns/rooks/bishops, 1 queen/knight) and
    // promotion types (either colour)
    "(match (position :piececount P 3 :piececount p 4 :piececount [QqRrBbNn] 2))",
    "(match (position :piececount R 3))", "(match (position :piececount b 3 :piececount n 2))",
    "(match (position :piececount Q 2))", "(match (position :piececount [Nn] 1 :piececount [Qq] 1))",
    "(match (position :promote n))", "(match (position :promote B :wtm))",
    "(match (position :flipcolor :piececount [QqNn] 0 :piececount R 1 :piececount r 0 :piececount B 0 :piececount b 1))",
    "(match (position :mate :piececount [QqRr] 0 :power A <=6))",
    "(match (position :stalemate :piececount [Pp] 1 :piececount [QqRrBbNn] 0))",
    // ply windows (planner/ply_windows.h): matched plies must not change
    "(match (position :piececount [Qq] 0 :check) (position :movenumber 30 40 :piececount A 6))",
    "(match (position :matchcount 2 10 :piececount [RrBbNn] <=2 :check))",
    "(match (position :halfmovenumber end-10 end :piececount P >=3 :piececount p <=2))",
    "(match (position :flipcolor :power A <=10 K[e4,d4,e5,d5]))",
    "(match (position :movenumber end-3 end :piececount [Qq] 1) (position :movenumber 1 2 :check))",
    "(match (position :halfmovenumber 0 0) (position :piececount A 16 :halfmovenumber >=60))",
    "(match (position :mate :piececount N 1) (position :piececount [Qq] 2))",
    "(match (position :piececount Q~ 0 :piececount Q 1 :movenumber >=40))", "(match (position :piececount Q~ 1))",
    "(match (position :piececount P 8 :piececount p <=5))",
    "(match (position :power A 0 5 :power a >=20))", "(match (position :power [Pp] 0))",
    "(match (position :powerdifference U >=5))", "(match (position :powerdifference U <=-9))",
    "(match (position :piececountdifference P >=3))", "(match (position :piececountdifference R r 2))",
    "(match (position :piececount R?7 2))", "(match (position :power Q[a-d1-4] >=9 :wtm))",
    "(match (position :endgame :piececount [Pp] 0))", "(match (position !:endgame :halfmovenumber >=150))",
    "(match (position :matingmaterial :piececount U 3))", "(match (position !:matingmaterial))",
    "(match (position :whitecannotwin :result 1-0))", "(match (position :blackcannotwin))",
    // check, mate, terminal
    "(match (position :mate))", "(match (position :stalemate))", "(match (position :check :wtm))",
    "(match (position :doublecheck))", "(match (position :contactcheck Q))", "(match (position !:check :terminal))",
    "(match (position :gameisover :result 1/2-1/2))", "(match (position :mate :piececount [Qq] 0 :btm))",
    "(match (position :check N :movenumber 5 15))",
    // double checks (Signature::double_checks, postings kFlag*InDoubleCheck)
    "(match (position :doublecheck :flipcolor :wtm))", "(match (position :doublecheck N))",
    "(match (position :doublecheck [QR] :btm :movenumber <=30))", "(match (position :doublecheck :mate))",
    "(match (position :isdoublecheck :piececount [Qq] 1))", "(match :eithercolor (position :doublecheck :btm))",
    // moves
    "(match (position :promote [RBNrbn]))", "(match (position :promote q :moveto ??1))",
    "(match (position :promote []))", "(match (position :enpassant))", "(match (position !:enpassant :movefrom P?5))",
    "(match (position :iscastling [Qq]))", "(match (position :iscastling :movenumber >=20))",
    // castling plies (Signature::castling_plies, ply windows of :iscastling)
    "(match (position :iscastling [Kk] :movenumber >=25))", "(match (position :iscastling [Qq] :movenumber >=20))",
    "(match (position :iscastling k :btm))", "(match (position :iscastling K :btm))",
    "(match (position :not :iscastling :movenumber 10 12))", "(match (position :movenumber 10 12 :not (position :iscastling)))",
    "(match (position :iscastling [Kk] :halfmovenumber 8 12 :flipcolor))",
    "(match (position :iscastling K :wtm) (position :iscastling q :movenumber >=15))",
    "(match (position :iscastling :movenumber >=30 :matchcount 0))",
    "(match (position :iscastling :movenumber >=30 :matchcount 0) (position :mate))",
    "(match (position :iscastling :piececount [Qq] 0))", "(match (position :iscastling Q :movenumber end-5 end))",
    "(match :eithercolor (position :iscastling Q :movenumber >=18))",
    "(match (position :iscastling [Kk] :movenumber >=25 :or ((position :check) (position :piececount [Nn] 0))))",
    "(match (position :or ((position :iscastling K :movenumber >=25) (position :mate))))",
    "(match (position :movefrom K :moveto .g1 :iscastling))", "(match (position :moveto q :movefrom P))",
    "(match (position :halfmovenumber end-1))", "(match (position :movenumber end :wtm))",
    "(match (position :halfmovenumber 0 :fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"))",
    "(match (position :fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"))",
    "(match (position :castling [Kk] :movenumber 30))", "(match (position :halfmoveclock >=60))",
    "(match (position :threefoldrepetition))", "(match (position :fiftymoverule))",
    // lookahead, counting, game keywords
    "(match (position :ismate :piececount [Qq] 0))", "(match (position :ischeck 3 :movefrom N))",
    "(match (position :isstalemate))", "(match (position :isdoublecheck :piececount [Rr] 0))",
    "(match (position :forced :moveto .h8) (position :mate))",
    "(match (position :checkcount 2 : 0 :piececount q 0))", "(match (position :checkcount +3+0 :flipcolor))",
    "(match (position :moveto [Qq] :matchcount 0))", "(match (position :moveto U :matchcount 0 3) (position Qd4))",
    "(match (position :check :matchcount >=12))", "(match (position :moveto Ud4 :pretransformmatchcount >=3 :shift))",
    "(match (position :moveto U :repetitioncount 0))", "(match (position :moveto U :repetitioncount 0 2) (position Qd4))",
    "(match (position :moveto U :repetitioncount >=2))", "(match (position :moveto Ud4 :pretransformrepetitioncount >=2 :shift))",
    "(match (position :mate :ischess960 :variant normal))", "(match (position !:isshufflechess :piececount P 8))",
    // nested counts, control, accumulators, :endmost / :following / :preceding
    "(match (position :movefrom Q :and ((position :moveto q :matchcount 0))))",
    "(match (position :mate :not (position :check :matchcount >=2)))",
    "(match :result 1-0 (position :sequence ((position :powerdifference U -2 +2 :powerdifference Q q 0)"
    " (position :repetitioncount >=12 :powerdifference Q q <=-9))))",
    "(match (position :and ((position :moveto U :pretransformrepetitioncount 0 :shift))))",
    "(match (position :mate :cut (position :check)))", "(match (position :mate) (position :cut :check))",
    "(match (position :promote Q :cut (position :preceding :piececount [Rr] 0)))",
    "(match (position :movefrom Q :exclude (position :moveto r)))", "(match (position :mate) (position :exclude :check :wtm))",
    "(match (position :moveto U) (position :movefrom Q :skip))",
    "(match (position :sumrange w 3 8 :and ((position Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 :shift :accumulate w))))",
    // :sumrange from 1 up needs a list accumulating its counter (issue 21 planner condition)
    "(match (position :sumrange r 2 8 :or ((position Rh7 :shifthorizontal :accumulate r) (position))))",
    "(match (position :sumrange q 1 :and ((position Qh7 kg8 :flipcolor :flip :accumulate* q))))",
    "(match (position :sumrange n 0 :and ((position Nd5 :shift :accumulate n))))",
    "(match (position :sumrange t 2 :flipcolor :reset t Re1 :accumulate t :shiftvertical :shifthorizontal))",
    "(match (position :mate :endmost))", "(match (position :check :following :piececount [Qq] 0))",
    "(match (position :mate :preceding))",
    // sequences
    "(match (position :sequence ((position :moveto U) (position :mate))))",
    "(match (position :piececount [Qq] 0 :sequence ((position :check) (position) (position :piececount [Rr] 0))))",
    "(match (position :gappedsequence ((position :movefrom Q) (position :check) (position :mate))))",
    "(match (position :flipcolor :gappedsequence ((position :promote Q) (position :powerdifference A a >=5))))",
    "(match (position :not (position :sequence ((position :check) (position :check)))))",
    // variations
    "(match (position :variations :mate))", "(match (position :variationsonly :check :piececount [Qq] 0))",
    "(match (position :variations :insidevariation :sequence ((position :check) (position :mate))))",
    // games without variations: the main-line condition still prunes them
    "(match (position :variations :promote [RBNrbn]))", "(match (position :variationsonly :mate))",
    "(match (position :variations Qh7 kg8 :flipcolor))",
    "(match (position :variations :piececount [QqRr] 0 :piececount [Pp] 0))",
    // attacks and rays
    "(match (position :attackcount A k 2))", "(match (position :attackcount [Nn] [KQkq] >=2))",
    "(match (position :ray (R n k) :flipcolor))", "(match (position :rayattack (Q . k)))",
    "(match (position :raydiagonal (B p k)))",
    // transformations
    "(match (position Ke4 ke6 :shift :flip :wtm))", "(match (position Pd4 pd5 :shifthorizontal))",
    "(match (position :flipcolor :mate R?8 k?8 :btm))", "(match (position Kb6 ka8 Qc7 :flip))",
    "(match (position Nd4 kf3 :shift :flip :flipcolor))",
    "(match (position :inside P[b2-7] [b2,c3,d4,e5,f6,g7] :piececount P[b2-7] 3 :shifthorizontal))",
    "(match (position Ra1 ka8 :shiftvertical :shiftdiagonal))",
    // logic and negation
    "(match (position :or ((position :mate) (position :stalemate))))",
    "(match (position :and ((position Qd1) (position qd8)) :halfmovenumber 40))",
    "(match (position :xor ((position BD?) (position BL?)) :piececount [QqRrNn] 0))",
    "(match (position :cond ((position :check) (position :mate) (position :stalemate))))",
    "(match (position :not (position :piececount [Pp] >=1)))", "(match (position Ra3 :not))",
    "(match (position :mate) (position :check :movenumber 1 10))",
    "(match (position :check) :not)",
    // header and game information
    "(match :result 1-0 (position :mate :wtm))", "(match :whiteelo >=2500 (position :promote N))",
    "(match (position :elo >=2600 :mate))", "(match (position :result 0-1 :stalemate))",
    "(match :eithercolor :result 1-0 (position :piececount Q 0 :piececount q 1 :terminal))",
    "(match :player Alekhine (position :check :btm :movenumber <=10))",
    "(match :year 1900 1950 (position :piececount [Qq] 0 :halfmovenumber <=30))",
};

}  // namespace

TEST_F(PlannerSoundness, PlannerOnEqualsPlannerOff) {
  size_t n = 0;
  uint64_t pruned_total = 0;
  for (const char* q : kQueries) {
    SCOPED_TRACE(q);
    auto [matches, pruned] = check(q);
    pruned_total += pruned;
    ++n;
  }
  EXPECT_GE(n, 60u);
  EXPECT_GT(pruned_total, 0u);  // the planner does prune
}

TEST_F(PlannerSoundness, DecidableQueriesReplayOnlyMatches) {
  // Final mate, material only, result/Elo only: the signatures decide, (almost) no useless
  // replay.
  for (const char* q : {"(match (position :mate))", "(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0))",
                        "(match (position :promote [RBNrbn]))", "(match :whiteelo >=2500 (position :stalemate))",
                        // double checks and castling plies are in the Summary: exact
                        "(match (position :doublecheck))", "(match (position :iscastling [Kk] :movenumber >=25))",
                        "(match (position :iscastling [Qq] :movenumber >=20))", "(match (position :iscastling k :btm))"}) {
    db::Database database = db::Database::open_readonly(dir_ / "db");
    const query::Stats s = query::execute(query::Query::compile(q, "q.cql"), database, {}).stats;
    // Exact, except for games with null moves, where a mate or stalemate may stand before
    // the final position (the signature keeps them; the annotated corpus has a few).
    EXPECT_GE(s.games_replayed, s.matches) << q;
    EXPECT_LE(s.games_replayed, s.matches + 10) << q;
  }
}

TEST_F(PlannerSoundness, PlyWindowsEvaluateFewerPositions) {
  // Pawn endings are reached late: replay evaluates only the plies of the material runs
  // without pieces, and the final ply for a mate.
  for (const char* q : {"(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0))",
                        "(match (position :mate :piececount [Qq] 1))"}) {
    db::Database database = db::Database::open_readonly(dir_ / "db");
    const query::Query compiled = query::Query::compile(q, "q.cql");
    EXPECT_TRUE(compiled.plan().has_ply_windows()) << q;
    const query::Stats s = query::execute(compiled, database, {}).stats;
    ASSERT_GT(s.matches, 0u) << q;
    EXPECT_LT(s.positions, s.games_replayed * 20) << q;  // far fewer than the games' plies
    EXPECT_GE(s.positions, s.matches) << q;
  }
  // Not plain (a sequence): no windows.
  eval::Program seq = eval::Program::compile(
      cql::parse_or_throw("(match (position :piececount [Qq] 0 :sequence ((position) (position :check))))", "q.cql"));
  EXPECT_FALSE(planner::Plan::make(seq).has_ply_windows());
}

TEST_F(PlannerSoundness, ExplainShowsEveryStage) {
  db::Database database = db::Database::open_readonly(dir_ / "db");
  const query::Query compiled = query::Query::compile("(match :player Alekhine (position :mate))", "q.cql");
  std::string text = query::explain_plan(compiled, true);
  EXPECT_NE(text.find("header SQL:"), std::string::npos) << text;
  EXPECT_NE(text.find("final position mate"), std::string::npos) << text;
  const query::Result run = query::execute(compiled, database, {});
  std::string stats = query::explain_stats(run.stats);
  // Every stage reports its figures, in order.
  ASSERT_EQ(run.stats.stages.size(), 6u);
  const char* names[] = {"positions", "postings", "headers", "signatures", "windows", "replay"};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(run.stats.stages[i].name, names[i]);
  EXPECT_FALSE(run.stats.stages[0].ran);  // no :fen position to look up (issue 18)
  EXPECT_TRUE(run.stats.stages[1].ran);
  EXPECT_GE(run.stats.stages[1].out, run.stats.stages[2].out);
  EXPECT_EQ(run.stats.stages[5].out, run.stats.matches);
  for (const char* stage : {"after posting index", "after header filter", "after signatures", "games replayed", "positions evaluated", "matches"})
    EXPECT_NE(stats.find(stage), std::string::npos) << stats;
}
