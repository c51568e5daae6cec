// What identifies an input file across imports (issue 40), and how an import that stopped on
// a full disk says so: an import of the same file (same path, size and first MiB) that did
// not finish is continued after its last committed game (db::GameWriter::unfinished_import).
#pragma once

#include <exception>
#include <filesystem>
#include <optional>
#include <string>

#include "db/import_log.h"

namespace import {

/// Bytes of a file's start that its head hash covers.
inline constexpr size_t kHeadHashBytes = 1 << 20;

/// The identity of the regular file `path`: its size in bytes and the 64-bit FNV-1a hash of
/// its first kHeadHashBytes (16 hex digits). nullopt for standard input ("-"), a pipe or
/// anything that is not a regular file (those are never continued).
std::optional<db::SourceIdentity> source_identity(const std::string& path);

/// True when `error` (thrown while writing the database in `dir`) is a full disk: ENOSPC,
/// SQLITE_FULL, or an I/O error while the file system of `dir` has less than 1 MiB free
/// (LMDB reports a short write on a full disk as EIO).
bool is_disk_full(const std::exception& error, const std::filesystem::path& dir);

}  // namespace import
