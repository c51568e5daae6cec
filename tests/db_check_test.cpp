// Storage faults (issue 14): a truncated games.mdb is a clear error naming the file, not a
// SIGBUS; a damaged record is a db::CorruptRecord naming its game; `cqldb check` verifies
// every record, signature and the posting index of a database of real games (the first
// games of players-344k plus the annotated corpus, with variations) and names each damaged
// game or file.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_test_util.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/game_blocks.h"
#include "db/lmdb_env.h"
#include "db/lmdb_txn.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/stored_move.h"
#include "chess/position.h"
#include "eval_corpus_db.h"
#include "index/postings.h"

namespace {

namespace fs = std::filesystem;
using cqltest::Outcome;
using cqltest::run_cqldb;

/// n with thousands separators, as cqldb prints counts.
std::string cli_count(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

/// The first 1,500 games of players-344k and annotated-40 (examples/sample: variations,
/// comments), imported once per test program into a template database; each test damages a
/// fresh copy of it, `db_dir()`, in a temporary directory of its own.
class DamagedDbTest : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    source_ = new cqltest::TempDir("check-source");
    const fs::path pgn = source_->path / "players-slice.pgn";
    {
      std::ofstream out(pgn, std::ios::binary);
      import::PgnSplitter splitter{import::InputStream(cqltest::corpus_file("players-344k.pgn.zst"))};
      import::RawGame raw;
      for (int i = 0; i < 1500 && splitter.next(raw); ++i) out << raw.text << "\n\n";
    }
    db::Database database = db::Database::create_or_open(source_->path / "db");
    import::import_files(database,
                         {pgn.string(), std::string(CQLDB_SOURCE_DIR) + "/examples/sample/annotated-40.pgn"},
                         import::ImportOptions{}, nullptr);
    source_games_ = database.reader().game_count();
  }
  static void TearDownTestSuite() {
    delete source_;
    source_ = nullptr;
  }

  DamagedDbTest() : tmp_("check-" + std::string(testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::create_directories(db_dir());
    for (const auto& e : fs::directory_iterator(source_->path / "db"))
      if (e.path().filename().string().find("-lock") == std::string::npos)  // LMDB's reader table
        fs::copy(e.path(), db_dir() / e.path().filename());
    games_ = source_games_;
  }

  fs::path db_dir() const { return tmp_.path / "db"; }
  fs::path games_file() const { return db_dir() / db::schema::kGamesFile; }

  /// Replaces the value of game `id` in the sub-db `dbi_name` of games.mdb (through LMDB;
  /// records and signatures are in blocks, db/game_blocks.h).
  void put(const char* dbi_name, uint32_t id, const std::string& value) {
    db::lmdb::Env env = db::lmdb::Env::open(games_file());
    db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
    auto dbi = txn.open_dbi(dbi_name, db::lmdb::kDbiIntegerKey);
    ASSERT_TRUE(dbi.has_value());
    db::blocks::replace_values(txn, *dbi, blocked(dbi_name), {{id, value}});
    txn.commit();
  }

  /// The value of game `id` in the sub-db `dbi_name`.
  std::string get(const char* dbi_name, uint32_t id) {
    db::lmdb::Env env = db::lmdb::Env::open(games_file(), {.read_only = true});
    db::lmdb::Txn txn = db::lmdb::Txn::begin_read(env);
    auto dbi = txn.open_dbi(dbi_name, db::lmdb::kDbiIntegerKey);
    std::string_view v;
    EXPECT_TRUE(dbi && db::blocks::read_value(txn, *dbi, blocked(dbi_name), id, v));
    return std::string(v);
  }

  /// Whether the sub-db holds blocks (the database is made by this cqldb: records and
  /// signatures do; annotations never).
  static bool blocked(const char* dbi_name) {
    return std::string_view(dbi_name) != db::schema::kAnnotationsDbi;
  }

  Outcome check() { return run_cqldb({"check", "--db", db_dir().string()}, tmp_.path); }

  static cqltest::TempDir* source_;  // the template database, source_->path / "db"
  static uint32_t source_games_;     // its games
  cqltest::TempDir tmp_;
  uint32_t games_ = 0;
};

cqltest::TempDir* DamagedDbTest::source_ = nullptr;
uint32_t DamagedDbTest::source_games_ = 0;

TEST_F(DamagedDbTest, HealthyDatabaseChecksClean) {
  ASSERT_GT(games_, 1500u);
  const Outcome r = check();
  EXPECT_EQ(r.code, 0) << r.out << r.err;
  const std::string n = cli_count(games_);
  EXPECT_NE(r.out.find("records:    " + n + " of " + n + " read, decoded and replayed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("signatures: " + n + " of " + n), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no damage found"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find(" 0 in variations"), std::string::npos) << r.out;  // annotated games
}

TEST_F(DamagedDbTest, TruncatedGamesFileIsAnErrorNamingTheFile) {
  fs::resize_file(games_file(), fs::file_size(games_file()) / 2);
  try {
    db::Database::open_readonly(db_dir());
    ADD_FAILURE() << "a truncated games.mdb opened";
  } catch (const db::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(games_file().string() + " is damaged (truncated)"), std::string::npos)
        << e.what();
  }
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"query", "--db", db_dir().string(), "-e", "(match (position :mate))"},
        std::vector<std::string>{"check", "--db", db_dir().string()},
        std::vector<std::string>{"info", "--db", db_dir().string()}}) {
    const Outcome r = run_cqldb(args, tmp_.path);
    EXPECT_EQ(r.code, 1) << args[0] << ": " << r.err;  // an exit, not a signal (-1)
    EXPECT_NE(r.err.find("games.mdb is damaged (truncated)"), std::string::npos) << args[0] << ": " << r.err;
  }
}

TEST_F(DamagedDbTest, GarbageRecordIsNamedByCheckAndCarriesItsId) {
  put(db::schema::kGamesDbi, 5, "\x7f garbage, not a game record \x01\x02\x03");
  {
    db::Database database = db::Database::open_readonly(db_dir());
    db::GameReader reader = database.reader();
    db::RecordView view;
    try {
      reader.record_view(5, view);
      ADD_FAILURE() << "a garbage record parsed";
    } catch (const db::CorruptRecord& e) {
      EXPECT_EQ(e.game_id(), 5u);
      EXPECT_EQ(std::string(e.what()).rfind("game 5: corrupt game record", 0), 0u) << e.what();
    }
    EXPECT_TRUE(reader.record_view(6, view));  // the other games read on
  }
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("damaged (1):\n  game 5: record: corrupt game record"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("records:    " + cli_count(games_ - 1) + " of " + cli_count(games_)), std::string::npos)
      << r.out;
}

TEST_F(DamagedDbTest, SwappedRecordReplaysButDisagreesWithSignatureAndHeaders) {
  const std::string other = get(db::schema::kGamesDbi, 8);
  put(db::schema::kGamesDbi, 7, other);
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("game 7: signature: differs from the one its record gives"), std::string::npos) << r.out;
}

TEST_F(DamagedDbTest, IllegalStoredMoveIsNamedWithItsPly) {
  // Game 3's first move replaced by e4e5: no piece stands on e4 in the start position.
  // Game 4's third move replaced by e8e7, in the 16-bit main line of record formats 2 and 3:
  // White is to move and e8 holds Black's king (it cannot have moved on move 1).
  const chess::Move bad(chess::SQ_E4, chess::SQ_E5);
  const chess::Move bad_third(chess::SQ_E8, chess::SQ_E7);
  {
    std::string record = get(db::schema::kGamesDbi, 3);
    const db::RecordView view = db::RecordView::parse(record);
    ASSERT_TRUE(view.start_fen().empty() && view.main_line_size() > 0 && !view.has_variations());
    ASSERT_TRUE(view.packed_main_line());
    ASSERT_EQ(view.main_move(0).raw() >> 12, 0);  // not a special: its 12 bits are all of it
    // Without variations the packed main line ends the record (db/record_format.h); move 0
    // is its first 12 bits.
    const size_t at = record.size() - db::codec::packed_u12_bytes(view.main_line_size());
    record[at] = char(bad.raw() & 0xFF);
    record[at + 1] = char((uint8_t(record[at + 1]) & 0xF0) | (bad.raw() >> 8));
    ASSERT_EQ(db::RecordView::parse(record).main_move(0), bad);
    put(db::schema::kGamesDbi, 3, record);
  }
  {
    const std::string packed = get(db::schema::kGamesDbi, 4);
    const db::RecordView view = db::RecordView::parse(packed);
    ASSERT_TRUE(view.start_fen().empty() && view.main_line_size() > 2 && !view.has_variations());
    std::string record(1, char(view.flags() & ~db::kPackedMainLine));
    db::codec::put_varint(record, view.main_line_size());
    for (uint32_t i = 0; i < view.main_line_size(); ++i)
      db::codec::put_u16(record, (i == 2 ? bad_third : view.main_move(i)).raw());
    ASSERT_EQ(db::RecordView::parse(record).main_move(2), bad_third);
    put(db::schema::kGamesDbi, 4, record);
  }
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("game 3: record: stored move is illegal on its board (main-line move 1)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("game 4: record: stored move is illegal on its board (main-line move 3)"), std::string::npos)
      << r.out;
}

TEST_F(DamagedDbTest, TruncatedSignatureIsNamed) {
  const std::string sig = get(db::schema::kSignaturesDbi, 9);
  ASSERT_GT(sig.size(), 4u);
  put(db::schema::kSignaturesDbi, 9, sig.substr(0, sig.size() / 2));
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("damaged (1):\n  game 9: signature: corrupt signature"), std::string::npos) << r.out;
}

TEST_F(DamagedDbTest, DamagedPostingIsNamed) {
  const fs::path postings = db_dir() / sig::kPostingsFile;
  std::string bytes = cqltest::read_file(postings);
  ASSERT_GT(bytes.size(), 28u);
  // The first stored bitmap (entry table after the 28-byte header of postings format 5:
  // key, offset, length).
  uint32_t entries, key = 0, offset = 0xFFFFFFFFu, length = 0;
  std::memcpy(&entries, bytes.data() + 20, 4);
  for (uint32_t i = 0; i < entries && offset == 0xFFFFFFFFu; ++i) {
    std::memcpy(&key, bytes.data() + 28 + 12 * i, 4);
    std::memcpy(&offset, bytes.data() + 28 + 12 * i + 4, 4);
    std::memcpy(&length, bytes.data() + 28 + 12 * i + 8, 4);
  }
  ASSERT_NE(offset, 0xFFFFFFFFu);
  ASSERT_GE(length, 4u);
  std::memset(bytes.data() + offset, 0xEE, 4);  // its cookie
  std::ofstream(postings, std::ios::binary | std::ios::trunc) << bytes;
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find(postings.string() + ": postings.bin: posting " + std::to_string(key) + " is damaged"),
            std::string::npos)
      << r.out;
}

TEST_F(DamagedDbTest, PostingsClaimingMoreGamesAreNamed) {
  // (An index covering fewer games than stored is a warning: tests/import_resume_test.cpp.)
  std::string bytes = cqltest::read_file(db_dir() / sig::kPostingsFile);
  const uint32_t covered = games_ + 10;
  std::memcpy(bytes.data() + 16, &covered, 4);
  std::ofstream(db_dir() / sig::kPostingsFile, std::ios::binary | std::ios::trunc) << bytes;
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("covers games 1.." + std::to_string(covered) + " but the database has " +
                       std::to_string(games_)),
            std::string::npos)
      << r.out;
}

TEST_F(DamagedDbTest, ZeroedPageIsSkippedAndTheRestChecked) {
  // A page in the middle of games.mdb overwritten with zeros: LMDB reports MDB_CORRUPTED
  // (or the page's records no longer decode) for the games on it; the reader is refreshed
  // and every other game is still checked.
  const uint64_t pages = fs::file_size(games_file()) / 4096;
  ASSERT_GT(pages, 20u);
  {
    std::fstream f(games_file(), std::ios::binary | std::ios::in | std::ios::out);
    f.seekp(std::streamoff(pages / 2 * 4096));
    const std::string zeros(4096, '\0');
    f.write(zeros.data(), std::streamsize(zeros.size()));
  }
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("damaged ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" of " + cli_count(games_) + " read, decoded and replayed"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("records:    0 of"), std::string::npos) << r.out;
}

TEST_F(DamagedDbTest, InconsistentPostingIsNamed) {
  // Two ids of a one-container array bitmap swapped (CRoaring's portable format: cookie
  // 12346, container count, key and cardinality - 1, the container's offset, then the
  // sorted uint16 values): the
  // bitmap still deserializes (CRoaring 0.2 checks only byte bounds; found by
  // tests/fuzz/postings_fuzz.cpp) but no longer answers consistently.
  const fs::path postings = db_dir() / sig::kPostingsFile;
  std::string bytes = cqltest::read_file(postings);
  uint32_t entries;
  std::memcpy(&entries, bytes.data() + 20, 4);
  uint32_t damaged_key = UINT32_MAX;
  for (uint32_t i = 0; i < entries && damaged_key == UINT32_MAX; ++i) {
    uint32_t key, offset, length, cookie, containers;
    uint16_t cardinality_minus_1, first, second;
    std::memcpy(&key, bytes.data() + 28 + 12 * i, 4);  // postings format 5: 28-byte header
    std::memcpy(&offset, bytes.data() + 28 + 12 * i + 4, 4);
    std::memcpy(&length, bytes.data() + 28 + 12 * i + 8, 4);
    if (offset == 0xFFFFFFFFu || length < 16) continue;
    std::memcpy(&cookie, bytes.data() + offset, 4);
    std::memcpy(&containers, bytes.data() + offset + 4, 4);
    std::memcpy(&cardinality_minus_1, bytes.data() + offset + 10, 2);
    if (cookie != 12346 || containers != 1 || cardinality_minus_1 < 1 || length != 16 + 2 * (cardinality_minus_1 + 1u))
      continue;
    std::memcpy(&first, bytes.data() + offset + 16, 2);
    std::memcpy(&second, bytes.data() + offset + 18, 2);
    std::memcpy(bytes.data() + offset + 16, &second, 2);
    std::memcpy(bytes.data() + offset + 18, &first, 2);
    damaged_key = key;
  }
  ASSERT_NE(damaged_key, UINT32_MAX) << "no small array posting";
  std::ofstream(postings, std::ios::binary | std::ios::trunc) << bytes;
  const Outcome r = check();
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  // sig::Postings::find refuses it ("is damaged"); cmd_check's own test of the set
  // ("its game set is inconsistent") is the second line of defence.
  EXPECT_NE(r.out.find("posting " + std::to_string(damaged_key) + " is damaged"),
            std::string::npos)
      << r.out;
}

// Issue 40: a damaged signature skipped the rest of the query ("error: corrupt signature:
// header: castling ply 9263", exit 1). The game is skipped and named, the others answered:
// a position query, an exact position (--fen, through the position index) and :mate.
TEST_F(DamagedDbTest, DamagedSignatureSkipsItsGameAndAnswersTheRest) {
  // The first game that ends in mate, and the position after its 6th ply.
  uint32_t victim = 0;
  std::string fen;
  std::vector<std::string> before_mate, before_fen;
  auto ids = [](const std::string& out) {
    std::vector<std::string> v;
    for (size_t start = 0, nl; (nl = out.find('\n', start)) != std::string::npos; start = nl + 1)
      v.push_back(out.substr(start, nl - start));
    return v;
  };
  const std::string db = db_dir().string();
  {
    Outcome mates = run_cqldb({"query", "--db", db, "-e", "(match (position :mate))", "--format", "ids"}, tmp_.path);
    before_mate = ids(mates.out);
    ASSERT_GT(before_mate.size(), 5u);
    victim = uint32_t(std::stoul(before_mate[1]));
    db::Database database = db::Database::open_readonly(db_dir());
    db::GameReader reader = database.reader();
    db::RecordView record;
    ASSERT_TRUE(reader.record_view(victim, record));
    chess::Position pos = db::start_position(record);
    for (uint32_t ply = 0; ply < 6; ++ply) {
      chess::UndoInfo undo;
      db::play_stored(pos, record.main_move(ply), undo, ply + 1);
    }
    fen = pos.fen();
    before_fen = ids(run_cqldb({"query", "--db", db, "--fen", fen, "--format", "ids"}, tmp_.path).out);
    ASSERT_NE(std::find(before_fen.begin(), before_fen.end(), std::to_string(victim)), before_fen.end());
  }
  // Its signature cut in half (it no longer decodes), the record intact.
  const std::string sig = get(db::schema::kSignaturesDbi, victim);
  ASSERT_GT(sig.size(), 12u);
  put(db::schema::kSignaturesDbi, victim, sig.substr(0, sig.size() / 2));
  const std::string named = "1 damaged game skipped: id " + std::to_string(victim);
  auto without_victim = [&](std::vector<std::string> v) {
    v.erase(std::remove(v.begin(), v.end(), std::to_string(victim)), v.end());
    return v;
  };
  // :mate may not need the signature (the posting index narrows, the intact record decides):
  // then the game is found; when it reads it, the game is skipped and named.
  Outcome mate = run_cqldb({"query", "--db", db, "-e", "(match (position :mate))", "--format", "ids"}, tmp_.path);
  EXPECT_EQ(mate.code, 0) << mate.err;
  EXPECT_EQ(without_victim(ids(mate.out)), without_victim(before_mate));
  EXPECT_EQ(mate.err.find(named) != std::string::npos, ids(mate.out) != before_mate) << mate.err;

  Outcome exact = run_cqldb({"query", "--db", db, "--fen", fen, "--format", "ids"}, tmp_.path);
  EXPECT_EQ(exact.code, 0) << exact.err;
  EXPECT_NE(exact.err.find(named), std::string::npos) << exact.err;
  EXPECT_EQ(ids(exact.out), without_victim(before_fen));
  // check names it.
  const Outcome r = check();
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("game " + std::to_string(victim) + ": signature: corrupt signature"), std::string::npos) << r.out;
}

}  // namespace
