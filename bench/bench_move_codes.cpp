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
//   piece      a code read with the board but without generating moves: the moving piece
//              as its rank among the mover's men (ascending squares), then the target as
//              its rank among the squares that kind of man reaches from there on an empty
//              board (pawns: push, double push, capture to the a- or h-side; a king also
//              the corners of its rank: castling is king takes own rook), then 2 bits of
//              promotion piece. "fixed" = ceil(log2) of each count (what D decodes);
//              "entropy" = the from rank's entropy plus the target rank's, given the kind
// Replay: passes alternate (A B A B ...), the fastest of each printed in ns per ply:
//   A  db::MainLineReplay over the packed record (parse, cursor, play_stored): today's replay
//   B  the same plies decoded from legal-move indexes: generate_legal, order, pick, do_move
//      (the decode a legal-index record would need before any query could look at a board)
//   C  the same in generation order (no ordering: the least a legal-index decode costs)
//   D  the piece code above at fixed width, read from a bit stream: select the n-th man,
//      look its target up, rebuild the move kind (castling, en passant, promotion),
//      play_stored: bit reading included, so D against A is the whole replay's price
//   E  the same with fewer branches: one target table per coloured man (pawns included),
//      the n-th man by popcount halving and a byte table instead of a loop
//   F  play_stored alone over the moves already decoded (the floor of any code)
//
//   bench_move_codes --db DIR [--games N] [--passes P]   (default N = 100,000, P = 3)
#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "chess/bitboard.h"
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

/// The piece code's target table (see the header): for each kind and square, the squares
/// that kind reaches from it on an empty board in ascending order (pawns aside); a king's
/// list adds its rank's corners (castling as king takes rook).
struct PieceTargets {
  std::array<std::array<std::array<uint8_t, 32>, 64>, 8> to{};
  std::array<std::array<uint8_t, 64>, 8> count{};
  PieceTargets() {
    for (int pt = chess::KNIGHT; pt <= chess::KING; ++pt)
      for (int sq = 0; sq < 64; ++sq) {
        chess::Bitboard b = chess::pseudo_attacks_bb(chess::PieceType(pt), chess::Square(sq));
        if (pt == chess::KING && (sq >> 3 == 0 || sq >> 3 == 7))
          b |= (chess::Bitboard(1) << (sq & 56)) | (chess::Bitboard(1) << ((sq & 56) | 7));
        b &= ~(chess::Bitboard(1) << sq);
        uint8_t n = 0;
        while (b) to[pt][sq][n++] = uint8_t(chess::pop_lsb(b));
        count[pt][sq] = n;
      }
  }
};
const PieceTargets& piece_targets() {
  static const PieceTargets t;
  return t;
}

/// Bits needed for a rank below n (0 for n <= 1).
unsigned width_below(unsigned n) { return n <= 1 ? 0 : unsigned(std::bit_width(n - 1)); }

/// The pawn move's code 0..3: push, double push, capture to the a-side, to the h-side.
unsigned pawn_code(chess::Square from, chess::Square to) {
  const int d = std::abs(int(to) - int(from));
  if (d == 8) return 0;
  if (d == 16) return 1;
  return (to & 7) < (from & 7) ? 2 : 3;
}

/// Bit writer and reader of the piece code (least significant bit first).
struct PieceBits {
  std::vector<uint64_t> words;
  uint64_t count = 0;
  void put(uint64_t v, unsigned n) {
    if (n == 0) return;
    if (count % 64 == 0) words.push_back(0);
    words.back() |= v << (count % 64);
    if (count % 64 + n > 64) words.push_back(v >> (64 - count % 64));
    count += n;
  }
};
struct PieceBitsIn {
  const uint64_t* words;
  uint64_t at = 0;
  uint64_t get(unsigned n) {
    if (n == 0) return 0;
    const uint64_t w = at / 64, b = at % 64;
    uint64_t v = words[w] >> b;
    if (b + n > 64) v |= words[w + 1] << (64 - b);
    at += n;
    return v & ((uint64_t(1) << n) - 1);
  }
};

/// Appends `m` (legal on `pos`) in the piece code; adds its entropy symbols to the tables.
void put_piece_code(const chess::Position& pos, chess::Move m, PieceBits& out, std::unordered_map<uint32_t, uint64_t>& from_counts,
                    std::array<std::unordered_map<uint32_t, uint64_t>, 8>& to_counts) {
  const chess::Bitboard own = pos.pieces(pos.side_to_move());
  const chess::Square from = m.from_sq(), to = m.to_sq();
  const unsigned rank = unsigned(std::popcount(own & ((chess::Bitboard(1) << from) - 1)));
  out.put(rank, width_below(unsigned(std::popcount(own))));
  ++from_counts[rank];
  const chess::PieceType pt = chess::type_of(pos.piece_on(from));
  if (pt == chess::PAWN) {
    const unsigned code = pawn_code(from, to);
    out.put(code, 2);
    ++to_counts[pt][code];
    if (m.kind() == chess::Move::PROMOTION) out.put(unsigned(m.promotion_type() - chess::KNIGHT), 2);
    return;
  }
  const PieceTargets& t = piece_targets();
  unsigned i = 0;
  while (t.to[pt][from][i] != to) ++i;
  out.put(i, width_below(t.count[pt][from]));
  ++to_counts[pt][i];
}

/// Reads the next move of the piece code on `pos`.
chess::Move get_piece_code(const chess::Position& pos, PieceBitsIn& in) {
  const chess::Color us = pos.side_to_move();
  chess::Bitboard own = pos.pieces(us);
  unsigned rank = unsigned(in.get(width_below(unsigned(std::popcount(own)))));
  while (rank--) own &= own - 1;
  const chess::Square from = chess::lsb(own);
  const chess::PieceType pt = chess::type_of(pos.piece_on(from));
  if (pt == chess::PAWN) {
    static constexpr int kStep[4] = {8, 16, 7, 9};  // White's; the a-side capture is +7
    const unsigned code = unsigned(in.get(2));
    const int step = us == chess::WHITE ? kStep[code] : -(code == 2 ? 9 : code == 3 ? 7 : kStep[code]);
    const chess::Square to = chess::Square(int(from) + step);
    if ((to >> 3) == (us == chess::WHITE ? 7 : 0))
      return chess::Move::make(from, to, chess::Move::PROMOTION, chess::PieceType(chess::KNIGHT + in.get(2)));
    if (code >= 2 && pos.piece_on(to) == chess::NO_PIECE) return chess::Move::make(from, to, chess::Move::EN_PASSANT);
    return chess::Move(from, to);
  }
  const PieceTargets& t = piece_targets();
  const chess::Square to = chess::Square(t.to[pt][from][in.get(width_below(t.count[pt][from]))]);
  if (pt == chess::KING && pos.piece_on(to) == chess::make_piece(us, chess::ROOK))
    return chess::Move::make(from, to, chess::Move::CASTLING);
  return chess::Move(from, to);
}

/// The piece code's decode with fewer branches (D2): one target table per coloured man and
/// square, pawns included (push, double push, a-side, h-side capture), its width beside it;
/// the n-th man found by halving with popcounts and a byte table, without a loop.
struct FastTargets {
  std::array<std::array<std::array<uint8_t, 32>, 64>, 16> to{};
  std::array<std::array<uint8_t, 64>, 16> width{};
  std::array<std::array<uint8_t, 8>, 256> select_in_byte{};
  FastTargets() {
    const PieceTargets& t = piece_targets();
    for (int c = 0; c < 2; ++c)
      for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
        for (int sq = 0; sq < 64; ++sq) {
          const int p = chess::make_piece(chess::Color(c), chess::PieceType(pt));
          if (pt == chess::PAWN) {
            const int steps[2][4] = {{8, 16, 7, 9}, {-8, -16, -9, -7}};
            for (int i = 0; i < 4; ++i) to[p][sq][i] = uint8_t((sq + steps[c][i]) & 63);
            width[p][sq] = 2;
          } else {
            to[p][sq] = t.to[pt][sq];
            width[p][sq] = uint8_t(width_below(t.count[pt][sq]));
          }
        }
    for (int b = 0; b < 256; ++b)
      for (int i = 0, n = 0; i < 8; ++i)
        if (b >> i & 1) select_in_byte[b][n++] = uint8_t(i);
  }
  /// The square of the r-th set bit of b (r < popcount(b)).
  unsigned select(uint64_t b, unsigned r) const {
    unsigned base = 0;
    for (unsigned half : {32u, 16u, 8u}) {
      const unsigned c = unsigned(std::popcount(b & ((uint64_t(1) << half) - 1)));
      const uint64_t up = uint64_t(0) - uint64_t(r >= c);
      r -= c & unsigned(up);
      b >>= half & unsigned(up);
      base += half & unsigned(up);
    }
    return base + select_in_byte[b & 0xFF][r];
  }
};
const FastTargets& fast_targets() {
  static const FastTargets t;
  return t;
}

/// get_piece_code() through FastTargets (the same moves).
inline chess::Move get_piece_code_fast(const FastTargets& t, const chess::Position& pos, PieceBitsIn& in) {
  static constexpr uint8_t kWidthBelow[17] = {0, 0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
  const chess::Color us = pos.side_to_move();
  const chess::Bitboard own = pos.pieces(us);
  const unsigned rank = unsigned(in.get(kWidthBelow[std::popcount(own)]));
  const chess::Square from = chess::Square(t.select(own, rank));
  const chess::Piece p = pos.piece_on(from);
  const unsigned code = unsigned(in.get(t.width[p][from]));
  const chess::Square to = chess::Square(t.to[p][from][code]);
  const chess::PieceType pt = chess::type_of(p);
  if (pt != chess::PAWN && pt != chess::KING) return chess::Move(from, to);
  if (pt == chess::KING)
    return pos.piece_on(to) == chess::make_piece(us, chess::ROOK) ? chess::Move::make(from, to, chess::Move::CASTLING)
                                                                   : chess::Move(from, to);
  if ((to >> 3) == (us == chess::WHITE ? 7 : 0))
    return chess::Move::make(from, to, chess::Move::PROMOTION, chess::PieceType(chess::KNIGHT + in.get(2)));
  if (code >= 2 && pos.piece_on(to) == chess::NO_PIECE) return chess::Move::make(from, to, chess::Move::EN_PASSANT);
  return chess::Move(from, to);
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
  std::unordered_map<uint32_t, uint64_t> word_counts, gen_counts, ord_counts, piece_from_counts;
  std::array<std::unordered_map<uint32_t, uint64_t>, 8> piece_to_counts;
  std::vector<PieceBits> piece_codes;  // per game: the piece code of its main line
  std::vector<std::vector<chess::Move>> plain_moves;  // per game: its moves, decoded (F)
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
      PieceBits& piece = piece_codes.emplace_back();
      std::vector<chess::Move>& plain = plain_moves.emplace_back();
      db::MainLineReplay replay(view);
      while (!replay.done()) {
        const chess::Move m = replay.next_move();
        const chess::Position& pos = replay.position();
        ++word_counts[m.raw()];
        put_piece_code(pos, m, piece, piece_from_counts, piece_to_counts);
        plain.push_back(m);
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
  uint64_t piece_fixed = 0;
  for (const PieceBits& b : piece_codes) piece_fixed += b.count;
  row("piece code, fixed", double(piece_fixed));
  double piece_entropy = entropy_bits(piece_from_counts);
  for (const auto& c : piece_to_counts) piece_entropy += entropy_bits(c);
  row("piece code, entropy", piece_entropy);

  double best_a = 1e18, best_b = 1e18, best_c = 1e18, best_d = 1e18, best_e = 1e18, best_f = 1e18;
  uint64_t check_a = 0, check_b = 0, check_c = 0, check_d = 0, check_e = 0, check_f = 0;
  const FastTargets& fast = fast_targets();
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
    // the piece code, read by `decode(pos, in)`: plain, then through the fast target tables
    const auto replay_piece_codes = [&](auto&& decode, uint64_t& check) {
      for (size_t g = 0; g < piece_codes.size(); ++g) {
        chess::Position pos;
        chess::UndoInfo undo;
        PieceBitsIn in{piece_codes[g].words.data()};
        const size_t n = indexes[g].size();
        for (size_t i = 0; i < n; ++i) db::play_stored(pos, decode(pos, in), undo, uint32_t(i + 1));
        check += pos.key();
      }
    };
    start = Clock::now();
    replay_piece_codes([](const chess::Position& pos, PieceBitsIn& in) { return get_piece_code(pos, in); }, check_d);
    best_d = std::min(best_d, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    replay_piece_codes(
        [&](const chess::Position& pos, PieceBitsIn& in) { return get_piece_code_fast(fast, pos, in); }, check_e);
    best_e = std::min(best_e, std::chrono::duration<double>(Clock::now() - start).count());
    start = Clock::now();
    for (const std::vector<chess::Move>& moves : plain_moves) {
      chess::Position pos;
      chess::UndoInfo undo;
      uint32_t ply = 0;
      for (chess::Move m : moves) db::play_stored(pos, m, undo, ++ply);
      check_f += pos.key();
    }
    best_f = std::min(best_f, std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::printf("  replay, packed record      %.1f ns/ply (best of %d)\n", best_a * 1e9 / p, passes);
  std::printf("  replay, legal index        %.1f ns/ply (%.2fx) heuristic order, %.1f ns/ply (%.2fx) generation "
              "order; the entropy decoding itself not counted\n",
              best_b * 1e9 / p, best_b / best_a, best_c * 1e9 / p, best_c / best_a);
  std::printf("  replay, piece code         %.1f ns/ply (%.2fx), fixed width, bit reading included\n", best_d * 1e9 / p,
              best_d / best_a);
  std::printf("  replay, piece code, tables %.1f ns/ply (%.2fx), one table per man, select without a loop\n",
              best_e * 1e9 / p, best_e / best_a);
  std::printf("  replay, moves given        %.1f ns/ply (%.2fx), play_stored alone: no record, no decoding\n",
              best_f * 1e9 / p, best_f / best_a);
  const bool same =
      check_a == check_b && check_a == check_c && check_a == check_d && check_a == check_e && check_a == check_f;
  std::printf("  same final positions: %s\n", same ? "yes" : "NO");
  return same ? 0 : 1;
}
