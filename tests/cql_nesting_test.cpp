// Nesting depth of a query (issue 14): a query nested deeper than cql::kMaxNestingDepth
// lists is refused by the parser with a located error instead of overflowing the stack,
// and a query nested right up to the bound goes safely through every recursive pass after
// the parser: printing, compile, Plan::make (derive/simplify), explain, destruction.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "cql/ast_print.h"
#include "cql/parser.h"
#include "eval/program.h"
#include "planner/explain.h"
#include "planner/plan.h"

namespace {

/// `(match (position :not (position :not ... (position :check) ...)))` with `levels`
/// position lists, each but the last holding the next one under `:not`.
std::string nested_not(int levels) {
  std::string q = "(match ";
  for (int i = 1; i < levels; ++i) q += "(position :not ";
  q += "(position :check)";
  q += std::string(levels - 1, ')');
  return q + ")";
}

/// `(match (position :or ((position :mate) (position :or (... (position :check))))))`:
/// `levels` nested `:or`, each with a leaf alternative and the next `:or`.
std::string nested_or(int levels) {
  std::string q = "(match (position ";
  for (int i = 0; i < levels; ++i) q += ":or ((position :mate) (position ";
  q += ":check";
  for (int i = 0; i < levels; ++i) q += "))";
  return q + "))";
}

/// Expects the parser to refuse `text` with a located "nested deeper than" error.
void expect_too_deep(const std::string& text, uint32_t line, uint32_t column) {
  const cql::ParseResult r = cql::parse(text, "deep.cql");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error->line(), line);
  EXPECT_EQ(r.error->column(), column);
  const std::string what = r.error->what();
  EXPECT_NE(what.find("nested deeper than " + std::to_string(cql::kMaxNestingDepth)),
            std::string::npos)
      << what;
  EXPECT_EQ(what.rfind("deep.cql:" + std::to_string(line) + ":" + std::to_string(column) + ": ", 0), 0u)
      << what;
}

/// Parses, prints, reparses, compiles, plans and explains `text`; each must succeed.
void expect_every_pass_runs(const std::string& text) {
  const auto start = std::chrono::steady_clock::now();
  const cql::Script script = cql::parse_or_throw(text, "deep.cql");
  const std::string printed = cql::to_string(script);
  EXPECT_EQ(cql::to_string(cql::parse_or_throw(printed, "printed.cql")), printed);
  const eval::Program program = eval::Program::compile(script);
  const planner::Plan plan = planner::Plan::make(program);
  EXPECT_FALSE(planner::explain_plan(program, &plan).empty());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST(QueryNesting, TwentyThousandNestedNotAreALocatedError) {
  // The match list is level 1, so the list at column 1 + 15 * (kMax - 1) is the first too deep.
  const int column = 8 + 15 * (cql::kMaxNestingDepth - 1);
  expect_too_deep(nested_not(20000), 1, uint32_t(column));
}

TEST(QueryNesting, FiveThousandNestedOrAreALocatedError) {
  const cql::ParseResult r = cql::parse(nested_or(5000), "deep.cql");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.error->what()).find("nested deeper than"), std::string::npos)
      << r.error->what();
}

TEST(QueryNesting, DeepQueryAcrossLinesNamesTheLineOfTheList) {
  std::string q = "(match\n";
  for (int i = 1; i < 150; ++i) q += "(position :not\n";
  q += "(position :check)" + std::string(149, ')') + ")";
  // Line 1 holds the match list, line 1 + k the k-th position list.
  expect_too_deep(q, uint32_t(cql::kMaxNestingDepth) + 1, 1);
}

TEST(QueryNesting, NestingUpToTheBoundGoesThroughEveryPass) {
  expect_every_pass_runs(nested_not(cql::kMaxNestingDepth - 1));  // match + 99 positions
  EXPECT_FALSE(cql::parse(nested_not(cql::kMaxNestingDepth), "deep.cql").ok());
  // Each :or adds two levels: its own (position ...) alternative inside the list of lists.
  const int ors = cql::kMaxNestingDepth;
  int allowed = 0;
  for (int n = 1; n <= ors; ++n) {
    if (!cql::parse(nested_or(n), "deep.cql").ok()) break;
    allowed = n;
  }
  ASSERT_GT(allowed, 10);
  expect_every_pass_runs(nested_or(allowed));
}

/// `levels` nested position lists, each with `!:mate :not` before the next, the innermost
/// `(position !:check)`.
std::string nested_bang(int levels) {
  std::string q = "(match ";
  for (int i = 1; i < levels; ++i) q += "(position !:mate :not ";
  q += "(position !:check)";
  q += std::string(levels - 1, ')');
  return q + ")";
}

TEST(QueryNesting, NegatedKeywordCountsAsTheListItPrintsAs) {
  // `!:check` is `:not (position :check)` and prints so: its list is one level more, so a
  // script at the bound still prints to a script that parses.
  const int levels = cql::kMaxNestingDepth - 2;  // match + 98 positions + the '!' list
  expect_every_pass_runs(nested_bang(levels));
  const std::string too_deep = nested_bang(levels + 1);
  // The innermost list's '!' is the first too deep.
  expect_too_deep(too_deep, 1, uint32_t(too_deep.find("!:check") + 1));
}

}  // namespace
