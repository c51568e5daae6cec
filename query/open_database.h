// Opening the database a front-end searches (the command, the shell, the web server, the
// coming Python module): one check that a directory holds a cqldb database, one error when
// it does not, so a mistyped path never creates one.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "db/database.h"

namespace query {

/// The error of open_database for a directory that holds no cqldb database. what() is
/// "no cqldb database at DIR (the directory does not exist)" or "DIR holds no cqldb database
/// (no headers.sqlite)".
class NoDatabase : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// True when `dir` holds a cqldb database (its header store exists).
bool holds_database(const std::filesystem::path& dir);

/// The NoDatabase message for `dir` (see NoDatabase); precondition !holds_database(dir).
std::string no_database_message(const std::filesystem::path& dir);

/// Opens the database in `dir` for reading (db::Database::open_readonly). Throws NoDatabase
/// when `dir` holds none, db::FormatError for another format version, db::LmdbError /
/// db::SqliteError for I/O failures.
db::Database open_database(const std::filesystem::path& dir);

}  // namespace query
