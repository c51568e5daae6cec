#include "db/game_store.h"

#include <charconv>
#include <optional>
#include <string>

#include "db/errors.h"
#include "db/record_format.h"
#include "db/schema.h"

namespace db {

namespace {

/// The decimal value stored under `key` in the meta sub-db, nullopt when absent.
std::optional<int64_t> read_version(const lmdb::Txn& txn, lmdb::Dbi meta, std::string_view key) {
  std::string_view value;
  if (!txn.get(meta, key, value)) return std::nullopt;
  int64_t number = -1;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), number);
  if (ec != std::errc() || end != value.data() + value.size()) return -1;  // a mismatch
  return number;
}

}  // namespace

std::shared_ptr<GameStore> GameStore::open(const std::filesystem::path& dir, bool read_only) {
  const std::filesystem::path path = dir / schema::kGamesFile;
  const std::string what = path.string();
  if (read_only && !std::filesystem::exists(path))
    throw FormatError(what + " is missing: not a cqldb database");
  lmdb::EnvOptions options;
  options.read_only = read_only;
  std::shared_ptr<GameStore> store(new GameStore(dir, lmdb::Env::open(path, options)));

  const std::string version = std::to_string(schema::kFormatVersion);
  const std::string record_version = std::to_string(kRecordFormatVersion);
  if (read_only) {
    lmdb::Txn txn = lmdb::Txn::begin_read(store->env_);
    auto games = txn.open_dbi(schema::kGamesDbi, lmdb::kDbiIntegerKey);
    auto meta = txn.open_dbi(schema::kMetaDbi);
    if (!games || !meta)
      throw FormatError(what + " has no games/meta tables: not a cqldb database");
    store->games_ = *games;
    schema::check_format_version(read_version(txn, *meta, schema::kMetaFormatVersion),
                                 schema::kFormatVersion, what);
    schema::check_format_version(read_version(txn, *meta, schema::kMetaRecordFormatVersion),
                                 kRecordFormatVersion, what + " (game records)");
    txn.commit();  // keeps the sub-db handles (aborting would close them)
    return store;
  }

  lmdb::Txn txn = lmdb::Txn::begin_write(store->env_);
  store->games_ = *txn.open_dbi(schema::kGamesDbi, lmdb::kDbiCreate | lmdb::kDbiIntegerKey);
  const lmdb::Dbi meta = *txn.open_dbi(schema::kMetaDbi, lmdb::kDbiCreate);
  auto found = read_version(txn, meta, schema::kMetaFormatVersion);
  if (!found && txn.entries(store->games_) == 0) {  // a new store: stamp it
    txn.put(meta, schema::kMetaFormatVersion, version);
    txn.put(meta, schema::kMetaRecordFormatVersion, record_version);
    found = schema::kFormatVersion;
  }
  schema::check_format_version(found, schema::kFormatVersion, what);
  schema::check_format_version(read_version(txn, meta, schema::kMetaRecordFormatVersion),
                               kRecordFormatVersion, what + " (game records)");
  txn.commit();
  return store;
}

uint64_t GameStore::record_entries() const {
  lmdb::Txn txn = lmdb::Txn::begin_read(env_);
  return txn.entries(games_);
}

}  // namespace db
