// Issue 14: import stores only moves replay accepts. A null move while in check is rejected
// (with the usual log entry), a king capture after it cannot happen, and the database stays
// queryable.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_test_util.h"
#include "import/game_builder.h"
#include "import/pgn_splitter.h"

namespace fs = std::filesystem;

namespace {

/// Builds the single game `pgn` (first line 1) and returns it.
import::BuiltGame build(const std::string& pgn){import::RawGame raw;
raw.text = pgn;
raw.ordinal = 1;
raw.first_line = 1;
import::GameBuilder builder;
import::BuiltGame out;
builder.build(raw, "test.pgn", out);
return out;
}  // namespace

TEST(ImportNullMove, NullMoveInCheckIsRejectedWithItsLine) {
  const import::BuiltGame g =
      build("[Event \"x\"]\n\n1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7+\n-- 5.Qd5 *\n");
  EXPECT_FALSE(g.stored);
  EXPECT_EQ(g.category, "illegal move");
  EXPECT_EQ(g.move, "--");
  EXPECT_EQ(g.line, 4u);
  EXPECT_NE(g.reason.find("while in check"), std::string::npos) << g.reason;
}

TEST(ImportNullMove, KingCaptureAfterANullMoveIsRejectedNotCrashed) {
  const import::BuiltGame g = build("1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7+ -- 5.Qxe8 *\n");
  EXPECT_FALSE(g.stored);
  EXPECT_EQ(g.move, "--");  // the null move is refused first: the king is never taken
}

TEST(ImportNullMove, NullMoveInCheckInAVariationIsRejected) {
  const import::BuiltGame g =
      build("1.e4 e5 2.Qh5 Nc6 3.Bc4 Nf6 4.Qxf7+ (4.Bxf7+ --) 4...Kxf7 *\n");
  EXPECT_FALSE(g.stored);
  EXPECT_EQ(g.move, "--");
}

TEST(ImportNullMove, NullMoveOutOfCheckIsKept) {
  const import::BuiltGame g = build("1.e4 -- 2.d4 Z0 3.Nf3 *\n");
  EXPECT_TRUE(g.stored) << g.reason;
  EXPECT_EQ(g.header.plies, 5u);
}

TEST(ImportNullMove, CliRejectsBothGamesLogsThemAndStaysQueryable) {
  const fs::path dir = fs::temp_directory_path() / ("cqldb-null-move-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const fs::path pgn = dir / "null.pgn";
  std::ofstream(pgn)
      << "[Event \"null in check\"]\n\n1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7+ -- 5.Qd5 *\n\n"
         "[Event \"king capture\"]\n\n1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7+ -- 5.Qxe8 *\n\n"
         "[Event \"fine\"]\n\n1.e4 e5 2.Bc4 Nc6 3.Qh5 Nf6 4.Qxf7# 1-0\n";
  const std::string db = (dir / "db").string();
  const cqltest::Outcome imp = cqltest::run_cqldb({"import", "-q", "--db", db, pgn.string()}, dir);
  ASSERT_EQ(imp.code, 0) << imp.out << imp.err;
  EXPECT_NE(imp.out.find("read 3 games"), std::string::npos) << imp.out;
  EXPECT_NE(imp.out.find("imported 1, rejected 2"), std::string::npos) << imp.out;
  EXPECT_NE(imp.out.find("game 1 line 3: illegal move: null move '--' while in check"),
            std::string::npos)
      << imp.out;
  EXPECT_NE(imp.out.find("game 2 line 7: illegal move: null move '--' while in check"),
            std::string::npos)
      << imp.out;
  const cqltest::Outcome info = cqltest::run_cqldb({"info", "--db", db, "--log", "5"}, dir);
  ASSERT_EQ(info.code, 0) << info.err;
  EXPECT_NE(info.out.find("null.pgn game 1 line 3: illegal move"), std::string::npos) << info.out;
  EXPECT_NE(info.out.find("null.pgn game 2 line 7: illegal move"), std::string::npos) << info.out;
  const cqltest::Outcome q =
      cqltest::run_cqldb({"query", "--db", db, "-e", "(match (position :check))"}, dir);
  EXPECT_EQ(q.code, 0) << q.out << q.err;
  EXPECT_EQ(q.err.find("error"), std::string::npos) << q.err;
  fs::remove_all(dir);
}

}  // namespace
