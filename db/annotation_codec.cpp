#include "db/annotation_codec.h"

#include <charconv>
#include <cstdlib>

#include "db/record_codec.h"

namespace db {

namespace {

uint32_t zigzag(int64_t v) { return uint32_t(v < 0 ? ((-v) << 1) - 1 : v << 1); }
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

void TypedBlockWriter::reset(bool seconds_unit) {
  values_.clear();
  runs_.clear();
  run_count_ = 0;
  run_bits_ = 0;
  run_length_ = 0;
  ply_ = 0;
  last_clock_[0] = last_clock_[1] = 0;
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
    codec::put_varint(values_, zigzag(int64_t(value) - int64_t(last_clock_[side])));
    last_clock_[side] = value;
  }
  if (a.bits & kAnnEval)
    codec::put_varint(values_, zigzag(a.eval.value) << 1 | (a.eval.mate ? 1 : 0));
  if (a.bits & kAnnEmt) codec::put_varint(values_, a.emt / unit);
  if (a.bits & kAnnRest) {
    codec::put_varint(values_, uint32_t(a.rest.size()));
    values_.append(a.rest);
  }
}

void TypedBlockWriter::finish(std::string& out) {
  if (run_length_ != 0) {
    codec::put_varint(runs_, run_bits_);
    codec::put_varint(runs_, run_length_);
    ++run_count_;
    run_length_ = 0;
  }
  codec::put_varint(out, run_count_);
  out += runs_;
  out += values_;
}

const char* TypedBlockReader::open(const uint8_t* bytes, const uint8_t* end, uint32_t plies,
                                   bool seconds_unit) {
  *this = TypedBlockReader();
  plies_ = plies;
  seconds_ = seconds_unit;
  end_ = end;
  const uint8_t* p = bytes;
  if (!codec::get_varint(p, end, runs_left_)) return "bad run count of the typed annotations";
  runs_ = p;
  uint64_t total = 0;
  for (uint32_t i = 0; i < runs_left_; ++i) {
    uint32_t bits = 0, length = 0;
    if (!codec::get_varint(p, end, bits) || !codec::get_varint(p, end, length))
      return "truncated run table of the typed annotations";
    if (bits & ~uint32_t(kAnnKnownBits)) return "unknown typed-annotation bits";
    if ((bits & (kAnnClock | kAnnEval | kAnnEmt)) == 0 && bits != 0)
      return "typed annotation without clock, emt or evaluation";
    if (length == 0) return "empty run of typed annotations";
    total += length;
  }
  if (total != plies) return "typed annotation runs do not cover the main line";
  p_ = p;
  return nullptr;
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
    if (!codec::get_varint(p_, end_, v)) return "bad clock value";
    const int64_t value = int64_t(last_clock_[side]) + unzigzag(v);
    if (value < 0 || value * unit > UINT32_MAX) return "clock value out of range";
    last_clock_[side] = uint32_t(value);
    out.clock = uint32_t(value * unit);
  }
  if (out.bits & kAnnEval) {
    if (!codec::get_varint(p_, end_, v)) return "bad evaluation value";
    out.eval.mate = v & 1;
    const int64_t value = unzigzag(v >> 1);
    if (std::llabs(value) > kMaxEvalMagnitude) return "evaluation out of range";
    out.eval.value = int32_t(value);
  }
  if (out.bits & kAnnEmt) {
    if (!codec::get_varint(p_, end_, v)) return "bad emt value";
    if (uint64_t(v) * unit > UINT32_MAX) return "emt value out of range";
    out.emt = v * unit;
  }
  if (out.bits & kAnnRest) {
    if (!codec::get_varint(p_, end_, v)) return "bad length of the comment text";
    if (uint64_t(end_ - p_) < v) return "truncated comment text";
    out.rest = {reinterpret_cast<const char*>(p_), v};
    p_ += v;
  }
  return nullptr;
}

}  // namespace db
