// What `cqldb import`, `cqldb info` and `cqldb export` print about an import (issue 24):
// plurals, repairs counted by kind, and no progress line before the summary of a short import.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "cli_test_util.h"
#include "import/importer.h"

namespace fs = std::filesystem;

namespace {

const std::string kConformance = std::string(CQLDB_SOURCE_DIR) + "/tests/pgn_conformance/";
const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

/// A fresh directory under the system temp dir, removed at destruction.
struct SummaryDir {
  fs::path path;
  SummaryDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("cqldb-summary-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~SummaryDir() { fs::remove_all(path); }
};

TEST(ImportSummary, OneGameIsSingularAndRepairsAreCountedByKind) {
  SummaryDir dir;
  const std::string db = (dir.path / "db").string();
  const cqltest::Outcome imp = cqltest::run_cqldb(
      {"import", "--db", db, kConformance + "06_variant_from_position.pgn"}, dir.path);
  ASSERT_EQ(imp.code, 0) << imp.err;
  EXPECT_NE(imp.out.find("read 1 game from 1 file in"), std::string::npos) << imp.out;
  // stderr is no terminal here: no progress line within the first 5 seconds.
  EXPECT_EQ(imp.err, "");

  const cqltest::Outcome imp2 = cqltest::run_cqldb(
      {"import", "-q", "--db", db, kConformance + "01_result_tag_vs_movetext.pgn",
       kConformance + "07_castling_rights_unfit.pgn"},
      dir.path);
  ASSERT_EQ(imp2.code, 0) << imp2.err;
  EXPECT_NE(imp2.out.find("read 6 games from 2 files in"), std::string::npos) << imp2.out;
  EXPECT_NE(imp2.out.find("  repaired: 2 x castling rights dropped\n"), std::string::npos)
      << imp2.out;
  EXPECT_NE(imp2.out.find("  repaired: 2 x result taken from the movetext\n"), std::string::npos)
      << imp2.out;
  EXPECT_NE(imp2.out.find("  repaired: 1 x result tag kept over the movetext\n"), std::string::npos)
      << imp2.out;
  EXPECT_EQ(imp2.out.find("warning: 2 x castling"), std::string::npos) << imp2.out;

  const cqltest::Outcome info = cqltest::run_cqldb({"info", "--db", db}, dir.path);
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(
      info.out.find("repaired:        2 castling rights dropped, 2 non-standard token, "
                    "1 result tag kept over the movetext, 2 result taken from the movetext\n"),
      std::string::npos)
      << info.out;

  const cqltest::Outcome exp = cqltest::run_cqldb(
      {"export", "--db", db, "--id", "1", "-o", (dir.path / "one.pgn").string()}, dir.path);
  ASSERT_EQ(exp.code, 0) << exp.err;
  EXPECT_NE(exp.err.find("exported 1 game to"), std::string::npos) << exp.err;
  const cqltest::Outcome all =
      cqltest::run_cqldb({"export", "--db", db, "-o", (dir.path / "all.pgn").string()}, dir.path);
  EXPECT_NE(all.err.find("exported 7 games to"), std::string::npos) << all.err;
}

TEST(ImportSummary, InfoPrintsNoRepairLineWithoutRepairs) {
  SummaryDir dir;
  const std::string db = (dir.path / "db").string();
  ASSERT_EQ(cqltest::run_cqldb(
                {"import", "-q", "--db", db, kConformance + "08_en_passant_suffix.pgn"}, dir.path)
                .code,
            0);
  const cqltest::Outcome info = cqltest::run_cqldb({"info", "--db", db}, dir.path);
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_EQ(info.out.find("repaired:"), std::string::npos) << info.out;
}

}  // namespace

// Issue 16: an append into a large database commits a tenth of its games at a time (at most
// kMaxGamesPerCommit), a fresh import the configured minimum.
TEST(ImportCommitSize, GrowsWithTheDatabaseUpToTheCap) {
  EXPECT_EQ(import::commit_size(20000, 0), 20000u);
  EXPECT_EQ(import::commit_size(20000, 150000), 20000u);
  EXPECT_EQ(import::commit_size(20000, 500000), 50000u);
  EXPECT_EQ(import::commit_size(20000, 3442460), import::kMaxGamesPerCommit);
  EXPECT_EQ(import::commit_size(7, 0), 7u);
  EXPECT_EQ(import::commit_size(250000, 3442460), 250000u);  // never below the minimum
}
