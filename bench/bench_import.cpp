// Import benchmark: imports PGN files (default: the players corpus, 344,248 games) into a
// fresh database directory and prints wall time, games/s, plies/s, peak RSS, database size
// per game and relative to the uncompressed PGN, and the rejection reasons.
//
// Usage: bench_import [--workers N] [FILE...]
#include <sys/resource.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.h"
#include "db/database.h"
#include "import/importer.h"

#ifndef CQLDB_CORPUS_DIR
#define CQLDB_CORPUS_DIR "../shared/corpus"
#endif

int main(int argc, char** argv) {
  import::ImportOptions options;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--workers") && i + 1 < argc) options.workers = unsigned(std::atoi(argv[++i]));
    else files.emplace_back(argv[i]);
  }
  if (files.empty()) files.push_back(std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst");
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "cqldb-bench-import";
  fs::remove_all(dir);

  import::ImportSummary s;
  {
    db::Database database = db::Database::create_or_open(dir);
    s = import::import_files(database, files, options, nullptr);
  }
  db::Database database = db::Database::open_readonly(dir);
  db::DatabaseInfo info = database.info();
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  const uint64_t postings_bytes = s.postings.file_bytes;
  uint64_t db_bytes = info.games_bytes + info.headers_bytes + postings_bytes;

  std::printf("bench_import: %zu file(s), first %s\n", files.size(), files.front().c_str());
  std::printf("  games read        %llu (imported %llu, rejected %llu, warnings %llu)\n",
              (unsigned long long)s.games_read, (unsigned long long)s.imported,
              (unsigned long long)s.rejected, (unsigned long long)s.warnings);
  std::printf("  wall time         %.2f s (of which %.2f s index builds, checkpoint and posting index)\n",
              s.seconds, s.finish_seconds);
  std::printf("  posting index     %.2f s for %llu games\n", s.postings.seconds, (unsigned long long)s.postings.added);
  std::printf("  games/s           %.0f\n", double(s.games_read) / s.seconds);
  std::printf("  plies/s           %.0f\n", double(s.plies) / s.seconds);
  std::printf("  PGN MB/s          %.1f (uncompressed)\n", double(s.input_bytes) / 1e6 / s.seconds);
  std::printf("  CPU user+sys      %.2f s\n", bench::cpu_seconds(usage));
  std::printf("  peak RSS          %.1f MiB\n", double(usage.ru_maxrss) / 1024);
  std::printf("  database          %.1f MiB (games.mdb %.1f, headers.sqlite %.1f, postings.bin %.1f)\n",
              double(db_bytes) / (1 << 20), double(info.games_bytes) / (1 << 20),
              double(info.headers_bytes) / (1 << 20), double(postings_bytes) / (1 << 20));
  std::printf("  bytes per game    %.1f\n", info.games ? double(db_bytes) / double(info.games) : 0.0);
  std::printf("  size vs PGN       %.1f%% of %.1f MiB uncompressed\n",
              100.0 * double(db_bytes) / double(s.input_bytes), double(s.input_bytes) / (1 << 20));
  for (const auto& [reason, n] : s.reasons)
    std::printf("  rejected          %llu x %s\n", (unsigned long long)n, reason.c_str());
  for (const auto& r : s.first_rejections)
    std::printf("    %s game %u line %u: %s\n", r.file.c_str(), r.ordinal, r.line, r.reason.c_str());
  fs::remove_all(dir);
  return 0;
}
