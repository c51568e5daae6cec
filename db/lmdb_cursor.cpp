#include "db/lmdb_cursor.h"

#include <lmdb.h>

#include <utility>

#include "db/errors.h"

namespace db::lmdb {

Cursor::Cursor(const Txn& txn, Dbi dbi) {
  if (int rc = mdb_cursor_open(txn.handle(), dbi.handle, &cursor_); rc != 0)
    throw LmdbError("mdb_cursor_open", rc);
}

Cursor::Cursor(Cursor&& other) noexcept : cursor_(std::exchange(other.cursor_, nullptr)) {}

Cursor& Cursor::operator=(Cursor&& other) noexcept {
  if (this != &other) {
    if (cursor_) mdb_cursor_close(cursor_);
    cursor_ = std::exchange(other.cursor_, nullptr);
  }
  return *this;
}

Cursor::~Cursor() {
  if (cursor_) mdb_cursor_close(cursor_);
}

bool Cursor::get(std::string_view* target, std::string_view& key, std::string_view& value, int op) {
  MDB_val k{0, nullptr}, v{0, nullptr};
  if (target) k = MDB_val{target->size(), const_cast<char*>(target->data())};
  int rc = mdb_cursor_get(cursor_, &k, &v, MDB_cursor_op(op));
  if (rc == MDB_NOTFOUND) return false;
  if (rc != 0) throw LmdbError("mdb_cursor_get", rc);
  key = {static_cast<const char*>(k.mv_data), k.mv_size};
  value = {static_cast<const char*>(v.mv_data), v.mv_size};
  return true;
}

bool Cursor::first(std::string_view& key, std::string_view& value) {
  return get(nullptr, key, value, MDB_FIRST);
}

bool Cursor::last(std::string_view& key, std::string_view& value) {
  return get(nullptr, key, value, MDB_LAST);
}

bool Cursor::next(std::string_view& key, std::string_view& value) {
  return get(nullptr, key, value, MDB_NEXT);
}

bool Cursor::seek(std::string_view target, std::string_view& key, std::string_view& value) {
  return get(&target, key, value, MDB_SET_RANGE);
}

void Cursor::del() {
  if (int rc = mdb_cursor_del(cursor_, 0); rc != 0) throw LmdbError("mdb_cursor_del", rc);
}

}  // namespace db::lmdb
