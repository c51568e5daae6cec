// planner::derive, planner::simplify and the posting plan (planner/condition.h,
// planner/postings_plan.h) on their own: small programs compiled from CQL text, asserting
// the derived conditions (by Condition::describe) and the posting candidates of a small
// database built from PGN written here.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "db/database.h"
#include "eval_test_util.h"
#include "import/importer.h"
#include "index/postings.h"
#include "planner/condition.h"
#include "planner/postings_plan.h"
#include "temp_dir.h"

namespace {

using planner::CondOp;
using planner::Condition;

/// The condition derived from the first top-level position list of `script`.
Condition derived(const std::string& script) {
  eval::Program program = cqltest::compile(script);
  return planner::derive(*program.alternatives().at(0).lists.at(0));
}

std::string derived_text(const std::string& script) { return derived(script).describe(); }

Condition leaf(CondOp op) {
  Condition c;
  c.op = op;
  return c;
}

Condition node(CondOp op, std::vector<Condition> kids) {
  Condition c = leaf(op);
  c.kids = std::move(kids);
  return c;
}

TEST(PlannerDerive, PieceOnSquares) {
  EXPECT_EQ(derived_text("(match (position Ra3))"), "ever(Ra3)");
  EXPECT_EQ(derived_text("(match (position [Qq]h7))"), "ever([Qq]h7)");
  // a designator that also accepts empty squares says nothing
  EXPECT_EQ(derived_text("(match (position [R.]a3))"), "true");
}

TEST(PlannerDerive, FinalPositionKeywords) {
  EXPECT_EQ(derived_text("(match (position :mate))"), "final position mate");
  // :mate moves the designators to the final position (or null moves make it unknowable);
  // the nodes are in evaluation order (Ra8 before the expensive :mate)
  EXPECT_EQ(derived_text("(match (position :mate Ra8 :btm))"),
            "final(Ra8) and final position mate and final side to move black");
}

TEST(PlannerDerive, MaterialOfOneVariantIsOneRun) {
  // two counts of one position hold in one material run together
  EXPECT_EQ(derived_text("(match (position :piececount Q 0 :piececount R 2))"),
            "one material run with {material count Q in 0..0, material count R in 2..2}");
  EXPECT_EQ(derived_text("(match (position :piececount Q 1 3))"), "material count Q in 1..3");
  // a count on a part of the board: only a lower bound, and a piece on those squares
  EXPECT_EQ(derived_text("(match (position :piececount Ra? 1 2))"),
            "ever(R[a1,a2,a3,a4,a5,a6,...(8)]) and material count R >= 1");
}

TEST(PlannerDerive, NegationAndTransformations) {
  EXPECT_EQ(derived_text("(match (position !:check))"), "true");
  EXPECT_EQ(derived_text("(match (position :not Ra3))"), "true");
  // :flipcolor: one variant per colour, either may hold
  EXPECT_EQ(derived_text("(match (position :flipcolor Ra3))"), "ever(Ra3) or ever(ra6)");
}

TEST(PlannerDerive, MovesAndGameInformation) {
  EXPECT_EQ(derived_text("(match (position :enpassant))"), "en passant played");
  EXPECT_EQ(derived_text("(match (position :promote [RBN]))"), "promotion to [RBN]");
  EXPECT_EQ(derived_text("(match (position :movenumber 20 30))"), "move number in 20..30");
  // :iscastling with :movenumber in one variant: also castled from a position in the range
  const Condition c = derived("(match (position :iscastling Q :movenumber >=20))");
  EXPECT_EQ(c.describe(),
            "castled (rights 2) and move number in 20..inf and castled (rights 2) at move number in 20..inf");
  EXPECT_FALSE(c.needs_game_info());
  const Condition result = derived("(match (position :result 1-0))");
  EXPECT_EQ(result.op, CondOp::kResult);
  EXPECT_TRUE(result.needs_game_info());
}

TEST(PlannerDerive, LogicKeywords) {
  EXPECT_EQ(derived_text("(match (position :or ((position :mate) (position :stalemate))))"),
            "final position mate or final position stalemate");
  EXPECT_EQ(derived_text("(match (position :and ((position Ra3) (position :enpassant))))"),
            "ever(Ra3) and en passant played");
  // engine and exchange values follow from no signature
  EXPECT_EQ(derived_text("(match (position :maxswapevaluation N q 1 9))"), "true");
}

TEST(PlannerSimplify, NeutralAndAbsorbingElements) {
  const Condition mate = leaf(CondOp::kFinalMate), ep = leaf(CondOp::kEnPassant);
  EXPECT_EQ(planner::simplify(node(CondOp::kAnd, {leaf(CondOp::kTrue), mate})).describe(), "final position mate");
  EXPECT_EQ(planner::simplify(node(CondOp::kOr, {leaf(CondOp::kFalse), ep})).describe(), "en passant played");
  EXPECT_EQ(planner::simplify(node(CondOp::kAnd, {mate, leaf(CondOp::kFalse)})).op, CondOp::kFalse);
  EXPECT_EQ(planner::simplify(node(CondOp::kOr, {mate, leaf(CondOp::kTrue)})).op, CondOp::kTrue);
  EXPECT_EQ(planner::simplify(node(CondOp::kAnd, {})).op, CondOp::kTrue);
  EXPECT_EQ(planner::simplify(node(CondOp::kOr, {})).op, CondOp::kFalse);
  EXPECT_EQ(planner::simplify(node(CondOp::kAnd, {leaf(CondOp::kTrue), leaf(CondOp::kTrue)})).op, CondOp::kTrue);
}

TEST(PlannerSimplify, FlattensNestedOps) {
  const Condition mate = leaf(CondOp::kFinalMate), ep = leaf(CondOp::kEnPassant), check = leaf(CondOp::kAnyCheck);
  const Condition c = planner::simplify(node(CondOp::kAnd, {mate, node(CondOp::kAnd, {ep, check})}));
  ASSERT_EQ(c.op, CondOp::kAnd);
  EXPECT_EQ(c.kids.size(), 3u);
  EXPECT_EQ(c.describe(), "final position mate and en passant played and some check");
  // an or inside an and stays (bracketed), its neutral kids gone
  const Condition d = planner::simplify(node(CondOp::kAnd, {mate, node(CondOp::kOr, {ep, leaf(CondOp::kFalse), check})}));
  EXPECT_EQ(d.describe(), "final position mate and (en passant played or some check)");
}

/// A database of four games written here: 1 fool's mate, 2 an en-passant capture,
/// 3 a promotion to a queen, 4 a quiet draw; postings.bin is built by the import.
class PostingsPlanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("postings-plan");
    const std::string pgn = (tmp_->path / "four.pgn").string();
    std::ofstream(pgn, std::ios::binary)
        << "[White \"A\"]\n[Black \"B\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n"
           "[White \"C\"]\n[Black \"D\"]\n[Result \"*\"]\n\n1. e4 a6 2. e5 d5 3. exd6 *\n\n"
           "[White \"E\"]\n[Black \"F\"]\n[Result \"*\"]\n\n1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Rg8 5. h8=Q *\n\n"
           "[White \"G\"]\n[Black \"H\"]\n[Result \"1/2-1/2\"]\n\n1. Nf3 Nf6 2. Ng1 Ng8 1/2-1/2\n\n";
    db::Database database = db::Database::create_or_open(tmp_->db());
    const import::ImportSummary summary = import::import_files(database, {pgn}, import::ImportOptions{}, nullptr);
    ASSERT_EQ(summary.imported, 4u);
    postings_ = new sig::Postings(*sig::Postings::open(tmp_->db()));
  }
  static void TearDownTestSuite() {
    delete postings_;
    delete tmp_;
  }

  /// The posting candidates of the script's first list; {0} when the postings cannot narrow.
  static std::vector<uint32_t> candidates(const std::string& script) {
    auto ids = planner::posting_candidates(planner::simplify(derived(script)), *postings_, 4);
    return ids ? *ids : std::vector<uint32_t>{0};
  }

  static cqltest::TempDir* tmp_;
  static sig::Postings* postings_;
};

cqltest::TempDir* PostingsPlanTest::tmp_ = nullptr;
sig::Postings* PostingsPlanTest::postings_ = nullptr;

TEST_F(PostingsPlanTest, FlagsPromotionsAndSquares) {
  using Ids = std::vector<uint32_t>;
  EXPECT_EQ(candidates("(match (position :mate))"), Ids({1}));
  EXPECT_EQ(candidates("(match (position :enpassant))"), Ids({2}));
  EXPECT_EQ(candidates("(match (position :promote Q))"), Ids({3}));
  EXPECT_EQ(candidates("(match (position :promote [RBN]))"), Ids({}));
  EXPECT_EQ(candidates("(match (position Qh4))"), Ids({}));  // game 1's queen on h4 is black
  EXPECT_EQ(candidates("(match (position qh4))"), Ids({1}));
  EXPECT_EQ(candidates("(match (position Qh8))"), Ids({3}));
}

TEST_F(PostingsPlanTest, UnionAndIntersection) {
  using Ids = std::vector<uint32_t>;
  EXPECT_EQ(candidates("(match (position :or ((position :mate) (position :enpassant))))"), Ids({1, 2}));
  EXPECT_EQ(candidates("(match (position :and ((position :mate) (position :enpassant))))"), Ids({}));
  EXPECT_EQ(candidates("(match (position :and ((position :enpassant) (position Ph7))))"), Ids({}));
  EXPECT_EQ(candidates("(match (position :and ((position :promote Q) (position Ph7))))"), Ids({3}));
}

TEST_F(PostingsPlanTest, NothingToNarrow) {
  // no posting says anything about these: every game (nullopt)
  EXPECT_EQ(candidates("(match (position :wtm))"), std::vector<uint32_t>{0});
  EXPECT_FALSE(planner::uses_postings(derived("(match (position !:mate))")));
  EXPECT_TRUE(planner::uses_postings(derived("(match (position :mate))")));
}

}  // namespace

namespace {

/// The condition derived from the first top-level list of `script`, with the alternative's
/// accumulating lists known (as planner::Plan::make derives them).
std::string derived_with_accumulators(const std::string& script) {
  eval::Program program = cqltest::compile(script);
  const eval::Alternative& alt = program.alternatives().at(0);
  const planner::AccumulatingScope scope(alt.accumulating);
  return planner::derive(*alt.lists.at(0)).describe();
}

}  // namespace

TEST(PlannerDerive, SumRangeFromOneNeedsAnAccumulatingList) {
  // Two white rooks on the 7th rank, counted by a list the :or does not require: the
  // :sumrange needs it to match (some rook stood on the 7th rank).
  const std::string rooks = "(match (position :sumrange r 2 8 :or ((position Rh7 :shifthorizontal :accumulate r) "
                            "(position))))";
  const std::string needed = derived_with_accumulators(rooks);
  EXPECT_NE(needed, "true");
  EXPECT_NE(needed.find("R"), std::string::npos) << needed;
  // without the accumulating lists nothing is known; a range admitting 0 says nothing
  EXPECT_EQ(derived_text(rooks), "true");
  EXPECT_EQ(derived_with_accumulators("(match (position :sumrange r 0 8 :or ((position Rh7 :shifthorizontal "
                                      ":accumulate r) (position))))"),
            "true");
}
