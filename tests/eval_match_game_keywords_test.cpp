// The game keywords :ischess960 :isshufflechess :startposition :variant in the match list
// (CQL-Match-List; eval/header_filter.cpp asks them of the stored start FEN and variant
// through cqldb_start_position()): a game satisfies the match-list form exactly when the
// position-list form (eval/game_keywords.h, asked of the replayed start position) holds.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <string>

#include "eval_corpus_db.h"

namespace {

// Two Chess960 games (start arrays 0 = BBQNNRKR and a rook-knight array) and one Shuffle Chess
// array that is not a Chess960 one (king not between the rooks).
const char* kVariantGames = R"([Event "c960 a"]
[Variant "chess960"]
[SetUp "1"]
[FEN "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"]

1. e4 e5 2. Nd3 Nd6 *

[Event "c960 b"]
[Variant "chess960"]
[SetUp "1"]
[FEN "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR w KQkq - 0 1"]

1. d4 d5 *

[Event "shuffle"]
[SetUp "1"]
[FEN "rnbqrbnk/pppppppp/8/8/8/8/PPPPPPPP/RNBQRBNK w - - 0 1"]

1. e4 e5 *
)";

class EvalMatchGameKeywords : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-match-game-kw",
                                {cqltest::corpus_file("studies.pgn"), cqltest::corpus_file("mates.pgn")});
    const std::string pgn = (db_->dir() / "variants.pgn").string();
    std::ofstream(pgn) << kVariantGames;
    db_->add_files({pgn});
    db_->add_players(2000);
  }
  static void TearDownTestSuite() { delete db_; }

  static std::set<uint32_t> ids(const std::string& script) {
    std::set<uint32_t> out;
    for (const auto& [id, plies] : db_->query(script)) out.insert(id);
    return out;
  }

  static cqltest::CorpusDb* db_;
};

cqltest::CorpusDb* EvalMatchGameKeywords::db_ = nullptr;

TEST_F(EvalMatchGameKeywords, MatchListFormEqualsPositionListForm) {
  for (const std::string kw :
       {":ischess960", "!:ischess960", ":isshufflechess", "!:isshufflechess", ":startposition 518",
        ":startposition 518,3398", ":startposition 1-959", ":startposition *", ":variant chess960", ":variant normal",
        ":variant standard,chess960"}) {
    const std::set<uint32_t> header = ids("(match " + kw + " (position))");
    EXPECT_EQ(header, ids("(match (position " + kw + "))")) << kw;
  }
}

TEST_F(EvalMatchGameKeywords, CountsOnTheCorpus) {
  const uint32_t all = db_->game_count();
  EXPECT_EQ(ids("(match :variant chess960 (position))").size(), 2u);
  EXPECT_EQ(ids("(match :ischess960 (position))").size() + ids("(match !:ischess960 (position))").size(), all);
  // The shuffle game is a Shuffle Chess array but not a Chess960 one; studies start elsewhere.
  const size_t shuffle = ids("(match :isshufflechess (position))").size();
  const size_t c960 = ids("(match :ischess960 (position))").size();
  EXPECT_EQ(shuffle, c960 + 1);
  EXPECT_EQ(ids("(match :startposition 518 (position))").size() + 3, shuffle);
  // Inside match-list logic too.
  EXPECT_EQ(ids("(match :or ((match :variant chess960) (match :startposition 518)) (position))").size(),
            ids("(match :startposition 518 (position))").size() + 2);
}

}  // namespace

namespace {

// :rating / :whiterating / :blackrating (match list, and the position-list forms of seed 001):
// the database keeps Elo ratings only, so `ELO` equals the Elo keywords and any other system
// is a missing value.
TEST_F(EvalMatchGameKeywords, RatingKeywordsReadTheEloTags) {
  const std::set<uint32_t> strong = ids("(match :elo >=2600 (position))");
  EXPECT_GT(strong.size(), 50u);
  EXPECT_EQ(ids("(match :rating ELO >=2600 (position))"), strong);
  EXPECT_EQ(ids("(match :whiterating ELO 2500 2650 :blackrating ELO >=2650 (position))"),
            ids("(match :whiteelo 2500 2650 :blackelo >=2650 (position))"));
  EXPECT_EQ(ids("(match (position :whiterating ELO >=2600 :flipcolor))"),
            ids("(match (position :whiteelo >=2600 :flipcolor))"));
  EXPECT_TRUE(ids("(match :rating DWZ >=1000 (position))").empty());
  EXPECT_EQ(ids("(match :whiterating DWZ - (position))").size(), db_->game_count());
}

}  // namespace
