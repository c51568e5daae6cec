// Issue 40: answers a new user can trust, on the sample database of the README
// (examples/sample): players with different first names stay apart (item 6), a FEN as
// people paste it (item 7), help as a user reads it (item 8), the shell's `show ID PLYPATH`
// (item 9) and PGN leftovers of other tools (item 11).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "cli_test_util.h"
#include "db/database.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using cqltest::Outcome;

const std::string kSampleDir = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

class UserTrust : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("user-trust");
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
  static std::string db() { return (tmp_->path / "sample-db").string(); }
  static Outcome run(const std::vector<std::string>& args) { return cqltest::run_cqldb(args, tmp_->path); }
  static cqltest::TempDir* tmp_;
};

cqltest::TempDir* UserTrust::tmp_ = nullptr;

// ---- item 6

TEST_F(UserTrust, PlayersKeepEdwardAndEmanuelLaskerApart) {
  const Outcome r = run({"players", "--db", db(), "Lasker"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("lasker, edward: Lasker, Edward (7)"), std::string::npos) << r.out;
  // "Emanuel Lasker" (first name first) is the player "Lasker, Emanuel".
  EXPECT_TRUE(r.out.find("lasker, emanuel: Lasker, Emanuel (7), Emanuel Lasker (2)") != std::string::npos ||
              r.out.find("lasker, emanuel: Emanuel Lasker (2), Lasker, Emanuel (7)") != std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("lasker, e:"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("2 players"), std::string::npos) << r.err;
}

// ---- item 7

TEST_F(UserTrust, FenWithoutEnPassantAndClocksWorksEverywhere) {
  const std::string pasted = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq";
  const std::string full = pasted + " - 0 1";
  const Outcome a = run({"query", "--db", db(), "--fen", pasted, "--format", "ids"});
  const Outcome b = run({"query", "--db", db(), "--fen", full, "--format", "ids"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_GT(std::count(a.out.begin(), a.out.end(), '\n'), 100);
  const Outcome tree = run({"tree", "--db", db(), "--fen", pasted});
  const Outcome tree_full = run({"tree", "--db", db(), "--fen", full});
  ASSERT_EQ(tree.code, 0) << tree.err;
  EXPECT_EQ(tree.out.substr(0, 400), tree_full.out.substr(0, 400));
  const Outcome shell = run({"shell", "--db", db(), "-c", "tree fen " + pasted});
  EXPECT_EQ(shell.code, 0) << shell.err;
  EXPECT_EQ(shell.err.find("en passant"), std::string::npos) << shell.err;
  EXPECT_NE(shell.out.find("c5"), std::string::npos) << shell.out;
}

// ---- item 8

TEST_F(UserTrust, HelpAsAUserReadsIt) {
  const Outcome query = run({"help", "query"});
  ASSERT_EQ(query.code, 0);
  for (const char* option : {"--sort", "--fen", "--limit"})
    EXPECT_NE(query.out.find(option), std::string::npos) << option << "\n" << query.out;
  // :player's example finds games on the sample.
  const Outcome player = run({"help", ":player"});
  const std::smatch m = [&] {
    std::smatch found;
    std::regex_search(player.out, found, std::regex("try: +cqldb query --db sample-db -e '([^']*)'"));
    return found;
  }();
  ASSERT_FALSE(m.empty()) << player.out;
  const Outcome found = run({"query", "--db", db(), "-e", m[1].str(), "--format", "ids"});
  EXPECT_GT(std::count(found.out.begin(), found.out.end(), '\n'), 10) << m[1].str() << found.err;
  // No project-internal words in keyword help or the example menu; manual pages by name.
  const Outcome listed = run({"help", "keywords"});
  for (const std::string& text : {listed.out, run({"help", ":and"}).out, run({"help", ":castling"}).out,
                                  run({"help", ":flip"}).out, run({"help", ":following"}).out,
                                  run({"help", "serve"}).out}) {
    EXPECT_EQ(text.find("seed 0"), std::string::npos) << text;
    EXPECT_EQ(text.find("issue 1"), std::string::npos) << text;
  }
  EXPECT_NE(run({"help", ":castling"}).out.find("manual page CQL-Position-List"), std::string::npos);
  for (const auto& e : fs::directory_iterator(std::string(CQLDB_SOURCE_DIR) + "/examples/queries")) {
    const std::string text = cqltest::read_file(e.path());
    EXPECT_EQ(text.find("seed 0"), std::string::npos) << e.path();
    EXPECT_EQ(text.find("issue "), std::string::npos) << e.path();
  }
  // A range written backwards says so.
  const Outcome backwards = run({"tree", "--db", db(), "--year", "2020..2010"});
  EXPECT_EQ(backwards.code, 2);
  EXPECT_NE(backwards.err.find("runs backwards"), std::string::npos) << backwards.err;
  // tree and players refuse a directory without a database as query does.
  const std::string missing = (tmp_->path / "no-such-db").string();
  const Outcome q = run({"query", "--db", missing, "-e", "(match)"});
  for (const char* command : {"tree", "players"}) {
    const Outcome r = run({command, "--db", missing});
    EXPECT_EQ(r.code, q.code) << command << r.err;
    EXPECT_NE(r.err.find("no cqldb database at " + missing), std::string::npos) << command << r.err;
    EXPECT_EQ(r.err.find("headers.sqlite is missing"), std::string::npos) << command << r.err;
  }
}

// ---- item 9

TEST_F(UserTrust, ShowReachesAPositionInsideAVariation) {
  const Outcome q =
      run({"query", "--db", db(), "-e", "(match (position :variationsonly :mate))", "--format", "jsonl"});
  ASSERT_EQ(q.code, 0) << q.err;
  // The first ply path a jsonl line prints: "plies":[...,[63,1,12],...]
  std::smatch m;
  ASSERT_TRUE(std::regex_search(q.out, m, std::regex("\"id\":([0-9]+),.*?\\[([0-9]+),([0-9]+),([0-9]+)\\]")))
      << q.out.substr(0, 600);
  const std::string id = m[1], path = m[2].str() + "." + m[3].str() + "." + m[4].str();
  const Outcome show =
      run({"shell", "--db", db(), "-c", "(match (position :variationsonly :mate)); show " + id + " " + path});
  ASSERT_EQ(show.code, 0) << show.out << show.err;
  EXPECT_EQ(show.err.find("usage"), std::string::npos) << show.err;
  EXPECT_NE(show.out.find("Position " + path + " (inside a variation, after "), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("a matched position"), std::string::npos) << show.out;
  // The board shown is a mate.
  std::smatch fen;
  ASSERT_TRUE(std::regex_search(show.out, fen, std::regex("FEN: ([^\n]+)"))) << show.out;
  chess::Position pos;
  ASSERT_TRUE(pos.set_fen(fen[1].str()).ok()) << fen[1];
  chess::MoveList moves;
  chess::generate_legal(pos, moves);
  EXPECT_EQ(moves.size(), 0u) << fen[1];
  EXPECT_TRUE(pos.in_check()) << fen[1];
  // A path the game does not have is a clear error, not the usage line.
  const Outcome none = run({"shell", "--db", db(), "-c", "show " + id + " 1.9.3"});
  EXPECT_NE(none.err.find("has no position 1.9.3"), std::string::npos) << none.err;
}

// ---- item 11

TEST_F(UserTrust, PgnLeftoversOfOtherToolsAreRead) {
  cqltest::TempDir work("leftovers");
  // The first game of the sample that castles, written as another tool's fixture: a `[pgn]`
  // line before it and its castling with U+2011 (non-breaking hyphen).
  import::PgnSplitter splitter{import::InputStream(kSampleDir + "/players-3000.pgn.zst")};
  import::RawGame raw;
  std::string game;
  while (splitter.next(raw))
    if (raw.text.find(" O-O ") != std::string::npos) {
      game = raw.text;
      break;
    }
  ASSERT_FALSE(game.empty());
  std::string dashed;
  for (size_t i = 0; i < game.size(); ++i) {
    if (game.compare(i, 3, "O-O") == 0) {
      dashed += "O\xE2\x80\x91O";
      i += 2;
    } else {
      dashed += game[i];
    }
  }
  std::ofstream(work.path / "plain.pgn") << game << "\n\n";
  std::ofstream(work.path / "fixture.pgn") << "[pgn]\n" << dashed << "\n\n[/pgn]\n";
  const std::string plain_db = (work.path / "plain-db").string(), fixture_db = (work.path / "fixture-db").string();
  ASSERT_EQ(run({"import", "--db", plain_db, "-q", (work.path / "plain.pgn").string()}).code, 0);
  const Outcome imported = run({"import", "--db", fixture_db, "-q", (work.path / "fixture.pgn").string()});
  ASSERT_EQ(imported.code, 0) << imported.err;
  EXPECT_NE(imported.out.find("imported 1, rejected 0"), std::string::npos) << imported.out;
  // The same moves as the game written with ASCII hyphens.
  const Outcome a = run({"export", "--db", plain_db, "--id", "1"});
  const Outcome b = run({"export", "--db", fixture_db, "--id", "1"});
  const auto movetext = [](const std::string& pgn) { return pgn.substr(pgn.find("\n1.")); };
  EXPECT_EQ(movetext(a.out), movetext(b.out));
  const Outcome log = run({"info", "--db", fixture_db, "--log", "20"});
  EXPECT_NE(log.out.find("read as 'O-O'"), std::string::npos) << log.out;
  EXPECT_NE(log.out.find("fixture.pgn line 1: "), std::string::npos) << log.out;
  EXPECT_NE(log.out.find("(before game 1)"), std::string::npos) << log.out;
  EXPECT_EQ(log.out.find("game 0"), std::string::npos) << log.out;
}

}  // namespace
