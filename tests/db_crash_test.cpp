// Crash safety of the two-store commit: LMDB records beyond SQLite's committed count
// (a crash between the two commits) are ignored by readers and replaced by the next
// writer; a writer SIGKILLed at any moment loses at most its open batch.
#include <gtest/gtest.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "db/database.h"
#include "db/game_blocks.h"
#include "db/game_record.h"
#include "db/lmdb_txn.h"
#include "db/schema.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;

using cqltest::TempDir;

/// The record of game `id` in these tests: 20-60 pseudo-moves derived from the id, so any
/// mix-up of ids or bytes shows.
std::string record_for(uint32_t id) {
  db::RecordBuilder b;
  b.reset();
  const uint32_t plies = 20 + id % 41;
  for (uint32_t i = 0; i < plies; ++i) {
    uint32_t from = (id * 7 + i) % 64, to = (id + i * 3 + 1) % 64;
    b.add_move(from == to ? chess::Move::null()
                          : chess::Move(chess::Square(from), chess::Square(to)));
  }
  return std::string(b.finish());
}

db::GameHeader header_for(uint32_t id) {
  db::GameHeader h;
  h.source_file = "crash.pgn";
  h.ordinal = id;
  h.white = "White " + std::to_string(id % 101);
  h.black = "Black " + std::to_string(id % 103);
  h.event = "Crash test";
  h.date = "2024.01.??";
  h.result = "1-0";
  h.plies = 20 + id % 41;
  return h;
}

void write_games(db::GameWriter& writer, uint32_t count) {
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t id = writer.next_game_id();
    writer.add_game(header_for(id), record_for(id));
  }
}

/// Every game of a fresh reader reads back as written, record and header; returns the count.
uint32_t check_intact(db::Database& database) {
  db::GameReader reader = database.reader();
  uint32_t id = 0, seen = 0;
  std::string_view bytes;
  auto scan = reader.scan();
  while (scan.next(id, bytes)) {
    EXPECT_EQ(id, ++seen);
    EXPECT_EQ(bytes, record_for(id)) << "game " << id;
  }
  EXPECT_EQ(seen, reader.game_count());
  for (uint32_t probe : {1u, seen / 2, seen}) {
    if (probe == 0) continue;
    db::GameHeader h = reader.header(probe);
    EXPECT_EQ(h.white, header_for(probe).white) << "game " << probe;
    EXPECT_EQ(h.plies, header_for(probe).plies) << "game " << probe;
  }
  EXPECT_FALSE(reader.record(seen + 1, bytes));
  return seen;
}

/// Writes `count` junk records after the committed ones straight into games.mdb, as a
/// writer that died after its LMDB commit and before its SQLite commit leaves them: blocks
/// of two games (db/game_blocks.h), the last one maybe of one.
void append_uncommitted_records(const fs::path& dir, uint32_t first_id, uint32_t count) {
  db::lmdb::Env env = db::lmdb::Env::open(dir / db::schema::kGamesFile);
  db::lmdb::Txn txn = db::lmdb::Txn::begin_write(env);
  db::lmdb::Dbi games = *txn.open_dbi(db::schema::kGamesDbi, db::lmdb::kDbiIntegerKey);
  std::string block;
  for (uint32_t id = first_id; id < first_id + count; id += 2) {
    const uint32_t last = std::min(id + 1, first_id + count - 1);
    db::blocks::encode_block(std::vector<std::string_view>(last - id + 1, "junk that is not a record"),
                             block);
    txn.put(games, db::lmdb::integer_key(last), block);
  }
  txn.commit();
}

TEST(CrashTest, RecordsBeyondTheCommittedCountAreIgnoredThenReplaced) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    write_games(writer, 20);
    writer.finish();
  }
  append_uncommitted_records(dir.db(), 21, 5);

  db::Database database = db::Database::create_or_open(dir.db());
  EXPECT_EQ(database.info().uncommitted_records, 5u);
  EXPECT_EQ(check_intact(database), 20u);
  {
    db::GameReader old_snapshot = database.reader();
    db::GameWriter writer = database.writer();  // deletes the 5 junk records
    EXPECT_EQ(writer.next_game_id(), 21u);
    write_games(writer, 3);
    writer.finish();
    EXPECT_EQ(old_snapshot.game_count(), 20u);
  }
  EXPECT_EQ(database.info().uncommitted_records, 0u);
  EXPECT_EQ(check_intact(database), 23u);  // 21..23 are the new games, not junk
}

/// Child process: appends batches of `batch` games forever, reporting each committed count
/// on `report_fd`. Never returns.
[[noreturn]] void writer_child(const fs::path& dir, uint32_t batch, int report_fd) {
  try {
    db::Database database = db::Database::create_or_open(dir);
    db::GameWriter writer = database.writer();
    for (;;) {
      write_games(writer, batch);
      writer.commit();
      uint32_t committed = writer.committed_games();
      if (write(report_fd, &committed, sizeof committed) != sizeof committed) _exit(3);
    }
  } catch (const std::exception& e) {
    fprintf(stderr, "writer child: %s\n", e.what());
    _exit(2);
  }
}

TEST(CrashTest, SigkilledWriterLosesOnlyItsOpenBatch) {
  TempDir dir;
  db::Database::create_or_open(dir.db());  // closed again before forking
  uint32_t committed_before = 0;
  for (int round = 0; round < 10; ++round) {
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      close(fds[0]);
      writer_child(dir.db(), 400, fds[1]);
    }
    close(fds[1]);
    // Let a few batches commit, then kill at a varying moment of the following batches
    // (one batch takes a few milliseconds).
    const uint32_t wanted = 3 + round % 3;
    uint32_t reported = 0, reports = 0;
    while (reports < wanted && read(fds[0], &reported, sizeof reported) == sizeof reported)
      ++reports;
    ASSERT_EQ(reports, wanted) << "writer child died early";
    std::this_thread::sleep_for(std::chrono::microseconds(900 * round));
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "status " << status;
    close(fds[0]);

    db::Database database = db::Database::create_or_open(dir.db());
    const uint32_t count = check_intact(database);
    EXPECT_GE(count, reported);  // every reported commit survived
    EXPECT_GT(count, committed_before);
    committed_before = count;
    // The database takes more writes, with ids continuing from the committed count.
    db::GameWriter writer = database.writer();
    EXPECT_EQ(writer.next_game_id(), count + 1);
    write_games(writer, 10);
    writer.commit();
    committed_before = writer.committed_games();
  }
  db::Database database = db::Database::open_readonly(dir.db());
  EXPECT_EQ(check_intact(database), committed_before);
}

}  // namespace
