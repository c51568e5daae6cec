// :sequence and :gappedsequence (eval/sequence.h): the reference and seed examples on legal
// games, nesting and transformations, and corpus queries against a brute-force scan written
// directly on chess::Position.
#include <gtest/gtest.h>

#include <map>
#include <span>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"

using cqltest::pos;
using cqltest::run_game;
using Plies = std::vector<uint32_t>;

namespace {

// White: Ka1 Re8 Qf3, Black: Kh7. The queen goes f3-g2 twice.
const std::string kQueenShuffle =
    "[SetUp \"1\"]\n[FEN \"4R3/7k/8/8/8/5Q2/8/K7 w - - 0 1\"]\n\n"
    "1. Qg2 Kh6 2. Qf3 Kh7 3. Qg2 *\n";

TEST(EvalSequence, ReferenceQueenF3ToG2) {
  // CQL-Position-List :sequence: identical in effect to :movefrom Qf3 :moveto .g2.
  const auto r =
      run_game(pos("Re8 :sequence ((position Qf3 .g2) (position .f3 Qg2))"), kQueenShuffle);
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (Plies{0, 4}));
  EXPECT_EQ(run_game(pos("Re8 :movefrom Qf3 :moveto .g2"), kQueenShuffle).plies, r.plies);
  // Qg2 stands at plies 1, 2 and 5; a sequence cannot run past the end of the line (5).
  EXPECT_EQ(run_game(pos(":sequence ((position Qg2) (position Qg2))"), kQueenShuffle).plies,
            (Plies{1}));
  // Qf3 stands at plies 0, 3 and 4: only 3-4 are consecutive.
  EXPECT_EQ(run_game(pos(":sequence ((position Qf3) (position Qf3))"), kQueenShuffle).plies,
            (Plies{3}));
}

TEST(EvalSequence, SeedInitialFrenchSequence) {
  // Seed 000 :line: :initial with a four-element :sequence of moves.
  const std::string script =
      pos(":initial :sequence ((position :movefrom Pe2 :moveto .e4) (position :movefrom pe7 "
          ":moveto .e6)"
          " (position :movefrom Pd2 :moveto .d4) (position :movefrom pd7 :moveto .d5))");
  const auto french = run_game(script, "1. e4 e6 2. d4 d5 3. Nc3 *\n");
  EXPECT_TRUE(french.matched);
  EXPECT_EQ(french.plies, (Plies{0}));
  EXPECT_FALSE(
      run_game(script, "1. d4 d5 2. e4 e6 *\n").matched);        // transposition: not a :sequence
  EXPECT_FALSE(run_game(script, "1. e4 e6 2. d4 *\n").matched);  // line too short
}

TEST(EvalSequence, ReferenceGappedRookA3ThenB4) {
  // CQL-Position-List :gappedsequence: a rook moves from a3, later a rook moves from b4.
  // The rook leaves a3 at ply 4 (3. Rb3) and b4 at ply 8 (5. Rb5).
  const std::string game = "1. a4 e5 2. Ra3 Nc6 3. Rb3 Nf6 4. Rb4 Be7 5. Rb5 *\n";
  const std::string gapped =
      pos(":gappedsequence ((position :movefrom Ra3) (position :movefrom Rb4))");
  const auto r = run_game(gapped, game);
  EXPECT_TRUE(r.matched);
  // "zero or more positions, followed by a position from which a white rook on a3 moves":
  // the match starts at every position up to the one where the first element matches.
  EXPECT_EQ(r.plies, (Plies{0, 1, 2, 3, 4}));
  EXPECT_EQ(run_game(pos(":initial :gappedsequence ((position :movefrom Ra3) (position :movefrom Rb4))"), game).plies,
            (Plies{0}));
  EXPECT_FALSE(
      run_game(pos(":sequence ((position :movefrom Ra3) (position :movefrom Rb4))"), game).matched);
  // Wrong order: no match.
  EXPECT_FALSE(
      run_game(pos(":gappedsequence ((position :movefrom Rb4) (position :movefrom Ra3))"), game)
          .matched);
}

TEST(EvalSequence, SeedGappedKnightLaterOnD4) {
  // Seed 000 :gappedsequence: a knight on d4 in some position after the found one.
  const std::string game = "1. Nf3 Nc6 2. Nd4 Nf6 *\n";  // Nd4 at plies 3 and 4
  const auto r = run_game(pos(":gappedsequence ((position) (position Nd4))"), game);
  EXPECT_EQ(r.plies, (Plies{0, 1, 2, 3}));
  // One element: its last match ends the leading gap (SPEC: gaps before the first element).
  EXPECT_EQ(run_game(pos(":gappedsequence ((position Nd4))"), game).plies, (Plies{0, 1, 2, 3, 4}));
  EXPECT_EQ(run_game(pos(":gappedsequence ((position nc6))"), game).plies, (Plies{0, 1, 2, 3, 4}));
  EXPECT_EQ(run_game(pos(":gappedsequence ((position :movefrom Nf3))"), game).plies, (Plies{0, 1, 2}));
  EXPECT_FALSE(run_game(pos(":gappedsequence ((position Nd5))"), game).matched);
}

TEST(EvalSequence, ReferenceCaptureThenFinal) {
  // CQL-Position-List :halfmovenumber: a capture with the last move of the game.
  const std::string captured = "1. e4 d5 2. exd5 *\n";
  const auto r = run_game(pos(":sequence ((position :moveto U) (position :terminal))"), captured);
  EXPECT_EQ(r.plies, (Plies{2}));
  EXPECT_EQ(run_game(pos(":halfmovenumber end-1 :moveto U"), captured).plies, r.plies);
  EXPECT_FALSE(run_game(pos(":sequence ((position :moveto U) (position :terminal))"),
                        "1. e4 d5 2. exd5 Nf6 *\n")
                   .matched);
}

TEST(EvalSequence, NestedNegatedAndTransformed) {
  const std::string game = "1. a4 e5 2. Ra3 Nc6 3. Rb3 Nf6 4. Rb4 Be7 5. Rb5 *\n";
  // A sequence inside an element of another sequence (3. Rb3 Nf6: knight leaves g8 at ply 5).
  EXPECT_EQ(run_game(pos(":sequence ((position :sequence ((position :movefrom Ra3) (position)))"
                         " (position :movefrom ng8))"),
                     game)
                .plies,
            (Plies{4}));
  // Under :not: every one of the 10 positions except where the rook leaves a3.
  EXPECT_EQ(
      run_game(pos(":not (position :sequence ((position :movefrom Ra3)))"), game).plies.size(), 9u);
  // :flipcolor: the black mirror (a rook leaves a6, later one leaves b5) is found too.
  const std::string black = "1. e4 a5 2. d4 Ra6 3. Nf3 Rb6 4. Nc3 Rb5 5. Bd3 Rb4 *\n";
  const std::string white_only =
      ":gappedsequence ((position :movefrom Ra3) (position :movefrom Rb4))";
  EXPECT_FALSE(run_game(pos(white_only), black).matched);
  EXPECT_EQ(run_game(pos(":flipcolor " + white_only), black).plies, (Plies{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(run_game(pos(":flipcolor " + white_only), game).plies, (Plies{0, 1, 2, 3, 4}));
}

TEST(EvalSequence, SeedMatchConsecutivePromotions) {
  // Seed 000 :matchconsecutive: one side promotes to both minor pieces, one after the other,
  // in either order. White: Kh1, pawns b7 and g7; Black: Ka5, pawn h4.
  const std::string start = "[SetUp \"1\"]\n[FEN \"8/1P4P1/8/k7/7p/8/8/7K w - - 0 1\"]\n\n";
  const std::string script =
      "(match (position :flipcolor :matchconsecutive ((position :promote B) (position)"
      " (position :promote N))))";
  const auto bishop_first = run_game(script, start + "1. b8=B h3 2. g8=N Ka4 *\n");
  EXPECT_TRUE(bishop_first.matched);
  EXPECT_EQ(bishop_first.plies, (Plies{0}));
  EXPECT_EQ(run_game(script, start + "1. b8=N h3 2. g8=B Ka4 *\n").plies, (Plies{0}));
  EXPECT_FALSE(run_game(script, start + "1. b8=N h3 2. g8=N Ka4 *\n").matched);  // both knights
  EXPECT_FALSE(
      run_game(script, start + "1. b8=B h3 2. Kg1 Ka4 3. g8=N *\n").matched);  // not successive
  // Black's mirror image (a black pawn promotes on the first rank twice).
  const std::string black = "[SetUp \"1\"]\n[FEN \"7k/8/8/P7/K7/8/1p4p1/8 b - - 0 1\"]\n\n";
  EXPECT_EQ(run_game(script, black + "1... b1=N 2. a6 g1=B *\n").plies, (Plies{0}));
  // The same elements as a :sequence must come in the written order.
  EXPECT_FALSE(run_game(pos(":sequence ((position :promote B) (position) (position :promote N))"),
                        start + "1. b8=N h3 2. g8=B Ka4 *\n")
                   .matched);
}

TEST(EvalSequence, MatchIsAMatchListOverTheLine) {
  // CQL-Position-List :match: like (match (position A) (position B)) inside a position list.
  const std::string game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *\n";  // 7 positions
  EXPECT_EQ(run_game(pos(":match ((position Bb5) (position pa6))"), game).plies.size(), 7u);
  EXPECT_FALSE(run_game(pos(":match ((position Bb5) (position pa5))"), game).matched);
  // With :and it restricts another list's positions to games where both occur.
  EXPECT_EQ(
      run_game(pos(":and ((position Nf3) (position :match ((position Bb5) (position pa6))))"), game)
          .plies,
      (Plies{3, 4, 5, 6}));
}

// ---- corpus: sequence queries against a brute-force scan

/// Facts of one main-line position, enough for the brute-force checks.
struct Fact {
  bool check = false;       ///< side to move in check
  bool mate = false;        ///< side to move mated
  bool queen_move = false;  ///< the next move is made by a white queen
};

class EvalSequenceCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-seq", {cqltest::corpus_file("mates.pgn"), cqltest::corpus_file("studies.pgn")});
    facts_ = new std::map<uint32_t, std::vector<Fact>>;
    db_->for_each_line([](uint32_t id, std::span<const chess::Position> positions,
                          std::span<const chess::Move> moves) {
      std::vector<Fact>& line = (*facts_)[id];
      for (size_t ply = 0; ply < positions.size(); ++ply) {
        const chess::Position& p = positions[ply];
        Fact f;
        f.check = p.in_check();
        f.mate = f.check && !chess::has_legal_move(p);
        if (ply < moves.size()) {
          const chess::Move m = moves[ply];
          f.queen_move = m != chess::Move::null() && p.piece_on(m.from_sq()) == chess::W_QUEEN;
        }
        line.push_back(f);
      }
    });
  }

  static void TearDownTestSuite() {
    delete db_;
    delete facts_;
  }

  using Hits = cqltest::Hits;

  static Hits query(const std::string& script) { return db_->query(script); }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline std::map<uint32_t, std::vector<Fact>>* facts_ = nullptr;
};

TEST_F(EvalSequenceCorpus, CheckTwoPliesLater) {
  Hits expected;
  for (const auto& [id, line] : *facts_)
    for (size_t p = 0; p + 2 < line.size(); ++p)
      if (line[p].check && line[p + 2].check) expected[id].push_back(uint32_t(p));
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query(pos(":sequence ((position :check) (position) (position :check))")), expected);
}

TEST_F(EvalSequenceCorpus, QueenMoveThenCheckThenMateWithGaps) {
  Hits expected;
  for (const auto& [id, line] : *facts_) {
    const size_t n = line.size();
    // the last ply p0 starting a queen move, a later check and a later mate; the sequence
    // starts at every ply up to p0 (the leading gap)
    long last = -1;
    for (size_t p = 0; p < n; ++p) {
      if (!line[p].queen_move) continue;
      bool found = false;
      for (size_t q = p + 1; q < n && !found; ++q)
        for (size_t r = q + 1; r < n && !found; ++r) found = line[q].check && line[r].mate;
      if (found) last = long(p);
    }
    for (long p = 0; p <= last; ++p) expected[id].push_back(uint32_t(p));
  }
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(
      query(pos(":gappedsequence ((position :movefrom Q) (position :check) (position :mate))")),
      expected);
}

}  // namespace
