// Pawn structure queries end to end on the real corpus: ../shared/corpus/studies.pgn is
// imported into a temporary database, query::execute runs a :pawncount query, and the matched
// plies are compared with a brute-force computation written here directly on the board
// (square by square, without the bitboard code of eval/pawn_structure.cpp).
#include <gtest/gtest.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "eval_corpus_db.h"

namespace {

using cqltest::Hits;

/// Pawns of colour `c` on file `f` (0 = a), counted square by square.
int pawns_on_file(const chess::Position& p, chess::Color c, int f) {
  if (f < 0 || f > 7) return 0;
  int n = 0;
  for (int r = 0; r < 8; ++r)
    n += p.piece_on(chess::make_square(chess::File(f), chess::Rank(r))) ==
         chess::make_piece(c, chess::PAWN);
  return n;
}

/// True if the pawn of colour `c` on (f, r) has no opponent pawn ahead on its file or the
/// neighbouring files.
bool is_passed(const chess::Position& p, chess::Color c, int f, int r) {
  const int step = c == chess::WHITE ? 1 : -1;
  for (int rr = r + step; rr >= 0 && rr < 8; rr += step)
    for (int ff = f - 1; ff <= f + 1; ++ff)
      if (ff >= 0 && ff < 8 &&
          p.piece_on(chess::make_square(chess::File(ff), chess::Rank(rr))) ==
              chess::make_piece(chess::Color(c ^ 1), chess::PAWN))
        return false;
  return true;
}

class PawnCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("pawn-corpus", {cqltest::corpus_file("studies.pgn")});
  }

  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  static Hits query(const std::string& script) { return db_->query(script); }

  /// Runs `script` with the planner's filter (when it prunes at all).
  static Hits query_planned(const std::string& script) { return db_->query(script, true); }

  static Hits brute_force(const std::function<bool(const chess::Position&)>& pred) {
    Hits hits;
    db_->for_each_line([&](uint32_t id, std::span<const chess::Position> positions) {
      for (size_t ply = 0; ply < positions.size(); ++ply)
        if (pred(positions[ply])) hits[id].push_back(uint32_t(ply));
    });
    return hits;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
};

TEST_F(PawnCorpus, IsolatedQueenPawn) {
  const Hits hits = query("(match (position :pawncount P[d?] isolated >0))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              return pawns_on_file(p, chess::WHITE, 3) > 0 &&
                     pawns_on_file(p, chess::WHITE, 2) == 0 &&
                     pawns_on_file(p, chess::WHITE, 4) == 0;
            }));
  EXPECT_FALSE(hits.empty());
}

TEST_F(PawnCorpus, DoubledIsolatedPawnsEitherColour) {
  const Hits hits = query("(match (position :pawncount [Pp] isolated-double >0))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              for (chess::Color c : {chess::WHITE, chess::BLACK})
                for (int f = 0; f < 8; ++f)
                  if (pawns_on_file(p, c, f) >= 2 && pawns_on_file(p, c, f - 1) == 0 &&
                      pawns_on_file(p, c, f + 1) == 0)
                    return true;
              return false;
            }));
  EXPECT_FALSE(hits.empty());
  EXPECT_EQ(hits, query("(match (position :flipcolor :pawncount P isolated-double >0))"));
}

TEST_F(PawnCorpus, PassedPawnsOnBothWings) {
  const Hits hits = query("(match (position :flipcolor :pawncount P passed-bothsides >0))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              for (chess::Color c : {chess::WHITE, chess::BLACK}) {
                bool queen_side = false, king_side = false;
                for (int f = 0; f < 8; ++f)
                  for (int r = 0; r < 8; ++r)
                    if (p.piece_on(chess::make_square(chess::File(f), chess::Rank(r))) ==
                            chess::make_piece(c, chess::PAWN) &&
                        is_passed(p, c, f, r))
                      (f < 4 ? queen_side : king_side) = true;
                if (queen_side && king_side) return true;
              }
              return false;
            }));
  EXPECT_FALSE(hits.empty());
}

TEST_F(PawnCorpus, PassedPawnCountsAgreeWithTwoRanges) {
  // White exactly one passed pawn and Black none, as `1 : 0`, as :pawncountdifference, and
  // by brute force.
  const Hits hits = query("(match (position :pawncount [Pp] passed 1 : 0))");
  EXPECT_EQ(hits, brute_force([](const chess::Position& p) {
              int n[2] = {0, 0};
              for (chess::Color c : {chess::WHITE, chess::BLACK})
                for (int f = 0; f < 8; ++f)
                  for (int r = 0; r < 8; ++r)
                    if (p.piece_on(chess::make_square(chess::File(f), chess::Rank(r))) ==
                            chess::make_piece(c, chess::PAWN) &&
                        is_passed(p, c, f, r))
                      ++n[c];
              return n[0] == 1 && n[1] == 0;
            }));
  EXPECT_FALSE(hits.empty());
}

TEST_F(PawnCorpus, PlannerNeverChangesPawnStructureResults) {
  for (const char* script :
       {"(match (position :pawncount P[d?] isolated >0 :piececount [Qq] 0))",
        "(match (position :flipcolor :pawncount P?4 stoppable-!blocked-duo! >0))",
        "(match (position :goodbishop [Bb] <=30% : <=20%))",
        "(match (position :opposition K :piececount [QqRrBbNn] 0))",
        "(match (position :unstoppablepawns [Pp] >0 :perpendicular [QRB] [qrb]))",
        "(match (position :pawncountdifference [Pp] passed-lines >=2))",
        // the pawn-structure queries of bench/bench_query.cpp
        "(match (position :flipcolor :pawncount P[d?] isolated >0 :movenumber >=15))",
        "(match (position :pawncount [Pp] isolated-double >0))",
        "(match (position :flipcolor :pawncount P passed-bothsides >0))",
        "(match (position :goodbishop [Bb] <=30% : <=20% :piececount [QqRrNn] 0))"})
    EXPECT_EQ(query_planned(script), query(script)) << script;
}

}  // namespace
