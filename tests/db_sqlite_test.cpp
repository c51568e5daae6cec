// The SQLite wrappers: bound parameters, NULLs, reuse after reset, and errors that carry
// the C function, SQLite's message and the SQL.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "db/errors.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "db/sqlite_transaction.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using db::sqlite::Connection;
using db::sqlite::OpenMode;
using db::sqlite::Statement;

class SqliteTest : public testing::Test {
 protected:
  SqliteTest() {
    db_ = std::make_unique<Connection>(dir_ / "t.sqlite", OpenMode::kReadWriteCreate);
    db_->exec("CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT UNIQUE, n INTEGER)");
  }
  ~SqliteTest() override {
    db_.reset();
  }

  /// what() of the SqliteError thrown by `f`.
  template <typename F>
  std::string error_of(F&& f) {
    try {
      f();
    } catch (const db::SqliteError& e) {
      return e.what();
    }
    ADD_FAILURE() << "no SqliteError";
    return {};
  }

  cqltest::TempDir tmp_{"sqlite"};
  fs::path dir_ = tmp_.path;
  std::unique_ptr<Connection> db_;
};

TEST_F(SqliteTest, BindStepColumn) {
  Statement insert(*db_, "INSERT INTO t(name, n) VALUES(?1, ?2)");
  insert.bind(1, std::string_view("alpha"));
  insert.bind(2, int64_t(42));
  insert.run();
  insert.bind(1, std::string_view(""));
  insert.bind(2, std::optional<int64_t>());
  insert.run();
  insert.bind(1, std::string_view("it's; DROP TABLE t"));  // bound, never spliced
  insert.run();                                            // reset() cleared parameter 2: NULL

  Statement select(*db_, "SELECT name, n FROM t ORDER BY id");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), "alpha");
  EXPECT_EQ(select.column_int64(1), 42);
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), "");
  EXPECT_FALSE(select.column_is_null(0));
  EXPECT_TRUE(select.column_is_null(1));
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), "it's; DROP TABLE t");
  EXPECT_TRUE(select.column_is_null(1));
  EXPECT_FALSE(select.step());
  select.reset();
  EXPECT_TRUE(select.step());  // reusable after reset
}

TEST_F(SqliteTest, ErrorsCarryFunctionMessageAndSql) {
  std::string prepare = error_of([&] { Statement bad(*db_, "SELEKT 1"); });
  EXPECT_NE(prepare.find("sqlite3_prepare_v3"), std::string::npos) << prepare;
  EXPECT_NE(prepare.find("syntax error"), std::string::npos) << prepare;
  EXPECT_NE(prepare.find("SELEKT 1"), std::string::npos) << prepare;

  Statement insert(*db_, "INSERT INTO t(name) VALUES(?1)");
  insert.bind(1, std::string_view("dup"));
  insert.run();
  insert.bind(1, std::string_view("dup"));
  std::string step = error_of([&] { insert.run(); });
  EXPECT_NE(step.find("sqlite3_step"), std::string::npos) << step;
  EXPECT_NE(step.find("UNIQUE constraint failed"), std::string::npos) << step;
  EXPECT_NE(step.find("INSERT INTO t(name)"), std::string::npos) << step;
  insert.bind(1, std::string_view("fine"));
  EXPECT_NO_THROW(insert.run());  // usable after a failed step

  std::string exec = error_of([&] { db_->exec("CREATE TABLE t(x)"); });
  EXPECT_NE(exec.find("sqlite3_exec"), std::string::npos) << exec;

  Statement rows(*db_, "SELECT 1");
  EXPECT_THROW(rows.run(), db::SqliteError);
}

TEST_F(SqliteTest, TransactionsAndRollback) {
  db_->exec("BEGIN");
  EXPECT_TRUE(db_->in_transaction());
  db_->exec("INSERT INTO t(name) VALUES('x')");
  db_->rollback();
  EXPECT_FALSE(db_->in_transaction());
  db_->rollback();  // no-op outside a transaction
  Statement count(*db_, "SELECT count(*) FROM t");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int64(0), 0);
}

TEST_F(SqliteTest, ReadOnlyConnectionCannotWrite) {
  Connection ro(dir_ / "t.sqlite", OpenMode::kReadOnly);
  EXPECT_THROW(ro.exec("INSERT INTO t(name) VALUES('x')"), db::SqliteError);
  EXPECT_THROW(Connection(dir_ / "absent.sqlite", OpenMode::kReadOnly), db::SqliteError);
}

}  // namespace

namespace {

int64_t row_count(Connection& db) {
  Statement count(db, "SELECT COUNT(*) FROM t");
  return count.step() ? count.column_int64(0) : -1;
}

TEST_F(SqliteTest, TransactionRollsBackUnlessCommitted) {
  using db::sqlite::Begin;
  using db::sqlite::Transaction;
  {
    Transaction txn(*db_, Begin::kImmediate);
    db_->exec("INSERT INTO t(name) VALUES('kept')");
    txn.commit();
  }
  EXPECT_FALSE(db_->in_transaction());
  EXPECT_EQ(row_count(*db_), 1);
  try {
    Transaction txn(*db_);
    db_->exec("INSERT INTO t(name) VALUES('lost')");
    db_->exec("INSERT INTO t(name) VALUES('kept')");  // UNIQUE: throws before the commit
    txn.commit();
    ADD_FAILURE() << "no SqliteError";
  } catch (const db::SqliteError&) {
  }
  EXPECT_FALSE(db_->in_transaction());  // the destructor rolled back 'lost' too
  EXPECT_EQ(row_count(*db_), 1);
  {
    Transaction outer(*db_);
    EXPECT_THROW(Transaction inner(*db_), db::SqliteError);  // no nesting
  }
  EXPECT_FALSE(db_->in_transaction());
}

}  // namespace
