// bench_position: figures of the position index and the opening tree (issue 18).
//
//   bench_position [--db DIR] [--import] [--lookups-only]
//
// DIR defaults to <tmp>/cqldb-bench-position; a missing database is imported from
// players-344k (--import: import again into a fresh DIR) and the import's figures with the
// index on are printed. Then: index size against the database, the lookup of three FENs
// (start position, Ruy Lopez after 3...a6, a rare middlegame position) through the index and
// as whole `--fen` queries with the planner on and off (counts must agree), and tree times
// (start position over all games; after 1.e4 among Carlsen's games). --lookups-only: only
// the three lookups, 50 runs each (for perf), then the tree of the start position.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_common.h"
#include "chess/position.h"
#include "db/record_view.h"
#include "db/stored_move.h"
#include "headers/filter_terms.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_tree.h"

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point t) { return std::chrono::duration<double, std::milli>(Clock::now() - t).count(); }

uint64_t dir_bytes(const std::filesystem::path& dir, const std::string& prefix) {
  uint64_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) n += e.file_size();
  return n;
}

/// Best of `runs` timings of `f`, in ms.
template <class F>
double best_ms(int runs, F&& f) {
  double best = 1e18;
  for (int i = 0; i < runs; ++i) {
    const auto t = Clock::now();
    f();
    best = std::min(best, ms_since(t));
  }
  return best;
}

/// The FEN of game `id`'s main line after `ply` plies.
std::string fen_of(db::Database& database, uint32_t id, uint32_t ply) {
  db::GameReader reader = database.reader();
  std::string_view bytes;
  if (!reader.record(id, bytes)) return "";
  const db::RecordView view = db::RecordView::parse(bytes);
  db::MainLineReplay replay(view);
  while (replay.ply() < ply && !replay.done()) replay.advance();
  return replay.position().fen();
}

}  // namespace

int main(int argc, char** argv) {
  std::string db_dir = (std::filesystem::temp_directory_path() / "cqldb-bench-position").string();
  bool reimport = false, lookups_only = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) db_dir = argv[++i];
    else if (!std::strcmp(argv[i], "--import")) reimport = true;
    else if (!std::strcmp(argv[i], "--lookups-only")) lookups_only = true;
  }
  if (reimport) std::filesystem::remove_all(db_dir);
  if (!std::filesystem::exists(std::filesystem::path(db_dir) / "headers.sqlite")) {
    std::printf("importing %s into %s ...\n", bench::players_pgn().c_str(), db_dir.c_str());
    db::Database database = db::Database::create_or_open(db_dir);
    const import::ImportSummary s = import::import_files(database, {bench::players_pgn()}, {}, nullptr);
    std::printf("import: %llu games in %.2f s (%.0f games/s); position index %.2f s of it (%.1f%%), posting index %.2f s\n",
                (unsigned long long)s.imported, s.seconds, s.imported / s.seconds, s.positions.seconds,
                100.0 * s.positions.seconds / s.seconds, s.postings.seconds);
  }
  db::Database database = db::Database::open_readonly(db_dir);
  const uint32_t games = database.reader().game_count();
  const std::filesystem::path dir(db_dir);
  const uint64_t db_bytes = std::filesystem::file_size(dir / "games.mdb") + std::filesystem::file_size(dir / "headers.sqlite");
  const uint64_t index_bytes = dir_bytes(dir, "positions");
  const uint64_t facts_bytes = std::filesystem::file_size(dir / posindex::kFactsFile);
  auto t = Clock::now();
  std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(dir);
  const double open_ms = ms_since(t);
  if (!index) {
    std::printf("no position index in %s: run cqldb reindex --positions-only\n", db_dir.c_str());
    return 1;
  }
  const uint64_t dir_total = dir_bytes(dir, "");
  std::printf("games %u; database (games.mdb + headers.sqlite) %.1f MiB; whole directory %.1f MiB, the position "
              "index %.1f%% of it (issue 18 target <= 25%%)\n",
              games, db_bytes / 1048576.0, dir_total / 1048576.0, 100.0 * index_bytes / dir_total);
  std::printf("position index: %.1f MiB = %.1f%% of games.mdb + headers.sqlite; %.1f bytes/game "
              "(facts %.1f MiB = %.1f bytes/game); %llu entries (plies 0..%u), %.2f bytes/entry; %zu segments; "
              "open %.2f ms\n",
              index_bytes / 1048576.0, 100.0 * index_bytes / db_bytes, double(index_bytes) / games, facts_bytes / 1048576.0,
              double(facts_bytes) / games, (unsigned long long)index->entries(), posindex::kIndexedPlies,
              double(index_bytes - facts_bytes) / index->entries(), index->segments(), open_ms);

  struct Fen {
    const char* label;
    std::string fen;
  };
  std::vector<Fen> fens = {
      {"start position", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
      {"Ruy Lopez 3...a6", "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 0 4"},
      {"rare middlegame", fen_of(database, std::min<uint32_t>(games, 1000), 30)},
  };
  for (const Fen& f : fens) {
    chess::Position pos;
    if (!pos.set_fen(f.fen).ok()) continue;
    std::vector<uint32_t> cands;
    const double lookup = best_ms(lookups_only ? 50 : 5, [&] { cands = index->candidates(pos, games); });
    if (lookups_only) {
      std::printf("%-17s lookup %7.2f ms -> %7u candidates\n", f.label, lookup, unsigned(cands.size()));
      continue;
    }
    const std::string script = "(match (position :fen \"" + f.fen + "\"))";
    const query::Query q = query::Query::compile(script, f.label);
    query::ExecuteOptions on;
    on.threads = 0;
    t = Clock::now();
    const query::Result r_on = query::execute(q, database, on);
    const double on_ms = ms_since(t);
    query::ExecuteOptions off;
    off.planner_off();
    t = Clock::now();
    const query::Result r_off = query::execute(q, database, off);
    const double off_ms = ms_since(t);
    std::printf("%-17s lookup %7.2f ms -> %7u candidates | query planner on %8.1f ms: %u matches | off %8.1f ms: %u "
                "matches | %s\n",
                f.label, lookup, unsigned(cands.size()), on_ms, unsigned(r_on.matches.size()), off_ms,
                unsigned(r_off.matches.size()), bench::same_answers(r_on.matches, r_off.matches) ? "same" : "DIFFERENT");
  }

  if (lookups_only) {
    db::GameReader reader = database.reader();
    chess::Position start;
    (void)start.set_fen(fens[0].fen);
    posindex::Tree tree;
    const double tree_ms = best_ms(5, [&] { tree = posindex::build_tree(*index, reader, start, nullptr); });
    std::printf("tree of the start position over all games: %.1f ms, %u games, %zu moves\n", tree_ms, tree.total.games,
                tree.moves.size());
    return 0;
  }
  // Random keys (no real position): every hit is an unknown entry whose top key bits match,
  // i.e. a false candidate the query or tree replays and drops.
  uint64_t state = 0x9E3779B97F4A7C15ull, false_hits = 0;
  const int random_keys = 100000;
  std::vector<posindex::PositionHit> hits;
  t = Clock::now();
  for (int i = 0; i < random_keys; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    hits.clear();
    index->lookup(state ^ (state >> 29), hits);
    false_hits += hits.size();
  }
  std::printf("%d random keys: %.5f false (unknown) hits per lookup, %.1f us per lookup\n", random_keys,
              double(false_hits) / random_keys, 1000.0 * ms_since(t) / random_keys);

  db::GameReader reader = database.reader();
  chess::Position start;
  (void)start.set_fen(fens[0].fen);
  posindex::Tree tree;
  double tree_ms = best_ms(3, [&] { tree = posindex::build_tree(*index, reader, start, nullptr); });
  std::printf("tree of the start position over all games: %.1f ms (target <= 200 ms), %u games, %zu moves\n", tree_ms,
              tree.total.games, tree.moves.size());
  std::string error;
  headers::HeaderStore store(dir);
  t = Clock::now();
  const auto filter = headers::compile_filter_terms({"player=carlsen"}, error);
  const std::vector<uint32_t> carlsen = store.candidates(*filter, games);
  const double filter_ms = ms_since(t);
  chess::Position e4;
  (void)e4.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  tree_ms = best_ms(3, [&] { tree = posindex::build_tree(*index, reader, e4, &carlsen); });
  std::printf("tree after 1.e4 among %zu games of filter player=carlsen: %.1f ms (target <= 100 ms; the filter itself "
              "%.1f ms), %u games, %zu moves\n",
              carlsen.size(), tree_ms, filter_ms, tree.total.games, tree.moves.size());
  return 0;
}
