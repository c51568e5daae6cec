#include "db/lmdb_env.h"

#include <lmdb.h>

#include <string>
#include <system_error>
#include <utility>

#include "db/errors.h"

namespace db::lmdb {

namespace {

/// Throws FormatError when `file` is shorter than the pages its newest meta page says are
/// in use: reading such a page through the map would raise SIGBUS (issue 14).
void check_file_covers_map(MDB_env* env, const std::filesystem::path& file) {
  MDB_envinfo info;
  if (int rc = mdb_env_info(env, &info); rc != 0) throw LmdbError("mdb_env_info", rc);
  MDB_stat stat;
  if (int rc = mdb_env_stat(env, &stat); rc != 0) throw LmdbError("mdb_env_stat", rc);
  const uint64_t needed = (uint64_t(info.me_last_pgno) + 1) * stat.ms_psize;
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(file, ec);
  if (ec) throw Error("cannot read the size of " + file.string() + ": " + ec.message());
  if (size < needed)
    throw FormatError(file.string() + " is damaged (truncated): it has " + std::to_string(size) +
                      " bytes but its last used page (" + std::to_string(info.me_last_pgno) +
                      ", page size " + std::to_string(stat.ms_psize) + ") needs " +
                      std::to_string(needed) + " bytes");
}

}  // namespace

Env Env::open(const std::filesystem::path& file, const EnvOptions& options) {
  MDB_env* env = nullptr;
  if (int rc = mdb_env_create(&env); rc != 0) throw LmdbError("mdb_env_create", rc);
  Env owner(env, options.read_only);  // closes the env if a later step throws
  if (int rc = mdb_env_set_mapsize(env, options.map_size); rc != 0)
    throw LmdbError("mdb_env_set_mapsize", rc);
  if (int rc = mdb_env_set_maxdbs(env, options.max_dbs); rc != 0)
    throw LmdbError("mdb_env_set_maxdbs", rc);
  if (int rc = mdb_env_set_maxreaders(env, options.max_readers); rc != 0)
    throw LmdbError("mdb_env_set_maxreaders", rc);
  unsigned flags = MDB_NOSUBDIR | MDB_NOTLS;
  if (options.read_only) flags |= MDB_RDONLY;
  if (int rc = mdb_env_open(env, file.c_str(), flags, 0644); rc != 0)
    throw LmdbError("mdb_env_open", rc, file.string());
  check_file_covers_map(env, file);
  int dead = 0;
  if (int rc = mdb_reader_check(env, &dead); rc != 0) throw LmdbError("mdb_reader_check", rc);
  return owner;
}

Env::Env(Env&& other) noexcept
    : env_(std::exchange(other.env_, nullptr)), read_only_(other.read_only_) {}

Env& Env::operator=(Env&& other) noexcept {
  if (this != &other) {
    if (env_) mdb_env_close(env_);
    env_ = std::exchange(other.env_, nullptr);
    read_only_ = other.read_only_;
  }
  return *this;
}

Env::~Env() {
  if (env_) mdb_env_close(env_);
}

uint64_t Env::map_size() const {
  MDB_envinfo info;
  if (int rc = mdb_env_info(env_, &info); rc != 0) throw LmdbError("mdb_env_info", rc);
  return info.me_mapsize;
}

uint64_t Env::used_bytes() const {
  MDB_envinfo info;
  if (int rc = mdb_env_info(env_, &info); rc != 0) throw LmdbError("mdb_env_info", rc);
  MDB_stat stat;
  if (int rc = mdb_env_stat(env_, &stat); rc != 0) throw LmdbError("mdb_env_stat", rc);
  return (uint64_t(info.me_last_pgno) + 1) * stat.ms_psize;
}

}  // namespace db::lmdb
