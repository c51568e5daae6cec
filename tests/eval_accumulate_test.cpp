// :accumulate / :accumulate* / :sumrange (CQL-Position-List "Accumulator keywords",
// seed 004, CQL-Examples "Using accumulators to count passed pawns"): at each position the
// accumulating lists are counted first (one per matching transformation variant), then the
// lists are evaluated and :sumrange reads the counters. The passed-pawn examples run on the
// first games of players-344k and are compared with passed pawns counted on the board.
#include <gtest/gtest.h>

#include "eval_corpus_slice.h"
#include "eval_test_util.h"

namespace {

using cqltest::Hits;
using cqltest::plies;
using cqltest::Plies;

constexpr size_t kSliceGames = 10000;

/// Passed pawns of colour `c` as the seed 004 example defines them: no pawn of either
/// colour ahead on its file, no opponent pawn ahead on a neighbouring file. Counted square by
/// square.
int passed_pawns(const chess::Position& p, chess::Color c) {
  const chess::Piece own = chess::make_piece(c, chess::PAWN);
  const chess::Piece enemy = chess::make_piece(chess::Color(c ^ 1), chess::PAWN);
  const int step = c == chess::WHITE ? 1 : -1;
  int n = 0;
  for (int f = 0; f < 8; ++f)
    for (int r = 0; r < 8; ++r) {
      if (p.piece_on(chess::make_square(chess::File(f), chess::Rank(r))) != own) continue;
      bool passed = true;
      for (int rr = r + step; rr >= 0 && rr < 8 && passed; rr += step)
        for (int ff = f - 1; ff <= f + 1; ++ff) {
          if (ff < 0 || ff > 7) continue;
          const chess::Piece q = p.piece_on(chess::make_square(chess::File(ff), chess::Rank(rr)));
          if (q == enemy || (ff == f && q == own)) passed = false;
        }
      n += passed;
    }
  return n;
}

/// The plies of each game where `pred` holds.
Hits brute_force(const std::function<bool(const chess::Position&)>& pred) {
  Hits hits;
  cqltest::CorpusSlice::get(kSliceGames).for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
    for (uint32_t ply = 0; ply < line.size(); ++ply)
      if (pred(line[ply])) hits[id].push_back(ply);
  });
  return hits;
}

Hits query(const std::string& script, bool planned = false) {
  return cqltest::CorpusSlice::get(kSliceGames).query(script, planned);
}

const char* kWhitePassers =
    "(position Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 :shift :accumulate w)";
const char* kBlackPassers =
    "(position pd7 :piececount [pP][d2-6] 0 :piececount P[c2-6,e2-6] 0 :shift :accumulate b)";

TEST(EvalAccumulate, AtLeastThreeWhitePassedPawns) {
  // CQL-Examples: the :sumrange in the accumulating list itself.
  const Hits hits = query(
      "(match (position Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 :shift"
      " :accumulate white_passer_counter :sumrange white_passer_counter 3 8))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) { return passed_pawns(p, chess::WHITE) >= 3; }));
  EXPECT_GT(hits.size(), 100u);
}

TEST(EvalAccumulate, ThreeWhiteAndTwoBlackPassersSumRangeBeforeTheLists) {
  // CQL-Examples: the :sumrange keywords come before the :and that accumulates.
  const std::string script = std::string("(match (position :sumrange w 3 8 :sumrange b 2 8 :and (") +
                             kWhitePassers + " " + kBlackPassers + ")))";
  const Hits hits = query(script);
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              return passed_pawns(p, chess::WHITE) >= 3 && passed_pawns(p, chess::BLACK) >= 2;
            }));
  EXPECT_GT(hits.size(), 10u);
  EXPECT_EQ(hits, query(script, /*planned=*/true));
}

TEST(EvalAccumulate, StarCountsEachColourSeparately) {
  // CQL-Examples "Find positions with at least three passed pawns": :flipcolor with
  // :accumulate* keeps a white and a black counter.
  const Hits hits = query(
      "(match (position :or ((position :sumrange counter 3 8 Pd2 :piececount [pP][d3-7] 0"
      " :piececount p[c3-7,e3-7] 0 :shift :flipcolor :accumulate* counter))))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              return passed_pawns(p, chess::WHITE) >= 3 || passed_pawns(p, chess::BLACK) >= 3;
            }));
}

TEST(EvalAccumulate, PlainAccumulateAddsBothColoursUnderFlipColor) {
  // seed 004: "the accumulator is not cleared between color flips".
  const Hits hits = query(
      "(match (position :sumrange n 4 16 :and ((position Pd2 :piececount [pP][d3-7] 0"
      " :piececount p[c3-7,e3-7] 0 :shift :flipcolor :accumulate n))))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              return passed_pawns(p, chess::WHITE) + passed_pawns(p, chess::BLACK) >= 4;
            }));
}

TEST(EvalAccumulate, CountsMatchingVariantsPerPosition) {
  // White pawns on the second rank: eight at the start, seven after 1. e4.
  const char* kRank2 = "(position Pd2 :shifthorizontal :accumulate p2)";
  EXPECT_EQ(plies(std::string(":sumrange p2 8 :and (") + kRank2 + ")", "1. e4 e5 2. d4 *"), (Plies{0}));
  EXPECT_EQ(plies(std::string(":sumrange p2 7 :and (") + kRank2 + ")", "1. e4 e5 2. d4 *"), (Plies{1, 2}));
  EXPECT_EQ(plies(std::string(":sumrange p2 6 :and (") + kRank2 + ")", "1. e4 e5 2. d4 *"), (Plies{3}));
  // Inside :not the list is still counted (the counting does not depend on the context).
  EXPECT_EQ(plies(std::string(":sumrange p2 7 :not (position :not ") + kRank2 + ")", "1. e4 e5 2. d4 *"), (Plies{1, 2}));
  // The counter restarts at every position.
  EXPECT_EQ(plies(std::string(":sumrange p2 0 :or (") + kRank2 + " (position))", "1. e4 *"), (Plies{}));
}

TEST(EvalAccumulate, SumRangeInSequenceElementsOnTheCorpus) {
  // The counters of every ply are counted before the sequences are decided: no white passed
  // pawn at q >= p (the leading gap), two or more at a later ply.
  const std::string script = std::string("(match (position :gappedsequence ((position :sumrange w 0) "
                                         "(position :sumrange w 2 8)) :or (") + kWhitePassers + " (position))))";
  const Hits hits = query(script);
  Hits expected;
  cqltest::CorpusSlice::get(kSliceGames).for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
    bool later = false;  // some ply after p has two or more
    std::vector<uint32_t> plies;
    for (uint32_t p = uint32_t(line.size()); p-- > 0;) {
      const int n = passed_pawns(line[p], chess::WHITE);
      if (n == 0 && later) {  // the last start: the sequence starts at every ply up to it
        for (uint32_t q = 0; q <= p; ++q) plies.push_back(q);
        break;
      }
      later |= n >= 2;
    }
    if (!plies.empty()) expected[id] = plies;
  });
  EXPECT_EQ(hits, expected);
  EXPECT_GT(hits.size(), 100u);
}

TEST(EvalAccumulate, Errors) {
  EXPECT_THROW(cqltest::compile("(match (position :sumrange nowhere 1))"), eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position Pa2 :shift :accumulate a :and ((position :accumulate* a))))"),
               eval::CompileError);
  // :reset names an accumulator the list itself accumulates; a reset accumulator is used
  // only in its list (eval/accumulator.h ResetPlan)
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :shiftvertical :and ((position :accumulate a))))"),
               eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :reset a Pe2 :accumulate a :shiftvertical) (position :sumrange a 1))"),
               eval::CompileError);
  // a ply's counters would depend on a sequence not decided yet
  EXPECT_THROW(cqltest::compile("(match (position :accumulate a :sequence ((position) (position :sumrange a 2))))"),
               eval::CompileError);
}

}  // namespace
