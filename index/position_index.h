// Position index (issue 18): for every game, the identity key (chess/position_key.h) of each
// main-line position at plies 0..kIndexedPlies and the move played from it, so that "which
// games reach this exact position, and what did they play next" is a few block reads
// instead of a replay of every game. It also keeps a few facts per game (result, Elos, year,
// and a summary of the last indexed position) so the opening tree (index/position_tree.h)
// needs no SQLite read per game.
//
// Like postings.bin it is derived data: rebuilt by `cqldb reindex`, caught up after every
// import, and a missing or outdated index only makes lookups fall back to replay.
//
// ---- Files in the database directory, all integers little-endian ------------------------
// positions.bin (the manifest, replaced atomically: written beside, fsync, rename)
//   magic "CQLPIDX1", version u32 (kPositionIndexVersion), indexed plies u32, covered u32
//   (games 1..covered are indexed), segment count S u32, then S x (first id u32, last id u32)
// positions-facts.bin: magic "CQLPFCT1", version u32, 0 u32, then one 16-byte GameFacts per
//   game from id 1 (only the first `covered` count; an append writes past them first).
// positions-<first id>-<last id>.seg: one immutable segment for the games first..last:
//   magic "CQLPSEG1", version u32, first id u32, last id u32, block count B u32, entry
//   count u64; then B x (first key u64, offset u32 from the file start, entries u32); then
//   the blocks. An entry is (key, game id, move); entries are sorted by key, then game id,
//   then ply, and cut into blocks of kEntriesPerBlock. In a block each entry is: the key's
//   difference from the previous entry's (varint; the block's first key is in the
//   directory, so its first entry has difference 0), the game id (varint; the difference
//   from the previous id when the key is the same and it is not the block's first entry),
//   and the raw 16-bit chess::Move played next (0 = none: the main line ends there).
// Appends write one new segment per kGamesPerSegment games (O(new games)), then merge the
// last two segments while the earlier has at most as many games as the later and together
// they hold at most kMaxMergedGames (a binary counter, issue 16: amortised O(new games x
// log), the merge streams both files block by block, so its memory does not grow with the
// database); a lookup reads every segment. The merged file is written under its new name,
// then the manifest, then the two old files are removed. An index with more than
// kMaxSegments segments is rebuilt at the next update.
//
// Exactness: keys are full 64-bit Zobrist keys, so two different positions with one key
// (chance about n^2 / 2^65 for n distinct positions) would share an entry list; candidates
// are always replayed, and tree counts carry that (negligible) risk. A game whose main line
// is longer than kIndexedPlies may reach a position later; GameFacts keeps a summary of its
// last indexed position (`frontier`) from which may_reach_later() rules most such games out.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/position_key.h"
#include "chess/types.h"
#include "chess/zobrist.h"

namespace db {
class Database;
class FileMapping;
class GameReader;
}  // namespace db

namespace posindex {

/// Version of the three files' layouts; other versions are ignored (rebuilt by the next
/// import or reindex).
inline constexpr uint32_t kPositionIndexVersion = 2;  // 2: segment files named by first and last game
/// Positions at plies 0..kIndexedPlies of each main line are indexed (41 positions).
inline constexpr uint32_t kIndexedPlies = 40;
/// Entries per block of a segment.
inline constexpr uint32_t kEntriesPerBlock = 128;
/// Games per segment written by a build (bounds the memory of a build: ~16 bytes x 41
/// entries per game, sorted with a copy).
inline constexpr uint32_t kGamesPerSegment = 131072;
/// Two segments are merged only while together they hold at most this many games.
inline constexpr uint32_t kMaxMergedGames = 1u << 20;
/// An index with more segments is rebuilt by the next update.
inline constexpr uint32_t kMaxSegments = 64;
inline constexpr const char* kManifestFile = "positions.bin";
inline constexpr const char* kFactsFile = "positions-facts.bin";

/// Summary of a position from which GameFacts::may_reach_later() decides whether another
/// position can still follow it (chess/position_key.h).
using Frontier = chess::Frontier;

/// Per-game facts kept in positions-facts.bin (16 bytes on disk, in this field order).
struct GameFacts {
  enum Flags : uint8_t {
    kComplete = 1,   ///< every main-line position is indexed (main line <= kIndexedPlies)
    kUnindexed = 2,  ///< the record could not be replayed: no entries; always a candidate
  };
  uint16_t white_elo = 0;  ///< 0 = none
  uint16_t black_elo = 0;  ///< 0 = none
  uint16_t year = 0;       ///< 0 = unknown
  uint8_t result = 0;      ///< db::ResultCode (0 unknown, 1 White wins, 2 Black wins, 3 draw)
  uint8_t flags = 0;       ///< Flags
  Frontier frontier;       ///< summary of the last indexed position (7 bytes)
  uint8_t reserved = 0;

  /// True if the game may reach a position with summary `target` after kIndexedPlies
  /// plies (or the game is unindexed).
  bool may_reach_later(const Frontier& target) const {
    if (flags & kUnindexed) return true;
    return !(flags & kComplete) && frontier.may_reach(target);
  }
};

/// One occurrence of a position in a main line.
struct PositionHit {
  uint32_t game = 0;  ///< game id
  chess::Move next;   ///< the move played from the position; none() at the end of the line
};

/// The read side: the manifest, the facts and the segments of a database, memory-mapped.
class PositionIndex {
 public:
  /// Opens the index of `dir`. nullopt when there is none, or it has another version, or a
  /// file is missing or damaged (callers then replay).
  static std::optional<PositionIndex> open(const std::filesystem::path& dir);

  /// Games 1..covered() are indexed.
  uint32_t covered() const { return covered_; }
  /// Number of segments.
  size_t segments() const { return segments_.size(); }
  /// Bytes of the three kinds of files together.
  uint64_t file_bytes() const { return file_bytes_; }
  /// Entries over all segments (positions x games indexed).
  uint64_t entries() const;

  /// Appends to `out` every indexed occurrence of identity key `key`, game ids ascending,
  /// occurrences of one game in ply order. Throws std::runtime_error on a damaged block.
  void lookup(chess::Key key, std::vector<PositionHit>& out) const;

  /// Decodes every block of every segment and checks that keys ascend, game ids lie in their
  /// segment's range and the entry counts agree (`cqldb check`). Returns "" when sound, else
  /// what is wrong.
  std::string verify() const;

  /// The facts of game `id` (1..covered()).
  GameFacts facts(uint32_t id) const;

  /// The games that reach `pos` (identity_key) at some indexed ply, and those that may reach
  /// it later or were not indexed: a superset of the games whose main line reaches `pos`,
  /// ascending, within 1..`game_count` (games above covered() are all included).
  /// `first_hits` (optional) receives the first indexed occurrence per game.
  std::vector<uint32_t> candidates(const chess::Position& pos, uint32_t game_count,
                                   std::vector<PositionHit>* first_hits = nullptr) const;

 private:
  using Mapping = db::FileMapping;  // db/file_mapping.h
  struct Segment {
    std::shared_ptr<const Mapping> map;
    uint32_t first = 0, last = 0;  ///< its games
    uint32_t blocks = 0;
    uint64_t entries = 0;
  };
  std::vector<Segment> segments_;
  std::shared_ptr<const Mapping> facts_;
  uint32_t covered_ = 0;
  uint64_t file_bytes_ = 0;
};

/// What update_position_index() did.
struct PositionIndexUpdate {
  uint32_t added = 0;        ///< games indexed now
  uint32_t covered = 0;      ///< games covered afterwards
  uint32_t unindexed = 0;    ///< games whose record could not be replayed
  uint64_t entries = 0;      ///< entries written now
  uint64_t file_bytes = 0;   ///< size of all index files afterwards
  size_t segments = 0;       ///< segments afterwards
  uint32_t merges = 0;       ///< segment merges done after the new segments
  bool rebuilt = false;      ///< built from scratch (missing, outdated, too many segments)
  double seconds = 0;
};

/// Brings the position index of `database` up to its committed games: indexes the games
/// above its coverage in new segments, or all games when it is missing, outdated, has too
/// many segments or `rebuild` is set. Reads headers.sqlite for Elos, result and year.
/// `threads` replay games (0 = hardware concurrency). Run by the single writer (after an
/// import, by reindex). Throws on I/O errors.
PositionIndexUpdate update_position_index(const db::Database& database, bool rebuild = false,
                                          unsigned threads = 0);

/// Removes the index files of `dir`.
void remove_position_index(const std::filesystem::path& dir);

}  // namespace posindex
