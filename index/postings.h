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
// ---- File <dir>/postings.bin, format version kPostingsFormatVersion (= 2) --------------
//
// All integers little-endian uint32.
//   magic "CQLPOST1" (8 bytes)
//   format version, signature format version of the signatures it was built from,
//   covered = N (games 1..N are indexed), entry count E
//   E entries sorted by key: key, offset (from the start of the file), length; offset
//   0xFFFFFFFF (length 0) marks a dense posting that is not stored (below)
//   the bitmaps, each in CRoaring's portable serialisation
// Dense postings: a piece-square posting held by more than 1/16 of the covered
// games (and more than 4096) is not stored. It would cost up to 8 KB per 65,536 games and
// prunes little on its own; the planner treats it as "every game" and leaves that part of
// the condition to the signatures. Once dense, a posting stays dense until a rebuild.
// A game in 1..N without a readable signature is in the posting kUnindexed: every posting
// test keeps it. Games above N (imported after the file was written, e.g. by an import that
// was killed before its catch-up) are simply not covered: the planner keeps them too.
// The file is replaced atomically (written beside it, then renamed), so a reader sees an
// old or a new index, never a mixture; ids only ever grow, so an old index stays true.
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
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chess/types.h"
#include "index/signature.h"

namespace db {
class Database;
class FileMapping;
}

// CRoaring 0.2 declares its C++ class in the global namespace.
class Roaring;

namespace sig {

/// Version of postings.bin's layout; a file of another version is ignored (and rebuilt by
/// the next import or reindex). Version 2 added the double-check flags (a version-1 file
/// would claim that no game has a double check); version 3 the castling move-number buckets, version 4 the material classes.
inline constexpr uint32_t kPostingsFormatVersion = 4;
/// The file name inside a database directory.
inline constexpr const char* kPostingsFile = "postings.bin";

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
  friend class PostingsBuilder;
  std::unique_ptr<::Roaring> r_;
};

/// The read side: postings.bin of a database, memory-mapped once per query (the table of
/// entries is read at once, bitmaps on demand and cached).
class Postings {
 public:
  /// Loads `dir`/postings.bin. Returns nullopt when there is none, or it has another format
  /// or signature version, or is damaged (the planner then works from signatures alone).
  static std::optional<Postings> open(const std::filesystem::path& dir);

  /// Games 1..covered() are indexed.
  uint32_t covered() const { return covered_; }
  /// The games with posting `key` (empty when no game has it), or null for a dense posting
  /// that is not stored (treat as every game). Throws std::runtime_error when the stored
  /// bitmap is damaged.
  const GameSet* find(uint32_t key) const;

 private:
  using Mapping = db::FileMapping;  // db/file_mapping.h
  std::shared_ptr<const Mapping> map_;  // the file, memory-mapped
  struct Entry {
    uint32_t key, offset, length;
  };
  friend class PostingsBuilder;
  std::vector<Entry> entries_;
  uint32_t covered_ = 0;
  mutable std::vector<std::pair<uint32_t, std::shared_ptr<GameSet>>> cache_;
  GameSet empty_;
};

/// Accumulates postings game by game, then writes postings.bin.
class PostingsBuilder {
 public:
  PostingsBuilder();
  /// Starts from the postings of `existing` (their bitmaps are copied).
  explicit PostingsBuilder(const Postings& existing);
  /// Adds the postings of game `id` with signature `s` (decoded with DecodeScope::kAll);
  /// ids must grow from call to call.
  void add(uint32_t id, const Signature& s);
  /// Marks game `id` as unindexed (no readable signature).
  void add_unindexed(uint32_t id);
  /// Writes `dir`/postings.bin covering games 1..covered (atomically: a temporary file,
  /// fsync, rename). Throws std::runtime_error on I/O errors.
  void write(const std::filesystem::path& dir, uint32_t covered);

 private:
  void add_key(uint32_t key, uint32_t id);
  /// Moves the pending ids into the sets.
  void flush();
  std::vector<std::pair<uint32_t, GameSet>> sets_;  // sorted by key after write()
  std::vector<std::vector<uint32_t>> pending_;      // per entry of sets_: ids not added yet
  size_t pending_total_ = 0;
  std::vector<int32_t> slot_;                       // key -> index into sets_, -1 none
  std::vector<uint8_t> dense_;                      // key -> 1: dense, not stored
  std::vector<uint32_t> classes_;                   // add(): the game's material classes
};

/// What update_postings() did.
struct PostingsUpdate {
  uint32_t added = 0;       ///< games indexed now
  uint32_t covered = 0;     ///< games covered by the file afterwards
  uint64_t file_bytes = 0;  ///< size of postings.bin
  bool rebuilt = false;     ///< the file was missing or outdated and was built from scratch
  double seconds = 0;
};

/// Brings `database`'s postings.bin up to its committed games: indexes the games above the
/// file's coverage, or all games when the file is missing, outdated or `rebuild` is set.
/// Run by the single writer (after an import, by reindex). Throws on I/O errors.
PostingsUpdate update_postings(const db::Database& database, bool rebuild = false);

/// Removes `dir`/postings.bin (a reindex does before rewriting the signatures it derives from).
void remove_postings(const std::filesystem::path& dir);

}  // namespace sig
