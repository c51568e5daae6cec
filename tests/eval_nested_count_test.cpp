// Counting keywords in nested position lists (seed 000 / CQL-Position-List "Matching count
// keywords"): a nested list with :matchcount / :pretransformmatchcount is decided over its
// line (it matches at every position of the line, or at none); with :repetitioncount /
// :pretransformrepetitioncount it matches where the run of consecutive matching positions
// through the position has a length in the range. The seed 000 queen-sacrifice example runs
// on the first games of players-344k and is checked on the board.
#include <gtest/gtest.h>

#include "eval/board_predicates.h"
#include "eval_corpus_slice.h"
#include "eval_test_util.h"

namespace {

using cqltest::Hits;
using cqltest::plies;
using cqltest::Plies;
using cqltest::kScotch;  // captures at 5 6 7 8 12 (5..8 on d4)
using cqltest::run_game;

TEST(EvalNestedCount, MatchCountIsDecidedOverTheLine) {
  // Knight moves at 2 3 6 7 9 11; no black queen is ever captured, two black knights are.
  EXPECT_EQ(plies(":movefrom [Nn] :and ((position :moveto q :matchcount 0))", kScotch), (Plies{2, 3, 6, 7, 9, 11}));
  EXPECT_EQ(plies(":movefrom [Nn] :and ((position :moveto n :matchcount 2))", kScotch), (Plies{2, 3, 6, 7, 9, 11}));
  EXPECT_EQ(plies(":movefrom [Nn] :and ((position :moveto n :matchcount 3))", kScotch), (Plies{}));
  EXPECT_EQ(plies(":movefrom [Nn] :not (position :moveto n :matchcount >=1)", kScotch), (Plies{}));
  EXPECT_EQ(plies(":movefrom [Nn] :not (position :moveto q :matchcount >=1)", kScotch), (Plies{2, 3, 6, 7, 9, 11}));
  // CQL-Position-List :pretransformmatchcount, rewritten with nested :matchcount lists.
  EXPECT_EQ(plies(":moveto U :and ((position :moveto Ud4 :pretransformmatchcount 4 :shift))", kScotch),
            (Plies{5, 6, 7, 8, 12}));
  EXPECT_EQ(plies(":moveto U :and ((position :moveto Ud4 :pretransformmatchcount 5 :shift))", kScotch), (Plies{}));
  EXPECT_EQ(plies(":moveto U :and ((position :moveto Ud4 :matchcount 5 :shift))", kScotch), (Plies{5, 6, 7, 8, 12}));
}

TEST(EvalNestedCount, RepetitionCountMatchesInsideALongEnoughRun) {
  EXPECT_EQ(plies(":and ((position :moveto U :repetitioncount >=4))", kScotch), (Plies{5, 6, 7, 8}));
  EXPECT_EQ(plies(":and ((position :moveto U :repetitioncount 1))", kScotch), (Plies{12}));
  EXPECT_EQ(plies(":and ((position :moveto U :repetitioncount 1 4))", kScotch), (Plies{5, 6, 7, 8, 12}));
  // 0: the positions off every run
  EXPECT_EQ(plies(":and ((position :moveto U :repetitioncount 0))", kScotch), (Plies{0, 1, 2, 3, 4, 9, 10, 11, 13}));
  EXPECT_EQ(plies(":and ((position :moveto Ud4 :pretransformrepetitioncount 4 :shift))", kScotch), (Plies{5, 6, 7, 8}));
  EXPECT_EQ(plies(":and ((position :moveto Ue4 :pretransformrepetitioncount 4 :shift))", kScotch), (Plies{5, 6, 7, 8}));
  // in a sequence element: the element matches anywhere in a long enough run
  EXPECT_EQ(plies(":sequence ((position :movefrom P) (position :moveto U :repetitioncount >=4))", kScotch), (Plies{4}));
  EXPECT_EQ(plies(":sequence ((position :movefrom p) (position :repetitioncount >=4 :moveto U))", kScotch), (Plies{5}));
  EXPECT_EQ(plies(":sequence ((position :movefrom p) (position :repetitioncount >=5 :moveto U))", kScotch), (Plies{}));
}

TEST(EvalNestedCount, RunsAreCountedPerLine) {
  // The variation 4... Qxd4?? (not the main line) has no run of its own.
  const char* pgn = "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 (4. Qxd4 Nxd4 5. Nxd4) Nxd4 5. Qxd4 *";
  EXPECT_EQ(run_game("(match (position :variations :and ((position :moveto U :repetitioncount 4))))", pgn).plies,
            (Plies{5, 6, 7, 8}));
  EXPECT_TRUE(run_game("(match (position :variationsonly :and ((position :moveto U :repetitioncount 3))))", pgn).matched);
  EXPECT_FALSE(run_game("(match (position :variationsonly :and ((position :moveto U :repetitioncount 4))))", pgn).matched);
}

TEST(EvalNestedCount, QueenSacrificeSeedExampleOnTheCorpus) {
  // seed 000 :powerdifference: a queen sacrifice kept for at least 12 positions, White wins.
  const std::string script =
      "(match :result 1-0 (position :sequence ("
      "(position :powerdifference U -2 +2 :powerdifference Q q 0)"
      "(position :repetitioncount >=12 :powerdifference Q q <=-9))))";
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  const Hits hits = slice.query(script);
  const Hits white_wins = slice.query("(match :result 1-0)");
  EXPECT_EQ(hits, slice.query(script, /*planned=*/true));
  // On the board: material within two pawns and equal queens at p, then White a queen down
  // (queen power difference <= -9) at p + 1 ... p + 12.
  Hits expected;
  slice.for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
    if (!white_wins.count(id)) return;
    auto queens = [](const chess::Position& p) {
      return 9 * (chess::popcount(p.pieces(chess::WHITE, chess::QUEEN)) -
                  chess::popcount(p.pieces(chess::BLACK, chess::QUEEN)));
    };
    for (size_t p = 0; p + 12 < line.size(); ++p) {
      const int material = eval::power(line[p], line[p].pieces(chess::WHITE)) -
                           eval::power(line[p], line[p].pieces(chess::BLACK));
      if (material < -2 || material > 2 || queens(line[p]) != 0) continue;
      bool kept = true;
      for (size_t q = p + 1; q <= p + 12 && kept; ++q) kept = queens(line[q]) <= -9;
      if (kept) expected[id].push_back(uint32_t(p));
    }
  });
  EXPECT_EQ(hits, expected);
  EXPECT_GE(hits.size(), 3u);
}

TEST(EvalNestedCount, Errors) {
  EXPECT_THROW(cqltest::compile("(match (position :and ((position Qd1 :matchcount 1 :repetitioncount 2))))"),
               eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :and ((position Qd1 :matchcount 1 :endmost))))"), eval::CompileError);
  // a bare control keyword in a list nested inside a counted list never fires (eval/control.h)
  EXPECT_THROW(cqltest::compile("(match (position :and ((position Qd1 :matchcount 0 :not (position :skip)))))"),
               eval::CompileError);
}

}  // namespace
