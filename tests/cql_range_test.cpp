// Range specifiers (CQL-Range-Specifiers, CQL-Percentage-Specifiers), score ranges, dates,
// ECO ranges and the other value arguments, as parsed in keyword arguments.
#include <gtest/gtest.h>

#include <string>

#include "cql/ast_print.h"
#include "cql/parser.h"

namespace {

// The first keyword item of a match-list fragment `(match <text>)`.
cql::KeywordItem match_kw(const std::string& text) {
  cql::Script s = cql::parse_or_throw("(match " + text + ")", "r.cql");
  return *s.match.keywords().at(0);
}
// The first keyword item of a position-list fragment.
cql::KeywordItem pos_kw(const std::string& text) {
  cql::List l = cql::parse_position_list("(position " + text + ")", "r.cql");
  return *l.keywords().at(0);
}
cql::Range match_range(const std::string& text) {
  return match_kw(text).as<cql::CountArgs>().ranges.at(0);
}
cql::Range pos_range(const std::string& text) {
  return pos_kw(text).as<cql::CountArgs>().ranges.at(0);
}

std::string error_of(const std::string& script) {
  cql::ParseResult r = cql::parse(script, "r.cql");
  return r.ok() ? std::string("<no error>") : std::string(r.error->what());
}

TEST(CqlRange, ExamplesOfTheRangePage) {
  cql::Range exact = match_range(":year 1934");
  EXPECT_EQ(exact.form, cql::RangeForm::Exact);
  EXPECT_TRUE(exact.contains(1934));
  EXPECT_FALSE(exact.contains(1935));
  cql::Range between = match_range(":year 1934 2000");
  EXPECT_EQ(between.form, cql::RangeForm::Between);
  EXPECT_TRUE(between.contains(1934));
  EXPECT_TRUE(between.contains(2000));
  EXPECT_FALSE(between.contains(2001));
  cql::Range at_least = match_range(":year >=1934");
  EXPECT_TRUE(at_least.contains(1934));
  EXPECT_FALSE(at_least.contains(1933));
  EXPECT_FALSE(at_least.hi.has_value());
  cql::Range less = match_range(":year <1935");
  EXPECT_TRUE(less.contains(1934));
  EXPECT_FALSE(less.contains(1935));
  EXPECT_EQ(match_range(":year *").kind, cql::Range::Kind::Any);
  EXPECT_EQ(match_range(":year -").kind, cql::Range::Kind::Missing);
  cql::Range more = pos_range(":matchcount >3");
  EXPECT_FALSE(more.contains(3));
  EXPECT_TRUE(more.contains(4));
}

TEST(CqlRange, UnlimitedBounds) {
  cql::Range r = pos_range(":matchcount 4 unlimited");
  EXPECT_EQ(r.lo->value, 4);
  EXPECT_FALSE(r.hi.has_value());
  EXPECT_EQ(cql::to_string(r), ">=4");
  cql::Range u = pos_range(":piececount R unlimited 2");
  EXPECT_FALSE(u.lo.has_value());
  EXPECT_EQ(u.hi->value, 2);
  EXPECT_NE(
      error_of("(match (position :matchcount unlimited))").find("'unlimited' needs a second bound"),
      std::string::npos);
}

TEST(CqlRange, NegativeBoundsOnlyWhereValuesCanBeNegative) {
  cql::Range r = pos_range(":powerdifference [Rr] -5 10");
  EXPECT_EQ(r.lo->value, -5);
  EXPECT_EQ(r.hi->value, 10);
  cql::Range plus = pos_range(":powerdifference U -2 +2");
  EXPECT_EQ(plus.hi->value, 2);
  cql::Range minus_sign = pos_range(
      ":powerdifference Q q <=\xE2\x88\x92"
      "9");  // U+2212
  EXPECT_EQ(minus_sign.hi->value, -9);
  EXPECT_EQ(error_of("(match (position :piececount R -1))"),
            "r.cql:1:32: a negative bound is not allowed here, found '-1' (expected a value >= 0)");
}

TEST(CqlRange, ReversedBoundsAreAnError) {
  EXPECT_EQ(error_of("(match (position :piececount R 5 2))"),
            "r.cql:1:32: reversed range bounds '5 2' (expected the lower bound first, e.g. '2 5')");
  EXPECT_EQ(error_of("(match :year 2000 1934)"),
            "r.cql:1:14: reversed range bounds '2000 1934' (expected the lower bound first, e.g. "
            "'1934 2000')");
  EXPECT_NE(error_of("(match (position :movenumber end-3 end-4))").find("reversed range bounds"),
            std::string::npos);
  EXPECT_NE(
      error_of("(match (position :pawncount P passed 70% 30%))").find("reversed range bounds"),
      std::string::npos);
}

TEST(CqlRange, Percentages) {
  cql::Range gt = pos_kw(":pawncount P connected >70%").as<cql::PawnCountArgs>().ranges[0];
  EXPECT_TRUE(gt.percent);
  EXPECT_TRUE(gt.lo_strict);
  EXPECT_TRUE(gt.contains_ratio(6, 8));
  EXPECT_FALSE(gt.contains_ratio(5, 8));  // 62.5% is not > 70%
  cql::Range between = pos_kw(":pawncount P connected 30% 70%").as<cql::PawnCountArgs>().ranges[0];
  EXPECT_TRUE(between.contains_ratio(3, 8));   // 37.5%
  EXPECT_FALSE(between.contains_ratio(6, 8));  // 75%
  cql::Range small = pos_kw(":pawncount P connected >12%").as<cql::PawnCountArgs>().ranges[0];
  EXPECT_TRUE(small.contains_ratio(1, 8));  // 12.5% > 12%: bounds are not rounded
  EXPECT_FALSE(small.contains_ratio(0, 8));
  EXPECT_FALSE(small.contains_ratio(0, 0));
  EXPECT_NE(error_of("(match (position :pawncount P passed 120%))").find("0%..100%"),
            std::string::npos);
  EXPECT_NE(error_of("(match (position :pawncount P passed 30% 70))")
                .find("cannot mix a percentage and a count"),
            std::string::npos);
  EXPECT_NE(
      error_of("(match (position :piececount R 50%))").find("percentages are not allowed here"),
      std::string::npos);
}

TEST(CqlRange, EndOfGameBounds) {
  cql::Range end = pos_range(":halfmovenumber end");
  EXPECT_TRUE(end.lo->from_end);
  EXPECT_EQ(end.lo->value, 0);
  cql::Range end3 = pos_range(":movenumber end-3");
  EXPECT_EQ(end3.lo->value, 3);
  cql::Range span = pos_range(":movenumber end-4 end-3");
  EXPECT_EQ(span.lo->value, 4);
  EXPECT_EQ(span.hi->value, 3);
  EXPECT_EQ(cql::to_string(span), "end-4 end-3");
  EXPECT_NE(error_of("(match (position :piececount R end))").find("expected a range"),
            std::string::npos);
}

TEST(CqlRange, SpecialValuesOnlyForGameInformation) {
  EXPECT_NE(error_of("(match (position :piececount R *))").find("expected a range, found '*'"),
            std::string::npos);
  EXPECT_EQ(match_kw(":rating ELO -").as<cql::RatingArgs>().range.kind, cql::Range::Kind::Missing);
  EXPECT_EQ(match_kw(":averagerating* ELO >=2500").as<cql::RatingArgs>().range.lo->value, 2500);
}

TEST(CqlRange, RomanNumeralsForEventCategory) {
  EXPECT_EQ(match_range(":eventcategory >=XX").lo->value, 20);
  EXPECT_EQ(match_range(":eventcategory >=20").lo->value, 20);
  EXPECT_EQ(match_range(":eventcategory XIV").lo->value, 14);
  EXPECT_NE(error_of("(match :eventcategory IIII)").find("expected a range"), std::string::npos);
  EXPECT_NE(error_of("(match :year XX)").find("expected a range"), std::string::npos);
}

TEST(CqlRange, CheckCountForms) {
  cql::CountArgs plus = pos_kw(":checkcount +0+3").as<cql::CountArgs>();
  ASSERT_EQ(plus.ranges.size(), 2u);
  EXPECT_TRUE(plus.plus_form);
  EXPECT_TRUE(plus.ranges[1].contains(3));
  cql::CountArgs pair = pos_kw(":checkcount <=2 : 3").as<cql::CountArgs>();
  ASSERT_EQ(pair.ranges.size(), 2u);
  EXPECT_TRUE(pair.ranges[0].contains(0));
  EXPECT_FALSE(pair.ranges[0].contains(3));
  EXPECT_EQ(pos_kw(":checkcount 2").as<cql::CountArgs>().ranges.size(), 1u);
  EXPECT_NE(error_of("(match (position :checkcount +0+x))").find("malformed check count"),
            std::string::npos);
}

TEST(CqlScoreRange, PawnUnits) {
  cql::EvaluationArgs e = pos_kw(":evaluation depth 4 >=2.5 sidetomove").as<cql::EvaluationArgs>();
  EXPECT_EQ(*e.limit, cql::EngineLimit::Depth);
  EXPECT_EQ(e.limit_value, 4);
  EXPECT_TRUE(e.score->contains(2.5));
  EXPECT_FALSE(e.score->contains(2.4));
  EXPECT_EQ(*e.view, cql::ScoreView::SideToMove);
  cql::EvaluationArgs neg = pos_kw(
                                ":evaluation movetime 3000 <=\xE2\x88\x92"
                                "3.0 absolute")
                                .as<cql::EvaluationArgs>();
  EXPECT_EQ(*neg.score->hi, -3.0);
  cql::EvaluationArgs mate = pos_kw(":evaluation depth 6 mate").as<cql::EvaluationArgs>();
  EXPECT_TRUE(mate.mate);
  cql::EvaluationArgs between =
      pos_kw(":evaluation depth 4 -1 1.5 absolute").as<cql::EvaluationArgs>();
  EXPECT_EQ(*between.score->lo, -1);
  EXPECT_EQ(*between.score->hi, 1.5);
  cql::EvaluationArgs open =
      pos_kw(":evaluation depth 4 unlimited 0.5 absolute").as<cql::EvaluationArgs>();
  EXPECT_FALSE(open.score->lo.has_value());
  EXPECT_NE(
      error_of("(match (position :evaluation depth 4 3 1 absolute))").find("reversed range bounds"),
      std::string::npos);
}

TEST(CqlScoreRange, ExchangeEvaluationDepthForms) {
  cql::EvaluationArgs plain = pos_kw(":exchangeevaluation <=-3").as<cql::EvaluationArgs>();
  EXPECT_FALSE(plain.exchange_depth.has_value());
  EXPECT_EQ(*plain.score->hi, -3);
  cql::EvaluationArgs star = pos_kw(":exchangeevaluation * <=-2").as<cql::EvaluationArgs>();
  EXPECT_TRUE(star.exchange_depth_unlimited);
  cql::EvaluationArgs depth = pos_kw(
                                  ":exchangeevaluation 1 >\xE2\x88\x92"
                                  "0 Q")
                                  .as<cql::EvaluationArgs>();
  EXPECT_EQ(*depth.exchange_depth, 1);
  EXPECT_TRUE(depth.score->lo_strict);
  ASSERT_EQ(depth.pieces.size(), 1u);
}

TEST(CqlDate, Forms) {
  cql::DateRange d = match_kw(":date 2010-10-27").as<cql::DateArgs>().range;
  EXPECT_EQ(d.form, cql::DateRange::Form::Exact);
  EXPECT_EQ(d.first.year, 2010);
  EXPECT_EQ(d.first.month, 10);
  EXPECT_EQ(d.first.day, 27);
  EXPECT_EQ(match_kw(":date >=2010-10-27").as<cql::DateArgs>().range.form,
            cql::DateRange::Form::GreaterEqual);
  EXPECT_EQ(match_kw(":date 2010-10-01 2010-10-31").as<cql::DateArgs>().range.form,
            cql::DateRange::Form::Between);
  cql::DateRange half = match_kw(":date 2010-10-01 .. 2010-10-01+1m").as<cql::DateArgs>().range;
  EXPECT_EQ(half.form, cql::DateRange::Form::HalfOpen);
  EXPECT_EQ(cql::to_string(half.second.resolved()), "2010-11-01");
  cql::DateRange back = match_kw(":date 2010-10-27 .. 2010-10-27-43d").as<cql::DateArgs>().range;
  EXPECT_EQ(cql::to_string(back.second.resolved()), "2010-09-14");
  EXPECT_EQ(cql::to_string(back), "2010-10-27 .. 2010-10-27-43d");
  EXPECT_EQ(match_kw(":eventdate 1930 1935").as<cql::DateArgs>().range.second.year, 1935);
  EXPECT_EQ(match_kw(":date -").as<cql::DateArgs>().range.kind, cql::DateRange::Kind::Missing);
  EXPECT_EQ(match_kw(":date *").as<cql::DateArgs>().range.kind, cql::DateRange::Kind::Any);
}

TEST(CqlDate, Errors) {
  EXPECT_EQ(error_of("(match :date 2010-10-31 2010-10-01)"),
            "r.cql:1:14: reversed date range '2010-10-31 2010-10-01' (expected the earlier date "
            "first (or 'd1 .. d2'))");
  EXPECT_NE(error_of("(match :date 2010-10-01 .. 2010-10-01)").find("empty date range"),
            std::string::npos);
  EXPECT_NE(error_of("(match :date 2010-02-30)").find("day 30 does not exist"), std::string::npos);
  EXPECT_NE(error_of("(match :date 2010-13-01)").find("month 13"), std::string::npos);
  EXPECT_NE(error_of("(match :date 2010-10-01+1x)").find("offset unit"), std::string::npos);
  EXPECT_NE(error_of("(match :date 1930-43d)").find("full date"), std::string::npos);
}

TEST(CqlEco, Ranges) {
  cql::EcoArgs e = match_kw(":eco B00-99,C00-99").as<cql::EcoArgs>();
  ASSERT_EQ(e.ranges.size(), 2u);
  EXPECT_EQ(e.ranges[0].first, 100);
  EXPECT_EQ(e.ranges[0].last, 199);
  EXPECT_EQ(e.ranges[1].first, 200);
  EXPECT_EQ(match_kw(":eco A00").as<cql::EcoArgs>().ranges[0].last, 0);
  EXPECT_EQ(match_kw(":eco A11-39").as<cql::EcoArgs>().ranges[0].last, 39);
  EXPECT_EQ(match_kw(":eco A00-B99").as<cql::EcoArgs>().ranges[0].last, 199);
  EXPECT_EQ(match_kw(":eco *").as<cql::EcoArgs>().special, cql::Range::Kind::Any);
  EXPECT_NE(error_of("(match :eco B99-00)").find("reversed ECO range"), std::string::npos);
  EXPECT_NE(error_of("(match :eco F00)").find("invalid ECO range"), std::string::npos);
}

TEST(CqlValues, CommaListsAcrossTokens) {
  auto modes = match_kw(":timemode normal, corr").as<cql::TimeModeArgs>().values;
  ASSERT_EQ(modes.size(), 2u);
  EXPECT_EQ(modes[1], cql::TimeMode::Correspondence);
  auto results = match_kw(":result 1-0,0-1").as<cql::ResultArgs>().values;
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(match_kw(":result 1/2-1/2").as<cql::ResultArgs>().values[0], cql::GameResult::Draw);
  EXPECT_EQ(match_kw(":eventcountry dk,fi,no,se").as<cql::CodeListArgs>().codes.size(), 4u);
  EXPECT_EQ(match_kw(":blackgender w").as<cql::GenderArgs>().values[0], cql::Gender::Female);
  EXPECT_EQ(match_kw(":hasspecialmarker addedd").as<cql::SpecialMarkerArgs>().values[0],
            cql::SpecialMarker::Added);
  EXPECT_TRUE(match_kw(":hasmarker").as<cql::CodeListArgs>().codes.empty());
  EXPECT_EQ(match_kw(":hasmarker w,b").as<cql::CodeListArgs>().codes.size(), 2u);
  EXPECT_EQ(error_of("(match :eventmode otb,chess)"),
            "r.cql:1:23: 'chess' is not an event mode for ':eventmode' (expected unknown, otb, "
            "corr, email, internet, tele, analysis, composition)");
  EXPECT_NE(error_of("(match :result 1-0,)").find("ends with ','"), std::string::npos);
}

TEST(CqlValues, StartPositions) {
  cql::StartPositionArgs a =
      match_kw(":startposition 518,3398,1-960,misc/runaway").as<cql::StartPositionArgs>();
  ASSERT_EQ(a.entries.size(), 4u);
  EXPECT_EQ(a.entries[0].first, 518);
  EXPECT_EQ(a.entries[2].last, 960);
  EXPECT_EQ(a.entries[3].fics, "misc/runaway");
  EXPECT_TRUE(match_kw(":startposition *").as<cql::StartPositionArgs>().any);
  EXPECT_NE(error_of("(match :startposition 4000)").find("invalid start position"),
            std::string::npos);
}

TEST(CqlValues, TextArguments) {
  cql::TextArgs quoted = match_kw(":player \"Kasparov, Garry\"").as<cql::TextArgs>();
  EXPECT_TRUE(quoted.patterns[0].quoted);
  EXPECT_EQ(quoted.patterns[0].text, "Kasparov, Garry");
  EXPECT_FALSE(match_kw(":event Berlin").as<cql::TextArgs>().patterns[0].quoted);
  cql::TextArgs tag = match_kw(":tag WhiteTeamCountry USA").as<cql::TextArgs>();
  ASSERT_EQ(tag.patterns.size(), 2u);
  EXPECT_EQ(match_kw(":tag * :not").as<cql::TextArgs>().patterns.size(), 1u);
  EXPECT_NE(error_of("(match :comment decisive)").find("in double quotes"), std::string::npos);
}

}  // namespace
