// Tests that need a program outside the build (tmux, zstd, python3, stockfish): on a
// developer's machine a missing one skips the test with the reason; in CI (CI=true, where
// .ci/install-deps installs every one of them) it fails the test, so a test that cannot run
// never passes quietly.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

namespace cqltest {

/// True when the environment says this is a CI run ($CI is "true", as .ci/run is run).
inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci && std::strcmp(ci, "true") == 0;
}

}  // namespace cqltest

/// Ends the test when `available` is false: skipped with `why` (a message stream) on a
/// developer's machine, failed in CI. Use at the top of a test body, like GTEST_SKIP().
#define CQLDB_REQUIRE_DEPENDENCY(available, why)                                           \
  if (!(available)) {                                                                     \
    if (cqltest::in_ci()) FAIL() << "missing in CI (.ci/install-deps installs it): " << why; \
    else GTEST_SKIP() << why;                                                              \
  }
