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
// positions-facts.bin: magic "CQLPFCT1", version u32, 0 u32, then one 12-byte GameFacts per
//   game from id 1 (only the first `covered` count; an append writes past them first):
//   white Elo u16, black Elo u16, year u16; a byte of result (bits 0-1), flags (bits 2-3)
//   and the frontier's castling rights (bits 4-7); the frontier's white and black home
//   pawns (a byte each); then 24 bits: white men (bits 0-4), black men (5-9), white pawns
//   (10-13), black pawns (14-17), 0 above. A count that does not fit (31 men, 15 pawns, only
//   in a made-up FEN) is stored as that maximum and read as 255: "any number", so
//   may_reach_later() stays a superset. (Version 3: 16 bytes, each field a whole byte.)
// positions-<first id>-<last id>.seg: one immutable segment for the games first..last:
//   header: magic "CQLPSEG1", version u32, first id u32, last id u32, block count B u32,
//   directory offset u32, entry count u64, group count u64, key Rice parameter u32, 0 u32;
//   then the blocks; then the directory at its offset: B x (first top u64, offset u32 of the
//   block from the file start, groups u32). A block ends where the next one (or the
//   directory) starts.
//   An entry is (key, game id, move played next); entries are sorted by key, game id, ply and
//   cut into groups: a group holds the entries sharing the top kTopKeyBits bits of the key
//   ("top"). A block holds up to kGroupsPerBlock groups (fewer once it has kBlockEntries
//   entries; one group is never split), as one bit stream (index/position_index_format.h:
//   LSB first, Elias gamma, Rice codes), padded to a byte. A group is:
//     rice(top - previous top, key Rice parameter)   (the block's first: from the directory)
//     gamma(n)                                        entries
//     first game - segment first, in bit_width(last - first) bits
//     n == 1 (a "singleton"): nothing more: neither the low key bits nor the move.
//     n >= 2: a bit "low bits stored"; if set: a bit "all moves known" and the low
//       kLowKeyBits (64 - kTopKeyBits) bits of the key; then the n - 1 game id deltas
//       (rice, parameter ~ log2((last - first + 1) / n); 0 when a game reaches the position
//       twice: one entry per occurrence, in ply order); when low bits are stored but not all
//       moves: one "known" bit per entry; then the distinct moves of the known entries
//       (gamma(d), d x raw 16-bit chess::Move, most played first, 0 = the line ends there)
//       and per known entry its index in ceil(log2 d) bits (none when d == 1).
//   A build writes one group with low bits and all moves per 64-bit key reached twice or
//   more in its segment, in order of low bits; the keys of a top reached once (46% of the
//   entries of players-344k) become one group of "unknown" entries after them, without low
//   bits or moves (a single one: a "singleton"). With 16 top bits a top of a 262,144-game
//   segment holds ~76 such entries, so each costs a Rice-coded game id delta (~14 bits)
//   instead of a top delta and an 18-bit id (~2.8 bytes in version 4, 3.8 in version 3).
//   A merge combines the groups of one top from both inputs without reading a game: groups
//   with equal low bits become one; the groups without low bits become one group of
//   unknown entries after them (version 4 put them into the first group with low bits,
//   which then paid a "known" bit for each of its entries).
// Exactness: a known entry is exact (its game reaches the full 64-bit key at that ply and
// plays that move; a game's known entries of a key are all its occurrences at plies
// 0..kIndexedPlies). An unknown entry only says that its game reaches a position with the
// same top kTopKeyBits bits (about singletons / 2^16 false ones per segment and lookup:
// ~106 a lookup on players-344k, 0.4 with version 4's 24 bits; each a candidate game
// replayed): lookup() returns
// it with PositionHit::known false; query candidates are always replayed, and the tree
// replays such games (position_tree.h), so answers and tree counts stay exact. Two
// different positions with one 64-bit key (chance about n^2 / 2^65) would share a group.
// A game whose main line is longer than kIndexedPlies may reach a position later;
// GameFacts keeps a summary of its last indexed position (`frontier`) from which
// may_reach_later() rules most such games out.
// Size (players-344k, plies 0..40, 13.8 M entries), version 5: 83 bytes/game in segments
// (2.1 per entry) + 12 of facts = 31.3 MiB (version 4: 106 + 12 = 38.8 MiB; version 3:
// 125 + 16 = 46.4 MiB; SPEC-NOTES.md
// "Position index v3" and "Import stages, the writer's share, size per file").
//
// Appends write one new segment per kGamesPerSegment games (O(new games)), then merge two
// adjacent segments, the rightmost such pair first, while the earlier has at most as many
// games as the later and together they hold at most kMaxMergedGames (a binary counter,
// issue 16: amortised O(new games x log), the merge streams both files group by group, so
// its memory does not grow with the database). An import's last, partial segment is
// smaller than the one before it, so the next import's segments merge with it there, not
// only at the end: segment sizes fall from first to last and a lookup, which reads every
// segment, reads O(log n + n / kMaxMergedGames) of them however the index was appended to.
// The merges an import's published segments make due run at the start of the next import,
// in the background while it reads its games (FreshPositions, session 14), so between two
// imports the newest few segments may still be due (a handful more segments, never more
// than one import's worth). The merged file is written under its new name, then the
// manifest, then the two old files are removed. An index with more than kMaxSegments
// segments is rebuilt at the next update.
#pragma once

#include <bit>
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
/// 3: bit-coded groups, singletons without move; 4: 24 top key bits (were 32), 12-byte facts;
/// 5: 16 top key bits, a top's keys reached once as one group of unknown entries.
inline constexpr uint32_t kPositionIndexVersion = 5;
/// Positions at plies 0..kIndexedPlies of each main line are indexed (41 positions).
inline constexpr uint32_t kIndexedPlies = 40;
/// Groups per block of a segment (at most; see kBlockEntries).
inline constexpr uint32_t kGroupsPerBlock = 256;
/// A block ends after the group that brings it to this many entries (so a lookup decodes
/// about this many entries besides its own group).
inline constexpr uint32_t kBlockEntries = 4096;
/// Key bits every group stores (unknown entries store only these: position_index.h above).
/// 16 rather than 24 (version 4) or 32 (version 3): the fewer top bits, the more keys
/// reached once share a top, and each such entry's game id is a Rice-coded delta within
/// its top's group (players-344k's segments: 36.5 MB at 24 bits, 33.0 at 20, 30.7 at 18,
/// 28.7 at 16; SPEC-NOTES.md, issue 42 "Size, session 3"). The price: a lookup gets about
/// singletons / 2^16 false unknown hits per segment (106 a lookup on players-344k), each a
/// game that a query or the tree replays, and a top's hits are merged from two groups.
inline constexpr unsigned kTopKeyBits = 16;
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

/// Per-game facts kept in positions-facts.bin (12 bytes on disk, packed: layout above).
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

/// One occurrence of a position in a main line, or (known false) a game that may reach it.
struct PositionHit {
  uint32_t game = 0;  ///< game id
  chess::Move next;   ///< the move played from the position; none() at the end of the line
  /// False: the index stores neither the exact key nor the move of this entry (a position
  /// reached once in its segment): the game reaches a position with the same top
  /// kTopKeyBits key bits at some indexed ply, maybe this one; replay it to know (`next`
  /// is none()).
  bool known = true;
};

namespace format {

/// What the codec needs of a segment.
struct SegmentCoding {
  uint32_t first = 0;      ///< first game id
  uint32_t last = 0;       ///< last game id
  unsigned key_rice = 0;   ///< Rice parameter of the top-bit deltas
  unsigned game_bits() const { return unsigned(std::bit_width(last - first)); }
  /// Rice parameter of the game id deltas in a group of `n` entries (about log2 of the mean gap).
  unsigned game_rice(uint64_t n) const {
    const uint64_t span = uint64_t(last - first) + 1;
    return n >= span ? 0 : unsigned(std::bit_width(span / n)) - 1;
  }
};

/// The header of a segment file (layout in position_index.h).
struct SegmentHeader {
  uint32_t first = 0, last = 0;  ///< its games
  uint32_t blocks = 0;           ///< block count
  uint32_t directory = 0;        ///< offset of the directory (after the blocks)
  uint64_t entries = 0;          ///< entries of all groups
  uint64_t groups = 0;           ///< groups of all blocks
  unsigned key_rice = 0;         ///< Rice parameter of the top deltas
  SegmentCoding coding() const { return {first, last, key_rice}; }
};

}  // namespace format

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

  /// Appends to `out` every indexed occurrence of identity key `key` (known hits) and the
  /// unknown entries that may be one (PositionHit::known false), game ids ascending; a
  /// game's known hits are all its occurrences at plies 0..kIndexedPlies, in ply order, and
  /// come before its unknown ones. Throws std::runtime_error on a damaged block.
  void lookup(chess::Key key, std::vector<PositionHit>& out) const;

  /// Decodes every block of every segment and checks that tops ascend, low bits ascend
  /// within a top, game ids ascend within a group and lie in their segment's range, the
  /// bit streams end cleanly and the group and entry counts agree (`cqldb check`). Returns "" when sound, else
  /// what is wrong.
  std::string verify() const;

  /// The facts of game `id` (1..covered()).
  GameFacts facts(uint32_t id) const;

  /// The games that reach `pos` (identity_key) at some indexed ply, and those that may reach
  /// it later or were not indexed: a superset of the games whose main line reaches `pos`,
  /// ascending, within 1..`game_count` (games above covered() are all included).
  /// `first_hits` (optional) receives per game its first known hit, else its unknown one
  /// (PositionHit::known false: the caller must replay that game).
  std::vector<uint32_t> candidates(const chess::Position& pos, uint32_t game_count,
                                   std::vector<PositionHit>* first_hits = nullptr) const;

 private:
  using Mapping = db::FileMapping;  // db/file_mapping.h
  struct Segment {
    std::shared_ptr<const Mapping> map;
    format::SegmentHeader header;  ///< as read from the file
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
