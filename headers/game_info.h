// GameInfo: the header values of one game that position-list keywords read
// (`:result :elo :whiteelo :blackelo`, CQL-Position-List "Game information"). A plain value;
// HeaderStore::game_info() fills a vector of them indexed by game id.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace headers {

/// The header texts of one game that CQL 6 string values read (`player white`, `event`,
/// `site`, `date`, `eco`, `year`; issue 37): names as stored, date as the PGN writes it
/// ("1992.??.??"), year 0 when unknown. Filled only for programs that need them
/// (eval::Program::needs_game_text, HeaderStore::game_text).
struct GameText {
  std::string white, black, event, site, date, eco;
  int year = 0;
  std::string round;  ///< the Round tag ("?" when unknown)
  /// The other tags a CQL 6 `tag "Name"` reads (name, value; HeaderStore::game_text's
  /// `tag_names`), those the game has, in file order.
  std::vector<std::pair<std::string, std::string>> tags;
};

/// Header values of one game used by position-list game-information keywords.
struct GameInfo {
  uint8_t result = 0;     ///< db::ResultCode: 0 unknown '*', 1 1-0, 2 0-1, 3 draw
  uint16_t white_elo = 0; ///< 0 = none
  uint16_t black_elo = 0; ///< 0 = none
  const GameText* text = nullptr;  ///< header texts (CQL 6 strings); null unless needed
};

}  // namespace headers
