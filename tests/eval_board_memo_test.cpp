// BoardMemo (eval/board_memo.h): a transformed list whose nodes read only piece placement
// (and the side to move, accumulator counters) answers from the thread's last evaluation
// when the inputs are equal. The answers over the first 10,000 games of players-344k are
// the same with the memo on and off, plies included; the memo is built only for lists
// whose nodes it can see all inputs of.
#include <gtest/gtest.h>

#include "eval/board_memo.h"
#include "eval/node.h"
#include "eval_corpus_slice.h"

namespace {

using cqltest::Hits;

constexpr size_t kSliceGames = 10000;

Hits query_with_memo(const std::string& script, bool memo) {
  eval::BoardMemo::set_enabled(memo);
  Hits hits = cqltest::CorpusSlice::get(kSliceGames).query(script, false);
  eval::BoardMemo::set_enabled(true);
  return hits;
}

class BoardMemoCorpus : public testing::TestWithParam<const char*> {};

TEST_P(BoardMemoCorpus, SameAnswersWithAndWithoutTheMemo) {
  const Hits on = query_with_memo(GetParam(), true);
  const Hits off = query_with_memo(GetParam(), false);
  EXPECT_EQ(on, off);
  EXPECT_GT(off.size(), 0u) << "the query should match some games of the slice";
}

INSTANTIATE_TEST_SUITE_P(
    Lists, BoardMemoCorpus,
    testing::Values(
        // accumulators with :accumulate*, :flipcolor (two counters), the sumrange in the list
        "(match (position :or ((position :sumrange counter 3 8 Pd2 :piececount [pP][d3-7] 0"
        " :piececount p[c3-7,e3-7] 0 :shift :flipcolor :accumulate* counter))))",
        // :reset groups (tripled pawns, CQL-Position-List)
        "(match (position :reset acc Pe2 :flipcolor :accumulate* acc :sumrange acc 3 :shiftvertical "
        ":shifthorizontal))",
        // the side to move is an input
        "(match (position :wtm Ra1 .b1 :shift :flipcolor))",
        // power and piece-count differences, empty squares
        "(match (position Qd1 .[d2-7] :powerdifference A a 3 20 :flipcolor :shifthorizontal))",
        "(match (position Nd4 .e6 :piececountdifference [NB] 1 8 :flip))"));

TEST(BoardMemo, BuiltOnlyForPlacementLists) {
  auto designator = [](eval::PieceMask kinds, chess::Bitboard squares) {
    eval::Node n;
    n.op = eval::Op::kDesignator;
    n.d.push_back(eval::Designator{kinds, 0, 0, squares, -1});
    return n;
  };
  const eval::PieceMask white_pawn = eval::piece_bit(chess::WHITE, chess::PAWN);
  std::vector<std::vector<eval::Node>> variants{{designator(white_pawn, 1ull << 11)},
                                                {designator(white_pawn, 1ull << 12)}};
  eval::BoardMemo memo;
  memo.build(variants);
  EXPECT_TRUE(memo.active());
  EXPECT_NE(memo.id(), 0u);

  memo.build({variants[0]});  // one variant: nothing to save
  EXPECT_FALSE(memo.active());

  eval::Node check;
  check.op = eval::Op::kCheck;  // reads attacks: not an input of the memo
  variants[1].push_back(check);
  memo.build(variants);
  EXPECT_FALSE(memo.active());

  variants[1].pop_back();
  eval::Designator tagged{white_pawn, 0, 0, ~chess::Bitboard(0), 0};  // a tagged piece
  variants[1][0].d[0] = tagged;
  memo.build(variants);
  EXPECT_FALSE(memo.active());
}

}  // namespace
