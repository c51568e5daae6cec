// Site names cut into a shared `sites` prefix and a games.site_suffix (issue 23,
// db/site_name.h): the cut itself, the round trip of lichess-style games' URL sites, the
// site keywords and filter terms against a brute-force reading of the same games, and an
// older database (whole URL names, no column) read, then appended to.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "db/date_sql.h"
#include "db/game_reader.h"
#include "db/schema.h"
#include "db/site_name.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "headers/filter_terms.h"
#include "headers/header_filter.h"
#include "headers/header_store.h"
#include "headers/match_values.h"
#include "import/importer.h"
#include "temp_dir.h"
#include "test_dependency.h"

namespace fs = std::filesystem;

namespace {

using Ids = std::vector<uint32_t>;

TEST(SiteName, SplitsUrlsWithAPathAfterTheLastSlash) {
  auto split = [](std::string_view s) {
    auto p = db::split_site_url(s);
    return p ? std::string(p->prefix) + "|" + std::string(p->suffix) : std::string("whole");
  };
  EXPECT_EQ(split("https://lichess.org/91b7584a"), "https://lichess.org/|91b7584a");
  EXPECT_EQ(split("https://www.chess.com/game/live/123"), "https://www.chess.com/game/live/|123");
  EXPECT_EQ(split("http://x/y"), "http://x/|y");
  EXPECT_EQ(split("svn+ssh://h/a/b?c=d/e"), "svn+ssh://h/a/b?c=d/|e");
  for (const char* whole : {"https://lichess.org/", "https://lichess.org", "https:///abc", "://h/abc",
                            "ht tp://h/abc", "Wijk aan Zee NED", "", "?", "lichess.org/abc", "a/b"})
    EXPECT_EQ(split(whole), "whole") << whole;
}

/// Three games of hand-written sites: a URL repeated by two games, a bare host, a plain
/// place name with a country.
const char* kWritten = R"([Event "Club"]
[Site "https://lichess.org/samesite"]
[Date "2020.01.01"]
[White "p1"]
[Black "p2"]
[Result "1-0"]
[WhiteElo "2400"]
[BlackElo "2300"]

1. e4 e5 1-0

[Event "Club"]
[Site "https://lichess.org/samesite"]
[Date "2020.01.02"]
[White "p3"]
[Black "p4"]
[Result "0-1"]
[WhiteElo "2500"]
[BlackElo "2600"]

1. d4 d5 0-1

[Event "Club"]
[Site "https://lichess.org/"]
[Date "2020.01.03"]
[White "p1"]
[Black "p3"]
[Result "1/2-1/2"]
[WhiteElo "2700"]
[BlackElo "2700"]

1. c4 c5 1/2-1/2

[Event "Open"]
[Site "Oslo NOR"]
[Date "2020.02.01"]
[White "p5"]
[Black "p6"]
[Result "1-0"]

1. Nf3 Nf6 1-0
)";

/// Every game's header as GameReader reads it (index = id - 1).
std::vector<db::GameHeader> headers_of(const fs::path& db_dir) {
  db::Database database = db::Database::open_readonly(db_dir);
  db::GameReader reader = database.reader();
  std::vector<db::GameHeader> out;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) out.push_back(reader.header(id));
  return out;
}

/// The games of `(match ITEMS)`'s header conditions.
Ids query(const fs::path& db_dir, const std::string& items, uint32_t count) {
  cql::Script script = cql::parse_or_throw("(match " + items + ")", "test.cql");
  return headers::HeaderStore(db_dir).candidates(headers::HeaderFilter::compile(script.match, false), count);
}

/// The games of the shell filter terms.
Ids filter(const fs::path& db_dir, const std::vector<std::string>& terms, uint32_t count) {
  std::string error;
  std::optional<headers::HeaderFilter> f = headers::compile_filter_terms(terms, error);
  EXPECT_TRUE(f) << error;
  return f ? headers::HeaderStore(db_dir).candidates(*f, count) : Ids();
}

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

/// Ids of the games whose header satisfies `p`.
template <class P>
Ids expected(const std::vector<db::GameHeader>& games, P p) {
  Ids ids;
  for (size_t i = 0; i < games.size(); ++i)
    if (p(games[i])) ids.push_back(uint32_t(i + 1));
  return ids;
}

/// The FIDE category of every game's event (event, site, year) from the players' highest
/// Elo, as match_keywords.cpp defines it, by brute force over the whole site names.
std::vector<int> categories(const std::vector<db::GameHeader>& games) {
  using Key = std::tuple<std::string, std::string, int>;
  auto key = [](const db::GameHeader& h) {
    return Key(h.event, h.site, db::parse_pgn_date(h.date).year.value_or(0));
  };
  std::map<Key, std::map<std::string, int>> events;
  for (const db::GameHeader& h : games) {
    auto& players = events[key(h)];
    if (h.white_elo) players[h.white] = std::max(players[h.white], h.white_elo);
    if (h.black_elo) players[h.black] = std::max(players[h.black], h.black_elo);
  }
  std::vector<int> out;
  for (const db::GameHeader& h : games) {
    const auto& players = events[key(h)];
    double sum = 0;
    for (const auto& [n, e] : players) sum += e;
    const double mean = players.empty() ? 0 : std::round(sum / double(players.size()));
    out.push_back(mean >= 2251 ? int((mean - 2251) / 25) + 1 : 0);
  }
  return out;
}

/// The site keywords and terms against brute force over the exported whole names.
void expect_site_answers(const fs::path& db_dir) {
  const std::vector<db::GameHeader> games = headers_of(db_dir);
  const uint32_t n = uint32_t(games.size());
  auto contains = [](std::string text) {
    return [text](const db::GameHeader& h) { return lower(h.site).find(lower(text)) != std::string::npos; };
  };
  for (const char* text : {"lichess", "samesite", "org/", "https://lichess.org/", "oslo", "nosuchsite"}) {
    EXPECT_EQ(query(db_dir, std::string(":site ") + text, n), expected(games, contains(text))) << text;
    EXPECT_EQ(filter(db_dir, {std::string("site~") + text}, n), expected(games, contains(text))) << text;
  }
  // a quoted pattern matches the whole name
  EXPECT_EQ(query(db_dir, ":site \"https://lichess.org/samesite\"", n),
            expected(games, [](const db::GameHeader& h) { return h.site == "https://lichess.org/samesite"; }));
  EXPECT_EQ(query(db_dir, ":site \"https://lichess.org/\"", n),
            expected(games, [](const db::GameHeader& h) { return h.site == "https://lichess.org/"; }));
  EXPECT_EQ(query(db_dir, ":site \"*/samesite\" :whiteplayer p1", n),
            expected(games, [](const db::GameHeader& h) { return h.site.ends_with("/samesite") && h.white == "p1"; }));
  // eventcountry reads the whole name; eventmode too (a URL site is an internet game)
  EXPECT_EQ(query(db_dir, ":eventcountry NOR", n),
            expected(games, [](const db::GameHeader& h) { return headers::site_country(h.site) == "NOR"; }));
  EXPECT_EQ(query(db_dir, ":eventmode internet", n), expected(games, [](const db::GameHeader& h) {
              return headers::classify_event_mode("", h.site) == cql::EventMode::Internet;
            }));
  const std::vector<int> category = categories(games);
  for (const char* r : {"*", "0", "1 10", ">=20"}) {
    const Ids got = query(db_dir, std::string(":eventcategory ") + r, n);
    std::set<uint32_t> want;
    for (uint32_t id = 1; id <= n; ++id) {
      const int c = category[id - 1];
      const bool in = std::string(r) == "*" ? c > 0 : std::string(r) == "0" ? c == 0
                      : std::string(r) == "1 10" ? c >= 1 && c <= 10 : c >= 20;
      if (in) want.insert(id);
    }
    EXPECT_EQ(std::set<uint32_t>(got.begin(), got.end()), want) << r;
  }
}

/// The number of rows of `sql` (a COUNT query) on the database's headers.sqlite.
int64_t count_rows(const fs::path& db_dir, const char* sql) {
  db::sqlite::Connection c(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(c, sql);
  return q.step() ? q.column_int64(0) : -1;
}

/// players-3000 in lichess's shape (every game its own Site URL) plus the written games:
/// every site comes back whole, `sites` holds the shared prefix once, and the site
/// keywords answer as on whole names.
TEST(SiteSuffix, LichessStyleUrlSitesRoundTripAndAnswerAsWholeNames) {
  cqltest::TempDir dir("site-suffix");
  const auto lichess = dir / "lichess.pgn", written = dir / "written.pgn";
  const std::string command = "zstd -dc " + std::string(CQLDB_SOURCE_DIR) +
                              "/examples/sample/players-3000.pgn.zst | python3 " + CQLDB_CORPUS_DIR +
                              "/lichess-style.py --evals 0 > " + lichess.string();
  CQLDB_REQUIRE_DEPENDENCY(std::system(command.c_str()) == 0, "needs zstd and python3: " << command);
  std::ofstream(written) << kWritten;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    import::import_files(database, {lichess.string(), written.string()}, {}, nullptr);
  }
  // the input's Site tags, in order
  std::vector<std::string> sites;
  for (const fs::path& file : {lichess, written}) {
    std::ifstream in(file);
    for (std::string line; std::getline(in, line);)
      if (line.starts_with("[Site \"")) sites.push_back(line.substr(7, line.size() - 9));
  }
  const std::vector<db::GameHeader> games = headers_of(dir.db());
  ASSERT_EQ(games.size(), sites.size());
  ASSERT_EQ(games.size(), 3004u);
  std::set<std::string> distinct;
  for (size_t i = 0; i < games.size(); ++i) {
    ASSERT_EQ(games[i].site, sites[i]) << "game " << i + 1;
    distinct.insert(sites[i]);
  }
  EXPECT_GT(distinct.size(), 3000u);
  // lichess.org/ once (the prefix, also the whole name of one game) and Oslo NOR
  EXPECT_EQ(count_rows(dir.db(), "SELECT COUNT(*) FROM sites"), 2);
  EXPECT_EQ(count_rows(dir.db(), "SELECT COUNT(*) FROM games WHERE site_suffix IS NOT NULL"), 3002);
  EXPECT_EQ(count_rows(dir.db(), "SELECT value FROM meta WHERE key = 'site_suffixes'"), 1);
  expect_site_answers(dir.db());
}

/// A database of before the site suffixes (whole URL names in `sites`, no column) is read
/// as before; its next writer adds the column and gives a stored whole name to new games
/// of that site, so the site is one key (event categories) across old and new games.
TEST(SiteSuffix, OlderDatabaseKeepsWholeNamesAndItsNextWriterReusesThem) {
  cqltest::TempDir dir("site-suffix-old");
  const auto first = dir / "first.pgn", second = dir / "second.pgn";
  std::ofstream(first) << kWritten;
  std::ofstream(second) << R"([Event "Club"]
[Site "https://lichess.org/samesite"]
[Date "2020.05.01"]
[White "p7"]
[Black "p8"]
[Result "1-0"]
[WhiteElo "2000"]
[BlackElo "2100"]

1. e4 c5 1-0

[Event "Club"]
[Site "https://lichess.org/newsite"]
[Date "2020.05.02"]
[White "p7"]
[Black "p8"]
[Result "0-1"]

1. e4 e6 0-1
)";
  {
    db::Database database = db::Database::create_or_open(dir.db());
    import::import_files(database, {first.string()}, {}, nullptr);
  }
  {  // back to the layout of before: whole names in `sites`, no column, no meta row
    db::sqlite::Connection sql(dir.db() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    sql.exec(
        "INSERT INTO sites(name) SELECT DISTINCT s.name || g.site_suffix FROM games g "
        "JOIN sites s ON s.id = g.site_id WHERE g.site_suffix IS NOT NULL;"
        "UPDATE games SET site_id = (SELECT w.id FROM sites w, sites s WHERE s.id = games.site_id "
        "AND w.name = s.name || games.site_suffix) WHERE site_suffix IS NOT NULL;"
        "ALTER TABLE games DROP COLUMN site_suffix;"
        "DELETE FROM meta WHERE key = 'site_suffixes';");
  }
  const std::vector<std::string> old_sites = {"https://lichess.org/samesite", "https://lichess.org/samesite",
                                              "https://lichess.org/", "Oslo NOR"};
  {
    std::vector<std::string> read;
    for (const db::GameHeader& h : headers_of(dir.db())) read.push_back(h.site);  // adds the column
    EXPECT_EQ(read, old_sites);
  }
  expect_site_answers(dir.db());
  {
    db::Database database = db::Database::create_or_open(dir.db());
    EXPECT_EQ(import::import_files(database, {second.string()}, {}, nullptr).imported, 2u);
  }
  std::vector<std::string> read;
  for (const db::GameHeader& h : headers_of(dir.db())) read.push_back(h.site);
  std::vector<std::string> want = old_sites;
  want.push_back("https://lichess.org/samesite");
  want.push_back("https://lichess.org/newsite");
  EXPECT_EQ(read, want);
  // the stored whole name is reused; a new URL is cut
  EXPECT_EQ(count_rows(dir.db(), "SELECT COUNT(*) FROM games WHERE site_suffix IS NOT NULL"), 1);
  EXPECT_EQ(count_rows(dir.db(), "SELECT site_id FROM games WHERE id = 5"),
            count_rows(dir.db(), "SELECT site_id FROM games WHERE id = 1"));
  expect_site_answers(dir.db());
}

}  // namespace
