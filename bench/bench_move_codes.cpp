// Move codes for the main line, measured on a database's own games (issue 42): today's
// packed 12-bit moves (record format 4) against a legal-move-index code (each move as its
// rank among the legal moves of its position, as lichess stores games, ~4.3 bits a move
// with its heuristic order and Huffman codes), for size and for the cost of replaying.
//
// Sizes are entropies of the symbols over the games measured (order 0, one table for all
// games: what a static Huffman or arithmetic code trained on them would approach, within
// about 0.05 bit a move for Huffman):
//   packed     12 bits a move (the specials' few bytes aside)
//   from-to    the 12-bit word's entropy: a table-driven code needing no board
//   legal fix  ceil(log2(legal moves)) bits: a legal-move index without a model
//   legal gen  the index's entropy in generation order (chess/movegen.h)
//   legal ord  the index's entropy after a cheap heuristic order (captures by victim,
//              promotions, checks aside; then moves toward the centre), lichess's idea
// Replay: passes alternate (A B A B ...), the fastest of each printed in ns per ply:
//   A  db::MainLineReplay over the packed record (parse, cursor, play_stored): today's replay
//   B  the same plies decoded from legal-move indexes: generate_legal, order, pick, do_move
//      (the decode a legal-index record would need before any query could look at a board)
//   C  the same in generation order (no ordering: the least a legal-index decode costs)
//
//   bench_move_codes --db DIR [--games N] [--passes P]   (default N = 100,000, P = 3)
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/movegen.h"
#include "db/database.h"
#include "db/game_record.h"
#include "db/stored_move.h"

namespace {

using Clock = std::chrono::steady_clock;

/// Entropy in bits of a symbol histogram, summed over its symbols (total bits).
double entropy_bits(const std::unordered_map<uint32_t, uint64_t>& counts) {
  uint64_t total = 0;
  for (const auto& [k, n] : counts) total += n;
  double bits = 0;
  for (const auto& [k, n] : counts) bits -= double(n) * std::log2(double(n) / double(total));
  return bits;
}

/// A cheap move order: captures first by victim value, promotions, then by how much closer
/// to the centre the move goes; ties in generation order (an insertion sort on precomputed
/// scores: no allocation).
void order_moves(const chess::Position& pos, chess::MoveList& list) {
  static constexpr int kValue[8] = {0, 1, 3, 3, 5, 9, 0, 0};
  static constexpr auto kCentre = [] {
    std::array<int, 64> c{};
    for (int s = 0; s < 64; ++s) {
      const int f = s & 7, r = s >> 3;
      c[s] = -((2 * f - 7 < 0 ? 7 - 2 * f : 2 * f - 7) + (2 * r - 7 < 0 ? 7 - 2 * r : 2 * r - 7));
    }
    return c;
  }();
  int score[chess::MoveList::CAPACITY];
  const size_t n = list.size();
  for (size_t i = 0; i < n; ++i) {
    const chess::Move m = list.moves[i];
    const int victim = kValue[chess::type_of(pos.piece_on(m.to_sq())) & 7];
    score[i] = victim * 64 + (m.kind() == chess::Move::PROMOTION ? 32 : 0) + kCentre[m.to_sq()] - kCentre[m.from_sq()];
  }
  for (size_t i = 1; i < n; ++i) {
    const chess::Move m = list.moves[i];
    const int sc = score[i];
    size_t j = i;
    for (; j > 0 && score[j - 1] < sc; --j) list.moves[j] = list.moves[j - 1], score[j] = score[j - 1];
    list.moves[j] = m, score[j] = sc;
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  uint32_t limit = 100000;
  int passes = 3;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--games") && i + 1 < argc) limit = uint32_t(std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "--passes") && i + 1 < argc) passes = std::atoi(argv[++i]);
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: bench_move_codes --db DIR [--games N] [--passes P]\n");
    return 2;
  }
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();
  std::vector<std::string> records;
  std::vector<std::vector<uint8_t>> indexes;  // per game: each ply's rank in the heuristic order
  std::vector<std::vector<uint8_t>> gen_indexes;  // per game: each ply's rank in generation order
  std::unordered_map<uint32_t, uint64_t> word_counts, gen_counts, ord_counts;
  double fixed_bits = 0;
  uint64_t plies = 0, record_main_bytes = 0;
  {
    uint32_t id = 0;
    std::string_view bytes;
    auto scan = reader.scan(1, limit);
    chess::MoveList list;
    while (scan.next(id, bytes)) {
      const db::RecordView view = db::RecordView::parse(bytes);
      if (!view.start_fen().empty() || view.has_variations() || !view.packed_main_line()) continue;
      bool has_null = false;  // a null move has no legal-move index: such games are left out
      {
        db::MainLineCursor moves(view);
        for (uint32_t i = 0; i < view.main_line_size(); ++i) has_null |= moves.next() == chess::Move::null();
      }
      if (has_null) continue;
      records.emplace_back(bytes);
      std::vector<uint8_t>& idx = indexes.emplace_back();
      std::vector<uint8_t>& gen_idx = gen_indexes.emplace_back();
      db::MainLineReplay replay(view);
      while (!replay.done()) {
        const chess::Move m = replay.next_move();
        const chess::Position& pos = replay.position();
        ++word_counts[m.raw()];
        list.clear();
        chess::generate_legal(pos, list);
        const size_t n = list.size();
        fixed_bits += n > 1 ? std::ceil(std::log2(double(n))) : 0;
        size_t gen = std::find(list.begin(), list.end(), m) - list.begin();
        ++gen_counts[uint32_t(gen)];
        gen_idx.push_back(uint8_t(gen));
        order_moves(pos, list);
        size_t ord = std::find(list.begin(), list.end(), m) - list.begin();
        ++ord_counts[uint32_t(ord)];
        idx.push_back(uint8_t(ord));
        replay.advance();
        ++plies;
      }
      record_main_bytes += bytes.size();
    }
  }
  const double p = double(std::max<uint64_t>(plies, 1));
  const double games = double(std::max<size_t>(records.size(), 1));
  std::printf("bench_move_codes: %zu games from the standard start without variations, %llu plies (%.1f a game)\n",
              records.size(), (unsigned long long)plies, p / games);
  std::printf("  whole move records today   %.2f bytes/ply, %.1f bytes/game (flags, count, specials included)\n",
              double(record_main_bytes) / p, double(record_main_bytes) / games);
  auto row = [&](const char* name, double bits) {
    std::printf("  %-26s %.2f bits/ply = %.1f bytes/game\n", name, bits / p, bits / 8 / games);
  };
  row("packed (today)", 12.0 * p);
  row("from-to entropy", entropy_bits(word_counts));
  row("legal index, fixed width", fixed_bits);
  row("legal index, gen order", entropy_bits(gen_counts));
  row("legal index, heuristic", entropy_bits(ord_counts));

  double best_a = 1e18, best_b = 1e18, best_c = 1e18;
  uint64_t check_a = 0, check_b = 0, check_c = 0;
  for (int pass = 0; pass < passes; ++pass) {
    auto start = Clock::now();
    for (const std::string& bytes : records) {
      const db::RecordView view = db::RecordView::parse(bytes);
      db::MainLineReplay replay(view);
      while (!replay.done()) replay.advance();
      check_a += replay.position().key();
    }
    best_a = std::min(best_a, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    chess::MoveList list;
    for (const std::vector<uint8_t>& idx : indexes) {
      chess::Position pos;  // the standard start
      chess::UndoInfo undo;
      for (uint8_t i : idx) {
        list.clear();
        chess::generate_legal(pos, list);
        order_moves(pos, list);
        pos.do_move(list[i], undo);
      }
      check_b += pos.key();
    }
    best_b = std::min(best_b, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    for (const std::vector<uint8_t>& idx : gen_indexes) {
      chess::Position pos;
      chess::UndoInfo undo;
      for (uint8_t i : idx) {
        list.clear();
        chess::generate_legal(pos, list);
        pos.do_move(list[i], undo);
      }
      check_c += pos.key();
    }
    best_c = std::min(best_c, std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::printf("  replay, packed record      %.1f ns/ply (best of %d)\n", best_a * 1e9 / p, passes);
  std::printf("  replay, legal index        %.1f ns/ply (%.2fx) heuristic order, %.1f ns/ply (%.2fx) generation "
              "order; the entropy decoding itself not counted\n",
              best_b * 1e9 / p, best_b / best_a, best_c * 1e9 / p, best_c / best_a);
  const bool same = check_a == check_b && check_a == check_c;
  std::printf("  same final positions: %s\n", same ? "yes" : "NO");
  return same ? 0 : 1;
}
