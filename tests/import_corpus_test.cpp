// End-to-end import tests on the real corpus (../shared/corpus) and the bundled sample.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "chess/movegen.h"
#include "chess/position.h"
#include "db/database.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "temp_dir.h"

namespace fs = std::filesystem;

namespace {

const std::string kCorpus = CQLDB_CORPUS_DIR;
const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

using cqltest::TempDir;

import::ImportSummary import_into(const std::string& dir, const std::vector<std::string>& files) {
  db::Database database = db::Database::create_or_open(dir);
  return import::import_files(database, files, import::ImportOptions{}, nullptr);
}

/// Replays the main line of every stored game; returns the number of games whose final
/// position is checkmate.
uint32_t count_final_mates(db::Database& database) {
  db::GameReader reader = database.reader();
  auto scan = reader.scan();
  uint32_t id, mates = 0;
  std::string_view bytes;
  while (scan.next(id, bytes)) {
    db::RecordView rec = db::RecordView::parse(bytes);
    chess::Position pos;
    if (!rec.start_fen().empty()) {
      EXPECT_TRUE(pos.set_fen(rec.start_fen(), rec.chess960()).ok());
    }
    for (uint32_t i = 0; i < rec.main_line_size(); ++i) {
      chess::UndoInfo u;
      pos.do_move(rec.main_move(i), u);
    }
    if (pos.in_check() && !chess::has_legal_move(pos)) ++mates;
  }
  return mates;
}

std::string export_all(db::Database& database) {
  db::GameReader reader = database.reader();
  std::string out;
  db::GameHeader header;
  auto scan = reader.scan();
  uint32_t id;
  std::string_view bytes;
  while (scan.next(id, bytes)) {
    reader.read_header(id, header);
    db::RecordView view;
    reader.record_view(id, view);  // with the annotation record
    db::write_pgn(header, view, out);
  }
  return out;
}


}  // namespace

TEST(ImportCorpus, AnnotatedGamesAllAccountedFor) {
  TempDir dir;
  auto s = import_into(dir / "db", {kCorpus + "/annotated.pgn"});
  EXPECT_EQ(s.games_read, 2578u);
  EXPECT_EQ(s.games_read, s.imported + s.rejected);
  EXPECT_GT(s.imported, 2500u);
  uint64_t by_reason = 0;
  for (const auto& [reason, n] : s.reasons) by_reason += n;
  EXPECT_EQ(by_reason, s.rejected);
  db::Database database = db::Database::open_readonly(dir / "db");
  db::DatabaseInfo info = database.info();
  EXPECT_EQ(info.games, s.imported);
  EXPECT_EQ(info.rejected, s.rejected);
}

TEST(ImportCorpus, StudiesStartFromTheirFen) {
  TempDir dir;
  auto s = import_into(dir / "db", {kCorpus + "/studies.pgn"});
  EXPECT_EQ(s.games_read, 253u);
  EXPECT_EQ(s.games_read, s.imported + s.rejected);
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  uint32_t with_fen = 0;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    db::GameHeader h = reader.header(id);
    std::string bytes;
    ASSERT_TRUE(reader.read_record(id, bytes));
    db::RecordView rec = db::RecordView::parse(bytes);
    EXPECT_EQ(h.start_fen, std::string(rec.start_fen()));
    with_fen += !h.start_fen.empty();
  }
  EXPECT_GE(with_fen + s.rejected, 252u);
}

TEST(ImportCorpus, MateProblemsEndInMate) {
  TempDir dir;
  auto s = import_into(dir / "db", {kCorpus + "/mates.pgn"});
  EXPECT_EQ(s.games_read, 914u);
  EXPECT_EQ(s.games_read, s.imported + s.rejected);
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  for (uint32_t id = 1; id <= reader.game_count(); ++id)
    EXPECT_FALSE(reader.header(id).start_fen.empty()) << "game " << id;
  EXPECT_EQ(count_final_mates(database), s.imported);
}

TEST(ImportCorpus, ExportReproducesAnnotatedGames) {
  // Import, export, re-import the export, export again: the two exports are identical, so
  // every move, variation, comment and NAG survived the round trip.
  TempDir dir;
  auto first = import_into(dir / "a", {kCorpus + "/annotated.pgn"});
  std::string exported;
  {
    db::Database a = db::Database::open_readonly(dir / "a");
    exported = export_all(a);
  }
  std::ofstream(dir / "a.pgn", std::ios::binary) << exported;
  auto second = import_into(dir / "b", {dir / "a.pgn"});
  EXPECT_EQ(second.games_read, first.imported);
  EXPECT_EQ(second.rejected, 0u);
  db::Database b = db::Database::open_readonly(dir / "b");
  std::string again = export_all(b);
  EXPECT_EQ(again.size(), exported.size());
  EXPECT_TRUE(again == exported);
  EXPECT_NE(exported.find("(1... "), std::string::npos);  // variations
  EXPECT_NE(exported.find(" $"), std::string::npos);      // NAGs
  EXPECT_NE(exported.find(" {"), std::string::npos);      // comments
}

TEST(ImportCorpus, ExportOfAKnownGame) {
  TempDir dir;
  import_into(dir / "db", {kSample + "/players-3000.pgn.zst"});
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  ASSERT_EQ(reader.game_count(), 3000u);
  db::GameHeader h = reader.header(1);
  EXPECT_EQ(h.white, "Savrov");
  EXPECT_EQ(h.black, "Alekhine, Alexander");
  EXPECT_EQ(h.date, "1906.??.??");
  EXPECT_EQ(h.result, "0-1");
  EXPECT_EQ(h.eco, "C30");
  EXPECT_EQ(h.ordinal, 1u);
  EXPECT_EQ(h.plies, 89u);
  std::string bytes, pgn;
  reader.read_record(1, bytes);
  db::write_pgn(h, db::RecordView::parse(bytes), pgn);
  EXPECT_EQ(pgn.find("\n1. e4 e5 2. f4"), pgn.find("\n\n") + 1);  // movetext after one blank line
  for (char& ch : pgn) ch = ch == '\n' ? ' ' : ch;                  // ignore line breaks below
  EXPECT_NE(pgn.find("1. e4 e5 2. f4 Bc5 3. Nf3 d6"), std::string::npos) << pgn;
  EXPECT_NE(pgn.find("44. Qd1 Nxf4+ 45. Kh1 0-1"), std::string::npos) << pgn;
}

TEST(ImportCorpus, SecondImportAppendsAndContinuesIds) {
  TempDir dir;
  auto a = import_into(dir / "db", {kCorpus + "/mates.pgn"});
  auto b = import_into(dir / "db", {kCorpus + "/studies.pgn"});
  EXPECT_EQ(a.first_id, 1u);
  EXPECT_EQ(b.first_id, a.last_id + 1);
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  EXPECT_EQ(reader.game_count(), a.imported + b.imported);
  db::GameHeader h = reader.header(b.first_id);
  EXPECT_NE(h.source_file.find("studies.pgn"), std::string::npos);
  EXPECT_EQ(h.ordinal, 1u);
}

TEST(ImportCorpus, DamagedInputImportsAndAddsUp) {
  // The bundled players slice, decompressed, with random bytes injected and the end cut off.
  TempDir dir;
  std::string text;
  {
    import::InputStream in(kSample + "/players-3000.pgn.zst");
    char buf[1 << 16];
    for (size_t n; (n = in.read(buf, sizeof buf)) > 0;) text.append(buf, n);
  }
  std::mt19937 rng(12345);
  for (int i = 0; i < 400; ++i) {
    size_t at = rng() % text.size();
    text[at] = char(rng() & 0xFF);
  }
  text.resize(text.size() - 1234);
  std::ofstream(dir / "damaged.pgn", std::ios::binary) << text;
  auto s = import_into(dir / "db", {dir / "damaged.pgn"});
  EXPECT_EQ(s.games_read, s.imported + s.rejected);
  EXPECT_GT(s.games_read, 2900u);
  EXPECT_GT(s.rejected, 0u);
  EXPECT_GT(s.imported, 2000u);
  db::Database database = db::Database::open_readonly(dir / "db");
  EXPECT_EQ(database.info().games, s.imported);
}

TEST(ImportCli, SigkillLeavesCommittedGamesIntact) {
  // Run the real command on the big corpus, kill it with SIGKILL mid-import, then check that
  // the database opens, every committed game reads back, and another import appends.
  TempDir dir;
  std::string db_dir = dir / "db";
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execl(CQLDB_BINARY, "cqldb", "import", "-q", "--db", db_dir.c_str(),
          (kCorpus + "/players-344k.pgn.zst").c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until some batches are committed, then kill.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  uint32_t seen = 0;
  while (std::chrono::steady_clock::now() < deadline && seen < 40000) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    if (!fs::exists(dir / "db/headers.sqlite")) continue;
    try {
      db::Database peek = db::Database::open_readonly(db_dir);
      seen = peek.reader().game_count();
    } catch (const std::exception&) {
    }
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the import finished before it could be killed";

  uint32_t committed;
  {
    db::Database database = db::Database::open_readonly(db_dir);
    db::GameReader reader = database.reader();
    committed = reader.game_count();
    EXPECT_GE(committed, seen);
    EXPECT_LT(committed, 344248u);
    auto scan = reader.scan();
    uint32_t id, n = 0;
    std::string_view bytes;
    while (scan.next(id, bytes)) {
      db::RecordView::parse(bytes);
      ++n;
    }
    EXPECT_EQ(n, committed);
    EXPECT_GE(reader.header(committed).ordinal, committed);  // ordinals count rejected games too
  }
  auto more = import_into(db_dir, {kCorpus + "/mates.pgn"});
  EXPECT_EQ(more.first_id, committed + 1);
}
