// Main-line layouts of the game record (db/record_format.h), measured on a database's own
// games: the packed main line of record format 4 (12 bits a move plus the specials) against
// the 16-bit words of formats 2 and 3, for size and for the cost of replaying.
//
// The records are read into memory once and each is also rewritten in the 16-bit layout
// (same flags but kPackedMainLine, same FEN and move stream). Then P passes alternate the
// two layouts (A B A B ...), each pass parsing every record and playing its whole main line
// with db::MainLineReplay, as every position query does before it evaluates anything; the
// fastest pass of each layout is printed in ns per ply. Alternating passes in one process
// keep the machine's drift out of the comparison.
//
//   bench_records --db DIR [--games N] [--passes P]
//     DIR: a database written by record format 4 (its records packed); N: the first N games
//     (default all); P: passes per layout (default 5)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/game_record.h"
#include "db/stored_move.h"

namespace {

using Clock = std::chrono::steady_clock;

/// `packed` (a parsed move record) with its main line as 16-bit words.
std::string words_layout(std::string_view packed) {
  const db::RecordView view = db::RecordView::parse(packed);
  std::string out(1, char(view.flags() & ~db::kPackedMainLine));
  db::codec::put_varint(out, view.main_line_size());
  if (!view.start_fen().empty()) {
    db::codec::put_varint(out, uint32_t(view.start_fen().size()));
    out += view.start_fen();
  }
  db::MainLineCursor moves(view);
  for (uint32_t i = 0; i < view.main_line_size(); ++i) db::codec::put_u16(out, moves.next().raw());
  if (view.has_variations()) {
    size_t words = 0;  // the move stream: the record's tail, one word per move or marker
    for (const db::Token& t : view.tokens(db::RecordView::TypedText::kNone))
      words += t.kind == db::TokenKind::kMove || t.kind == db::TokenKind::kBeginVariation ||
               t.kind == db::TokenKind::kEndVariation;
    out += packed.substr(packed.size() - 2 * words);
  }
  return out;
}

/// One pass of the reading alone: every record parsed (mode 0) and its main line read with
/// a MainLineCursor (mode 1), no board. Returns seconds; adds a checksum of the moves.
double read_pass(const std::vector<std::string>& records, int mode, uint64_t& checksum) {
  const auto start = Clock::now();
  for (const std::string& bytes : records) {
    const db::RecordView view = db::RecordView::parse(bytes);
    checksum += view.main_line_size();
    if (mode == 0) continue;
    db::MainLineCursor moves(view);
    for (uint32_t i = 0; i < view.main_line_size(); ++i) checksum += moves.next().raw();
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// One pass: every record parsed and its main line replayed. Returns seconds; adds the
/// plies played and a checksum of the final positions' keys.
double replay_pass(const std::vector<std::string>& records, uint64_t& plies, uint64_t& checksum) {
  const auto start = Clock::now();
  for (const std::string& bytes : records) {
    const db::RecordView view = db::RecordView::parse(bytes);
    db::MainLineReplay replay(view);
    while (!replay.done()) replay.advance();
    plies += replay.ply();
    checksum += replay.position().key();
  }
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  uint32_t limit = UINT32_MAX;
  int passes = 5;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc) dir = argv[++i];
    else if (!std::strcmp(argv[i], "--games") && i + 1 < argc) limit = uint32_t(std::atol(argv[++i]));
    else if (!std::strcmp(argv[i], "--passes") && i + 1 < argc) passes = std::max(1, std::atoi(argv[++i]));
    else {
      std::fprintf(stderr, "usage: bench_records --db DIR [--games N] [--passes P]\n");
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: bench_records --db DIR [--games N] [--passes P]\n");
    return 2;
  }
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();
  std::vector<std::string> packed, words;
  uint64_t packed_main = 0, words_main = 0, plies = 0, not_packed = 0;
  {
    uint32_t id = 0;
    std::string_view bytes;
    auto scan = reader.scan(1, limit);
    while (scan.next(id, bytes)) {
      const db::RecordView view = db::RecordView::parse(bytes);
      if (!view.packed_main_line()) {
        not_packed += view.main_line_size() > 0;
        continue;
      }
      packed.emplace_back(bytes);
      words.push_back(words_layout(bytes));
      plies += view.main_line_size();
      const uint64_t n = view.main_line_size();
      // the main line's own bytes: the specials and the 12-bit array / the 2n bytes of words
      packed_main += bytes.size() - (words.back().size() - 2 * n);
      words_main += 2 * n;
    }
  }
  if (packed.empty()) {
    std::fprintf(stderr, "%s: no packed main lines (a database written before record format 4?)\n", dir.c_str());
    return 1;
  }
  std::printf("%zu games, %llu plies (%llu games with a 16-bit main line skipped)\n", packed.size(),
              (unsigned long long)plies, (unsigned long long)not_packed);
  std::printf("main line bytes: packed %.3f bytes/ply, 16-bit words %.3f bytes/ply (%.1f%% less)\n",
              double(packed_main) / plies, double(words_main) / plies,
              100.0 * (1.0 - double(packed_main) / double(words_main)));
  double read_best[2][2] = {{1e300, 1e300}, {1e300, 1e300}};  // [mode][layout]
  uint64_t read_sums[2][2] = {};
  for (int p = 0; p < passes; ++p)
    for (int mode = 0; mode < 2; ++mode)
      for (int layout = 0; layout < 2; ++layout)
        read_best[mode][layout] = std::min(
            read_best[mode][layout], read_pass(layout == 0 ? packed : words, mode, read_sums[mode][layout]));
  if (read_sums[1][0] != read_sums[1][1]) {
    std::fprintf(stderr, "the layouts read different moves\n");
    return 1;
  }
  const char* const kModes[2] = {"parse only", "parse + cursor over the main line"};
  for (int mode = 0; mode < 2; ++mode)
    std::printf("%s, fastest of %d alternating passes: packed %.2f ns/ply, 16-bit words %.2f ns/ply\n",
                kModes[mode], passes, 1e9 * read_best[mode][0] / plies, 1e9 * read_best[mode][1] / plies);
  double best[2] = {1e300, 1e300};
  uint64_t sums[2] = {0, 0};
  for (int p = 0; p < passes; ++p) {
    for (int layout = 0; layout < 2; ++layout) {
      uint64_t n = 0;
      const double s = replay_pass(layout == 0 ? packed : words, n, sums[layout]);
      best[layout] = std::min(best[layout], s);
      if (n != plies) {
        std::fprintf(stderr, "pass played %llu plies, expected %llu\n", (unsigned long long)n,
                     (unsigned long long)plies);
        return 1;
      }
    }
  }
  if (sums[0] != sums[1]) {
    std::fprintf(stderr, "the layouts replayed to different positions\n");
    return 1;
  }
  std::printf("replay (parse + every main-line move played), fastest of %d alternating passes:\n", passes);
  std::printf("  packed       %.3f s  %.2f ns/ply\n", best[0], 1e9 * best[0] / plies);
  std::printf("  16-bit words %.3f s  %.2f ns/ply\n", best[1], 1e9 * best[1] / plies);
  std::printf("  packed / words: %.3fx\n", best[0] / best[1]);
  return 0;
}
