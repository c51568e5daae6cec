// GameInfo: the header values of one game that position-list keywords read
// (`:result :elo :whiteelo :blackelo`, CQL-Position-List "Game information"). A plain value;
// HeaderStore::game_info() fills a vector of them indexed by game id.
#pragma once

#include <cstdint>

namespace headers {

/// Header values of one game used by position-list game-information keywords.
struct GameInfo {
  uint8_t result = 0;     ///< db::ResultCode: 0 unknown '*', 1 1-0, 2 0-1, 3 draw
  uint16_t white_elo = 0; ///< 0 = none
  uint16_t black_elo = 0; ///< 0 = none
};

}  // namespace headers
