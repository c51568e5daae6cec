// Header bitmaps (issue 42): for each of six header columns of headers.sqlite (the year of
// the date, White's Elo, Black's Elo, the classified ECO code, White's and Black's players
// row), one compressed bitmap (CRoaring) of game ids per distinct value. Header filters on
// those columns (headers/header_filter.h, HeaderStore::candidates) unite the bitmaps of the
// values in a range (for names: of the players rows the name or pattern selects) and
// intersect across conditions instead of asking SQLite; they replaced the SQLite indexes
// games_year, games_white_elo, games_black_elo and games_opening_eco (14.1 MB at
// players-344k against 2 MB of bitmaps; session 4) and games_seg_white and games_seg_black
// (10.0 MB; session 7), whose duplicate lookup (db/duplicate_index.h) now intersects the two
// players' bitmaps.
//
// ---- Files, format version kHeaderBitmapsFormatVersion (= 2) ------------------------------
//
// A chain of segments, as the posting index (index/postings.h), each an immutable file for
// the games first..last:
//   <dir>/header-bitmaps.bin           the base segment, games 1..last
//   <dir>/header-bitmaps-<first>.seg   a later segment (first = the previous one's last + 1)
// A reader follows the chain from the base; a file that does not continue it is ignored.
// An import writes one segment for its games (built by the writer thread as it stores them:
// O(new games)), then merges the last two segments while the earlier holds at most as many
// games as the later and together at most kMaxMergedHeaderGames (a binary counter). Every
// file is written beside its name, fsynced and renamed.
//
// Each file; all integers little-endian:
//   magic "CQLHBMP1" (8 bytes)
//   uint32 format version, first, last (games first..last), column count C (= 6)
//   uint32 entry count of each column (C of them)
//   the entries of column 0, then of column 1, ...: int32 value, uint32 offset (from the
//     start of the file), uint32 length, uint32 FNV-1a of the column number (1 byte),
//     the value's 4 bytes and the bitmap's bytes; sorted by
//     value within a column, values distinct
//   the bitmaps, each in CRoaring's portable serialisation, run-optimised, back to back in
//     the order of the table and up to the end of the file
// Every game of first..last is in exactly one bitmap of each column.
//
// Values (header_values()):
//   year         the date's year; kNoValue when unknown
//   white_elo,   the Elo as stored (games.white_elo); kNoValue when none (stored NULL)
//   black_elo
//   opening_eco  the classified code "A00".."E99" as 0..499 (eco_key()); kNoValue when the
//                game is not classified; kOtherEco for another text (no import writes one)
//   white_player, the players.id of the side (games.white_id, black_id; every game has one,
//   black_player  an empty name included)
// Version 1 (session 4) had the first four columns only: it is ignored like a missing file.
// A database without the base file (made before this format, or whose file was removed)
// is answered by SQL (slower: no index on those columns any more); its next import or
// `cqldb reindex` builds the file. A damaged file throws FormatError naming it.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "db/segment_chain.h"

namespace db {

class Database;
class FileMapping;
struct GameHeader;
struct FreshHeaderBitmaps;
struct HeaderBitmapsUpdate;

/// Version of the header bitmap files' layout; a file of another version is ignored
/// (queries use SQL) and rebuilt by the next import or reindex. 2: the player columns.
inline constexpr uint32_t kHeaderBitmapsFormatVersion = 2;
/// The base segment's file name inside a database directory.
inline constexpr const char* kHeaderBitmapsFile = "header-bitmaps.bin";
/// Two segments are merged only while together they hold at most this many games.
inline constexpr uint32_t kMaxMergedHeaderGames = 1u << 22;

/// The columns with bitmaps, in file order.
enum class HeaderColumn : uint8_t {
  kYear = 0,
  kWhiteElo = 1,
  kBlackElo = 2,
  kOpeningEco = 3,
  kWhitePlayer = 4,  ///< games.white_id
  kBlackPlayer = 5,  ///< games.black_id
};
inline constexpr int kHeaderColumns = 6;

/// The value of a column that is SQL NULL (no year, no Elo, not classified).
inline constexpr int32_t kNoValue = std::numeric_limits<int32_t>::min();
/// The smallest and largest value of a present column (ranges that mean "any value").
inline constexpr int32_t kMinValue = kNoValue + 1;
inline constexpr int32_t kMaxValue = std::numeric_limits<int32_t>::max();
/// The opening_eco value of a code that is not a letter A-E and two digits.
inline constexpr int32_t kOtherEco = 1000;

/// The opening_eco value of a classified code: "A00" -> 0 ... "E99" -> 499 (letter * 100
/// + number); kOtherEco for any other text, kNoValue for an empty one.
int32_t eco_key(std::string_view code);

/// One game's six values, indexed by HeaderColumn.
using HeaderValues = std::array<int32_t, kHeaderColumns>;

/// The values `header` is stored with (the year parsed from its date, the Elos with 0 as
/// none, eco_class as eco_key()) and its players rows `white_id`, `black_id` (games.white_id,
/// black_id as GameWriter::add_game stored them; GameWriter::last_player_ids()).
HeaderValues header_values(const GameHeader& header, int64_t white_id, int64_t black_id);


/// An inclusive range of one column's values.
struct ValueRange {
  HeaderColumn column = HeaderColumn::kYear;
  int32_t lo = kMinValue;  ///< inclusive
  int32_t hi = kMaxValue;  ///< inclusive; lo > hi is empty
};

/// A condition on the bitmaps: a game passes when some value of it lies in one of the
/// ranges (a union; an empty term passes no game).
using BitmapTerm = std::vector<ValueRange>;

/// The ranges of `column` holding exactly the values `ids` (ascending, distinct; e.g.
/// players rows), consecutive values joined into one range, appended to `term`.
void add_value_ranges(BitmapTerm& term, HeaderColumn column, const std::vector<int64_t>& ids);

/// The read side: the segment chain of a database directory, memory-mapped (each file's
/// table read at open, the bitmaps when a term needs them).
class HeaderBitmaps {
 public:
  HeaderBitmaps(HeaderBitmaps&&) noexcept;
  HeaderBitmaps& operator=(HeaderBitmaps&&) noexcept;
  ~HeaderBitmaps();

  /// Opens the chain of `dir`. nullopt when there is no base file or it has another format
  /// version (answer by SQL). Throws FormatError naming the file when the base file is
  /// damaged (its header or table).
  static std::optional<HeaderBitmaps> open(const std::filesystem::path& dir);

  /// Games 1..covered() are in the bitmaps.
  uint32_t covered() const { return covered_; }
  /// Number of segment files in the chain.
  size_t segments() const { return segments_.size(); }

  /// The ids (ascending, each <= min(covered(), `game_count`)) of the games that pass
  /// every term of `terms` (an intersection of unions); every game 1..that when `terms` is
  /// empty. Throws FormatError naming the file when a bitmap it reads is damaged.
  std::vector<uint32_t> select(const std::vector<BitmapTerm>& terms, uint32_t game_count) const;

  /// Reads every bitmap of every segment and checks the invariants of the format (values
  /// ascending in first..last, every game in exactly one bitmap of each column). Returns
  /// the problems found (empty: sound) and the number of bitmaps read in `bitmaps`.
  std::vector<std::string> check(uint64_t& bitmaps) const;

 private:
  struct Entry {
    int32_t value;
    uint32_t offset, length, checksum;
  };
  struct Segment {
    std::filesystem::path path;
    std::shared_ptr<const FileMapping> map;
    uint32_t first = 0, last = 0;
    std::array<std::vector<Entry>, kHeaderColumns> entries;  // sorted by value
  };
  friend struct HeaderBitmapsAccess;
  friend HeaderBitmapsUpdate update_header_bitmaps(const Database&, bool, FreshHeaderBitmaps*);
  HeaderBitmaps() = default;
  std::vector<Segment> segments_;
  uint32_t covered_ = 0;
};

/// Accumulates the values of games added in ascending id order, then writes one segment.
class HeaderBitmapsBuilder {
 public:
  HeaderBitmapsBuilder();
  ~HeaderBitmapsBuilder();
  HeaderBitmapsBuilder(HeaderBitmapsBuilder&&) noexcept;
  HeaderBitmapsBuilder& operator=(HeaderBitmapsBuilder&&) noexcept;

  /// Adds game `id` (larger than every id added before) with `values`.
  void add(uint32_t id, const HeaderValues& values);
  /// The ids added so far (ascending) whose `column` is `value`; null when none.
  const std::vector<uint32_t>* ids(HeaderColumn column, int32_t value) const;
  /// Writes the segment of games first..last as `dir`'s segment file of `first` (a
  /// temporary file, fsync, rename). Throws std::runtime_error on I/O errors.
  void write(const std::filesystem::path& dir, uint32_t first, uint32_t last) const;

 private:
  struct Columns;
  std::unique_ptr<Columns> columns_;  // per column: value -> ids
};

/// The header bitmaps of the games an import stored, built as it stored them (games
/// first..last, each id one more than the last).
struct FreshHeaderBitmaps {
  HeaderBitmapsBuilder builder;
  uint32_t first = 0;   ///< first game added (0: none)
  uint32_t last = 0;    ///< last game added
  bool broken = false;  ///< a game was skipped: not usable

  /// Adds game `id` with `values`.
  void add(uint32_t id, const HeaderValues& values) {
    if (first && id != last + 1) broken = true;
    if (!first) first = id;
    last = id;
    builder.add(id, values);
  }
};

/// What update_header_bitmaps() did: the chain's update (added, rebuilt, from_import =
/// the new segment came from FreshHeaderBitmaps, merges, segments) and the outcome.
struct HeaderBitmapsUpdate : ChainUpdate {
  uint32_t covered = 0;     ///< games covered afterwards
  uint64_t file_bytes = 0;  ///< bytes of every header bitmap file
  double seconds = 0;
};

/// Brings `database`'s header bitmaps up to its committed games: a segment for the games
/// above the chain (`fresh` when it holds exactly them, else read from headers.sqlite by
/// id range), then merges; with `rebuild`, or when the chain is missing, outdated or
/// damaged, one base file for every game read from headers.sqlite. Run by the single
/// writer (after an import, by reindex). Throws on I/O and SQLite errors.
HeaderBitmapsUpdate update_header_bitmaps(const Database& database, bool rebuild = false,
                                          FreshHeaderBitmaps* fresh = nullptr);

/// The file of the segment whose first game is `first` (header-bitmaps.bin for 1).
std::filesystem::path header_bitmaps_path(const std::filesystem::path& dir, uint32_t first);
/// Bytes of every header bitmap file of `dir`.
uint64_t header_bitmaps_bytes(const std::filesystem::path& dir);
/// Removes every header bitmap file of `dir`.
void remove_header_bitmaps(const std::filesystem::path& dir);

}  // namespace db
