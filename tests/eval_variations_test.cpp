// :variations, :variationsonly and :insidevariation (eval/variation_walker.h): which lines a
// position list searches, and sequences that start inside a variation (SPEC Game traversal).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "db/record_view.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"

namespace {

using cqltest::pos;
using cqltest::run_game;
using Plies = std::vector<uint32_t>;

// 1. e4 e5 with the variation 1... c5 2. Nf3 d6.
const std::string kSicilian = "1. e4 e5 (1... c5 2. Nf3 d6) 2. Nf3 Nc6 *\n";
// The same with a sub-variation 2. c3 d5 inside the variation.
const std::string kNested = "1. e4 e5 (1... c5 2. Nf3 (2. c3 d5) 2... d6) 2. Nf3 *\n";

TEST(EvalVariations, MainLineOnlyByDefault) {
  EXPECT_FALSE(run_game(pos("pc5"), kSicilian).matched);
  EXPECT_FALSE(run_game(pos(":insidevariation"), kSicilian).matched);
}

TEST(EvalVariations, VariationsSearchesBothAndReportsMainLinePlies) {
  const auto c5 = run_game(pos(":variations pc5"), kSicilian);
  EXPECT_TRUE(c5.matched);
  EXPECT_TRUE(c5.plies.empty());  // only variation positions matched
  EXPECT_EQ(run_game(pos(":variations pe5"), kSicilian).plies, (Plies{2, 3, 4}));
  // The knight reaches f3 in the main line and in the variation: two positions.
  EXPECT_TRUE(run_game(pos(":variations :movefrom Ng1 :matchcount 2"), kSicilian).matched);
  EXPECT_FALSE(run_game(pos(":movefrom Ng1 :matchcount 2"), kSicilian).matched);
}

TEST(EvalVariations, VariationsOnlyAndInsideVariation) {
  EXPECT_FALSE(run_game(pos(":variationsonly pe5"), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":variationsonly pc5 Nf3"), kSicilian).matched);
  // The branch position starts the variation's line: its next move is the alternative.
  EXPECT_TRUE(run_game(pos(":variationsonly :movefrom pc7"), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":variationsonly :terminal pd6"), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":variations :insidevariation Nf3 pc5"), kSicilian).matched);
  EXPECT_FALSE(run_game(pos(":variations !:insidevariation pc5"), kSicilian).matched);
  EXPECT_EQ(run_game(pos(":variations !:insidevariation Nf3"), kSicilian).plies, (Plies{3, 4}));
}

TEST(EvalVariations, SequenceContinuesAlongTheVariation) {
  const std::string seq =
      ":sequence ((position :movefrom pc7) (position :movefrom Ng1) (position :movefrom pd7 "
      ":halfmovenumber 3))";
  EXPECT_FALSE(run_game(pos(seq), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":variationsonly " + seq), kSicilian).matched);
  // A sequence starting on the main line stays on it.
  EXPECT_FALSE(
      run_game(pos(":variations :sequence ((position :movefrom Pe2) (position :movefrom pc7))"),
               kSicilian)
          .matched);
  EXPECT_TRUE(
      run_game(pos(":sequence ((position :movefrom Pe2) (position :movefrom pe7))"), kSicilian)
          .matched);
  // Nested variation: 2. c3 d5 branches from the position after 1... c5.
  const std::string c3d5 =
      ":sequence ((position :movefrom Pc2) (position :movefrom pd7 :halfmovenumber 3))";
  EXPECT_TRUE(run_game(pos(":variationsonly " + c3d5), kNested).matched);
  EXPECT_FALSE(
      run_game(pos(":variationsonly :sequence ((position :movefrom Ng1) (position :movefrom pd7) "
                   "(position :movefrom Pc2))"),
               kNested)
          .matched);
  EXPECT_TRUE(
      run_game(pos(":variationsonly :gappedsequence ((position pc5) (position pd6 Nf3))"), kNested)
          .matched);
}

TEST(EvalVariations, NestedScopeWidensTheSearch) {
  // A nested :variations / :variationsonly makes the top-level list search the variations too;
  // the nested :variationsonly list matches only inside them (SPEC-NOTES Variations).
  EXPECT_FALSE(run_game(pos(":and ((position pc5))"), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":and ((position :variations pc5))"), kSicilian).matched);
  EXPECT_EQ(run_game(pos(":not (position :variations Qh7) pe5"), kSicilian).plies,
            run_game(pos(":variations pe5"), kSicilian).plies);
  EXPECT_TRUE(run_game(pos(":or ((position :variationsonly pe5) (position pc5))"), kSicilian).matched);
  EXPECT_FALSE(run_game(pos(":and ((position :variationsonly pe5))"), kSicilian).matched);
  EXPECT_TRUE(run_game(pos(":and ((position :variationsonly Nf3 pc5))"), kSicilian).matched);
}

// ---- corpus: studies.pgn (many variations) against a brute-force walk of the token stream

/// Facts of one position of a line.
struct Fact {
  bool check = false;
  bool mate = false;
};

class EvalVariationsCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-var", {cqltest::corpus_file("studies.pgn")});
    lines_ = new std::vector<std::pair<uint32_t, std::vector<Fact>>>;
    db::GameReader reader = db_->database().reader();
    std::string bytes;
    for (uint32_t id = 1; id <= reader.game_count(); ++id) {
      ASSERT_TRUE(reader.read_record(id, bytes));
      db::RecordView rec = db::RecordView::parse(bytes);
      chess::Position start;
      if (!rec.start_fen().empty()) {
        ASSERT_TRUE(start.set_fen(rec.start_fen(), rec.chess960()).ok());
      }
      // Per open line: the position before its last move and the current one, and the
      // facts of a variation's positions (its branch position first).
      struct Open {
        chess::Position before, now;
        std::vector<Fact> facts;
      };
      auto fact = [](const chess::Position& p) {
        return Fact{p.in_check(), p.in_check() && !chess::has_legal_move(p)};
      };
      std::vector<Open> open{{start, start, {}}};
      for (const db::Token& t : rec.tokens()) {
        if (t.kind == db::TokenKind::kMove) {
          Open& o = open.back();
          o.before = o.now;
          chess::UndoInfo undo;
          if (t.move == chess::Move::null())
            o.now.do_null_move(undo);
          else
            o.now.do_move(t.move, undo);
          if (open.size() > 1) o.facts.push_back(fact(o.now));
        } else if (t.kind == db::TokenKind::kBeginVariation) {
          chess::Position branch = open.back().before;
          open.push_back({branch, branch, {fact(branch)}});
        } else if (t.kind == db::TokenKind::kEndVariation) {
          lines_->push_back({id, std::move(open.back().facts)});
          open.pop_back();
        }
      }
    }
  }

  static void TearDownTestSuite() {
    delete db_;
    delete lines_;
  }

  /// The ids of the games `script` matches.
  static std::set<uint32_t> games(const std::string& script) {
    std::set<uint32_t> ids;
    for (const auto& [id, plies] : db_->query(script)) ids.insert(id);
    return ids;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline std::vector<std::pair<uint32_t, std::vector<Fact>>>* lines_ = nullptr;
};

TEST_F(EvalVariationsCorpus, CheckInSomeVariation) {
  std::set<uint32_t> expected;
  for (const auto& [id, facts] : *lines_)
    for (const Fact& f : facts)
      if (f.check) expected.insert(id);
  EXPECT_GT(expected.size(), 20u);
  EXPECT_EQ(games(pos(":variationsonly :check")), expected);
}

TEST_F(EvalVariationsCorpus, CheckThenMateAlongAVariation) {
  std::set<uint32_t> expected;
  for (const auto& [id, facts] : *lines_)
    for (size_t p = 0; p + 1 < facts.size(); ++p)
      if (facts[p].check && facts[p + 1].mate) expected.insert(id);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(games(pos(":variationsonly :sequence ((position :check) (position :mate))")), expected);
  // With :variations the main-line matches join them.
  std::set<uint32_t> both =
      games(pos(":variations :sequence ((position :check) (position :mate))"));
  for (uint32_t id : games(pos(":sequence ((position :check) (position :mate))")))
    expected.insert(id);
  EXPECT_EQ(both, expected);
}

}  // namespace
