// Bounds on transformation composition (issue 14; eval/transform.h kMaxTransformKeywords,
// kMaxComposeSteps; eval/list_compiler.h kMaxCompiledVariants): a script whose
// transformation keywords would make compilation run for minutes or exhaust memory gets a
// located CompileError instead. The first input is what cql_fuzz found (a 23 s timeout in
// compose_sets: four :shift and four :flipcolor in one list).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "cql/error.h"
#include "cql/parser.h"
#include "eval/program.h"
#include "eval/transform.h"

namespace {

/// Compiles `text`; returns the CompileError's message ("" when it compiles). The work a
/// refused script may cause is bounded by counts (kMaxComposeSteps, kMaxCompiledVariants),
/// which the messages name; the tests check those, not the wall time (ctest's timeout
/// catches a hang).
std::string compile_error(const std::string& text) {
  std::string message;
  try {
    eval::Program::compile(cql::parse_or_throw(text, "t.cql"));
  } catch (const cql::CompileError& e) {
    message = e.what();
    EXPECT_GT(e.loc.line, 0u);
  }
  return message;
}

TEST(TransformBound, FuzzInputWithRepeatedShiftsIsALocatedErrorNotAHang) {
  std::ifstream in(std::string(CQLDB_SOURCE_DIR) + "/tests/fuzz/regress/cql-transform-blowup.cql");
  ASSERT_TRUE(in);
  const std::string text{std::istreambuf_iterator<char>(in), {}};
  const std::string error = compile_error(text);
  EXPECT_NE(error.find("too many variants to compose (more than " + std::to_string(eval::kMaxComposeSteps) +
                       " steps)"),
            std::string::npos)
      << error;
}

TEST(TransformBound, ManyFlipcolorsAreRefusedWithTheBound) {
  std::string q = "(match (position Pd2";
  for (int i = 0; i < 40; ++i) q += " :flipcolor";
  q += "))";
  const std::string error = compile_error(q);
  EXPECT_NE(error.find("too many transformation keywords in one position list (40; at most 8)"), std::string::npos)
      << error;
}

TEST(TransformBound, TheLargestUsualCombinationStillCompiles) {
  EXPECT_EQ(compile_error("(match (position Nd4 kf3 :shift :flip :flipcolor))"), "");
  EXPECT_EQ(compile_error("(match (position :shift :flip :flipcolor Pd2 :accumulate* c :reset c :sumrange c 3 8))"), "");
}

TEST(TransformBound, NestedTransformedListsAreBoundedInTotal) {
  // 3,600 variants of the outer list, each compiling 3,600 of the inner one: refused.
  const std::string error =
      compile_error(
          "(match (position Nd4 :shift :flip :flipcolor :or ((position kf3 Qa1 :shift :flip :flipcolor) (position :mate))))");
  EXPECT_NE(error.find("list variants to compile"), std::string::npos) << error;
}

}  // namespace
