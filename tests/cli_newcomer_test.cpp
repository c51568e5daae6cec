// Issue 20, a newcomer's first hour: the command-line conventions (a directory without a
// database is refused, `-o -`, --version, inverted ranges, one size figure, table and help
// widths), help from the keyword table (`cqldb help :KEYWORD`, did-you-mean, CQL 6 scripts
// named as such) and move lines in standard algebraic notation. The CLI tests run the real
// binary on the bundled sample (examples/sample/).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "cql/ast_print.h"
#include "cql/keyword_help.h"
#include "cql/parser.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

using cqltest::Outcome;

const std::string kSampleDir = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

/// Characters (UTF-8 code points) of a line.
size_t width_of(const std::string& line) {
  size_t n = 0;
  for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

class NewcomerTest : public ::testing::Test {
 protected:
  /// The sample database of the README: the four files of examples/sample.
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("newcomer");
    db::Database database = db::Database::create_or_open(tmp_->path / "sample-db");
    import::import_files(database,
                         {kSampleDir + "/players-3000.pgn.zst", kSampleDir + "/annotated-40.pgn",
                          kSampleDir + "/studies-30.pgn", kSampleDir + "/mates-30.pgn"},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() {
    delete tmp_;
    tmp_ = nullptr;
  }
  static fs::path dir() { return tmp_->path; }
  static std::string db() { return (tmp_->path / "sample-db").string(); }
  static Outcome run(const std::vector<std::string>& args) { return cqltest::run_cqldb(args, dir()); }
  /// Runs with the environment assignment `env` (e.g. "COLUMNS=60") before the binary.
  static Outcome run_env(const std::string& env, const std::vector<std::string>& args) {
    std::string cmd = env + " " + cqltest::shell_quote(CQLDB_BINARY);
    for (const std::string& a : args) cmd += " " + cqltest::shell_quote(a);
    const fs::path out = dir() / "env-out", err = dir() / "env-err";
    cmd += " >" + cqltest::shell_quote(out.string()) + " 2>" + cqltest::shell_quote(err.string()) + " </dev/null";
    const int status = std::system(cmd.c_str());
    Outcome r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = cqltest::read_file(out);
    r.err = cqltest::read_file(err);
    return r;
  }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* NewcomerTest::tmp_ = nullptr;

// ---- conventions

TEST_F(NewcomerTest, EveryCommandButImportRefusesADirectoryWithoutADatabase) {
  const std::string missing = (dir() / "nope").string();
  fs::create_directories(dir() / "empty-dir");
  const std::string empty = (dir() / "empty-dir").string();
  for (const std::vector<std::string>& args :
       std::vector<std::vector<std::string>>{{"info", "--db", missing},
                                             {"check", "--db", missing},
                                             {"export", "--db", missing},
                                             {"reindex", "--db", missing},
                                             {"query", "--db", missing, "-e", "(match (position :mate))"},
                                             {"shell", "--db", missing, "-c", "list"},
                                             {"--db", missing, "-c", "count"},
                                             {"info", "--db", empty},
                                             {"shell", "--db", empty, "-c", "list"}}) {
    Outcome r = run(args);
    EXPECT_EQ(r.code, 2) << args[0] << " " << r.err;
    EXPECT_NE(r.err.find("no cqldb database"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("cqldb import --db"), std::string::npos) << r.err;
  }
  EXPECT_FALSE(fs::exists(dir() / "nope")) << "a mistyped --db created a directory";
  EXPECT_FALSE(fs::exists(dir() / "empty-dir" / "headers.sqlite"));
  // `import` creates it, and so does the shell when asked to (--create).
  Outcome created = run({"shell", "--db", (dir() / "new").string(), "--create", "-c", "count"});
  EXPECT_EQ(created.code, 0) << created.err;
  EXPECT_EQ(created.out, "0 games\n");
}

TEST_F(NewcomerTest, DashAsOutputIsStandardOutput) {
  Outcome r = run({"query", "--db", db(), "-e", "(match (position :mate))", "--format", "ids", "-o", "-"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(fs::exists(dir() / "-"));
  EXPECT_GT(lines_of(r.out).size(), 30u);
  Outcome e = run({"export", "--db", db(), "--id", "3", "-o", "-"});
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_EQ(e.out.rfind("[Event ", 0), 0u) << e.out.substr(0, 80);
  EXPECT_FALSE(fs::exists(dir() / "-"));
}

TEST_F(NewcomerTest, VersionIsPrinted) {
  for (const char* flag : {"--version", "version"}) {
    Outcome r = run({flag});
    EXPECT_EQ(r.code, 0);
    EXPECT_TRUE(std::regex_search(r.out, std::regex("^cqldb \\d+\\.\\d+\\.\\d+ \\(database format \\d+"))) << r.out;
  }
}

TEST_F(NewcomerTest, InvertedOrEmptyExportRangesAreErrors) {
  Outcome r = run({"export", "--db", db(), "--from", "5", "--to", "3"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--from 5 --to 3 is an empty range"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
  Outcome zero = run({"export", "--db", db(), "--from", "0", "--to", "3"});
  EXPECT_EQ(zero.code, 2) << zero.err;
  Outcome beyond = run({"export", "--db", db(), "--from", "5000"});
  EXPECT_EQ(beyond.code, 1);
  EXPECT_NE(beyond.err.find("no games from id 5000 on (the database has 3100 games)"), std::string::npos)
      << beyond.err;
  Outcome both = run({"export", "--db", db(), "--id", "4", "--from", "3"});
  EXPECT_EQ(both.code, 2) << both.err;
  Outcome ok = run({"export", "--db", db(), "--from", "3", "--to", "4"});
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(std::count(ok.out.begin(), ok.out.end(), '\n') > 10, true);
}

TEST_F(NewcomerTest, InfoReportsOneSizeFigureOnTheCommandLineAndInTheShell) {
  Outcome cli = run({"info", "--db", db()});
  Outcome shell = run({"shell", "--db", db(), "-c", "info"});
  ASSERT_EQ(cli.code, 0) << cli.err;
  ASSERT_EQ(shell.code, 0) << shell.err;
  std::smatch a, b;
  ASSERT_TRUE(std::regex_search(cli.out, a, std::regex("size on disk: +([0-9.]+ [KMG]?i?B)"))) << cli.out;
  ASSERT_TRUE(std::regex_search(shell.out, b, std::regex("size: +([0-9.]+ [KMG]?i?B)"))) << shell.out;
  EXPECT_EQ(a[1].str(), b[1].str());
  std::smatch pa, pb;
  ASSERT_TRUE(std::regex_search(cli.out, pa, std::regex("bytes per game: +([0-9.]+)")));
  ASSERT_TRUE(std::regex_search(shell.out, pb, std::regex("\\(([0-9.]+) bytes per game\\)")));
  EXPECT_EQ(pa[1].str(), pb[1].str());
}

TEST_F(NewcomerTest, TablesFitColumnsAndHelpWrapsAt80) {
  for (const char* columns : {"60", "80", "120"}) {
    Outcome r = run_env(std::string("COLUMNS=") + columns,
                        {"query", "--db", db(), "-e", "(match (position :mate))", "--limit", "40"});
    ASSERT_EQ(r.code, 0) << r.err;
    size_t widest = 0;
    for (const std::string& line : lines_of(r.out)) widest = std::max(widest, width_of(line));
    EXPECT_LE(widest, size_t(std::stoi(columns))) << r.out;
    EXPECT_GT(lines_of(r.out).size(), 30u);
  }
  std::vector<std::vector<std::string>> helps = {{"help"}, {"query", "--help"}, {"shell", "--help"},
                                                 {"help", ":mate"}, {"help", "keywords"},
                                                 {"help", ":line"}, {"help", "query"}};
  for (const auto& args : helps) {
    Outcome r = run(args);
    EXPECT_EQ(r.code, 0) << args[0] << r.err;
    for (const std::string& line : lines_of(r.out)) EXPECT_LE(width_of(line), 80u) << line;
  }
  Outcome shell = run({"shell", "--db", db(), "-c", "help; help find; help :mate"});
  for (const std::string& line : lines_of(shell.out)) EXPECT_LE(width_of(line), 80u) << line;
}

}  // namespace
