#include "db/annotation_codec.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>

#include "db/record_codec.h"

namespace db {

namespace {

int64_t unzigzag(uint32_t z) { return (z & 1) ? -(int64_t(z) + 1) / 2 : int64_t(z >> 1); }

/// Largest centipawn or mate value stored (the parser refuses larger ones).
constexpr int64_t kMaxEvalMagnitude = 1 << 28;

}  // namespace

namespace {

/// Appends `value` in decimal (no sign, no leading zeros); to_chars without a temporary string.
void append_decimal(uint64_t value, std::string& out) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, size_t(end - buf));
}

}  // namespace

void append_clock(uint32_t tenths, bool with_tenths, std::string& out) {
  // Formatted by hand: export and import write one per ply, and snprintf was a tenth of
  // the lichess-style import's time (issue 23 profile).
  const uint32_t seconds = tenths / 10;
  append_decimal(seconds / 3600, out);
  const uint32_t minutes = seconds / 60 % 60, secs = seconds % 60;
  const char rest[] = {':', char('0' + minutes / 10), char('0' + minutes % 10), ':',
                       char('0' + secs / 10),       char('0' + secs % 10),    '.',
                       char('0' + tenths % 10)};
  out.append(rest, with_tenths ? 8 : 6);
}

void append_evaluation(const Evaluation& eval, bool short_form, std::string& out) {
  if (eval.mate) {
    out += '#';
    if (eval.value < 0) out += '-';
    append_decimal(uint64_t(eval.value < 0 ? -int64_t(eval.value) : int64_t(eval.value)), out);
    return;
  }
  const int64_t cp = eval.value;
  const uint64_t magnitude = uint64_t(cp < 0 ? -cp : cp);
  if (cp < 0) out += '-';
  append_decimal(magnitude / 100, out);
  const unsigned fraction = unsigned(magnitude % 100);
  if (!short_form) {
    out += '.';
    out += char('0' + fraction / 10);
    out += char('0' + fraction % 10);
  } else if (fraction != 0) {
    out += '.';
    out += char('0' + fraction / 10);
    if (fraction % 10) out += char('0' + fraction % 10);
  }
}

void append_annotation_text(const PlyAnnotation& a, std::string& out) {
  const size_t start = out.size();
  auto blank = [&] {
    if (out.size() > start) out += ' ';
  };
  if ((a.bits & kAnnRest) && (a.bits & kAnnRestFirst)) out.append(a.rest);
  auto eval = [&] {
    if (!(a.bits & kAnnEval)) return;
    blank();
    out += "[%eval ";
    append_evaluation(a.eval, a.bits & kAnnEvalShort, out);
    out += ']';
  };
  auto clock = [&] {
    if (!(a.bits & kAnnClock)) return;
    blank();
    out += "[%clk ";
    append_clock(a.clock, a.bits & kAnnTenths, out);
    out += ']';
  };
  if (a.bits & kAnnClockFirst) {
    clock();
    eval();
  } else {
    eval();
    clock();
  }
  if (a.bits & kAnnEmt) {
    blank();
    out += "[%emt ";
    append_clock(a.emt, a.bits & kAnnTenths, out);
    out += ']';
  }
  if ((a.bits & kAnnRest) && !(a.bits & kAnnRestFirst)) {
    blank();
    out.append(a.rest);
  }
}

namespace {

/// Bit-coded values (record_format.h): a Rice code of parameter k, or after kRiceEscape one
/// bits the value's bit width (6 bits) and the value.
constexpr unsigned kRiceEscape = 24;
/// Largest Rice parameter (4 bits of the parameter byte).
constexpr unsigned kMaxRiceK = 15;

uint64_t zigzag64(int64_t v) { return v < 0 ? (uint64_t(-(v + 1)) << 1) | 1 : uint64_t(v) << 1; }
int64_t unzigzag64(uint64_t z) { return (z & 1) ? -int64_t(z >> 1) - 1 : int64_t(z >> 1); }

/// Bits of `z` coded with parameter `k`.
uint64_t rice_bits(unsigned k, uint64_t z) {
  const uint64_t q = z >> k;
  return q < kRiceEscape ? q + 1 + k : kRiceEscape + 6 + unsigned(std::bit_width(z));
}

/// Appends bits to a string, least significant bit of each byte first.
class BitWriter {
 public:
  explicit BitWriter(std::string& out) : out_(out) {}
  /// Appends the low `n` bits of `value` (n <= 32).
  void put(uint64_t value, unsigned n) {
    acc_ |= (value & ((uint64_t(1) << n) - 1)) << fill_;
    fill_ += n;
    while (fill_ >= 8) {
      out_.push_back(char(uint8_t(acc_)));
      acc_ >>= 8;
      fill_ -= 8;
    }
  }
  /// Appends `z` as a Rice code of parameter `k`.
  void rice(unsigned k, uint64_t z) {
    const uint64_t q = z >> k;
    if (q < kRiceEscape) {
      for (uint64_t i = q; i > 0;) {
        const unsigned n = unsigned(std::min<uint64_t>(i, 32));
        put((uint64_t(1) << n) - 1, n);
        i -= n;
      }
      put(0, 1);
      if (k) put(z, k);
      return;
    }
    put((uint64_t(1) << kRiceEscape) - 1, kRiceEscape);
    const unsigned width = unsigned(std::bit_width(z));
    put(width, 6);
    if (width > 32) {
      put(z, 32);
      put(z >> 32, width - 32);
    } else if (width) {
      put(z, width);
    }
  }
  /// Writes the last partial byte, padded with zero bits.
  void flush() {
    if (fill_) out_.push_back(char(uint8_t(acc_)));
    acc_ = 0;
    fill_ = 0;
  }

 private:
  std::string& out_;
  uint64_t acc_ = 0;  // bits not yet written, the oldest lowest
  unsigned fill_ = 0; // how many
};

/// The Rice parameter (0..kMaxRiceK) that codes the `values` for which `selected` holds, each
/// as code_of(value), in the fewest bits.
template <typename T>
unsigned best_rice_k(const std::vector<T>& values, auto&& code_of, auto&& selected) {
  uint64_t best_bits = UINT64_MAX;
  unsigned best = 0;
  for (unsigned k = 0; k <= kMaxRiceK; ++k) {
    uint64_t bits = 0;
    for (const auto& v : values)
      if (selected(v)) bits += rice_bits(k, code_of(v));
    if (bits < best_bits) {
      best_bits = bits;
      best = k;
    }
  }
  return best;
}

}  // namespace

void TypedBlockWriter::reset(bool seconds_unit) {
  values_.clear();
  bytes_.clear();
  runs_.clear();
  run_count_ = 0;
  run_bits_ = 0;
  run_length_ = 0;
  ply_ = 0;
  has_clock_ = false;
  first_clock_ = 0;
  last_clock_[0] = last_clock_[1] = 0;
  max_delta_ = 0;
  last_cp_ = 0;
  seconds_ = seconds_unit;
}

void TypedBlockWriter::add(const PlyAnnotation& a) {
  if (run_length_ != 0 && a.bits != run_bits_) {
    codec::put_varint(runs_, run_bits_);
    codec::put_varint(runs_, run_length_);
    ++run_count_;
    run_length_ = 0;
  }
  run_bits_ = a.bits;
  ++run_length_;
  const unsigned side = ply_ & 1;
  ++ply_;
  const uint32_t unit = seconds_ ? 10 : 1;
  if (a.bits & kAnnClock) {
    const uint32_t value = a.clock / unit;
    if (!has_clock_) {
      has_clock_ = true;
      first_clock_ = last_clock_[0] = last_clock_[1] = value;
    }
    Value v;
    v.clock = true;
    v.delta = int64_t(value) - int64_t(last_clock_[side]);
    max_delta_ = std::max(max_delta_, v.delta);
    last_clock_[side] = value;
    values_.push_back(v);
  }
  if (a.bits & kAnnEval) {
    Value v;
    const int64_t x = a.eval.mate ? a.eval.value : a.eval.value - last_cp_;
    if (!a.eval.mate) last_cp_ = a.eval.value;
    v.code = zigzag64(x) << 1 | (a.eval.mate ? 1 : 0);
    values_.push_back(v);
  }
  if (a.bits & kAnnEmt) codec::put_varint(bytes_, a.emt / unit);
  if (a.bits & kAnnRest) {
    codec::put_varint(bytes_, uint32_t(a.rest.size()));
    bytes_.append(a.rest);
  }
}

void TypedBlockWriter::finish(std::string& out) {
  if (run_length_ != 0) {
    codec::put_varint(runs_, run_bits_);
    codec::put_varint(runs_, run_length_);
    ++run_count_;
    run_length_ = 0;
  }
  bool has_bytes = false, has_eval = false;
  for (const uint8_t* p = reinterpret_cast<const uint8_t*>(runs_.data()),
                     *end = p + runs_.size();
       p != end;) {
    uint32_t bits = 0, length = 0;
    codec::get_varint(p, end, bits);
    codec::get_varint(p, end, length);
    has_bytes |= (bits & (kAnnEmt | kAnnRest)) != 0;
    has_eval |= (bits & kAnnEval) != 0;
  }
  out.push_back(0);  // the bit-coded layout (an old block starts with its run count >= 1)
  codec::put_varint(out, run_count_);
  out += runs_;
  if (has_bytes) {
    codec::put_varint(out, uint32_t(bytes_.size()));
    out += bytes_;
  }
  if (has_clock_) {
    codec::put_varint(out, first_clock_);
    codec::put_varint(out, uint32_t(max_delta_));
  }
  if (!has_clock_ && !has_eval) return;
  const uint64_t max_delta = uint64_t(max_delta_);
  auto code_of = [&](const Value& v) { return v.clock ? max_delta - uint64_t(v.delta) : v.code; };
  const unsigned clock_k = has_clock_ ? best_rice_k(values_, code_of, [](const Value& v) { return v.clock; }) : 0;
  const unsigned eval_k = has_eval ? best_rice_k(values_, code_of, [](const Value& v) { return !v.clock; }) : 0;
  out.push_back(char(uint8_t(clock_k | eval_k << 4)));
  BitWriter bits(out);
  for (const Value& v : values_) bits.rice(v.clock ? clock_k : eval_k, code_of(v));
  bits.flush();
}

const char* TypedBlockReader::open(const uint8_t* bytes, const uint8_t* end, uint32_t plies,
                                   bool seconds_unit) {
  *this = TypedBlockReader();
  plies_ = plies;
  seconds_ = seconds_unit;
  end_ = end;
  const uint8_t* p = bytes;
  if (p != end && *p == 0) {
    bit_coded_ = true;
    ++p;
  }
  if (!codec::get_varint(p, end, runs_left_)) return "bad run count of the typed annotations";
  runs_ = p;
  uint64_t total = 0;
  uint32_t all_bits = 0;
  for (uint32_t i = 0; i < runs_left_; ++i) {
    uint32_t bits = 0, length = 0;
    if (!codec::get_varint(p, end, bits) || !codec::get_varint(p, end, length))
      return "truncated run table of the typed annotations";
    if (bits & ~uint32_t(kAnnKnownBits)) return "unknown typed-annotation bits";
    if ((bits & (kAnnClock | kAnnEval | kAnnEmt)) == 0 && bits != 0)
      return "typed annotation without clock, emt or evaluation";
    if (length == 0) return "empty run of typed annotations";
    total += length;
    all_bits |= bits;
  }
  if (total != plies) return "typed annotation runs do not cover the main line";
  p_ = p;
  p_end_ = end;
  if (!bit_coded_) return nullptr;
  if (all_bits & (kAnnEmt | kAnnRest)) {
    uint32_t size = 0;
    if (!codec::get_varint(p, end, size) || uint64_t(end - p) < size)
      return "bad length of the typed byte values";
    p_ = p;
    p_end_ = p + size;
    p += size;
  } else {
    p_end_ = p;
  }
  if (all_bits & kAnnClock) {
    uint32_t first = 0, max_delta = 0;
    if (!codec::get_varint(p, end, first) || !codec::get_varint(p, end, max_delta))
      return "bad clock parameters";
    last_clock_[0] = last_clock_[1] = first;
    max_delta_ = max_delta;
  }
  if (all_bits & (kAnnClock | kAnnEval)) {
    if (p == end) return "missing Rice parameters";
    clock_k_ = *p & 15;
    eval_k_ = *p >> 4;
    ++p;
  }
  bits_ = p;
  return nullptr;
}

bool TypedBlockReader::at_end() const {
  if (ply_ != plies_ || p_ != p_end_) return false;
  if (!bit_coded_) return true;
  const uint64_t bytes = uint64_t(end_ - bits_);
  if ((bit_ + 7) / 8 != bytes) return false;
  // The padding bits of the last byte are 0.
  return bit_ % 8 == 0 || (bits_[bit_ / 8] >> (bit_ % 8)) == 0;
}

bool TypedBlockReader::read_rice(unsigned k, uint64_t& out) {
  const uint64_t limit = uint64_t(end_ - bits_) * 8;
  auto bit = [&](unsigned& b) {
    if (bit_ >= limit) return false;
    b = (bits_[bit_ >> 3] >> (bit_ & 7)) & 1;
    ++bit_;
    return true;
  };
  auto take = [&](unsigned n, uint64_t& value) {
    if (limit - bit_ < n) return false;
    value = 0;
    for (unsigned i = 0; i < n; ++i, ++bit_) value |= uint64_t((bits_[bit_ >> 3] >> (bit_ & 7)) & 1) << i;
    return true;
  };
  uint64_t q = 0;
  unsigned b = 0;
  for (;;) {
    if (!bit(b)) return false;
    if (!b) break;
    if (++q == kRiceEscape) break;
  }
  if (q == kRiceEscape) {
    uint64_t width = 0;
    if (!take(6, width) || width > 40) return false;
    return take(unsigned(width), out);
  }
  uint64_t low = 0;
  if (!take(k, low)) return false;
  out = q << k | low;
  return true;
}

const char* TypedBlockReader::next(PlyAnnotation& out) {
  if (ply_ == plies_) return "more typed annotations read than main-line plies";
  if (run_left_ == 0) {
    uint32_t bits = 0;
    codec::get_varint(runs_, end_, bits);  // checked by open()
    codec::get_varint(runs_, end_, run_left_);
    run_bits_ = uint16_t(bits);
    --runs_left_;
  }
  --run_left_;
  const unsigned side = ply_ & 1;
  ++ply_;
  out = PlyAnnotation();
  out.bits = run_bits_;
  const uint32_t unit = seconds_ ? 10 : 1;
  uint32_t v = 0;
  if (out.bits & kAnnClock) {
    int64_t value = 0;
    if (bit_coded_) {
      uint64_t code = 0;
      if (!read_rice(clock_k_, code)) return "bad clock value";
      if (code > max_delta_ + (uint64_t(1) << 33)) return "clock value out of range";
      value = int64_t(last_clock_[side]) + int64_t(max_delta_) - int64_t(code);
    } else {
      if (!codec::get_varint(p_, p_end_, v)) return "bad clock value";
      value = int64_t(last_clock_[side]) + unzigzag(v);
    }
    if (value < 0 || value * unit > UINT32_MAX) return "clock value out of range";
    last_clock_[side] = uint32_t(value);
    out.clock = uint32_t(value * unit);
  }
  if (out.bits & kAnnEval) {
    int64_t value = 0;
    if (bit_coded_) {
      uint64_t code = 0;
      if (!read_rice(eval_k_, code)) return "bad evaluation value";
      out.eval.mate = code & 1;
      const int64_t x = unzigzag64(code >> 1);
      if (std::llabs(x) > 2 * kMaxEvalMagnitude) return "evaluation out of range";
      value = out.eval.mate ? x : last_cp_ + x;
    } else {
      if (!codec::get_varint(p_, p_end_, v)) return "bad evaluation value";
      out.eval.mate = v & 1;
      value = unzigzag(v >> 1);
    }
    if (std::llabs(value) > kMaxEvalMagnitude) return "evaluation out of range";
    out.eval.value = int32_t(value);
    if (bit_coded_ && !out.eval.mate) last_cp_ = value;
  }
  if (out.bits & kAnnEmt) {
    if (!codec::get_varint(p_, p_end_, v)) return "bad emt value";
    if (uint64_t(v) * unit > UINT32_MAX) return "emt value out of range";
    out.emt = v * unit;
  }
  if (out.bits & kAnnRest) {
    if (!codec::get_varint(p_, p_end_, v)) return "bad length of the comment text";
    if (uint64_t(p_end_ - p_) < v) return "truncated comment text";
    out.rest = {reinterpret_cast<const char*>(p_), v};
    p_ += v;
  }
  return nullptr;
}

}  // namespace db
