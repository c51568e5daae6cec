// GameWriter: the single writer that appends games (record + header) to a database in
// batches. Commit protocol and crash behaviour: see schema.h.
#pragma once

#include <cstdint>
#include <memory>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "db/duplicate_index.h"
#include "db/file_lock.h"
#include "db/game_blocks.h"
#include "db/game_header.h"
#include "db/game_store.h"
#include "db/header_bitmaps.h"
#include "db/import_log.h"
#include "db/lmdb_txn.h"
#include "db/name_table.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "db/stage_times.h"
#include "db/tag_list.h"

namespace db {

class Database;

/// How a GameWriter treats the secondary indexes of headers.sqlite (schema.h).
struct WriterOptions {
  /// Drop the secondary indexes now and rebuild them in finish(): faster for an import that
  /// adds more than about a quarter of the games already stored (rebuilding costs about
  /// 3 us per stored game, keeping them up to date about 10-20 us per added game). Always
  /// done when the database is empty. Until finish() header queries run without indexes.
  bool defer_indexes = false;
};

/// Appends games to a database, and rewrites signatures (reindex). Obtained from
/// Database::writer(); at most one exists per database directory at a time, across
/// processes (it holds <dir>/writer.lock). Use it from a single thread (LMDB write
/// transactions are tied to their thread).
///
/// Games get ids committed_games() + 1, + 2, ... in add_game() order. A batch is everything
/// added since the last commit(): one LMDB write transaction and one SQLite transaction,
/// opened by the first add. commit() makes the batch durable and visible to readers opened
/// afterwards. Call finish() after the last commit of an import.
///
/// Errors: any exception from add_game/add_log/add_import/commit rolls the open batch back
/// in both stores and leaves the writer broken (every later call throws db::Error); games
/// committed before stay. Destroying a writer with an open batch discards that batch.
class GameWriter {
 public:
  GameWriter(GameWriter&&) noexcept;
  GameWriter& operator=(GameWriter&&) = delete;  // would swap databases under a batch
  ~GameWriter();

  /// The id the next add_game() will assign.
  uint32_t next_game_id() const { return committed_ + pending_ + 1; }
  /// Games committed so far (the database's game count).
  uint32_t committed_games() const { return committed_; }
  /// Games added to the open batch, not yet committed.
  uint32_t pending_games() const { return pending_; }

  /// Adds a game with id next_game_id() and returns that id. `header.id` must be 0 or that
  /// id; `record` is the game record (RecordBuilder::finish()) and is validated first;
  /// `header.plies` must equal its main-line length; `header.source_file` names the file
  /// row (created on first use by this writer). A bad record (CorruptRecord) or header
  /// (std::invalid_argument) is refused before anything is written, so the writer stays
  /// usable.
  ///
  /// `signature` is the encoded signature of the game (index/signature.h; not checked
  /// here), stored under the same id in the same LMDB transaction as the record. Empty =
  /// none: the game then has no signature until a reindex, and the planner must keep it as
  /// a candidate. The importer always passes one.
  /// `annotations` is the game's annotation record (RecordBuilder::annotations(); empty =
  /// none), stored in the "annotations" sub-db and validated with the record.
  uint32_t add_game(const GameHeader& header, std::string_view record,
                    std::string_view signature = {}, std::string_view annotations = {});
  /// The id of a stored game that duplicates the game with `header` and move record
  /// `record` (same main-line moves and start FEN, White, Black, Date and result; see
  /// duplicate_index.h), or std::nullopt. Committed games and the games of the open batch
  /// are searched: the games of both players rows by the header bitmaps' player columns
  /// (the chain on disk, opened at the first call, and set_fresh_header_bitmaps()'s for the
  /// games since), their length, Date and result read by id, then a comparison of the
  /// moves. Games no bitmap covers (bitmaps missing or behind, no fresh bitmaps) are looked
  /// up through the index games_seg_white, which the first such call builds over the games
  /// stored so far, in the open batch (a failure there breaks the writer like any failed
  /// write; update_header_bitmaps drops it again). Throws CorruptRecord for a bad `record`;
  /// the writer stays usable.
  std::optional<uint32_t> find_duplicate(const GameHeader& header, std::string_view record);
  /// The players rows (games.white_id, black_id) of the game the last add_game() stored.
  std::pair<int64_t, int64_t> last_player_ids() const { return {last_white_id_, last_black_id_}; }
  /// The header bitmaps of the games added since the chain on disk ends, which the caller
  /// (the import) keeps as it adds games (FreshHeaderBitmaps::add after each add_game);
  /// find_duplicate searches them. nullptr: none (those games are looked up by SQL).
  void set_fresh_header_bitmaps(const FreshHeaderBitmaps* fresh) { fresh_bitmaps_ = fresh; }
  /// Replaces the signature of the committed game `id` (1..committed_games()) in the open
  /// batch; an empty `signature` deletes it. Only LMDB is written: commit() then commits
  /// no SQLite transaction. Throws std::out_of_range for an id that is not committed.
  void set_signature(uint32_t id, std::string_view signature);
  /// Ends a reindex: commits, then records the current format versions (schema.h:
  /// kFormatVersion and kSignatureFormatVersion) in both stores, LMDB first. Call only once
  /// every committed game has a signature of the current version (or none).
  void mark_signatures_current();
  /// Adds a row to the import log (rejected game or warning) in the open batch.
  void add_log(const LogEntry& entry);
  /// Adds the summary of one file's import run (table imports) in the open batch.
  void add_import(const ImportRun& run);
  /// The committed part of an import of the file `identity` (same path, size and head hash)
  /// that stopped before the file ended (killed, interrupted, disk full): the newest such
  /// files row without an imports row, or nullopt.
  std::optional<ResumePoint> unfinished_import(const SourceIdentity& identity);
  /// The games and log rows of `identity.path` added from now on go under the files row
  /// `resume_file_id` (continuing an unfinished import), or, when it is 0, under a new files
  /// row recording the identity (in the open batch).
  void begin_file(const SourceIdentity& identity, int64_t resume_file_id = 0);
  /// Commits the open batch: LMDB first, then SQLite with meta.committed_games (when the
  /// batch wrote to SQLite). No-op when nothing was added.
  void commit();
  /// Commits, then builds the secondary indexes if this writer deferred them (first import
  /// into an empty database). Call once at the end of an import.
  void finish();
  /// Adds the time add_game() and commit() spend in each writer stage (names, SQLite, LMDB,
  /// the rest) to `times` from now on; nullptr: not timed (ImportOptions::stage_times).
  void set_stage_times(StageTimes* times) { times_ = times; }

 private:
  friend class Database;
  GameWriter(std::shared_ptr<GameStore> store, const WriterOptions& options);

  /// Opens the SQLite transaction of a batch if needed.
  void begin_sql();
  /// The files.id of `path`, inserting a row on first use.
  int64_t file_id(std::string_view path);
  /// The sites.id and games.site_suffix (empty = NULL) of site name `site` (db/site_name.h).
  std::pair<int64_t, std::string_view> site_parts(std::string_view site);
  /// Throws if the writer is broken.
  void check_usable() const;
  /// The games 1..`covered` of `chain_bitmaps_` whose `column` is players row `player`
  /// (find_duplicate), decoded once per writer and kept: each game is in one bitmap of
  /// each column, so the cache holds at most two ids per covered game. Throws FormatError
  /// for a damaged bitmap.
  const std::vector<uint32_t>& chain_ids(HeaderColumn column, int64_t player, uint32_t covered);
  /// Rolls the open batch back in both stores and marks the writer broken.
  void fail() noexcept;

  std::shared_ptr<GameStore> store_;  // LMDB environment and sub-dbs
  FileLock lock_;                     // <dir>/writer.lock, held for the writer's life
  sqlite::Connection sql_;            // own connection to headers.sqlite
  sqlite::Statement insert_game_;     // INSERT INTO games
  sqlite::Statement insert_tags_;     // INSERT INTO game_tag_lists (db/tag_list.h)
  sqlite::Statement insert_log_;      // INSERT INTO import_log
  sqlite::Statement insert_import_;   // INSERT INTO imports
  sqlite::Statement insert_file_;     // INSERT INTO files ... RETURNING id
  sqlite::Statement insert_source_;   // INSERT INTO files with size and head_hash (begin_file)
  sqlite::Statement set_committed_;   // UPDATE meta: committed_games
  sqlite::Statement insert_comment_;  // INSERT INTO comment_text (issue 17 B)
  NameTable players_;                 // name -> players.id
  NameTable events_;                  // name -> events.id
  NameTable sites_;                   // name -> sites.id
  NameTable tag_names_;               // other tags' names -> tag_names.id (issue 23)
  TagValueCodes tag_values_;          // other tags' repeating values -> tag_values codes
  std::string packed_tags_;           // the packed tags of the game being added (buffer)
  // Issue 17 A: set in the constructor once the tables exist (older databases gain them).
  std::optional<NameTable> openings_;                     // opening name -> openings.id
  std::optional<DuplicateLookup> duplicate_lookup_;      // issue 16: find_duplicate()
  std::unordered_map<std::string, int64_t> file_ids_;  // source path -> files.id
  std::string last_file_;                              // path of the last file_id() lookup
  int64_t last_file_id_ = 0;                           // its id (0 = none yet)
  std::optional<lmdb::Txn> txn_;                       // LMDB write txn of the open batch
  // Blocked stores (db/game_blocks.h): the batch's open blocks, put when full and at commit.
  blocks::BlockBuilder record_block_;
  blocks::BlockBuilder signature_block_;
  StageTimes* times_ = nullptr;                        // set_stage_times()
  std::map<uint32_t, std::string> signature_updates_;  // set_signature()'s, put at commit()
  uint32_t committed_ = 0;                             // games committed (meta.committed_games)
  uint32_t pending_ = 0;                               // games in the open batch
  bool indexes_deferred_ = false;                      // secondary indexes dropped for a bulk load
  bool duplicate_index_ = false;                       // find_duplicate() made sure games_seg_white exists
  bool chain_opened_ = false;                          // find_duplicate() has opened chain_bitmaps_
  std::optional<HeaderBitmaps> chain_bitmaps_;         // the header bitmaps on disk (find_duplicate)
  std::unordered_map<uint64_t, std::vector<uint32_t>> chain_ids_;  // chain_ids(): (column, player) -> ids
  const FreshHeaderBitmaps* fresh_bitmaps_ = nullptr;  // set_fresh_header_bitmaps()
  int64_t last_white_id_ = 0;                          // last_player_ids()
  int64_t last_black_id_ = 0;
  bool whole_url_sites_ = false;                       // no kMetaSiteSuffixes: look URL sites up whole first
  bool broken_ = false;                                // a failure rolled a batch back
};

}  // namespace db
