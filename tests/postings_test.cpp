// The posting index (index/postings.h) and the planner's posting stage
// (planner/postings_plan.h) on real games: every stored posting equals the set computed
// game by game from the signatures; an incremental catch-up equals a rebuild; the posting
// candidates of a query contain every game whose signature the planner keeps; a missing,
// damaged or stale file changes no answer.
#include <gtest/gtest.h>

#include <algorithm>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/game_reader.h"
#include "eval/program.h"
#include "query/executor.h"
#include "query/query.h"
#include "eval_corpus_db.h"
#include "index/postings.h"
#include "planner/plan.h"
#include "planner/postings_plan.h"

namespace {

namespace fs = std::filesystem;
using cqltest::CorpusDb;
using cqltest::corpus_file;

/// Every posting key of one game, from its decoded signature (the brute-force side).
std::set<uint32_t> keys_of(const sig::Signature& s) {
  using namespace chess;
  std::set<uint32_t> keys;
  for (int pc = W_PAWN; pc <= B_KING; ++pc)
    for (int sq = 0; sq < 64; ++sq)
      if (s.ever[pc] >> sq & 1) keys.insert(sig::ever_key(Piece(pc), sq));
  for (const sig::MaterialRun& r : s.material)
    for (int c = 0; c < 2; ++c)
      for (int pt = PAWN; pt <= QUEEN; ++pt)
        keys.insert(sig::count_key(make_piece(Color(c), PieceType(pt)), r.key.count(Color(c), PieceType(pt))));
  if (s.final_mate()) keys.insert(sig::flag_key(sig::kFlagFinalMate));
  if (s.final_stalemate()) keys.insert(sig::flag_key(sig::kFlagFinalStalemate));
  keys.insert(sig::flag_key(s.final_side() == WHITE ? sig::kFlagFinalWhiteToMove : sig::kFlagFinalBlackToMove));
  if (s.null_moves) keys.insert(sig::flag_key(sig::kFlagNullMoves));
  if (s.en_passant) keys.insert(sig::flag_key(sig::kFlagEnPassant));
  if (s.checks[WHITE]) keys.insert(sig::flag_key(sig::kFlagWhiteInCheck));
  if (s.checks[BLACK]) keys.insert(sig::flag_key(sig::kFlagBlackInCheck));
  if (s.double_checks >> WHITE & 1) keys.insert(sig::flag_key(sig::kFlagWhiteInDoubleCheck));
  if (s.double_checks >> BLACK & 1) keys.insert(sig::flag_key(sig::kFlagBlackInDoubleCheck));
  if (s.plies) keys.insert(sig::flag_key(sig::kFlagHasMove));
  if (s.has_variations) keys.insert(sig::flag_key(sig::kFlagVariations));
  for (int bit = 0; bit < 4; ++bit)
    if (s.castlings >> bit & 1) {
      keys.insert(sig::castling_key(bit));
      const int64_t move = 1 + (int64_t(s.start_game_ply) + s.castling_plies[bit]) / 2;
      int bucket = 0;  // written out here, not with castling_move_bucket()
      for (int b = 0; b < 8; ++b)
        if (move >= sig::kCastlingMoveBuckets[b]) bucket = b;
      keys.insert(sig::castling_move_key(bit, bucket));
    }
  for (int c = 0; c < 2; ++c)
    for (int pt = KNIGHT; pt <= QUEEN; ++pt)
      if (s.promoted(Color(c), PieceType(pt))) keys.insert(sig::promotion_key(Color(c), PieceType(pt)));
  for (const sig::MaterialRun& r : s.material) {  // material classes, written out here
    uint32_t m = 0, field = 0;
    for (Color c : {WHITE, BLACK})
      for (PieceType pt : {QUEEN, ROOK, BISHOP, KNIGHT}) m |= uint32_t(std::min(r.key.count(c, pt), 3)) << (2 * field++);
    keys.insert(sig::material_class_key(m));
  }
  return keys;
}

/// key -> games, computed from every signature of the database.
std::map<uint32_t, std::vector<uint32_t>> brute_force(const db::Database& database) {
  std::map<uint32_t, std::vector<uint32_t>> out;
  const db::GameReader reader = database.reader();
  sig::Signature s;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    std::string_view bytes;
    if (!reader.signature(id, bytes)) continue;
    sig::decode(bytes, s);
    for (uint32_t key : keys_of(s)) out[key].push_back(id);
  }
  return out;
}

/// Fixture: studies, mates, annotated games and 6,000 players games (enough for dense
/// piece-square postings: more than 4,096 games and 1/16 of them).
class Postings : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new CorpusDb("postings", {corpus_file("studies.pgn"), corpus_file("mates.pgn"), corpus_file("annotated.pgn")});
    db_->add_players(6000);
  }
  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }
  static CorpusDb* db_;
};
CorpusDb* Postings::db_ = nullptr;

TEST_F(Postings, ImportBuildsThemAndEveryStoredPostingEqualsTheSignatures) {
  std::optional<sig::Postings> postings = sig::Postings::open(db_->dir() / "db");
  ASSERT_TRUE(postings.has_value());
  EXPECT_EQ(postings->covered(), db_->game_count());
  const auto expected = brute_force(db_->database());
  size_t stored = 0, dense = 0;
  for (uint32_t key = 0; key < sig::kPostingKeySpace; ++key) {
    const sig::GameSet* set = postings->find(key);
    auto it = expected.find(key);
    const std::vector<uint32_t> want = it == expected.end() ? std::vector<uint32_t>{} : it->second;
    if (!set) {  // dense: a piece-square or material-class posting held by > 1/16 of the games
      ++dense;
      EXPECT_TRUE(key < 1024u || key >= sig::material_class_key(0)) << key;
      EXPECT_GT(want.size() * 16, size_t(postings->covered())) << key;
      continue;
    }
    ++stored;
    EXPECT_EQ(set->ids(), want) << "posting " << key;
  }
  EXPECT_GT(dense, 10u);     // e.g. the kings on their start squares
  EXPECT_GT(stored, 700u);
  // The double-check flags are stored, and real games have them.
  for (sig::PostingFlag f : {sig::kFlagWhiteInDoubleCheck, sig::kFlagBlackInDoubleCheck}) {
    const sig::GameSet* set = postings->find(sig::flag_key(f));
    ASSERT_NE(set, nullptr);
    EXPECT_GT(set->size(), 5u) << f;
    EXPECT_LT(set->size() * 10, uint64_t(postings->covered())) << f;
  }
  const sig::GameSet* unindexed = postings->find(sig::flag_key(sig::kFlagUnindexed));
  ASSERT_NE(unindexed, nullptr);
  EXPECT_EQ(unindexed->size(), 0u);
}

TEST_F(Postings, CandidatesContainEveryGameTheSignaturesKeep) {
  std::optional<sig::Postings> postings = sig::Postings::open(db_->dir() / "db");
  ASSERT_TRUE(postings.has_value());
  const char* queries[] = {
      "(match (position Qh7 kg8 Bd3))",
      "(match (position :mate))",
      "(match (position :stalemate))",
      "(match (position :flipcolor :mate :btm BL? BD?))",
      "(match (position :flipcolor :piececount [QqNn] 0 :piececount R 1 :piececount r 0 :piececount B 0 :piececount b 1))",
      "(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0 :piececount P 2 :piececount p 1))",
      "(match (position :power [Qq] 0 :power [RrBbNn] <=6))",
      "(match (position :promote [RBNrbn]))",
      "(match (position :enpassant))",
      "(match (position :iscastling [Qq]))",
      "(match (position :check Qa1))",
      "(match (position :doublecheck))",
      "(match (position :doublecheck N :flipcolor))",
      "(match (position :iscastling [Kk] :movenumber >=25))",
      "(match (position :iscastling k :btm))",
      "(match (position Ke4 ke6 :shift :flip))",
      "(match (position :or ((position :mate) (position :stalemate))))",
      "(match (position :fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"))",
      "(match (position :flipcolor R?7 k?8 :piececount [QqBbNn] 0))",
      "(match (position :sequence ((position :promote N) (position :check))))",
      "(match (position :flipcolor :piececount K 1 :piececount [Pp] 0 :piececount [Qq] 1))",
  };
  const db::GameReader reader = db_->database().reader();
  sig::Signature s;
  for (const char* script : queries) {
    eval::Program program = eval::Program::compile(cql::parse_or_throw(script, "q.cql"));
    planner::Plan plan = planner::Plan::make(program);
    for (size_t a = 0; a < plan.size(); ++a) {
      auto candidates = plan.posting_candidates(*postings, a, reader.game_count());
      if (!candidates) continue;
      const std::set<uint32_t> set(candidates->begin(), candidates->end());
      size_t kept = 0;
      for (uint32_t id = 1; id <= reader.game_count(); ++id) {
        std::string_view bytes;
        if (!reader.signature(id, bytes)) continue;
        sig::decode(bytes, s);
        if (!(plan.keep(s, nullptr, 1u << a) >> a & 1)) continue;
        ++kept;
        EXPECT_TRUE(set.count(id)) << script << ": game " << id << " kept by its signature, dropped by the postings";
      }
      EXPECT_LE(kept, set.size()) << script;
    }
  }
}

TEST(PostingsUpdate, IncrementalCatchUpEqualsRebuildAndStaleFilesChangeNoAnswer) {
  CorpusDb db("postings-inc", {corpus_file("studies.pgn")});
  const fs::path dir = db.dir() / "db";
  const std::string before_bytes = [&] {
    std::ifstream in(dir / sig::kPostingsFile, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }();
  ASSERT_FALSE(before_bytes.empty());
  db.add_files({corpus_file("mates.pgn")});
  std::optional<sig::Postings> inc = sig::Postings::open(dir);
  ASSERT_TRUE(inc.has_value());
  EXPECT_EQ(inc->covered(), db.game_count());
  const auto expected = brute_force(db.database());
  for (const auto& [key, ids] : expected) {
    const sig::GameSet* set = inc->find(key);
    ASSERT_NE(set, nullptr) << key;  // fewer than 4,097 games: nothing is dense
    EXPECT_EQ(set->ids(), ids) << key;
  }

  const std::string mates = "(match (position :mate))";
  const auto off = db.query(mates, false);
  ASSERT_GT(off.size(), 20u);
  // A stale index (from before the second import) covers only the studies: the mates
  // imported after it are kept as candidates, so the answer is the same.
  sig::remove_postings(dir);
  {
    std::ofstream out(dir / sig::kPostingsFile, std::ios::binary | std::ios::trunc);
    out << before_bytes;
  }
  ASSERT_LT(sig::Postings::open(dir)->covered(), db.game_count());
  EXPECT_EQ(db.query(mates, true), off);
  // A damaged file is ignored.
  {
    std::ofstream out(dir / sig::kPostingsFile, std::ios::binary | std::ios::trunc);
    out << "CQLPOST1 garbage";
  }
  EXPECT_FALSE(sig::Postings::open(dir).has_value());
  EXPECT_EQ(db.query(mates, true), off);
  // No file at all.
  sig::remove_postings(dir);
  EXPECT_EQ(db.query(mates, true), off);
  // The catch-up rebuilds a missing file.
  sig::PostingsUpdate u = sig::update_postings(db.database());
  EXPECT_TRUE(u.rebuilt);
  EXPECT_EQ(u.covered, db.game_count());
  EXPECT_EQ(db.query(mates, true), off);
}

TEST(PostingsUpdate, SearchReportsThePostingStage) {
  CorpusDb db("postings-stats", {corpus_file("mates.pgn")});
  const query::Query compiled = query::Query::compile("(match (position :stalemate))", "q.cql");
  const query::Stats st = query::execute(compiled, db.database(), query::ExecuteOptions{}).stats;
  EXPECT_TRUE(st.stage("postings")->ran);
  EXPECT_LE(st.after_indexes(), st.games_total);
  EXPECT_LE(st.candidates, st.after_indexes());
  EXPECT_GE(st.after_signatures(), st.matches);
  EXPECT_LT(st.after_indexes(), st.games_total / 2);  // mate problems end in mate, not stalemate
}

}  // namespace

namespace {

/// The posting files of `dir` (postings.bin and postings-*.seg, temporary files included).
std::set<std::string> posting_files(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("postings", 0) == 0) out.insert(name);
  }
  return out;
}

/// Every posting of `inc` holds exactly the games of `expected` (brute_force()), except
/// in segments where it is dense: there it holds every game of the segment (`dense_upto`:
/// the last game of the segments that may have dense postings).
void expect_postings(const sig::Postings& inc, const std::map<uint32_t, std::vector<uint32_t>>& expected,
                     uint32_t dense_upto) {
  for (const auto& [key, ids] : expected) {
    const sig::GameSet* set = inc.find(key);
    if (!set) {
      EXPECT_TRUE(key < 1024 || key >= sig::material_class_key(0)) << key << " dense";
      continue;
    }
    std::vector<uint32_t> got = set->ids(), want_above, got_above;
    for (uint32_t id : ids)
      if (id > dense_upto) want_above.push_back(id);
    for (uint32_t id : got)
      if (id > dense_upto) got_above.push_back(id);
    EXPECT_EQ(got_above, want_above) << key;
    std::vector<uint32_t> below;
    for (uint32_t id : got)
      if (id <= dense_upto) below.push_back(id);
    std::vector<uint32_t> want_below(ids.begin(), std::lower_bound(ids.begin(), ids.end(), dense_upto + 1));
    if (below != want_below) {
      EXPECT_EQ(below.size(), size_t(dense_upto)) << key << ": neither exact nor dense";
    }
  }
}

}  // namespace

// Issue 16: appends write a segment for the new games and merge the last two segments
// while the earlier is no larger; the chain answers as the brute force, files merged away
// are removed, and planner on == off.
TEST(PostingsSegments, AppendsWriteSegmentsMergedLikeABinaryCounter) {
  CorpusDb db("postings-seg");
  db.add_players(5000);
  const fs::path dir = db.dir() / "db";
  EXPECT_EQ(posting_files(dir), std::set<std::string>{"postings.bin"});
  db.add_files({corpus_file("mates.pgn")});  // 914 games: 5000 > 914, no merge
  const uint32_t base = 5000;
  {
    std::optional<sig::Postings> p = sig::Postings::open(dir);
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(p->segments(), 2u);
    EXPECT_EQ(p->covered(), db.game_count());
    EXPECT_EQ(posting_files(dir), (std::set<std::string>{"postings.bin", "postings-5001.seg"}));
  }
  const uint32_t studies_first = db.game_count() + 1;
  db.add_files({corpus_file("studies.pgn")});  // 253 games: a third segment
  EXPECT_EQ(sig::Postings::open(dir)->segments(), 3u);
  EXPECT_TRUE(posting_files(dir).count("postings-" + std::to_string(studies_first) + ".seg"));
  const import::ImportSummary last = db.add_files({corpus_file("mates.pgn")});
  // 253 <= 914: merged into 1,167 games; 914 <= 1,167: merged again; 5,000 > 2,081 stays.
  EXPECT_EQ(last.postings.merges, 2u);
  EXPECT_EQ(last.postings.segments, 2u);
  std::optional<sig::Postings> p = sig::Postings::open(dir);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->segments(), 2u);
  EXPECT_EQ(p->covered(), db.game_count());
  EXPECT_EQ(posting_files(dir), (std::set<std::string>{"postings.bin", "postings-5001.seg"}));
  expect_postings(*p, brute_force(db.database()), base);

  for (const char* script : {"(match (position :mate))", "(match (position :promote N))",
                             "(match (position :piececount [Qq] 0 :piececount [Rr] 2 :piececount [BbNn] 0))",
                             "(match (position Ra3))", "(match (position :doublecheck))"})
    EXPECT_EQ(db.query(script, true), db.query(script, false)) << script;

  // A damaged later segment ends the chain: the games after it are not covered, and the
  // catch-up writes their segment again.
  {
    std::ofstream out(dir / "postings-5001.seg", std::ios::binary | std::ios::trunc);
    out << "CQLPOST1 garbage";
  }
  ASSERT_EQ(sig::Postings::open(dir)->covered(), base);
  EXPECT_EQ(db.query("(match (position :mate))", true), db.query("(match (position :mate))", false));
  const sig::PostingsUpdate u = sig::update_postings(db.database());
  EXPECT_FALSE(u.rebuilt);
  EXPECT_EQ(u.added, db.game_count() - base);
  EXPECT_EQ(sig::Postings::open(dir)->covered(), db.game_count());
  expect_postings(*sig::Postings::open(dir), brute_force(db.database()), base);
}

// A rebuild writes postings.bin alone and removes every segment.
TEST(PostingsSegments, RebuildLeavesOnlyTheBaseFile) {
  CorpusDb db("postings-seg-rebuild", {corpus_file("mates.pgn")});
  db.add_files({corpus_file("studies.pgn")});
  const fs::path dir = db.dir() / "db";
  ASSERT_EQ(posting_files(dir).size(), 2u);
  const sig::PostingsUpdate u = sig::update_postings(db.database(), /*rebuild=*/true);
  EXPECT_TRUE(u.rebuilt);
  EXPECT_EQ(posting_files(dir), std::set<std::string>{"postings.bin"});
  std::optional<sig::Postings> p = sig::Postings::open(dir);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->segments(), 1u);
  expect_postings(*p, brute_force(db.database()), 0);
}
