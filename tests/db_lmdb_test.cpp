// The LMDB wrappers: transactions abort unless committed, not-found is a return value,
// failures name the C function, integer keys sort numerically.
#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "db/errors.h"
#include "db/lmdb_cursor.h"
#include "db/lmdb_env.h"
#include "db/lmdb_txn.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using db::lmdb::Cursor;
using db::lmdb::Dbi;
using db::lmdb::Env;
using db::lmdb::Txn;

class LmdbTest : public testing::Test {
 protected:
  LmdbTest() {
    env_ = std::make_unique<Env>(Env::open(dir_ / "test.mdb"));
    Txn txn = Txn::begin_write(*env_);
    dbi_ = *txn.open_dbi("ints", db::lmdb::kDbiCreate | db::lmdb::kDbiIntegerKey);
    txn.commit();
  }
  ~LmdbTest() override {
    env_.reset();
  }

  cqltest::TempDir tmp_{"lmdb"};
  fs::path dir_ = tmp_.path;
  std::unique_ptr<Env> env_;
  Dbi dbi_;
};

TEST_F(LmdbTest, TxnAbortsUnlessCommitted) {
  const uint32_t key = 7;
  {
    Txn txn = Txn::begin_write(*env_);
    EXPECT_TRUE(txn.put(dbi_, db::lmdb::integer_key(key), "seven"));
  }  // destroyed without commit
  Txn read = Txn::begin_read(*env_);
  std::string_view value;
  EXPECT_FALSE(read.get(dbi_, db::lmdb::integer_key(key), value));
  read.abort();

  Txn txn = Txn::begin_write(*env_);
  txn.put(dbi_, db::lmdb::integer_key(key), "seven");
  txn.commit();
  EXPECT_FALSE(txn.active());
  Txn again = Txn::begin_read(*env_);
  ASSERT_TRUE(again.get(dbi_, db::lmdb::integer_key(key), value));
  EXPECT_EQ(value, "seven");
}

TEST_F(LmdbTest, NotFoundIsAReturnValue) {
  Txn txn = Txn::begin_write(*env_);
  const uint32_t key = 1;
  std::string_view value;
  EXPECT_FALSE(txn.get(dbi_, db::lmdb::integer_key(key), value));
  EXPECT_FALSE(txn.del(dbi_, db::lmdb::integer_key(key)));
  EXPECT_FALSE(txn.open_dbi("no such table").has_value());
  EXPECT_TRUE(txn.put(dbi_, db::lmdb::integer_key(key), "a"));
  EXPECT_FALSE(txn.put(dbi_, db::lmdb::integer_key(key), "b", db::lmdb::kPutNoOverwrite));
  const uint32_t smaller = 0;
  EXPECT_FALSE(txn.put(dbi_, db::lmdb::integer_key(smaller), "c", db::lmdb::kPutAppend));
  ASSERT_TRUE(txn.get(dbi_, db::lmdb::integer_key(key), value));
  EXPECT_EQ(value, "a");
  EXPECT_TRUE(txn.del(dbi_, db::lmdb::integer_key(key)));
  EXPECT_EQ(txn.entries(dbi_), 0u);
}

TEST_F(LmdbTest, IntegerKeysSortNumericallyUnderACursor) {
  Txn txn = Txn::begin_write(*env_);
  for (uint32_t key : {65536u, 1u, 256u, 2u})
    txn.put(dbi_, db::lmdb::integer_key(key), std::to_string(key));
  txn.commit();

  Txn read = Txn::begin_read(*env_);
  Cursor cursor(read, dbi_);
  std::string_view key, value;
  std::string order;
  for (bool ok = cursor.first(key, value); ok; ok = cursor.next(key, value))
    order += std::string(value) + " ";
  EXPECT_EQ(order, "1 2 256 65536 ");
  const uint32_t target = 3;
  ASSERT_TRUE(cursor.seek(db::lmdb::integer_key(target), key, value));
  EXPECT_EQ(value, "256");
  ASSERT_TRUE(cursor.last(key, value));
  EXPECT_EQ(value, "65536");
  const uint32_t beyond = 70000;
  EXPECT_FALSE(cursor.seek(db::lmdb::integer_key(beyond), key, value));
}

TEST_F(LmdbTest, ResetAndRenewTakeANewSnapshot) {
  Txn read = Txn::begin_read(*env_);
  const uint32_t key = 9;
  std::string_view value;
  EXPECT_FALSE(read.get(dbi_, db::lmdb::integer_key(key), value));
  Txn txn = Txn::begin_write(*env_);
  txn.put(dbi_, db::lmdb::integer_key(key), "nine");
  txn.commit();
  EXPECT_FALSE(read.get(dbi_, db::lmdb::integer_key(key), value));  // old snapshot
  read.reset();
  EXPECT_FALSE(read.active());
  read.renew();
  ASSERT_TRUE(read.get(dbi_, db::lmdb::integer_key(key), value));
  EXPECT_EQ(value, "nine");
}

TEST_F(LmdbTest, FailuresNameTheFunction) {
  try {
    Env::open(dir_ / "missing-dir" / "x.mdb");
    FAIL() << "no exception";
  } catch (const db::LmdbError& e) {
    EXPECT_NE(std::string(e.what()).find("mdb_env_open"), std::string::npos) << e.what();
    EXPECT_NE(e.code(), 0);
  }
}

TEST_F(LmdbTest, MapIsReservedNotAllocated) {
  EXPECT_EQ(env_->map_size(), uint64_t(1) << 40);
  EXPECT_LT(fs::file_size(dir_ / "test.mdb"), uint64_t(1) << 20);
  EXPECT_GT(env_->used_bytes(), 0u);
}

// Issue 14: a truncated file made the first read through the map raise SIGBUS; opening now
// compares the file with the pages its meta page counts as used.
TEST_F(LmdbTest, TruncatedFileIsAFormatErrorNamingTheFile) {
  {
    Txn txn = Txn::begin_write(*env_);
    const std::string value(1000, 'x');
    for (uint32_t key = 0; key < 2000; ++key) txn.put(dbi_, db::lmdb::integer_key(key), value);
    txn.commit();
  }
  const uint64_t used = env_->used_bytes();
  env_.reset();
  const fs::path file = dir_ / "test.mdb";
  ASSERT_GE(fs::file_size(file), used);
  EXPECT_NO_THROW(Env::open(file, {.read_only = true}));  // a whole file opens
  fs::resize_file(file, fs::file_size(file) / 2);
  for (bool read_only : {true, false}) {
    try {
      Env::open(file, {.read_only = read_only});
      ADD_FAILURE() << "a truncated file opened";
    } catch (const db::FormatError& e) {
      const std::string what = e.what();
      EXPECT_EQ(what.rfind(file.string() + " is damaged (truncated): it has " +
                               std::to_string(fs::file_size(file)) + " bytes but its last used page",
                           0),
                0u)
          << what;
      EXPECT_NE(what.find("needs " + std::to_string(used) + " bytes"), std::string::npos) << what;
    }
  }
}

}  // namespace
