#include "db/sqlite_transaction.h"

#include <utility>

namespace db::sqlite {

Transaction::Transaction(Connection& db, Begin begin) : db_(&db) {
  db.exec(begin == Begin::kImmediate ? "BEGIN IMMEDIATE" : "BEGIN");
}

Transaction::Transaction(Transaction&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}

Transaction::~Transaction() {
  if (db_) db_->rollback();
}

void Transaction::commit() {
  db_->exec("COMMIT");  // when it throws, the destructor rolls back
  db_ = nullptr;
}

}  // namespace db::sqlite
