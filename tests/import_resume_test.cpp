// Issue 40, items 3-5: work a user must not lose, on players-344k slices.
//  - An empty database (an empty file, or every game rejected) checks clean and answers a
//    query at once (postings.bin of 28 bytes used to be read again and again: bad_alloc).
//  - An import killed with SIGKILL, run again, continues after the last committed game of
//    the same file (path, size, first MiB): every game once (`cqldb duplicates` finds none),
//    `check` passes; right after the kill `check` warns "index behind by N games" (exit 0)
//    and `check --repair` brings the indexes up to date. `--restart` imports it again.
//  - A full disk (a small tmpfs, as root) says "no space left on device", the games stored
//    safely and how to go on; the same import run again with space continues.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "eval_corpus_db.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "index/postings.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;

/// The first `games` games of players-344k as a PGN file at `path`.
void write_slice(const fs::path& path, size_t games) {
  std::ofstream out(path, std::ios::binary);
  import::PgnSplitter splitter{import::InputStream(cqltest::corpus_file("players-344k.pgn.zst"))};
  import::RawGame raw;
  for (size_t i = 0; i < games && splitter.next(raw); ++i) out << raw.text << "\n\n";
}

/// (file ordinal) of every stored game, by id.
std::vector<int64_t> stored_ordinals(const fs::path& db_dir) {
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql, "SELECT ordinal FROM games ORDER BY id");
  std::vector<int64_t> out;
  while (q.step()) out.push_back(q.column_int64(0));
  return out;
}

/// Lines of `text`.
size_t line_count(const std::string& text) { return size_t(std::count(text.begin(), text.end(), '\n')); }

/// n with thousands separators, as cqldb prints counts.
std::string commas(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) out += (i && (d.size() - i) % 3 == 0 ? "," : "") + std::string(1, d[i]);
  return out;
}

import::ImportOptions small_commits() {
  import::ImportOptions o;
  o.workers = 2;
  o.games_per_commit = 400;
  o.position_segment_games = 1024;
  return o;
}

/// Imports `pgn` into `db_dir` in a child process that dies by SIGKILL: at `kill_after`
/// (parent's clock), or itself once `die_at_games` games are imported (0 = never). Returns
/// true when the child was killed (false: it finished first).
bool killed_import(const fs::path& db_dir, const fs::path& pgn, std::chrono::milliseconds kill_after,
                   uint64_t die_at_games = 0) {
  const pid_t child = fork();
  if (child == 0) {
    try {
      db::Database database = db::Database::create_or_open(db_dir);
      import::import_files(database, {pgn.string()}, small_commits(), [&](const import::ImportProgress& p) {
        if (die_at_games && p.imported >= die_at_games) raise(SIGKILL);
      });
    } catch (...) {
      _exit(3);
    }
    _exit(0);
  }
  if (kill_after.count() > 0) {
    const auto until = std::chrono::steady_clock::now() + kill_after;
    int status = 0;
    while (std::chrono::steady_clock::now() < until) {
      if (waitpid(child, &status, WNOHANG) == child) return false;  // finished before
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(child, SIGKILL);
  }
  int status = 0;
  waitpid(child, &status, 0);
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
}

/// True if the database holds a finished import of some file (its imports row, written after
/// the indexes caught up): a kill that lands after that commit, while the process exits,
/// leaves a whole import behind.
bool import_finished(const fs::path& db_dir) {
  if (!fs::exists(db_dir / db::schema::kHeadersFile)) return false;
  try {
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql, "SELECT count(*) FROM imports");
    return q.step() && q.column_int64(0) > 0;
  } catch (const std::exception&) {  // killed before the schema was whole
    return false;
  }
}

class ImportResume : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("import-resume");
    write_slice(pgn(), 12000);
    // The reference: the slice imported once, without interruption.
    db::Database database = db::Database::create_or_open(tmp_->path / "reference");
    reference_ = import::import_files(database, {pgn().string()}, import::ImportOptions{}, nullptr).imported;
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static fs::path pgn() { return tmp_->path / "players-12000.pgn"; }
  static fs::path reference() { return tmp_->path / "reference"; }
  static cqltest::Outcome run(const std::vector<std::string>& args) { return cqltest::run_cqldb(args, tmp_->path); }

  /// Every game of the slice is stored exactly once, in file order; no duplicates; check passes.
  static void expect_every_game_once(const fs::path& db_dir) {
    const std::vector<int64_t> ordinals = stored_ordinals(db_dir);
    EXPECT_EQ(ordinals, stored_ordinals(reference()));
    EXPECT_EQ(ordinals.size(), reference_);
    const cqltest::Outcome dup = run({"duplicates", "--db", db_dir.string(), "--format", "jsonl"});
    EXPECT_EQ(dup.code, 0) << dup.err;
    EXPECT_EQ(line_count(dup.out), 0u) << dup.out;
    const cqltest::Outcome check = run({"check", "--db", db_dir.string()});
    EXPECT_EQ(check.code, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("no damage found"), std::string::npos) << check.out;
    EXPECT_EQ(check.out.find("warning"), std::string::npos) << check.out;
  }

  static cqltest::TempDir* tmp_;
  static uint64_t reference_;
};

cqltest::TempDir* ImportResume::tmp_ = nullptr;
uint64_t ImportResume::reference_ = 0;

TEST_F(ImportResume, KilledImportWarnsIndexBehindRepairsAndContinues) {
  const fs::path db_dir = tmp_->path / "killed-once";
  ASSERT_TRUE(killed_import(db_dir, pgn(), std::chrono::milliseconds(0), /*die_at_games=*/1000));
  uint32_t committed = 0;
  {
    db::Database database = db::Database::open_readonly(db_dir);
    committed = database.reader().game_count();
  }
  ASSERT_GE(committed, 400u);  // commits of 400 games
  ASSERT_LT(committed, reference_);
  // The games are there; the indexes lag: a warning with the command, not damage.
  cqltest::Outcome check = run({"check", "--db", db_dir.string()});
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("postings.bin: index behind by " + commas(committed) + " games"), std::string::npos)
      << check.out;
  EXPECT_NE(check.out.find("`cqldb check --repair --db " + db_dir.string() + "`"), std::string::npos) << check.out;
  check = run({"check", "--repair", "--db", db_dir.string()});
  EXPECT_EQ(check.code, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("repair: posting index covers " + commas(committed)), std::string::npos)
      << check.out;
  EXPECT_EQ(check.out.find("warning"), std::string::npos) << check.out;
  // The same import again: it continues after the last committed game and says so.
  const cqltest::Outcome again = run({"import", "--db", db_dir.string(), "-q", pgn().string()});
  ASSERT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("continued " + pgn().string() + " after game "), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("--restart imports the file again"), std::string::npos) << again.out;
  expect_every_game_once(db_dir);
  // A finished import is not continued: importing the file again adds it again, and
  // --restart does so for an unfinished one.
  const cqltest::Outcome twice = run({"import", "--db", db_dir.string(), "-q", "--restart", pgn().string()});
  ASSERT_EQ(twice.code, 0) << twice.err;
  EXPECT_EQ(twice.out.find("continued"), std::string::npos) << twice.out;
  EXPECT_EQ(stored_ordinals(db_dir).size(), 2 * reference_);
}

TEST_F(ImportResume, KillNineAtTenRandomMomentsThenARerunStoresEveryGameOnce) {
  // How long the whole import takes here (a fresh database), to spread the kills over it.
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_FALSE(killed_import(tmp_->path / "timing", pgn(), std::chrono::milliseconds(0)));
  const auto whole = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0);
  std::mt19937 rng(40);
  std::uniform_int_distribution<int> moment(10, std::max(20, int(whole.count())));
  int killed = 0;
  std::string figures;
  for (int round = 0; round < 10; ++round) {
    const fs::path db_dir = tmp_->path / ("killed-" + std::to_string(round));
    const int ms = moment(rng);
    const bool was_killed = killed_import(db_dir, pgn(), std::chrono::milliseconds(ms));
    killed += was_killed;
    uint32_t committed = 0;
    try {
      committed = db::Database::open_readonly(db_dir).reader().game_count();
    } catch (const std::exception&) {  // killed before the database was whole: nothing stored
    }
    // Finished before the kill, or killed after the last commit while exiting: the import is
    // whole and a rerun would
    // (rightly) import the file again as new games, so there is nothing to continue.
    const bool whole = !was_killed || import_finished(db_dir);
    figures += " " + std::to_string(ms) + "ms:" + (!was_killed ? std::string("done") : whole ? "whole" : std::to_string(committed));
    if (whole) {
      expect_every_game_once(db_dir);
      fs::remove_all(db_dir);
      continue;
    }
    const cqltest::Outcome rerun = run({"import", "--db", db_dir.string(), "-q", pgn().string()});
    ASSERT_EQ(rerun.code, 0) << rerun.out << rerun.err;
    if (was_killed && committed > 0) EXPECT_NE(rerun.out.find("continued "), std::string::npos) << rerun.out;
    expect_every_game_once(db_dir);
    fs::remove_all(db_dir);
  }
  std::printf("import of 12,000 games takes %lld ms here; kill moment:games committed =%s\n",
              (long long)whole.count(), figures.c_str());
  EXPECT_GE(killed, 6);
}

// Killed after the file's last game was committed, while the indexes catch up: the file is
// not finished yet (its imports row comes last), so the rerun adds nothing.
TEST_F(ImportResume, KilledAfterTheLastGameTheRerunAddsNothing) {
  const fs::path db_dir = tmp_->path / "killed-at-end";
  ASSERT_TRUE(killed_import(db_dir, pgn(), std::chrono::milliseconds(0), /*die_at_games=*/reference_));
  // (Usually all of them: the last progress report comes after the file's last commit.)
  const uint32_t committed = db::Database::open_readonly(db_dir).reader().game_count();
  EXPECT_GT(committed + 400, reference_);
  const cqltest::Outcome again = run({"import", "--db", db_dir.string(), "-q", pgn().string()});
  ASSERT_EQ(again.code, 0) << again.out << again.err;
  EXPECT_NE(again.out.find("continued " + pgn().string() + " after game "), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("imported " + commas(reference_ - committed) + ","), std::string::npos) << again.out;
  expect_every_game_once(db_dir);
}

TEST_F(ImportResume, EmptyDatabasesCheckCleanAndAnswerAtOnce) {
  cqltest::TempDir work("empty-db");
  const fs::path empty_pgn = work.path / "empty.pgn", rejected_pgn = work.path / "rejected.pgn";
  std::ofstream(empty_pgn) << "";
  // Every game rejected: real games of the slice with an illegal first move.
  {
    std::ofstream out(rejected_pgn);
    import::PgnSplitter splitter{import::InputStream(pgn().string())};
    import::RawGame raw;
    for (int i = 0; i < 5 && splitter.next(raw); ++i) {
      const size_t moves = raw.text.find("\n1.");
      ASSERT_NE(moves, std::string::npos);
      out << raw.text.substr(0, moves) << "\n1. Ke5 *\n\n";
    }
  }
  for (const fs::path& file : {empty_pgn, rejected_pgn}) {
    const fs::path db_dir = work.path / (file.stem().string() + "-db");
    const cqltest::Outcome imported = run({"import", "--db", db_dir.string(), "-q", file.string()});
    ASSERT_EQ(imported.code, 0) << imported.err;
    EXPECT_EQ(fs::file_size(db_dir / sig::kPostingsFile), 28u);
    const std::optional<sig::Postings> postings = sig::Postings::open(db_dir);
    ASSERT_TRUE(postings);
    EXPECT_EQ(postings->covered(), 0u);
    const cqltest::Outcome check = run({"check", "--db", db_dir.string()});
    EXPECT_EQ(check.code, 0) << file << check.out << check.err;
    EXPECT_NE(check.out.find("no damage found"), std::string::npos) << check.out;
    const cqltest::Outcome query = run({"query", "--db", db_dir.string(), "-e", "(match (position :mate))"});
    EXPECT_EQ(query.code, 0) << query.err;
    EXPECT_NE(query.err.find("0 matches, 0 games searched"), std::string::npos) << query.err;
    for (const char* args : {"tree", "players", "info"}) {
      const cqltest::Outcome r = run({args, "--db", db_dir.string()});
      EXPECT_TRUE(r.code == 0 || (std::string(args) == "tree" && r.code == 1)) << args << r.out << r.err;
      EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << args << r.err;
    }
  }
}

TEST_F(ImportResume, FullDiskSaysSoKeepsTheCommittedGamesAndTheRerunContinues) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to mount a small tmpfs (the disk-full check runs as root in CI)";
  cqltest::TempDir work("disk-full");
  const fs::path mnt = work.path / "small";
  fs::create_directories(mnt);
  if (mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=3m") != 0)
    GTEST_SKIP() << "mount of a tmpfs failed (" << std::strerror(errno) << "): no disk-full check here";
  struct Unmount {
    fs::path path;
    ~Unmount() { umount2(path.c_str(), MNT_DETACH); }
  } unmount{mnt};
  const fs::path db_dir = mnt / "db";
  std::string message;
  uint32_t stored = 0;
  {
    db::Database database = db::Database::create_or_open(db_dir);
    try {
      import::import_files(database, {pgn().string()}, small_commits(), nullptr);
      ADD_FAILURE() << "12,000 games fit in 3 MB";
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    stored = database.reader().game_count();
  }
  std::printf("%s\n", message.c_str());
  EXPECT_GT(stored, 0u);
  EXPECT_NE(message.find("no space left on device"), std::string::npos) << message;
  EXPECT_NE(message.find(" games, all committed and stored safely"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("run the same import again"), std::string::npos) << message;
  // What was committed reads back whole.
  const std::vector<int64_t> ordinals = stored_ordinals(db_dir);
  ASSERT_EQ(ordinals.size(), stored);
  const std::vector<int64_t> all = stored_ordinals(reference());
  EXPECT_TRUE(std::equal(ordinals.begin(), ordinals.end(), all.begin()));
  // More space: the same import continues, and every game is there once.
  ASSERT_EQ(mount("tmpfs", mnt.c_str(), "tmpfs", MS_REMOUNT, "size=200m"), 0) << std::strerror(errno);
  const cqltest::Outcome again = run({"import", "--db", db_dir.string(), "-q", pgn().string()});
  ASSERT_EQ(again.code, 0) << again.out << again.err;
  expect_every_game_once(db_dir);
}

}  // namespace
