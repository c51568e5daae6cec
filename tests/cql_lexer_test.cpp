// cql::tokenize: token classes, 1-based line/column, comments, strings.
#include <gtest/gtest.h>

#include "cql/error.h"
#include "cql/lexer.h"

namespace {

using cql::TokenKind;

std::vector<cql::Token> lex(const std::string& s) {
  return cql::tokenize(s, "t.cql");
}

TEST(CqlLexer, ParenthesesKeywordsAndWords) {
  auto t = lex("(position Ra3 :mate)");
  ASSERT_EQ(t.size(), 6u);
  EXPECT_EQ(t[0].kind, TokenKind::LParen);
  EXPECT_EQ(t[1].kind, TokenKind::Word);
  EXPECT_EQ(t[1].text, "position");
  EXPECT_EQ(t[2].kind, TokenKind::Word);
  EXPECT_EQ(t[2].text, "Ra3");
  EXPECT_EQ(t[3].kind, TokenKind::Keyword);
  EXPECT_EQ(t[3].text, "mate");
  EXPECT_EQ(t[3].spelling, cql::KeywordSpelling::Plain);
  EXPECT_EQ(t[4].kind, TokenKind::RParen);
  EXPECT_EQ(t[5].kind, TokenKind::End);
}

TEST(CqlLexer, LocationsAreOneBasedLineAndColumn) {
  auto t = lex("(match\n  ; comment (not a list)\n  (position :check))");
  EXPECT_EQ(t[0].loc.line, 1u);
  EXPECT_EQ(t[0].loc.column, 1u);
  EXPECT_EQ(t[2].kind, TokenKind::LParen);
  EXPECT_EQ(t[2].loc.line, 3u);
  EXPECT_EQ(t[2].loc.column, 3u);
  EXPECT_EQ(t[4].text, "check");
  EXPECT_EQ(t[4].loc.line, 3u);
  EXPECT_EQ(t[4].loc.column, 13u);
}

TEST(CqlLexer, ColumnsCountCodePoints) {
  auto t = lex("; König\n\"Müller\" :x");
  EXPECT_EQ(t[0].kind, TokenKind::String);
  EXPECT_EQ(t[0].text, "Müller");
  EXPECT_EQ(t[1].loc.line, 2u);
  EXPECT_EQ(t[1].loc.column, 10u);
}

TEST(CqlLexer, CommentsRunToEndOfLine) {
  auto t = lex("(match ; :foo (\n)");
  ASSERT_EQ(t.size(), 4u);
  EXPECT_EQ(t[2].kind, TokenKind::RParen);
}

TEST(CqlLexer, ListKindSpellingsOfKeywords) {
  auto t = lex("position:mate match:year relation:shift :line* !match:ischess960");
  EXPECT_EQ(t[0].kind, TokenKind::Keyword);
  EXPECT_EQ(t[0].text, "mate");
  EXPECT_EQ(t[0].spelling, cql::KeywordSpelling::Position);
  EXPECT_EQ(t[1].spelling, cql::KeywordSpelling::Match);
  EXPECT_EQ(t[2].spelling, cql::KeywordSpelling::Relation);
  EXPECT_EQ(t[3].text, "line*");
  EXPECT_EQ(t[4].kind, TokenKind::Bang);
  EXPECT_EQ(t[5].kind, TokenKind::Keyword);
  EXPECT_EQ(t[5].text, "ischess960");
  EXPECT_EQ(t[5].spelled(), "match:ischess960");
}

TEST(CqlLexer, BangOnlyBeforeAKeyword) {
  auto t = lex("!:check !blocked ! K!");
  EXPECT_EQ(t[0].kind, TokenKind::Bang);
  EXPECT_EQ(t[2].kind, TokenKind::Word);
  EXPECT_EQ(t[2].text, "!blocked");
  EXPECT_EQ(t[3].kind, TokenKind::Word);
  EXPECT_EQ(t[3].text, "!");
  EXPECT_EQ(t[4].text, "K!");
}

TEST(CqlLexer, NumbersWithSignAndDecimals) {
  auto t =
      lex("5 -5 +2 2.5 \xE2\x88\x92"
          "9 1-0 +0+3 2010-10-27");
  EXPECT_EQ(t[0].kind, TokenKind::Number);
  EXPECT_EQ(t[0].number, 5);
  EXPECT_TRUE(t[0].is_integer);
  EXPECT_EQ(t[1].number, -5);
  EXPECT_EQ(t[2].number, 2);
  EXPECT_EQ(t[3].number, 2.5);
  EXPECT_FALSE(t[3].is_integer);
  EXPECT_EQ(t[4].kind, TokenKind::Number);  // U+2212 MINUS SIGN
  EXPECT_EQ(t[4].number, -9);
  EXPECT_EQ(t[5].kind, TokenKind::Word);
  EXPECT_EQ(t[6].kind, TokenKind::Word);
  EXPECT_EQ(t[7].kind, TokenKind::Word);
}

TEST(CqlLexer, ComparisonsAndPercentages) {
  auto t = lex(">=50% <3 >-0 : >50%");
  EXPECT_EQ(t[0].kind, TokenKind::Compare);
  EXPECT_EQ(t[0].text, ">=");
  EXPECT_EQ(t[1].kind, TokenKind::Percent);
  EXPECT_EQ(t[1].number, 50);
  EXPECT_FALSE(t[1].space_before);
  EXPECT_EQ(t[2].text, "<");
  EXPECT_EQ(t[3].number, 3);
  EXPECT_EQ(t[5].kind, TokenKind::Number);
  EXPECT_EQ(t[6].kind, TokenKind::Colon);
  EXPECT_EQ(t[7].kind, TokenKind::Compare);
}

TEST(CqlLexer, WordsMayCarryACount) {
  auto t = lex(":pawncount [Pp] isolated-consecutive(3) >=3 (position)");
  EXPECT_EQ(t[2].text, "isolated-consecutive(3)");
  EXPECT_EQ(t[5].kind, TokenKind::LParen);
}

TEST(CqlLexer, DesignatorsAreSingleWords) {
  auto t = lex("[Bb][D1] .[a-h]8 $rook[a1] N:e5 R:+");
  EXPECT_EQ(t[0].text, "[Bb][D1]");
  EXPECT_EQ(t[1].text, ".[a-h]8");
  EXPECT_EQ(t[2].text, "$rook[a1]");
  EXPECT_EQ(t[3].text, "N:e5");
  EXPECT_EQ(t[4].text, "R:+");
}

TEST(CqlLexer, StringsKeepBackslashes) {
  auto t = lex(R"x("*\(Berlin\)" "say \"hi\"")x");
  EXPECT_EQ(t[0].text, R"x(*\(Berlin\))x");
  EXPECT_EQ(t[1].text, R"x(say \"hi\")x");
}

TEST(CqlLexer, UnterminatedStringIsAnError) {
  try {
    lex("(match :event \"Berlin\n)");
    FAIL() << "no error";
  } catch (const cql::ParseError& e) {
    EXPECT_EQ(e.line(), 1u);
    EXPECT_EQ(e.column(), 15u);
    EXPECT_STREQ(e.what(), "t.cql:1:15: unterminated string (expected a closing '\"')");
  }
}

}  // namespace
