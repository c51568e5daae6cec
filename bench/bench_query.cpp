// Query benchmark: runs a fixed set of CQL queries of different kinds over a database
// (default: imports ../shared/corpus/players-344k.pgn.zst into a temporary directory first)
// and prints, per query, matches, candidates, games replayed, positions evaluated, wall time
// and positions/s, then the sum.
//
// Usage: bench_query [--db DIR] [--threads N] [--only SUBSTRING]
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "eval/program.h"
#include "eval/search.h"
#include "import/importer.h"

#ifndef CQLDB_CORPUS_DIR
#define CQLDB_CORPUS_DIR "../shared/corpus"
#endif

namespace {

struct BenchQuery {
  const char* kind;
  const char* script;
};

const BenchQuery kQueries[] = {
    {"piece pattern", "(match (position Ra3))"},
    {"piece pattern 2", "(match (position Qh7 kg8 Bd3))"},
    {"material", "(match (position :piececount [Qq] 0 :piececount [RrBbNn] 0 :piececount P 2 :piececount p 1))"},
    {"material R v B", "(match (position :flipcolor :piececount [QqNn] 0 :piececount R 1 :piececount r 0 :piececount B 0 :piececount b 1))"},
    {"mate", "(match (position :mate))"},
    {"double check", "(match (position :doublecheck))"},
    {"check", "(match (position :check))"},
    {"under-promotion", "(match (position :promote [RBNrbn]))"},
    {"en passant", "(match (position :enpassant :movenumber 1 15))"},
    {"queenside castling", "(match (position :iscastling [Qq] :movenumber >=20))"},
    {"ray: pinned knight", "(match (position :ray (R n k) :flipcolor))"},
    {"knight fork K+Q", "(match (position :flipcolor :btm :attackcount N k 1 :attackcount N q 1 :piececount N 1))"},
    {"shift+flip opposition", "(match (position Ke4 ke6 :shift :flip :wtm))"},
    {"flipcolor back-rank mate", "(match (position :flipcolor :mate R?8 k?8 :btm))"},
    {"attack count", "(match (position :attackcount A k 2))"},
    {"header + position", "(match :player Kasparov (position :mate))"},
    {"elo + position", "(match :whiteelo >=2600 :blackelo >=2600 (position :stalemate))"},
    {"game info in position", "(match (position :result 1-0 :mate :btm :piececount [Qq] 0))"},
};

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir, only;
  unsigned threads = 0;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) threads = unsigned(std::atoi(argv[++i]));
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
  }
  namespace fs = std::filesystem;
  if (db_dir.empty()) {
    db_dir = (fs::temp_directory_path() / "cqldb-bench-query").string();
    if (!fs::exists(fs::path(db_dir) / "headers.sqlite")) {
      std::printf("importing players-344k into %s ...\n", db_dir.c_str());
      db::Database database = db::Database::create_or_open(db_dir);
      import::import_files(database, {std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst"}, {},
                           nullptr);
    }
  }
  db::Database database = db::Database::open_readonly(db_dir);
  std::printf("%-26s %9s %10s %10s %12s %9s %12s\n", "query", "matches", "candidates", "replayed",
              "positions", "wall s", "positions/s");
  double total = 0;
  for (const BenchQuery& q : kQueries) {
    if (!only.empty() && std::strstr(q.kind, only.c_str()) == nullptr) continue;
    eval::Program program = eval::Program::compile(cql::parse_or_throw(q.script, q.kind));
    eval::SearchOptions options;
    options.threads = threads;
    std::vector<eval::GameMatch> matches;
    eval::SearchStats s = eval::search(program, database, options, matches);
    total += s.seconds;
    std::printf("%-26s %9llu %10llu %10llu %12llu %9.2f %12.0f\n", q.kind,
                (unsigned long long)s.matches, (unsigned long long)s.candidates,
                (unsigned long long)s.games_replayed, (unsigned long long)s.positions, s.seconds,
                s.seconds > 0 ? double(s.positions) / s.seconds : 0.0);
    std::printf("    %s\n", q.script);
  }
  std::printf("total wall time %.2f s for %zu queries\n", total, sizeof kQueries / sizeof kQueries[0]);
  return 0;
}
