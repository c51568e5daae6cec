// CQL 6 scripts as CQL 6.2's published examples write them (branch exsets): Unicode piece
// runs (`♕♖♗`, `□△`), `x∊S f` square loops and loops as sets, `◭x = S`, `loop f`, `==` of two
// sets, CQL 6.2's right-nested comparison chains, transform `count`, the position
// comparisons `≺ ≼ ≻ ≽` and `pin`'s returned set. Each script is checked against a script
// or CQL-S query with the same meaning on the bundled sample, with the planner on and off
// (same games and plies); errors are located. CQL 6.2's own answers for the
// tests/cql6/scripts-part2/ex_sets_* scripts: tests/cql6_fixture_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql6/lexer.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"
#include "cql6_test_util.h"

namespace {

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";


class Cql6Sets : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("cql6sets");
    cqltest::import_into(tmp_->path / "db", {kSample + "/players-3000.pgn.zst", kSample + "/mates-30.pgn"});
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  /// The game ids `script` matches, checked equal (ids and plies) with the planner off.
  static std::vector<uint64_t> ids(const std::string& script) {
    return cqltest::ids_planner_on_off(tmp_->path / "db", script);
  }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* Cql6Sets::tmp_ = nullptr;

struct Same {
  const char* script;
  const char* other;  // a script or CQL-S query with the same games
};

void expect_same(const std::vector<Same>& same, std::vector<uint64_t> (*ids)(const std::string&)) {
  for (const Same& s : same) {
    const std::vector<uint64_t> a = ids(s.script);
    EXPECT_EQ(a, ids(s.other)) << s.script << " | " << s.other;
  }
}

TEST(Cql6SetsLexer, UnicodePieceRuns) {
  using cql6::Tok;
  // a run of Unicode pieces is one designator; ◭ before a name declares a piece variable
  const std::vector<cql6::Token> t = cql6::lex("♕♖♗ □△ power△ ◭X ◭e4 ◭ x∊▦ ♕d4");
  ASSERT_EQ(t.size(), 13u);
  EXPECT_EQ(t[0].kind, Tok::kDesignator);
  EXPECT_EQ(t[0].kinds, (1u << 4) | (1u << 3) | (1u << 2));  // Q R B
  EXPECT_EQ(t[1].kinds, cql6::kEmptyKind | cql6::kWhiteKinds);
  EXPECT_EQ(t[2].text, "power");
  EXPECT_EQ(t[3].kinds, cql6::kWhiteKinds);
  EXPECT_EQ(t[3].loc.column, 13u);  // columns still count characters
  EXPECT_EQ(t[4].text, "[piece]");
  EXPECT_EQ(t[5].text, "X");
  EXPECT_EQ(t[6].kinds, cql6::kWhiteKinds | cql6::kBlackKinds);
  EXPECT_EQ(t[6].squares, 1ULL << 28);  // e4
  EXPECT_EQ(t[7].squares, ~0ULL);       // ◭ alone: [Aa]
  EXPECT_EQ(t[9].text, "[element]");
  EXPECT_EQ(t[11].kinds, 1u << 4);
  EXPECT_EQ(t[11].squares, 1ULL << 27);  // d4
}

TEST_F(Cql6Sets, LoopsAsSetsAndShorthands) {
  expect_same(
      {
          // `x∊S f` is a square loop; without `all` it is the set of squares it matched for
          {"cql() x∊♘ {x → ♚}", "cql() N attacks k"},
          {"cql() #(s∊♙ ♟ ∩ up 1 s) >= 2", "cql() #(P & down 1 p) >= 2"},
          {"cql() #(square s in P {p & up 1 s}) >= 2", "cql() #(P & down 1 p) >= 2"},
          {"cql() #(◭X∊♖ {X ∩ a-h7}) == 2", "cql() #(R & a-h7) == 2"},
          {"cql() ∀◭X∊♙ {X ∩ a-h2}", "cql() #(P & ~a-h2) == 0"},
          // `◭x = S` binds the piece on the one square of S
          {"cql() initial ◭Dame = ♕d1 find Dame ∩ h5", "cql() initial piece Dame = Qd1 find Dame & h5"},
          {"cql() ◭Two = ♕ ♕", "cql() #Q == 1"},
          // `loop f` repeats f while it matches
          {"cql() initial Cnt = 0 loop {Cnt < 3 Cnt += 1} Cnt == 3", "cql() initial"},
          {"cql() Cnt = 0 loop {false} mate", "cql() false"},
      },
      ids);
}

TEST_F(Cql6Sets, ComparisonsAndTransformCount) {
  expect_same(
      {
          // `==` of two sets compares the sets; a chain `a == b == c` is a == (b == c)
          {"cql() ♔ == g1", "cql() Kg1"},
          {"cql() ♕ ≠ ♛ ♕", "cql() Q"},
          {"cql() ♕==♛==1", "cql() #Q == 1 #q == 1"},
          {"cql() 1 == ♕ == #♛", "cql() #Q == 1 #q == 1"},
          // a comparison of numbers has the left side's value; with `!=` it is a plain filter
          {"cql() Lead = {#△ - #▲ ≥ 2} Lead ≥ 3", "cql() #A - #a >= 3"},
          {"cql() Cnt = 0 loop {Cnt += 1 Cnt < 4} Cnt == 4 initial", "cql() initial"},
          // `find` takes a whole filter
          {"cql() initial find ♔ == g1", "cql() initial find Kg1"},
          // transform `count`: the number of matching transforms, always matching
          {"cql() 2 == flipvertical count ♘g1", "cql() Ng1 Nb1"},
          {"cql() {flipvertical count ♘g1} == 0", "cql() not Ng1 not Nb1"},
          // positions: ≺ ≼ ≻ ≽ (CQL 6.2 tests ≽ as ≻)
          {"cql() mate Bp = parent Bp ≺ ∙ ∙ ≻ Bp Bp ≼ Bp not ∙ ≽ ∙", "cql() mate"},
          {"cql() mate Bp = parent Bp [<] currentposition not Bp [>=] Bp", "cql() mate"},
          // `pin` without parameters is the pinned pieces; otherwise the first parameter's set
          {"cql() pin ∩ ♞", "cql() n & pin through ."},
          {"cql() #(pin from ♗) == 1", "cql() #(B & pin from .) == 1"},
      },
      ids);
}

TEST(Cql6SetsErrors, Located) {
  EXPECT_EQ(cqltest::cql6_error_of("cql() ◭X ♖"),
            "s.cql:1:10: unexpected 'R' after the piece variable 'X' (expected '∊' (a piece loop) or '=' (a piece "
            "assignment))");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ♕ == ♛ == ♜"),
            "s.cql:1:12: a comparison of two sets has no numeric value to compare further (expected a number, or "
            "'#' before the sets)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() loop"), "s.cql:1:11: 'loop' needs a filter (expected a filter)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ∀x mate"), "s.cql:1:10: unexpected 'mate' (expected 'in' or '∊')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() X = #P != 3"), "s.cql:1:14: 'X' cannot hold a plain filter (expected a set, number, position or string)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() mate ∙ ≺ 3"), "s.cql:1:16: '[<]' needs a position, this is a numeric filter");
}

}  // namespace
