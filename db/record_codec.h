// Byte-level encoding helpers of the game record (record_format.h): unsigned LEB128
// varints, little-endian 16-bit words and packed 12-bit arrays.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

namespace db::codec {

/// Appends `value` as a varint (1-5 bytes).
inline void put_varint(std::string& out, uint32_t value) {
  while (value >= 0x80) {
    out.push_back(char(uint8_t(value | 0x80)));
    value >>= 7;
  }
  out.push_back(char(uint8_t(value)));
}

/// Reads a varint at `p` (not past `end`) into `value` and advances `p`. Returns false for
/// a truncated, overlong or > 32-bit encoding (then `p` is unspecified).
inline bool get_varint(const uint8_t*& p, const uint8_t* end, uint32_t& value) {
  uint64_t result = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (p == end) return false;
    uint8_t byte = *p++;
    result |= uint64_t(byte & 0x7F) << shift;
    if (!(byte & 0x80)) {
      if (byte == 0 && shift != 0) return false;  // overlong: a redundant zero group
      if (result > UINT32_MAX) return false;
      value = uint32_t(result);
      return true;
    }
  }
  return false;
}

/// Appends `word` as 2 little-endian bytes.
inline void put_u16(std::string& out, uint16_t word) {
  out.push_back(char(uint8_t(word)));
  out.push_back(char(uint8_t(word >> 8)));
}

/// Reads the little-endian 16-bit word at `p` (2 bytes must be readable).
inline uint16_t get_u16(const uint8_t* p) {
  return uint16_t(p[0] | (p[1] << 8));
}

/// Reads the little-endian 64-bit word at `p` (8 bytes must be readable).
inline uint64_t get_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);  // one load
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap64(v);
#endif
  return v;
}

/// Bytes of an array of `n` 12-bit values (the packed main line of record_format.h).
constexpr uint64_t packed_u12_bytes(uint64_t n) { return (3 * n + 1) / 2; }

/// Value `i` of a packed array of 12-bit values at `p` (value i at bit 12i, bits filling each
/// byte from its least significant bit); bytes [3i/2, 3i/2 + 1] must be readable, which
/// packed_u12_bytes(n) bytes guarantee for every i < n.
inline uint16_t get_u12(const uint8_t* p, size_t i) {
  const uint8_t* q = p + (3 * i >> 1);
  const unsigned v = unsigned(q[0]) | (unsigned(q[1]) << 8);
  return uint16_t((v >> ((i & 1) * 4)) & 0xFFF);  // branch-free: odd values start at bit 4
}

}  // namespace db::codec
