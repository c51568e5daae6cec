// CQL 1.0's `:pgn FILE` as its authors meant it (issue 20), and `--pgn FILE`: a PGN file is
// searched through a database imported from it once and reused while the file is
// unchanged. Every front-end that searches a PGN file (the command, the shell, the coming
// Python module) takes its database from here.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "import/importer.h"

namespace import {

/// The cached database of a PGN file, and what getting it took.
struct PgnCache {
  std::filesystem::path dir;  ///< the database directory
  bool imported = false;      ///< the file was imported now (else the cache was reused)
  ImportSummary summary;      ///< the import's figures when `imported`
};

/// The database directory caching `pgn`: `PGN.cqldb/` beside the file when its directory is
/// writable, else `$XDG_CACHE_HOME/cqldb/NAME-HASH/` (default `~/.cache`; HASH is
/// stable_path_hash of the absolute path, in 16 hex digits). The first call imports the file;
/// later calls reuse the database while the file's absolute path, size and modification time
/// are those recorded (`source.txt` in the directory), and import it afresh otherwise.
/// Throws std::runtime_error when the file cannot be read, and the errors of the import and
/// of std::filesystem when the directory cannot be written.
PgnCache cached_database(const std::filesystem::path& pgn);

/// FNV-1a (64 bits) of `text`: the same on every platform and standard library, unlike
/// std::hash, so a cache directory named by it survives a rebuild.
uint64_t stable_path_hash(std::string_view text);

}  // namespace import
