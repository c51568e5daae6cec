// bench_jsonl: the speed of `--format jsonl` (query/result_json.h, nlohmann-json) over every
// game of a database, next to reading the same headers and records without writing JSON,
// so the share of the JSON writer shows. Prints games/s, MB/s and CPU seconds of the
// fastest of --repeat runs.
//
//   bench_jsonl [--db DIR] [--repeat N] [--plies K]
//
// --db defaults to the players-344k database of bench_query (imported when missing);
// --plies gives every game K matched main-line plies (default 3), as a query result has.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.h"
#include "db/database.h"
#include "db/game_header.h"
#include "db/game_reader.h"
#include "db/record_view.h"
#include "query/result_json.h"

namespace {

struct Run {
  double seconds = 1e9, cpu = 1e9;
  size_t bytes = 0;
};

template <class F>
Run fastest(int repeat, F&& body) {
  Run best;
  for (int r = 0; r < repeat; ++r) {
    const double cpu0 = bench::process_cpu_seconds();
    const auto t0 = std::chrono::steady_clock::now();
    const size_t bytes = body();
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = bench::process_cpu_seconds() - cpu0;
    if (wall < best.seconds) best = {wall, cpu, bytes};
  }
  return best;
}

void print(const char* label, const Run& r, size_t games) {
  std::printf("%-34s %8.3f s  %7.3f s CPU  %10.0f games/s  %7.1f MB/s  %10zu bytes\n", label, r.seconds, r.cpu,
              games / r.seconds, r.bytes / r.seconds / 1e6, r.bytes);
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir = bench::default_db_dir();
  int repeat = 3;
  uint32_t plies = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--plies") && i + 1 < argc) plies = uint32_t(std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_jsonl [--db DIR] [--repeat N] [--plies K]\n");
      return 2;
    }
  }
  if (db_dir == bench::default_db_dir()) bench::import_if_missing(db_dir, bench::players_pgn());
  db::Database database = db::Database::open_readonly(db_dir);
  db::GameReader reader = database.reader();
  std::vector<eval::GameMatch> matches(reader.game_count());
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    matches[id - 1].id = id;
    for (uint32_t p = 0; p < plies; ++p) matches[id - 1].plies.push_back(10 + 7 * p);
  }
  std::printf("bench_jsonl: %zu games of %s, fastest of %d runs\n", matches.size(), db_dir.c_str(), repeat);
  const Run read = fastest(repeat, [&] {
    size_t bytes = 0;
    db::GameHeader header;
    for (const eval::GameMatch& m : matches) {
      reader.read_header(m.id, header);
      std::string_view record;
      reader.record(m.id, record);
      bytes += header.white.size() + header.black.size() + header.event.size() + record.size();
    }
    return bytes;
  });
  print("headers and records read", read, matches.size());
  const Run jsonl = fastest(repeat, [&] {
    std::ostringstream out;
    query::write_jsonl(out, reader, matches);
    return out.str().size();
  });
  print("jsonl written (nlohmann-json)", jsonl, matches.size());
  std::printf("jsonl writer alone: %.3f s CPU for %zu games (%.2f us a game)\n", jsonl.cpu - read.cpu,
              matches.size(), 1e6 * (jsonl.cpu - read.cpu) / matches.size());
  return 0;
}
