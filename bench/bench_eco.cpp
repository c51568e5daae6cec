// bench_eco: ECO classification (issue 17 A, import/eco_classifier.h) on a database imported
// by this build: how often the classifier's code equals the game's own [ECO] tag (first
// three characters), how fast it classifies, and the agreement of alternative rules
// (deepest named position within the first N plies; deepest move-order prefix of a table
// line, i.e. without transpositions) for comparison.
//
//   bench_eco --db DIR     (e.g. a players-344k database: cqldb import --db DIR players-344k.pgn.zst)
#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/san.h"
#include "db/database.h"
#include "db/game_reader.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "import/eco_classifier.h"

#ifndef CQLDB_SOURCE_DIR
#define CQLDB_SOURCE_DIR "."
#endif

namespace {

/// Table lines by move order: "e2e4 c7c5 ..." -> ECO code (for the no-transposition rule).
std::unordered_map<std::string, std::string> move_order_table() {
  std::unordered_map<std::string, std::string> out;
  for (const char* volume : {"a", "b", "c", "d", "e"}) {
    std::ifstream in(std::string(CQLDB_SOURCE_DIR) + "/data/chess-openings/" + volume + ".tsv");
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      const size_t t1 = line.find('\t'), t2 = line.find('\t', t1 + 1);
      std::istringstream moves(line.substr(t2 + 1));
      chess::Position pos;
      std::string key;
      for (std::string san; moves >> san;) {
        if (san[0] >= '0' && san[0] <= '9') continue;
        const chess::Move m = chess::parse_san(pos, san);
        key += chess::to_uci(m, pos) + " ";
        chess::UndoInfo u;
        pos.do_move(m, u);
      }
      out[key] = line.substr(0, t1);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || std::string(argv[1]) != "--db") {
    std::fprintf(stderr, "usage: bench_eco --db DIR\n");
    return 2;
  }
  const std::string dir = argv[2];
  db::Database database = db::Database::open_readonly(dir);
  std::unordered_map<uint32_t, std::string> tag, stored;
  {
    db::sqlite::Connection sql(std::filesystem::path(dir) / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
    db::sqlite::Statement q(sql, "SELECT id, eco FROM games WHERE eco GLOB '[A-E][0-9][0-9]*'");
    while (q.step()) tag[uint32_t(q.column_int64(0))] = std::string(q.column_text(1).substr(0, 3));
    db::sqlite::Statement s(sql, "SELECT game_id, eco FROM game_openings");
    while (s.step()) stored[uint32_t(s.column_int64(0))] = std::string(s.column_text(1));
  }
  const auto t0 = std::chrono::steady_clock::now();
  const import::EcoClassifier& table = import::EcoClassifier::instance();
  const double load_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const auto by_moves = move_order_table();
  const std::vector<uint32_t> limits = {8, 12, 16, 20, 24};
  size_t with_tag = 0, stored_agree = 0, deepest_agree = 0, moves_agree = 0, unclassified = 0;
  size_t any_agree = 0, same_group = 0;  // tag code on any named position; same letter+tens
  std::vector<size_t> limit_agree(limits.size(), 0);
  double classify_s = 0;
  const db::GameReader reader = database.reader();
  std::string bytes;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    auto t = tag.find(id);
    if (t == tag.end()) continue;
    ++with_tag;
    if (stored[id] == t->second) ++stored_agree;
    if (!reader.read_record(id, bytes)) continue;
    const db::RecordView rec = db::RecordView::parse(bytes);
    if (!rec.start_fen().empty()) continue;
    const auto c0 = std::chrono::steady_clock::now();
    chess::Position pos;
    int deepest = -1;
    std::vector<int> at_limit(limits.size(), -1);
    std::string key, by_order;
    bool seen_tag = false;
    const uint32_t n = std::min<uint32_t>(rec.main_line_size(), table.max_plies());
    for (uint32_t ply = 0; ply < n; ++ply) {
      const chess::Move m = rec.main_move(ply);
      if (m == chess::Move::null()) break;
      key += chess::to_uci(m, pos) + " ";
      chess::UndoInfo u;
      pos.do_move(m, u);
      if (const int i = table.find(pos); i >= 0) {
        deepest = i;
        if (table.opening(i).eco == t->second) seen_tag = true;
        for (size_t k = 0; k < limits.size(); ++k)
          if (ply + 1 <= limits[k]) at_limit[k] = i;
      }
      if (auto o = by_moves.find(key); o != by_moves.end()) by_order = o->second;
    }
    classify_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - c0).count();
    if (deepest < 0) ++unclassified;
    if (deepest >= 0 && table.opening(deepest).eco == t->second) ++deepest_agree;
    if (by_order == t->second) ++moves_agree;
    if (seen_tag) ++any_agree;
    if (deepest >= 0 && table.opening(deepest).eco.substr(0, 2) == t->second.substr(0, 2)) ++same_group;
    for (size_t k = 0; k < limits.size(); ++k)
      if (at_limit[k] >= 0 && table.opening(at_limit[k]).eco == t->second) ++limit_agree[k];
  }
  auto pct = [&](size_t n) { return with_tag ? 100.0 * double(n) / double(with_tag) : 0.0; };
  std::printf("opening table: %zu named positions, longest line %u plies, built in %.3f s\n", table.size(),
              unsigned(table.max_plies()), load_s);
  std::printf("games with an ECO tag: %zu of %u (not classified by position: %zu)\n", with_tag, reader.game_count(),
              unclassified);
  std::printf("stored code (game_openings) = tag: %zu (%.2f%%)\n", stored_agree, pct(stored_agree));
  std::printf("rule deepest named position      = tag: %zu (%.2f%%)\n", deepest_agree, pct(deepest_agree));
  for (size_t k = 0; k < limits.size(); ++k)
    std::printf("rule deepest within %2u plies     = tag: %zu (%.2f%%)\n", limits[k], limit_agree[k],
                pct(limit_agree[k]));
  std::printf("upper bound: the tag's code is on some named position of the line: %zu (%.2f%%)\n", any_agree,
              pct(any_agree));
  std::printf("deepest named position in the tag's group (letter and tens digit): %zu (%.2f%%)\n", same_group,
              pct(same_group));
  std::printf("rule move-order prefix (no transpositions) = tag: %zu (%.2f%%)\n", moves_agree, pct(moves_agree));
  std::printf("replay + classification: %.2f s for %zu games (%.1f us a game)\n", classify_s, with_tag,
              with_tag ? 1e6 * classify_s / double(with_tag) : 0.0);
  return 0;
}
