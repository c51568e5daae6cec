// Exceptions thrown by the storage layer (namespace db).
//
// Error policy: "not found" is never an exception (lookups return bool / std::optional);
// a failing LMDB or SQLite call throws LmdbError / SqliteError naming the C function that
// failed; on-disk data that does not have the expected shape throws FormatError (whole
// database) or CorruptRecord (one game record).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace db {

/// Base of every exception thrown by the storage layer.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// An LMDB function failed. what() is "<mdb function>: <mdb_strerror text>" with optional
/// context; code() is the LMDB or errno return code (e.g. MDB_MAP_FULL).
class LmdbError : public Error {
 public:
  LmdbError(const char* function, int code, const std::string& context = {});
  /// The return code of the failed call.
  int code() const { return code_; }

 private:
  int code_;  // LMDB / errno return code
};

/// A SQLite function failed. what() is "<sqlite3 function>: <sqlite3_errmsg> (SQL: ...)";
/// code() is the extended SQLite result code.
class SqliteError : public Error {
 public:
  SqliteError(const std::string& message, int code) : Error(message), code_(code) {}
  /// The extended SQLite result code of the failed call.
  int code() const { return code_; }

 private:
  int code_;  // extended result code
};

/// The database directory is not a cqldb database this build can read: wrong format
/// version, a store missing or the two stores disagreeing.
class FormatError : public Error {
 public:
  using Error::Error;
};

/// One game is damaged: the bytes of its record do not follow the layout documented in
/// record_format.h, a stored move cannot be replayed (eval, index, export), its record is
/// missing or unreadable in games.mdb (a damaged LMDB page), or it has no headers row. The
/// rest of the database is usable: a query skips the game (issue 14) and `cqldb check`
/// lists it. game_id() is 0 when the thrower did not know the game (the record decoder and
/// the replay): the caller that read the record knows it and may add it with with_game().
class CorruptRecord : public Error {
 public:
  explicit CorruptRecord(const std::string& message, uint32_t game_id = 0)
      : Error(message), game_id_(game_id) {}
  /// The damaged game's id, 0 when unknown.
  uint32_t game_id() const { return game_id_; }
  /// The same error naming game `id`: what() becomes "game <id>: <what()>" (unchanged when
  /// the game was already named).
  CorruptRecord with_game(uint32_t id) const;

 private:
  uint32_t game_id_ = 0;  // 0 = unknown
};

}  // namespace db
