// Thin RAII wrapper over an LMDB transaction, and the sub-database handle it opens.
// The lifetime rules are in lmdb_env.h: nothing read through a Txn outlives it.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "db/lmdb_env.h"

struct MDB_txn;

namespace db::lmdb {

/// Handle of a sub-database (MDB_dbi). A plain value, valid for the life of its Env once
/// the transaction that opened it has committed (or, for read transactions, ended).
struct Dbi {
  unsigned int handle = 0;  // MDB_dbi
};

/// Flags for Txn::open_dbi.
enum DbiFlags : unsigned {
  kDbiDefault = 0,
  kDbiCreate = 1u << 0,      ///< MDB_CREATE: create the sub-database if missing
  kDbiIntegerKey = 1u << 1,  ///< MDB_INTEGERKEY: keys are native-endian unsigned ints
};

/// Flags for Txn::put.
enum PutFlags : unsigned {
  kPutDefault = 0,
  kPutNoOverwrite = 1u << 0,  ///< MDB_NOOVERWRITE: keep an existing value, put returns false
  kPutAppend = 1u << 1,       ///< MDB_APPEND: key is greater than every key (bulk load)
};

/// The key bytes of an integer key (MDB_INTEGERKEY sub-databases). The view aliases `id`,
/// which must stay alive while the view is used.
inline std::string_view integer_key(const uint32_t& id) {
  return {reinterpret_cast<const char*>(&id), sizeof id};
}

/// A read or write transaction. Move-only; the destructor aborts a transaction that was
/// not committed. Values read are views into the map, valid until the transaction ends
/// (write transactions: until the next write).
class Txn {
 public:
  /// Begins a write transaction (blocks while another process or thread holds one).
  static Txn begin_write(Env& env);
  /// Begins a read-only transaction: a consistent snapshot of the last commit.
  static Txn begin_read(const Env& env);

  Txn(Txn&& other) noexcept;
  Txn& operator=(Txn&& other) noexcept;
  Txn(const Txn&) = delete;
  Txn& operator=(const Txn&) = delete;
  ~Txn();

  /// Commits; the Txn is finished afterwards. Throws LmdbError("mdb_txn_commit") — the
  /// transaction is then aborted.
  void commit();
  /// Abandons all changes; the Txn is finished afterwards. No-op if already finished.
  void abort() noexcept;
  /// Read transactions only: releases the snapshot but keeps the handle for renew().
  void reset() noexcept;
  /// Read transactions only: takes a new snapshot after reset().
  void renew();

  /// Opens a named sub-database (nullptr = the main one). Returns std::nullopt when it does
  /// not exist and kDbiCreate is not given.
  std::optional<Dbi> open_dbi(const char* name, unsigned flags = kDbiDefault);
  /// Looks `key` up; on success sets `value` to a view valid until the transaction ends.
  /// Returns false when the key is absent.
  bool get(Dbi dbi, std::string_view key, std::string_view& value) const;
  /// Stores `value` under `key`. Returns false only when the key exists and kPutNoOverwrite
  /// or kPutAppend forbids replacing it. Throws on other failures (MDB_MAP_FULL...).
  bool put(Dbi dbi, std::string_view key, std::string_view value, unsigned flags = kPutDefault);
  /// Deletes `key`; returns false when it was absent.
  bool del(Dbi dbi, std::string_view key);
  /// Number of entries in the sub-database.
  uint64_t entries(Dbi dbi) const;
  /// Bytes of the pages (branch, leaf, overflow) the sub-database uses.
  uint64_t page_bytes(Dbi dbi) const;

  /// True between begin and commit/abort (and not while reset).
  bool active() const { return txn_ != nullptr && !reset_; }
  /// True for read-only transactions.
  bool read_only() const { return read_only_; }
  /// The C handle, for Cursor.
  MDB_txn* handle() const { return txn_; }

 private:
  Txn(MDB_txn* txn, bool read_only) : txn_(txn), read_only_(read_only) {}

  MDB_txn* txn_ = nullptr;  // owned; null once finished
  bool read_only_ = false;  // begun with MDB_RDONLY
  bool reset_ = false;      // read txn released by reset(), awaiting renew()
};

}  // namespace db::lmdb
