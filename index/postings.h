// Postings: an inverted index over the games' signatures (signature.h). For each fact a
// signature states (a piece kind stood on a square, a kind's count in some material run, a
// final-position flag, a promotion, a castling...) it keeps the set of game ids where it
// holds, as a compressed bitmap (CRoaring, Debian's libroaring). The planner intersects and
// unites these sets to find the candidates of a query without reading one signature
// (planner/postings_plan.h); the signatures then test the survivors, and replay decides.
//
// Every posting is a fact about the main line, derived from the signature alone, so the
// index can always be rebuilt from the signatures (`cqldb reindex`, or the catch-up that
// runs after every import).
//
// ---- Files, format version kPostingsFormatVersion (= 5) ---------------------------------
//
// The index is a chain of segments, each an immutable file for the games first..last:
//   <dir>/postings.bin            the base segment, games 1..last
//   <dir>/postings-<first>.seg    a later segment, games first..last (first = the previous
//                                 segment's last + 1; <first> in decimal)
// A reader opens postings.bin, then postings-<last+1>.seg while there is one: the chain's
// last game is covered(). A file that does not continue the chain (left over from a merge,
// or damaged) is ignored, so it only lowers covered(). Every file is written beside its
// name, fsynced and renamed, so a reader sees an old or a new segment, never a mixture;
// ids only ever grow, so an old chain stays true.
// Appends (update_postings) write one segment for the new games, then merge the last two
// segments while the earlier one has at most as many games as the later one and together
// they stay within kMaxMergedGames (a binary counter: an append's amortised cost is
// O(new games x log), and a merge reads and writes at most kMaxMergedGames games, one
// posting at a time, so its memory does not grow with the database). A merge that reaches
// game 1 writes postings.bin.
//
// Each file; all integers little-endian uint32:
//   magic "CQLPOST1" (8 bytes)
//   format version, signature format version of the signatures it was built from,
//   last (games first..last are indexed), entry count E, first
//   E entries sorted by key: key, offset (from the start of the file), length; offset
//   0xFFFFFFFF (length 0) marks a dense posting that is not stored (below)
//   the bitmaps, each in CRoaring's portable serialisation, run-optimised
// Dense postings: a piece-square or material-class posting held by more than 1/16 of the
// segment's games (and more than 4096) is not stored. It would cost up to 8 KB per 65,536
// games and prunes little on its own; a reader treats it as "every game of the segment" and
// leaves that part of the condition to the signatures.
// A game without a readable signature is in the posting kUnindexed: every posting test
// keeps it. Games above covered() (imported after the chain was written, e.g. by an import
// that was killed before its catch-up) are simply not covered: the planner keeps them too.
//
// Keys:
//   ever(pc, sq)      = 64 * pc + sq         pc a chess::Piece (W_PAWN..B_KING), sq 0..63 from
//                                            a1: pc stood on sq in some main-line position
//   count(pc, n)      = 1024 + 16 * pc + n   some material run has exactly n pieces pc
//                                            (pawns .. queens; n <= 15)
//   flag(f)           = 2048 + f             PostingFlag f
//   castling(bit)     = 2112 + bit           chess::CastlingRight bit 0..3 was played
//   promotion(c, pt)  = 2128 + 4c + pt - KNIGHT  side c promoted to pt
//   castling_move(bit, b) = 2136 + 8 * bit + b  castling bit was played from a position whose
//                                            full-move number lies in bucket b
//                                            (kCastlingMoveBuckets)
//   material_class(m) = 4096 + m             some material run has the material class m
//                                            (material_class(): queens, rooks, bishops and
//                                            knights of each side, each capped at 3)
//
// Size over players-344k: 14.4 MB (10.5 MB before the material classes of format 4; 24 MB more
// with the dense piece-square postings).
#pragma once

#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/types.h"
#include "db/segment_chain.h"
#include "index/signature.h"

namespace db {
class Database;
class FileMapping;
}

// CRoaring 0.2 declares its C++ class in the global namespace.
class Roaring;

namespace sig {

struct PostingsUpdate;
struct FreshPostings;

/// Version of the posting files' layout; a file of another version is ignored (and rebuilt
/// by the next import or reindex). Version 2 added the double-check flags (a version-1 file
/// would claim that no game has a double check); version 3 the castling move-number buckets,
/// version 4 the material classes, version 5 segments (the header's `first`, issue 16).
inline constexpr uint32_t kPostingsFormatVersion = 5;
/// The base segment's file name inside a database directory.
inline constexpr const char* kPostingsFile = "postings.bin";
/// Two segments are merged only while together they hold at most this many games.
inline constexpr uint32_t kMaxMergedGames = 1u << 20;

/// The file of the segment whose first game is `first` (postings.bin for 1).
std::filesystem::path segment_path(const std::filesystem::path& dir, uint32_t first);
/// Bytes of every posting file of `dir` (the chain and any file left beside it).
uint64_t postings_bytes(const std::filesystem::path& dir);

/// Per-game facts with a posting of their own (key = flag_key(f)).
enum PostingFlag : uint32_t {
  kFlagFinalMate = 0,       ///< the final position is checkmate
  kFlagFinalStalemate = 1,  ///< the final position is stalemate
  kFlagFinalWhiteToMove = 2,///< White is to move at the final position
  kFlagFinalBlackToMove = 3,///< Black is to move at the final position
  kFlagNullMoves = 4,       ///< the main line has a null move
  kFlagEnPassant = 5,       ///< an en-passant capture was played
  kFlagWhiteInCheck = 6,    ///< some main-line position has White to move and in check
  kFlagBlackInCheck = 7,    ///< some main-line position has Black to move and in check
  kFlagHasMove = 8,         ///< the main line has at least one move
  kFlagVariations = 9,      ///< the record has variations
  kFlagUnindexed = 10,      ///< no readable signature: every test keeps the game
  kFlagWhiteInDoubleCheck = 11,  ///< some main-line position has White to move and in double check
  kFlagBlackInDoubleCheck = 12,  ///< the same for Black
};

/// Every posting key is below this.
inline constexpr uint32_t kPostingKeySpace = 4096 + 65536;

/// The material class of `key`: the counts of White's queens, rooks, bishops and knights,
/// then Black's, each capped at 3 (so 3 means "3 or more"), 2 bits each from bit 0: field
/// 4 * colour + (QUEEN - type). Pawns are not in it. 0..65535.
constexpr uint32_t material_class(const MaterialKey& key) {
  uint32_t m = 0;
  for (int c = 0; c < 2; ++c)
    for (int t = chess::QUEEN; t >= chess::KNIGHT; --t) {
      const int n = key.count(chess::Color(c), chess::PieceType(t));
      m |= uint32_t(n < 3 ? n : 3) << (2 * (4 * c + (chess::QUEEN - t)));
    }
  return m;
}
/// Posting key of "some material run has material class `m`" (material_class()).
constexpr uint32_t material_class_key(uint32_t m) { return 4096u + m; }

/// Posting key of "piece `pc` stood on square `sq` (0..63 from a1)".
constexpr uint32_t ever_key(chess::Piece pc, int sq) { return 64u * pc + uint32_t(sq); }
/// Posting key of "some material run has exactly `n` pieces `pc`" (pc not a king; n <= 15).
constexpr uint32_t count_key(chess::Piece pc, int n) { return 1024u + 16u * pc + uint32_t(n); }
/// Posting key of a PostingFlag.
constexpr uint32_t flag_key(PostingFlag f) { return 2048u + f; }
/// Posting key of the castling chess::CastlingRight bit `bit` (0..3).
constexpr uint32_t castling_key(int bit) { return 2112u + uint32_t(bit); }
/// Posting key of "side `c` promoted to `pt`" (KNIGHT..QUEEN).
constexpr uint32_t promotion_key(chess::Color c, chess::PieceType pt) {
  return 2128u + 4u * c + uint32_t(pt - chess::KNIGHT);
}

/// First full-move number of each castling_move_key bucket (the last bucket is open).
inline constexpr int kCastlingMoveBuckets[8] = {1, 9, 13, 17, 21, 26, 31, 41};

/// The bucket (0..7) of full-move number `move` (>= 1) in kCastlingMoveBuckets.
constexpr int castling_move_bucket(int64_t move) {
  int b = 0;
  while (b < 7 && move >= kCastlingMoveBuckets[b + 1]) ++b;
  return b;
}

/// Posting key of "castling CastlingRight bit `bit` (0..3) was played from a position whose
/// full-move number lies in bucket `bucket` (0..7)".
constexpr uint32_t castling_move_key(int bit, int bucket) {
  return 2136u + 8u * uint32_t(bit) + uint32_t(bucket);
}

/// A set of game ids (a CRoaring bitmap), the value of a posting and of posting algebra.
class GameSet {
 public:
  GameSet();
  ~GameSet();
  GameSet(const GameSet&);
  GameSet(GameSet&&) noexcept;
  GameSet& operator=(const GameSet&);
  GameSet& operator=(GameSet&&) noexcept;

  void add(uint32_t id);
  /// Adds `ids` (ascending: CRoaring's bulk insertion is fastest then).
  void add_many(const std::vector<uint32_t>& ids);
  /// Adds the `n` ids at `ids` (ascending, as above).
  void add_many(const uint32_t* ids, size_t n);
  /// Adds every id of first..last.
  void add_range(uint32_t first, uint32_t last);
  bool contains(uint32_t id) const;
  uint64_t size() const;
  GameSet& operator&=(const GameSet& o);
  GameSet& operator|=(const GameSet& o);
  /// The union of `sets` (CRoaring's fast many-way union).
  static GameSet unite(const std::vector<const GameSet*>& sets);
  /// The ids in ascending order.
  std::vector<uint32_t> ids() const;

 private:
  friend class Postings;
  friend class SegmentWriter;
  std::unique_ptr<::Roaring> r_;
};

/// The read side: the segment chain of a database, each file memory-mapped (its table of
/// entries read at open, bitmaps on demand, united over the segments and cached). Opening
/// reads only the headers and tables, so a one-shot query pays for the postings it uses.
class Postings {
 public:
  /// Opens the chain of `dir` (postings.bin, then the segments that continue it). Returns
  /// nullopt when there is no postings.bin, or it has another format or signature version,
  /// or is damaged (the planner then works from signatures alone).
  static std::optional<Postings> open(const std::filesystem::path& dir);

  /// Games 1..covered() are indexed.
  uint32_t covered() const { return covered_; }
  /// Number of segment files in the chain.
  size_t segments() const { return segments_.size(); }
  /// The games with posting `key` (empty when no game has it), or null when it is dense
  /// (not stored) in every segment (treat as every game). A posting dense in some segments
  /// only holds all of their games. Throws std::runtime_error when a stored bitmap is
  /// damaged.
  const GameSet* find(uint32_t key) const;

 private:
  using Mapping = db::FileMapping;  // db/file_mapping.h
  struct Entry {
    uint32_t key, offset, length;
  };
  /// One file of the chain.
  struct Segment {
    std::shared_ptr<const Mapping> map;  // the file, memory-mapped
    uint32_t first = 0, last = 0;        // its games
    std::vector<Entry> entries;          // sorted by key
  };
  friend PostingsUpdate update_postings(const db::Database&, bool, FreshPostings*);
  friend class SegmentMerger;
  /// Opens one file, which must hold games from `first`; nullopt when missing or damaged.
  static std::optional<Segment> open_segment(const std::filesystem::path& path, uint32_t first);
  /// Posting `key` of `seg`: false when absent; else `dense`, or the validated set in
  /// `out`. Throws std::runtime_error when the bitmap is damaged.
  static bool read(const Segment& seg, uint32_t key, bool& dense, GameSet& out);
  std::vector<Segment> segments_;
  uint32_t covered_ = 0;
  mutable std::vector<std::pair<uint32_t, std::shared_ptr<GameSet>>> cache_;
  GameSet empty_;
};

/// Accumulates postings game by game, then writes one segment file.
class PostingsBuilder {
 public:
  PostingsBuilder();
  /// Waits for a grouping still running in the background.
  ~PostingsBuilder();
  PostingsBuilder(const PostingsBuilder&) = delete;  // the background job points at it
  PostingsBuilder& operator=(const PostingsBuilder&) = delete;
  /// Adds the postings of game `id` with signature `s` (decoded with DecodeScope::kAll);
  /// ids must grow from call to call.
  void add(uint32_t id, const Signature& s);
  /// The posting keys of a game with signature `s` (what add() adds), into `out` (cleared
  /// first). The import's workers compute them in parallel (import/game_builder.h).
  static void keys_of(const Signature& s, std::vector<uint32_t>& out);
  /// Adds game `id` to the postings `keys` (keys_of(); each key below kPostingKeySpace);
  /// ids must grow from call to call.
  void add_keys(uint32_t id, const std::vector<uint32_t>& keys);
  /// Marks game `id` as unindexed (no readable signature).
  void add_unindexed(uint32_t id);
  /// Writes the segment of games first..last as segment_path(`dir`, first) (atomically: a
  /// temporary file, fsync, rename). Throws std::runtime_error on I/O errors.
  void write(const std::filesystem::path& dir, uint32_t first, uint32_t last);

 private:
  void add_key(uint32_t key, uint32_t id);
  /// Hands the pending (key, id) pairs to a background job (after the previous one ended)
  /// and starts new pending buffers: the caller (the import's writer thread, issue 42)
  /// only appends pairs; the grouping runs on another core.
  void start_flush();
  /// Waits for the background job; rethrows what it threw.
  void wait_flush();
  /// Moves every pending id into the sets (start_flush, then wait_flush).
  void flush();
  /// The job: each key mapped to its entry of sets_ (new keys get one), the ids grouped by
  /// entry with a counting sort (ids stay ascending within an entry), then added in bulk.
  /// Only the job touches sets_, slot_, grouped_ and starts_ while it runs.
  void group(std::vector<uint32_t>& keys, std::vector<uint32_t>& ids);
  std::vector<std::pair<uint32_t, GameSet>> sets_;  // sorted by key after write()
  // Pairs not added yet, in arrival order: pending_keys_[i] is the key of pending_ids_[i].
  // Appending to two flat arrays costs a few nanoseconds a key; one vector per key (before)
  // cost a cache miss on the vector each time.
  std::vector<uint32_t> pending_keys_;
  std::vector<uint32_t> pending_ids_;
  std::vector<uint32_t> job_keys_;                  // the pairs the background job groups
  std::vector<uint32_t> job_ids_;
  std::future<void> job_;                           // the background job, if any
  std::vector<uint32_t> grouped_;                   // group(): the ids grouped by entry
  std::vector<uint32_t> starts_;                    // group(): start of each entry's group
  std::vector<int32_t> slot_;                       // key -> index into sets_, -1 none
  std::vector<uint32_t> keys_;                      // add(): the game's keys
};

/// The postings of the games an import stored, built as it stored them (issue 16: no
/// second pass over their signatures): games first..last, added in id order. update_postings
/// writes them as the next segment when they continue the chain exactly, else ignores them.
struct FreshPostings {
  PostingsBuilder builder;
  uint32_t first = 0;  ///< first game added (0: none)
  uint32_t last = 0;   ///< last game added
  bool broken = false; ///< a game was skipped: not usable

  /// Adds game `id` with posting `keys` (PostingsBuilder::keys_of); ids must grow by one.
  void add(uint32_t id, const std::vector<uint32_t>& keys) {
    if (first && id != last + 1) broken = true;
    if (!first) first = id;
    last = id;
    builder.add_keys(id, keys);
  }
};

/// What update_postings() did.
struct PostingsUpdate : db::ChainUpdate {  // added, rebuilt, from_import, merges, merged_games, segments
  uint32_t covered = 0;     ///< games covered by the file afterwards
  uint64_t file_bytes = 0;  ///< size of postings.bin
  double seconds = 0;
};

/// Brings `database`'s posting index up to its committed games: writes a segment for the
/// games above the chain's coverage and merges segments (see the format comment), or builds
/// postings.bin for all games when it is missing, outdated or `rebuild` is set (and removes
/// every other posting file). `fresh`, when given and it holds exactly the games above the
/// chain, is written as the new segment instead of reading their signatures back. Run by
/// the single writer (after an import, by reindex). Throws on I/O errors.
PostingsUpdate update_postings(const db::Database& database, bool rebuild = false,
                               FreshPostings* fresh = nullptr);

/// Removes every posting file of `dir` (a reindex does before rewriting the signatures it
/// derives from).
void remove_postings(const std::filesystem::path& dir);

}  // namespace sig
