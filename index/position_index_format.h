// The byte layout of the position index files (documented in position_index.h): constants,
// little-endian integers, the bit coder, the group codec of segment blocks and the 16-byte
// GameFacts record. Internal to index/position_index*.cpp and `cqldb check`.
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "index/position_index.h"

namespace posindex::format {

inline constexpr char kManifestMagic[8] = {'C', 'Q', 'L', 'P', 'I', 'D', 'X', '1'};
inline constexpr char kFactsMagic[8] = {'C', 'Q', 'L', 'P', 'F', 'C', 'T', '1'};
inline constexpr char kSegmentMagic[8] = {'C', 'Q', 'L', 'P', 'S', 'E', 'G', '1'};
inline constexpr size_t kManifestHeaderBytes = 8 + 4 * 4;
inline constexpr size_t kFactsHeaderBytes = 16;
inline constexpr size_t kFactsBytes = 12;
/// magic, version, first id, last id, block count, directory offset (u32 each), entry count
/// u64, group count u64, key Rice parameter u32, reserved u32.
inline constexpr size_t kSegmentHeaderBytes = 8 + 5 * 4 + 8 + 8 + 4 + 4;
/// first top u64, offset u32, groups u32.
inline constexpr size_t kDirectoryEntryBytes = 16;
/// Low key bits stored by a group whose moves are known (64 - kTopKeyBits).
inline constexpr unsigned kLowKeyBits = 64 - kTopKeyBits;
/// A Rice quotient of this many or more is written as this many zeros and a gamma code.
inline constexpr unsigned kRiceEscape = 24;

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
template <typename T>
void append_le(std::string& out, T v) {
  char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  out.append(b, sizeof(T));
}

/// The top kTopKeyBits bits of an identity key (what every group stores).
inline uint64_t top_of(uint64_t key) { return key >> kLowKeyBits; }
/// The low kLowKeyBits bits of an identity key (stored by groups with known moves).
inline uint64_t low_of(uint64_t key) { return key & ((uint64_t(1) << kLowKeyBits) - 1); }

// ---- Bits -------------------------------------------------------------------------------------
// Bits are packed least significant first (bit 0 of byte 0 first); a value of n bits is
// written low bit first; a block ends padded with zero bits to a whole byte.
//   bits(v, n)   v in n plain bits
//   gamma(v)     v >= 1: k = floor(log2 v) zeros, a one, the low k bits of v
//   rice(v, k)   q = v >> k as q zeros and a one (q < kRiceEscape; else kRiceEscape zeros
//                and gamma(q - kRiceEscape + 1)), then the low k bits of v

/// Appends bits to a std::string. The string is complete only after flush() (whole words
/// are gathered in a small buffer and appended in bulk).
class BitOut {
 public:
  explicit BitOut(std::string& out) : out_(out) {}
  /// Writes the low `n` bits of `v` (n <= 64).
  void bits(uint64_t v, unsigned n) {
    if (n > 32) {
      bits(v & 0xFFFFFFFFu, 32);
      v >>= 32;
      n -= 32;
    }
    acc_ |= (v & mask(n)) << count_;
    count_ += n;
    if (count_ >= 32) {  // spill a whole 32-bit word (little-endian)
      const uint32_t word = uint32_t(acc_);
      std::memcpy(buf_ + used_, &word, 4);
      used_ += 4;
      if (used_ == sizeof buf_) drain();
      acc_ >>= 32;
      count_ -= 32;
    }
  }
  /// Writes the Elias gamma code of `v` (>= 1).
  void gamma(uint64_t v) {
    const unsigned k = unsigned(std::bit_width(v)) - 1;
    bits(0, k);
    bits(1, 1);
    bits(v, k);
  }
  /// Writes the Rice code of `v` with parameter `k` (< 64).
  void rice(uint64_t v, unsigned k) {
    const uint64_t q = v >> k;
    if (q < kRiceEscape) {
      bits(uint64_t(1) << q, unsigned(q) + 1);
    } else {
      bits(0, kRiceEscape);
      gamma(q - kRiceEscape + 1);
    }
    bits(v, k);
  }
  /// Writes the pending bits padded with zeros to a whole byte.
  void flush() {
    drain();
    for (; count_ > 0; count_ = count_ > 8 ? count_ - 8 : 0) {
      out_.push_back(char(acc_ & 0xFF));
      acc_ >>= 8;
    }
    acc_ = 0;
  }

 private:
  static uint64_t mask(unsigned n) { return n >= 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1; }
  void drain() {
    out_.append(buf_, used_);
    used_ = 0;
  }
  std::string& out_;
  uint64_t acc_ = 0;    // pending bits (< 32 between calls), first at bit 0
  unsigned count_ = 0;  // number of pending bits
  char buf_[256];       // whole words not yet appended to out_
  unsigned used_ = 0;   // bytes in buf_
};

/// Reads what BitOut wrote from [p, end). Reading past the end sets failed() and returns 0,
/// so that decoders check once per group; loops must be bounded by validated counts.
class BitIn {
 public:
  BitIn(const char* p, const char* end) : p_(reinterpret_cast<const uint8_t*>(p)), bytes_(size_t(end - p)) {}
  /// Reads `n` plain bits (n <= 64).
  uint64_t bits(unsigned n) {
    if (n > 56) {
      const uint64_t low = bits(32);
      return low | bits(n - 32) << 32;
    }
    if (pos_ + n > 8 * bytes_) return fail();
    const uint64_t v = n ? window() & ((uint64_t(1) << n) - 1) : 0;
    pos_ += n;
    return v;
  }
  uint64_t gamma() {
    const unsigned k = zeros(64);
    if (failed_ || k > 63) return fail();
    return (uint64_t(1) << k) | bits(k);
  }
  uint64_t rice(unsigned k) {
    // Fast path: the whole code within one window, far from the end.
    if ((pos_ >> 3) + 8 <= bytes_) {
      const uint64_t w = window();
      const unsigned z = unsigned(std::countr_zero(w | (uint64_t(1) << kRiceEscape)));
      if (z < kRiceEscape && z + 1 + k <= 57) {
        pos_ += z + 1 + k;
        return uint64_t(z) << k | ((w >> (z + 1)) & ((uint64_t(1) << k) - 1));
      }
    }
    uint64_t q = zeros(kRiceEscape);
    if (q == kRiceEscape) q = gamma() + kRiceEscape - 1;
    if (failed_ || (k && q >> (64 - k))) return fail();
    return q << k | bits(k);
  }
  /// Reads `n` Rice codes of parameter `k` (k <= 32) and passes each value to `f`, decoding
  /// every code that lies whole in a 64-bit load before loading again (the unary part by
  /// countr_zero, no loop per bit). Same values as `n` calls of rice(); stops at a failure.
  template <class F>
  void rice_each(unsigned k, uint64_t n, F&& f) {
    const uint64_t mask = (uint64_t(1) << k) - 1;
    while (n > 0) {
      unsigned used = 0;
      if ((pos_ >> 3) + 8 <= bytes_) {
        const unsigned avail = 64 - unsigned(pos_ & 7);
        uint64_t w = window();  // zeros above `avail`
        while (n > 0) {
          const unsigned z = unsigned(std::countr_zero(w));  // 64 when w == 0
          const unsigned len = z + 1 + k;
          if (z >= kRiceEscape || used + len > avail) break;
          f(uint64_t(z) << k | ((w >> (z + 1)) & mask));
          w = len >= 64 ? 0 : w >> len;
          used += len;
          --n;
        }
        pos_ += used;
      }
      if (used == 0) {  // near the end, an escape, or a code across the load: one at a time
        f(rice(k));
        --n;
        if (failed_) return;
      }
    }
  }
  /// Reads `n` values of `width` plain bits each (width <= 64) and passes each to `f`,
  /// several per 64-bit load. Same values as `n` calls of bits(width); stops at a failure.
  template <class F>
  void bits_each(unsigned width, uint64_t n, F&& f) {
    if (width == 0) {
      for (; n > 0; --n) f(uint64_t(0));
      return;
    }
    const uint64_t mask = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    while (n > 0) {
      if (width > 32 || (pos_ >> 3) + 8 > bytes_) {
        f(bits(width));
        --n;
        if (failed_) return;
        continue;
      }
      uint64_t w = window();
      const uint64_t take = std::min<uint64_t>(n, (64 - (pos_ & 7)) / width);
      for (uint64_t t = 0; t < take; ++t, w >>= width) f(w & mask);
      pos_ += take * width;
      n -= take;
    }
  }
  bool failed() const { return failed_; }
  /// True when every byte was read up to the padding of the last one, and the padding is zero.
  bool at_clean_end() const {
    if (failed_ || (pos_ + 7) / 8 != bytes_) return false;
    return pos_ % 8 == 0 || (p_[bytes_ - 1] >> (pos_ % 8)) == 0;
  }

 private:
  /// 57 or more bits from pos_ (zeros past the end).
  uint64_t window() const {
    const size_t byte = pos_ >> 3;
    uint64_t w = 0;
    if (byte + 8 <= bytes_) std::memcpy(&w, p_ + byte, 8);
    else if (byte < bytes_) std::memcpy(&w, p_ + byte, bytes_ - byte);
    return w >> (pos_ & 7);
  }
  /// Reads zeros up to and including a one, at most `limit` zeros (then the one is not read).
  unsigned zeros(unsigned limit) {
    unsigned total = 0;
    for (;;) {
      if (pos_ >= 8 * bytes_) return unsigned(fail());
      const uint64_t w = window() & ((uint64_t(1) << 56) - 1);
      const unsigned z = w ? unsigned(std::countr_zero(w)) : 56;
      if (total + z >= limit) {
        pos_ += limit - total;
        if (pos_ > 8 * bytes_) return unsigned(fail());
        return limit;
      }
      if (z < 56) {
        pos_ += z + 1;
        if (pos_ > 8 * bytes_) return unsigned(fail());
        return total + z;
      }
      pos_ += 56;
      total += 56;
    }
  }
  uint64_t fail() {
    failed_ = true;
    pos_ = 8 * bytes_;
    return 0;
  }
  const uint8_t* p_;
  size_t bytes_;
  uint64_t pos_ = 0;  // next bit
  bool failed_ = false;
};

// ---- Groups -------------------------------------------------------------------------------

/// One entry of a group: a game reaching the group's position at an indexed ply.
struct GroupEntry {
  uint32_t game = 0;   ///< game id
  uint16_t move = 0;   ///< raw chess::Move played next (0 = the line ends), when known
  bool known = false;  ///< the entry is exact (the group's full key) and `move` is stored
};

/// Entries sharing the top kTopKeyBits key bits, as stored in a block (position_index.h).
/// Invariant: has_low iff some entry is known; a group of one entry has none known.
struct Group {
  uint64_t top = 0;                 ///< top kTopKeyBits bits of the key
  bool has_low = false;             ///< `low` is stored: the known entries' exact key
  uint64_t low = 0;                 ///< low kLowKeyBits bits of the key (when has_low)
  std::vector<GroupEntry> entries;  ///< by game id, one game's occurrences in ply order
};

// SegmentCoding and SegmentHeader are declared in index/position_index.h (PositionIndex keeps
// each segment's header).

/// Rice parameter for the top-bit deltas of `groups` groups (about log2 of 0.69 x the mean gap).
inline unsigned key_rice_for(uint64_t groups) {
  if (groups == 0) return 0;
  const double mean = double(uint64_t(1) << (kTopKeyBits - 1)) * 2.0 / double(groups);
  const double target = mean * 0.69;
  return target < 2 ? 0 : unsigned(std::bit_width(uint64_t(target))) - 1;
}

/// Appends group `g` (`prev_top`: the previous group's top, or the block's first top) to a
/// block. A group of one entry is written without its move and low bits (a "singleton").
void encode_group(BitOut& out, const Group& g, uint64_t prev_top, const SegmentCoding& c);

/// Decodes one group into `g` (its vectors reused). False on damaged data (then `g` is
/// unspecified).
bool decode_group(BitIn& in, Group& g, uint64_t prev_top, const SegmentCoding& c);

/// What precedes a group's entries: decode_head() reads it, then decode_entries() the rest,
/// into an array the caller sized (so a lookup decodes a big group straight into its hits).
struct GroupHead {
  uint64_t top = 0;          ///< top kTopKeyBits bits of the key
  uint64_t count = 0;        ///< entries (validated against the segment's games)
  uint64_t first_game = 0;   ///< the first entry's game id minus the segment's first
  bool has_low = false;      ///< the low key bits are stored (some entry is known)
  bool all_known = false;    ///< every entry is known (has_low only)
  uint64_t low = 0;          ///< low kLowKeyBits bits of the key (has_low only)
};
/// Reads a group's head. False on damaged data.
bool decode_head(BitIn& in, GroupHead& head, uint64_t prev_top, const SegmentCoding& c);
/// Reads the entries of the group whose head is `head` into out[0..head.count). Unknown
/// entries get move 0 (PositionHit: Move::none(), known false). False on damaged data.
bool decode_entries(BitIn& in, const GroupHead& head, const SegmentCoding& c, GroupEntry* out);
bool decode_entries(BitIn& in, const GroupHead& head, const SegmentCoding& c, PositionHit* out);

inline void append_segment_header(std::string& out, const SegmentHeader& h) {
  out.append(kSegmentMagic, 8);
  append_le<uint32_t>(out, kPositionIndexVersion);
  append_le<uint32_t>(out, h.first);
  append_le<uint32_t>(out, h.last);
  append_le<uint32_t>(out, h.blocks);
  append_le<uint32_t>(out, h.directory);
  append_le<uint64_t>(out, h.entries);
  append_le<uint64_t>(out, h.groups);
  append_le<uint32_t>(out, h.key_rice);
  append_le<uint32_t>(out, 0);
}

/// Reads the header of a segment file of `size` bytes that must hold games first..last;
/// false when it is not one (magic, version, range, directory bounds).
inline bool read_segment_header(const char* s, size_t size, uint32_t first, uint32_t last, SegmentHeader& h) {
  if (!s || size < kSegmentHeaderBytes || std::memcmp(s, kSegmentMagic, 8) != 0 ||
      read_u32(s + 8) != kPositionIndexVersion || read_u32(s + 12) != first || read_u32(s + 16) != last)
    return false;
  h.first = first;
  h.last = last;
  h.blocks = read_u32(s + 20);
  h.directory = read_u32(s + 24);
  h.entries = read_u64(s + 28);
  h.groups = read_u64(s + 36);
  h.key_rice = read_u32(s + 44);
  return h.key_rice < kTopKeyBits && h.directory >= kSegmentHeaderBytes &&
         uint64_t(h.directory) + uint64_t(h.blocks) * kDirectoryEntryBytes == size;
}

/// One block of a segment: its bits and what the directory says of it.
struct BlockSpan {
  uint64_t first_top = 0;  ///< top of its first group
  uint32_t groups = 0;     ///< groups in it
  const char* begin = nullptr;
  const char* end = nullptr;
};

/// The directory's first top of block `b` of the segment at `base`.
inline uint64_t block_first_top(const char* base, const SegmentHeader& h, uint32_t b) {
  return read_u64(base + h.directory + size_t(b) * kDirectoryEntryBytes);
}

/// Block `b` (< h.blocks) of the segment at `base`; false when the directory is damaged.
inline bool block_span(const char* base, const SegmentHeader& h, uint32_t b, BlockSpan& out) {
  const char* e = base + h.directory + size_t(b) * kDirectoryEntryBytes;
  const uint32_t offset = read_u32(e + 8);
  const uint32_t end = b + 1 < h.blocks ? read_u32(e + kDirectoryEntryBytes + 8) : h.directory;
  if (offset < kSegmentHeaderBytes || offset > end || end > h.directory) return false;
  out.first_top = read_u64(e);
  out.groups = read_u32(e + 12);
  out.begin = base + offset;
  out.end = base + end;
  return true;
}

/// A frontier count in `bits` bits: saturated at the field's maximum (position_index.h).
inline uint32_t saturate(uint8_t v, unsigned bits) { return std::min<uint32_t>(v, (1u << bits) - 1); }
/// The count read back: the field's maximum means "any number" (255).
inline uint8_t unsaturate(uint32_t v, unsigned bits) {
  const uint32_t max = (1u << bits) - 1;
  v &= max;
  return v == max ? uint8_t(255) : uint8_t(v);
}

inline void encode_facts(const GameFacts& f, char* out) {
  std::memcpy(out, &f.white_elo, 2);
  std::memcpy(out + 2, &f.black_elo, 2);
  std::memcpy(out + 4, &f.year, 2);
  const Frontier& t = f.frontier;
  out[6] = char((f.result & 3) | (f.flags & 3) << 2 | (t.castling & 15) << 4);
  out[7] = char(t.white_home);
  out[8] = char(t.black_home);
  const uint32_t counts = saturate(t.white_men, 5) | saturate(t.black_men, 5) << 5 | saturate(t.white_pawns, 4) << 10 |
                          saturate(t.black_pawns, 4) << 14;
  out[9] = char(counts & 0xFF);
  out[10] = char(counts >> 8 & 0xFF);
  out[11] = char(counts >> 16 & 0xFF);
}

inline GameFacts decode_facts(const char* p) {
  GameFacts f;
  std::memcpy(&f.white_elo, p, 2);
  std::memcpy(&f.black_elo, p + 2, 2);
  std::memcpy(&f.year, p + 4, 2);
  const uint8_t b = uint8_t(p[6]);
  f.result = b & 3;
  f.flags = b >> 2 & 3;
  Frontier& t = f.frontier;
  t.castling = b >> 4;
  t.white_home = uint8_t(p[7]);
  t.black_home = uint8_t(p[8]);
  const uint32_t counts = uint32_t(uint8_t(p[9])) | uint32_t(uint8_t(p[10])) << 8 | uint32_t(uint8_t(p[11])) << 16;
  t.white_men = unsaturate(counts, 5);
  t.black_men = unsaturate(counts >> 5, 5);
  t.white_pawns = unsaturate(counts >> 10, 4);
  t.black_pawns = unsaturate(counts >> 14, 4);
  return f;
}

/// GameFacts::may_reach_later() read straight from the packed facts at `p`, for a target
/// whose counts were saturated as encode_facts() saturates them (saturated_target()): the
/// same answer as decode_facts(p).may_reach_later(target), without unpacking every field
/// (PositionIndex::candidates() runs it for every game without a hit).
inline bool packed_may_reach_later(const char* p, const Frontier& saturated) {
  const uint8_t b = uint8_t(p[6]);
  if (b >> 2 & GameFacts::kUnindexed) return true;
  if (b >> 2 & GameFacts::kComplete) return false;
  if ((saturated.castling & ~(b >> 4)) || (saturated.white_home & ~uint8_t(p[7])) ||
      (saturated.black_home & ~uint8_t(p[8])))
    return false;
  const uint32_t counts = uint32_t(uint8_t(p[9])) | uint32_t(uint8_t(p[10])) << 8 | uint32_t(uint8_t(p[11])) << 16;
  // A stored maximum reads as "any number"; a saturated target count equals the maximum
  // only when the real one is at least that, so "target <= stored" compares the two exactly.
  return saturated.white_men <= (counts & 31) && saturated.black_men <= (counts >> 5 & 31) &&
         saturated.white_pawns <= (counts >> 10 & 15) && saturated.black_pawns <= (counts >> 14 & 15);
}

/// `target` with its counts saturated as encode_facts() stores them (for packed_may_reach_later).
inline Frontier saturated_target(Frontier target) {
  target.white_men = uint8_t(saturate(target.white_men, 5));
  target.black_men = uint8_t(saturate(target.black_men, 5));
  target.white_pawns = uint8_t(saturate(target.white_pawns, 4));
  target.black_pawns = uint8_t(saturate(target.black_pawns, 4));
  return target;
}

}  // namespace posindex::format
