#include "db/utf8.h"

#include <cstdint>
#include <cstring>

namespace db {

namespace {

using Byte = unsigned char;

/// True if the 8 bytes at p are all ASCII.
inline bool ascii8(const Byte* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return (w & 0x8080808080808080ull) == 0;
}

}  // namespace

size_t utf8_sequence_length(const Byte* p, const Byte* end) {
  const Byte c = p[0];
  if (c < 0x80) return 1;
  auto cont = [&](size_t i, Byte lo = 0x80, Byte hi = 0xBF) {
    return p + i < end && p[i] >= lo && p[i] <= hi;
  };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const Byte lo = c == 0xE0 ? 0xA0 : 0x80;
    const Byte hi = c == 0xED ? 0x9F : 0xBF;
    return cont(1, lo, hi) && cont(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const Byte lo = c == 0xF0 ? 0x90 : 0x80;
    const Byte hi = c == 0xF4 ? 0x8F : 0xBF;
    return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
  }
  return 0;
}

bool is_valid_utf8(std::string_view text) {
  const Byte* p = reinterpret_cast<const Byte*>(text.data());
  const Byte* end = p + text.size();
  while (p < end) {
    if (end - p >= 8 && ascii8(p)) {
      p += 8;
      continue;
    }
    const size_t n = utf8_sequence_length(p, end);
    if (n == 0) return false;
    p += n;
  }
  return true;
}

std::string repair_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  std::string out;
  out.reserve(text.size() + 8);
  const Byte* begin = reinterpret_cast<const Byte*>(text.data());
  const Byte* end = begin + text.size();
  for (const Byte* p = begin; p < end;) {
    const size_t n = utf8_sequence_length(p, end);
    if (n == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD
      ++p;
      continue;
    }
    out.append(reinterpret_cast<const char*>(p), n);
    p += n;
  }
  return out;
}

}  // namespace db
