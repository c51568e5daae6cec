// Helpers shared by the CQL 6 front-end tests (issues 36 and 37).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "db/database.h"
#include "eval/game_match.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"

namespace cqltest {

/// The located error Query::compile gives for CQL 6 script `text` read as the file "s.cql"
/// ("s.cql:LINE:COLUMN: what (expected ...)"), or "" when it compiles.
inline std::string cql6_error_of(const std::string& text) {
  try {
    query::Query::compile(text, "s.cql");
  } catch (const query::QueryError& e) {
    return e.what();
  }
  return "";
}

/// Imports `pgn_files` (paths; .zst read as such) into a new database at `db_path`: the
/// bundled-sample databases the CQL 6 suites share (one per suite, made in SetUpTestSuite).
inline void import_into(const std::filesystem::path& db_path, const std::vector<std::string>& pgn_files) {
  db::Database database = db::Database::create_or_open(db_path);
  import::import_files(database, pgn_files, {}, nullptr);
}

/// The matches of `script` (read as the file "s.cql") over the database at `db_path` with the
/// planner on, in output order. Checks (EXPECT, naming the script) that the planner-off run
/// gives the same games with the same plies in the same order: the planner never decides.
/// `threads` as query::ExecuteOptions::threads (0: the default).
inline std::vector<eval::GameMatch> matches_planner_on_off(const std::filesystem::path& db_path,
                                                           const std::string& script, unsigned threads = 0) {
  db::Database database = db::Database::open_readonly(db_path);
  const query::Query q = query::Query::compile(script, "s.cql");
  query::ExecuteOptions on, off;
  on.threads = off.threads = threads;
  off.planner_off();
  query::Result a = query::execute(q, database, on);
  const query::Result b = query::execute(q, database, off);
  EXPECT_EQ(a.matches.size(), b.matches.size()) << script;
  for (size_t i = 0; i < a.matches.size() && i < b.matches.size(); ++i) {
    EXPECT_EQ(a.matches[i].id, b.matches[i].id) << script;
    EXPECT_EQ(a.matches[i].plies, b.matches[i].plies) << script;
  }
  return std::move(a.matches);
}

/// The game ids of matches_planner_on_off(db_path, script, threads), in output order.
inline std::vector<uint64_t> ids_planner_on_off(const std::filesystem::path& db_path, const std::string& script,
                                                unsigned threads = 0) {
  std::vector<uint64_t> out;
  for (const eval::GameMatch& m : matches_planner_on_off(db_path, script, threads)) out.push_back(m.id);
  return out;
}

}  // namespace cqltest
