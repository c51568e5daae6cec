#include "db/errors.h"

#include <lmdb.h>

namespace db {

namespace {

std::string lmdb_message(const char* function, int code, const std::string& context) {
  std::string message = std::string(function) + ": " + mdb_strerror(code);
  if (!context.empty()) message += " (" + context + ")";
  return message;
}

}  // namespace

CorruptRecord CorruptRecord::with_game(uint32_t id) const {
  if (game_id_ != 0) return *this;
  return CorruptRecord("game " + std::to_string(id) + ": " + what(), id);
}

LmdbError::LmdbError(const char* function, int code, const std::string& context)
    : Error(lmdb_message(function, code, context)), code_(code) {}

}  // namespace db
