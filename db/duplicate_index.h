// Duplicate games (issue 16): what makes two games duplicates, and how the stored games
// that may duplicate a new one are found.
//
// Two games are duplicates when their main-line moves, start position (FEN as in the
// record; empty = standard start), White, Black, Date (text as in the PGN) and result are
// equal. Duplicates then also have equal games.white_id, black_id (one players row per
// name) and plies (the main-line moves). Since issue 42 (session 7) the candidates are the
// games of White's bitmap intersected with Black's in the header bitmaps' player columns
// (db/header_bitmaps.h; GameWriter::find_duplicate: the chain on disk and the import's
// fresh bitmaps), each checked by id for its length, Date and result (header_equal), then
// its moves and start FEN from games.mdb, so only equal games are ever called duplicates.
// Games no bitmap covers are looked up through the index games_seg_white(id >> 18,
// white_id, black_id, plies) of issue 16 (header_matches), built only for them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/game_header.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

class Database;
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

/// SQL that creates the index duplicate lookups use (schema.h kCreateSegWhiteIndexSql, also
/// run by schema::create_indexes; GameWriter runs it alone when a bulk load deferred the
/// indexes and `--skip-duplicates` needs it before finish()).
inline constexpr const char* kCreateDuplicateIndexSql = schema::kCreateSegWhiteIndexSql;

/// The groups of duplicate games among the games of `reader`'s snapshot (ids 1..
/// game_count()), found by reading games(id, white_id, black_id, plies) of `sql` (a
/// connection to the same headers.sqlite) sorted by those columns and confirmed by comparing
/// the fields of the games that share them: each group lists the ids of two or more games
/// with equal DuplicateFields, ascending; groups are ordered by their first id. Cost: one
/// sort of the games table's four columns (SQLite's sorter, spilling to a temp file past its
/// cache) plus reading the games that share a pair and length. Throws CorruptRecord for a
/// damaged game.
std::vector<std::vector<uint32_t>> duplicate_groups(GameReader& reader, sqlite::Connection& sql);

/// duplicate_groups over a snapshot of `database` and a read-only connection of its own to
/// the database's header store: what `cqldb duplicates` lists.
std::vector<std::vector<uint32_t>> duplicate_groups(Database& database);

/// The checks of stored games against duplicate fields, on one connection (the writer's,
/// whose open transaction also sees the rows of its uncommitted batch).
class DuplicateLookup {
 public:
  /// Prepares the statement (the games table must exist; the index need not yet).
  explicit DuplicateLookup(sqlite::Connection& sql);
  /// Appends to `ids`, in id order, the games min_id..max_id of players `white_id` and
  /// `black_id` with as many main-line plies as `fields` has moves whose Date and result
  /// equal those of `fields` (moves and start FEN are not compared here: they live in
  /// games.mdb; the caller compares them). Through games_seg_white when it exists.
  void header_matches(const DuplicateFields& fields, int64_t white_id, int64_t black_id,
                      uint32_t min_id, uint32_t max_id, std::vector<uint32_t>& ids);
  /// True when game `id` has as many main-line plies as `fields` has moves and the same
  /// Date and result (one read by primary key); false for a missing row.
  bool header_equal(const DuplicateFields& fields, uint32_t id);

 private:
  sqlite::Statement select_;  // the games of a pair and length, with their date and result
  sqlite::Statement by_id_;   // one game's plies, date and result
};

}  // namespace db
