// Building the position index inside the import pipeline (issue 18: "import throughput no
// worse than 10% with it on"): each import worker derives a game's index entries from the
// record it just encoded (index_record, the same code a reindex runs over stored records),
// the writer thread collects them under the game's id (FreshPositions::add), and every
// complete segment of kGamesPerSegment games is sorted and written by a background thread
// while the stream goes on. After the stream update_position_index(database, fresh) writes
// the last, partial segment, the facts and the manifest. Layout of the files:
// position_index.h.
#pragma once

#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "index/position_index.h"

namespace db {
class Database;
struct GameHeader;
}

namespace posindex {

/// One main-line position of one game: its identity key (chess/position_key.h), the ply
/// (0 = start position, at most kIndexedPlies) and the raw chess::Move played from it (0 at
/// the end of the main line).
struct GameEntry {
  uint64_t key = 0;
  uint16_t move = 0;
  uint8_t ply = 0;
};

/// What the position index stores of one game, derived from its move record.
struct FreshGame {
  std::vector<GameEntry> entries;  ///< plies 0..min(main line, kIndexedPlies), in ply order
  Frontier frontier;               ///< summary of the last indexed position
  uint8_t flags = 0;               ///< GameFacts::Flags (kComplete, kUnindexed)
};

/// Derives `out` from the move record `record` (db/record_format.h): replays its main line
/// from the start (db::MainLineReplay) up to kIndexedPlies. A record that cannot be replayed
/// gives no entries and GameFacts::kUnindexed. Never throws for bad record bytes.
void index_record(std::string_view record, FreshGame& out);

/// An entry while a segment is built: sorted by key, then game, then ply.
struct BuildEntry {
  uint64_t key;
  uint32_t game;
  uint8_t ply;
  uint16_t move;
  bool operator<(const BuildEntry& o) const {
    if (key != o.key) return key < o.key;
    if (game != o.game) return game < o.game;
    return ply < o.ply;
  }
};

/// The position index entries of the games an import stores, collected as they are stored.
/// Usable when, at construction (under the writer lock), the index covers exactly the
/// database's games (or the database is empty): the new games then form the next segments.
/// Each complete segment is sorted and written by one background thread (at most one
/// segment waits, so memory is about three segments' worth of entries: the one collected,
/// the one being sorted and its sorted copy, ~16 bytes x 41 entries x 131,072 games each),
/// and consecutive new segments are merged there by the tiered rule of
/// position_index.h. Nothing is visible to readers until update_position_index() writes the
/// manifest; files of an import that never gets there are removed by the destructor (or, if
/// the process dies, overwritten by the next import).
class FreshPositions {
 public:
  /// The entries of consecutive games, kept in the batches' own vectors: game i's are
  /// begins[i][0 .. counts[i]).
  struct Collected {
    std::vector<std::shared_ptr<const std::vector<GameEntry>>> batches;  // kept alive
    std::vector<const GameEntry*> begins;
    std::vector<uint8_t> counts;
    size_t entries = 0;
  };

  /// Opens the index of `database` to see what it covers. Never throws for a missing or
  /// outdated index (the collection is then unused, and the update rebuilds).
  /// `games_per_segment` (at least 1): games of a segment written during the import.
  /// When the index is usable and has due merges (left by the last import's end_stream()),
  /// starts them on the background thread.
  explicit FreshPositions(const db::Database& database, uint32_t games_per_segment = kGamesPerSegment);
  ~FreshPositions();
  FreshPositions(const FreshPositions&) = delete;
  FreshPositions& operator=(const FreshPositions&) = delete;

  /// Takes the entries of the next batch of games: `entries` holds theirs in game order, and
  /// add() and skip() take them from its start on. The writer thread copies nothing.
  void begin_batch(std::vector<GameEntry>&& entries);
  /// Adds game `id` (ids must grow by one from the first new game): its `count` entries
  /// are the batch's next; `facts` its facts (game_facts()). A gap makes the collection
  /// unusable. Throws what a background segment write threw.
  void add(uint32_t id, uint32_t count, const GameFacts& facts);
  /// Passes over the batch's next `count` entries (a game not stored).
  void skip(uint32_t count);
  /// Called when the import has stored (and committed) its last game: when the collection
  /// holds exactly the games above the index, a background thread writes the last, partial
  /// segment, the facts file and the manifest, while the import finishes headers.sqlite and
  /// the posting index; update_position_index() then waits for it. Merges of published
  /// segments that this makes due by the tiered rule are left to the next import's
  /// FreshPositions, which runs them in the background during its stream (the merges of
  /// this import's own full segments run during its stream, as they are written).
  /// Otherwise nothing happens here (update_position_index catches up). Throws what a
  /// background segment write or merge threw.
  void end_stream(const db::Database& database);

 private:
  friend PositionIndexUpdate update_position_index(const db::Database&, FreshPositions&, unsigned);
  /// Hands the entries of games segment_first_..last_ to the background thread.
  void flush_segment();
  /// Waits for the background thread; rethrows what it threw.
  void join();
  /// Removes every segment file this collection wrote (not published).
  void discard();

  std::filesystem::path dir_;
  bool usable_ = false;
  bool published_ = false;
  uint32_t per_segment_ = kGamesPerSegment;
  uint32_t base_ = 0;           // games covered by the index before the import
  uint32_t last_ = 0;           // last game added (base_ while none)
  uint32_t segment_first_ = 0;  // first game of the segment being collected
  Collected collecting_;  // the entries of that segment's games
  std::shared_ptr<const std::vector<GameEntry>> batch_;  // the batch add() takes from
  size_t batch_next_ = 0;                                // its next entry
  // The background thread's sorted segment, its memory reused by the next segment (its
  // pages are mapped already).
  std::vector<BuildEntry> sorted_;
  std::vector<GameFacts> facts_;  // of games base_+1..
  std::vector<std::pair<uint32_t, uint32_t>> written_;  // new segments on disk (game ranges)
  uint64_t entry_count_ = 0;
  uint32_t catch_up_merges_ = 0;  // merges the constructor's background thread did
  std::thread worker_;
  std::exception_ptr error_;
  // end_stream()'s publication: the thread, its result or what it threw.
  bool ended_ = false;  // end_stream() was called
  std::thread publisher_;
  PositionIndexUpdate published_result_;
  std::exception_ptr publish_error_;
};

/// The facts of a game with header `header` (as stored: db::GameWriter) and main-line
/// summary `frontier` / `flags`: Elos clamped to 0..65535, the year of the date when 1..65535
/// (else 0), the result code. Equal to what a rebuild reads back from headers.sqlite.
GameFacts game_facts(const db::GameHeader& header, const Frontier& frontier, uint8_t flags);

/// update_position_index(database) for the end of an import that collected `fresh`: when
/// end_stream() published the collection (update_position_index calls it when the import
/// did not), waits for that and returns its figures; otherwise discards the collection and
/// catches up by replaying records. Throws on I/O errors (and what the publication threw).
PositionIndexUpdate update_position_index(const db::Database& database, FreshPositions& fresh,
                                          unsigned threads = 0);

}  // namespace posindex
