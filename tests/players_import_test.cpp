// Player data (issue 17 A, headers/players.h): the FIDE TXT and CSV readers, the link of
// game sides to the list (FIDE id tag, full name, player key), the keywords :country
// :gender :birthyear :deathyear :title (planner on == off), the one name rule in queries,
// and the `cqldb players` command.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli_test_util.h"
#include "cql/error.h"
#include "db/database.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "eval_corpus_db.h"
#include "headers/players.h"
#include "import/importer.h"
#include "temp_dir.h"

namespace {

using headers::players::ListError;
using headers::players::PlayerRecord;

/// A line of FIDE's TXT list: each value written at its column's start.
std::string fide_line(const std::vector<std::pair<size_t, std::string>>& fields) {
  std::string line;
  for (const auto& [at, text] : fields) {
    if (line.size() < at) line.resize(at, ' ');
    line += text;
  }
  return line;
}

// Column starts of the published list (players_list_foa.txt).
const std::string kFideHeader =
    "ID Number      Name                                                         Fed Sex Tit  WTit OTit           "
    "FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag";

size_t col(const char* label) { return kFideHeader.find(label); }

std::string fide_list() {
  std::string text = kFideHeader + "\n";
  auto row = [&](const char* id, const char* name, const char* fed, const char* sex, const char* tit,
                 const char* wtit, const char* rating, const char* bday, const char* flag) {
    text += fide_line({{0, id}, {col("Name"), name}, {col("Fed"), fed}, {col("Sex"), sex}, {col("Tit"), tit},
                       {col("WTit"), wtit}, {col("SRtng"), rating}, {col("B-day"), bday}, {col("Flag"), flag}}) +
            "\n";
  };
  row("4100018", "Kasparov, Garry", "RUS", "M", "GM", "", "2812", "1963", "i");
  row("700070", "Polgar, Judit", "HUN", "F", "GM", "", "2675", "1976", "wi");
  row("1503014", "Carlsen, Magnus", "NOR", "M", "GM", "", "2831", "1990", "");
  row("13300474", "Kosteniuk, Alexandra", "SUI", "", "", "WGM", "2495", "1984", "w");
  row("99999", "Nobody, Known", "ENG", "M", "", "", "1500", "0000", "");
  text += "not a player line\n";
  return text;
}

TEST(PlayerList, ReadsFideTxtColumns) {
  std::istringstream in(fide_list());
  std::vector<ListError> errors;
  std::vector<PlayerRecord> list = headers::players::read_fide_txt(in, errors);
  ASSERT_EQ(list.size(), 5u);
  EXPECT_EQ(list[0].name, "Kasparov, Garry");
  EXPECT_EQ(list[0].fide_id, 4100018);
  EXPECT_EQ(list[0].country, "RUS");
  EXPECT_EQ(list[0].sex, "m");
  EXPECT_EQ(list[0].title, "GM");
  EXPECT_EQ(list[0].birth, 1963);
  EXPECT_EQ(list[1].sex, "f");
  EXPECT_EQ(list[3].sex, "f");       // from the Flag column
  EXPECT_EQ(list[3].title, "WGM");   // WTit when Tit is empty
  EXPECT_FALSE(list[4].birth);       // 0000 = unknown
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].line, 7u);
  std::istringstream bad("Name Fed\n");
  EXPECT_THROW(headers::players::read_fide_txt(bad, errors), std::runtime_error);
}

TEST(PlayerList, ReadsCsvWithQuotes) {
  std::istringstream in(
      "name,fide_id,country,sex,title,birth,death\n"
      "\"Kasparov, Garry\",4100018,RUS,m,GM,1963,\n"
      "\"Morphy, Paul\",,USA,male,,1837-06-22,1884\n"
      "\"Unclosed,1,USA\n"
      "\"Smith, John\",abc,USA,m,,,\n"
      ",5,USA,m,,,\n");
  std::vector<ListError> errors;
  std::vector<PlayerRecord> list = headers::players::read_players_csv(in, errors);
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "Kasparov, Garry");
  EXPECT_EQ(list[0].fide_id, 4100018);
  EXPECT_EQ(list[1].name, "Morphy, Paul");
  EXPECT_FALSE(list[1].fide_id);
  EXPECT_EQ(list[1].birth, 1837);
  EXPECT_EQ(list[1].death, 1884);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].line, 4u);
  EXPECT_EQ(errors[1].line, 5u);
  std::istringstream no_name("fide_id,country\n1,USA\n");
  EXPECT_THROW(headers::players::read_players_csv(no_name, errors), std::runtime_error);
}

std::string game(const std::string& white, const std::string& black, const std::string& extra_tags,
                 const std::string& moves = "1. e4 e5 2. Nf3 Nc6 1-0") {
  return "[Event \"t\"]\n[Site \"s\"]\n[Date \"2000.01.01\"]\n[Round \"1\"]\n[White \"" + white + "\"]\n[Black \"" +
         black + "\"]\n[Result \"1-0\"]\n" + extra_tags + "\n" + moves + "\n\n";
}

class PlayerData : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    pgn_dir_ = new cqltest::TempDir("players-pgn");
    const std::string pgn = (pgn_dir_->path / "games.pgn").string();
    std::ofstream(pgn) << game("Kasparov, Garry", "Polgar, J.", "[BlackFideId \"700070\"]\n")   // 1
                       << game("Kasparov,G", "Carlsen,M", "[BlackTitle \"GM\"]\n")               // 2
                       << game("DrNykterstein", "Nobody, X", "[WhiteTitle \"BOT\"]\n")           // 3
                       << game("Smith, J", "Smith, John", "")                                    // 4
                       << game("Morphy, Paul", "Anderssen, Adolf", "");                          // 5
    corpus_ = new cqltest::CorpusDb("player-data", {pgn});
    std::istringstream csv(
        "name,fide_id,country,sex,title,birth,death\n"
        "\"Kasparov, Garry\",4100018,RUS,m,GM,1963,\n"
        "\"Polgar, Judit\",700070,HUN,f,GM,1976,\n"
        "\"Polgar, Jozsef\",,HUN,m,,,\n"  // shares Polgar, J's key: the FIDE id decides
        "\"Carlsen, Magnus\",1503014,NOR,m,GM,1990,\n"
        "\"Smith, John\",,USA,m,,1950,2020\n"
        "\"Smith, James\",,ENG,m,,1960,\n"
        "\"Morphy, Paul\",,USA,m,,1837,1884\n");
    std::vector<ListError> errors;
    const auto list = headers::players::read_players_csv(csv, errors);
    db::sqlite::Connection sql(corpus_->dir() / "db" / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    EXPECT_EQ(headers::players::store_player_list(sql, list), 7);
    links_ = headers::players::link_games(sql, headers::players::LinkScope::kAllGames);
  }
  static void TearDownTestSuite() {
    delete corpus_;
    delete pgn_dir_;
  }

  /// The ids matching `script`, checked equal with the planner on and off.
  static std::set<uint32_t> ids(const std::string& list) {
    const std::string script = "(match " + list + ")";
    std::set<uint32_t> off, on;
    for (const auto& [id, plies] : corpus_->query(script)) off.insert(id);
    for (const auto& [id, plies] : corpus_->query(script, true)) on.insert(id);
    EXPECT_EQ(on, off) << script;
    return off;
  }

  static cqltest::TempDir* pgn_dir_;
  static cqltest::CorpusDb* corpus_;
  static headers::players::LinkCounts links_;
};

cqltest::TempDir* PlayerData::pgn_dir_ = nullptr;
cqltest::CorpusDb* PlayerData::corpus_ = nullptr;
headers::players::LinkCounts PlayerData::links_;

using Ids = std::set<uint32_t>;

TEST_F(PlayerData, LinksByFideIdThenFullNameThenUniqueKey) {
  EXPECT_EQ(links_.games, 5);
  EXPECT_EQ(links_.sides_by_fide_id, 1);  // Polgar, J. of game 1
  // Kasparov, Garry (full name), Kasparov,G (key), Carlsen,M (key), Smith, John (full
  // name), Morphy, Paul (full name); Smith, J fits two entries.
  EXPECT_EQ(links_.sides_by_name, 5);
  EXPECT_EQ(links_.ambiguous_names, 2);  // Smith, J and Polgar, J. (linked by its FIDE id)
}

TEST_F(PlayerData, CountryGenderYears) {
  EXPECT_EQ(ids(":country RUS"), (Ids{1, 2}));
  EXPECT_EQ(ids(":country hun"), (Ids{1}));
  EXPECT_EQ(ids(":country NOR,HUN"), (Ids{1, 2}));
  EXPECT_EQ(ids(":country no"), (Ids{2}));  // ISO 3166 two-letter code
  EXPECT_EQ(ids(":whitecountry NOR"), (Ids{}));
  EXPECT_EQ(ids(":blackcountry NOR"), (Ids{2}));
  EXPECT_EQ(ids(":country UNK"), (Ids{3, 4, 5}));  // game 5: Anderssen is not in the list
  EXPECT_EQ(ids(":whitecountry xx"), (Ids{3, 4}));
  EXPECT_EQ(ids(":gender f"), (Ids{1}));
  EXPECT_EQ(ids(":gender w"), (Ids{1}));
  EXPECT_EQ(ids(":blackgender m"), (Ids{2, 4}));
  EXPECT_EQ(ids(":gender x"), (Ids{3, 4, 5}));
  EXPECT_EQ(ids(":birthyear >=1975"), (Ids{1, 2}));
  EXPECT_EQ(ids(":whitebirthyear 1800 1900"), (Ids{5}));
  EXPECT_EQ(ids(":deathyear *"), (Ids{4, 5}));
  EXPECT_EQ(ids(":blackdeathyear 2000 2100"), (Ids{4}));
  EXPECT_EQ(ids(":birthyear -"), (Ids{3, 4, 5}));
  EXPECT_EQ(ids(":not (match :country RUS)"), (Ids{3, 4, 5}));
}

TEST_F(PlayerData, TitlesFromTagsAndList) {
  EXPECT_EQ(ids(":title GM"), (Ids{1, 2}));
  EXPECT_EQ(ids(":whitetitle GM"), (Ids{1, 2}));
  EXPECT_EQ(ids(":blacktitle gm"), (Ids{1, 2}));  // Polgar from the list, Carlsen from the tag
  EXPECT_EQ(ids(":title BOT"), (Ids{3}));
  EXPECT_EQ(ids(":title program"), (Ids{3}));
  EXPECT_EQ(ids(":title None"), (Ids{4, 5}));
  EXPECT_EQ(ids(":blacktitle None"), (Ids{3, 4, 5}));
  EXPECT_EQ(ids(":title IM,None"), (Ids{4, 5}));
  try {
    query::Query::compile("(match :title XYZ)", "t.cql");
    ADD_FAILURE() << "an unknown title compiled";
  } catch (const query::QueryError& e) {
    EXPECT_NE(std::string(e.what()).find("t.cql:1:8: unknown title 'XYZ'"), std::string::npos) << e.what();
  }
}

TEST_F(PlayerData, OneNameRuleInQueries) {
  EXPECT_EQ(ids(":player \"Kasparov, G*\""), (Ids{1, 2}));
  EXPECT_EQ(ids(":whiteplayer \"kasparov, g\""), (Ids{1, 2}));  // the key itself
  EXPECT_EQ(ids(":player Kasparov"), (Ids{1, 2}));
  EXPECT_EQ(ids(":player \"Kasparov\""), (Ids{}));  // a whole-name pattern (SPEC)
  EXPECT_EQ(ids(":player \"Kasparov*\""), (Ids{1, 2}));
  EXPECT_EQ(ids(":blackplayer \"Polgar, J*\""), (Ids{1}));
  EXPECT_EQ(ids(":player \"Smith, J\""), (Ids{4}));  // key of both spellings
}

TEST_F(PlayerData, PlayersCommandMergesSpellings) {
  cqltest::TempDir work("players-cli");
  const std::string db = (corpus_->dir() / "db").string();
  cqltest::Outcome r = cqltest::run_cqldb({"players", "--db", db, "Kasparov"}, work.path);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("kasparov, garry: Kasparov, Garry (1), Kasparov,G (1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("      2  -          2000"), std::string::npos) << r.out;
  r = cqltest::run_cqldb({"players", "--db", db, "Smith, J*"}, work.path);
  EXPECT_NE(r.out.find("smith, john: "), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("1 players"), std::string::npos) << r.err;
  // A quoted plain surname finds nothing; the CLI hints at the pattern and the substring.
  r = cqltest::run_cqldb({"query", "--db", db, "-e", "(match :player \"Kasparov\")"}, work.path);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("hint: :player \"Kasparov\" must match a whole name (or player key); \"Kasparov*\" or "
                       "unquoted Kasparov (a substring) find players"),
            std::string::npos)
      << r.err;
  r = cqltest::run_cqldb({"query", "--db", db, "-e", "(match :player \"Nonexistent\")"}, work.path);
  EXPECT_EQ(r.err.find("hint:"), std::string::npos) << r.err;
  // players import: a FIDE TXT list through the command, with its counts.
  const std::string list = (work.path / "list.txt").string();
  std::ofstream(list) << fide_list();
  r = cqltest::run_cqldb({"players", "import", "--db", db, list}, work.path);
  EXPECT_EQ(r.code, 1) << r.err;  // one bad line
  EXPECT_NE(r.err.find("list.txt:7: "), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("5 entries read (1 bad lines)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("games linked:  5 games"), std::string::npos) << r.out;
}

/// The name rule on real games: `:player "Carlsen, M*"` against a brute-force reading of the
/// stored spellings (surname Carlsen, first given initial M, any punctuation).
TEST(PlayerNameCorpus, PatternMatchesKeyOnRealNames) {
  cqltest::CorpusDb corpus("player-name-corpus",
                           {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"});
  auto brute = [&](const std::string& surname, char initial) {
    std::set<uint32_t> out;
    db::sqlite::Connection sql(corpus.dir() / "db" / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql,
                            "SELECT g.id, w.name, b.name FROM games g JOIN players w ON w.id = g.white_id "
                            "JOIN players b ON b.id = g.black_id");
    while (q.step()) {
      for (int side = 1; side <= 2; ++side) {
        std::string compact;
        for (char c : q.column_text(side))
          if (c != ' ' && c != '.') compact += char(std::tolower(static_cast<unsigned char>(c)));
        if (compact.starts_with(surname + ",") && compact.size() > surname.size() + 1 &&
            compact[surname.size() + 1] == initial)
          out.insert(uint32_t(q.column_int64(0)));
      }
    }
    return out;
  };
  for (const auto& [surname, initial] : std::vector<std::pair<std::string, char>>{{"carlsen", 'm'}, {"kasparov", 'g'}, {"anand", 'v'}}) {
    std::string pattern = surname;
    pattern[0] = char(std::toupper(static_cast<unsigned char>(pattern[0])));
    pattern += ", ";
    pattern += char(std::toupper(static_cast<unsigned char>(initial)));
    pattern += "*";
    std::set<uint32_t> got;
    for (const auto& [id, plies] : corpus.query("(match :player \"" + pattern + "\")")) got.insert(id);
    const std::set<uint32_t> want = brute(surname, initial);
    EXPECT_EQ(got, want) << pattern;
    if (surname == "carlsen") {
      EXPECT_GE(want.size(), 10u);
    }
  }
}

/// game_players as text, one row per line, in (game, side) order.
std::string game_player_rows(const std::filesystem::path& db_dir) {
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql,
                          "SELECT game_id, side, fide_id, title, player_data_id, country, sex, birth, "
                          "death FROM game_players ORDER BY game_id, side");
  std::string out;
  while (q.step()) {
    for (int c = 0; c < 9; ++c) out += std::string(q.column_is_null(c) ? "-" : q.column_text(c)) + " ";
    out += "\n";
  }
  return out;
}

// Issue 16: an import links only its own games (meta.linked_games), and gets the same rows
// as linking every game again.
TEST(PlayerLinks, AppendLinksOnlyTheNewGamesAsAFullLinkWould) {
  cqltest::TempDir tmp("links");
  const std::string pgn = (tmp.path / "games.pgn").string();
  std::ofstream(pgn) << game("Kasparov, Garry", "Polgar, J.", "[BlackFideId \"700070\"]\n")
                     << game("Kasparov,G", "Carlsen,M", "[BlackTitle \"GM\"]\n")
                     << game("Morphy, Paul", "Anderssen, Adolf", "");
  const std::filesystem::path db_dir = tmp.path / "db";
  auto import = [&] {
    db::Database database = db::Database::create_or_open(db_dir);
    return import::import_files(database, {pgn}, import::ImportOptions{}, nullptr);
  };
  EXPECT_EQ(import().player_links.games, 3);  // no list yet: the FIDE id and title tags
  {
    std::istringstream csv("name,fide_id,country,sex,title,birth,death\n"
                           "\"Kasparov, Garry\",4100018,RUS,m,GM,1963,\n"
                           "\"Polgar, Judit\",700070,HUN,f,GM,1976,\n"
                           "\"Morphy, Paul\",,USA,m,,1837,1884\n");
    std::vector<ListError> errors;
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    headers::players::store_player_list(sql, headers::players::read_players_csv(csv, errors));
    EXPECT_EQ(headers::players::link_games(sql, headers::players::LinkScope::kAllGames).games, 3);
  }
  const import::ImportSummary second = import();
  EXPECT_EQ(second.player_links.games, 3);  // games 4..6 only
  EXPECT_EQ(second.player_links.sides_by_fide_id, 1);
  EXPECT_EQ(second.player_links.sides_by_name, 3);
  const std::string incremental = game_player_rows(db_dir);
  EXPECT_NE(incremental.find("\n4 1 700070 "), std::string::npos) << incremental;
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
  EXPECT_EQ(headers::players::link_games(sql, headers::players::LinkScope::kNewGames).games, 0);
  EXPECT_EQ(headers::players::link_games(sql, headers::players::LinkScope::kAllGames).games, 6);
  EXPECT_EQ(game_player_rows(db_dir), incremental);
}

}  // namespace
