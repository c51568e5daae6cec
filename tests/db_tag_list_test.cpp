// The other tags packed one row a game (db/tag_list.h, issue 23's size target): every tag
// comes back through the `tags` view in order and spelling, tag filters answer as a brute
// force over the input, repeating values are interned, malformed lists are errors.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/name_table.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "db/tag_list.h"
#include "headers/header_filter.h"
#include "headers/header_store.h"
#include "import/importer.h"
#include "temp_dir.h"
#include "test_dependency.h"

namespace {

using cqltest::TempDir;
using Tags = std::vector<std::pair<std::string, std::string>>;

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
const std::string kCorpus = CQLDB_CORPUS_DIR;

/// The tags of each game of a PGN file that the importer keeps as other tags here: the
/// lichess ones (UTCTime, rating diffs, TimeControl, Termination), in file order.
std::vector<Tags> lichess_tags(const std::filesystem::path& file) {
  static const char* const kNames[] = {"UTCTime", "WhiteRatingDiff", "BlackRatingDiff", "TimeControl",
                                       "Termination"};
  std::vector<Tags> games;
  std::ifstream in(file);
  std::string line;
  bool in_tags = false;
  while (std::getline(in, line)) {
    const bool tag = !line.empty() && line[0] == '[';
    if (tag && !in_tags) games.emplace_back();
    in_tags = tag;
    if (!tag) continue;
    const size_t blank = line.find(' ');
    const std::string name = line.substr(1, blank - 1);
    for (const char* n : kNames)
      if (name == n) games.back().emplace_back(name, line.substr(blank + 2, line.size() - blank - 4));
  }
  return games;
}

/// Game ids of `(match ITEMS)` answered by the header filter.
std::vector<uint32_t> query(const std::filesystem::path& db_dir, const std::string& items, uint32_t games) {
  cql::Script script = cql::parse_or_throw("(match " + items + ")", "test.cql");
  return headers::HeaderStore(db_dir).candidates(headers::HeaderFilter::compile(script.match, false), games);
}

/// players-3000 in lichess's shape: the five lichess tags of every game come back in order,
/// `:tag` and `:timecontrol`-like filters over them equal a brute force over the input, and
/// the packed lists cost a small part of the rows they replace.
TEST(TagList, LichessStyleTagsComeBackAndFilter) {
  TempDir dir("tag-list-lichess");
  const auto file = dir / "lichess.pgn";
  const std::string command = "zstd -dc " + kSample + "/players-3000.pgn.zst | python3 " + kCorpus +
                              "/lichess-style.py --evals 0 > " + file.string();
  CQLDB_REQUIRE_DEPENDENCY(std::system(command.c_str()) == 0, "needs zstd and python3: " << command);
  const std::vector<Tags> input = lichess_tags(file);
  ASSERT_EQ(input.size(), 3000u);
  {
    db::Database database = db::Database::create_or_open(dir.db());
    const import::ImportSummary s = import::import_files(database, {file.string()}, {}, nullptr);
    ASSERT_EQ(s.imported, 3000u);
  }
  db::Database database = db::Database::open_readonly(dir.db());
  db::GameReader reader = database.reader();
  size_t with_tags = 0;
  for (uint32_t id = 1; id <= 3000; ++id) {
    Tags got;
    for (const auto& [n, v] : reader.header(id).other_tags)
      if (n == "UTCTime" || n.ends_with("RatingDiff") || n == "TimeControl" || n == "Termination")
        got.emplace_back(n, v);
    ASSERT_EQ(got, input[id - 1]) << "game " << id;
    with_tags += !got.empty();
  }
  EXPECT_GT(with_tags, 2900u);

  auto brute = [&](const char* name, auto&& test) {
    std::vector<uint32_t> ids;
    for (uint32_t id = 1; id <= 3000; ++id)
      for (const auto& [n, v] : input[id - 1])
        if (n == name && test(v)) {
          ids.push_back(id);
          break;
        }
    return ids;
  };
  const auto tc = brute("TimeControl", [](const std::string& v) { return v == "180+2"; });
  EXPECT_GT(tc.size(), 300u);
  EXPECT_EQ(query(dir.db(), ":tag TimeControl \"180+2\"", 3000), tc);
  EXPECT_EQ(query(dir.db(), ":tag timecontrol \"180+2\"", 3000), tc);  // names in any case
  EXPECT_EQ(query(dir.db(), ":tag UTCTime \"0*\"", 3000),
            brute("UTCTime", [](const std::string& v) { return v.starts_with("0"); }));
  EXPECT_EQ(query(dir.db(), ":tag WhiteRatingDiff \"+9\"", 3000),
            brute("WhiteRatingDiff", [](const std::string& v) { return v == "+9"; }));
  EXPECT_EQ(query(dir.db(), ":termination timeforfeit", 3000),
            brute("Termination", [](const std::string& v) { return v == "Time forfeit"; }));

  db::sqlite::Connection sql(dir.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  {  // TimeControl, Termination and the rating diffs interned; UTCTime coded by its seconds
    db::sqlite::Statement q(sql,
                            "SELECT n.name, COUNT(*) FROM tag_values v JOIN tag_names n ON n.id = v.name_id "
                            "GROUP BY n.name");
    std::map<std::string, int64_t> codes;
    while (q.step()) codes[std::string(q.column_text(0))] = q.column_int64(1);
    EXPECT_EQ(codes["TimeControl"], 4);
    EXPECT_EQ(codes["Termination"], 2);
    EXPECT_EQ(codes["WhiteRatingDiff"], 19);
    EXPECT_EQ(codes["UTCTime"], 0);
  }
  {  // about 13 bytes of packed tags a game: 4 for UTCTime, 2 for each other tag (5 or 6)
    db::sqlite::Statement q(sql, "SELECT COUNT(*), SUM(LENGTH(packed)) FROM game_tag_lists");
    ASSERT_TRUE(q.step());
    EXPECT_EQ(size_t(q.column_int64(0)), with_tags);
    EXPECT_LE(q.column_int64(1), int64_t(with_tags) * 16);
  }
  {  // the view in SQL, as other tools would read it
    db::sqlite::Statement q(sql, "SELECT seq, name, value FROM tags WHERE game_id = 1 ORDER BY seq");
    Tags got;
    int64_t seq = 0;
    while (q.step()) {
      EXPECT_EQ(q.column_int64(0), seq++);
      got.emplace_back(q.column_text(1), q.column_text(2));
    }
    EXPECT_EQ(got, input[0]);
  }
}

/// A packed list that does not decode is an error of the query, never a wrong answer.
TEST(TagList, MalformedListIsAnError) {
  TempDir dir("tag-list-malformed");
  {
    db::Database database = db::Database::create_or_open(dir.db());
  }
  db::sqlite::Connection sql(dir.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
  sql.exec(
      "INSERT INTO tag_names(id, name) VALUES(1, 'Annotator');"
      "INSERT INTO game_tag_lists(game_id, packed) VALUES(1, x'0203616263');"  // 1, literal "abc"
      "INSERT INTO game_tag_lists(game_id, packed) VALUES(2, x'0209616263');");  // length 9 > 3
  db::sqlite::Statement good(sql, "SELECT name, value FROM tags WHERE game_id = 1");
  ASSERT_TRUE(good.step());
  EXPECT_EQ(good.column_text(0), "Annotator");
  EXPECT_EQ(good.column_text(1), "abc");
  db::sqlite::Statement bad(sql, "SELECT name, value FROM tags WHERE game_id = 2");
  EXPECT_THROW(bad.step(), db::SqliteError);
}

/// An empty database's tag tables, written inside an open transaction (rolled back by the
/// test): the name table and value codes that pack_tags takes.
struct TagTables {
  explicit TagTables(const std::string& name)
      : dir(name), sql(begun(dir)), names(sql, db::NameKind::kTagName), codes(sql) {}
  /// headers.sqlite of a new database in `d`, a transaction begun.
  static db::sqlite::Connection begun(const TempDir& d) {
    {
      db::Database database = db::Database::create_or_open(d.db());
    }
    db::sqlite::Connection c(d.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    c.exec("BEGIN");
    return c;
  }
  TempDir dir;
  db::sqlite::Connection sql;
  db::NameTable names;
  db::TagValueCodes codes;
};

/// pack_tags and read_packed_tag agree on names, codes and literal values (empty, long, any
/// byte), and the 129th distinct value of a name is stored literally.
TEST(TagList, PackAndReadBack) {
  TagTables tables("tag-list-pack");
  db::sqlite::Connection& sql = tables.sql;
  db::NameTable& names = tables.names;
  db::TagValueCodes& codes = tables.codes;
  for (uint32_t i = 0; i < db::TagValueCodes::kMaxCodes; ++i)
    ASSERT_EQ(codes.code(names.id("Many"), "v" + std::to_string(i)), i);
  EXPECT_FALSE(codes.code(names.id("Many"), "one more").has_value());
  EXPECT_EQ(codes.code(names.id("Many"), "v7"), 7u);
  const Tags tags = {{"Many", "v3"}, {"Many", "one more"}, {"Empty", ""},
                     {"Long", std::string(300, 'x')}, {"Bytes", std::string("\x01\x7f\xff", 3)}};
  std::string packed;
  db::pack_tags(tags, names, codes, packed);
  const uint8_t* p = reinterpret_cast<const uint8_t*>(packed.data());
  const uint8_t* end = p + packed.size();
  db::PackedTag t;
  ASSERT_TRUE(db::read_packed_tag(p, end, t));
  EXPECT_EQ(t.code, 3u);
  ASSERT_TRUE(db::read_packed_tag(p, end, t));
  EXPECT_FALSE(t.code.has_value());
  EXPECT_EQ(t.value, "one more");
  ASSERT_TRUE(db::read_packed_tag(p, end, t));
  EXPECT_EQ(t.code, 0u);  // the first value of "Empty" gets code 0
  ASSERT_TRUE(db::read_packed_tag(p, end, t));
  ASSERT_TRUE(db::read_packed_tag(p, end, t));
  EXPECT_EQ(p, end);
  const uint8_t truncated[] = {0x02, 0x05, 'a'};
  p = truncated;
  EXPECT_FALSE(db::read_packed_tag(p, truncated + sizeof truncated, t));
  sql.exec("ROLLBACK");
}

/// A time of day "HH:MM:SS" (lichess's UTCTime, every game a different one) is coded as
/// its seconds after midnight: 4 bytes an entry, no tag_values row; any other spelling keeps
/// the ordinary coding, and every value reads back as written.
TEST(TagList, TimeOfDayValuesAreCodedBySeconds) {
  EXPECT_EQ(db::time_of_day_code("00:00:00"), db::TagValueCodes::kMaxCodes);
  EXPECT_EQ(db::time_of_day_code("02:16:07"), db::TagValueCodes::kMaxCodes + 2 * 3600 + 16 * 60 + 7);
  EXPECT_EQ(db::time_of_day_code("23:59:59"), db::TagValueCodes::kMaxCodes + 86399);
  for (const char* other : {"24:00:00", "2:16:07", "02:16:7", "02:60:00", "02:16:60", "02-16-07", "02:16:07 ",
                            "", "ab:cd:ef"})
    EXPECT_FALSE(db::time_of_day_code(other).has_value()) << other;

  TagTables tables("tag-list-time");
  db::sqlite::Connection& sql = tables.sql;
  db::NameTable& names = tables.names;
  db::TagValueCodes& codes = tables.codes;
  const Tags tags = {{"UTCTime", "02:16:07"}, {"UTCTime", "23:59:59"}, {"UTCTime", "00:00:00"},
                     {"UTCTime", "24:00:00"}, {"Time", "2:16:07"}};
  std::string packed;
  db::pack_tags(tags, names, codes, packed);
  const uint8_t* p = reinterpret_cast<const uint8_t*>(packed.data());
  const uint8_t* end = p + packed.size();
  db::PackedTag t;
  for (const auto& [name, value] : tags) {
    const uint8_t* before = p;
    ASSERT_TRUE(db::read_packed_tag(p, end, t));
    EXPECT_EQ(t.name_id, names.id(name));
    if (db::time_of_day_code(value)) {
      EXPECT_FALSE(t.code.has_value());
      EXPECT_EQ(t.value, value);
      EXPECT_LE(p - before, 4);
    } else {
      EXPECT_TRUE(t.code.has_value()) << value;  // the ordinary code of a repeating value
    }
  }
  EXPECT_EQ(p, end);
  db::sqlite::Statement rows(sql, "SELECT count(*) FROM tag_values WHERE value LIKE '%:%:%'");
  ASSERT_TRUE(rows.step());
  EXPECT_EQ(rows.column_int64(0), 2);  // "24:00:00" and "2:16:07" only
  // name 1, coded, code 128 + 86400 = 86528 = varint 0x80 0xA4 0x05: past midnight
  const uint8_t bad[] = {0x03, 0x80, 0xA4, 0x05};
  static_assert((0x00 | (0x24 << 7) | (0x05 << 14)) == db::TagValueCodes::kMaxCodes + 86400);
  p = bad;
  EXPECT_FALSE(db::read_packed_tag(p, bad + sizeof bad, t));
  sql.exec("ROLLBACK");
}

}  // namespace
