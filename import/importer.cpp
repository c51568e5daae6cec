#include "import/importer.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <pthread.h>
#include <time.h>

#include "db/database.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_diagnostic.h"
#include "import/pgn_splitter.h"
#include "import/source_identity.h"
#include "import/work_queue.h"

namespace import {

namespace {

constexpr size_t kGamesPerBatch = 256;       // raw games handed to a worker at a time
constexpr size_t kQueueBatches = 16;         // batches in flight per queue
constexpr size_t kSpareBatches = 2 * kQueueBatches;  // game vectors kept for reuse, per kind
constexpr size_t kFirstRejectionsShown = 10;

using Clock = std::chrono::steady_clock;

/// CPU seconds (user + system) the calling thread has used.
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// A run of consecutive raw games of one file, numbered for reordering.
struct RawBatch {
  uint64_t seq = 0;
  std::vector<RawGame> games;
};

/// The built games of a RawBatch.
struct BuiltBatch {
  uint64_t seq = 0;
  std::vector<BuiltGame> games;
  /// The position index entries of the stored games, in game order (BuiltGame::position_count
  /// each): one allocation a batch, handed whole to posindex::FreshPositions.
  std::vector<posindex::GameEntry> positions;
};

/// State shared by the threads importing one file.
struct FilePipeline {
  WorkQueue<RawBatch> raw{kQueueBatches};
  WorkQueue<BuiltBatch> built{kQueueBatches};
  std::atomic<uint64_t> bytes_done{0};
  uint64_t input_bytes = 0;  // decompressed bytes of the file, set when reading ends
  std::atomic<bool> stop{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  std::vector<std::string> stream_warnings;  // truncated compressed data etc.
  std::vector<PgnDiagnostic> orphan_warnings;
  // Game vectors of batches done with, for the next batches (issue 42: no allocation per
  // game): a raw game's text and a built game's strings and vectors keep their capacity,
  // so the splitter and the builders write into memory that is already there, and the
  // writer frees nothing. At most kSpareBatches of each kind are kept.
  std::mutex spare_mutex;
  std::vector<std::vector<RawGame>> spare_raw;
  std::vector<std::vector<BuiltGame>> spare_built;

  template <typename T>
  std::vector<T> take_spare(std::vector<std::vector<T>>& pool) {
    std::lock_guard lock(spare_mutex);
    if (pool.empty()) return {};
    std::vector<T> games = std::move(pool.back());
    pool.pop_back();
    return games;
  }
  template <typename T>
  void give_spare(std::vector<std::vector<T>>& pool, std::vector<T>&& games) {
    std::lock_guard lock(spare_mutex);
    if (pool.size() < kSpareBatches) pool.push_back(std::move(games));
  }

  // Threads' CPU seconds and, with ImportOptions::stage_times, the workers' stage ticks,
  // added by each thread as it ends (under error_mutex).
  double reader_cpu = 0;
  double workers_cpu = 0;
  db::StageTimes worker_stages;

  void fail(std::exception_ptr e) {
    std::lock_guard lock(error_mutex);
    if (!error) error = e;
    stop = true;
    raw.close();
    built.close();
  }
};

void read_file(InputStream input, FilePipeline& p, uint32_t skip_games) {
  pthread_setname_np(pthread_self(), "cqldb-read");
  try {
    PgnSplitter splitter{std::move(input)};
    uint64_t seq = 0;
    RawBatch batch;
    RawGame game;
    // Continuing an unfinished import: its first games are split (for their ordinals) only.
    for (uint32_t i = 0; i < skip_games && !p.stop && splitter.next(game); ++i) {
      if ((i & 1023) == 0) p.bytes_done = splitter.input().compressed_bytes_read();
    }
    // The games are split into the slots of a batch's vector, reused from an earlier batch
    // when one is spare (the splitter swaps its buffer with the slot's text: no allocation).
    batch.games = p.take_spare(p.spare_raw);
    size_t n = 0;  // games of `batch` filled
    for (;;) {
      if (n == batch.games.size()) batch.games.emplace_back();
      if (p.stop || !splitter.next(batch.games[n])) break;
      if (++n == kGamesPerBatch) {
        p.bytes_done = splitter.input().compressed_bytes_read();
        batch.games.resize(n);
        batch.seq = seq++;
        if (!p.raw.push(std::move(batch))) return;
        batch = RawBatch{};
        batch.games = p.take_spare(p.spare_raw);
        n = 0;
      }
    }
    batch.games.resize(n);
    if (!batch.games.empty()) {
      batch.seq = seq++;
      p.raw.push(std::move(batch));
    }
    p.bytes_done = splitter.input().compressed_bytes_read();
    p.input_bytes = splitter.input().bytes_read();
    p.stream_warnings = splitter.input().warnings();
    p.orphan_warnings = splitter.orphan_warnings();
  } catch (...) {
    p.fail(std::current_exception());
    return;
  }
  {
    std::lock_guard lock(p.error_mutex);
    p.reader_cpu += thread_cpu_seconds();
  }
  p.raw.close();
}

void build_games(const std::string& path, FilePipeline& p, const MovetextFilter& filter, bool timed) {
  pthread_setname_np(pthread_self(), "cqldb-parse");
  db::StageTimes stages;
  struct AddWhenDone {  // this thread's CPU and stage times, however it ends
    FilePipeline& p;
    db::StageTimes& stages;
    ~AddWhenDone() {
      std::lock_guard lock(p.error_mutex);
      p.workers_cpu += thread_cpu_seconds();
      p.worker_stages += stages;
    }
  } add_when_done{p, stages};
  try {
    GameBuilder builder(filter);
    if (timed) builder.set_stage_times(&stages);
    while (auto raw = p.raw.pop()) {
      BuiltBatch out;
      out.seq = raw->seq;
      out.games = p.take_spare(p.spare_built);  // overwritten game by game (GameBuilder::build)
      out.games.resize(raw->games.size());
      out.positions.reserve(raw->games.size() * (posindex::kIndexedPlies + 1));
      builder.set_position_sink(&out.positions);
      for (size_t i = 0; i < raw->games.size(); ++i) {
        const size_t mark = out.positions.size();
        builder.build(raw->games[i], path, out.games[i]);
        if (!out.games[i].stored) out.positions.resize(mark);
      }
      p.give_spare(p.spare_raw, std::move(raw->games));
      if (!p.built.push(std::move(out))) return;
    }
  } catch (...) {
    p.fail(std::current_exception());
  }
}

/// Writes games in file order and keeps the summary.
class BatchWriter {
 public:
  BatchWriter(db::GameWriter& writer, ImportSummary& summary, const ImportOptions& options,
              sig::FreshPostings& postings, db::FreshHeaderBitmaps& header_bitmaps,
              posindex::FreshPositions* positions)
      : writer_(writer), summary_(summary), options_(options), postings_(postings),
        header_bitmaps_(header_bitmaps), positions_(positions) {
    if (options_.stage_times) times_ = &summary_.writer_stages;
  }

  void write(BuiltBatch& batch, db::ImportRun& run) {
    db::StageLap batch_lap(times_);
    if (positions_) positions_->begin_batch(std::move(batch.positions));
    batch_lap.lap(db::Stage::kPositions);
    for (BuiltGame& g : batch.games) {
      ++summary_.games_read;
      ++run.games_read;
      // A duplicate is neither stored nor logged: only counted (its warnings are about a
      // game the database already has).
      if (g.stored && options_.skip_duplicates && writer_.find_duplicate(g.header, g.record)) {
        if (positions_) positions_->skip(g.position_count);
        ++summary_.skipped_duplicates;
        ++run.skipped_duplicates;
        continue;
      }
      for (const auto& [line, text] : g.warnings) warn(g.header.source_file, g.header.ordinal, line, text, run);
      if (g.stored) {
        AnnotationCounts& sum = summary_.annotations;
        sum.dropped_comments += g.counts.dropped_comments;
        sum.dropped_clocks += g.counts.dropped_clocks;
        sum.dropped_evals += g.counts.dropped_evals;
        sum.dropped_variations += g.counts.dropped_variations;
        sum.dropped_nags += g.counts.dropped_nags;
      }
      if (g.stored) {
        uint32_t id = writer_.add_game(g.header, g.record, g.signature, g.annotations);
        db::StageLap lap(times_);
        postings_.add(id, g.posting_keys);
        const auto [white_id, black_id] = writer_.last_player_ids();
        header_bitmaps_.add(id, db::header_values(g.header, white_id, black_id));
        lap.lap(db::Stage::kPostings);
        if (positions_)
          positions_->add(id, g.position_count, posindex::game_facts(g.header, g.positions.frontier, g.positions.flags));
        lap.lap(db::Stage::kPositions);
        AnnotationCounts& sum = summary_.annotations;
        sum.clocks += g.counts.clocks;
        sum.evals += g.counts.evals;
        summary_.games_with_clocks += g.counts.clocks != 0;
        summary_.games_with_evals += g.counts.evals != 0;
        if (!summary_.first_id) summary_.first_id = id;
        summary_.last_id = id;
        ++summary_.imported;
        ++run.imported;
        summary_.plies += g.header.plies;
      } else {
        db::LogEntry e{g.header.source_file, g.header.ordinal, g.line, g.move,
                       g.category + ": " + g.reason, db::LogKind::kRejected};
        writer_.add_log(e);
        ++summary_.rejected;
        ++run.rejected;
        ++summary_.reasons[g.category];
        if (summary_.first_rejections.size() < kFirstRejectionsShown)
          summary_.first_rejections.push_back({g.header.source_file, g.header.ordinal, g.line, g.move, e.reason});
      }
      if (writer_.pending_games() >= games_per_commit_) writer_.commit();
    }
  }

  void warn(const std::string& file, uint32_t ordinal, uint32_t line, const std::string& text,
            db::ImportRun& run) {
    writer_.add_log({file, ordinal, line, "", text, db::LogKind::kWarning});
    ++summary_.warnings;
    ++run.warnings;
    const std::string kind = text.substr(0, text.find(':'));
    if (is_repair_name(kind)) ++summary_.repairs[kind];
    ++summary_.warning_reasons[kind];
  }

 private:
  db::GameWriter& writer_;
  ImportSummary& summary_;
  const ImportOptions& options_;
  const uint32_t games_per_commit_ = commit_size(options_.games_per_commit, writer_.committed_games());
  sig::FreshPostings& postings_;
  db::FreshHeaderBitmaps& header_bitmaps_;  // the header bitmaps of the stored games
  posindex::FreshPositions* positions_;  // nullptr: no position index update
  db::StageTimes* times_ = nullptr;      // ImportOptions::stage_times: summary_.writer_stages
};

}  // namespace

uint32_t commit_size(uint32_t minimum, uint32_t stored) {
  return std::max(minimum, std::min(stored / 10, kMaxGamesPerCommit));
}

namespace {

ImportSummary import_paths(db::Database& database, db::GameWriter& writer, const std::vector<std::string>& paths,
                           const ImportOptions& options, const ProgressCallback& on_progress,
                           std::string& current_path);

}  // namespace

ImportSummary import_files(db::Database& database, const std::vector<std::string>& paths,
                           const ImportOptions& options, const ProgressCallback& on_progress) {
  db::GameWriter writer = database.writer();
  const uint32_t before = writer.committed_games();
  std::string current_path;
  try {
    return import_paths(database, writer, paths, options, on_progress, current_path);
  } catch (const std::exception& e) {
    if (!is_disk_full(e, database.path())) throw;
    const uint32_t stored = writer.committed_games();
    const auto commas = [](uint64_t n) {
      std::string d = std::to_string(n), out;
      for (size_t i = 0; i < d.size(); ++i) out += (i && (d.size() - i) % 3 == 0 ? "," : "") + std::string(1, d[i]);
      return out;
    };
    throw std::runtime_error(
        "no space left on device writing " + database.path().string() + " (" + e.what() + "). The database holds " +
        commas(stored) + " games, all committed and stored safely (" + commas(stored - before) +
        " of them from this import). Free some space, then run the same import again: it continues after the last "
        "committed game of " + (current_path.empty() ? std::string("the file") : current_path) +
        " and brings the indexes up to date (`--restart` would import the file again)");
  }
}

namespace {

ImportSummary import_paths(db::Database& database, db::GameWriter& writer, const std::vector<std::string>& paths,
                           const ImportOptions& options, const ProgressCallback& on_progress,
                           std::string& current_path) {
  const auto start = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  ImportSummary summary;
  sig::FreshPostings fresh_postings;  // the postings of the stored games, built as they are stored
  db::FreshHeaderBitmaps fresh_header_bitmaps;  // their header bitmaps (db/header_bitmaps.h), the same way
  // The position index entries of the stored games, complete segments written meanwhile.
  std::optional<posindex::FreshPositions> fresh_positions;
  if (options.position_index) fresh_positions.emplace(database, options.position_segment_games);
  BatchWriter batch_writer(writer, summary, options, fresh_postings, fresh_header_bitmaps,
                           fresh_positions ? &*fresh_positions : nullptr);
  if (options.stage_times) writer.set_stage_times(&summary.writer_stages);
  // Duplicate lookups search the games of this import in their fresh bitmaps.
  writer.set_fresh_header_bitmaps(&fresh_header_bitmaps);
  struct Untime {  // the writer outlives this summary and the fresh bitmaps when an error is thrown
    db::GameWriter& writer;
    ~Untime() {
      writer.set_stage_times(nullptr);
      writer.set_fresh_header_bitmaps(nullptr);
    }
  } untime{writer};
  const double writer_cpu_start = thread_cpu_seconds();
  const uint64_t ticks_start = db::stage_ticks();
  const double ticks_start_seconds = elapsed();
  unsigned workers = options.workers ? options.workers : std::thread::hardware_concurrency();
  if (workers == 0) workers = 1;
  double last_progress = -1;
  std::vector<db::ImportRun> finished_runs;  // the files read to their end

  for (const std::string& path : paths) {
    if (options.cancel && options.cancel->load()) break;
    FilePipeline p;
    current_path = path;
    // Opened once here (throws for a missing file) and read once by the reader thread: a
    // pipe cannot be opened a second time.
    InputStream input(path);
    // The same file as an import that stopped before its end: continue after its last
    // committed game (issue 40), unless --restart.
    uint32_t skip_games = 0;
    if (const std::optional<db::SourceIdentity> identity = source_identity(path)) {
      std::optional<db::ResumePoint> resume;
      if (!options.restart) resume = writer.unfinished_import(*identity);
      if (resume) {
        skip_games = resume->last_ordinal;
        summary.resumed.push_back({path, resume->last_ordinal, resume->games});
        // The games skipped are not read again: the position and posting catch-up must read
        // the stored ones (FreshPostings/FreshPositions see only this run's games).
      }
      writer.begin_file(*identity, resume ? resume->file_id : 0);
    }
    const uint64_t file_size = input.file_size();  // 0 for a pipe or standard input
    db::ImportRun run;
    run.source_file = path;
    run.started = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch()).count();

    std::thread reader(read_file, std::move(input), std::ref(p), skip_games);
    std::vector<std::thread> builders;
    for (unsigned i = 0; i < workers; ++i) builders.emplace_back(build_games, std::cref(path), std::ref(p), std::cref(options.filter),
                                            options.stage_times);
    std::thread closer([&] {
      for (auto& t : builders) t.join();
      p.built.close();
    });

    std::map<uint64_t, BuiltBatch> pending;  // batches that arrived before their turn
    uint64_t next_seq = 0;
    try {
      while (auto batch = p.built.pop()) {
        pending.emplace(batch->seq, std::move(*batch));
        for (auto it = pending.find(next_seq); it != pending.end(); it = pending.find(++next_seq)) {
          batch_writer.write(it->second, run);
          p.give_spare(p.spare_built, std::move(it->second.games));
          pending.erase(it);
        }
        if (on_progress && elapsed() - last_progress >= 0.1) {
          last_progress = elapsed();
          on_progress({path, summary.games_read, summary.imported, summary.rejected,
                       p.bytes_done.load(), file_size, last_progress});
        }
        if (options.cancel && options.cancel->load() && !p.stop) {
          summary.interrupted = true;
          p.stop = true;
          p.raw.close();
        }
      }
    } catch (...) {
      p.fail(std::current_exception());
    }
    reader.join();
    closer.join();
    if (p.error) std::rethrow_exception(p.error);
    summary.input_bytes += p.input_bytes;
    summary.reader_cpu_seconds += p.reader_cpu;
    summary.workers_cpu_seconds += p.workers_cpu;
    summary.worker_stages += p.worker_stages;
    if (!summary.interrupted && !pending.empty())
      throw std::logic_error("import pipeline lost batches of " + path);
    for (const std::string& w : p.stream_warnings) batch_writer.warn(path, 0, 0, "input: " + w, run);
    for (const PgnDiagnostic& d : p.orphan_warnings)
      batch_writer.warn(path, 0, d.line, std::string(issue_name(d.issue)) + ": " + d.message, run);
    run.finished = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch()).count();
    // A file's imports row, which marks it finished, is written once the indexes have caught
    // up (below): an import killed before that, or interrupted, is continued when run again.
    if (!summary.interrupted) finished_runs.push_back(run);
    writer.commit();
    if (on_progress)
      on_progress({path, summary.games_read, summary.imported, summary.rejected,
                   p.bytes_done.load(), file_size, elapsed()});
  }
  const double before_finish = elapsed();
  summary.stream_seconds = before_finish;
  summary.writer_cpu_seconds = thread_cpu_seconds() - writer_cpu_start;
  if (before_finish > ticks_start_seconds)
    summary.ticks_per_second = double(db::stage_ticks() - ticks_start) / (before_finish - ticks_start_seconds);
  writer.set_stage_times(nullptr);
  // The position index is completed meanwhile (its last segment, facts and manifest).
  if (fresh_positions) fresh_positions->end_stream(database);
  writer.finish();
  // The posting index catches up with the new games (still under the writer lock).
  summary.postings = sig::update_postings(database, /*rebuild=*/false, &fresh_postings);
  summary.header_bitmaps = db::update_header_bitmaps(database, /*rebuild=*/false, &fresh_header_bitmaps);
  // Game sides join the player list and get their title tags (issue 17 A, headers/players.h).
  {
    db::sqlite::Connection sql(database.path() / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    summary.player_links = headers::players::link_games(sql, headers::players::LinkScope::kNewGames);
  }
  if (fresh_positions) summary.positions = posindex::update_position_index(database, *fresh_positions);
  for (const db::ImportRun& run : finished_runs) writer.add_import(run);
  writer.commit();
  summary.seconds = elapsed();
  summary.finish_seconds = summary.seconds - before_finish;
  return summary;
}

}  // namespace

}  // namespace import
