// Game blocks: how the "games" and "signatures" sub-dbs of games.mdb hold their values in a
// store of record format version kFirstBlockedRecordFormatVersion (5) or later (issue 16,
// size). Older stores keep one LMDB entry per game (key = game id); a store is one or the
// other for its whole life (GameStore::blocked()).
//
// One LMDB entry per game cost about 17 bytes a game besides the value (the 8-byte node
// header, the 4-byte key, the 2-byte page pointer and the tail of each page): 11% of a
// database of master games, for the records and the signatures each. A block holds the
// values of consecutive games in one entry:
//
//   key     the id of the block's LAST game (uint32, MDB_INTEGERKEY), so that MDB_SET_RANGE
//           on a game id lands on the block holding it
//   value   byte 0        offset width w: 2 or 4
//           bytes 1-2     n, the number of games (1..65535, little-endian); the block holds
//                         games key - n + 1 .. key
//           n x w bytes   end[i]: where the value of the block's game i ends, counted from
//                         the first payload byte (little-endian, non-decreasing); game i's
//                         value is payload[end[i-1], end[i]) with end[-1] = 0
//           payload       the values, back to back; end[n-1] = payload size
//
// An empty value is allowed (a game without a signature). The blocks of a sub-db hold
// games 1..N without gaps or overlaps. A writer closes a block when the next value would
// take it past kBlockTargetBytes, a value of four LMDB overflow pages (a page of its own
// each, so blocks fill their pages), and at every commit: a block never holds games of two
// batches, so the commit protocol of schema.h is unchanged (the games above the committed
// count are whole blocks, or the tail of one that truncate_above() cuts).
//
// Reading a game's value costs one cursor seek and two offset reads; BlockReader keeps the
// last block, so games read in id order cost the seek once a block.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/lmdb_cursor.h"
#include "db/lmdb_txn.h"

namespace db::blocks {

/// A block closes before its value would pass this size: four 4 KiB overflow pages less
/// LMDB's page header. A single larger game value gets a block of its own.
inline constexpr size_t kBlockTargetBytes = 4 * 4096 - 16;

/// One decoded block (views into its LMDB value). Built by parse(); cheap to copy.
class BlockView {
 public:
  /// Reads the block stored under key `last_id`. Returns false when the value is not a
  /// well-formed block (width, count, table size, last end = payload size, first id >= 1).
  static bool parse(uint32_t last_id, std::string_view value, BlockView& out);

  uint32_t first_id() const { return last_id_ - count_ + 1; }  ///< id of game 0 of the block
  uint32_t last_id() const { return last_id_; }                ///< id of the last game
  uint32_t count() const { return count_; }                    ///< games in the block
  bool holds(uint32_t id) const { return count_ && id <= last_id_ && id >= first_id(); }
  /// Sets `bytes` to the value of game `id` (holds(id) must be true). False when its
  /// offsets are out of order or beyond the payload (a damaged block).
  bool entry(uint32_t id, std::string_view& bytes) const;

 private:
  uint32_t end(uint32_t i) const;  // end[i]

  uint32_t last_id_ = 0;
  uint32_t count_ = 0;  // 0: no block
  uint32_t width_ = 2;
  const unsigned char* table_ = nullptr;  // end offsets
  std::string_view payload_;
};

/// Values of consecutive games gathered into blocks by a writer (one per blocked sub-db).
class BlockBuilder {
 public:
  /// True when adding a value of `bytes` bytes would take the open block past
  /// kBlockTargetBytes (or past 65535 games): flush() first.
  bool full_for(size_t bytes) const;
  /// Appends the value of game `id`, which must be the game after the last one added (any
  /// id when the builder is empty). Throws std::invalid_argument otherwise.
  void add(uint32_t id, std::string_view bytes);
  /// Puts the open block (if any) at the end of `dbi` (MDB_APPEND) and empties the builder.
  /// Throws LmdbError, Error when the key is not past the sub-db's last one.
  void flush(lmdb::Txn& txn, lmdb::Dbi dbi);
  /// The value of game `id` when the open block holds it (not yet in LMDB).
  std::optional<std::string_view> pending(uint32_t id) const;
  /// Forgets the open block (a rolled back batch).
  void clear();
  bool empty() const { return ends_.empty(); }

 private:
  uint32_t first_id_ = 0;
  std::vector<uint32_t> ends_;  // end offset of each game's value in payload_
  std::string payload_;
  std::string encoded_;  // the value being put (buffer)
};

/// Encodes the block of games first_id.. first_id + values.size() - 1 into `out`.
void encode_block(const std::vector<std::string_view>& values, std::string& out);

/// Throws the CorruptRecord of a malformed block: "game <id>: the block of its <what> in
/// games.mdb is malformed" (`what`: "record", "signature", "value").
[[noreturn]] void throw_malformed(uint32_t id, const char* what);

/// Moves `cursor` to the next block (`step`) or to the first block whose key (last game)
/// is >= `id`, and parses it into `out`. Returns false when there is no such block (`out`
/// then holds none). Throws CorruptRecord naming game `id` and `what` for a malformed block
/// (throw_malformed), FormatError for a key that is not 4 bytes, LmdbError.
bool move_to_block(lmdb::Cursor& cursor, bool step, uint32_t id, const char* what, BlockView& out);

/// Finds games' values in the blocks of one sub-db within one transaction, keeping the
/// last block read. Call reset() before the transaction ends or is reset (it holds a
/// cursor and views into the map).
class BlockReader {
 public:
  /// `what` names the values in errors ("record", "signature").
  explicit BlockReader(const char* what = "value") : what_(what) {}
  /// Sets `bytes` to the value of game `id`. Returns false when no block holds the id.
  /// Throws LmdbError for an LMDB failure, CorruptRecord(game `id`) for a malformed block.
  bool get(const lmdb::Txn& txn, lmdb::Dbi dbi, uint32_t id, std::string_view& bytes);
  /// Forgets the cursor and the cached block.
  void reset();

 private:
  const char* what_;
  std::optional<lmdb::Cursor> cursor_;
  BlockView block_;
};

/// Reads games' values of a sub-db of either layout: `blocked` as GameStore::blocked().
/// Sets `bytes` to game `id`'s value; false when the sub-db has none. Throws as
/// BlockReader::get.
bool read_value(const lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked, uint32_t id,
                std::string_view& bytes);

/// Replaces the values of the games in `values` (id -> new value) in a sub-db of either
/// layout, in write transaction `txn`. In the per-game layout an empty value deletes the
/// entry; in blocks it is stored empty. Each block touched is rewritten once. Throws
/// CorruptRecord when a game is in no block (or its block is malformed), LmdbError.
void replace_values(lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked,
                    const std::map<uint32_t, std::string>& values);

/// Deletes the values of games above `last_kept` from a sub-db of either layout: whole
/// entries, and the tail of a block holding games on both sides. Returns true when it
/// deleted anything. Throws CorruptRecord for a malformed block, LmdbError.
bool truncate_above(lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked, uint32_t last_kept);

/// The highest game id with a value in the sub-db (the last key in either layout), 0 when
/// it is empty.
uint32_t last_id(const lmdb::Txn& txn, lmdb::Dbi dbi);

}  // namespace db::blocks
