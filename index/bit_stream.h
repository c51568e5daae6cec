// Bit-level writing and reading for the signature encoding (signature.h).
//
// Bits are packed least significant first: the first bit written is bit 0 of byte 0, the
// ninth is bit 0 of byte 1. A value of n bits is written low bit first. The last byte is
// padded with zero bits.
//
// Codes:
//   bits(v, n)  v in n plain bits (n <= 32)
//   gamma(v)    Elias gamma code of v >= 1: k = floor(log2 v) zero bits, a one bit, then the
//               low k bits of v (2k + 1 bits: 1 -> "1", 2 -> "0 1 0", 5 -> "00 1 01").
//               Values up to 2^31 - 1 (k <= 30).
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sig {

static_assert(std::endian::native == std::endian::little,
              "BitWriter and BitReader move whole words");

/// Appends bits to a std::string (reused between games by the caller).
class BitWriter {
 public:
  /// Writes into `out`, after what it already holds.
  explicit BitWriter(std::string& out) : out_(out) {}

  /// Writes the low `n` bits of `value` (n <= 32).
  void bits(uint32_t value, unsigned n) {
    acc_ |= uint64_t(value & mask(n)) << count_;
    count_ += n;
    if (count_ >= 32) spill();
  }
  /// Writes the Elias gamma code of `value` (1 <= value < 2^31).
  void gamma(uint32_t value) {
    const unsigned k = unsigned(std::bit_width(value)) - 1;
    if (k <= 15) {  // k zeros, a one, the low k bits: 2k + 1 <= 31 bits in one go
      bits((1u << k) | (value & uint32_t(mask(k))) << (k + 1), 2 * k + 1);
      return;
    }
    bits(0, k);
    bits(1, 1);
    bits(value, k);
  }
  /// Writes the pending bits, padded with zeros to a whole byte.
  void flush() {
    for (; count_ > 0; count_ = count_ > 8 ? count_ - 8 : 0) {
      out_.push_back(char(acc_ & 0xFF));
      acc_ >>= 8;
    }
    acc_ = 0;
  }

  /// Number of bits needed to write any value below `n` in plain bits (0 for n <= 1).
  static unsigned width_for(uint32_t n) { return n <= 1 ? 0 : unsigned(std::bit_width(n - 1)); }

 private:
  static uint64_t mask(unsigned n) { return (uint64_t(1) << n) - 1; }
  /// Appends the 32 lowest pending bits as 4 bytes.
  void spill() {
    const uint32_t word = uint32_t(acc_);
    char bytes[4];
    std::memcpy(bytes, &word, 4);  // little-endian
    out_.append(bytes, 4);
    acc_ >>= 32;
    count_ -= 32;
  }

  std::string& out_;    // destination
  uint64_t acc_ = 0;    // pending bits, first at bit 0
  unsigned count_ = 0;  // number of pending bits (< 32 between calls)
};

/// Reads what BitWriter wrote. Reading past the end, or a gamma code longer than 61 bits,
/// does not throw: it sets failed() and returns 0, so that decoders check once per section
/// instead of once per value. Callers must bound their loops by validated counts.
class BitReader {
 public:
  /// Reads the bytes of `bytes`.
  explicit BitReader(std::string_view bytes)
      : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}

  /// Reads `n` plain bits (n <= 32).
  uint32_t bits(unsigned n) {
    if (count_ < n) refill();
    if (count_ < n) return fail();
    const uint32_t v = uint32_t(acc_ & ((uint64_t(1) << n) - 1));
    acc_ >>= n;
    count_ -= n;
    return v;
  }
  /// Reads an Elias gamma code; fails for codes of values >= 2^31.
  uint32_t gamma() {
    if (count_ < 32) refill();
    const uint64_t valid = count_ >= 64 ? acc_ : acc_ & ((uint64_t(1) << count_) - 1);
    if (valid == 0) return fail();  // no terminating one bit within reach
    const unsigned k = unsigned(std::countr_zero(valid));
    if (k > 30) return fail();
    acc_ >>= k + 1;
    count_ -= k + 1;
    return (uint32_t(1) << k) | bits(k);
  }

  /// True after a read past the end or an over-long code.
  bool failed() const { return failed_; }
  /// True when every byte was consumed, the padding bits of the last byte are zero and no
  /// read failed.
  bool at_clean_end() const { return !failed_ && p_ == end_ && count_ < 8 && acc_ == 0; }

 private:
  void refill() {
    if (end_ - p_ >= 8) {  // load 8 bytes, keep the whole ones that fit
      uint64_t word;
      std::memcpy(&word, p_, 8);  // little-endian (x86-64)
      acc_ |= word << count_;
      const unsigned taken = (63 - count_) / 8;
      p_ += taken;
      count_ += 8 * taken;
      acc_ &= count_ >= 64 ? ~uint64_t(0) : (uint64_t(1) << count_) - 1;
      return;
    }
    while (count_ <= 56 && p_ != end_) {
      acc_ |= uint64_t(*p_++) << count_;
      count_ += 8;
    }
  }
  uint32_t fail() {
    failed_ = true;
    acc_ = 0;
    count_ = 0;
    p_ = end_;
    return 0;
  }

  const uint8_t* p_;     // next byte to load
  const uint8_t* end_;   // end of the bytes
  uint64_t acc_ = 0;     // loaded, unread bits (next bit at bit 0)
  unsigned count_ = 0;   // number of valid bits in acc_
  bool failed_ = false;  // a read went past the end or met a bad code
};

}  // namespace sig
