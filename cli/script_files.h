// CQL 1.0's file keywords as their authors meant them (issue 20): `:pgn FILE` searches that
// PGN file, imported once into a cached database that is reused while the file is
// unchanged; `:output FILE` writes the matching games there as PGN with {MATCH} comments.
#pragma once

#include <filesystem>
#include <string>

namespace cli {

/// The file names of a script's match-list `:pgn` and `:output` keywords ("" when absent).
struct ScriptFiles {
  std::string pgn;     ///< :pgn FILE
  std::string output;  ///< :output FILE
};

/// Reads the `:pgn` / `:output` keywords of the script's top-level match list. `text` must
/// parse (query::Query::compile accepted it).
ScriptFiles script_files(const std::string& text, const std::string& source_name);

/// The database directory caching `pgn`: `PGN.cqldb/` beside the file when its directory is
/// writable, else `$XDG_CACHE_HOME/cqldb/NAME-HASH/` (default `~/.cache`). The first call
/// imports the file; later calls reuse the database while the file's size and modification
/// time are those recorded (`source.txt` in the directory), and import it afresh otherwise.
/// Notes what it does on stderr. Throws std::runtime_error when the file cannot be read or
/// the directory cannot be written.
std::filesystem::path cached_database(const std::filesystem::path& pgn);

}  // namespace cli
