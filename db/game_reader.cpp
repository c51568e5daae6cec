#include "db/game_reader.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "db/database.h"
#include "db/date_sql.h"
#include "db/errors.h"
#include "db/record_view.h"
#include "db/schema.h"

namespace db {

namespace {

[[noreturn]] void missing_record(uint32_t id) {
  throw CorruptRecord("game " + std::to_string(id) +
                          " is committed in headers.sqlite but missing from games.mdb",
                      id);
}

/// The CorruptRecord for an LMDB failure while reading the `what` of game `id`.
[[noreturn]] void unreadable(uint32_t id, const char* what, const LmdbError& e) {
  throw CorruptRecord("game " + std::to_string(id) + ": the " + what +
                          " cannot be read from games.mdb (" + e.what() + ")",
                      id);
}

/// The games row joined with its names (the site's with its suffix, db/site_name.h) and,
/// when the tables of issue 17 A exist (a database opened read-only before its first
/// writable open may lack them), the ECO classification.
std::string header_select(sqlite::Connection& sql) {
  const bool classified = schema::has_player_eco_tables(sql);
  // The classified code in games' own columns, or (a database whose game_openings is still
  // a table, opened read-only) joined from that table.
  const bool folded = classified && schema::has_opening_columns(sql);
  // A database made before the site suffixes and opened read-only may lack the column.
  const char* site = schema::has_site_suffix(sql) ? "s.name || IFNULL(g.site_suffix, ''), " : "s.name, ";
  return std::string("SELECT f.path, g.ordinal, w.name, b.name, e.name, ") + site + kPgnDateSql +
         ", g.round, g.result, g.white_elo, g.black_elo, g.eco, g.plies, g.fen, g.variant, " +
         (folded ? "g.opening_eco, o.name " : classified ? "go.eco, o.name " : "NULL, NULL ") +
         "FROM games g JOIN files f ON f.id = g.file_id "
         "JOIN players w ON w.id = g.white_id JOIN players b ON b.id = g.black_id "
         "JOIN events e ON e.id = g.event_id JOIN sites s ON s.id = g.site_id " +
         (folded       ? "LEFT JOIN openings o ON o.id = g.opening_id "
          : classified ? "LEFT JOIN game_openings go ON go.game_id = g.id "
                         "LEFT JOIN openings o ON o.id = go.opening_id "
                       : "") +
         "WHERE g.id = ?1";
}

}  // namespace

GameReader::GameReader(const Database& database)
    : store_(database.store_),
      sql_(store_->file(schema::kHeadersFile), sqlite::OpenMode::kReadOnly),
      count_query_(sql_, "SELECT value FROM meta WHERE key = ?1"),
      header_query_(sql_, header_select(sql_)),
      tags_query_(sql_, "SELECT name, value FROM tags WHERE game_id = ?1 ORDER BY seq") {
  open_snapshot();
}

GameReader::GameReader(GameReader&&) noexcept = default;
GameReader::~GameReader() = default;

void GameReader::open_snapshot() {
  // SQLite first: in WAL mode the first read inside BEGIN fixes the snapshot, which the
  // open transaction then keeps until refresh().
  sql_.exec("BEGIN");
  count_query_.bind(1, schema::kMetaCommittedGames);
  if (!count_query_.step()) throw FormatError("headers.sqlite has no committed_games entry");
  count_ = uint32_t(count_query_.column_int64(0));
  count_query_.reset();
  // LMDB second: it has committed at least as far as SQLite.
  if (txn_) {
    txn_->renew();
  } else {
    txn_ = lmdb::Txn::begin_read(store_->env());
  }
}

void GameReader::refresh() {
  record_blocks_.reset();
  signature_blocks_.reset();
  txn_->reset();
  sql_.exec("COMMIT");
  open_snapshot();
}

bool GameReader::record(uint32_t id, std::string_view& bytes) const {
  if (id == 0 || id > count_) return false;
  bool found = false;
  try {
    found = store_->blocked() ? record_blocks_.get(*txn_, store_->games(), id, bytes)
                              : txn_->get(store_->games(), lmdb::integer_key(id), bytes);
  } catch (const LmdbError& e) {
    record_blocks_.reset();
    unreadable(id, "record", e);
  }
  if (!found) missing_record(id);
  return true;
}

void GameReader::annotations(uint32_t id, std::string_view& bytes) const {
  bytes = {};
  if (id == 0 || id > count_) return;
  try {
    if (!txn_->get(store_->annotations(), lmdb::integer_key(id), bytes)) bytes = {};
  } catch (const LmdbError& e) {
    unreadable(id, "annotations", e);
  }
}

bool GameReader::record_view(uint32_t id, RecordView& out, bool with_annotations) const {
  std::string_view bytes;
  if (!record(id, bytes)) return false;
  try {
    out = RecordView::parse(bytes);  // the move record first: its faults are named as such
    if (with_annotations && out.has_annotations()) {
      std::string_view notes;
      annotations(id, notes);
      if (notes.empty())
        throw CorruptRecord("corrupt annotation record: the game has the flag but no record");
      out = RecordView::parse(bytes, notes);
    }
  } catch (const CorruptRecord& e) {
    throw e.with_game(id);
  }
  return true;
}

bool GameReader::read_record(uint32_t id, std::string& out) const {
  std::string_view bytes;
  if (!record(id, bytes)) return false;
  out.assign(bytes);
  return true;
}

bool GameReader::read_header(uint32_t id, GameHeader& out) {
  if (id == 0 || id > count_) return false;
  header_query_.bind(1, int64_t(id));
  if (!header_query_.step()) {
    header_query_.reset();
    throw CorruptRecord("game " + std::to_string(id) + " has no row in headers.sqlite", id);
  }
  out.id = id;
  out.source_file.assign(header_query_.column_text(0));
  out.ordinal = uint32_t(header_query_.column_int64(1));
  out.white.assign(header_query_.column_text(2));
  out.black.assign(header_query_.column_text(3));
  out.event.assign(header_query_.column_text(4));
  out.site.assign(header_query_.column_text(5));
  out.date.assign(header_query_.column_text(6));
  out.round.assign(header_query_.column_text(7));
  out.result.assign(result_text(ResultCode(header_query_.column_int64(8))));
  out.white_elo = int(header_query_.column_int64(9));
  out.black_elo = int(header_query_.column_int64(10));
  out.eco.assign(header_query_.column_text(11));
  out.plies = uint32_t(header_query_.column_int64(12));
  out.start_fen.assign(header_query_.column_text(13));
  out.variant.assign(header_query_.column_text(14));
  out.eco_class.assign(header_query_.column_text(15));
  out.opening.assign(header_query_.column_text(16));
  header_query_.reset();

  out.other_tags.clear();
  tags_query_.bind(1, int64_t(id));
  while (tags_query_.step())
    out.other_tags.emplace_back(tags_query_.column_text(0), tags_query_.column_text(1));
  tags_query_.reset();
  return true;
}

GameHeader GameReader::header(uint32_t id) {
  GameHeader header;
  if (!read_header(id, header))
    throw std::out_of_range("game " + std::to_string(id) + " is not in the database (" +
                            std::to_string(count_) + " games)");
  return header;
}

bool GameReader::signature(uint32_t id, std::string_view& bytes) const {
  if (id == 0 || id > count_) return false;
  try {
    if (!store_->blocked()) return txn_->get(store_->signatures(), lmdb::integer_key(id), bytes);
    // A block stores a game without a signature as an empty value.
    return signature_blocks_.get(*txn_, store_->signatures(), id, bytes) && !bytes.empty();
  } catch (const LmdbError& e) {
    signature_blocks_.reset();
    unreadable(id, "signature", e);
  }
}

GameReader::SignatureScan GameReader::scan_signatures(uint32_t first_id, uint32_t last_id) const {
  return SignatureScan(*txn_, store_->signatures(), store_->blocked(), std::max(first_id, 1u),
                       std::min(last_id, count_));
}

bool GameReader::SignatureScan::next_blocked(uint32_t& id, std::string_view& bytes) {
  try {
    // Past the block under the cursor (or none yet): the next block, by a seek the first
    // time (and after an error), else by stepping.
    while (!has_entry_ || block_.last_id() < next_id_) {
      has_entry_ = blocks::move_to_block(cursor_, started_ && has_entry_, next_id_, "signature", block_);
      started_ = true;
      if (!has_entry_) break;
    }
  } catch (const LmdbError& e) {
    started_ = false;
    has_entry_ = false;
    unreadable(next_id_++, "signature", e);
  } catch (const CorruptRecord&) {
    started_ = false;
    has_entry_ = false;
    ++next_id_;
    throw;
  }
  id = next_id_++;
  bytes = {};
  if (has_entry_ && block_.holds(id) && !block_.entry(id, bytes))
    blocks::throw_malformed(id, "signature");
  return true;
}

bool GameReader::SignatureScan::next(uint32_t& id, std::string_view& bytes) {
  if (next_id_ > last_id_) return false;
  if (blocked_) return next_blocked(id, bytes);
  std::string_view key;
  try {
    if (!started_) {
      has_entry_ = cursor_.seek(lmdb::integer_key(next_id_), key, entry_);
      started_ = true;
    } else if (has_entry_ && entry_id_ < next_id_) {
      has_entry_ = cursor_.next(key, entry_);
    } else {
      key = {};  // the cursor stays on an entry ahead of next_id_
    }
  } catch (const LmdbError& e) {
    started_ = false;
    has_entry_ = false;
    unreadable(next_id_++, "signature", e);
  }
  if (!key.empty()) {
    if (key.size() != sizeof entry_id_)
      throw FormatError("signatures sub-db has a key of " + std::to_string(key.size()) + " bytes");
    std::memcpy(&entry_id_, key.data(), sizeof entry_id_);
  }
  id = next_id_++;
  bytes = has_entry_ && entry_id_ == id ? entry_ : std::string_view();
  return true;
}

GameReader::Scan GameReader::scan(uint32_t first_id, uint32_t last_id) const {
  return Scan(*txn_, store_->games(), store_->blocked(), std::max(first_id, 1u),
              std::min(last_id, count_));
}

bool GameReader::Scan::next(uint32_t& id, std::string_view& bytes) {
  if (next_id_ > last_id_) return false;
  if (blocked_) {
    if (!block_.holds(next_id_)) {
      // The next block by stepping when the cursor's block ends just before next_id_.
      const bool step = started_ && block_.count() && block_.last_id() + 1 == next_id_;
      bool found = false;
      try {
        found = blocks::move_to_block(cursor_, step, next_id_, "record", block_);
      } catch (const LmdbError& e) {
        started_ = false;
        block_ = blocks::BlockView();
        unreadable(next_id_++, "record", e);
      } catch (const CorruptRecord&) {
        started_ = true;  // block_ holds none: the next call seeks
        ++next_id_;
        throw;
      }
      started_ = true;
      if (!found || !block_.holds(next_id_)) {
        block_ = blocks::BlockView();
        missing_record(next_id_++);
      }
    }
    id = next_id_++;
    if (!block_.entry(id, bytes)) blocks::throw_malformed(id, "record");
    return true;
  }
  std::string_view key;
  bool found = false;
  try {
    found = started_ ? cursor_.next(key, bytes)
                     : cursor_.seek(lmdb::integer_key(next_id_), key, bytes);
  } catch (const LmdbError& e) {
    started_ = false;  // a later call seeks (after the reader's refresh())
    unreadable(next_id_++, "record", e);
  }
  started_ = true;
  uint32_t found_id = 0;
  if (found && key.size() == sizeof found_id) std::memcpy(&found_id, key.data(), sizeof found_id);
  if (found_id != next_id_) {
    started_ = false;  // the next call seeks the id after the missing one
    missing_record(next_id_++);
  }
  id = next_id_++;
  return true;
}

}  // namespace db
