// Duplicate games (issue 16): what makes two games duplicates, their 32-bit duplicate key,
// and the duplicate_keys table of headers.sqlite that finds stored games by key.
//
// Two games are duplicates when their main-line moves, start position (FEN as in the
// record; empty = standard start), White, Black, Date (text as in the PGN) and result are
// equal. Every game gets a row (key, game_id) in duplicate_keys when it is stored, with or
// without `import --skip-duplicates`, so a later import can find it. A key is only a hint:
// equal keys are confirmed by comparing the fields, so a key collision never makes two
// different games duplicates. Cost: about 12-16 bytes a game (a 4-byte key, the id, the
// B-tree cell), written in the SQLite transaction of the game itself (schema.h: commit
// protocol), so a crash never leaves a key without its game or a game without its key.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/game_header.h"
#include "db/record_view.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

class GameReader;

/// The fields compared to decide that two games are duplicates.
struct DuplicateFields {
  std::string start_fen;            ///< the record's start FEN; empty = standard start
  std::string white;                ///< [White], exact bytes
  std::string black;                ///< [Black], exact bytes
  std::string date;                 ///< [Date] as in the PGN (e.g. "1985.??.??")
  ResultCode result = ResultCode::kUnknown;  ///< the result code
  std::vector<uint16_t> moves;      ///< main-line moves (chess::Move::raw()), in ply order

  bool operator==(const DuplicateFields&) const = default;
};

/// Sets `out.start_fen` and `out.moves` from the main line of `record`.
void set_duplicate_moves(const RecordView& record, DuplicateFields& out);
/// The duplicate fields of a game about to be stored: header fields from `header`, moves
/// and start FEN from `record`.
DuplicateFields duplicate_fields(const GameHeader& header, const RecordView& record);
/// The duplicate key of `fields`: a 32-bit hash of every field (stored as a signed SQLite
/// integer, 4 bytes). Equal fields give equal keys; equal keys need not mean equal fields.
int32_t duplicate_key(const DuplicateFields& fields);

/// Creates the duplicate_keys table when missing. Returns true when it was missing (then
/// the games already stored have no keys: fill them with add_missing_duplicate_keys()).
bool create_duplicate_keys_table(sqlite::Connection& sql);

/// Prepared statements on the duplicate_keys table of one connection (the writer's, whose
/// open transaction also sees the rows of its uncommitted batch).
/// The groups of duplicate games among the games of `reader`'s snapshot (ids 1..
/// game_count()), found through the duplicate_keys table of `sql` (a connection to the
/// same headers.sqlite) and confirmed by comparing the fields: each group lists the ids of
/// two or more games with equal DuplicateFields, ascending; groups are ordered by their
/// first id. Cost: one pass over the keys (about 0.1 s per million games) plus reading
/// the games that share a key. Throws FormatError when the database has no duplicate_keys
/// table yet (made before issue 16 and not written to since), CorruptRecord for a damaged
/// game.
std::vector<std::vector<uint32_t>> duplicate_groups(GameReader& reader, sqlite::Connection& sql);

class DuplicateKeys {
 public:
  /// Prepares the statements; the table must exist (create_duplicate_keys_table).
  explicit DuplicateKeys(sqlite::Connection& sql);
  /// Adds the row (key, id).
  void add(int32_t key, uint32_t id);
  /// Appends to `ids`, in id order, the games with key duplicate_key(fields) whose White,
  /// Black, Date and result equal those of `fields` (moves and start FEN are not compared
  /// here: they live in games.mdb; the caller compares them). Ids above `max_id` are left
  /// out.
  void header_matches(const DuplicateFields& fields, uint32_t max_id, std::vector<uint32_t>& ids);

 private:
  sqlite::Statement insert_;  // INSERT INTO duplicate_keys
  sqlite::Statement select_;  // the games with a key, with their header fields
};

}  // namespace db
