// Duplicate games (issue 16): `import --skip-duplicates`, its lookup through the header
// bitmaps' player columns (issue 42; games_seg_white only for games no bitmap covers) and
// `cqldb duplicates`, on small PGN with exact and near duplicates and on the corpus.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "db/duplicate_index.h"
#include "db/game_writer.h"
#include "db/header_bitmaps.h"
#include "db/record_view.h"
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

namespace {
/// Whether headers.sqlite of `db_dir` has a table or index `name`.
bool has_object(const fs::path& db_dir, const std::string& type, const std::string& name) {
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql, "SELECT 1 FROM sqlite_master WHERE type = ?1 AND name = ?2");
  q.bind(1, std::string_view(type));
  q.bind(2, std::string_view(name));
  return q.step();
}
/// test_pgn() written as `tmp`/t.pgn and imported without skipping into `tmp`/db, which
/// is returned.
fs::path test_database(const TempDir& tmp) {
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const fs::path db_dir = tmp.path / "db";
  import_into(db_dir, {pgn.string()}, false);
  return db_dir;
}
}  // namespace

// Games of the same two players with the same number of plies share the index entry of a
// lookup (white_id, black_id, plies); only equal moves, Date and result make a duplicate.
TEST(Duplicates, GamesOfOnePairAndLengthAreComparedInFull) {
  TempDir tmp("dup");
  const fs::path db_dir = tmp.path / "db";
  const fs::path first = write_pgn(tmp, "a.pgn", game("Anna", "Bert", "2020.01.01", "1-0", kMoves));
  import_into(db_dir, {first.string()}, false);
  const fs::path second = write_pgn(
      tmp, "c.pgn",
      game("Anna", "Bert", "2020.01.01", "1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 a6") +  // a move
          game("Anna", "Bert", "2020.01.02", "1-0", kMoves) +                      // the date
          game("Anna", "Bert", "2020.01.01", "1/2-1/2", kMoves) +                  // the result
          game("Bert", "Anna", "2020.01.01", "1-0", kMoves) +                      // the colours
          game("Anna", "Bert", "2020.01.01", "1-0", kMoves));                      // = game 1
  const import::ImportSummary s = import_into(db_dir, {second.string()}, true);
  EXPECT_EQ(s.imported, 4u);
  EXPECT_EQ(s.skipped_duplicates, 1u);
  EXPECT_TRUE(groups_of(db_dir).empty());
  // Issue 42: the candidates came from the header bitmaps (the first import's chain, then
  // this import's fresh bitmaps), so no index was built; none is left.
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_white"));
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_black"));
}

// The writer's lookup over bitmaps that cover every game: White's bitmap intersected with
// Black's, then length, date and result by id, then the moves; it builds no index (the SQL
// route would have built games_seg_white in the batch, visible after the commit).
TEST(Duplicates, WriterLooksUpThroughThePlayerBitmaps) {
  TempDir tmp("dup");
  const fs::path db_dir = test_database(tmp);
  ASSERT_TRUE(db::HeaderBitmaps::open(db_dir).has_value());
  db::Database database = db::Database::create_or_open(db_dir);
  db::GameReader reader = database.reader();
  db::GameWriter writer = database.writer();
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    const db::GameHeader header = reader.header(id);
    std::string record;
    ASSERT_TRUE(reader.read_record(id, record));
    const std::optional<uint32_t> found = writer.find_duplicate(header, record);
    ASSERT_TRUE(found.has_value()) << id;
    // The first stored copy: games 1, 2 and 10 are one game.
    EXPECT_EQ(*found, id == 2 || id == 10 ? 1u : id) << id;
  }
  writer.commit();
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_white"));
}

// Without current bitmaps (a database of the version before the player columns, or whose
// file is gone) the lookup builds games_seg_white for the games no bitmap covers; the
// import's catch-up then builds the bitmaps and drops the index.
TEST(Duplicates, WithoutBitmapsTheIndexServesUntilTheCatchUp) {
  TempDir tmp("dup");
  const fs::path db_dir = test_database(tmp);
  db::remove_header_bitmaps(db_dir);
  const import::ImportSummary again = import_into(db_dir, {(tmp.path / "t.pgn").string()}, true);
  EXPECT_EQ(again.skipped_duplicates, 10u);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_TRUE(again.header_bitmaps.rebuilt);
  EXPECT_EQ(db::HeaderBitmaps::open(db_dir)->covered(), 10u);
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_white"));
}

// Real games: the same file imported twice skips every game the second time; two copies
// in one import skip the second (found in the import's fresh bitmaps).
TEST(Duplicates, CorpusTwiceAcrossAndWithinOneImport) {
  TempDir tmp("dup");
  const std::string file = std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst";
  const fs::path db_dir = tmp.path / "db";
  const import::ImportSummary first = import_into(db_dir, {file}, true);
  ASSERT_GT(first.imported, 2900u);
  const import::ImportSummary again = import_into(db_dir, {file}, true);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_EQ(again.skipped_duplicates, first.imported + first.skipped_duplicates);
  const fs::path copy = tmp.path / "copy.pgn.zst";  // another file: not a continued import
  fs::copy_file(file, copy);
  const fs::path db2 = tmp.path / "db2";
  const import::ImportSummary both = import_into(db2, {file, copy.string()}, true);
  EXPECT_EQ(both.imported, first.imported);
  EXPECT_EQ(both.skipped_duplicates, first.imported + 2 * first.skipped_duplicates);
  EXPECT_TRUE(groups_of(db2).empty());
}

// The segments a player filter names: 0 .. max id >> 18, and 0 alone in an empty database.
TEST(Duplicates, PlayerSegmentsCoverEveryId) {
  db::sqlite::Connection sql(":memory:", db::sqlite::OpenMode::kReadWriteCreate);
  auto segments = [&](const std::string& max_id) {
    db::sqlite::Statement q(sql, "SELECT n FROM " + db::schema::player_segments_sql(max_id));
    std::vector<int64_t> out;
    while (q.step()) out.push_back(q.column_int64(0));
    return out;
  };
  EXPECT_EQ(segments("SELECT NULL"), (std::vector<int64_t>{0}));
  EXPECT_EQ(segments("SELECT 1"), (std::vector<int64_t>{0}));
  EXPECT_EQ(segments("SELECT 262143"), (std::vector<int64_t>{0}));
  EXPECT_EQ(segments("SELECT 262144"), (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(segments("SELECT 3440000").size(), 14u);
  db::sqlite::Statement seg(sql, "SELECT " + db::schema::player_segment_sql("") + " FROM (SELECT 524288 AS id)");
  ASSERT_TRUE(seg.step());
  EXPECT_EQ(seg.column_int64(0), 2);
}

// A database of issue 16's first version has the duplicate_keys table and games_white(white_id);
// one made before issue 16 not even imports.skipped_duplicates; one of sessions 14-15 has
// games_white_black and games_black. Read-only, its duplicates are listed as they are; its
// next writer drops the table and the old indexes (and builds none: issue 42).
TEST(Duplicates, OlderDatabasesLoseTheOldIndexesAtTheirNextWriter) {
  TempDir tmp("dup");
  const fs::path pgn = write_pgn(tmp, "t.pgn", test_pgn());
  const fs::path db_dir = tmp.path / "db";
  import_into(db_dir, {pgn.string()}, false);
  {
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    sql.exec(
        "CREATE INDEX games_white ON games(white_id); CREATE INDEX games_black ON games(black_id);"
        "CREATE TABLE duplicate_keys(key INTEGER NOT NULL, game_id INTEGER NOT NULL, "
        "PRIMARY KEY(key, game_id)) WITHOUT ROWID; INSERT INTO duplicate_keys VALUES(7, 1);"
        "ALTER TABLE imports DROP COLUMN skipped_duplicates");
  }
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_white"));
  EXPECT_EQ(groups_of(db_dir), (Groups{{1, 2, 10}}));
  const import::ImportSummary again = import_into(db_dir, {pgn.string()}, true);
  EXPECT_EQ(again.skipped_duplicates, 10u);
  EXPECT_EQ(again.imported, 0u);
  EXPECT_EQ(groups_of(db_dir), (Groups{{1, 2, 10}}));
  EXPECT_EQ(skipped_per_run(db_dir), (std::vector<int64_t>{0, 10}));
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_white"));
  EXPECT_FALSE(has_object(db_dir, "index", "games_seg_black"));
  EXPECT_FALSE(has_object(db_dir, "index", "games_white"));
  EXPECT_FALSE(has_object(db_dir, "index", "games_black"));
  EXPECT_FALSE(has_object(db_dir, "table", "duplicate_keys"));
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
