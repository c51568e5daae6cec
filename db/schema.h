// The on-disk layout of a cqldb database directory, and the SQL schema of headers.sqlite.
//
//   <dir>/games.mdb        LMDB environment (MDB_NOSUBDIR), lock file games.mdb-lock
//                          sub-db "games": the move records (record_format.h) in blocks of
//                                          consecutive games, key = the block's last game
//                                          id (uint32, MDB_INTEGERKEY; db/game_blocks.h).
//                                          A store of record format 4 or older has one
//                                          entry a game instead, key = game id
//                          sub-db "annotations": key = game id, value = the annotation
//                                          record (comments, NAGs, clocks, evaluations;
//                                          record_format.h), only for games that have one
//                          sub-db "signatures": the games' signatures (index/signature.h),
//                                          opaque bytes to this layer, laid out as "games";
//                                          a game may lack one (added without, or its
//                                          reindex failed): an empty value in a block, no
//                                          entry in the older layout
//                          sub-db "meta":  "format_version", "record_format_version",
//                                          "signature_format_version" -> decimal text
//   <dir>/headers.sqlite   SQLite, WAL mode (-wal and -shm files beside it)
//   <dir>/writer.lock      flock()ed by the single GameWriter
//   <dir>/postings.bin     the posting index derived from the signatures (index/postings.h:
//                          layout, versions); replaced by rename by the writer after each
//                          import and by reindex; readers ignore a missing or stale one
//
// headers.sqlite tables (all ids INTEGER PRIMARY KEY = rowid):
//   meta(key, value)             format_version, record_format_version, committed_games,
//                                linked_games (games 1..N have their game_players rows;
//                                headers/players.h link_games, issue 16)
//   files(id, path, imported_at, size, head_hash) one row per source file per import;
//                                imported_at = Unix s; size (bytes) and head_hash (hex hash of
//                                its first MiB) identify the file, so that an import that did
//                                not finish (no imports row) is continued (issue 40); NULL for
//                                standard input and older rows
//   players / events / sites(id, name UNIQUE)  interned names (exact bytes; name searches
//                                are substring or pattern matches, which scan the names)
//   games(id = game id, file_id, ordinal, white_id, black_id, event_id, site_id,
//         date TEXT as in the PGN, or NULL when it is exactly "YYYY.MM.DD" rebuilt from
//         year/month/day ("??" for a NULL part; saves 10 bytes a game), year/month/day INT
//         or NULL when unknown, round TEXT,
//         result INT (ResultCode: 0 '*'/unknown, 1 white wins, 2 black wins, 3 draw),
//         white_elo/black_elo INT or NULL (no index: the header bitmaps answer Elo and year filters), eco TEXT or NULL, plies INT,
//         fen TEXT or NULL (standard start), variant TEXT or NULL (standard chess))
//   openings(id, name UNIQUE)     opening names of the ECO classification (issue 17 A)
//   games.opening_eco, games.opening_id  the classified code of a game: the deepest named
//                                position of the main line, else the [ECO] tag's code
//                                (import/eco_classifier.h); opening_id NULL when only the
//                                tag gave the code, both NULL without a code. No index:
//                                the header bitmaps answer code filters (issue 42,
//                                db/header_bitmaps.h).
//   game_openings(game_id, eco, opening_id)  VIEW over those columns, one row per game with
//                                a classified code: what :eco, filter eco= and the readers
//                                name. games.eco keeps the tag as written. Before issue 23's
//                                size target it was a table (15 bytes a game more), which a
//                                read-only open still reads and the next writer folds into
//                                the columns (fold_game_openings).
//   player_data(id, fide_id UNIQUE, name, full_key, key, country, sex 'm'|'f', title, birth,
//               death)           the imported player list (`cqldb players import`)
//   game_players(game_id, side 0 white | 1 black, fide_id, title, player_data_id, country,
//                sex, birth, death)  per game side with a FIDE id tag, a title tag or a
//                                linked player_data row; title = the tag's, else the list's;
//                                the rest copied from the linked row (headers/players.h;
//                                rebuilt after every import of games or of a player list)
//   tag_names(id, name UNIQUE)       the names of other tags, exact spelling (issue 23)
//   tag_values(name_id, code, value) interned values of other tags: per name at most 128
//                                    codes (WITHOUT ROWID; db/tag_list.h)
//   game_tag_lists(game_id, packed)  per game with other tags, all of them in file order
//                                    packed in one BLOB (db/tag_list.h: name ids, codes or
//                                    literal values); before issue 23's size target one
//                                    game_tags(game_id, seq, name_id, value) row per tag
//   tags(game_id, seq, name, value)  VIEW unpacking game_tag_lists (cqldb_tag_list, which
//                                    every sqlite::Connection registers): what every reader
//                                    queries. Older layouts (a `tags` table; game_tags rows
//                                    behind a view of the same columns) are read as they are
//                                    and moved into game_tag_lists by the next writer
//   games.site_suffix TEXT or NULL: the end of a URL site name cut after its last '/'
//                    (db/site_name.h), whose prefix is the sites row of site_id; NULL when
//                    the sites row holds the whole name (issue 23: a lichess game's own URL
//                    cost a sites row and a UNIQUE index entry). Added to older databases by
//                    their next writer or read-only open (add_site_suffix); their old games
//                    keep whole names, which a writer finds before cutting a name
//                    (kMetaSiteSuffixes), so one name never has two forms in a database.
//   games.flags INT: bit 0 the game has comments, bit 1 NAGs, bit 2 variations (issue 17 B),
//                    bit 3 typed clocks, bit 4 typed evaluations (issue 23)
//   comment_text(rowid = game id, text)  FTS5 (trigram tokenizer, detail=none: LIKE '%abc%'
//                                    lookups) over the comments of a
//                                    game, separated by U+001F, without [%cmd ...] commands;
//                                    only games with such text have a row
//   markers(game_id, marker)         Scid-style user flags set by `cqldb mark` (one
//                                    character each, headers/match_keywords.cpp)
//   import_log(id, file_id, ordinal, line, move, reason, kind 'rejected'|'warning')
//   imports(id, file_id, started, finished, games_read, imported, rejected, warnings,
//           skipped_duplicates)  games_read = imported + rejected + skipped_duplicates
//   (duplicate_keys(key, game_id) of issue 16's first version is dropped by the next
//   writer: duplicates are found through the header bitmaps' player columns,
//   db/duplicate_index.h; no secondary index on games is built since issue 42)
//
// Commit protocol (GameWriter): each batch commits the LMDB transaction first (synced to
// disk), then the SQLite transaction, which also sets meta.committed_games = N. Games
// 1..N are the database; LMDB entries above N (a crash between the two commits) are
// ignored by readers and deleted by the next writer (a block holds the games of one batch,
// so they are whole blocks; db/game_blocks.h truncate_above() also cuts one that is not). Even on power loss SQLite can only
// fall behind LMDB, never run ahead of it. A game's signature is put in the same LMDB
// transaction as its record, so a committed game never lacks the signature it was added
// with.
//
// Format versions: 1 had no "signatures" sub-db; 2 adds it. A version-1 database is
// upgraded in place by `cqldb reindex` (Database::open_for_reindex), which computes every
// signature and then stamps both stores with version 2. The signatures' own encoding has
// its own version (signature_format_version); a mismatch is also repaired by a reindex.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "db/sqlite_db.h"

namespace db::schema {

/// Version of the database layout (this file and record_format.h); stored in both stores
/// and checked on open. Bumped whenever either changes incompatibly.
inline constexpr uint32_t kFormatVersion = 2;
/// Older layouts that `cqldb reindex` upgrades in place (versions kOldestUpgradable..
/// kFormatVersion - 1); older ones must be imported again.
inline constexpr uint32_t kOldestUpgradableFormatVersion = 1;
/// Version of the signature encoding this build writes and reads. It must equal
/// sig::kSignatureFormatVersion (index/signature.h, where the encoding is documented; a
/// static_assert there keeps them together): this layer stores signatures as opaque bytes
/// and only compares this number on open.
inline constexpr uint32_t kSignatureFormatVersion = 3;

inline constexpr const char* kGamesFile = "games.mdb";         ///< LMDB data file
inline constexpr const char* kHeadersFile = "headers.sqlite";  ///< SQLite file
inline constexpr const char* kWriterLockFile = "writer.lock";  ///< single-writer lock

inline constexpr const char* kGamesDbi = "games";            ///< LMDB sub-db of game records
inline constexpr const char* kSignaturesDbi = "signatures";  ///< LMDB sub-db of signatures
/// LMDB sub-db of annotation records (record_format.h), only for games that have one.
inline constexpr const char* kAnnotationsDbi = "annotations";
inline constexpr const char* kMetaDbi = "meta";              ///< LMDB sub-db of meta data

inline constexpr std::string_view kMetaFormatVersion = "format_version";
inline constexpr std::string_view kMetaRecordFormatVersion = "record_format_version";
/// LMDB meta only: the signature encoding version (kSignatureFormatVersion).
inline constexpr std::string_view kMetaSignatureFormatVersion = "signature_format_version";
inline constexpr std::string_view kMetaCommittedGames = "committed_games";  ///< SQLite only
/// SQLite only: present (value 1) when every game has its games.flags and comment_text
/// rows, i.e. the database was created by an import that writes them (issue 17 B). A
/// database created before keeps working; the keywords reading them ask to import again.
inline constexpr std::string_view kMetaMatchData = "match_data";

/// SQLite only: present (value 1) when the database was created with games.site_suffix, so
/// every URL site name with a path is stored cut (db/site_name.h). Without it (a database
/// made before issue 23's site suffixes) a writer looks each such name up whole first: its
/// old games keep the whole name in `sites`, and new games with that name must use it too.
inline constexpr std::string_view kMetaSiteSuffixes = "site_suffixes";

/// True when headers.sqlite already has its tables.
bool has_tables(sqlite::Connection& db);
/// True when the SQLite file has no tables at all (a new file).
bool is_empty(sqlite::Connection& db);
/// Creates the tables (not the secondary indexes) and the meta rows of a new database:
/// sets WAL mode, then creates everything in one transaction.
void create_tables(sqlite::Connection& db);
/// Adds what issue 17 B added to older databases, if missing: games.flags, the comment_text
/// index and the markers table (without kMetaMatchData: their old games have no data); and
/// imports.skipped_duplicates (issue 16; 0 for the old runs); and moves the other tags of an older
/// layout (a `tags` table or game_tags rows) into game_tag_lists behind the `tags` view
/// (issue 23, db/tag_list.h migrate_tags_to_lists), in one transaction; and adds
/// games.site_suffix (issue 23, add_site_suffix); and folds game_openings into games
/// (fold_game_openings).
void ensure_match_tables(sqlite::Connection& db);
/// True when games has the site_suffix column (issue 23; schema.h).
bool has_site_suffix(sqlite::Connection& db);
/// Adds games.site_suffix when missing (ALTER TABLE: a change of the schema only, cheap at
/// any size; the old games read NULL = whole names).
void add_site_suffix(sqlite::Connection& db);
/// True when games has the columns opening_eco and opening_id (the classified code of
/// issue 17 A, moved out of the game_openings table for issue 23's size target).
bool has_opening_columns(sqlite::Connection& db);
/// Adds games.opening_eco and games.opening_id when missing; when game_openings is still
/// a table, copies its rows into them, drops it (and its index game_openings_eco) and makes
/// game_openings the view over the columns, in one transaction. Returns true when it moved a table. Readers name game_openings as before;
/// a database opened read-only keeps its table until its next writer.
bool fold_game_openings(sqlite::Connection& db);
/// True when the tables of issue 17 A (openings, game_openings, player_data, game_players)
/// exist (game_openings a table or, since issue 23, a view).
bool has_player_eco_tables(sqlite::Connection& db);
/// Creates the tables of issue 17 A if missing, in one transaction (none when all exist): a
/// database made before them gains them when next opened for writing (or by open_readonly
/// when the file is writable). Folds game_openings into games first (fold_game_openings).
void create_player_eco_tables(sqlite::Connection& db);
/// Games per segment of the player indexes, as a power of two: a game's segment is
/// id >> kPlayerSegmentBits (262,144 games; ids from 1). The indexes games_seg_white(segment,
/// white_id, black_id, plies) and games_seg_black(segment, black_id) of databases made
/// before issue 42's player bitmaps begin with it (a player lookup seeks each segment). No
/// new database builds them; only the duplicate lookup of games no bitmap covers
/// (db/duplicate_index.h) still seeks games_seg_white this way.
inline constexpr int kPlayerSegmentBits = 18;
/// SQL that creates games_seg_white, the White player index that served duplicate lookups
/// before the header bitmaps' player columns: GameWriter::find_duplicate builds it only to
/// look up games that no bitmap covers yet (a database whose bitmaps are missing or behind,
/// written by a GameWriter without the import's fresh bitmaps); update_header_bitmaps drops
/// it again once the bitmaps cover every game.
inline constexpr const char* kCreateSegWhiteIndexSql =
    "CREATE INDEX IF NOT EXISTS games_seg_white ON games(id >> 18, white_id, black_id, plies)";
/// SQL for the segment of the games row aliased `games_alias` ("g" -> "(g.id >> 18)"; empty
/// = unqualified), spelled as the player indexes spell it so that SQLite uses them.
std::string player_segment_sql(std::string_view games_alias);
/// A subquery listing the segments 0 .. (max id >> kPlayerSegmentBits), for `segment IN
/// <this>`; `max_id_sql` is an SQL expression for the largest game id of interest (e.g.
/// "SELECT max(id) FROM games", or a parameter "?4"). NULL (no games) lists segment 0 only.
std::string player_segments_sql(std::string_view max_id_sql);
/// Drops the secondary indexes of older versions that nothing reads any more (one
/// transaction); since issue 42 no secondary index on games is built (header filters read
/// the header bitmaps, db/header_bitmaps.h).
void create_indexes(sqlite::Connection& db);
/// Drops the indexes games_year, games_white_elo, games_black_elo, games_opening_eco,
/// games_seg_white and games_seg_black of a database made before issue 42's header bitmaps,
/// whose filters the bitmaps now answer (update_header_bitmaps calls it once they cover
/// every game). Returns true when there was one to drop.
bool drop_bitmap_indexes(sqlite::Connection& db);
/// Drops the secondary indexes (before bulk-loading an empty database).
void drop_indexes(sqlite::Connection& db);
/// The integer value of a meta row, or std::nullopt when the row is missing.
std::optional<int64_t> read_meta(sqlite::Connection& db, std::string_view key);
/// Throws FormatError when `found` (a stored format version, nullopt = missing) is not the
/// version this build reads. `what` names the store in the message. When `upgrade_dir` is
/// given and `found` is a version `cqldb reindex` can upgrade (format versions
/// kOldestUpgradableFormatVersion.. below `expected`), the message says to run
/// `cqldb reindex --db <upgrade_dir>` instead of importing again.
void check_format_version(std::optional<int64_t> found, int64_t expected, const std::string& what,
                          const std::string& upgrade_dir = {});
/// Throws FormatError when `found` (a stored record format version, nullopt = missing) is
/// not one this build reads: kOldestRecordFormatVersion..kRecordFormatVersion
/// (record_format.h). `what` names the store in the message.
void check_record_format_version(std::optional<int64_t> found, const std::string& what);
/// Stamps headers.sqlite with record format `version` (the LMDB store's,
/// GameStore::record_format()) when it holds an older one (a database opened for writing
/// may get records of that version). Returns true when it changed the row.
bool stamp_record_format_version(sqlite::Connection& db, uint32_t version);
/// Copies the WAL into the database file and truncates it, if no reader holds an older
/// snapshot (then it does nothing rather than wait). Keeps reads fast and sizes honest
/// after an import.
void checkpoint(sqlite::Connection& db);
/// Per-connection settings for the writer: synchronous=NORMAL, a larger page cache,
/// in-memory temporary storage and sorter threads (index builds).
void configure_writer(sqlite::Connection& db);

}  // namespace db::schema
