#include "analysis/analysis_cache.h"

#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "db/sqlite_transaction.h"

namespace analysis {

namespace {

constexpr const char* kSchema =
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);"
    "INSERT OR IGNORE INTO meta(key, value) VALUES('format', '1');"
    "CREATE TABLE IF NOT EXISTS evaluation("
    " engine TEXT NOT NULL, fen TEXT NOT NULL, mode INTEGER NOT NULL, lim INTEGER NOT NULL,"
    " kind INTEGER NOT NULL, score INTEGER NOT NULL,"
    " PRIMARY KEY(engine, fen, mode, lim)) WITHOUT ROWID;";

constexpr const char* kSelect =
    "SELECT kind, score FROM evaluation WHERE engine = ?1 AND fen = ?2 AND mode = ?3 AND lim = ?4";

constexpr const char* kInsert =
    "INSERT OR REPLACE INTO evaluation(engine, fen, mode, lim, kind, score) VALUES(?1, ?2, ?3, ?4, ?5, ?6)";

}  // namespace

struct AnalysisCache::Writer {
  db::sqlite::Connection db;
  db::sqlite::Statement insert;
  explicit Writer(const std::filesystem::path& file) : db(open(file)), insert(db, kInsert) {}
  /// The file with its tables, created when missing.
  static db::sqlite::Connection open(const std::filesystem::path& file) {
    db::sqlite::Connection c(file, db::sqlite::OpenMode::kReadWriteCreate);
    c.exec("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;");
    c.exec(kSchema);
    return c;
  }
};

struct AnalysisCache::Reader::Impl {
  db::sqlite::Connection db;
  db::sqlite::Statement select;
  explicit Impl(const std::filesystem::path& file)
      : db(file, db::sqlite::OpenMode::kReadOnly), select(db, kSelect) {}
};

AnalysisCache::AnalysisCache(const std::filesystem::path& file, std::string engine)
    : file_(file), engine_(std::move(engine)), writer_(std::make_unique<Writer>(file)) {}

AnalysisCache::~AnalysisCache() {
  try {
    flush();
  } catch (const std::exception&) {
    // a result that could not be written is searched again next time
  }
}

std::string AnalysisCache::pending_key(const AnalysisKey& key) {
  return key.fen + (key.mode == cql::EngineLimit::Depth ? "|d" : "|t") + std::to_string(key.limit);
}

AnalysisCache::Reader::Reader(AnalysisCache& cache)
    : cache_(cache), impl_(std::make_unique<Impl>(cache.file_)) {}

AnalysisCache::Reader::~Reader() = default;

bool AnalysisCache::Reader::find(const AnalysisKey& key, EngineScore& out) {
  {
    std::lock_guard lock(cache_.pending_mutex_);
    auto it = cache_.pending_index_.find(pending_key(key));
    if (it != cache_.pending_index_.end()) {
      out = it->second;
      return true;
    }
  }
  db::sqlite::Statement& s = impl_->select;
  s.bind(1, std::string_view(cache_.engine_));
  s.bind(2, std::string_view(key.fen));
  s.bind(3, int64_t(key.mode));
  s.bind(4, key.limit);
  bool found = s.step();
  if (found) {
    out.kind = EngineScore::Kind(s.column_int64(0));
    out.value = int32_t(s.column_int64(1));
  }
  s.reset();
  return found;
}

void AnalysisCache::add(const AnalysisKey& key, const EngineScore& score) {
  std::vector<std::pair<AnalysisKey, EngineScore>> batch;
  {
    std::lock_guard lock(pending_mutex_);
    pending_index_.emplace(pending_key(key), score);
    pending_.emplace_back(key, score);
    if (pending_.size() < kBatch) return;
    batch.swap(pending_);
  }
  std::lock_guard lock(write_mutex_);
  write(batch);
}

void AnalysisCache::flush() {
  std::vector<std::pair<AnalysisKey, EngineScore>> batch;
  {
    std::lock_guard lock(pending_mutex_);
    batch.swap(pending_);
  }
  if (batch.empty()) return;
  std::lock_guard lock(write_mutex_);
  write(batch);
}

void AnalysisCache::write(const std::vector<std::pair<AnalysisKey, EngineScore>>& batch) {
  Writer& w = *writer_;
  db::sqlite::Transaction txn(w.db, db::sqlite::Begin::kImmediate);
  for (const auto& [key, score] : batch) {
    w.insert.bind(1, std::string_view(engine_));
    w.insert.bind(2, std::string_view(key.fen));
    w.insert.bind(3, int64_t(key.mode));
    w.insert.bind(4, key.limit);
    w.insert.bind(5, int64_t(score.kind));
    w.insert.bind(6, int64_t(score.value));
    w.insert.run();
  }
  txn.commit();
}

}  // namespace analysis
