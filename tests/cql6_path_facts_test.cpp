// What a path search may leave out (eval/cql6_path_facts.h, SPEC-NOTES "Published examples:
// path and dashes", Saving work): which dash every way starts with, which sets are pure, and
// the move-level tests of a dash. The answers of the searches that use them are checked
// against CQL 6.2 by tests/cql6_fixture_test.cpp (tests/cql6/scripts-part2/ex_path_skip_*.cql).
#include <gtest/gtest.h>

#include <string>

#include "chess/position.h"
#include "cql6/parser.h"
#include "eval/cql6_path_facts.h"

namespace {

using chess::Move;
using chess::Position;
using cql6::Kind;
using cql6::Node;
namespace facts = eval::cql6_path_facts;

/// The first path node of `n` (depth first), or null.
const Node* find_path(const Node& n) {
  if (n.kind == Kind::kPathFilter) return &n;
  for (const Node& k : n.kids)
    if (const Node* p = find_path(k)) return p;
  return nullptr;
}

const Node* path_of(const cql6::Script& s) {
  for (const Node& n : s.body)
    if (const Node* p = find_path(n)) return p;
  return nullptr;
}

TEST(Cql6PathFacts, TheFirstDashAfterPureHolders) {
  const cql6::Script s = cql6::parse("cql() ⊢ check ♘――e4 ――* ♙――=♕ ▲×△");
  const Node* p = path_of(s);
  ASSERT_NE(p, nullptr);
  const facts::Facts& f = facts::facts_of(*p, 0);
  EXPECT_TRUE(f.starts_dash);
  ASSERT_NE(f.first, nullptr);
  EXPECT_EQ(f.first->kind, Kind::kDash);
  EXPECT_EQ(f.first->kids[0].kind, Kind::kDesignator);  // ♘
  EXPECT_TRUE(f.focus_pure);
  EXPECT_TRUE(f.first_pure);
  EXPECT_EQ(f.pure.size(), 2u);  // the promotion and the capture may test their flags first
}

TEST(Cql6PathFacts, SideEffectsKeepEveryEvaluation) {
  // a holder with an assignment before the first dash: the start is not refused early
  const cql6::Script a = cql6::parse("cql() X = 0\n⊢ {X = 1 check} ♘―― ――");
  ASSERT_NE(path_of(a), nullptr);
  EXPECT_FALSE(facts::facts_of(*path_of(a), 0).starts_dash);
  // a repetition that may be empty: not every way starts with a dash
  const cql6::Script b = cql6::parse("cql() ⊢ (♘――)* check");
  ASSERT_NE(path_of(b), nullptr);
  EXPECT_FALSE(facts::facts_of(*path_of(b), 0).starts_dash);
  // a group repeated at least once starts with its first dash
  const cql6::Script c = cql6::parse("cql() ⊢ (♘―― ――){2,} check");
  ASSERT_NE(path_of(c), nullptr);
  const facts::Facts& fc = facts::facts_of(*path_of(c), 0);
  EXPECT_TRUE(fc.starts_dash);
  ASSERT_NE(fc.first, nullptr);
  EXPECT_EQ(fc.first->kids[0].kind, Kind::kDesignator);
}

TEST(Cql6PathFacts, MoveLevelTests) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1").ok());
  const Move castle = Move::make(chess::SQ_E1, chess::SQ_H1, Move::CASTLING);  // king takes rook
  EXPECT_EQ(facts::origins(pos, castle), chess::square_bb(chess::SQ_E1) | chess::square_bb(chess::SQ_H1));
  EXPECT_EQ(facts::destinations(pos, castle, false), chess::square_bb(chess::SQ_G1) | chess::square_bb(chess::SQ_F1));
  EXPECT_EQ(facts::destinations(pos, castle, true), 0u);  // a castling captures nothing
  const Move ep = Move::make(chess::SQ_E5, chess::SQ_D6, Move::EN_PASSANT);
  EXPECT_EQ(facts::captured_square(pos, ep), int(chess::SQ_D5));
  EXPECT_EQ(facts::destinations(pos, ep, true), chess::square_bb(chess::SQ_D5));
  EXPECT_EQ(facts::origins(pos, Move::null()), chess::square_bb(chess::SQ_E1));  // the mover's king
  EXPECT_FALSE(facts::null_unfit(pos, Move::null()));

  // `――=♕` and `×`: their flags decide before their sets
  const cql6::Script s = cql6::parse("cql() ⊢ ♙――=♕ ▲×△");
  const Node* p = path_of(s);
  ASSERT_NE(p, nullptr);
  const facts::Facts& f = facts::facts_of(*p, 0);
  ASSERT_EQ(f.pure.size(), 2u);
  const Node& promote = *f.pure[0];
  const Node& capture = *f.pure[1];
  const Move to_queen = Move::make(chess::SQ_B7, chess::SQ_B8, Move::PROMOTION, chess::QUEEN);
  const Move to_knight = Move::make(chess::SQ_B7, chess::SQ_B8, Move::PROMOTION, chess::KNIGHT);
  EXPECT_TRUE(facts::flags_may_fit(promote, pos, to_queen));
  EXPECT_FALSE(facts::flags_may_fit(promote, pos, to_knight));
  EXPECT_FALSE(facts::flags_may_fit(promote, pos, castle));
  EXPECT_FALSE(facts::flags_may_fit(promote, pos, Move::null()));
  EXPECT_TRUE(facts::flags_may_fit(capture, pos, ep));
  EXPECT_FALSE(facts::flags_may_fit(capture, pos, castle));
  EXPECT_FALSE(facts::flags_may_fit(capture, pos, Move::make(chess::SQ_A1, chess::SQ_A2)));
  EXPECT_TRUE(facts::flags_may_fit(capture, pos, Move::make(chess::SQ_A1, chess::SQ_A8)));
}

}  // namespace
