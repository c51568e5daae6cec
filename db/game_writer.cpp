#include "db/game_writer.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "db/date_sql.h"
#include "db/errors.h"
#include "db/game_blocks.h"
#include "db/header_bitmaps.h"
#include "db/lmdb_cursor.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/site_name.h"

namespace db {

namespace {

FileLock lock_writer(const GameStore& store) {
  auto lock = FileLock::try_lock(store.file(schema::kWriterLockFile));
  if (!lock)
    throw Error("another writer (an import) is using the database " + store.dir().string());
  return std::move(*lock);
}

/// Deletes LMDB records above the committed count: leftovers of a process that died
/// between its LMDB and SQLite commits. Readers already ignore them.
void delete_uncommitted_records(GameStore& store, uint32_t committed) {
  lmdb::Txn txn = lmdb::Txn::begin_write(store.env());
  bool deleted = false;
  // Blocks never straddle a commit (game_blocks.h), but the cut is safe anyway.
  for (lmdb::Dbi dbi : {store.games(), store.signatures()})
    deleted |= blocks::truncate_above(txn, dbi, store.blocked(), committed);
  deleted |= blocks::truncate_above(txn, store.annotations(), false, committed);
  if (deleted) txn.commit();
}

int64_t unix_now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// An Elo for binding: NULL when zero (none).
std::optional<int64_t> elo(int value) {
  return value ? std::optional<int64_t>(value) : std::nullopt;
}

/// A players row as a header bitmap value (db/header_bitmaps.h; ids fit in 31 bits).
int32_t value_of(int64_t id) { return int32_t(std::clamp<int64_t>(id, kMinValue, kMaxValue)); }

/// The single-value range "column = id".
ValueRange value_is(HeaderColumn column, int64_t id) { return {column, value_of(id), value_of(id)}; }

/// Appends to `out` the ids (at most `max_id`) in both ascending `a` and `b`: each id of the
/// shorter looked up in the longer from where the last one was found.
void intersect_sorted(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, uint32_t max_id,
                      std::vector<uint32_t>& out) {
  const std::vector<uint32_t>& small = a.size() <= b.size() ? a : b;
  const std::vector<uint32_t>& large = a.size() <= b.size() ? b : a;
  auto at = large.begin();
  for (uint32_t id : small) {
    if (id > max_id) break;
    at = std::lower_bound(at, large.end(), id);
    if (at == large.end()) break;
    if (*at == id) out.push_back(id);
  }
}

/// A date part for binding: NULL when unknown.
std::optional<int64_t> part(std::optional<int> value) {
  return value ? std::optional<int64_t>(*value) : std::nullopt;
}

/// headers.sqlite opened for writing, with the tables of issue 17 B added if it predates them.
sqlite::Connection open_headers(const std::filesystem::path& file) {
  sqlite::Connection sql(file, sqlite::OpenMode::kReadWrite);
  schema::ensure_match_tables(sql);
  return sql;
}

/// games.flags of a record: bit 0 comments, bit 1 NAGs, bit 2 variations, bit 3 typed
/// clocks, bit 4 typed evaluations (issue 23); and the text of
/// its comments for the comment index (schema.h), each without its [%cmd ...] commands
/// (clock times, evaluations), separated by U+001F, blank ones left out. Fed the tokens of
/// RecordView::parse's check (typed comments without their text), so that add_game walks a
/// record once.
struct GameData {
  uint32_t flags = 0;
  std::string comments;

  void add(const Token& t) {
    if (t.kind == TokenKind::kNag) flags |= 2;
    if (t.kind != TokenKind::kComment && t.kind != TokenKind::kCommentBefore) return;
    if (t.annotation.bits & (kAnnClock | kAnnEmt)) flags |= 8;
    if (t.annotation.bits & kAnnEval) flags |= 16;
    flags |= 1;  // a clock comment is a comment too, as before issue 23
    if (t.annotation.bits && !(t.annotation.bits & kAnnRest)) return;  // no text to index
    std::string text;
    std::string_view c = t.annotation.bits ? t.annotation.rest : t.comment;
    while (!c.empty()) {
      const size_t open = c.find("[%");
      text.append(c.substr(0, open));
      if (open == std::string_view::npos) break;
      const size_t close = c.find(']', open);
      c = close == std::string_view::npos ? std::string_view() : c.substr(close + 1);
    }
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) return;
    if (!comments.empty()) comments += '\x1f';
    comments += text;
  }
};

}  // namespace

GameWriter::GameWriter(std::shared_ptr<GameStore> store, const WriterOptions& options)
    : store_(std::move(store)),
      lock_(lock_writer(*store_)),
      sql_(open_headers(store_->file(schema::kHeadersFile))),
      insert_game_(sql_,
                   "INSERT INTO games(id, file_id, ordinal, white_id, black_id, event_id, "
                   "site_id, date, year, month, day, round, result, white_elo, black_elo, eco, "
                   "plies, fen, variant, flags, site_suffix, opening_eco, opening_id) "
                   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, "
                   "?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23)"),
      insert_tags_(sql_, "INSERT INTO game_tag_lists(game_id, packed) VALUES(?1, ?2)"),
      insert_log_(sql_,
                  "INSERT INTO import_log(file_id, ordinal, line, move, reason, kind) "
                  "VALUES(?1, ?2, ?3, ?4, ?5, ?6)"),
      insert_import_(sql_,
                     "INSERT INTO imports(file_id, started, finished, games_read, imported, "
                     "rejected, warnings, skipped_duplicates) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
      insert_file_(sql_, "INSERT INTO files(path, imported_at) VALUES(?1, ?2) RETURNING id"),
      insert_source_(sql_,
                     "INSERT INTO files(path, imported_at, size, head_hash) VALUES(?1, ?2, ?3, ?4) RETURNING id"),
      set_committed_(sql_, "UPDATE meta SET value = ?2 WHERE key = ?1"),
      insert_comment_(sql_, "INSERT INTO comment_text(rowid, text) VALUES(?1, ?2)"),
      players_(sql_, NameKind::kPlayer),
      events_(sql_, NameKind::kEvent),
      sites_(sql_, NameKind::kSite),
      tag_names_(sql_, NameKind::kTagName),
      tag_values_(sql_) {
  schema::configure_writer(sql_);
  schema::create_player_eco_tables(sql_);
  openings_.emplace(sql_, NameKind::kOpening);
  committed_ = uint32_t(schema::read_meta(sql_, schema::kMetaCommittedGames).value_or(0));
  whole_url_sites_ = !schema::read_meta(sql_, schema::kMetaSiteSuffixes).has_value();
  delete_uncommitted_records(*store_, committed_);
  // The duplicate_keys table of issue 16's first version (a 32-bit key per game) is
  // replaced by the games_seg_white index (duplicate_index.h): a database that has it
  // loses it here (its pages go to the free list, reused by the games added next).
  sql_.exec("DROP TABLE IF EXISTS duplicate_keys");
  duplicate_lookup_.emplace(sql_);
  if (committed_ == 0 || options.defer_indexes) {
    // Bulk load: inserting into the secondary indexes row by row costs more than building
    // them once in finish().
    schema::drop_indexes(sql_);
    indexes_deferred_ = true;
  }
}

GameWriter::GameWriter(GameWriter&&) noexcept = default;

GameWriter::~GameWriter() {
  txn_.reset();     // aborts an uncommitted LMDB batch
  sql_.rollback();  // and its SQLite half
}

void GameWriter::check_usable() const {
  if (broken_) throw Error("GameWriter: unusable after an earlier failure rolled back a batch");
}

void GameWriter::fail() noexcept {
  record_block_.clear();
  signature_block_.clear();
  signature_updates_.clear();
  txn_.reset();
  sql_.rollback();
  pending_ = 0;
  broken_ = true;
}

void GameWriter::begin_sql() {
  if (!sql_.in_transaction()) sql_.exec("BEGIN");
}

std::pair<int64_t, std::string_view> GameWriter::site_parts(std::string_view site) {
  const std::optional<SiteParts> parts = split_site_url(site);
  if (!parts) return {sites_.id(site), {}};
  // A database made before the suffixes may hold the whole name already: its games use it.
  if (whole_url_sites_) {
    if (std::optional<int64_t> whole = sites_.find(site)) return {*whole, {}};
  }
  return {sites_.id(parts->prefix), parts->suffix};
}

int64_t GameWriter::file_id(std::string_view path) {
  if (last_file_id_ != 0 && path == last_file_) return last_file_id_;  // games come by file
  std::string key(path);
  int64_t id = 0;
  if (auto it = file_ids_.find(key); it != file_ids_.end()) {
    id = it->second;
  } else {
    insert_file_.bind(1, path);
    insert_file_.bind(2, unix_now());
    insert_file_.step();
    id = insert_file_.column_int64(0);
    insert_file_.reset();
    file_ids_.emplace(key, id);
  }
  last_file_ = std::move(key);
  last_file_id_ = id;
  return id;
}

uint32_t GameWriter::add_game(const GameHeader& header, std::string_view record,
                              std::string_view signature, std::string_view annotations) {
  check_usable();
  StageLap lap(times_);
  const uint32_t id = next_game_id();
  if (header.id != 0 && header.id != id)
    throw std::invalid_argument("GameWriter::add_game: header.id " + std::to_string(header.id) +
                                " but the next game id is " + std::to_string(id));
  GameData data;
  const RecordView view = RecordView::parse(record, annotations, [&](const Token& t) {
    if (!annotations.empty()) data.add(t);
  });  // throws CorruptRecord
  if (view.has_variations()) data.flags |= 4;
  const uint32_t plies = view.main_line_size();
  if (header.plies != plies)
    throw std::invalid_argument("GameWriter::add_game: header.plies " +
                                std::to_string(header.plies) + " but the record has " +
                                std::to_string(plies) + " main-line moves");
  if (view.has_annotations() && annotations.empty())
    throw CorruptRecord("game record has the annotations flag but no annotation record");
  try {
    lap.lap(Stage::kWriterOther);  // the record check
    if (!txn_) txn_ = lmdb::Txn::begin_write(store_->env());
    begin_sql();
    if (store_->blocked()) {
      // Into the open blocks (game_blocks.h); a full one goes to LMDB first.
      if (record_block_.full_for(record.size())) record_block_.flush(*txn_, store_->games());
      record_block_.add(id, record);
      if (signature_block_.full_for(signature.size()))
        signature_block_.flush(*txn_, store_->signatures());
      signature_block_.add(id, signature);  // empty: the game has none
    } else {
      if (!txn_->put(store_->games(), lmdb::integer_key(id), record, lmdb::kPutAppend))
        throw Error("GameWriter: game " + std::to_string(id) + " already in games.mdb");
      if (!signature.empty() &&
          !txn_->put(store_->signatures(), lmdb::integer_key(id), signature, lmdb::kPutAppend))
        throw Error("GameWriter: game " + std::to_string(id) + " already has a signature");
    }
    if (!annotations.empty() &&
        !txn_->put(store_->annotations(), lmdb::integer_key(id), annotations, lmdb::kPutAppend))
      throw Error("GameWriter: game " + std::to_string(id) + " already has annotations");
    lap.lap(Stage::kLmdb);

    // Names first (their own stage when timed), then the row.
    const int64_t source_id = file_id(header.source_file);
    const int64_t white_id = players_.id(header.white);
    const int64_t black_id = players_.id(header.black);
    last_white_id_ = white_id;
    last_black_id_ = black_id;
    const int64_t event_id = events_.id(header.event);
    const auto [site_id, site_suffix] = site_parts(header.site);
    const int64_t opening_id =
        !header.eco_class.empty() && !header.opening.empty() ? openings_->id(header.opening) : 0;
    if (!header.other_tags.empty()) {
      packed_tags_.clear();
      pack_tags(header.other_tags, tag_names_, tag_values_, packed_tags_);
    }
    lap.lap(Stage::kNames);
    const DateParts date = parse_pgn_date(header.date);
    insert_game_.bind(1, int64_t(id));
    insert_game_.bind(2, source_id);
    insert_game_.bind(3, int64_t(header.ordinal));
    insert_game_.bind(4, white_id);
    insert_game_.bind(5, black_id);
    insert_game_.bind(6, event_id);
    insert_game_.bind(7, site_id);
    // The date text is stored only when the year/month/day columns cannot rebuild it.
    if (header.date == canonical_pgn_date(date)) insert_game_.bind_null(8);
    else insert_game_.bind(8, header.date);
    insert_game_.bind(9, part(date.year));
    insert_game_.bind(10, part(date.month));
    insert_game_.bind(11, part(date.day));
    insert_game_.bind(12, header.round);
    insert_game_.bind(13, int64_t(result_code(header.result)));
    insert_game_.bind(14, elo(header.white_elo));
    insert_game_.bind(15, elo(header.black_elo));
    if (!header.eco.empty()) insert_game_.bind(16, header.eco);
    insert_game_.bind(17, int64_t(header.plies));
    if (!header.start_fen.empty()) insert_game_.bind(18, header.start_fen);
    if (!header.variant.empty()) insert_game_.bind(19, header.variant);
    insert_game_.bind(20, int64_t(data.flags));
    if (!site_suffix.empty()) insert_game_.bind(21, site_suffix);
    if (!header.eco_class.empty()) {
      insert_game_.bind(22, header.eco_class);
      if (!header.opening.empty()) insert_game_.bind(23, opening_id);
    }
    insert_game_.run();  // unbound parameters (16, 18, 19, 21, 22, 23) are NULL
    if (!data.comments.empty()) {
      insert_comment_.bind(1, int64_t(id));
      insert_comment_.bind(2, data.comments);
      insert_comment_.run();
    }

    if (!header.other_tags.empty()) {
      insert_tags_.bind(1, int64_t(id));
      insert_tags_.bind_blob(2, packed_tags_);
      insert_tags_.run();
    }
    lap.lap(Stage::kSqlite);
  } catch (...) {
    fail();
    throw;
  }
  ++pending_;
  return id;
}

std::optional<uint32_t> GameWriter::find_duplicate(const GameHeader& header,
                                                   std::string_view record) {
  check_usable();
  const RecordView view = RecordView::parse(record, std::string_view());  // throws CorruptRecord
  const DuplicateFields fields = duplicate_fields(header, view);
  // Duplicates have the same players rows: a name not stored yet has no duplicate.
  const std::optional<int64_t> white_id = players_.find(fields.white);
  const std::optional<int64_t> black_id = white_id ? players_.find(fields.black) : std::nullopt;
  if (!black_id) return std::nullopt;
  // Candidates: the games of both players rows. Those the header bitmaps cover (the
  // chain on disk, then this import's games in `fresh_bitmaps_`) are White's bitmap
  // intersected with Black's, then their length, date and result are read by id; games
  // in neither (bitmaps missing or behind) are found through games_seg_white.
  const uint32_t max_id = committed_ + pending_;
  if (!chain_opened_) {
    chain_opened_ = true;
    try {
      chain_bitmaps_ = HeaderBitmaps::open(store_->dir());
    } catch (const FormatError&) {
      chain_bitmaps_.reset();  // damaged: rebuilt by update_header_bitmaps; the index serves meanwhile
    }
  }
  std::vector<uint32_t> ids, candidates;
  uint32_t covered = chain_bitmaps_ ? std::min(chain_bitmaps_->covered(), max_id) : 0;
  if (covered) {
    try {
      intersect_sorted(chain_ids(HeaderColumn::kWhitePlayer, *white_id, covered),
                       chain_ids(HeaderColumn::kBlackPlayer, *black_id, covered), covered, candidates);
    } catch (const FormatError&) {
      chain_bitmaps_.reset();
      chain_ids_.clear();
      covered = 0;
      candidates.clear();
    }
  }
  const FreshHeaderBitmaps* fresh = fresh_bitmaps_;
  const bool use_fresh = fresh && !fresh->broken && fresh->first > covered && fresh->first <= max_id;
  const uint32_t gap_last = use_fresh ? fresh->first - 1 : max_id;
  if (use_fresh) {
    const std::vector<uint32_t>* w = fresh->builder.ids(HeaderColumn::kWhitePlayer, value_of(*white_id));
    const std::vector<uint32_t>* b = fresh->builder.ids(HeaderColumn::kBlackPlayer, value_of(*black_id));
    if (w && b) intersect_sorted(*w, *b, max_id, candidates);
  }
  for (uint32_t id : candidates)
    if (duplicate_lookup_->header_equal(fields, id)) ids.push_back(id);
  if (gap_last > covered) {
    if (!duplicate_index_) {
      // Once per writer, only for games no bitmap covers: without the index each lookup
      // would scan them.
      try {
        begin_sql();
        sql_.exec(kCreateDuplicateIndexSql);
      } catch (...) {
        fail();
        throw;
      }
      duplicate_index_ = true;
    }
    std::vector<uint32_t> gap;
    duplicate_lookup_->header_matches(fields, *white_id, *black_id, covered + 1, gap_last, gap);
    ids.insert(ids.end(), gap.begin(), gap.end());
    std::sort(ids.begin(), ids.end());
  }
  if (ids.empty()) return std::nullopt;
  // The batch's own LMDB transaction sees its uncommitted records; else a snapshot.
  std::optional<lmdb::Txn> read;
  if (!txn_) read = lmdb::Txn::begin_read(store_->env());
  const lmdb::Txn& txn = txn_ ? *txn_ : *read;
  DuplicateFields stored;
  for (uint32_t id : ids) {
    std::string_view bytes;
    if (auto open = record_block_.pending(id)) {
      bytes = *open;  // in the batch's open block, not in LMDB yet
    } else if (!blocks::read_value(txn, store_->games(), store_->blocked(), id, bytes)) {
      throw CorruptRecord("game " + std::to_string(id) + " has a games row but no record");
    }
    set_duplicate_moves(RecordView::parse(bytes, std::string_view()), stored);
    if (stored.moves == fields.moves && stored.start_fen == fields.start_fen) return id;
  }
  return std::nullopt;
}

const std::vector<uint32_t>& GameWriter::chain_ids(HeaderColumn column, int64_t player, uint32_t covered) {
  const uint64_t key = (uint64_t(column) << 32) | uint32_t(value_of(player));
  auto it = chain_ids_.find(key);
  if (it == chain_ids_.end()) {
    const std::vector<BitmapTerm> term = {{value_is(column, player)}};
    it = chain_ids_.emplace(key, chain_bitmaps_->select(term, covered)).first;
  }
  return it->second;
}

void GameWriter::add_log(const LogEntry& entry) {
  check_usable();
  try {
    begin_sql();
    insert_log_.bind(1, file_id(entry.source_file));
    insert_log_.bind(2, int64_t(entry.ordinal));
    insert_log_.bind(3, int64_t(entry.line));
    insert_log_.bind(4, entry.move);
    insert_log_.bind(5, entry.reason);
    insert_log_.bind(6, std::string_view(log_kind_text(entry.kind)));
    insert_log_.run();
  } catch (...) {
    fail();
    throw;
  }
}

void GameWriter::add_import(const ImportRun& run) {
  check_usable();
  try {
    begin_sql();
    insert_import_.bind(1, file_id(run.source_file));
    insert_import_.bind(2, run.started);
    insert_import_.bind(3, run.finished);
    insert_import_.bind(4, int64_t(run.games_read));
    insert_import_.bind(5, int64_t(run.imported));
    insert_import_.bind(6, int64_t(run.rejected));
    insert_import_.bind(7, int64_t(run.warnings));
    insert_import_.bind(8, int64_t(run.skipped_duplicates));
    insert_import_.run();
  } catch (...) {
    fail();
    throw;
  }
}

std::optional<ResumePoint> GameWriter::unfinished_import(const SourceIdentity& identity) {
  check_usable();
  sqlite::Statement file(sql_,
                         "SELECT id FROM files WHERE path = ?1 AND size = ?2 AND head_hash = ?3 AND "
                         "NOT EXISTS (SELECT 1 FROM imports WHERE imports.file_id = files.id) "
                         "ORDER BY id DESC LIMIT 1");
  file.bind(1, identity.path);
  file.bind(2, int64_t(identity.size));
  file.bind(3, identity.head_hash);
  if (!file.step()) return std::nullopt;
  ResumePoint r;
  r.file_id = file.column_int64(0);
  // A file's games have ascending ids and ordinals and are usually the newest: walk back.
  sqlite::Statement last_game(sql_, "SELECT ordinal FROM games WHERE file_id = ?1 ORDER BY id DESC LIMIT 1");
  last_game.bind(1, r.file_id);
  if (last_game.step()) r.last_ordinal = uint32_t(last_game.column_int64(0));
  sqlite::Statement last_log(sql_, "SELECT max(ordinal) FROM import_log WHERE file_id = ?1");
  last_log.bind(1, r.file_id);
  if (last_log.step() && !last_log.column_is_null(0))
    r.last_ordinal = std::max(r.last_ordinal, uint32_t(last_log.column_int64(0)));
  sqlite::Statement games(sql_, "SELECT count(*) FROM games WHERE file_id = ?1");
  games.bind(1, r.file_id);
  if (games.step()) r.games = uint64_t(games.column_int64(0));
  return r;
}

void GameWriter::begin_file(const SourceIdentity& identity, int64_t resume_file_id) {
  check_usable();
  try {
    int64_t id = resume_file_id;
    if (id == 0) {
      begin_sql();
      insert_source_.bind(1, identity.path);
      insert_source_.bind(2, unix_now());
      insert_source_.bind(3, int64_t(identity.size));
      insert_source_.bind(4, identity.head_hash);
      insert_source_.step();
      id = insert_source_.column_int64(0);
      insert_source_.reset();
    }
    file_ids_[identity.path] = id;
    last_file_ = identity.path;
    last_file_id_ = id;
  } catch (...) {
    fail();
    throw;
  }
}

void GameWriter::set_signature(uint32_t id, std::string_view signature) {
  check_usable();
  if (id == 0 || id > committed_)
    throw std::out_of_range("GameWriter::set_signature: game " + std::to_string(id) +
                            " is not committed (" + std::to_string(committed_) + " games)");
  try {
    if (!txn_) txn_ = lmdb::Txn::begin_write(store_->env());
    signature_updates_[id] = signature;  // put at commit(): each block rewritten once
  } catch (...) {
    fail();
    throw;
  }
}

void GameWriter::mark_signatures_current() {
  commit();
  try {
    lmdb::Txn txn = lmdb::Txn::begin_write(store_->env());
    txn.put(store_->meta(), schema::kMetaFormatVersion, std::to_string(schema::kFormatVersion));
    txn.put(store_->meta(), schema::kMetaSignatureFormatVersion,
            std::to_string(schema::kSignatureFormatVersion));
    txn.commit();
    sqlite::Statement update(sql_, "UPDATE meta SET value = ?2 WHERE key = ?1");
    update.bind(1, schema::kMetaFormatVersion);
    update.bind(2, int64_t(schema::kFormatVersion));
    update.run();
  } catch (...) {
    fail();
    throw;
  }
}

void GameWriter::commit() {
  check_usable();
  if (!txn_ && !sql_.in_transaction()) return;
  StageLap lap(times_);
  try {
    if (txn_) {
      // A block never holds games of two batches (game_blocks.h).
      record_block_.flush(*txn_, store_->games());
      signature_block_.flush(*txn_, store_->signatures());
      if (!signature_updates_.empty()) {
        blocks::replace_values(*txn_, store_->signatures(), store_->blocked(), signature_updates_);
        signature_updates_.clear();
      }
      txn_->commit();  // LMDB first (synced): SQLite may lag it, never lead it
      txn_.reset();
    }
    lap.lap(Stage::kLmdb);
    const uint32_t total = committed_ + pending_;
    if (sql_.in_transaction()) {  // not for a batch of set_signature() only
      set_committed_.bind(1, schema::kMetaCommittedGames);
      set_committed_.bind(2, int64_t(total));
      set_committed_.run();
      sql_.exec("COMMIT");
    }
    lap.lap(Stage::kSqlite);
    committed_ = total;
    pending_ = 0;
  } catch (...) {
    fail();
    throw;
  }
}

void GameWriter::finish() {
  commit();
  if (indexes_deferred_) {
    schema::create_indexes(sql_);
    indexes_deferred_ = false;
  }
  schema::checkpoint(sql_);
}

}  // namespace db
