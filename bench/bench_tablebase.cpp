// Tablebase benchmark (issue 8): :endgameevaluation queries over a database, each run with
// the planner off and on. Prints matches, tablebase probes, games replayed, positions
// evaluated and wall time per run, and checks that both runs give the same answer. The
// planner's material condition (total pieces within the largest table) should prune almost
// every game before any probe.
//
// Usage: bench_tablebase [--db DIR] [--pgn FILE] [--threads N] [--only SUBSTRING]
//                        [--tablebases DIR[:DIR]]
// Default database: /tmp/cqldb-bench-query (bench_query's), imported from
// ../shared/corpus/players-344k.pgn.zst unless --pgn names another file (e.g. a slice).
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "eval/program.h"
#include "eval/search.h"
#include "eval/tablebase.h"
#include "import/importer.h"
#include "planner/plan.h"

#ifndef CQLDB_CORPUS_DIR
#define CQLDB_CORPUS_DIR "../shared/corpus"
#endif

namespace {

struct BenchQuery {
  const char* kind;
  const char* script;
};

const BenchQuery kQueries[] = {
    {"K+R v K tablebase wins",
     "(match (position :flipcolor :piececount U 3 :piececount R 1 :endgameevaluation +mate))"},
    {"K+P v K tablebase wins",
     "(match (position :flipcolor :piececount U 3 :piececount P 1 :endgameevaluation +mate))"},
    {"K+P v K tablebase draws",
     "(match (position :piececount U 3 :piececount [Pp] 1 :endgameevaluation remis))"},
    {"K+R or K+P v K wins, *",
     "(match (position :flipcolor :piececount U 3 :piececount [RP] 1 :endgameevaluation* +mate))"},
    {"K+P v K, side to move wins in >= 30 plies",
     "(match (position :piececount U 3 :piececount [Pp] 1 :endgameevaluation mate >=30))"},
    {"any tablebase win (no other item)", "(match (position :endgameevaluation *mate))"},
};

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir, pgn = std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst", only;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--pgn") && i + 1 < argc) pgn = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
    else if (!std::strcmp(argv[i], "--tablebases") && i + 1 < argc) eval::tablebase::configure(argv[++i]);
  }
  namespace fs = std::filesystem;
  if (db_dir.empty()) db_dir = (fs::temp_directory_path() / "cqldb-bench-query").string();
  if (!fs::exists(fs::path(db_dir) / "headers.sqlite")) {
    std::printf("importing %s into %s ...\n", pgn.c_str(), db_dir.c_str());
    db::Database database = db::Database::create_or_open(db_dir);
    import::import_files(database, {pgn}, {}, nullptr);
  }
  db::Database database = db::Database::open_readonly(db_dir);
  const eval::tablebase::Status status = eval::tablebase::prepare();
  std::printf("tables: %s (scheme cp%d, up to %d pieces)\n", status.dirs.c_str(), status.scheme,
              status.max_pieces);
  std::printf("%-42s %7s %7s %10s %10s %11s %9s %8s\n", "query", "planner", "matches", "probes",
              "replayed", "positions", "after sig", "time s");
  for (const BenchQuery& q : kQueries) {
    if (!only.empty() && std::strstr(q.kind, only.c_str()) == nullptr) continue;
    eval::Program program;
    try {
      program = eval::Program::compile(cql::parse_or_throw(q.script, q.kind));
    } catch (const std::exception& e) {
      std::printf("%-42s skipped: %s\n", q.kind, e.what());
      continue;
    }
    planner::Plan plan = planner::Plan::make(program);
    std::vector<eval::GameMatch> answers[2];
    for (int on = 0; on <= 1; ++on) {
      eval::SearchOptions options;
      options.threads = threads;
      if (on && plan.prunes()) options.filter = &plan;
      const uint64_t probes_before = eval::tablebase::probe_count();
      eval::SearchStats s = eval::search(program, database, options, answers[on]);
      const uint64_t probes = eval::tablebase::probe_count() - probes_before;
      std::printf("%-42s %7s %7llu %10llu %10llu %11llu %9llu %8.2f\n", on ? "" : q.kind, on ? "on" : "off",
                  (unsigned long long)s.matches, (unsigned long long)probes,
                  (unsigned long long)s.games_replayed, (unsigned long long)s.positions,
                  (unsigned long long)s.after_signatures, s.seconds);
    }
    bool same = answers[0].size() == answers[1].size();
    for (size_t i = 0; same && i < answers[0].size(); ++i)
      same = answers[0][i].id == answers[1][i].id && answers[0][i].plies == answers[1][i].plies;
    std::printf("    %s%s\n", q.script, same ? "" : "   MISMATCH planner off/on");
    if (plan.prunes()) std::printf("    planner: %s\n", plan.condition(0).describe().c_str());
  }
  return 0;
}
