// What `cqldb import`, `cqldb info` and `cqldb export` print about an import (issue 24):
// plurals, repairs counted by kind, and no progress line before the summary of a short import.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <tuple>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "import/game_builder.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"

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

namespace {

/// Every record of `dir`'s database, in id order.
std::vector<std::string> records_of(const fs::path& dir) {
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();
  std::vector<std::string> out;
  uint32_t id = 0;
  std::string_view bytes;
  auto scan = reader.scan(1, database.info().games);
  while (scan.next(id, bytes)) out.emplace_back(bytes);
  return out;
}

}  // namespace

// Issue 42: the stage timing of bench_import --stages fills every stage, measures the
// threads' CPU, and changes nothing that is stored.
TEST(ImportSummary, StageTimesFillEveryStageAndStoreTheSameGames) {
  SummaryDir dir;
  const std::vector<std::string> files = {kSample + "/players-3000.pgn.zst", kSample + "/annotated-40.pgn"};
  import::ImportSummary plain, timed;
  for (bool stage_times : {false, true}) {
    import::ImportOptions options;
    options.workers = 2;
    options.stage_times = stage_times;
    db::Database database = db::Database::create_or_open(dir.path / (stage_times ? "timed" : "plain"));
    (stage_times ? timed : plain) = import::import_files(database, files, options, nullptr);
  }
  EXPECT_EQ(timed.imported, plain.imported);
  EXPECT_EQ(timed.rejected, plain.rejected);
  EXPECT_EQ(records_of(dir.path / "timed"), records_of(dir.path / "plain"));
  for (const import::ImportSummary* s : {&plain, &timed}) {
    EXPECT_GT(s->stream_seconds, 0);
    EXPECT_LE(s->stream_seconds, s->seconds);
    EXPECT_GT(s->workers_cpu_seconds, 0);
    EXPECT_GT(s->writer_cpu_seconds, 0);
    EXPECT_GT(s->reader_cpu_seconds, 0);
  }
  using db::Stage;
  for (Stage st : {Stage::kParse, Stage::kPlay, Stage::kRecord, Stage::kSignature, Stage::kPostings,
                   Stage::kPositions, Stage::kEco}) {
    EXPECT_GT(timed.worker_stages.ticks[size_t(st)], 0u) << db::stage_name(st);
    EXPECT_EQ(plain.worker_stages.ticks[size_t(st)], 0u) << db::stage_name(st);
  }
  for (Stage st : {Stage::kPostings, Stage::kPositions, Stage::kNames, Stage::kSqlite, Stage::kLmdb})
    EXPECT_GT(timed.writer_stages.ticks[size_t(st)], 0u) << db::stage_name(st);
  EXPECT_GT(timed.ticks_per_second, 0);
}

// Issue 42: the import reuses its BuiltGames batch after batch (their strings keep their
// memory). A game built into a BuiltGame that held another game equals one built fresh.
TEST(ImportSummary, ReusedBuiltGamesEqualFreshOnes) {
  import::GameBuilder reusing, fresh_builder;
  import::BuiltGame reused;
  size_t games = 0, stored = 0;
  for (const std::string& path : {kSample + "/annotated-40.pgn", kSample + "/studies-30.pgn",
                                  kSample + "/mates-30.pgn", kSample + "/players-3000.pgn.zst"}) {
    import::PgnSplitter splitter{import::InputStream(path)};
    import::RawGame raw;
    while (splitter.next(raw)) {
      import::BuiltGame fresh;
      reusing.build(raw, path, reused);
      fresh_builder.build(raw, path, fresh);
      ++games;
      stored += fresh.stored;
      ASSERT_EQ(reused.stored, fresh.stored) << path << " game " << raw.ordinal;
      const db::GameHeader &a = reused.header, &b = fresh.header;
      EXPECT_EQ(std::tie(a.id, a.source_file, a.ordinal, a.white, a.black, a.event, a.site, a.date, a.round,
                         a.result, a.white_elo, a.black_elo, a.eco, a.plies, a.start_fen, a.variant, a.eco_class,
                         a.opening, a.other_tags),
                std::tie(b.id, b.source_file, b.ordinal, b.white, b.black, b.event, b.site, b.date, b.round,
                         b.result, b.white_elo, b.black_elo, b.eco, b.plies, b.start_fen, b.variant, b.eco_class,
                         b.opening, b.other_tags))
          << path << " game " << raw.ordinal;
      EXPECT_EQ(reused.record, fresh.record);
      EXPECT_EQ(reused.annotations, fresh.annotations);
      EXPECT_EQ(reused.signature, fresh.signature);
      EXPECT_EQ(reused.posting_keys, fresh.posting_keys);
      EXPECT_EQ(reused.position_count, fresh.position_count);
      EXPECT_EQ(reused.warnings, fresh.warnings);
      EXPECT_EQ(std::tie(reused.line, reused.move, reused.category, reused.reason),
                std::tie(fresh.line, fresh.move, fresh.category, fresh.reason));
    }
  }
  EXPECT_GT(games, 3000u);
  EXPECT_GT(stored, 3000u);
}
