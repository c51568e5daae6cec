// Benchmark of issue 23 (online-chess dumps): the same games as plain PGN and rewritten in
// the lichess export's shape (../shared/corpus/lichess-style.py: a clock after every move,
// evaluations in a share of the games), each imported into a fresh database in a child
// process; prints games/s, PGN bytes/s, peak RSS, database bytes per game, the share of the
// database that is annotations, then times full-replay queries on both databases.
//
// Usage: bench_annotated [--games N (default: all of players-344k)] [--evals SHARE (0.1)]
//                        [--dir DIR (default <tmp>/cqldb-bench-annotated)] [--repeat N (3)]
// The PGN files are made once in DIR and reused; the databases are imported every run.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"

namespace fs = std::filesystem;

namespace {

/// Queries that replay every game (no position the planner can rule out), and one it can.
const bench::BenchQuery kQueries[] = {
    {"check, K on rank 1", "(match (position :check :wtm K[a-h1]))"},
    {"check", "(match (position :check))"},
    {"attack count", "(match (position :attackcount A k 2))"},
    {"piece pattern", "(match (position Ra3))"},
};

struct ImportFigures {
  double seconds = 0;
  double cpu_seconds = 0;  ///< user + system CPU time of the importing child
  uint64_t games = 0, input_bytes = 0, rss_kib = 0, db_bytes = 0, headers_bytes = 0, games_mdb_bytes = 0, annotation_bytes = 0,
           move_bytes = 0, clocks = 0, evals = 0;
};

uint64_t dir_bytes(const fs::path& dir) {
  uint64_t n = 0;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) n += e.file_size();
  return n;
}

/// Imports `pgn` into a fresh `db_dir` in a child process (so that its peak RSS is its own).
ImportFigures import_in_child(const std::string& pgn, const fs::path& db_dir) {
  fs::remove_all(db_dir);
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    ImportFigures f;
    {
      db::Database database = db::Database::create_or_open(db_dir);
      const import::ImportSummary s = import::import_files(database, {pgn}, {}, nullptr);
      f.games = s.imported;
      f.input_bytes = s.input_bytes;
      f.clocks = s.annotations.clocks;
      f.evals = s.annotations.evals;
    }
    if (write(fds[1], &f, sizeof f) != ssize_t(sizeof f)) _exit(1);
    _exit(0);
  }
  close(fds[1]);
  ImportFigures f;
  const bool got = read(fds[0], &f, sizeof f) == ssize_t(sizeof f);
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_annotated: importing %s failed\n", pgn.c_str());
    std::exit(1);
  }
  f.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  f.rss_kib = uint64_t(usage.ru_maxrss);
  f.cpu_seconds = bench::cpu_seconds(usage);
  f.db_bytes = dir_bytes(db_dir);
  f.headers_bytes = fs::file_size(db_dir / "headers.sqlite");
  f.games_mdb_bytes = fs::file_size(db_dir / "games.mdb");
  db::Database database = db::Database::open_readonly(db_dir);
  const db::DatabaseInfo info = database.info();
  f.annotation_bytes = info.annotation_bytes;
  f.move_bytes = info.move_record_bytes;
  return f;
}

void print_import(const char* name, const ImportFigures& f, uint64_t pgn_bytes) {
  std::printf("%-14s %8.2f s (CPU %6.2f s) %9.0f games/s %7.1f MB/s PGN  peak RSS %5llu MiB  db %7.1f MiB "
              "(%5.1f%% of the PGN, %6.0f bytes/game; move records %.1f MiB, annotations %.1f MiB "
              "= %.1f%% of the db)\n",
              name, f.seconds, f.cpu_seconds, double(f.games) / f.seconds, double(pgn_bytes) / f.seconds / 1e6,
              (unsigned long long)(f.rss_kib / 1024), double(f.db_bytes) / 1048576.0,
              100.0 * double(f.db_bytes) / double(pgn_bytes), double(f.db_bytes) / double(f.games),
              double(f.move_bytes) / 1048576.0, double(f.annotation_bytes) / 1048576.0,
              100.0 * double(f.annotation_bytes) / double(f.db_bytes));
  std::printf("%-14s files: games.mdb %.1f MiB, headers.sqlite %.1f MiB (%llu bytes, %.0f bytes/game), "
              "position index and the rest %.1f MiB\n",
              "", double(f.games_mdb_bytes) / 1048576.0, double(f.headers_bytes) / 1048576.0,
              (unsigned long long)f.headers_bytes, double(f.headers_bytes) / double(f.games),
              double(f.db_bytes - f.games_mdb_bytes - f.headers_bytes) / 1048576.0);
}

double time_query(const query::Query& q, db::Database& database, int repeat, uint64_t& matches) {
  double best = 1e30;
  for (int r = 0; r < repeat; ++r) {
    query::Result run = query::execute(q, database, {});
    matches = run.stats.matches;
    best = std::min(best, run.stats.seconds);
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  long games = 0;
  std::string evals = "0.1";
  fs::path dir = fs::temp_directory_path() / "cqldb-bench-annotated";
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--games") && i + 1 < argc) games = std::atol(argv[++i]);
    else if (!std::strcmp(argv[i], "--evals") && i + 1 < argc) evals = argv[++i];
    else if (!std::strcmp(argv[i], "--dir") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: bench_annotated [--games N] [--evals SHARE] [--dir DIR] [--repeat N]\n");
      return 2;
    }
  }
  fs::create_directories(dir);
  const std::string tag = (games ? std::to_string(games) : std::string("all")) + "-" + evals;
  const fs::path plain = dir / ("plain-" + tag + ".pgn");
  const fs::path lichess = dir / ("lichess-" + tag + ".pgn");
  const std::string slice = "zstd -dc " + bench::players_pgn() +
                            (games ? " | awk '/^\\[Event /{n++} n>" + std::to_string(games) + "{exit} {print}'"
                                   : std::string());
  if (!fs::exists(plain)) {
    std::printf("writing %s ...\n", plain.c_str());
    if (std::system((slice + " > " + plain.string()).c_str()) != 0) return 1;
  }
  if (!fs::exists(lichess)) {
    std::printf("writing %s (lichess-style.py --evals %s) ...\n", lichess.c_str(), evals.c_str());
    const std::string command = "python3 " + std::string(CQLDB_CORPUS_DIR) + "/lichess-style.py --evals " +
                                evals + " < " + plain.string() + " > " + lichess.string();
    if (std::system(command.c_str()) != 0) return 1;
  }
  const uint64_t plain_bytes = fs::file_size(plain), lichess_bytes = fs::file_size(lichess);
  std::printf("PGN: plain %.1f MiB, lichess-style %.1f MiB\n", double(plain_bytes) / 1048576.0,
              double(lichess_bytes) / 1048576.0);

  const ImportFigures p = import_in_child(plain.string(), dir / "db-plain");
  const ImportFigures l = import_in_child(lichess.string(), dir / "db-lichess");
  print_import("plain", p, plain_bytes);
  print_import("lichess-style", l, lichess_bytes);
  std::printf("lichess-style import: %.2fx the plain games/s (%.2fx by CPU seconds per game); typed "
              "clocks %llu, evaluations %llu\n",
              (double(l.games) / l.seconds) / (double(p.games) / p.seconds),
              (double(l.games) / l.cpu_seconds) / (double(p.games) / p.cpu_seconds),
              (unsigned long long)l.clocks, (unsigned long long)l.evals);
  std::printf("annotation bytes per ply (annotations sub-db pages / typed clocks): %.2f\n",
              l.clocks ? double(l.annotation_bytes) / double(l.clocks) : 0.0);

  db::Database plain_db = db::Database::open_readonly(dir / "db-plain");
  db::Database lichess_db = db::Database::open_readonly(dir / "db-lichess");
  std::printf("%-22s %10s %10s %10s %8s\n", "query", "matches", "plain s", "lichess s", "ratio");
  for (const bench::BenchQuery& q : kQueries) {
    std::optional<query::Query> compiled = bench::compile_query(q.kind, q.script, 22);
    if (!compiled) continue;
    uint64_t m1 = 0, m2 = 0;
    const double t1 = time_query(*compiled, plain_db, repeat, m1);
    const double t2 = time_query(*compiled, lichess_db, repeat, m2);
    std::printf("%-22s %10llu %10.3f %10.3f %7.2fx%s\n", q.kind, (unsigned long long)m2, t1, t2,
                t1 > 0 ? t2 / t1 : 0.0, m1 == m2 ? "" : "  (matches differ)");
  }
  return 0;
}
