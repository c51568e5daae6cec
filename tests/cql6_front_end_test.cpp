// The CQL 6 front-end (issue 36): lexer and parser (ASCII and Unicode spellings, located
// errors, features of part 2 refused by name), and the compiled scripts on the bundled
// sample: every family gives the same games in both spellings and with the planner on and
// off, and filters with a CQL-S counterpart give the CQL-S query's games.
#include <gtest/gtest.h>

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

/// The error of compiling `text` as a query ("" when it compiles).

TEST(Cql6Lexer, DesignatorsAndSpellings) {
  using cql6::Tok;
  const std::vector<cql6::Token> t = cql6::lex("Ka1 [RQ]e1-8 a1-8 [a-c]3 A a _ . ♔ ◭ ▦ □ ――");
  ASSERT_EQ(t.size(), 14u);
  EXPECT_EQ(t[0].kind, Tok::kDesignator);
  EXPECT_EQ(t[0].squares, 1u);
  EXPECT_EQ(t[1].squares, 0x1010101010101010ULL);
  EXPECT_EQ(t[2].squares, 0x0101010101010101ULL);
  EXPECT_EQ(t[3].squares, 0x70000ULL);
  EXPECT_EQ(t[4].kinds, cql6::kWhiteKinds);
  EXPECT_EQ(t[5].kinds, cql6::kBlackKinds);
  EXPECT_EQ(t[6].kinds, cql6::kEmptyKind);
  EXPECT_EQ(t[7].squares, ~0ULL);
  EXPECT_EQ(t[8].kinds, 1u << 5);  // white king
  EXPECT_EQ(t[9].kinds, cql6::kWhiteKinds | cql6::kBlackKinds);  // ◭: [Aa] (before a name: `[piece]`)
  EXPECT_EQ(t[10].squares, ~0ULL);
  EXPECT_EQ(t[11].kinds, cql6::kEmptyKind);
  EXPECT_EQ(t[12].kind, Tok::kDash);
  EXPECT_EQ(t[13].kind, Tok::kEnd);
  // columns count characters: the Unicode king is one column
  const std::vector<cql6::Token> u = cql6::lex("♔ ∊ ▦\n  ≤ 3");
  EXPECT_EQ(u[1].text, "[element]");  // CQL 6.2: loops only (`x∊S f`); next to a set it is read as `in`
  EXPECT_EQ(u[1].loc.column, 3u);
  EXPECT_EQ(u[3].loc.line, 2u);
  EXPECT_EQ(u[3].loc.column, 3u);
  EXPECT_EQ(u[3].text, "<=");
}

TEST(Cql6Lexer, CommentsAndRepeats) {
  const std::vector<cql6::Token> t = cql6::lex("// line\ncheck /* block\n */ {2,4} {,3} {+} mate");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].text, "check");
  EXPECT_EQ(t[1].kind, cql6::Tok::kRepeat);
  EXPECT_EQ(t[1].lo, 2);
  EXPECT_EQ(t[1].hi, 4);
  EXPECT_EQ(t[2].lo, 0);
  EXPECT_EQ(t[2].hi, 3);
  EXPECT_EQ(t[3].text, "{+}");
}

TEST(Cql6Parser, Detection) {
  EXPECT_TRUE(cql6::looks_like_cql6("// x\ncql(input a.pgn) mate"));
  EXPECT_TRUE(cql6::looks_like_cql6("  cql ( ) check"));
  EXPECT_FALSE(cql6::looks_like_cql6("(match (position :mate))"));
  EXPECT_FALSE(cql6::looks_like_cql6("cqlx() mate"));
}

TEST(Cql6Parser, LocatedErrors) {
  EXPECT_EQ(cqltest::cql6_error_of("cql()\nx + 3"),
            "s.cql:2:1: unknown filter, variable or function 'x' (expected a filter, or a variable assigned earlier)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ nestban nestban --"), "s.cql:1:17: multiple 'nestban' in 'path'");
  EXPECT_EQ(cqltest::cql6_error_of("cql(\n  nosuch)"),
            "s.cql:2:3: unknown cql( header parameter 'nosuch' (expected input output matchcount result variations "
            "quiet silent player year elo event site eco date)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() { check"), "s.cql:1:14: unclosed '{' (expected '}')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() #check"), "s.cql:1:8: '#' needs a set filter, this is a plain filter");
  EXPECT_EQ(cqltest::cql6_error_of("cql() line check"), "s.cql:1:12: 'line' needs '-->' or '<--' (expected '-->' or '<--')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() K attacks"), "s.cql:1:16: unexpected end of script (expected a filter)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ‽"), "s.cql:1:7: unknown character U+203D '‽'");
  EXPECT_EQ(cqltest::cql6_error_of("cql() \"abc"), "s.cql:1:7: unclosed string (expected '\"')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() between(K)"), "s.cql:1:16: unexpected ')' (expected a filter)");
  EXPECT_NE(cqltest::cql6_error_of("mate"), "");  // not CQL 6: read as CQL-S, whose error it is
  EXPECT_EQ(cqltest::cql6_error_of("cql() mate"), "");
}

TEST(Cql6Parser, DialectOption) {
  EXPECT_EQ(query::Query::compile("cql() mate", "s").dialect(), query::Dialect::kCql6);
  EXPECT_EQ(query::Query::compile("(match (position :mate))", "s").dialect(), query::Dialect::kCqlS);
  EXPECT_THROW(query::Query::compile("cql() mate", "s", query::Dialect::kCqlS), query::QueryError);
  EXPECT_THROW(query::parse_dialect("cql7"), std::invalid_argument);
  const query::Query q = query::Query::compile("cql(input a.pgn output out.pgn quiet) mate", "s");
  EXPECT_EQ(q.cql6_options().output.value_or(""), "out.pgn");
  EXPECT_EQ(q.cql6_options().input.value_or(""), "a.pgn");
  EXPECT_TRUE(q.cql6_options().quiet);
}

/// One database of the bundled sample for the whole suite.
class Cql6Sample : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("cql6");
    cqltest::import_into(tmp_->path / "db", {kSample + "/players-3000.pgn.zst", kSample + "/annotated-40.pgn",
                                             kSample + "/studies-30.pgn", kSample + "/mates-30.pgn"});
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  /// The ids of the games `script` matches (planner on); checks it gives the same games and
  /// plies with the planner off.
  static std::vector<uint64_t> ids(const std::string& script) {
    return cqltest::ids_planner_on_off(tmp_->path / "db", script);
  }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* Cql6Sample::tmp_ = nullptr;

struct Spelled {
  const char* ascii;
  const char* unicode;
};

// Every family of part 1, in ASCII and in Unicode (or an equivalent second spelling).
const Spelled kFamilies[] = {
    // designators, set operators, counts
    {"cql() Qh7 kg8 Bd3", "cql() ♕h7 ♚g8 ♗d3"},
    {"cql() [RQ]e1-8 & ~A", "cql() [RQ]e1-8 ∩ ~△"},
    {"cql() #[Aa] <= 6 #_ >= 58", "cql() #◭ ≤ 6 #□ ≥ 58"},
    {"cql() P in a-h2 | a-h3", "cql() ♙ ∊ a-h2 ∪ a-h3"},
    {"cql() #(P & d-e4-5) == 2 #. == 64", "cql() #(♙ ∩ d-e4-5) == 2 #▦ == 64"},
    // attacks, rays, pins, between, directions
    {"cql() Q attacks k", "cql() ♕ → ♚"},
    {"cql() k attackedby N", "cql() ♚ ← ♘"},
    {"cql() #(a attackedby A) >= 4", "cql() #(▲ ← △) ≥ 4"},
    {"cql() ray orthogonal (R _ k)", "cql() ray orthogonal (♖ □ ♚)"},
    {"cql() xray (Q b k)", "cql() xray (♕ ♝ ♚)"},
    {"cql() pin through n", "cql() pin through ♞"},
    {"cql() pin from B to q", "cql() pin from ♗ to ♛"},
    {"cql() #between(K k) >= 5", "cql() #between(♔ ♚) ≥ 5"},
    {"cql() up 1 P & p", "cql() up 1 ♙ ∩ ♟"},
    {"cql() diagonal 1 2 K & Q", "cql() diagonal 1 2 ♔ ∩ ♕"},
    {"cql() light B and dark b", "cql() light ♗ and dark ♝"},
    // numbers and comparisons
    {"cql() abs (power A - power a) >= 5", "cql() abs (power △ - power ▲) ≥ 5"},
    {"cql() 2 < #P < 4 #p != 3", "cql() 2 < #♙ < 4 #♟ ≠ 3"},
    {"cql() max(#Q #R) * 2 + 1 == 5 min(#q #r) % 2 == 0", "cql() max(#♕ #♖) * 2 + 1 == 5 min(#♛ #♜) % 2 == 0"},
    // status and counters
    {"cql() check btm ply > 40", "cql() check btm ply > 40"},
    {"cql() terminal stalemate", "cql() terminal stalemate"},
    {"cql() initial wtm movenumber == 1", "cql() initial wtm movenumber == 1"},
    {"cql(result 0-1) mate", "cql() result 0-1 mate"},
    {"cql() elo white > 2600 mate", "cql() elo white >= 2601 mate"},
    // moves
    {"cql() move from N capture q", "cql() move from ♘ capture ♛"},
    {"cql() move promote [RBN]", "cql() move promote [rbn]"},
    {"cql() move castle from K to c1", "cql() move castle from ♔ to c1"},
    {"cql() move enpassant", "cql() move enpassant from [Pp]"},
    {"cql() move previous capture Q", "cql() move previous capture ♕"},
    {"cql() move legal count == 0 not mate", "cql() stalemate"},
    {"cql() move pseudolegal count > 40", "cql() move pseudolegal count > 40"},
    {"cql() Q--h7 check", "cql() ♕――h7 check"},
    {"cql() B[x]h7", "cql() ♗×h7"},
    {"cql() P--e8=Q", "cql() ♙――e8=♕"},
    {"cql() -- check", "cql() ―― check"},
    // line
    {"cql() line --> check --> check --> check", "cql() line --> check{3}"},
    {"cql() line --> move capture Q --> move capture . --> mate", "cql() line --> move capture ♕ --> move capture ▦ --> mate"},
    {"cql() line <-- mate <-- check <-- check", "cql() line <-- mate <-- check{2}"},
    {"cql() line --> check+ --> mate", "cql() line --> check{1,} --> mate"},
    {"cql() line singlecolor --> check{4,}", "cql() line singlecolor --> check{4,}"},
    // logic
    {"cql() not check and (mate or stalemate)", "cql() {not check} {mate or stalemate}"},
    {"cql() if wtm then Q attacks k else q attacks K", "cql() if wtm Q attacks k else q attacks K"},
    {"cql() {true} not false", "cql() true"},
    // transforms
    {"cql() flipcolor {Q attacks k check}", "cql() ⬓ {♕ → ♚ check}"},
    {"cql() flip {Ra1 kh8}", "cql() ✵ {♖a1 ♚h8}"},
    {"cql() shift {Pd4 pd5 Pe4 pe5}", "cql() shift {♙d4 ♟d5 ♙e4 ♟e5}"},
    {"cql() rotate90 Kh1", "cql() flip Kh1 | Ka1 | Ka8 | Kh8"},
    {"cql() reversecolor {btm mate}", "cql() wtm mate"},
    // pawns
    {"cql() #passedpawns >= 3", "cql() #passedpawns ≥ 3"},
    {"cql() #(isolatedpawns & P) >= 3 #doubledpawns >= 2", "cql() #(isolatedpawns ∩ ♙) ≥ 3 #doubledpawns ≥ 2"},
    {"cql() #(connectedpawns & p) >= 6", "cql() #(connectedpawns ∩ ♟) ≥ 6"},
    // header
    {"cql(matchcount 3 100) check", "cql(matchcount 3 100) check"},
    {"cql(variations) mate", "cql(variations) mate"},
    {"cql() player \"Carlsen\" mate", "cql(player \"Carlsen\") mate"},
};

TEST_F(Cql6Sample, EveryFamilyInBothSpellingsAndPlannerOnOff) {
  for (const Spelled& s : kFamilies) {
    const std::vector<uint64_t> a = ids(s.ascii), u = ids(s.unicode);
    EXPECT_EQ(a, u) << s.ascii << " | " << s.unicode;
  }
}

TEST_F(Cql6Sample, FiltersWithACqlSCounterpartGiveItsGames) {
  const Spelled same[] = {
      {"cql() mate", "(match (position :mate))"},
      {"cql() stalemate", "(match (position :stalemate))"},
      {"cql() check btm", "(match (position :check :btm))"},
      {"cql() Qh7 kg8", "(match (position Qh7 kg8))"},
      {"cql() flipcolor {Qh5 kg8}", "(match (position :flipcolor Qh5 kg8))"},
      {"cql() #[RrQq] == 0 #[Bb] == 2", "(match (position :piececount [RrQq] 0 :piececount [Bb] 2))"},
      {"cql() ply == 0 Ke1", "(match (position :initial Ke1))"},
  };
  for (const Spelled& s : same) EXPECT_EQ(ids(s.ascii), ids(s.unicode)) << s.ascii << " | " << s.unicode;
  EXPECT_GT(ids("cql() mate").size(), 50u);
}

TEST_F(Cql6Sample, ShiftTriesEveryExactTranslation) {
  // a king on the edge: every translation keeps one square for K, none for the whole board
  EXPECT_EQ(ids("cql() shift Ka1"), ids("cql() K"));
  // two pawns side by side anywhere: the same as the pair test by directions
  EXPECT_EQ(ids("cql() shift {Pa2 Pb2}"), ids("cql() right 1 P & P"));
  // Whole ranks stay: a shifted full rank is still the full rank
  EXPECT_EQ(ids("cql() shifthorizontal {a-h1 & K}"), ids("cql() a-h1 & K"));
}

TEST_F(Cql6Sample, OrderOfPrecedence) {
  // not binds tighter than and; `in` tighter than not
  EXPECT_EQ(ids("cql() not check and btm"), ids("cql() {not check} btm"));
  EXPECT_EQ(ids("cql() not K in a-h1"), ids("cql() not {K in a-h1}"));
  // attacks binds tighter than & and |
  EXPECT_EQ(ids("cql() Q attacks k & Qh5"), ids("cql() (Q attacks k) & Qh5"));
  // abs takes a sum
  EXPECT_EQ(ids("cql() abs #A - #a >= 3"), ids("cql() abs (#A - #a) >= 3"));
  // the directions take a primary
  EXPECT_EQ(ids("cql() up 1 P attacks p"), ids("cql() (up 1 P) attacks p"));
}

}  // namespace
