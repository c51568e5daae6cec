// Byte-level encoding helpers of the game record (record_format.h): unsigned LEB128
// varints and little-endian 16-bit words.
#pragma once

#include <cstdint>
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

}  // namespace db::codec
