// CQL 6 forms of CQL 6.2's published examples (SPEC-NOTES "Published examples: values,
// parameters, output (exvalues)"): how they parse, what CQL 6.2 refuses (located errors),
// and small answers on the bundled sample checked against equivalent scripts. CQL 6.2's own
// games for the ex_values_* scripts: tests/cql6_fixture_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cql6/parser.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"
#include "cql6_test_util.h"

namespace {

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";


TEST(Cql6ExValuesParse, HeaderParametersAndForms) {
  const cql6::Script s = cql6::parse("cql(sort matchcount 3 10 matchstring \"\" gamenumber 5 9) check");
  EXPECT_TRUE(s.header.sort_matchcount);
  EXPECT_EQ(s.header.matchcount_lo, 3);
  EXPECT_EQ(s.header.matchcount_hi, 10);
  EXPECT_EQ(s.header.matchstring, std::optional<std::string>(""));
  EXPECT_EQ(s.header.gamenumber_lo, 5);
  EXPECT_EQ(s.header.gamenumber_hi, 9);
  // a number followed by an operator is no range: the transform takes the comparison
  const cql6::Script t = cql6::parse("cql() flipcolor 8 <= sort \"n\" #A");
  ASSERT_EQ(t.body.size(), 1u);
  EXPECT_EQ(t.body[0].kind, cql6::Kind::kTransform);
  EXPECT_FALSE(t.body[0].flags & cql6::kHasRange);
  EXPECT_EQ(t.body[0].kids[0].kind, cql6::Kind::kCompare);
  // `///` is `comment (...)` to the end of the line; `////` an ordinary comment
  const cql6::Script c = cql6::parse("cql() mate ///\"king on \" k\n//// nothing\ncheck");
  ASSERT_EQ(c.body.size(), 3u);
  EXPECT_EQ(c.body[1].kind, cql6::Kind::kComment);
  EXPECT_EQ(c.body[1].kids.size(), 2u);
  EXPECT_EQ(c.body[2].kind, cql6::Kind::kCheck);
  // loops without `all` are sets (a loop's body is the whole filter after it, so the loop is
  // parenthesised to be compared: CQL 6.2 reads `square x in A {x -> k} >= 2` as a loop over
  // `{x -> k} >= 2`); sort takes the whole comparison
  const cql6::Script l = cql6::parse("cql() sort \"n\" (square x in A {x -> k}) >= 2");
  EXPECT_EQ(l.body[0].kids[0].kind, cql6::Kind::kCompare);
  EXPECT_EQ(l.body[0].kids[0].kids[0].type, cql6::Type::kSet);
}

TEST(Cql6ExValuesErrors, Located) {
  EXPECT_EQ(cqltest::cql6_error_of("cql(sort 3 10) check"), "s.cql:1:5: 'sort' in the cql( header is 'sort matchcount m [n]' (expected 'matchcount')");
  EXPECT_EQ(cqltest::cql6_error_of("cql(matchstring x) check"), "s.cql:1:17: 'matchstring' needs a quoted text (expected a quoted text)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() makesquare 3 4"),
            "s.cql:1:18: 'makesquare' with numbers needs parentheses (expected makesquare (file rank))");
  EXPECT_EQ(cqltest::cql6_error_of("cql() rank check"), "s.cql:1:12: 'rank' needs a set filter, this is a plain filter");
  EXPECT_EQ(cqltest::cql6_error_of("cql() hhdb composer \"x\""),
            "s.cql:1:7: CQL 6 'hhdb' other than its award forms (hhdb prize, hm, commendation, award) is not supported yet");
  EXPECT_EQ(cqltest::cql6_error_of("cql() fen \"8/8/8/8/8/8/8/8 w - - 0 1\""), "s.cql:1:7: CQL 6 'fen \"...\"' as a position filter is not supported yet");
  EXPECT_EQ(cqltest::cql6_error_of("cql() mate ///\"a\" ///\"b\""), "s.cql:1:19: a second '///' on one line (expected one '///' per line)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() loop"), "s.cql:1:11: 'loop' needs a filter (expected a filter)");
}

class Cql6ExValues : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("cql6x");
    cqltest::import_into(tmp_->path / "db",
                         {kSample + "/studies-30.pgn", kSample + "/mates-30.pgn", kSample + "/annotated-40.pgn"});
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  /// The matched ids, ascending (planner on and off must agree).
  static std::vector<uint64_t> ids(const std::string& text) {
    std::vector<uint64_t> out = cqltest::ids_planner_on_off(tmp_->path / "db", text);
    std::sort(out.begin(), out.end());
    return out;
  }
  static cqltest::TempDir* tmp_;
};
cqltest::TempDir* Cql6ExValues::tmp_ = nullptr;

TEST_F(Cql6ExValues, ValuesMatchTheirMeaning) {
  // rank/file of the white king against designators of the same squares
  EXPECT_EQ(ids("cql() rank K == 1 file K == 5 mate"), ids("cql() Ke1 mate"));
  EXPECT_EQ(ids("cql() makesquare(5 1) & K mate"), ids("cql() Ke1 mate"));
  EXPECT_EQ(ids("cql() makesquare \"e1\" & K mate"), ids("cql() Ke1 mate"));
  EXPECT_EQ(ids("cql() typename makesquare(5 1) == \"K\" mate"), ids("cql() Ke1 mate"));
  EXPECT_EQ(ids("cql() piecename e8 == \"k\" check"), ids("cql() ke8 check"));
  EXPECT_EQ(ids("cql() type d1 == 5 mate"), ids("cql() [Qq]d1 mate"));
  EXPECT_EQ(ids("cql() sqrt(#[Aa] * #[Aa]) >= 20 mate"), ids("cql() #[Aa] >= 20 mate"));
  // a loop counts its squares
  EXPECT_EQ(ids("cql() (square x in A {x -> k}) >= 2 mate"), ids("cql() #(A -> k) >= 2 mate"));
  // piece assignment fails unless one occupied square
  EXPECT_EQ(ids("cql() piece X = A mate"), ids("cql() #A == 1 mate"));
  EXPECT_EQ(ids("cql() piece X = K mate"), ids("cql() mate"));
  // the variation tree: a position inside a variation has a parent and depth 1 or more
  EXPECT_EQ(ids("cql(variations) variation depth >= 1 mate"), ids("cql(variations) variation mate"));
  EXPECT_EQ(ids("cql(variations) variation mate positionid > ply"), ids("cql(variations) variation mate"));
}

}  // namespace
