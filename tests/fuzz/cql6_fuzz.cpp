// libFuzzer target for the CQL 6 front-end (issues 36 and 37): any bytes are a CQL 6 script.
// Parsing succeeds or throws a located cql6::Error (line and column >= 1), never anything
// else and never a crash; a parsed script compiles (eval::Program::compile_cql6) or throws
// cql6::Error / eval::CompileError; a compiled program gets a Plan (planner::Plan::make) and
// an explain text. Built with -DCQLDB_FUZZ=ON (tests/fuzz/CMakeLists.txt); run by .ci/fuzz
// with the scripts of tests/cql6/ as seeds.
#include <cstdint>
#include <string_view>

#include "cql6/error.h"
#include "cql6/parser.h"
#include "eval/program.h"
#include "fuzz_check.h"
#include "planner/explain.h"
#include "planner/plan.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  cql6::Script script;
  try {
    script = cql6::parse(text);
  } catch (const cql6::Error& e) {
    FUZZ_CHECK(e.loc().line >= 1 && e.loc().column >= 1);
    return 0;
  }
  try {
    const eval::Program program = eval::Program::compile_cql6(script);
    const planner::Plan plan = planner::Plan::make(program);
    FUZZ_CHECK(!planner::explain_plan(program, &plan).empty());
  } catch (const cql6::Error& e) {
    FUZZ_CHECK(e.loc().line >= 1 && e.loc().column >= 1);
  } catch (const eval::CompileError&) {
  }
  return 0;
}
