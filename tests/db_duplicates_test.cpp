// Duplicate games (issue 16): `import --skip-duplicates`, the duplicate_keys index and
// `cqldb duplicates`, on small PGN with exact and near duplicates and on the corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "db/duplicate_index.h"
#include "db/game_reader.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kCorpus = CQLDB_CORPUS_DIR;
using cqltest::TempDir;
using Groups = std::vector<std::vector<uint32_t>>;

/// One game of the test file: `white`, `black`, `date`, `result`, `moves` (SAN movetext
/// without the result) and extra tags that do not count for duplicates.
std::string game(const std::string& white, const std::string& black, const std::string& date,
                 const std::string& result, const std::string& moves,
                 const std::string& extra = "") {
  return "[Event \"Test\"]\n[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Date \"" + date +
         "\"]\n[Result \"" + result + "\"]\n" + extra + "\n" + moves + " " + result + "\n\n";
}

const std::string kMoves = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6";

/// Ten games: 1, 2 and 10 are the same game (2 with other Event/Round tags and a comment),
/// the others differ from game 1 in exactly one field; 11 is the same game with an illegal
/// last move (rejected, not a duplicate).
std::string test_pgn() {
  std::string pgn;
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", kMoves);                          // 1
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", "1. e4 {a comment} e5 2. Nf3 Nc6 3. Bb5 a6",
              "[Round \"7\"]\n[Site \"Elsewhere\"]\n");                               // 2 = 1
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 a6");  // 3 move
  pgn += game("Anne", "Bert", "2020.01.01", "1-0", kMoves);                          // 4 White
  pgn += game("Anna", "Berta", "2020.01.01", "1-0", kMoves);                         // 5 Black
  pgn += game("Anna", "Bert", "2020.01.02", "1-0", kMoves);                          // 6 Date
  pgn += game("Anna", "Bert", "2020.01.01", "0-1", kMoves);                          // 7 Result
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bb5");     // 8 shorter
  pgn += game("Anna", "Bert", "2020.??.??", "1-0", kMoves);                          // 9 Date
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", kMoves);                          // 10 = 1
  pgn += game("Anna", "Bert", "2020.01.01", "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6"); // 11 bad
  return pgn;
}

fs::path write_pgn(const TempDir& dir, const std::string& name, const std::string& text) {
  const fs::path path = dir.path / name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

import::ImportSummary import_into(const fs::path& db_dir, const std::vector<std::string>& files,
                                  bool skip) {
  db::Database database = db::Database::create_or_open(db_dir);
  import::ImportOptions options;
  options.skip_duplicates = skip;
  options.workers = 2;
  return import::import_files(database, files, options, nullptr);
}

Groups groups_of(const fs::path& db_dir) {
  db::Database database = db::Database::open_readonly(db_dir);
  db::GameReader reader = database.reader();
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  return db::duplicate_groups(reader, sql);
}

/// The skipped_duplicates column of the import runs, in order.
std::vector<int64_t> skipped_per_run(const fs::path& db_dir) {
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql,
                          "SELECT games_read, imported, rejected, skipped_duplicates FROM imports "
                          "ORDER BY id");
  std::vector<int64_t> out;
  while (q.step()) {
    EXPECT_EQ(q.column_int64(0), q.column_int64(1) + q.column_int64(2) + q.column_int64(3));
    out.push_back(q.column_int64(3));
  }
  return out;
}

}  // namespace

TEST(Duplicates, KeyDependsOnEveryField) {
  db::DuplicateFields a;
  a.white = "Anna";
  a.black = "Bert";
  a.date = "2020.01.01";
  a.result = db::ResultCode::kWhiteWins;
  a.moves = {1, 2, 3};
  const int32_t key = db::duplicate_key(a);
  EXPECT_EQ(db::duplicate_key(a), key);
  auto differs = [&](auto change) {
    db::DuplicateFields b = a;
    change(b);
    EXPECT_FALSE(b == a);
    return db::duplicate_key(b) != key;
  };
  EXPECT_TRUE(differs([](auto& f) { f.white = "Ann"; }));
  EXPECT_TRUE(differs([](auto& f) { f.black = "BertX"; }));
  // Field boundaries count: moving a byte from White to Black changes the key.
  EXPECT_TRUE(differs([](auto& f) { f.white = "Ann"; f.black = "aBert"; }));
  EXPECT_TRUE(differs([](auto& f) { f.date = "2020.01.02"; }));
  EXPECT_TRUE(differs([](auto& f) { f.result = db::ResultCode::kDraw; }));
  EXPECT_TRUE(differs([](auto& f) { f.moves.pop_back(); }));
  EXPECT_TRUE(differs([](auto& f) { f.moves[1] = 7; }));
  EXPECT_TRUE(differs([](auto& f) { f.start_fen = "8/8/8/8/8/8/8/K6k w - - 0 1"; }));
}

TEST(Duplicates, WithoutTheFlagEveryGameIsStoredAndListed) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const import::ImportSummary s = import_into(tmp.path / "db", {pgn.string()}, false);
  EXPECT_EQ(s.games_read, 11u);
  EXPECT_EQ(s.imported, 10u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.skipped_duplicates, 0u);
  EXPECT_EQ(groups_of(tmp.path / "db"), (Groups{{1, 2, 10}}));
  EXPECT_EQ(skipped_per_run(tmp.path / "db"), (std::vector<int64_t>{0}));
}

TEST(Duplicates, SkippedWithinOneFile) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const import::ImportSummary s = import_into(tmp.path / "db", {pgn.string()}, true);
  EXPECT_EQ(s.games_read, 11u);
  EXPECT_EQ(s.imported, 8u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.skipped_duplicates, 2u);
  EXPECT_EQ(s.games_read, s.imported + s.rejected + s.skipped_duplicates);
  EXPECT_EQ(s.last_id, 8u);
  EXPECT_TRUE(groups_of(tmp.path / "db").empty());
  EXPECT_EQ(skipped_per_run(tmp.path / "db"), (std::vector<int64_t>{2}));
  // The first copy is stored, later ones skipped: file game 4 (Anne) is id 3.
  db::Database database = db::Database::open_readonly(tmp.path / "db");
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), 8u);
  EXPECT_NE(reader.header(2).site, "Elsewhere");  // file game 2 was skipped
  EXPECT_EQ(reader.header(3).white, "Anne");
}

TEST(Duplicates, AppendWithTheFlagFindsGamesImportedWithout) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const fs::path db_dir = tmp.path / "db";
  import_into(db_dir, {pgn.string()}, false);
  const import::ImportSummary again = import_into(db_dir, {pgn.string()}, true);
  EXPECT_EQ(again.games_read, 11u);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_EQ(again.rejected, 1u);
  EXPECT_EQ(again.skipped_duplicates, 10u);
  // A third import without the flag stores them all again: three copies of game 1.
  const import::ImportSummary third = import_into(db_dir, {pgn.string()}, false);
  EXPECT_EQ(third.imported, 10u);
  EXPECT_EQ(third.skipped_duplicates, 0u);
  const Groups groups = groups_of(db_dir);
  ASSERT_EQ(groups.size(), 8u);  // the eight distinct games of the file, twice or more each
  EXPECT_EQ(groups[0], (std::vector<uint32_t>{1, 2, 10, 11, 12, 20}));
  EXPECT_EQ(groups[1], (std::vector<uint32_t>{3, 13}));
  EXPECT_EQ(skipped_per_run(db_dir), (std::vector<int64_t>{0, 10, 0}));
}

TEST(Duplicates, KeyCollisionNeverSkipsADistinctGame) {
  TempDir tmp("dup");
  const fs::path db_dir = tmp.path / "db";
  const fs::path first = write_pgn(tmp, "a.pgn", game("Anna", "Bert", "2020.01.01", "1-0", kMoves));
  import_into(db_dir, {first.string()}, false);
  // Forge key rows that make game 1 a candidate for two near duplicates: one with other
  // moves, one with another White (as a 32-bit key collision would).
  const std::string other_moves = "1. e4 e5 2. Nf3 Nc6 3. Bc4 a6";
  {
    db::Database database = db::Database::open_readonly(db_dir);
    db::GameReader reader = database.reader();
    db::RecordView view;
    ASSERT_TRUE(reader.record_view(1, view, false));
    db::DuplicateFields renamed = db::duplicate_fields(reader.header(1), view);
    renamed.white = "Anne";
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    db::DuplicateKeys keys(sql);
    keys.add(db::duplicate_key(renamed), 1);
    // The real key of the Bc4 game: computed from an import into a scratch database.
    const fs::path scratch = tmp.path / "scratch";
    const fs::path b = write_pgn(tmp, "b.pgn", game("Anna", "Bert", "2020.01.01", "1-0", other_moves));
    import_into(scratch, {b.string()}, false);
    db::sqlite::Connection s2(scratch / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(s2, "SELECT key FROM duplicate_keys");
    ASSERT_TRUE(q.step());
    keys.add(int32_t(q.column_int64(0)), 1);
  }
  const fs::path second = write_pgn(tmp, "c.pgn",
                                    game("Anna", "Bert", "2020.01.01", "1-0", other_moves) +
                                        game("Anne", "Bert", "2020.01.01", "1-0", kMoves));
  const import::ImportSummary s = import_into(db_dir, {second.string()}, true);
  EXPECT_EQ(s.imported, 2u);
  EXPECT_EQ(s.skipped_duplicates, 0u);
  EXPECT_TRUE(groups_of(db_dir).empty());
}

TEST(Duplicates, DatabaseWithoutTheIndexGetsItFromItsNextWriter) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const fs::path db_dir = tmp.path / "db";
  import_into(db_dir, {pgn.string()}, false);
  {  // as made before issue 16
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    sql.exec("DROP TABLE duplicate_keys; ALTER TABLE imports DROP COLUMN skipped_duplicates");
  }
  EXPECT_THROW(groups_of(db_dir), db::FormatError);
  const import::ImportSummary again = import_into(db_dir, {pgn.string()}, true);
  EXPECT_EQ(again.skipped_duplicates, 10u);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_EQ(groups_of(db_dir), (Groups{{1, 2, 10}}));
  EXPECT_EQ(skipped_per_run(db_dir), (std::vector<int64_t>{0, 10}));
}

TEST(Duplicates, CommandLine) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const std::string db_dir = (tmp.path / "db").string();
  cqltest::Outcome r = cqltest::run_cqldb({"import", "--db", db_dir, "-q", pgn.string()}, tmp.path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("skipped duplicates"), std::string::npos) << r.out;
  r = cqltest::run_cqldb({"import", "--db", db_dir, "-q", "--skip-duplicates", pgn.string()}, tmp.path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("imported 0, rejected 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("skipped duplicates 10\n"), std::string::npos) << r.out;

  r = cqltest::run_cqldb({"duplicates", "--db", db_dir}, tmp.path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out,
            "  group  games  ids\n"
            "      1      3  1 2 10\n"
            "1 group of duplicates: 3 games, 2 of them extra copies, among 10 games\n");
  r = cqltest::run_cqldb({"duplicates", "--db", db_dir, "--format", "jsonl"}, tmp.path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "{\"group\":1,\"ids\":[1,2,10]}\n");
  r = cqltest::run_cqldb({"duplicates", "--db", db_dir, "--format", "csv"}, tmp.path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("unknown format 'csv'"), std::string::npos) << r.err;
  r = cqltest::run_cqldb({"duplicates", "--db", (tmp.path / "none").string()}, tmp.path);
  EXPECT_NE(r.code, 0);
  EXPECT_FALSE(r.err.empty());
}

TEST(Duplicates, CorpusImportedTwiceSkipsEveryStoredGame) {
  TempDir tmp("dup");
  const fs::path db_dir = tmp.path / "db";
  const std::string mates = kCorpus + "/mates.pgn";
  const import::ImportSummary first = import_into(db_dir, {mates}, true);
  EXPECT_EQ(first.games_read, first.imported + first.rejected + first.skipped_duplicates);
  const Groups none = groups_of(db_dir);
  EXPECT_TRUE(none.empty());
  const import::ImportSummary second = import_into(db_dir, {mates}, true);
  EXPECT_EQ(second.games_read, 914u);
  EXPECT_EQ(second.imported, 0u);
  EXPECT_EQ(second.rejected, first.rejected);
  EXPECT_EQ(second.skipped_duplicates, first.imported + first.skipped_duplicates);
}
