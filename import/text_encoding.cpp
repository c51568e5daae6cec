// The Windows-1252 / DOS fallback decoders (see text_encoding.h); UTF-8 itself is db/utf8.h.
#include "import/text_encoding.h"

#include <cstdint>
#include <cstring>

#include "db/utf8.h"

namespace import {
namespace {

using db::utf8_sequence_length;

using Byte = unsigned char;

/// True if the 8 bytes at p are all ASCII.
inline bool ascii8(const Byte* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return (w & 0x8080808080808080ull) == 0;
}

bool is_ascii_letter(Byte c) {
  return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

// Windows-1252 0x80-0x9F (0xA0-0xFF equal their code points). The five undefined bytes map
// to the C1 code points, as in the WHATWG encoding standard.
constexpr uint16_t kWindows1252[32] = {
    0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,  // 80-87
    0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,  // 88-8F
    0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,  // 90-97
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,  // 98-9F
};

// CP850 0x80-0xFF. It agrees with CP437 on 0x80-0x9A and 0xA0-0xA8 (all accented letters);
// where they differ (0x9B ø / ¢, 0x9D Ø / ¥, 0xB5 Á / box drawing, ...) CP850 has the
// letters, which are what names and comments contain.
constexpr uint16_t kCp850[128] = {
    0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7,  // 80-87
    0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,  // 88-8F
    0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9,  // 90-97
    0x00FF, 0x00D6, 0x00DC, 0x00F8, 0x00A3, 0x00D8, 0x00D7, 0x0192,  // 98-9F
    0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA,  // A0-A7
    0x00BF, 0x00AE, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,  // A8-AF
    0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x00C1, 0x00C2, 0x00C0,  // B0-B7
    0x00A9, 0x2563, 0x2551, 0x2557, 0x255D, 0x00A2, 0x00A5, 0x2510,  // B8-BF
    0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x00E3, 0x00C3,  // C0-C7
    0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x00A4,  // C8-CF
    0x00F0, 0x00D0, 0x00CA, 0x00CB, 0x00C8, 0x0131, 0x00CD, 0x00CE,  // D0-D7
    0x00CF, 0x2518, 0x250C, 0x2588, 0x2584, 0x00A6, 0x00CC, 0x2580,  // D8-DF
    0x00D3, 0x00DF, 0x00D4, 0x00D2, 0x00F5, 0x00D5, 0x00B5, 0x00FE,  // E0-E7
    0x00DE, 0x00DA, 0x00DB, 0x00D9, 0x00FD, 0x00DD, 0x00AF, 0x00B4,  // E8-EF
    0x00AD, 0x00B1, 0x2017, 0x00BE, 0x00B6, 0x00A7, 0x00F7, 0x00B8,  // F0-F7
    0x00B0, 0x00A8, 0x00B7, 0x00B9, 0x00B3, 0x00B2, 0x25A0, 0x00A0,  // F8-FF
};

void append_code_point(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out.push_back(char(cp));
  } else if (cp < 0x800) {
    out.push_back(char(0xC0 | (cp >> 6)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(char(0xE0 | (cp >> 12)));
    out.push_back(char(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(char(0x80 | (cp & 0x3F)));
  }
}

uint32_t decode_byte(Byte b, LegacyEncoding encoding) {
  if (encoding == LegacyEncoding::kDos) return kCp850[b - 0x80];
  return b < 0xA0 ? kWindows1252[b - 0x80] : b;
}

}  // namespace

bool has_non_ascii(std::string_view text) {
  const Byte* p = reinterpret_cast<const Byte*>(text.data());
  const Byte* end = p + text.size();
  for (; end - p >= 8; p += 8) {
    if (!ascii8(p)) return true;
  }
  for (; p < end; ++p) {
    if (*p >= 0x80) return true;
  }
  return false;
}

LegacyEncoding guess_legacy_encoding(std::string_view text) {
  const Byte* begin = reinterpret_cast<const Byte*>(text.data());
  const Byte* end = begin + text.size();
  bool seen[0x26] = {};  // which stray bytes 0x80..0xA5 occur
  bool undefined_in_1252 = false;
  size_t stray = 0, in_word = 0;
  for (const Byte* p = begin; p < end;) {
    const size_t n = utf8_sequence_length(p, end);
    if (n != 0) {
      p += n;
      continue;
    }
    const Byte b = *p;
    if (b >= 0xA6) return LegacyEncoding::kWindows1252;  // rule 1
    if (b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D) undefined_in_1252 = true;
    seen[b - 0x80] = true;
    ++stray;
    const bool letter_before = p > begin && is_ascii_letter(p[-1]);
    const bool letter_after = p + 1 < end && is_ascii_letter(p[1]);
    if (letter_after || (letter_before && b != 0xA0)) ++in_word;
    ++p;
  }
  if (undefined_in_1252) return LegacyEncoding::kDos;  // rule 2
  if ((seen[0x13] && seen[0x14]) || (seen[0x11] && seen[0x12])) {
    return LegacyEncoding::kWindows1252;  // rule 3
  }
  return in_word * 2 > stray ? LegacyEncoding::kDos : LegacyEncoding::kWindows1252;  // rule 4
}

void to_utf8(std::string_view in, std::string& out) {
  out.clear();
  if (is_valid_utf8(in)) {
    out.assign(in);
    return;
  }
  const LegacyEncoding encoding = guess_legacy_encoding(in);
  out.reserve(in.size() + in.size() / 2);
  const Byte* p = reinterpret_cast<const Byte*>(in.data());
  const Byte* end = p + in.size();
  while (p < end) {
    const size_t n = utf8_sequence_length(p, end);
    if (n != 0) {
      out.append(reinterpret_cast<const char*>(p), n);
      p += n;
    } else {
      append_code_point(out, decode_byte(*p, encoding));
      ++p;
    }
  }
}

}  // namespace import
