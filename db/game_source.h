// db::GameSource: what the outputs read games through (headers and records by id), so that
// they write an ordinary database's games (db::GameReader) and a sharded database's, whose
// ids are global (query::Store::Reader, query/sharded.h), the same way.
#pragma once

#include <cstdint>
#include <string_view>

#include "db/game_header.h"
#include "db/record_view.h"

namespace db {

/// Games by id, for the outputs (query results, exports, reports, trees).
class GameSource {
 public:
  virtual ~GameSource() = default;
  /// Fills `out` with the header of game `id`; false when there is no such game.
  virtual bool read_header(uint32_t id, GameHeader& out) = 0;
  /// Sets `bytes` to the move record of game `id` (db::GameReader::record); false when none.
  virtual bool record(uint32_t id, std::string_view& bytes) const = 0;
  /// Reads the record of game `id` (db::GameReader::record_view); false when none.
  virtual bool record_view(uint32_t id, RecordView& out, bool with_annotations = true) const = 0;
};

}  // namespace db
