// GameReader: a consistent read-only snapshot of a database (records and headers).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "db/game_blocks.h"
#include "db/game_header.h"
#include "db/game_store.h"
#include "db/game_source.h"
#include "db/lmdb_cursor.h"
#include "db/lmdb_txn.h"
#include "db/record_view.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

class Database;

/// A snapshot of the committed games: games 1..game_count() as of the moment the reader
/// was opened (or last refresh()ed). Imports committing meanwhile are not seen.
///
/// Opening takes a SQLite read transaction first (reading meta.committed_games pins the
/// snapshot), then an LMDB read transaction. Because writers commit LMDB before SQLite,
/// LMDB then holds at least game_count() records; records above the count are ignored.
///
/// Lifetimes: record and signature bytes returned as std::string_view (record(),
/// signature(), Scan::next(), SignatureScan::next()) point into the LMDB map and are valid
/// until refresh() or the reader's destruction; copy them (read_record()) to keep them
/// longer. A Scan or SignatureScan must not outlive its reader. Do not keep a
/// reader open across user prompts: it pins old pages and the SQLite WAL.
///
/// Threads: a reader is used by one thread at a time; for a parallel scan open one reader
/// per worker. Records with id <= a snapshot's count never change, so workers may read any
/// id range that a coordinating reader's game_count() covers, even if their own snapshots
/// are newer.
class GameReader final : public GameSource {
 public:
  class Scan;
  class SignatureScan;

  /// Opens a snapshot of `database`. The reader keeps the LMDB environment open by itself,
  /// but must not be used after the database directory was reopened in this process.
  explicit GameReader(const Database& database);
  GameReader(GameReader&&) noexcept;
  GameReader& operator=(GameReader&&) = delete;  // could end the store before the txn
  ~GameReader();

  /// Number of games in the snapshot; ids are 1..game_count().
  uint32_t game_count() const { return count_; }
  /// Sets `bytes` to the record of game `id` (view valid until refresh()/destruction).
  /// Returns false when `id` is 0 or above game_count(). Throws CorruptRecord naming the
  /// game (CorruptRecord::game_id()) when a committed record is missing from games.mdb or
  /// its page cannot be read (MDB_PAGE_NOTFOUND, MDB_CORRUPTED: a damaged file). After a
  /// page error LMDB refuses every further read of the snapshot: refresh() before going on
  /// (records <= game_count() stay the same, so a query skips the game and continues).
  bool record(uint32_t id, std::string_view& bytes) const override;
  /// Sets `bytes` to the annotation record of game `id` (empty when it has none; view valid
  /// until refresh()/destruction). Only export, `show`, jsonl and `check` need it: replay
  /// reads the move record alone. Throws CorruptRecord with the id for an unreadable page.
  void annotations(uint32_t id, std::string_view& bytes) const;
  /// Reads and validates the record of game `id` into `out` (RecordView::parse; view valid
  /// until refresh()/destruction), with its annotations when `with_annotations`. False when
  /// `id` is not in the snapshot. Throws CorruptRecord with the game's id for a missing,
  /// unreadable or malformed record.
  bool record_view(uint32_t id, RecordView& out, bool with_annotations = true) const override;
  /// Copies the record of game `id` into `out`; false when `id` is not in the snapshot.
  bool read_record(uint32_t id, std::string& out) const;
  /// Fills `out` with the header of game `id` (reusing its strings); false when `id` is
  /// not in the snapshot. Throws CorruptRecord with the id when the game has no row in
  /// headers.sqlite.
  bool read_header(uint32_t id, GameHeader& out) override;
  /// The header of game `id`. Throws std::out_of_range when `id` is not in the snapshot.
  GameHeader header(uint32_t id);
  /// Iterates the records with ids in [first_id, last_id] (clamped to the snapshot) in id
  /// order.
  Scan scan(uint32_t first_id = 1, uint32_t last_id = UINT32_MAX) const;
  /// Sets `bytes` to the encoded signature of game `id` (index/signature.h; view valid
  /// until refresh()/destruction). Returns false when `id` is not in the snapshot or the
  /// game has no signature. Throws CorruptRecord with the id when its page cannot be read
  /// (then refresh() before going on, as for record()).
  bool signature(uint32_t id, std::string_view& bytes) const;
  /// Iterates the signatures of the games with ids in [first_id, last_id] (clamped to the
  /// snapshot) in id order, one cursor pass over the signatures sub-db: the planner's way
  /// to filter every game.
  SignatureScan scan_signatures(uint32_t first_id = 1, uint32_t last_id = UINT32_MAX) const;
  /// Ends the snapshot and opens a new one (invalidates every view and Scan).
  void refresh();

 private:
  /// Begins the SQLite read transaction, reads the count, then begins/renews LMDB.
  void open_snapshot();

  std::shared_ptr<const GameStore> store_;  // LMDB environment and sub-dbs
  sqlite::Connection sql_;                  // own read-only connection
  sqlite::Statement count_query_;           // SELECT committed_games
  sqlite::Statement header_query_;          // the games row joined with its names
  sqlite::Statement tags_query_;            // the other tags of a game
  std::optional<lmdb::Txn> txn_;            // LMDB read transaction of the snapshot
  uint32_t count_ = 0;                      // committed games in the snapshot
  // Blocked stores (db/game_blocks.h): the last block read of each sub-db; reset before
  // txn_ ends (declared after it, so destroyed first).
  mutable blocks::BlockReader record_blocks_{"record"};
  mutable blocks::BlockReader signature_blocks_{"signature"};
};

/// Iteration over a range of records in id order:
///
///   auto scan = reader.scan(first, last);
///   uint32_t id; std::string_view bytes;
///   while (scan.next(id, bytes)) { ... RecordView::parse(bytes) ... }
class GameReader::Scan {
 public:
  /// Moves to the next record; false past the end of the range. Throws CorruptRecord
  /// with the id when a committed id is missing or its page cannot be read; the scan then
  /// stands after that id (after a page error refresh() the reader and open a new scan
  /// from game_id() + 1: the old cursor belongs to the ended snapshot).
  bool next(uint32_t& id, std::string_view& bytes);

 private:
  friend class GameReader;
  Scan(const lmdb::Txn& txn, lmdb::Dbi games, bool blocked, uint32_t first_id, uint32_t last_id)
      : cursor_(txn, games), next_id_(first_id), last_id_(last_id), blocked_(blocked) {}

  lmdb::Cursor cursor_;   // over the games sub-db
  uint32_t next_id_;      // id expected next
  uint32_t last_id_;      // last id of the range; empty when next_id_ > last_id_
  bool blocked_;          // the sub-db holds blocks (GameStore::blocked())
  bool started_ = false;  // cursor positioned
  blocks::BlockView block_;  // blocked: the block under the cursor (none before the first)
};

/// Iteration over the signatures of a range of games in id order. Every id of the range
/// comes once; a game without a signature comes with empty bytes (keep it as a candidate):
///
///   auto scan = reader.scan_signatures();
///   uint32_t id; std::string_view bytes;
///   while (scan.next(id, bytes)) { if (bytes.empty()) ...; else sig::decode(bytes, s); }
class GameReader::SignatureScan {
 public:
  /// Moves to the next game; false past the end of the range. Throws CorruptRecord with
  /// the id when the signatures' page cannot be read (see Scan::next).
  bool next(uint32_t& id, std::string_view& bytes);

 private:
  friend class GameReader;
  SignatureScan(const lmdb::Txn& txn, lmdb::Dbi signatures, bool blocked, uint32_t first_id,
                uint32_t last_id)
      : cursor_(txn, signatures), next_id_(first_id), last_id_(last_id), blocked_(blocked) {}
  /// next() of a blocked sub-db.
  bool next_blocked(uint32_t& id, std::string_view& bytes);

  lmdb::Cursor cursor_;     // over the signatures sub-db
  uint32_t next_id_;        // id returned next
  uint32_t last_id_;        // last id of the range; empty when next_id_ > last_id_
  uint32_t entry_id_ = 0;   // key of the entry under the cursor (valid when has_entry_)
  std::string_view entry_;  // its value
  bool has_entry_ = false;  // the cursor is on an entry
  bool started_ = false;    // cursor positioned
  bool blocked_;            // the sub-db holds blocks (GameStore::blocked())
  blocks::BlockView block_; // blocked: the block under the cursor (valid when has_entry_)
};

}  // namespace db
