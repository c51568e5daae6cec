#include "import/source_identity.h"

#include <sys/statvfs.h>

#include <cerrno>
#include <cstdio>
#include <fstream>
#include <vector>

#include "db/errors.h"

namespace import {

std::optional<db::SourceIdentity> source_identity(const std::string& path) {
  if (path == "-") return std::nullopt;
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> head(kHeadHashBytes);
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  uint64_t hash = 0xcbf29ce484222325ULL;  // FNV-1a 64
  for (char c : head) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return db::SourceIdentity{path, uint64_t(size), hex};
}

bool is_disk_full(const std::exception& error, const std::filesystem::path& dir) {
  constexpr int kSqliteFull = 13;  // SQLITE_FULL (extended codes keep it in the low byte)
  if (const auto* lmdb = dynamic_cast<const db::LmdbError*>(&error); lmdb && lmdb->code() == ENOSPC) return true;
  if (const auto* sql = dynamic_cast<const db::SqliteError*>(&error); sql && (sql->code() & 0xff) == kSqliteFull)
    return true;
  if (const auto* fs = dynamic_cast<const std::filesystem::filesystem_error*>(&error);
      fs && fs->code() == std::errc::no_space_on_device)
    return true;
  struct statvfs vfs {};
  if (::statvfs(dir.c_str(), &vfs) != 0) return false;
  return uint64_t(vfs.f_bavail) * vfs.f_frsize < (1u << 20);
}

}  // namespace import
