// RAII over a SQLite transaction (BEGIN ... COMMIT), the SQLite twin of db::lmdb::Txn: a
// Transaction that is not committed is rolled back by its destructor, so a block that
// throws between BEGIN and COMMIT leaves the connection as it was.
#pragma once

#include "db/sqlite_db.h"

namespace db::sqlite {

/// How a Transaction begins (SQLite's BEGIN DEFERRED / BEGIN IMMEDIATE).
enum class Begin {
  kDeferred,   ///< BEGIN: the first read takes the snapshot, the first write the write lock
  kImmediate,  ///< BEGIN IMMEDIATE: takes the write lock at once (waits up to the busy timeout)
};

/// One open transaction on a Connection. Move-only; the connection must outlive it, and no
/// other BEGIN or COMMIT may run on the connection while it is open. The destructor rolls
/// back a transaction that was not committed (errors ignored, as on a cleanup path).
class Transaction {
 public:
  /// Begins a transaction on `db`. Throws SqliteError (e.g. SQLITE_BUSY after the busy
  /// timeout, or "cannot start a transaction within a transaction").
  explicit Transaction(Connection& db, Begin begin = Begin::kDeferred);
  Transaction(Transaction&& other) noexcept;
  Transaction& operator=(Transaction&&) = delete;
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  ~Transaction();

  /// Commits; the Transaction is finished afterwards. Throws SqliteError; the transaction
  /// is then rolled back.
  void commit();

 private:
  Connection* db_;  // null once committed, rolled back or moved from
};

}  // namespace db::sqlite
