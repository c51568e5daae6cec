// The byte layout of the position index files (documented in position_index.h): constants,
// little-endian integers, varints, the block codec and the 16-byte GameFacts record.
// Internal to index/position_index*.cpp and `cqldb check`.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "index/position_index.h"

namespace posindex::format {

inline constexpr char kManifestMagic[8] = {'C', 'Q', 'L', 'P', 'I', 'D', 'X', '1'};
inline constexpr char kFactsMagic[8] = {'C', 'Q', 'L', 'P', 'F', 'C', 'T', '1'};
inline constexpr char kSegmentMagic[8] = {'C', 'Q', 'L', 'P', 'S', 'E', 'G', '1'};
inline constexpr size_t kManifestHeaderBytes = 8 + 4 * 4;
inline constexpr size_t kFactsHeaderBytes = 16;
inline constexpr size_t kFactsBytes = 16;
inline constexpr size_t kSegmentHeaderBytes = 8 + 4 * 4 + 8;
inline constexpr size_t kDirectoryEntryBytes = 16;

/// File name of the segment of games first..last (a merge writes a new name, so the files
/// an older manifest names stay until the new manifest is in place).
inline std::string segment_name(uint32_t first, uint32_t last) {
  return "positions-" + std::to_string(first) + "-" + std::to_string(last) + ".seg";
}

// Little-endian hosts only (x86-64, arm64), as the rest of the stored formats.
inline uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t read_u64(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline uint16_t read_u16(const char* p) {
  uint16_t v;
  std::memcpy(&v, p, 2);
  return v;
}
template <typename T>
void append_le(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}
inline void append_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    out.push_back(char(uint8_t(v) | 0x80));
    v >>= 7;
  }
  out.push_back(char(v));
}

/// One decoded entry of a segment.
struct Entry {
  uint64_t key = 0;   ///< identity key
  uint32_t game = 0;  ///< game id
  uint16_t move = 0;  ///< raw chess::Move played next, 0 = none
};

/// Decodes the entries of one block in order; next() returns false on a damaged block.
class BlockReader {
 public:
  BlockReader(const char* p, const char* end, uint64_t first_key) : p_(p), end_(end), key_(first_key) {}
  bool next(Entry& e) {
    uint64_t delta, id;
    if (!varint(delta) || !varint(id) || end_ - p_ < 2) return false;
    const bool same = delta == 0 && !first_;
    key_ += delta;
    game_ = same ? game_ + uint32_t(id) : uint32_t(id);
    first_ = false;
    e.key = key_;
    e.game = game_;
    e.move = read_u16(p_);
    p_ += 2;
    return true;
  }

 private:
  bool varint(uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64 && p_ < end_; shift += 7) {
      const uint8_t b = uint8_t(*p_++);
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  }
  const char* p_;
  const char* end_;
  uint64_t key_;
  uint32_t game_ = 0;
  bool first_ = true;
};

/// Appends an entry to a block being written (`prev` is the previous entry of the block,
/// `first` true for the block's first entry, whose key is the block's first key).
inline void encode_entry(std::string& out, const Entry& e, const Entry& prev, bool first) {
  const uint64_t delta = first ? 0 : e.key - prev.key;
  append_varint(out, delta);
  append_varint(out, (!first && delta == 0) ? e.game - prev.game : e.game);
  append_le<uint16_t>(out, e.move);
}

inline void encode_facts(const GameFacts& f, char* out) {
  std::memcpy(out, &f.white_elo, 2);
  std::memcpy(out + 2, &f.black_elo, 2);
  std::memcpy(out + 4, &f.year, 2);
  out[6] = char(f.result);
  out[7] = char(f.flags);
  const Frontier& t = f.frontier;
  const uint8_t b[8] = {t.castling, t.white_home, t.black_home, t.white_men, t.black_men, t.white_pawns, t.black_pawns, 0};
  std::memcpy(out + 8, b, 8);
}

inline GameFacts decode_facts(const char* p) {
  GameFacts f;
  std::memcpy(&f.white_elo, p, 2);
  std::memcpy(&f.black_elo, p + 2, 2);
  std::memcpy(&f.year, p + 4, 2);
  f.result = uint8_t(p[6]);
  f.flags = uint8_t(p[7]);
  Frontier& t = f.frontier;
  t.castling = uint8_t(p[8]);
  t.white_home = uint8_t(p[9]);
  t.black_home = uint8_t(p[10]);
  t.white_men = uint8_t(p[11]);
  t.black_men = uint8_t(p[12]);
  t.white_pawns = uint8_t(p[13]);
  t.black_pawns = uint8_t(p[14]);
  return f;
}

}  // namespace posindex::format
