// ECO classification at import (issue 17 A, import/eco_classifier.h): the embedded lichess
// table, the deepest-named-position rule with transpositions, the tag fallback, and on real
// games (examples/sample/players-3000.pgn.zst) a brute-force classification written here on
// FEN strings read from data/chess-openings/*.tsv, against game_openings and `:eco`.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/san.h"
#include "db/database.h"
#include "db/game_reader.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "db/schema.h"
#include "eval_corpus_db.h"
#include "import/eco_classifier.h"
#include "import/importer.h"

namespace {

using import::EcoClassifier;

std::vector<std::string> split_moves(const std::string& text) {
  std::istringstream in(text);
  std::vector<std::string> out;
  for (std::string w; in >> w;)
    if (!(w[0] >= '0' && w[0] <= '9')) out.push_back(w);
  return out;
}

std::string classify(const std::string& moves) {
  const EcoClassifier& table = EcoClassifier::instance();
  const int i = table.classify_san(split_moves(moves));
  return i < 0 ? "" : table.opening(i).eco + " " + table.opening(i).name;
}

TEST(EcoClassifier, EmbeddedTableHasEveryRow) {
  const EcoClassifier& table = EcoClassifier::instance();
  EXPECT_EQ(table.size(), 3807u);  // README: 3,807 named positions
  EXPECT_GT(table.max_plies(), 20);
  EXPECT_LT(table.max_plies(), 80);
}

TEST(EcoClassifier, DeepestNamedPositionWins) {
  EXPECT_EQ(classify("1. e4"), "B00 King's Pawn Game");
  EXPECT_EQ(classify("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6"),
            "B90 Sicilian Defense: Najdorf Variation");
  // Moves past the table keep the last named position.
  EXPECT_EQ(classify("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3 h6 7. a3 b6"),
            classify("1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. h3"));
  EXPECT_EQ(classify(""), "");
}

TEST(EcoClassifier, TranspositionsClassifyByPosition) {
  // The Queen's Gambit Declined reached by a Reti move order.
  EXPECT_EQ(classify("1. Nf3 d5 2. c4 e6 3. d4 Nf6 4. Nc3"), classify("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3"));
  EXPECT_EQ(classify("1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Nf3").substr(0, 1), "D");
}

TEST(EcoClassifier, BadTableLinesAreReported) {
  EXPECT_THROW(EcoClassifier("eco\tname\tpgn\nA00\tBroken\t1. e5\n"), std::runtime_error);
  EXPECT_THROW(EcoClassifier("A00 no tabs\n"), std::runtime_error);
  EcoClassifier small("eco\tname\tpgn\nC20\tKing's Pawn\t1. e4 e5\n");
  EXPECT_EQ(small.size(), 1u);
  EXPECT_EQ(small.max_plies(), 2);
}

/// The brute-force table: FEN without clocks of each row's final position -> its ECO code,
/// read from the data files (the later row of a position wins, as in the classifier).
std::unordered_map<std::string, std::string> fen_table() {
  std::unordered_map<std::string, std::string> out;
  for (const char* volume : {"a", "b", "c", "d", "e"}) {
    std::ifstream in(std::string(CQLDB_SOURCE_DIR) + "/data/chess-openings/" + volume + ".tsv");
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
      chess::Position pos;
      for (const std::string& san : split_moves(line.substr(t2 + 1))) {
        chess::UndoInfo u;
        pos.do_move(chess::parse_san(pos, san), u);
      }
      const std::string fen = pos.fen();
      out[fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1))] = line.substr(0, t1);
    }
  }
  return out;
}

TEST(EcoClassifierCorpus, StoredCodesMatchBruteForceAndEcoQueries) {
  cqltest::CorpusDb corpus("eco-classifier", {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"});
  const auto table = fen_table();
  // Brute force: the deepest position found in the FEN table, else the tag's code.
  std::map<uint32_t, std::string> expected;
  std::map<uint32_t, std::string> tag;
  {
    db::sqlite::Connection sql(corpus.dir() / "db" / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql, "SELECT id, eco FROM games");
    while (q.step()) tag[uint32_t(q.column_int64(0))] = std::string(q.column_text(1));
  }
  corpus.for_each_line([&](uint32_t id, std::span<const chess::Position> positions) {
    std::string code;
    for (size_t ply = 1; ply < positions.size(); ++ply) {
      const std::string fen = positions[ply].fen();
      auto it = table.find(fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1)));
      if (it != table.end()) code = it->second;
    }
    const std::string& t = tag[id];
    if (code.empty() && t.size() >= 3 && t[0] >= 'A' && t[0] <= 'E' && isdigit(t[1]) && isdigit(t[2]))
      code = t.substr(0, 3);
    if (!code.empty()) expected[id] = code;
  });
  std::map<uint32_t, std::string> stored;
  size_t with_tag = 0, agree = 0;
  {
    db::sqlite::Connection sql(corpus.dir() / "db" / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql, "SELECT game_id, eco FROM game_openings");
    while (q.step()) stored[uint32_t(q.column_int64(0))] = std::string(q.column_text(1));
  }
  EXPECT_EQ(stored, expected);
  for (const auto& [id, t] : tag) {
    if (t.size() < 3) continue;
    ++with_tag;
    agree += stored.count(id) && stored[id] == t.substr(0, 3);
  }
  ASSERT_GT(with_tag, 2500u);
  // Issue 17 asked for >= 90% agreement with the tags; with this table no rule reaches it
  // (bench_eco: the tag's code is on some named position of only 84.7% of the players-344k
  // games; SPEC-NOTES). What is pinned here is the measured level of the rule (79.7% on
  // this sample, 80.0% on players-344k), so a regression shows.
  EXPECT_GE(double(agree) / double(with_tag), 0.79) << agree << " of " << with_tag;
  // :eco answers from the classified code, with and without the planner.
  for (const std::string codes : {"B90", "B20-B99", "C00-99", "A00", "E60-E99"}) {
    const std::string lo = codes.substr(0, 3);
    const std::string hi = codes.size() == 3 ? lo : codes.size() == 6 ? codes.substr(0, 1) + codes.substr(4) : codes.substr(4);
    std::vector<uint32_t> want;
    for (const auto& [id, code] : expected)
      if (code >= lo && code <= hi) want.push_back(id);
    const std::string script = "(match :eco " + codes + ")";
    std::vector<uint32_t> got, planned;
    for (const auto& [id, plies] : corpus.query(script)) got.push_back(id);
    for (const auto& [id, plies] : corpus.query(script, true)) planned.push_back(id);
    EXPECT_EQ(got, want) << script;
    EXPECT_EQ(planned, got) << script;
  }
}

/// Per game id: the classified code and opening name as GameReader reads them.
std::map<uint32_t, std::pair<std::string, std::string>> classified_headers(const std::filesystem::path& dir) {
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();
  std::map<uint32_t, std::pair<std::string, std::string>> out;
  db::GameHeader h;
  for (uint32_t id = 1; id <= reader.game_count(); ++id)
    if (reader.read_header(id, h)) out[id] = {h.eco_class, h.opening};
  return out;
}

/// SQL text of `sql`'s first row, first column ("" without a row).
std::string sql_text(const std::filesystem::path& dir, const std::string& sql) {
  db::sqlite::Connection c(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(c, sql);
  return q.step() ? std::string(q.column_text(0)) : std::string();
}

/// Game ids of `(match :eco codes)` on a fresh read-only open of `dir`.
std::vector<uint32_t> eco_ids(const std::filesystem::path& dir, const std::string& codes) {
  std::vector<uint32_t> ids;
  db::sqlite::Connection c(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(c, "SELECT game_id FROM game_openings WHERE eco >= ?1 AND eco <= ?2 ORDER BY game_id");
  const std::string lo = codes.substr(0, 3), hi = codes.substr(codes.size() - 3);
  q.bind(1, lo);
  q.bind(2, hi);
  while (q.step()) ids.push_back(uint32_t(q.column_int64(0)));
  return ids;
}

// Issue 23's size target moved the classified code from the game_openings table (15 bytes a
// game) into games.opening_eco/opening_id behind a view of the same name. A database with
// the table is read as it is and folded by its next writer: same codes, names and :eco.
TEST(EcoClassifierCorpus, GameOpeningsTableOfOlderDatabasesIsFoldedByTheNextWriter) {
  cqltest::TempDir tmp("eco-fold");
  const std::filesystem::path dir = tmp.path / "db";
  {
    db::Database database = db::Database::create_or_open(dir);
    import::import_files(database, {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"},
                         import::ImportOptions{}, nullptr);
  }
  EXPECT_EQ(sql_text(dir, "SELECT type FROM sqlite_master WHERE name = 'game_openings'"), "view");
  const auto headers = classified_headers(dir);
  const std::vector<uint32_t> sicilians = eco_ids(dir, "B20-B99");
  ASSERT_GT(headers.size(), 2900u);
  ASSERT_GT(sicilians.size(), 100u);
  size_t named = 0;
  for (const auto& [id, h] : headers) named += !h.second.empty();
  ASSERT_GT(named, 2000u);
  {
    // The layout before: the classified code in its own table, not in games.
    db::sqlite::Connection c(dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    c.exec("BEGIN");
    c.exec("DROP VIEW game_openings");
    c.exec("CREATE TABLE game_openings(game_id INTEGER PRIMARY KEY, eco TEXT NOT NULL, "
           "opening_id INTEGER REFERENCES openings(id))");
    c.exec("INSERT INTO game_openings SELECT id, opening_eco, opening_id FROM games WHERE opening_eco IS NOT NULL");
    c.exec("CREATE INDEX game_openings_eco ON game_openings(eco)");
    c.exec("CREATE TABLE games_before AS SELECT id, file_id, ordinal, white_id, black_id, event_id, site_id, "
           "date, year, month, day, round, result, white_elo, black_elo, eco, plies, fen, variant, flags, "
           "site_suffix FROM games");
    c.exec("DROP TABLE games");
    c.exec("CREATE TABLE games(id INTEGER PRIMARY KEY, file_id INTEGER NOT NULL, ordinal INTEGER NOT NULL, "
           "white_id INTEGER NOT NULL, black_id INTEGER NOT NULL, event_id INTEGER NOT NULL, "
           "site_id INTEGER NOT NULL, date TEXT, year INTEGER, month INTEGER, day INTEGER, round TEXT NOT NULL, "
           "result INTEGER NOT NULL, white_elo INTEGER, black_elo INTEGER, eco TEXT, plies INTEGER NOT NULL, "
           "fen TEXT, variant TEXT, flags INTEGER NOT NULL DEFAULT 0, site_suffix TEXT)");
    c.exec("INSERT INTO games SELECT * FROM games_before");
    c.exec("DROP TABLE games_before");
    c.exec("COMMIT");
  }
  EXPECT_FALSE(sql_text(dir, "SELECT 1 FROM pragma_table_info('games') WHERE name = 'opening_eco'") == "1");
  EXPECT_EQ(classified_headers(dir), headers);  // read as it is
  EXPECT_EQ(eco_ids(dir, "B20-B99"), sicilians);
  EXPECT_EQ(sql_text(dir, "SELECT type FROM sqlite_master WHERE name = 'game_openings'"), "table");
  {
    db::Database database = db::Database::create_or_open(dir);
    db::GameWriter writer = database.writer();  // the next writer folds
    writer.finish();
  }
  EXPECT_EQ(sql_text(dir, "SELECT type FROM sqlite_master WHERE name = 'game_openings'"), "view");
  EXPECT_EQ(sql_text(dir, "SELECT name FROM sqlite_master WHERE name = 'game_openings_eco'"), "");
  // Issue 42: no index on the code; the header bitmaps (db/header_bitmaps.h) answer :eco.
  EXPECT_EQ(sql_text(dir, "SELECT name FROM sqlite_master WHERE name = 'games_opening_eco'"), "");
  EXPECT_EQ(classified_headers(dir), headers);
  EXPECT_EQ(eco_ids(dir, "B20-B99"), sicilians);
}

}  // namespace
