// summarize() and read_summary() of signature.h: the fixed-place Summary bytes (layout in
// signature.h, bytes 0-5 and the varints after them).
#include <array>

#include "db/record_codec.h"
#include "index/signature.h"

namespace sig {

namespace {

/// The lower bounds that byte 3 (White) or 4 (Black) value `v` of colour `c` stands for
/// (signature.h), added to `key`.
void add_min_byte(MaterialKey& key, uint8_t v, chess::Color c) {
  const uint64_t counts[5] = {v & 3u, v >> 7 & 1u, v >> 5 & 3u, v >> 3 & 3u, v >> 2 & 1u};  // P N B R Q
  uint64_t bits = key.bits();
  for (int i = 0; i < 5; ++i) bits += counts[i] << MaterialKey::shift(c, chess::PieceType(chess::PAWN + i));
  key = MaterialKey(bits);
}

}  // namespace

Summary summarize(const Signature& s) {
  Summary out;
  std::string bytes;
  encode(s, bytes);
  read_summary(bytes, out);
  return out;
}

bool read_summary(std::string_view bytes, Summary& out) {
  if (bytes.size() < 7) return false;
  const uint8_t* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint8_t* end = p + bytes.size();
  out.flags = p[0];
  out.castlings = p[1] & 15;
  out.promoted_types = p[1] >> 4;
  out.checks[chess::WHITE] = p[2] & 15;
  out.checks[chess::BLACK] = p[2] >> 4;
  // White's lower bounds for each byte value (Black's are the same 20 bits higher).
  static const std::array<uint64_t, 256> kWhite = [] {
    std::array<uint64_t, 256> t{};
    for (unsigned v = 0; v < 256; ++v) {
      MaterialKey k;
      add_min_byte(k, uint8_t(v), chess::WHITE);
      t[v] = k.bits();
    }
    return t;
  }();
  static_assert(MaterialKey::shift(chess::BLACK, chess::PAWN) == 20);
  out.min_material = MaterialKey(kWhite[p[3]] | kWhite[p[4]] << 20);
  out.double_checks = p[5];
  p += 6;
  if (!db::codec::get_varint(p, end, out.plies)) return false;
  out.castling_plies = {};
  for (int bit = 0; bit < 4; ++bit)
    if ((out.castlings >> bit & 1) && !db::codec::get_varint(p, end, out.castling_plies[bit])) return false;
  out.start_game_ply = 0;
  if ((out.flags & kByteStartFen) && !db::codec::get_varint(p, end, out.start_game_ply)) return false;
  return true;
}

}  // namespace sig
