// Signature benchmark: over every game of an existing database, (1) replays the main line and
// computes and encodes its signature, (2) scans and decodes the stored signatures as the
// planner will (at each DecodeScope), and prints games/s, plies/s, bytes per game and how
// many stored signatures differ from the recomputed ones. One thread.
//
// Usage: bench_signature --db DIR [--square-order]
//   --square-order  also print the ever-square order tables of index/square_order.h,
//                   measured on this database's stored signatures
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/record_view.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Prints kSquareByIndex rows: per piece type, White's squares by descending visit count
/// (Black's visits mirrored), ties by square number.
void print_square_order(const std::vector<std::array<uint64_t, 64>>& visits) {
  std::printf("square order (paste into index/square_order.h):\n");
  for (int t = 0; t < 6; ++t) {
    std::vector<int> squares(64);
    for (int s = 0; s < 64; ++s) squares[s] = s;
    std::stable_sort(squares.begin(), squares.end(),
                     [&](int a, int b) { return visits[t][a] > visits[t][b]; });
    std::printf("    {");
    for (int i = 0; i < 64; ++i) std::printf("%d%s", squares[i], i < 63 ? ", " : "},\n");
  }
}

}  // namespace

int main(int argc, char** argv) {
  std::string dir;
  bool square_order = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--db") && i + 1 < argc)
      dir = argv[++i];
    else if (!std::strcmp(argv[i], "--square-order"))
      square_order = true;
    else {
      std::fprintf(stderr, "usage: bench_signature --db DIR [--square-order]\n");
      return 2;
    }
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: bench_signature --db DIR [--square-order]\n");
    return 2;
  }
  db::Database database = db::Database::open_readonly(dir);
  db::GameReader reader = database.reader();

  // 1. Replay + compute + encode.
  sig::SignatureBuilder builder;
  std::string bytes;
  uint64_t games = 0, plies = 0, encoded_bytes = 0, differ = 0, missing = 0;
  auto start = Clock::now();
  {
    auto scan = reader.scan();
    uint32_t id;
    std::string_view record;
    while (scan.next(id, record)) {
      const db::RecordView view = db::RecordView::parse(record);
      sig::compute_signature(view, builder);
      bytes.clear();
      sig::encode(builder.signature(), bytes);
      ++games;
      plies += view.main_line_size();
      encoded_bytes += bytes.size();
      std::string_view stored;
      if (!reader.signature(id, stored))
        ++missing;
      else if (stored != bytes)
        ++differ;
    }
  }
  const double compute_s = seconds_since(start);

  // 2. Scan + decode the stored signatures, at each decode scope.
  sig::Signature s;
  uint64_t decoded = 0, stored_bytes = 0, runs = 0, ever_squares = 0, fen_starts = 0;
  double decode_s[3] = {0, 0, 0};
  for (sig::DecodeScope scope :
       {sig::DecodeScope::kHeader, sig::DecodeScope::kMaterial, sig::DecodeScope::kAll}) {
    decoded = stored_bytes = runs = fen_starts = 0;
    start = Clock::now();
    auto scan = reader.scan_signatures();
    uint32_t id;
    std::string_view stored;
    while (scan.next(id, stored)) {
      if (stored.empty()) continue;
      sig::decode(stored, s, scope);
      ++decoded;
      stored_bytes += stored.size();
      runs += s.material.size();
      fen_starts += s.start_fen;
    }
    decode_s[int(scope)] = seconds_since(start);
  }
  std::vector<std::array<uint64_t, 64>> visits(6, std::array<uint64_t, 64>{});
  if (square_order) {
    auto scan = reader.scan_signatures();
    uint32_t id;
    std::string_view stored;
    while (scan.next(id, stored)) {
      if (stored.empty()) continue;
      sig::decode(stored, s);
      for (int pc = 0; pc < chess::PIECE_NB; ++pc) {
        const chess::PieceType pt = chess::type_of(chess::Piece(pc));
        if (pt == chess::NO_PIECE_TYPE || pt > chess::KING) continue;
        for (chess::Bitboard b = s.ever[pc] & ~s.start[pc]; b;) {
          const chess::Square sq = chess::pop_lsb(b);
          ever_squares += 1;
          ++visits[pt - chess::PAWN][chess::relative_square(chess::color_of(chess::Piece(pc)), sq)];
        }
      }
    }
  }

  std::printf("bench_signature: %s, %llu games, %llu plies\n", dir.c_str(),
              (unsigned long long)games, (unsigned long long)plies);
  std::printf("  replay+compute+encode  %.2f s  %.0f games/s  %.1f M plies/s\n", compute_s,
              games / compute_s, plies / compute_s / 1e6);
  const char* const scope_names[] = {"header", "material", "all"};
  for (int i = 0; i < 3; ++i)
    std::printf("  scan+decode (%-8s)   %.2f s  %.0f games/s  (%.0f ns/game)\n", scope_names[i],
                decode_s[i], decoded / decode_s[i],
                1e9 * decode_s[i] / std::max<uint64_t>(decoded, 1));
  std::printf("  bytes/game             %.1f (recomputed), %.1f (stored)\n",
              double(encoded_bytes) / std::max<uint64_t>(games, 1),
              double(stored_bytes) / std::max<uint64_t>(decoded, 1));
  std::printf("  material runs/game     %.1f, FEN starts %llu\n",
              double(runs) / std::max<uint64_t>(decoded, 1), (unsigned long long)fen_starts);
  std::printf("  stored vs recomputed   %llu differ, %llu missing\n", (unsigned long long)differ,
              (unsigned long long)missing);
  if (square_order) {
    std::printf("  ever squares/game      %.1f (besides the start squares)\n",
                double(ever_squares) / std::max<uint64_t>(decoded, 1));
    print_square_order(visits);
  }
  return 0;
}
