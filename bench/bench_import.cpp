// Import benchmark: imports PGN files (default: the players corpus, 344,248 games) into a
// fresh database directory and prints wall time, games/s, CPU, peak RSS, the CPU of each
// kind of thread (reader, workers, writer: the writer's share of one core, issue 42), a
// prediction for more workers from those shares, and the size of every file of the
// database (position index included; headers.sqlite per table and index through dbstat)
// per game and relative to the uncompressed PGN.
// With --stages the import also times every stage of every game (db/stage_times.h; a few
// percent slower) and prints microseconds per game per stage, worker and writer side.
//
// Usage: bench_import [--workers N] [--stages] [--keep DIR] [FILE...]
//   --keep DIR  import into DIR and leave it there (default: a temporary directory, removed)
#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <sqlite3.h>

#include "bench_common.h"
#include "db/database.h"
#include "import/importer.h"

#ifndef CQLDB_CORPUS_DIR
#define CQLDB_CORPUS_DIR "../shared/corpus"
#endif

namespace {

namespace fs = std::filesystem;

/// Bytes of the files in `dir` whose names start with `prefix`.
uint64_t bytes_of(const fs::path& dir, const std::string& prefix) {
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().filename().string().rfind(prefix, 0) == 0) n += e.file_size();
  return n;
}

/// headers.sqlite's tables and indexes of at least 64 KiB with their bytes (dbstat: the
/// pages of each b-tree), largest first; empty when the SQLite library has no dbstat.
std::vector<std::pair<std::string, uint64_t>> sqlite_btrees(const fs::path& file) {
  std::vector<std::pair<std::string, uint64_t>> out;
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(file.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db,
                           "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name HAVING SUM(pgsize) >= 65536 "
                           "ORDER BY 2 DESC",
                           -1, &st, nullptr) == SQLITE_OK)
      while (sqlite3_step(st) == SQLITE_ROW)
        out.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), uint64_t(sqlite3_column_int64(st, 1)));
    sqlite3_finalize(st);
  }
  sqlite3_close(db);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  import::ImportOptions options;
  std::vector<std::string> files;
  fs::path dir = fs::temp_directory_path() / "cqldb-bench-import";
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--workers") && i + 1 < argc) options.workers = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--stages")) options.stage_times = true;
    else if (!std::strcmp(argv[i], "--keep") && i + 1 < argc) dir = argv[++i], keep = true;
    else files.emplace_back(argv[i]);
  }
  if (files.empty()) files.push_back(std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst");
  fs::remove_all(dir);

  import::ImportSummary s;
  {
    db::Database database = db::Database::create_or_open(dir);
    s = import::import_files(database, files, options, nullptr);
  }
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const double cpu = bench::cpu_seconds(usage);
  db::Database database = db::Database::open_readonly(dir);
  db::DatabaseInfo info = database.info();

  const double games = double(std::max<uint64_t>(s.imported, 1));
  std::printf("bench_import: %zu file(s), first %s, workers %u%s\n", files.size(), files.front().c_str(),
              options.workers, options.stage_times ? ", stages timed" : "");
  std::printf("  games read        %llu (imported %llu, rejected %llu, warnings %llu)\n",
              (unsigned long long)s.games_read, (unsigned long long)s.imported,
              (unsigned long long)s.rejected, (unsigned long long)s.warnings);
  std::printf("  wall time         %.2f s = stream %.2f s + finish %.2f s (index builds, checkpoint, catch-ups)\n",
              s.seconds, s.stream_seconds, s.finish_seconds);
  std::printf("  posting index     %.2f s for %llu games\n", s.postings.seconds, (unsigned long long)s.postings.added);
  std::printf("  header bitmaps    %.2f s for %llu games\n", s.header_bitmaps.seconds,
              (unsigned long long)s.header_bitmaps.added);
  std::printf("  games/s           %.0f (stream alone %.0f)\n", double(s.games_read) / s.seconds,
              double(s.games_read) / s.stream_seconds);
  std::printf("  plies/s           %.0f\n", double(s.plies) / s.seconds);
  std::printf("  PGN MB/s          %.1f (uncompressed)\n", double(s.input_bytes) / 1e6 / s.seconds);
  std::printf("  CPU user+sys      %.2f s (%.1f us a game)\n", cpu, cpu * 1e6 / games);
  std::printf("  peak RSS          %.1f MiB\n", double(usage.ru_maxrss) / 1024);

  // Threads during the stream, and what more workers would give (issue 42's model).
  const double reader_us = s.reader_cpu_seconds * 1e6 / games;
  const double workers_us = s.workers_cpu_seconds * 1e6 / games;
  const double writer_us = s.writer_cpu_seconds * 1e6 / games;
  const double rest = cpu - s.reader_cpu_seconds - s.workers_cpu_seconds - s.writer_cpu_seconds;
  std::printf("  thread CPU        reader %.2f s (%.1f us/game), workers %.2f s (%.1f us/game), writer %.2f s "
              "(%.1f us/game), other %.2f s (position segments, finish)\n",
              s.reader_cpu_seconds, reader_us, s.workers_cpu_seconds, workers_us, s.writer_cpu_seconds, writer_us,
              rest);
  std::printf("  writer share      %.0f%% of one core during the stream (%.2f s CPU / %.2f s)\n",
              100.0 * s.writer_cpu_seconds / s.stream_seconds, s.writer_cpu_seconds, s.stream_seconds);
  // With a core for each thread the stream runs at the pace of its slowest stage: the
  // reader, the writer, or the workers' CPU shared by W workers; the finish stays serial.
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    const double us = std::max({reader_us, writer_us, workers_us / w});
    const double seconds = us * games / 1e6 + s.finish_seconds;
    std::printf("  model, %2u workers %.0f games/s (stream bound by %s, %.1f us/game; + finish %.2f s)%s\n", w,
                double(s.games_read) / seconds,
                us == workers_us / w ? "workers" : us == writer_us ? "writer" : "reader", us, s.finish_seconds,
                w + 2 > std::thread::hardware_concurrency() ? " [needs more cores than here]" : "");
  }

  if (options.stage_times && s.ticks_per_second > 0) {
    // Stage ticks are wall time: on a loaded machine a thread's preempted time lands in
    // whatever stage it was in. Each side's stages are scaled so that they sum to its
    // thread CPU (preemption taken as spread evenly over the stages); the raw sums shown.
    const double us_per_tick = 1e6 / s.ticks_per_second;
    double worker_ticks = 0, writer_ticks = 0;
    for (size_t i = 0; i < size_t(db::Stage::kCount); ++i)
      worker_ticks += double(s.worker_stages.ticks[i]), writer_ticks += double(s.writer_stages.ticks[i]);
    // The writer's CPU outside add_game/commit/postings/positions (reordering, logs,
    // waiting on the queue) has no stage: only the staged part is scaled.
    const double worker_scale = worker_ticks > 0 ? workers_us / (worker_ticks * us_per_tick / games) : 0;
    const double writer_scale =
        writer_ticks > 0 ? std::min(1.0, writer_us / (writer_ticks * us_per_tick / games)) : 0;
    std::printf("  stage             worker us/game  writer us/game  (scaled to thread CPU: x%.2f, x%.2f)\n",
                worker_scale, writer_scale);
    double wsum = 0, rsum = 0;
    for (size_t i = 0; i < size_t(db::Stage::kCount); ++i) {
      const double wk = double(s.worker_stages.ticks[i]) * us_per_tick / games * worker_scale;
      const double wr = double(s.writer_stages.ticks[i]) * us_per_tick / games * writer_scale;
      wsum += wk, rsum += wr;
      std::printf("    %-15s %8.2f        %8.2f\n", db::stage_name(db::Stage(i)), wk, wr);
    }
    std::printf("    %-15s %8.2f        %8.2f   (thread CPU: workers %.2f, writer %.2f)\n", "sum", wsum, rsum,
                workers_us, writer_us);
  }

  // Every file of the database, per game and against the PGN.
  const uint64_t positions = bytes_of(dir, "positions");
  const uint64_t position_facts = bytes_of(dir, "positions-facts");
  const uint64_t postings = bytes_of(dir, "postings");
  const uint64_t signatures = info.games_bytes - info.move_record_bytes - info.annotation_bytes;
  const uint64_t header_bitmaps = db::header_bitmaps_bytes(dir);
  const uint64_t total = info.games_bytes + info.headers_bytes + positions + postings + header_bitmaps;
  const double pgn = double(s.input_bytes);
  auto line = [&](const char* name, uint64_t bytes) {
    std::printf("    %-28s %8.1f MiB %7.1f bytes/game %6.1f%% of the PGN\n", name, double(bytes) / (1 << 20),
                double(bytes) / games, 100.0 * double(bytes) / pgn);
  };
  std::printf("  database          every file, %.1f MiB of PGN uncompressed:\n", pgn / (1 << 20));
  line("games.mdb", info.games_bytes);
  line("  move records", info.move_record_bytes);
  line("  annotations", info.annotation_bytes);
  line("  signatures, rest", signatures);
  line("headers.sqlite", info.headers_bytes);
  for (const auto& [name, bytes] : sqlite_btrees(dir / "headers.sqlite")) line(("  " + name).c_str(), bytes);
  line("position index", positions);
  line("  segments", positions - position_facts);
  line("  facts", position_facts);
  line("postings", postings);
  line("header bitmaps", header_bitmaps);
  line("total", total);
  for (const auto& [reason, n] : s.reasons)
    std::printf("  rejected          %llu x %s\n", (unsigned long long)n, reason.c_str());
  for (const auto& r : s.first_rejections)
    std::printf("    %s game %u line %u: %s\n", r.file.c_str(), r.ordinal, r.line, r.reason.c_str());
  if (!keep) fs::remove_all(dir);
  return 0;
}
