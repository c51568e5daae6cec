// Importing from inputs that can be read only once (issue 14): a FIFO, a pipe, standard
// input (`-`) and the `<(...)` form. Every game must be read exactly once.
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "cli_test_util.h"
#include "db/database.h"
#include "import/importer.h"
#include "import/input_stream.h"

namespace fs = std::filesystem;

namespace {

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

/// A fresh directory under the system temp dir, removed at destruction.
struct PipeTempDir {
  fs::path path;
  PipeTempDir() {
    static int counter = 0;
    path = fs::temp_directory_path() /
           ("cqldb-pipe-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~PipeTempDir() { fs::remove_all(path); }
};

/// The games of examples/sample/players-3000.pgn.zst (decompressed bytes) and how many
/// games a regular-file import reads from it.
struct SampleGames {
  std::string pgn;
  uint64_t games = 0;
};

const SampleGames& sample_games() {
  static const SampleGames s = [] {
    SampleGames out;
    import::InputStream in(kSample + "/players-3000.pgn.zst");
    std::string buf(1 << 16, '\0');
    while (size_t n = in.read(buf.data(), buf.size())) out.pgn.append(buf, 0, n);
    PipeTempDir dir;
    db::Database database = db::Database::create_or_open(dir.path / "db");
    out.games = import::import_files(database, {kSample + "/players-3000.pgn.zst"},
                                     import::ImportOptions{}, nullptr)
                    .games_read;
    return out;
  }();
  return s;
}

TEST(ImportPipe, RegularFileHasKnownSizeAPipeDoesNot) {
  PipeTempDir dir;
  const fs::path fifo = dir.path / "games.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo, std::ios::binary) << "1. e4 e5 1-0\n"; });
  import::InputStream in(fifo.string());
  EXPECT_FALSE(in.size_known());
  EXPECT_EQ(in.file_size(), 0u);
  std::string buf(64, '\0');
  std::string text;
  while (size_t n = in.read(buf.data(), buf.size())) text.append(buf, 0, n);
  writer.join();
  EXPECT_EQ(text, "1. e4 e5 1-0\n");
  import::InputStream file(kSample + "/mates-30.pgn");
  EXPECT_TRUE(file.size_known());
  EXPECT_GT(file.file_size(), 0u);
}

TEST(ImportPipe, FifoIsReadOnceAndEveryGameIsImported) {
  const SampleGames& sample = sample_games();
  ASSERT_GE(sample.games, 3000u);
  PipeTempDir dir;
  const fs::path fifo = dir.path / "games.fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  // The writer blocks until the importer opens the FIFO, then writes everything once.
  std::thread writer([&] {
    std::ofstream out(fifo, std::ios::binary);
    out.write(sample.pgn.data(), std::streamsize(sample.pgn.size()));
  });
  db::Database database = db::Database::create_or_open(dir.path / "db");
  const import::ImportSummary s =
      import::import_files(database, {fifo.string()}, import::ImportOptions{}, nullptr);
  writer.join();
  EXPECT_EQ(s.games_read, sample.games);
  EXPECT_EQ(s.imported + s.rejected, s.games_read);
  EXPECT_EQ(s.input_bytes, sample.pgn.size());
}

TEST(ImportPipe, DashIsStandardInputAndPipesAreReadOnce) {
  const SampleGames& sample = sample_games();
  PipeTempDir dir;
  const std::string file = kSample + "/players-3000.pgn.zst";
  const std::string expected = "read " + std::to_string(sample.games / 1000) + "," +
                               std::to_string(sample.games % 1000 + 1000).substr(1) + " games";
  // `-` with a pipe on standard input.
  const std::string db1 = (dir.path / "db1").string();
  const std::string cmd1 = "cat " + cqltest::shell_quote(file) + " | " +
                           cqltest::shell_quote(CQLDB_BINARY) + " import -q --db " +
                           cqltest::shell_quote(db1) + " - > " +
                           cqltest::shell_quote((dir.path / "out1").string()) + " 2>&1";
  ASSERT_EQ(std::system(cmd1.c_str()), 0) << cqltest::read_file(dir.path / "out1");
  EXPECT_NE(cqltest::read_file(dir.path / "out1").find(expected), std::string::npos)
      << cqltest::read_file(dir.path / "out1");
  // A /dev/fd path of a pipe, as bash's <(...) gives.
  const std::string db2 = (dir.path / "db2").string();
  const std::string cmd2 = "cat " + cqltest::shell_quote(file) + " | " +
                           cqltest::shell_quote(CQLDB_BINARY) + " import -q --db " +
                           cqltest::shell_quote(db2) + " /dev/stdin > " +
                           cqltest::shell_quote((dir.path / "out2").string()) + " 2>&1";
  ASSERT_EQ(std::system(cmd2.c_str()), 0) << cqltest::read_file(dir.path / "out2");
  EXPECT_NE(cqltest::read_file(dir.path / "out2").find(expected), std::string::npos)
      << cqltest::read_file(dir.path / "out2");
  // `-` with a regular file on standard input.
  const cqltest::Outcome r = cqltest::run_cqldb(
      {"import", "-q", "--db", (dir.path / "db3").string(), "-"}, dir.path, sample.pgn);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find(expected), std::string::npos) << r.out;
}

TEST(ImportPipe, MissingInputIsStillAClearError) {
  PipeTempDir dir;
  db::Database database = db::Database::create_or_open(dir.path / "db");
  try {
    import::import_files(database, {(dir.path / "missing.pgn").string()}, import::ImportOptions{},
                         nullptr);
    FAIL() << "no error for a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

}  // namespace
