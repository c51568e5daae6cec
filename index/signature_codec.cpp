// encode() and decode() of signature.h: the layout is documented there.
#include <algorithm>
#include <bit>
#include <cstring>
#include <stdexcept>
#include <string>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "db/record_codec.h"
#include "index/bit_stream.h"
#include "index/signature.h"
#include "index/square_order.h"

namespace sig {

namespace {

using chess::Bitboard;

/// The 12 pieces in encoding order: W_PAWN..W_KING, B_PAWN..B_KING.
constexpr chess::Piece kPieces[12] = {
    chess::W_PAWN, chess::W_KNIGHT, chess::W_BISHOP, chess::W_ROOK, chess::W_QUEEN, chess::W_KING,
    chess::B_PAWN, chess::B_KNIGHT, chess::B_BISHOP, chess::B_ROOK, chess::B_QUEEN, chess::B_KING};

/// The most material changes a game can have: 30 captures plus 16 promotions (a promotion
/// with capture is one change); the timeline has at most one run more.
constexpr uint32_t kMaxRuns = 47;

/// Piece placement of the standard start position, by Piece.
const Signature::Boards& standard_start() {
  static const Signature::Boards boards = [] {
    Signature::Boards b{};
    const chess::Position pos;
    for (chess::Piece pc : kPieces) b[pc] = pos.pieces(chess::color_of(pc), chess::type_of(pc));
    return b;
  }();
  return boards;
}

/// The home square of side `c`'s pawn on file `f`.
chess::Square home_square(chess::Color c, int f) {
  return chess::relative_square(c, chess::make_square(chess::File(f), chess::RANK_2));
}

/// The side to move at ply `p` of a game whose ply 0 has `start` to move.
chess::Color side_at(chess::Color start, uint32_t p) {
  return chess::Color(start ^ (p & 1));
}

/// The count of `pc` in `key` (kings: 1).
int count_in(MaterialKey key, chess::Piece pc) {
  return chess::type_of(pc) == chess::KING ? 1 : key.count(chess::color_of(pc), chess::type_of(pc));
}

/// Bits 4-7 of byte 1: the promoted types of `promotions` (Signature::promotions bits).
uint8_t promoted_types_of(uint8_t promotions) {
  return uint8_t((promotions | promotions >> 4) & 15);
}

/// Byte 3 + colour of the Summary: colour `c`'s least counts in `min` (exact minima), capped.
uint8_t min_byte(MaterialKey min, chess::Color c) {
  const int p = std::min(min.count(c, chess::PAWN), 3), q = std::min(min.count(c, chess::QUEEN), 1),
            r = std::min(min.count(c, chess::ROOK), 3), b = std::min(min.count(c, chess::BISHOP), 3),
            n = std::min(min.count(c, chess::KNIGHT), 1);
  return uint8_t(p | q << 2 | r << 3 | b << 5 | n << 7);
}

/// The least count of each kind over the runs of `runs` (exact, kinds separately).
template <class Runs>
MaterialKey min_over(const Runs& runs) {
  MaterialKey min = runs.front().key;
  for (const auto& run : runs) {
    uint64_t bits = 0;
    for (int nibble = 0; nibble < 10; ++nibble) {
      const uint64_t a = min.bits() >> (4 * nibble) & 15, b = run.key.bits() >> (4 * nibble) & 15;
      bits |= std::min(a, b) << (4 * nibble);
    }
    min = MaterialKey(bits);
  }
  return min;
}

// ---- encode -----------------------------------------------------------------------------

[[noreturn]] void inconsistent(const std::string& what) {
  throw std::invalid_argument("sig::encode: inconsistent signature: " + what);
}

/// The material of board set `b`, which has at most 15 pieces of a kind.
MaterialKey key_of(const Signature::Boards& b) {
  uint64_t bits = 0;
  for (chess::Piece pc : kPieces)
    if (chess::type_of(pc) != chess::KING)
      bits |= uint64_t(chess::popcount(b[pc]))
              << MaterialKey::shift(chess::color_of(pc), chess::type_of(pc));
  return MaterialKey(bits);
}

/// A material change of the timeline: what the move captured and what it promoted to
/// (PieceType values, 0 = none).
struct Change {
  int captured = 0;
  int promoted = 0;
};

/// The capture and promotion that turn `prev` into `next` when `mover` moves. Returns false
/// when no single move can.
bool material_change(MaterialKey prev, MaterialKey next, chess::Color mover, int& captured,
                     int& promoted) {
  captured = 0;
  promoted = 0;
  bool pawn_lost = false;
  // Visit only the nibbles that differ (one to three of them).
  for (uint64_t changed = prev.bits() ^ next.bits(); changed;) {
    const unsigned nibble = unsigned(std::countr_zero(changed)) / 4;
    changed &= ~(uint64_t(15) << (4 * nibble));
    const chess::Color c = chess::Color(nibble / 5);
    const int pt = int(nibble % 5) + chess::PAWN;
    const int d = next.count(c, chess::PieceType(pt)) - prev.count(c, chess::PieceType(pt));
    if (c != mover) {  // the other side can only lose one piece
      if (d != -1 || captured) return false;
      captured = pt;
    } else if (pt == chess::PAWN) {
      if (d != -1) return false;
      pawn_lost = true;
    } else {
      if (d != 1 || promoted) return false;
      promoted = pt;
    }
  }
  return pawn_lost == (promoted != 0) && (captured || promoted);
}

/// Writes one bit per square of `among`, lowest square first: 1 if it is in `set`.
void put_subset(BitWriter& w, Bitboard set, Bitboard among) {
  uint64_t value = 0;
  unsigned n = 0;
  for (; among; ++n) value |= ((set >> chess::pop_lsb(among)) & 1) << n;
  w.bits(uint32_t(value), std::min(n, 32u));
  if (n > 32) w.bits(uint32_t(value >> 32), n - 32);
}

/// Writes the code of a material change (signature.h, section 1).
void put_material_change(BitWriter& w, int captured, int promoted) {
  if (promoted) {
    w.bits(0b1110, 4);  // "0" "11" "1", first bit lowest
    w.bits(uint32_t(captured), 3);
    w.bits(uint32_t(promoted - chess::KNIGHT), 2);
  } else if (captured == chess::PAWN) {
    w.bits(1, 1);
  } else if (captured == chess::QUEEN) {
    w.bits(0b0110, 4);
  } else {
    w.bits(0, 1);
    w.bits(uint32_t(captured - chess::KNIGHT), 2);
  }
}

/// The home pawns that left (signature.h, section 3).
struct Departures {
  uint32_t until[16];  // departure ply of each candidate, in candidate order
  uint8_t order[16];   // candidate indices by departure ply
  unsigned count = 0;  // number of candidates
};

/// Throws std::invalid_argument unless `s` can be encoded. Fills changes[i] with the change
/// that starts run i (i >= 1) and `departures` with the home pawns that left.
void check_consistent(const Signature& s, Change (&changes)[kMaxRuns], Departures& departures) {
  if (s.material.empty() || s.material.front().first_ply != 0 ||
      s.material.back().last_ply != s.plies)
    inconsistent("the material timeline does not cover plies 0..plies");
  if (s.material.size() > kMaxRuns) inconsistent("more material runs than a game can have");
  Bitboard start_occupied = 0, final_occupied = 0;
  for (chess::Piece pc : kPieces) {
    const int n = chess::popcount(s.start[pc]);
    if (chess::type_of(pc) == chess::KING ? n != 1 : n > 10)
      inconsistent("not a legal number of pieces at ply 0");
    if ((start_occupied & s.start[pc]) || (final_occupied & s.final[pc]))
      inconsistent("two pieces on one square");
    start_occupied |= s.start[pc];
    final_occupied |= s.final[pc];
  }
  if (s.material.front().key != key_of(s.start))
    inconsistent("first run is not the start material");
  uint8_t promotions = 0;
  for (size_t i = 1; i < s.material.size(); ++i) {
    const MaterialRun& prev = s.material[i - 1];
    const MaterialRun& run = s.material[i];
    if (prev.first_ply > prev.last_ply || run.first_ply != prev.last_ply + 1)
      inconsistent("material runs are not contiguous");
    const chess::Color mover = side_at(s.start_side, run.first_ply - 1);
    int& captured = changes[i].captured;
    int& promoted = changes[i].promoted;
    if (!material_change(prev.key, run.key, mover, captured, promoted))
      inconsistent("runs " + std::to_string(i - 1) + " and " + std::to_string(i) +
                   " are not one move apart");
    if (promoted) promotions |= uint8_t(1u << (4 * mover + promoted - chess::KNIGHT));
  }
  if (promotions != s.promotions) inconsistent("promotions do not match the material timeline");
  if (!s.start_fen &&
      (s.start != standard_start() || s.start_side != chess::WHITE || s.start_game_ply))
    inconsistent("no start FEN but not the standard start position");
  const MaterialKey last = s.material.back().key;
  for (chess::Piece pc : kPieces) {
    if ((s.start[pc] & ~s.ever[pc]) || (s.final[pc] & ~s.ever[pc]) ||
        (s.always[pc] & ~s.start[pc]) || (s.always[pc] & ~s.final[pc]))
      inconsistent("start, ever, always and final are not nested");
    if (chess::popcount(s.final[pc]) != count_in(last, pc))
      inconsistent("final position does not match the final material");
    if (chess::type_of(pc) == chess::PAWN && (s.ever[pc] & (chess::RANK_1_BB | chess::RANK_8_BB)))
      inconsistent("a pawn on rank 1 or 8");
  }
  if (s.checks[0] > kMaxChecks || s.checks[1] > kMaxChecks || s.castlings > chess::ANY_CASTLING)
    inconsistent("checks or castlings out of range");
  if (s.double_checks > 3 || (s.double_check(chess::WHITE) && !s.checks[chess::WHITE]) ||
      (s.double_check(chess::BLACK) && !s.checks[chess::BLACK]))
    inconsistent("double checks out of range or without a check");
  for (int bit = 0; bit < 4; ++bit) {
    const uint32_t p = s.castling_plies[bit];
    const bool ok = !(s.castlings >> bit & 1)
                        ? p == 0
                        : p < s.plies && side_at(s.start_side, p) == chess::Color(bit / 2);
    if (!ok) inconsistent("castling ply " + std::to_string(p) + " of castling bit " + std::to_string(bit));
  }
  for (chess::Color c : {chess::WHITE, chess::BLACK}) {
    for (int f = 0; f < 8; ++f) {
      const chess::Square h = home_square(c, f);
      const chess::Piece pawn = chess::make_piece(c, chess::PAWN);
      const uint32_t until = s.home_pawn_until[c][f];
      const bool ok = !(s.start[pawn] & chess::square_bb(h))   ? until == 0
                      : (s.always[pawn] & chess::square_bb(h)) ? until == s.plies + 1
                                                               : until >= 1 && until <= s.plies;
      if (!ok) inconsistent("home_pawn_until does not match start and always");
    }
  }
  Departures& d = departures;
  for (chess::Color c : {chess::WHITE, chess::BLACK})
    for (int f = 0; f < 8; ++f)
      if (s.home_pawn_until[c][f] != 0 && s.home_pawn_until[c][f] <= s.plies)
        d.until[d.count++] = s.home_pawn_until[c][f];
  for (unsigned i = 0; i < d.count; ++i) {  // insertion sort: at most 16
    unsigned j = i;
    for (; j > 0 && d.until[d.order[j - 1]] > d.until[i]; --j) d.order[j] = d.order[j - 1];
    d.order[j] = uint8_t(i);
  }
  for (unsigned i = 1; i < d.count; ++i)  // one move removes at most one home pawn
    if (d.until[d.order[i]] == d.until[d.order[i - 1]])
      inconsistent("two home pawns leave at the same ply");
}

}  // namespace

void encode(const Signature& s, std::string& out) {
  Change changes[kMaxRuns];
  Departures departures;
  check_consistent(s, changes, departures);
  out.reserve(out.size() + 128);  // enough for most games: one allocation
  uint8_t flags = 0;
  if (s.start_fen) flags |= kByteStartFen;
  if (s.chess960) flags |= kByteChess960;
  if (s.has_variations) flags |= kByteVariations;
  if (s.null_moves) flags |= kByteNullMoves;
  if (s.en_passant) flags |= kByteEnPassant;
  if (s.final_check) flags |= kByteFinalCheck;
  if (s.final_no_moves) flags |= kByteFinalNoMoves;
  if (s.start_side == chess::BLACK) flags |= kByteBlackStarts;
  out.push_back(char(flags));
  out.push_back(char(s.castlings | promoted_types_of(s.promotions) << 4));
  out.push_back(char(s.checks[chess::WHITE] | s.checks[chess::BLACK] << 4));
  const MaterialKey min = min_over(s.material);
  out.push_back(char(min_byte(min, chess::WHITE)));
  out.push_back(char(min_byte(min, chess::BLACK)));
  out.push_back(char(s.double_checks));
  db::codec::put_varint(out, s.plies);
  for (int bit = 0; bit < 4; ++bit)
    if (s.castlings >> bit & 1) db::codec::put_varint(out, s.castling_plies[bit]);
  if (s.start_fen) {
    db::codec::put_varint(out, s.start_game_ply);
    Bitboard occupied = 0;
    for (chess::Piece pc : kPieces) occupied |= s.start[pc];
    for (int i = 0; i < 8; ++i) out.push_back(char(occupied >> (8 * i)));
    unsigned nibbles = 0, n = 0;
    for (Bitboard b = occupied; b;) {
      const chess::Square sq = chess::pop_lsb(b);
      unsigned code = 0;
      for (chess::Piece pc : kPieces)
        if (s.start[pc] & chess::square_bb(sq)) code = pc;
      nibbles |= code << (4 * n);
      if (++n == 2) {
        out.push_back(char(nibbles));
        nibbles = n = 0;
      }
    }
    if (n) out.push_back(char(nibbles));
  }

  BitWriter w(out);
  // 1. material timeline
  w.gamma(uint32_t(s.material.size()));
  for (size_t i = 1; i < s.material.size(); ++i) {
    const MaterialRun& run = s.material[i];
    w.gamma(run.first_ply - s.material[i - 1].first_ply);
    put_material_change(w, changes[i].captured, changes[i].promoted);
  }
  // 2. always
  for (chess::Piece pc : kPieces) put_subset(w, s.always[pc], s.start[pc]);
  // 3. home pawns, in order of departure
  uint32_t left = (uint32_t(1) << departures.count) - 1;  // candidates not listed yet
  for (unsigned i = 0, previous = 0; i < departures.count; ++i) {
    const unsigned next = departures.order[i];
    w.bits(uint32_t(std::popcount(left & ((uint32_t(1) << next) - 1))),
           BitWriter::width_for(uint32_t(std::popcount(left))));
    w.gamma(departures.until[next] - previous);
    previous = departures.until[next];
    left &= ~(uint32_t(1) << next);
  }
  // 4. ever: visited squares beyond the start squares, as gaps in the piece's square order
  for (chess::Piece pc : kPieces) {
    Bitboard extra = s.ever[pc] & ~s.start[pc];
    w.gamma(uint32_t(chess::popcount(extra)) + 1);
    uint64_t indices = 0;
    while (extra) indices |= uint64_t(1) << order_index(pc, chess::pop_lsb(extra));
    for (int last = -1; indices;) {
      const int index = chess::pop_lsb(indices);
      w.gamma(uint32_t(index - last));
      last = index;
    }
  }
  // 5. final position, relative to ever
  const MaterialKey last = s.material.back().key;
  for (chess::Piece pc : kPieces) {
    const int m = count_in(last, pc), n = chess::popcount(s.ever[pc]);
    if (m == 0 || m == n) continue;
    if (m == 1) {
      const Bitboard below = chess::square_bb(chess::lsb(s.final[pc])) - 1;
      w.bits(uint32_t(chess::popcount(s.ever[pc] & below)), BitWriter::width_for(uint32_t(n)));
    } else {
      put_subset(w, s.final[pc], s.ever[pc]);
    }
  }
  w.flush();
}

// ---- decode -----------------------------------------------------------------------------

namespace {

[[noreturn]] void corrupt(const char* section, const std::string& problem) {
  throw CorruptSignature(std::string("corrupt signature: ") + section + ": " + problem);
}

/// Reads what put_subset() wrote: one bit per square of `among`, lowest square first.
Bitboard get_subset(BitReader& r, Bitboard among) {
  const unsigned n = unsigned(chess::popcount(among));
  uint64_t bits = r.bits(std::min(n, 32u));
  if (n > 32) bits |= uint64_t(r.bits(n - 32)) << 32;
  Bitboard out = 0;
  for (; bits; bits >>= 1) {
    const Bitboard lowest = among & (~among + 1);
    if (bits & 1) out |= lowest;
    among ^= lowest;
  }
  return out;
}

/// The `index`-th lowest square of `b` (index < popcount(b)).
chess::Square nth_square(Bitboard b, uint32_t index) {
  for (uint32_t i = 0; i < index; ++i) b &= b - 1;
  return chess::lsb(b);
}

const char* color_name(chess::Color c) {
  return c == chess::WHITE ? "white" : "black";
}

const char* type_name(int pt) {
  static const char* const kNames[] = {"", "pawn", "knight", "bishop", "rook", "queen", "king"};
  return kNames[pt];
}

/// Reads the byte header and the start position block; returns the bit-stream part. Sets
/// `summary_bytes` to bytes 1 (bits 4-7), 3 and 4, which decode() checks against the timeline.
std::string_view decode_header(std::string_view bytes, Signature& s, uint32_t& summary_bytes) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  if (bytes.size() < 7) corrupt("header", "only " + std::to_string(bytes.size()) + " bytes");
  const uint8_t flags = p[0];
  s.start_fen = flags & kByteStartFen;
  s.chess960 = flags & kByteChess960;
  s.has_variations = flags & kByteVariations;
  s.null_moves = flags & kByteNullMoves;
  s.en_passant = flags & kByteEnPassant;
  s.final_check = flags & kByteFinalCheck;
  s.final_no_moves = flags & kByteFinalNoMoves;
  s.start_side = flags & kByteBlackStarts ? chess::BLACK : chess::WHITE;
  s.castlings = p[1] & 15;
  s.checks[chess::WHITE] = p[2] & 15;
  s.checks[chess::BLACK] = p[2] >> 4;
  summary_bytes = uint32_t(p[1] >> 4) | uint32_t(p[3]) << 8 | uint32_t(p[4]) << 16;
  s.double_checks = p[5];
  if (s.double_checks > 3 || (s.double_check(chess::WHITE) && !s.checks[chess::WHITE]) ||
      (s.double_check(chess::BLACK) && !s.checks[chess::BLACK]))
    corrupt("header", "bad double-check byte " + std::to_string(p[5]));
  p += 6;
  if (!db::codec::get_varint(p, end, s.plies) || s.plies == UINT32_MAX)
    corrupt("header", "bad ply count");
  for (int bit = 0; bit < 4; ++bit) {
    if (!(s.castlings >> bit & 1)) continue;
    uint32_t& ply = s.castling_plies[bit];
    if (!db::codec::get_varint(p, end, ply)) corrupt("header", "bad castling ply");
    if (ply >= s.plies || side_at(s.start_side, ply) != chess::Color(bit / 2))
      corrupt("header", "castling ply " + std::to_string(ply) + " of castling bit " + std::to_string(bit) +
                            " is not a move of the castling side");
  }
  if (!s.start_fen) {
    if (s.start_side != chess::WHITE) corrupt("header", "Black to move in the standard start");
    s.start = standard_start();
    return {reinterpret_cast<const char*>(p), size_t(end - p)};
  }
  if (!db::codec::get_varint(p, end, s.start_game_ply)) corrupt("start position", "bad game ply");
  if (end - p < 8) corrupt("start position", "truncated");
  Bitboard occupied = 0;
  for (int i = 0; i < 8; ++i) occupied |= Bitboard(p[i]) << (8 * i);
  p += 8;
  const int k = chess::popcount(occupied);
  if (end - p < (k + 1) / 2) corrupt("start position", "truncated");
  int n = 0;
  for (Bitboard b = occupied; b; ++n) {
    const chess::Square sq = chess::pop_lsb(b);
    const unsigned code = (p[n / 2] >> (4 * (n % 2))) & 15;
    const chess::PieceType pt = chess::type_of(chess::Piece(code));
    if (pt == chess::NO_PIECE_TYPE || pt == 7)
      corrupt("start position", "bad piece code " + std::to_string(code));
    s.start[code] |= chess::square_bb(sq);
  }
  if (k % 2 && (p[k / 2] >> 4)) corrupt("start position", "padding nibble not 0");
  p += (k + 1) / 2;
  for (chess::Piece pc : kPieces) {
    const int count = chess::popcount(s.start[pc]);
    if (chess::type_of(pc) == chess::KING ? count != 1 : count > 10)
      corrupt("start position", std::to_string(count) + " " + color_name(chess::color_of(pc)) +
                                    " " + type_name(chess::type_of(pc)) + "s");
  }
  if ((s.start[chess::W_PAWN] | s.start[chess::B_PAWN]) & (chess::RANK_1_BB | chess::RANK_8_BB))
    corrupt("start position", "a pawn on rank 1 or 8");
  return {reinterpret_cast<const char*>(p), size_t(end - p)};
}

/// Lowers colour `c`'s `pt` count in `min` to its count in `key` if that is smaller.
void lower_min(MaterialKey& min, MaterialKey key, chess::Color c, chess::PieceType pt) {
  if (key.count(c, pt) < min.count(c, pt)) min.remove(c, pt);  // counts drop one at a time
}

/// Reads the material timeline; sets `min` to each kind's least count over its runs.
void decode_timeline(BitReader& r, Signature& s, MaterialKey& min) {
  const uint32_t runs = r.gamma();
  if (r.failed()) corrupt("material timeline", "truncated");
  if (runs > kMaxRuns || runs > uint64_t(s.plies) + 1)
    corrupt("material timeline",
            std::to_string(runs) + " runs in " + std::to_string(s.plies) + " plies");
  MaterialKey key = key_of(s.start);
  min = key;
  s.material.push_back({key, 0, 0});
  uint64_t first = 0;
  for (uint32_t i = 1; i < runs; ++i) {
    first += r.gamma();
    unsigned captured = chess::PAWN, promoted = 0;
    if (!r.bits(1)) {
      captured = r.bits(2) + chess::KNIGHT;
      if (captured > chess::ROOK && r.bits(1)) {
        captured = r.bits(3);
        promoted = r.bits(2) + chess::KNIGHT;
      }
    }
    const bool promotes = promoted != 0;
    if (r.failed()) corrupt("material timeline", "truncated");
    if (first > s.plies)
      corrupt("material timeline",
              "a run starts at ply " + std::to_string(first) + " after the last ply");
    if (captured > chess::QUEEN)
      corrupt("material timeline", "bad captured type " + std::to_string(captured));
    const chess::Color mover = side_at(s.start_side, uint32_t(first) - 1);
    if (captured) {
      if (key.count(~mover, chess::PieceType(captured)) == 0)
        corrupt("material timeline", std::string("a capture of a ") + color_name(~mover) + " " +
                                         type_name(int(captured)) + ", which is not on the board");
      key.remove(~mover, chess::PieceType(captured));
      lower_min(min, key, ~mover, chess::PieceType(captured));
    }
    if (promotes) {
      if (key.count(mover, chess::PAWN) == 0 || key.count(mover, chess::PieceType(promoted)) == 15)
        corrupt("material timeline",
                std::string("an impossible ") + color_name(mover) + " promotion");
      key.remove(mover, chess::PAWN);
      lower_min(min, key, mover, chess::PAWN);
      key.add(mover, chess::PieceType(promoted));
      s.promotions |= uint8_t(1u << (4 * mover + promoted - chess::KNIGHT));
    }
    s.material.back().last_ply = uint32_t(first) - 1;
    s.material.push_back({key, uint32_t(first), uint32_t(first)});
  }
  s.material.back().last_ply = s.plies;
}

void decode_home_pawns(BitReader& r, Signature& s) {
  chess::Color colors[16];
  int files[16];
  unsigned left = 0;
  for (chess::Color c : {chess::WHITE, chess::BLACK}) {
    const chess::Piece pawn = chess::make_piece(c, chess::PAWN);
    for (int f = 0; f < 8; ++f) {
      const Bitboard home = chess::square_bb(home_square(c, f));
      if (!(s.start[pawn] & home)) {
        s.home_pawn_until[c][f] = 0;
      } else if (s.always[pawn] & home) {
        s.home_pawn_until[c][f] = s.plies + 1;
      } else {
        colors[left] = c;
        files[left++] = f;
      }
    }
  }
  for (uint64_t ply = 0; left > 0;) {
    const unsigned next = r.bits(BitWriter::width_for(left));
    ply += r.gamma();
    if (r.failed()) corrupt("home pawns", "truncated");
    if (next >= left) corrupt("home pawns", "bad pawn index " + std::to_string(next));
    if (ply > s.plies) corrupt("home pawns", "a departure after the last ply");
    s.home_pawn_until[colors[next]][files[next]] = uint32_t(ply);
    --left;
    for (unsigned i = next; i < left; ++i) {
      colors[i] = colors[i + 1];
      files[i] = files[i + 1];
    }
  }
}

void decode_ever(BitReader& r, Signature& s) {
  for (chess::Piece pc : kPieces) {
    const uint32_t n = r.gamma() - 1;
    if (r.failed()) corrupt("ever", "truncated");
    if (n > 64u - unsigned(chess::popcount(s.start[pc]))) corrupt("ever", "too many squares");
    Bitboard ever = s.start[pc];
    uint64_t index = uint64_t(-1);
    for (uint32_t i = 0; i < n; ++i) {
      index += r.gamma();
      if (r.failed()) corrupt("ever", "truncated");
      if (index > 63) corrupt("ever", "square index beyond 63");
      const Bitboard bb = chess::square_bb(order_square(pc, unsigned(index)));
      if (ever & bb) corrupt("ever", "a start square listed again");
      ever |= bb;
    }
    if (chess::type_of(pc) == chess::PAWN && (ever & (chess::RANK_1_BB | chess::RANK_8_BB)))
      corrupt("ever", "a pawn on rank 1 or 8");
    s.ever[pc] = ever;
  }
}

void decode_final(BitReader& r, Signature& s) {
  const MaterialKey last = s.material.back().key;
  Bitboard occupied = 0;
  for (chess::Piece pc : kPieces) {
    const int m = count_in(last, pc), n = chess::popcount(s.ever[pc]);
    if (m > n) corrupt("final position", "more pieces than squares they visited");
    Bitboard final = 0;
    if (m == n) {
      final = s.ever[pc];
    } else if (m == 1) {
      const uint32_t index = r.bits(BitWriter::width_for(uint32_t(n)));
      if (index >= uint32_t(n)) corrupt("final position", "bad square index");
      final = chess::square_bb(nth_square(s.ever[pc], index));
    } else if (m > 1) {
      final = get_subset(r, s.ever[pc]);
      if (chess::popcount(final) != m)
        corrupt("final position", "does not match the final material");
    }
    if (s.always[pc] & ~final) corrupt("final position", "lacks a square occupied throughout");
    if (final & occupied) corrupt("final position", "two pieces on one square");
    occupied |= final;
    s.final[pc] = final;
  }
  if (r.failed()) corrupt("final position", "truncated");
}

}  // namespace

void decode(std::string_view bytes, Signature& s, DecodeScope scope) {
  s.clear();
  uint32_t summary_bytes = 0;
  BitReader r(decode_header(bytes, s, summary_bytes));
  if (scope == DecodeScope::kHeader) return;
  MaterialKey min;
  decode_timeline(r, s, min);
  if (summary_bytes != (uint32_t(promoted_types_of(s.promotions)) |
                        uint32_t(min_byte(min, chess::WHITE)) << 8 |
                        uint32_t(min_byte(min, chess::BLACK)) << 16))
    corrupt("header", "promotion or least-material bytes do not match the material timeline");
  if (scope == DecodeScope::kMaterial) return;
  for (chess::Piece pc : kPieces) s.always[pc] = get_subset(r, s.start[pc]);
  if (r.failed()) corrupt("always", "truncated");
  decode_home_pawns(r, s);
  decode_ever(r, s);
  decode_final(r, s);
  if (!r.at_clean_end()) corrupt("end", "bytes or bits after the last section");
}

Signature decode(std::string_view bytes) {
  Signature s;
  decode(bytes, s);
  return s;
}

}  // namespace sig
