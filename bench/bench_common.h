// Shared parts of the query benchmarks (bench_query, bench_tablebase, bench_analysis; each
// bench/*.cpp is an executable of its own, so they share this header): the benchmark
// database (imported on first use), the query table entry, compiling a query, and comparing
// the answers of two runs (planner off / on, cold / warm cache).
#pragma once

#include <sys/resource.h>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cql/parser.h"
#include "db/database.h"
#include "eval/program.h"
#include "query/executor.h"
#include "query/query.h"
#include "import/importer.h"

#ifndef CQLDB_CORPUS_DIR
#define CQLDB_CORPUS_DIR "../shared/corpus"
#endif

namespace bench {

/// User + system CPU seconds of `usage` (getrusage, wait4).
inline double cpu_seconds(const rusage& usage) {
  return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
         double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

/// User + system CPU seconds of this process so far, all its threads.
inline double process_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return cpu_seconds(usage);
}

/// One benchmark query: a label and a whole `(match ...)` script.
struct BenchQuery {
  const char* kind;
  const char* script;
};

/// The full corpus, ../shared/corpus/players-344k.pgn.zst.
inline std::string players_pgn() { return std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst"; }

/// bench_query's database directory (shared with bench_tablebase): <tmp>/cqldb-bench-query.
inline std::string default_db_dir() {
  return (std::filesystem::temp_directory_path() / "cqldb-bench-query").string();
}

/// Imports `pgn` into `db_dir` unless a database is already there (headers.sqlite exists).
inline void import_if_missing(const std::string& db_dir, const std::string& pgn) {
  if (std::filesystem::exists(std::filesystem::path(db_dir) / "headers.sqlite")) return;
  std::printf("importing %s into %s ...\n", pgn.c_str(), db_dir.c_str());
  db::Database database = db::Database::create_or_open(db_dir);
  import::import_files(database, {pgn}, {}, nullptr);
}

/// Compiles the query `script` labelled `kind` (query/query.h); on an error prints "<kind>
/// skipped: <message>" (the kind left-aligned in `width` columns) and returns nullopt.
inline std::optional<query::Query> compile_query(const std::string& kind, const std::string& script, int width) {
  try {
    return query::Query::compile(script, kind);
  } catch (const std::exception& e) {
    std::printf("%-*s skipped: %s\n", width, kind.c_str(), e.what());
    return std::nullopt;
  }
}

/// True if two searches matched the same games at the same plies.
inline bool same_answers(const std::vector<eval::GameMatch>& a, const std::vector<eval::GameMatch>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].id != b[i].id || a[i].plies != b[i].plies) return false;
  return true;
}

}  // namespace bench
