// The evaluation order of a conjunction (eval::order_by_cost, eval/node.h) taken from the
// keyword table's cost column (cql/keywords.h): cheap tests first, the written order kept
// within a class and for a list with an item of class kOrdered.
#include <gtest/gtest.h>

#include <vector>

#include "cql/keywords.h"
#include "eval_test_util.h"

namespace {

using eval::Op;

/// The ops of the first variant of the first top-level list of `script`, in evaluation order.
std::vector<Op> ops(const std::string& script) {
  const eval::Program program = cqltest::compile(script);
  std::vector<Op> out;
  for (const eval::Node& n : program.alternatives().at(0).lists.at(0)->variants.at(0)) out.push_back(n.op);
  return out;
}

TEST(CostOrder, CheapBeforeMediumBeforeExpensive) {
  EXPECT_EQ(ops("(match (position :attackcount N k 1 :piececount N 1 :btm))"),
            (std::vector<Op>{Op::kBtm, Op::kPieceCount, Op::kAttackCount}));
  // :check alone is medium, with a designator expensive; a designator is medium
  EXPECT_EQ(ops("(match (position :check N :movenumber 10 20 Ra1 :check))"),
            (std::vector<Op>{Op::kMoveNumber, Op::kDesignator, Op::kCheck, Op::kCheck}));
}

TEST(CostOrder, OrderedItemsKeepTheWrittenOrder) {
  EXPECT_EQ(ops("(match (position :attackcount N k 1 :or ((position :mate)) :btm))"),
            (std::vector<Op>{Op::kAttackCount, Op::kOr, Op::kBtm}));
}

TEST(CostOrder, TableColumns) {
  using cql::Cost;
  using cql::Keyword;
  EXPECT_EQ(cql::keyword_info(Keyword::Btm).cost, Cost::kCheap);
  EXPECT_EQ(cql::keyword_info(Keyword::PieceCount).cost, Cost::kMedium);
  EXPECT_EQ(cql::keyword_info(Keyword::Ray).cost, Cost::kExpensive);
  EXPECT_EQ(cql::keyword_info(Keyword::Evaluation).cost, Cost::kOrdered);
  EXPECT_TRUE(cql::keyword_info(Keyword::IsMate).lookahead);
  EXPECT_FALSE(cql::keyword_info(Keyword::Mate).lookahead);
}

}  // namespace
