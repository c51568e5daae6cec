// GameHeader: the PGN tag data of one game as stored in headers.sqlite, and the encodings
// of its result and date columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace db {

/// The header of one game. Strings are as in the PGN (UTF-8 after the importer's
/// conversion); "empty" fields are stored as SQL NULL and read back empty.
struct GameHeader {
  uint32_t id = 0;          ///< game id, 1, 2, 3... in import order (0 = not yet assigned)
  std::string source_file;  ///< path of the PGN file as given to the import
  uint32_t ordinal = 0;     ///< 1-based position in its file, rejected games counted
  std::string white;        ///< [White]
  std::string black;        ///< [Black]
  std::string event;        ///< [Event]
  std::string site;         ///< [Site]
  std::string date;         ///< [Date] as in the PGN, e.g. "1985.??.??"
  std::string round;        ///< [Round]
  std::string result;       ///< "1-0", "0-1", "1/2-1/2" or "*" (anything else reads as "*")
  int white_elo = 0;        ///< [WhiteElo], 0 = none
  int black_elo = 0;        ///< [BlackElo], 0 = none
  std::string eco;          ///< [ECO], e.g. "B90"; empty = none
  uint32_t plies = 0;       ///< main-line plies (= RecordView::main_line_size())
  std::string start_fen;    ///< [FEN]; empty = standard start position
  std::string variant;      ///< empty = standard chess, "chess960"
  /// ECO classification (issue 17 A, import/eco_classifier.h): the code of the deepest named
  /// opening position of the main line, else the [ECO] tag's code ("B90a" -> "B90"), else
  /// empty. Stored in games.opening_eco, read through the game_openings view (db/schema.h).
  std::string eco_class;
  std::string opening;      ///< name of that opening position; empty when not classified
  /// Every other tag in file order (Annotator, PlyCount, TimeControl, ...).
  std::vector<std::pair<std::string, std::string>> other_tags;
};

/// The games.result column: an integer code rather than text, so result filters compare
/// integers.
enum class ResultCode : uint8_t {
  kUnknown = 0,    ///< "*" or anything unrecognised
  kWhiteWins = 1,  ///< "1-0"
  kBlackWins = 2,  ///< "0-1"
  kDraw = 3,       ///< "1/2-1/2"
};

/// The code of a PGN result string.
ResultCode result_code(std::string_view result);
/// The PGN result string of a code ("*" for kUnknown).
std::string_view result_text(ResultCode code);

/// The parts of a PGN date "YYYY.MM.DD"; a part is empty when it is unknown ("??"), not a
/// number or out of range (month 1-12, day 1-31).
struct DateParts {
  std::optional<int> year;   ///< e.g. 1985
  std::optional<int> month;  ///< 1-12
  std::optional<int> day;    ///< 1-31
};

/// Splits a PGN date ("1985.??.??", "2001.03.17", "????.??.??") into its known parts;
/// blanks around it are ignored.
DateParts parse_pgn_date(std::string_view date);

/// The PGN date "YYYY.MM.DD" of `parts`, with "????" / "??" for unknown parts: the form
/// headers.sqlite rebuilds when it stores no date text (schema.h).
std::string canonical_pgn_date(const DateParts& parts);

}  // namespace db
