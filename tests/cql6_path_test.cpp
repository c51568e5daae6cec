// CQL 6.2's `path` / `⊢` and the dash forms (the published examples' features, SPEC-NOTES
// "Published examples: path and dashes (expath)"): what CQL 6.2 refuses is a located error.
// Their answers are checked against CQL 6.2 by tests/cql6_fixture_test.cpp
// (tests/cql6/scripts-part2/ex_path_*.cql).
#include <gtest/gtest.h>

#include <string>

#include "query/query.h"
#include "cql6_test_util.h"

namespace {


TEST(Cql6PathErrors, WhatCql62RefusesIsLocated) {
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ max check --"), "s.cql:1:13: 'path max' needs a numeric filter, this is a plain filter");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ nestban nestban --"), "s.cql:1:17: multiple 'nestban' in 'path'");
  // 40 nested paths parse once each (a probe parse before each real one made this 2^40
  // parses: cql6_fuzz timed out at 30)
  std::string nested = "cql() ";
  for (int k = 0; k < 40; ++k) nested += "path . ";
  EXPECT_EQ(cqltest::cql6_error_of(nested + "check"), "");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ check +"),
            "s.cql:1:15: a path quantifier needs a move dash or a group '( )' before it (expected a dash or '(')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ piecepath --"), "s.cql:1:7: 'piecepath' in 'path' needs 'focus' (expected 'focus SET' before it)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ focus Q primary --"),
            "s.cql:1:7: 'path' with both 'focus' and 'primary' is not supported (CQL 6.2) (expected "
            "'pathstart:depth==depth' as a constituent instead of 'primary')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ secondary --"), "s.cql:1:9: the 'secondary' keyword is not supported with 'path'");
  EXPECT_EQ(cqltest::cql6_error_of("cql() legal [x]"),
            "s.cql:1:13: 'legal' and 'pseudolegal' do not take a capturing dash '[x]' (expected '--')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() legal --=Q"), "s.cql:1:13: 'legal --' takes no promotion (expected '--')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() legal --(check)"),
            "s.cql:1:15: the target of 'legal --' must be one of o-o, o-o-o, castle, enpassant");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ -- 3"),
            "s.cql:1:12: a number as a path constituent (a range or a wildcard '+' '*' written apart?) (expected a "
            "filter in braces, or '{+}' '{*}' for wildcards)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ --check"), "s.cql:1:11: the right side of '--' needs a set filter, this is a plain filter");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ ( ) --"), "s.cql:1:9: an empty group '()' in 'path' (expected constituents)");
  EXPECT_EQ(cqltest::cql6_error_of("cql() countmoves check"), "s.cql:1:18: 'countmoves' needs a move dash (expected '--' or 'legal --')");
  EXPECT_EQ(cqltest::cql6_error_of("cql() ⊢ -- + *"), "s.cql:1:14: two quantifiers in a row in 'path' (expected one of * + ? {m,n})");
  EXPECT_EQ(cqltest::cql6_error_of("cql() X = \"Q\" --=3"),
            "s.cql:1:18: a promotion needs a piece name (expected a piece such as Q or [RB], or a string of piece letters)");
}

TEST(Cql6PathErrors, TheDialectIsFoundAfterAComment) {
  // a script that opens with a comment and does not lex as CQL 6 still reads as CQL 6 (its
  // error is CQL 6's, not "this is a CQL 6 script")
  const std::string e = cqltest::cql6_error_of("/* a comment */\ncql() ☃\n");
  EXPECT_EQ(e.find("this is a CQL 6 script"), std::string::npos) << e;
}

}  // namespace
