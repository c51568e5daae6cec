#include "db/lmdb_txn.h"

#include <lmdb.h>

#include <cassert>
#include <type_traits>
#include <utility>

#include "db/errors.h"

namespace db::lmdb {

static_assert(std::is_same_v<MDB_dbi, unsigned int>, "Dbi::handle must hold an MDB_dbi");

namespace {

MDB_val to_val(std::string_view bytes) {
  return MDB_val{bytes.size(), const_cast<char*>(bytes.data())};
}

std::string_view to_view(const MDB_val& val) {
  return {static_cast<const char*>(val.mv_data), val.mv_size};
}

}  // namespace

Txn Txn::begin_write(Env& env) {
  MDB_txn* txn = nullptr;
  if (int rc = mdb_txn_begin(env.handle(), nullptr, 0, &txn); rc != 0)
    throw LmdbError("mdb_txn_begin", rc);
  return Txn(txn, false);
}

Txn Txn::begin_read(const Env& env) {
  MDB_txn* txn = nullptr;
  if (int rc = mdb_txn_begin(env.handle(), nullptr, MDB_RDONLY, &txn); rc != 0)
    throw LmdbError("mdb_txn_begin", rc);
  return Txn(txn, true);
}

Txn::Txn(Txn&& other) noexcept
    : txn_(std::exchange(other.txn_, nullptr)),
      read_only_(other.read_only_),
      reset_(other.reset_) {}

Txn& Txn::operator=(Txn&& other) noexcept {
  if (this != &other) {
    abort();
    txn_ = std::exchange(other.txn_, nullptr);
    read_only_ = other.read_only_;
    reset_ = other.reset_;
  }
  return *this;
}

Txn::~Txn() {
  abort();
}

void Txn::commit() {
  assert(active());
  int rc = mdb_txn_commit(std::exchange(txn_, nullptr));  // frees the txn even on failure
  if (rc != 0) throw LmdbError("mdb_txn_commit", rc);
}

void Txn::abort() noexcept {
  if (txn_) mdb_txn_abort(std::exchange(txn_, nullptr));
  reset_ = false;
}

void Txn::reset() noexcept {
  assert(read_only_ && txn_);
  if (!reset_) mdb_txn_reset(txn_);
  reset_ = true;
}

void Txn::renew() {
  assert(read_only_ && txn_ && reset_);
  if (int rc = mdb_txn_renew(txn_); rc != 0) throw LmdbError("mdb_txn_renew", rc);
  reset_ = false;
}

std::optional<Dbi> Txn::open_dbi(const char* name, unsigned flags) {
  assert(active());
  unsigned mdb_flags = 0;
  if (flags & kDbiCreate) mdb_flags |= MDB_CREATE;
  if (flags & kDbiIntegerKey) mdb_flags |= MDB_INTEGERKEY;
  MDB_dbi dbi = 0;
  int rc = mdb_dbi_open(txn_, name, mdb_flags, &dbi);
  if (rc == MDB_NOTFOUND) return std::nullopt;
  if (rc != 0) throw LmdbError("mdb_dbi_open", rc, name ? name : "main");
  return Dbi{dbi};
}

bool Txn::get(Dbi dbi, std::string_view key, std::string_view& value) const {
  assert(active());
  MDB_val k = to_val(key), v{0, nullptr};
  int rc = mdb_get(txn_, dbi.handle, &k, &v);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) throw LmdbError("mdb_get", rc);
  value = to_view(v);
  return true;
}

bool Txn::put(Dbi dbi, std::string_view key, std::string_view value, unsigned flags) {
  assert(active() && !read_only_);
  unsigned mdb_flags = 0;
  if (flags & kPutNoOverwrite) mdb_flags |= MDB_NOOVERWRITE;
  if (flags & kPutAppend) mdb_flags |= MDB_APPEND;
  MDB_val k = to_val(key), v = to_val(value);
  int rc = mdb_put(txn_, dbi.handle, &k, &v, mdb_flags);
  if (rc == MDB_KEYEXIST) return false;
  if (rc != 0) throw LmdbError("mdb_put", rc);
  return true;
}

bool Txn::del(Dbi dbi, std::string_view key) {
  assert(active() && !read_only_);
  MDB_val k = to_val(key);
  int rc = mdb_del(txn_, dbi.handle, &k, nullptr);
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) throw LmdbError("mdb_del", rc);
  return true;
}

uint64_t Txn::entries(Dbi dbi) const {
  assert(active());
  MDB_stat stat;
  if (int rc = mdb_stat(txn_, dbi.handle, &stat); rc != 0) throw LmdbError("mdb_stat", rc);
  return stat.ms_entries;
}

uint64_t Txn::page_bytes(Dbi dbi) const {
  assert(active());
  MDB_stat stat;
  if (int rc = mdb_stat(txn_, dbi.handle, &stat); rc != 0) throw LmdbError("mdb_stat", rc);
  return uint64_t(stat.ms_branch_pages + stat.ms_leaf_pages + stat.ms_overflow_pages) * stat.ms_psize;
}

}  // namespace db::lmdb
