#include "db/game_store.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>

#include "db/errors.h"
#include "db/game_blocks.h"
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

std::shared_ptr<GameStore> GameStore::open(const std::filesystem::path& dir, bool read_only,
                                           bool for_reindex) {
  const std::filesystem::path path = dir / schema::kGamesFile;
  const std::string what = path.string();
  if (read_only && !std::filesystem::exists(path))
    throw FormatError(what + " is missing: not a cqldb database");
  lmdb::EnvOptions options;
  options.read_only = read_only;
  std::shared_ptr<GameStore> store(new GameStore(dir, lmdb::Env::open(path, options)));

  // Checks the versions read in `txn`; `format` is the layout version found.
  auto check_versions = [&](const lmdb::Txn& txn, std::optional<int64_t> format) {
    if (for_reindex && format && *format >= schema::kOldestUpgradableFormatVersion &&
        *format <= schema::kFormatVersion) {
      store->signatures_outdated_ = *format != schema::kFormatVersion;
    } else {
      schema::check_format_version(format, schema::kFormatVersion, what, dir.string());
    }
    schema::check_record_format_version(
        read_version(txn, store->meta_, schema::kMetaRecordFormatVersion), what + " (game records)");
    const auto signatures = read_version(txn, store->meta_, schema::kMetaSignatureFormatVersion);
    if (signatures == int64_t(schema::kSignatureFormatVersion)) return;
    if (for_reindex) {
      store->signatures_outdated_ = true;
      return;
    }
    throw FormatError(what + " holds signatures of format version " +
                      (signatures ? std::to_string(*signatures) : "(none)") +
                      " but this cqldb reads version " +
                      std::to_string(schema::kSignatureFormatVersion) +
                      "; rebuild them with `cqldb reindex --db " + dir.string() + "`");
  };

  if (read_only) {
    lmdb::Txn txn = lmdb::Txn::begin_read(store->env_);
    auto games = txn.open_dbi(schema::kGamesDbi, lmdb::kDbiIntegerKey);
    auto meta = txn.open_dbi(schema::kMetaDbi);
    if (!games || !meta)
      throw FormatError(what + " has no games/meta tables: not a cqldb database");
    store->games_ = *games;
    store->meta_ = *meta;
    check_versions(txn, read_version(txn, *meta, schema::kMetaFormatVersion));
    auto signatures = txn.open_dbi(schema::kSignaturesDbi, lmdb::kDbiIntegerKey);
    if (!signatures)
      throw FormatError(what + " has no signatures table; add it with `cqldb reindex --db " +
                        dir.string() + "`");
    store->signatures_ = *signatures;
    auto annotations = txn.open_dbi(schema::kAnnotationsDbi, lmdb::kDbiIntegerKey);
    if (!annotations)
      throw FormatError(what + " has no annotations table: import the PGN files again into a "
                        "new database");
    store->annotations_ = *annotations;
    store->record_format_ = uint32_t(
        read_version(txn, *meta, schema::kMetaRecordFormatVersion).value_or(kRecordFormatVersion));
    txn.commit();  // keeps the sub-db handles (aborting would close them)
    return store;
  }

  lmdb::Txn txn = lmdb::Txn::begin_write(store->env_);
  store->games_ = *txn.open_dbi(schema::kGamesDbi, lmdb::kDbiCreate | lmdb::kDbiIntegerKey);
  store->meta_ = *txn.open_dbi(schema::kMetaDbi, lmdb::kDbiCreate);
  auto found = read_version(txn, store->meta_, schema::kMetaFormatVersion);
  if (!found && txn.entries(store->games_) == 0) {  // a new store: stamp it
    txn.put(store->meta_, schema::kMetaFormatVersion, std::to_string(schema::kFormatVersion));
    txn.put(store->meta_, schema::kMetaRecordFormatVersion, std::to_string(kRecordFormatVersion));
    txn.put(store->meta_, schema::kMetaSignatureFormatVersion,
            std::to_string(schema::kSignatureFormatVersion));
    found = schema::kFormatVersion;
  }
  check_versions(txn, found);
  // A store of older records opened for writing may get records of the newest per-game
  // version: stamp it (all stay readable, record_format.h kOldestRecordFormatVersion). It
  // keeps one entry a game: blocks are for stores created with them.
  const int64_t records =
      read_version(txn, store->meta_, schema::kMetaRecordFormatVersion).value_or(kRecordFormatVersion);
  if (records < int64_t(kLastPerGameRecordFormatVersion))
    txn.put(store->meta_, schema::kMetaRecordFormatVersion,
            std::to_string(kLastPerGameRecordFormatVersion));
  store->record_format_ = uint32_t(std::max<int64_t>(records, kLastPerGameRecordFormatVersion));
  // Created here for a new store, or for an old one being upgraded by a reindex (the
  // checks above threw otherwise, and the transaction then aborts).
  store->signatures_ =
      *txn.open_dbi(schema::kSignaturesDbi, lmdb::kDbiCreate | lmdb::kDbiIntegerKey);
  store->annotations_ =
      *txn.open_dbi(schema::kAnnotationsDbi, lmdb::kDbiCreate | lmdb::kDbiIntegerKey);
  txn.commit();
  return store;
}

uint64_t GameStore::record_entries() const {
  lmdb::Txn txn = lmdb::Txn::begin_read(env_);
  return blocks::last_id(txn, games_);
}

}  // namespace db
