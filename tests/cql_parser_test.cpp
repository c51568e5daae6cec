// The parser: list structure, desugaring of `!:kw` and bare `:not`, typed arguments, and
// errors with exact line:column, offending token and expectation.
#include <gtest/gtest.h>

#include <string>

#include "cql/ast_print.h"
#include "cql/parser.h"

namespace {

using K = cql::Keyword;

cql::Script parse(const std::string& text) {
  return cql::parse_or_throw(text, "query.cql");
}
std::string print(const std::string& text) {
  return cql::to_string(parse(text));
}

cql::ParseError error(const std::string& text) {
  cql::ParseResult r = cql::parse(text, "query.cql");
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return cql::ParseError("", {}, "", "no error");
  return *r.error;
}

TEST(CqlParser, MinimalScripts) {
  EXPECT_TRUE(parse("(match)").match.elements.empty());
  cql::Script s = parse("; all games\n(match (position)) ; trailing comment\n");
  ASSERT_EQ(s.match.position_lists().size(), 1u);
  EXPECT_TRUE(s.match.position_lists()[0]->elements.empty());
  EXPECT_EQ(s.source_name, "query.cql");
  EXPECT_EQ(s.match.loc.line, 2u);
}

TEST(CqlParser, ElementsKeepSourceOrderAndLocations) {
  cql::Script s =
      parse("(match\n  :year 2013\n  (position :pawncount consecutive(4) >0 :flipcolor))");
  ASSERT_EQ(s.match.elements.size(), 2u);
  const cql::KeywordItem& year = std::get<cql::KeywordItem>(s.match.elements[0]);
  EXPECT_EQ(year.keyword, K::Year);
  EXPECT_EQ(year.loc.line, 2u);
  EXPECT_EQ(year.loc.column, 3u);
  const cql::List& pos = *std::get<cql::Box<cql::List>>(s.match.elements[1]);
  EXPECT_EQ(pos.kind, cql::ListKind::Position);
  ASSERT_EQ(pos.keywords().size(), 2u);
  EXPECT_EQ(pos.keywords()[0]->keyword, K::PawnCount);
  EXPECT_EQ(pos.keywords()[1]->keyword, K::FlipColor);
  const cql::PawnCountArgs& pc = pos.keywords()[0]->as<cql::PawnCountArgs>();
  EXPECT_TRUE(pc.pieces.empty());
  ASSERT_EQ(pc.attributes.size(), 1u);
  EXPECT_EQ(pc.attributes[0].attr, cql::PawnAttr::Consecutive);
  EXPECT_EQ(*pc.attributes[0].count, 4);
}

TEST(CqlParser, PieceDesignatorsInPositionLists) {
  cql::List l = cql::parse_position_list("(position .d4 id3 U[a1,h1,a8,h8])");
  auto ds = l.designators();
  ASSERT_EQ(ds.size(), 3u);
  EXPECT_EQ(ds[0]->pieces, cql::piece_mask::kEmpty);
  EXPECT_EQ(ds[1]->pieces, cql::piece_mask::kBlackMinor);
  EXPECT_EQ(ds[2]->loc.column, 19u);
  EXPECT_EQ(ds[2]->text, "U[a1,h1,a8,h8]");
}

TEST(CqlParser, TypedArguments) {
  cql::List l = cql::parse_position_list(
      "(position :attackcount A k 2 :ray (Qa? n k[?4-8]) :sequence ((position Qf3) (position "
      ".f3)))");
  auto ks = l.keywords();
  const cql::CountArgs& ac = ks[0]->as<cql::CountArgs>();
  ASSERT_EQ(ac.pieces.size(), 2u);
  EXPECT_EQ(ac.pieces[0].pieces, cql::piece_mask::kWhite);
  EXPECT_EQ(ac.pieces[1].pieces, cql::piece_mask::kBlackKing);
  EXPECT_TRUE(ac.ranges.at(0).contains(2));
  const cql::RayArgs& ray = ks[1]->as<cql::RayArgs>();
  EXPECT_EQ(ray.ray.size(), 3u);
  EXPECT_FALSE(ray.range.has_value());
  const cql::SubListArgs& seq = ks[2]->as<cql::SubListArgs>();
  ASSERT_EQ(seq.lists.size(), 2u);
  EXPECT_EQ(seq.lists[1].designators()[0]->pieces, cql::piece_mask::kEmpty);
}

TEST(CqlParser, BangDesugarsToNotOfASubList) {
  cql::List l = cql::parse_position_list("(position !:check)");
  ASSERT_EQ(l.keywords().size(), 1u);
  const cql::KeywordItem& neg = *l.keywords()[0];
  EXPECT_EQ(neg.keyword, K::Not);
  EXPECT_TRUE(neg.bang);
  const cql::List& inner = neg.as<cql::SubListArgs>().lists.at(0);
  EXPECT_EQ(inner.kind, cql::ListKind::Position);
  EXPECT_EQ(inner.keywords().at(0)->keyword, K::Check);
  EXPECT_EQ(print("(match (position !:check))"), "(match (position :not (position :check)))");
  EXPECT_EQ(print("(match !match:ischess960)"), "(match :not (match :ischess960))");
  EXPECT_EQ(print("(match (position !:contactcheck Q))"),
            "(match (position :not (position :contactcheck Q)))");
}

TEST(CqlParser, BareNotNegatesTheContainingList) {
  cql::List l = cql::parse_position_list("(position Ra3 :not)");
  EXPECT_TRUE(l.negated);
  EXPECT_TRUE(l.keywords().empty());
  EXPECT_EQ(cql::to_string(l), "(position :not Ra3)");
  cql::Script s = parse("(match :isshufflechess :not)");
  EXPECT_TRUE(s.match.negated);
  // :not followed by a keyword is the bare form.
  cql::List k = cql::parse_position_list("(position :not :attackcount k .e4 1)");
  EXPECT_TRUE(k.negated);
  EXPECT_EQ(k.keywords().at(0)->keyword, K::AttackCount);
  // :not with a list negates that list only.
  cql::List sub = cql::parse_position_list("(position :initial :not (position :checkcount 0 : 0))");
  EXPECT_FALSE(sub.negated);
  EXPECT_EQ(sub.keywords().at(1)->keyword, K::Not);
}

TEST(CqlParser, ListKindSpellings) {
  EXPECT_EQ(print("(match match:year 2000 (position position:mate :relation (relation:shift)))"),
            "(match :year 2000 (position :mate :relation (:shift)))");
  EXPECT_EQ(print("(match (position :relation (relation :pattern :shift)))"),
            "(match (position :relation (:pattern :shift)))");
}

TEST(CqlParser, CondWrappedAndUnwrapped) {
  cql::Script w = parse("(match (position :cond ((position Pe7) (position pe2))))");
  const cql::SubListArgs& wa = w.match.position_lists()[0]->keywords()[0]->as<cql::SubListArgs>();
  EXPECT_TRUE(wa.wrapped);
  EXPECT_EQ(wa.lists.size(), 2u);
  cql::Script u =
      parse("(match :cond (match :result 1-0) (match :whiteelo >2000) (match :year 2000))");
  const cql::SubListArgs& ua = u.match.keywords()[0]->as<cql::SubListArgs>();
  EXPECT_FALSE(ua.wrapped);
  EXPECT_EQ(ua.lists.size(), 3u);
}

TEST(CqlParser, OptionalDesignatorArgumentsAreTakenGreedily) {
  cql::List l = cql::parse_position_list("(position :check Rd1 :iscastling K :opposition)");
  auto ks = l.keywords();
  EXPECT_EQ(ks[0]->as<cql::DesignatorArgs>().pieces.size(), 1u);
  EXPECT_EQ(ks[1]->as<cql::DesignatorArgs>().pieces.size(), 1u);
  EXPECT_TRUE(ks[2]->as<cql::DesignatorArgs>().pieces.empty());
  EXPECT_TRUE(l.designators().empty());
}

TEST(CqlParser, CanonicalPrinting) {
  EXPECT_EQ(
      print(
          "(match\n  :year 2013 ; comment\n  (position :pawncount consecutive(4) >0 :flipcolor))"),
      "(match :year 2013 (position :pawncount consecutive(4) >0 :flipcolor))");
  EXPECT_EQ(print("(match (position :piececount [Rr][a1-8] 1 3 :piececount [Qq][a-h8] 4 Nd4))"),
            "(match (position :piececount [Rr]a? 1 3 :piececount [Qq]?8 4 Nd4))");
  EXPECT_EQ(print("(match :date >=2010-10-01 :eco A11-39 :result 1-0,0-1 (position :matchcount 4 "
                  "unlimited))"),
            "(match :date >=2010-10-01 :eco A11-39 :result 1-0,0-1 (position :matchcount >=4))");
  cql::Script s = parse("(match :forany rook [rR] (position $rook[a1]) (position $rook[h1]))");
  EXPECT_EQ(cql::to_string(s, {true, 2}),
            "(match :forany rook [Rr] (position $rook[a1]) (position $rook[h1]))");
  cql::Script big = parse(
      "(match :result 1/2 (position :flipcolor :halfmovenumber end-8 end-7 :sequence ((position "
      ":line (R:+ k R:+ k R:+ k R:+)) (position :or ((position :terminal) (position :line "
      "(k)))))))");
  EXPECT_EQ(cql::to_string(big, {true, 2}),
            "(match\n"
            "  :result 1/2\n"
            "  (position\n"
            "    :flipcolor\n"
            "    :halfmovenumber end-8 end-7\n"
            "    :sequence (\n"
            "      (position :line (R:+ k R:+ k R:+ k R:+))\n"
            "      (position :or ((position :terminal) (position :line (k)))))))");
}

// ---- errors: exact line, column and message ----

TEST(CqlParserErrors, UnknownKeyword) {
  cql::ParseError e = error("(match\n  (position\n    Ra1 Kb2 :foo))");
  EXPECT_STREQ(
      e.what(),
      "query.cql:3:13: unknown keyword ':foo' in position list (expected a position-list keyword)");
  EXPECT_EQ(e.line(), 3u);
  EXPECT_EQ(e.column(), 13u);
  EXPECT_EQ(e.token(), ":foo");
  EXPECT_EQ(e.expected(), "a position-list keyword");
  EXPECT_STREQ(
      error("(match :foo)").what(),
      "query.cql:1:8: unknown keyword ':foo' in match list (expected a match-list keyword)");
}

TEST(CqlParserErrors, KeywordInTheWrongList) {
  EXPECT_STREQ(error("(match (position :year 2000))").what(),
               "query.cql:1:18: keyword ':year' is not allowed in a position list (it belongs in "
               "match lists) (expected a position-list keyword)");
  EXPECT_STREQ(error("(match :mate)").what(),
               "query.cql:1:8: keyword ':mate' is not allowed in a match list (it belongs in "
               "position lists) (expected a match-list keyword)");
  EXPECT_STREQ(error("(match (position :relation (:mate)))").what(),
               "query.cql:1:29: keyword ':mate' is not allowed in a relation list (it belongs in "
               "position lists) (expected a relation keyword)");
}

TEST(CqlParserErrors, SpellingOfAnotherListKind) {
  EXPECT_STREQ(error("(match position:year 2000)").what(),
               "query.cql:1:8: the spelling 'position:year' names another list kind; it cannot be "
               "used in a match list (expected ':year' or 'match:year')");
  EXPECT_STREQ(error("(match (position match:not))").what(),
               "query.cql:1:18: the spelling 'match:not' names another list kind; it cannot be "
               "used in a position list (expected ':not' or 'position:not')");
}

TEST(CqlParserErrors, UnbalancedParentheses) {
  EXPECT_STREQ(error("(match\n  (position Ra3)").what(),
               "query.cql:2:17: unbalanced parenthesis: the (match ...) list opened at 1:1 is not "
               "closed (expected ')')");
  EXPECT_STREQ(
      error("(match (position Ra3)))").what(),
      "query.cql:1:23: unbalanced parenthesis: ')' without a matching '(' (expected end of input)");
  EXPECT_STREQ(error("(match (position :and ((position R) (position Q)))").what(),
               "query.cql:1:51: unbalanced parenthesis: the (match ...) list opened at 1:1 is not "
               "closed (expected ')')");
}

TEST(CqlParserErrors, NegationOfANonNegatableKeyword) {
  EXPECT_STREQ(error("(match (position !:iscastling K))").what(),
               "query.cql:1:19: keyword ':iscastling' cannot be negated with '!' (expected a "
               "negatable keyword, or ':not (position :iscastling ...)')");
  EXPECT_STREQ(error("(match !:year 2000)").what(),
               "query.cql:1:9: keyword ':year' cannot be negated with '!' (expected a negatable "
               "keyword, or ':not (match :year ...)')");
}

TEST(CqlParserErrors, WrongArguments) {
  EXPECT_STREQ(error("(match (position :piececount 2))").what(),
               "query.cql:1:30: expected a piece designator, found '2' (expected a piece "
               "designator for ':piececount')");
  EXPECT_STREQ(
      error("(match (position :piececount R))").what(),
      "query.cql:1:31: expected a range, found ')' (expected a range like 3, 1 5, >=2 or <10)");
  EXPECT_STREQ(error("(match (position :and (position R)))").what(),
               "query.cql:1:24: ':and' expects a list of lists: write '((position ...) ...)' "
               "(expected '(' starting the first (position ...) list)");
  EXPECT_STREQ(error("(match (position :and R))").what(),
               "query.cql:1:23: ':and' expects a parenthesized list of (position ...) lists, found "
               "'R' (expected '(' followed by (position ...) lists)");
  EXPECT_STREQ(error("(match (position :castling Ke1))").what(),
               "query.cql:1:28: ':castling' takes piece letters without squares, not 'Ke1' "
               "(expected a piecetype designator like K Q k q)");
  EXPECT_STREQ(error("(match (position :castling R))").what(),
               "query.cql:1:28: ':castling' accepts only the piece letters K Q k q, not 'R' "
               "(expected a designator using K Q k q)");
  EXPECT_STREQ(error("(match (position :pawncount N passed >0))").what(),
               "query.cql:1:29: ':pawncount' accepts only the piece letters P p, not 'N' (expected "
               "a designator using P p)");
  EXPECT_STREQ(error("(match (position :goodbishop B >50%))").what(),
               "query.cql:1:36: ':goodbishop' needs two ranges separated by ':', found ')' "
               "(expected ':' and a second range)");
  EXPECT_STREQ(error("(match (position :pawncount P passed-quart(9) >0))").what(),
               "query.cql:1:38: count 9 of 'quart' is not in 4..8 (expected pawn attributes like "
               "'passed' or 'double!-forefront-duo')");
  EXPECT_STREQ(error("(match (position :pawncount P islands-passed >0))").what(),
               "query.cql:1:39: counting attribute must come last; 'passed' follows one (expected "
               "pawn attributes like 'passed' or 'double!-forefront-duo')");
  EXPECT_STREQ(error("(match (position :fen \"8/8/8 w\"))").what(),
               "query.cql:1:24: invalid FEN: expected 3 to 7 space-separated fields (expected a "
               "FEN like \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\")");
  EXPECT_STREQ(
      error("(match (position :fen \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\"))")
          .what(),
      "query.cql:1:24: invalid FEN: the placement must describe 8 ranks of 8 squares (expected a "
      "FEN like \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\")");
}

TEST(CqlParserErrors, DesignatorErrorsPointIntoTheWord) {
  EXPECT_STREQ(error("(match (position BDD))").what(),
               "query.cql:1:20: invalid piece designator 'BDD': 'L' and 'D' may not be used for "
               "both the file and the rank (expected a rank 1-8 or '?')");
  EXPECT_STREQ(error("(match (position $foo?1))").what(),
               "query.cql:1:22: invalid piece designator '$foo?1': the square designator after "
               "'$foo' must be enclosed in brackets (expected '[' after the tag name)");
  EXPECT_STREQ(error("(match (position flipcolor))").what(),
               "query.cql:1:18: invalid piece designator 'flipcolor': 'f' is not a piece letter "
               "(expected a piece designator; did you mean ':flipcolor'?)");
  EXPECT_STREQ(error("(match (position K[a1-c3]))").what(),
               "query.cql:1:22: invalid piece designator 'K[a1-c3]': unexpected '-' in square "
               "designator list (expected ',' or ']')");
}

TEST(CqlParserErrors, ListStructure) {
  EXPECT_STREQ(error("(position Ra3)").what(),
               "query.cql:1:2: a script is one (match ...) list, not 'position' (expected 'match' "
               "after '(')");
  EXPECT_STREQ(error("").what(), "query.cql:1:1: empty script (expected a (match ...) list)");
  EXPECT_STREQ(error("(match (match :year 2000))").what(),
               "query.cql:1:8: unexpected list (match ...) in match list (expected a keyword or a "
               "(position ...) list)");
  EXPECT_STREQ(error("(match (position (position R)))").what(),
               "query.cql:1:18: unexpected list (position ...) in position list; lists appear only "
               "as keyword arguments (expected a keyword, a piece designator or ')')");
  EXPECT_STREQ(error("(match :and ((match (position R))))").what(),
               "query.cql:1:22: a sub-match list cannot contain position lists (expected a "
               "match-list keyword or ')')");
  EXPECT_STREQ(error("(match :not (position R))").what(),
               "query.cql:1:14: a (position ...) list is not allowed here; found 'position' "
               "(expected 'match')");
  EXPECT_STREQ(error("(match 2000)").what(),
               "query.cql:1:8: unexpected '2000' in match list (expected a keyword, a (position "
               "...) list or ')')");
  EXPECT_STREQ(
      error("(match (position :not :not))").what(),
      "query.cql:1:23: ':not' appears twice in this list (expected at most one bare ':not')");
}

TEST(CqlParserErrors, CrossListChecks) {
  EXPECT_STREQ(error("(match (position $rook[a1]))").what(),
               "query.cql:1:18: tag '$rook' is not declared (expected a tag declared with ':forany "
               "rook <piece>' in the match list)");
  EXPECT_STREQ(error("(match :forany pawn P (position :tagmatch rook R))").what(),
               "query.cql:1:33: tag 'rook' is not declared (expected a tag declared with ':forany "
               "rook <piece>' in the match list)");
  EXPECT_STREQ(error("(match :eithercolor (position :and ((position :flipcolor))))").what(),
               "query.cql:1:47: ':flipcolor' cannot be used when the match list has ':eithercolor' "
               "(expected either ':eithercolor' or ':flipcolor')");
  EXPECT_STREQ(error("(match (position :and ((position :preceding))))").what(),
               "query.cql:1:34: ':preceding' is only allowed in a position list directly inside "
               "the match list (expected a top-level position list)");
  EXPECT_STREQ(error("(match (position :line* (Pe2-e4) :shift))").what(),
               "query.cql:1:34: transformation keyword ':shift' cannot be combined with ':line*' "
               "(transposition-invariant lines) (expected no transformation keywords in a list "
               "with ':line*')");
  EXPECT_STREQ(error("(match (position :line (1.Pe2-e4) :flipcolor))").what(),
               "query.cql:1:35: ':flipcolor' cannot be used with a ':line' that has move numbers "
               "(expected a ':line' without move numbers)");
  EXPECT_STREQ(error("(match (position :relation (:newpiececount U 0 :newpiececount A 1)))").what(),
               "query.cql:1:48: ':newpiececount' may occur only once in a relation list (expected "
               "a single ':newpiececount')");
}

TEST(CqlParseApi, ResultAndExceptionForms) {
  cql::ParseResult ok = cql::parse("(match)", "a.cql");
  EXPECT_TRUE(ok.ok());
  EXPECT_FALSE(ok.error.has_value());
  cql::ParseResult bad = cql::parse("(match", "a.cql");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error->source_name(), "a.cql");
  EXPECT_THROW(cql::parse_or_throw("(match", "a.cql"), cql::ParseError);
  EXPECT_THROW(cql::parse_position_list("(match)"), cql::ParseError);
}

}  // namespace
