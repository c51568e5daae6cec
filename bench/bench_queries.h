// The query suite of bench_query, shared with bench_scale (issue 16): the built-in queries
// of different kinds and the reader of a `name<TAB>script` query file.
#pragma once

#include <algorithm>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.h"

namespace bench {

/// The built-in suite: one query per kind of condition (piece patterns, material, flags,
/// headers, transforms, pawn structure, SEE); each a whole `(match ...)` script.
inline const BenchQuery kQueries[] = {
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
    {"endgame Q v RR", "(match (position :flipcolor :piececount [RrBbNn] 0 :piececount Q 1 :piececount q 0 :piececount r 2 :piececount [BbNn] 0))"},
    {"opposite bishops", "(match (position :piececount [QqRrNn] 0 :piececount B 1 :piececount b 1 :piececount BL? 1 :piececount bD? 1 :flipcolor))"},
    {"R v B no pawns", "(match (position :flipcolor :piececount [QqNnPp] 0 :piececount R 1 :piececount [rB] 0 :piececount b 1))"},
    {"underpromotion N+check", "(match (position :flipcolor :promote N :sequence ((position) (position :check))))"},
    {"rook 7th, king 8th", "(match (position :flipcolor R?7 k?8 :piececount [QqBbNn] 0))"},
    {"mate with bishop pair", "(match (position :flipcolor :mate :btm BL? BD?))"},
    {"fen after 1.e4 e6 2.d4 d5", "(match (position :fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"))"},
    {"late castling", "(match (position :iscastling :movenumber >=25))"},
    {"isolated queen pawn", "(match (position :flipcolor :pawncount P[d?] isolated >0 :movenumber >=15))"},
    {"doubled isolated pawns", "(match (position :pawncount [Pp] isolated-double >0))"},
    {"passed pawns both wings", "(match (position :flipcolor :pawncount P passed-bothsides >0))"},
    {"hanging pawns", "(match (position :flipcolor :pawncount P?4 stoppable-!blocked-duo! >0))"},
    {"bad bishop", "(match (position :goodbishop [Bb] <=30% : <=20% :piececount [QqRrNn] 0))"},
    {"losing capture (SEE)", "(match (position :exchangeevaluation * <=-3))"},
    {"threat to win a piece (SEE)", "(match (position :maxswapevaluation A a >=3 :btm))"},
    // issue 21: a transformed list of many variants, and a full scan of a simple list
    {"shift+flip+flipcolor N k", "(match (position Nd4 kf3 :shift :flip :flipcolor))"},
    {"check, wtm, K 1st rank", "(match (position :check :wtm K[a-h1]))"},
};

/// Reads `name<TAB>script` lines (blank lines and `#` comments skipped) into `out`.
inline bool read_queries(const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
  std::ifstream in(path);
  if (!in) return false;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t tab = line.find('\t');
    if (tab == std::string::npos) continue;
    out.emplace_back(line.substr(0, tab), line.substr(tab + 1));
  }
  return true;
}

/// The queries to run: the file `path` when given (read_queries), else kQueries. False when
/// the file cannot be read.
inline bool load_queries(const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
  if (path.empty()) {
    for (const BenchQuery& q : kQueries) out.emplace_back(q.kind, q.script);
    return true;
  }
  return read_queries(path, out);
}

/// Runs `compiled` over `database` `repeat` times (at least once) and returns the statistics
/// of the fastest run; `out` receives its matches and, when given, `cpu_seconds` the process
/// CPU time (user + system, every thread) of that run.
inline query::Stats fastest_run(const query::Query& compiled, db::Database& database,
                                const query::ExecuteOptions& options, int repeat,
                                std::vector<eval::GameMatch>& out, double* cpu_seconds = nullptr) {
  query::Stats best;
  for (int r = 0; r < std::max(1, repeat); ++r) {
    const double cpu_before = process_cpu_seconds();
    query::Result run = query::execute(compiled, database, options);
    const double cpu = process_cpu_seconds() - cpu_before;
    out = std::move(run.matches);
    if (r == 0 || run.stats.seconds < best.seconds) {
      best = run.stats;
      if (cpu_seconds) *cpu_seconds = cpu;
    }
  }
  return best;
}

}  // namespace bench
