// The other tags of a game packed into one row of headers.sqlite (issue 23's size target).
// A lichess game has five such tags (UTCTime, WhiteRatingDiff, BlackRatingDiff,
// TimeControl, Termination); as five rows of game_tags they cost about 19 bytes each, most
// of it row overhead. Now each game with other tags has one row
//
//   game_tag_lists(game_id INTEGER PRIMARY KEY, packed BLOB NOT NULL)
//
// whose `packed` holds its tags in file order, each entry:
//
//   varint H = name_id << 1 | coded      name_id: tag_names.id (the name, exact spelling)
//   coded = 1: varint code               code < 128: the value is tag_values(name_id,
//                                        code).value; code >= 128 (since record format 4):
//                                        the time of day code - 128 seconds after midnight
//                                        (< 86400), written "HH:MM:SS" (a lichess UTCTime
//                                        costs 4 bytes, not 10)
//   coded = 0: varint L, then L bytes     the value itself (UTF-8, as in the PGN)
//
// (varint = unsigned LEB128, db/record_codec.h). The entry's place is its `seq` (0-based).
// Values that repeat are interned per tag name in tag_values(name_id, code, value): the first
// TagValueCodes::kMaxCodes distinct values of a name get codes 0..127 (one byte); later new
// values are stored literally (a name whose values are all distinct, such as UTCTime, costs
// 128 tag_values rows once). Which values are coded depends on the order of imports; a
// reader only follows the bit.
//
// Readers keep reading the `tags` view (game_id, seq, name, value), which unpacks the rows
// with the table-valued function cqldb_tag_list(packed) (register_tag_list_module: every
// sqlite::Connection registers it when it opens; a plain sqlite3 shell cannot read the view).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

struct sqlite3;

namespace db {

class NameTable;

/// Interned values of the other tags (tag_values), per tag name, during a GameWriter's life.
/// Codes handed out inside a transaction that is rolled back are invalid, so a TagValueCodes
/// is discarded together with a failed batch (as NameTable).
class TagValueCodes {
 public:
  /// Codes per tag name at most: 0..127 fit one varint byte.
  static constexpr uint32_t kMaxCodes = 128;

  /// Prepares its statements on `db` (tag_values must exist); reads no rows yet.
  explicit TagValueCodes(sqlite::Connection& db);
  /// The code of `value` for the tag name `name_id`; a new value gets the next code (and its
  /// tag_values row) while the name has fewer than kMaxCodes, else std::nullopt (stored
  /// literally). Reads a name's stored codes the first time it sees the name.
  std::optional<uint32_t> code(int64_t name_id, std::string_view value);

 private:
  /// Transparent hash so lookups by string_view do not build a std::string.
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  /// The codes of one tag name.
  struct NameCodes {
    std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> codes;  ///< value -> code
    uint32_t next = 0;  ///< the next free code (= codes stored for the name)
  };

  sqlite::Statement select_;  // SELECT code, value FROM tag_values WHERE name_id = ?1
  sqlite::Statement insert_;  // INSERT INTO tag_values(name_id, code, value)
  std::unordered_map<int64_t, NameCodes> names_;  // name_id -> its codes
};

/// Appends the packed list of `tags` (name, value pairs in file order) to `packed`, interning
/// names through `names` (tag_names) and values through `codes`.
void pack_tags(const std::vector<std::pair<std::string, std::string>>& tags, NameTable& names,
               TagValueCodes& codes, std::string& packed);

/// The code of a time of day "HH:MM:SS" (two digits each, 00:00:00..23:59:59): kMaxCodes +
/// its seconds after midnight; std::nullopt for any other text (then it is coded or stored
/// literally like every value).
std::optional<uint32_t> time_of_day_code(std::string_view value);

/// One entry of a packed tag list.
struct PackedTag {
  int64_t name_id = 0;            ///< tag_names.id
  std::optional<uint32_t> code;   ///< tag_values code, or none when `value` holds the value
  /// The value when `code` is none: the literal (points into the packed bytes) or a time of
  /// day (points into `time_text`, so it is valid only in this object, not in a copy).
  std::string_view value;
  char time_text[8] = {};         ///< "HH:MM:SS" of a time-of-day code
};

/// Reads the entry at `p` (not past `end`) into `out` and advances `p`; false when the bytes
/// are not a well-formed entry.
bool read_packed_tag(const uint8_t*& p, const uint8_t* end, PackedTag& out);

/// Registers the eponymous table-valued function cqldb_tag_list(packed) on `db`: one row
/// (seq, name, value) per entry of `packed`, names and coded values looked up in tag_names
/// and tag_values (read into memory once per connection, again when an entry needs a newer
/// row). A malformed list, or one naming an unknown id or code, is an error.
void register_tag_list_module(sqlite3* db);

/// The `tags` view over game_tag_lists (SQL text for CREATE VIEW).
extern const char* const kCreatePackedTagsView;
/// The tables of the packed layout: tag_names, tag_values, game_tag_lists (CREATE IF NOT
/// EXISTS), without the view.
extern const char* const kCreatePackedTagTables;

/// Moves the other tags of a database made before the packed layout into it, in one
/// transaction: from the `tags` table (before issue 23's tag names) or from game_tags rows
/// (behind the old `tags` view); drops them and recreates `tags` as the view over
/// game_tag_lists. Returns false (and changes nothing) when the database has the packed
/// layout already.
bool migrate_tags_to_lists(sqlite::Connection& db);

}  // namespace db
