// libFuzzer target for the CQL parser, printer, compiler and planner: any bytes are a
// query text. Parsing succeeds or gives a located cql::ParseError (never anything else,
// never a crash, whatever the nesting: cql::kMaxNestingDepth); a parsed script prints to a
// text that parses again to the same print; compiling succeeds or throws
// eval::CompileError; a compiled program gets a Plan (planner::Plan::make) and an explain
// text. Built with -DCQLDB_FUZZ=ON (tests/fuzz/CMakeLists.txt); run by .ci/fuzz.
#include <cstdint>
#include <string>
#include <string_view>

#include "cql/ast_print.h"
#include "cql/parser.h"
#include "eval/program.h"
#include "fuzz_check.h"
#include "planner/explain.h"
#include "planner/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const cql::ParseResult parsed = cql::parse(text, "fuzz.cql");
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error.has_value() && parsed.error->line() >= 1 && parsed.error->column() >= 1);
    return 0;
  }
  const std::string printed = cql::to_string(*parsed.script);
  const cql::ParseResult again = cql::parse(printed, "printed.cql");
  FUZZ_CHECK(again.ok() && cql::to_string(*again.script) == printed);
  try {
    const eval::Program program = eval::Program::compile(*parsed.script);
    const planner::Plan plan = planner::Plan::make(program);
    FUZZ_CHECK(!planner::explain_plan(program, &plan).empty());
  } catch (const eval::CompileError&) {
  }
  return 0;
}
