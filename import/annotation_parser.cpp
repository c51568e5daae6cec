#include "import/annotation_parser.h"

#include <cctype>
#include <vector>

namespace import {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

bool all_blank(std::string_view s) {
  for (char c : s)
    if (!is_blank(c)) return false;
  return true;
}

/// True when `a` and `b` have the same blank-separated words.
bool same_words(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  for (;;) {
    while (i < a.size() && is_blank(a[i])) ++i;
    while (j < b.size() && is_blank(b[j])) ++j;
    if (i == a.size() || j == b.size()) return i == a.size() && j == b.size();
    while (i < a.size() && j < b.size() && !is_blank(a[i]) && !is_blank(b[j])) {
      if (a[i] != b[j]) return false;
      ++i;
      ++j;
    }
    const bool a_word_ends = i == a.size() || is_blank(a[i]);
    const bool b_word_ends = j == b.size() || is_blank(b[j]);
    if (!a_word_ends || !b_word_ends) return false;
  }
}

/// A `[%name value]` command of clk, emt or eval found in a comment.
struct Command {
  enum Kind { kClock, kEmt, kEval } kind;
  size_t begin, end;       // the command's bytes in the comment, `[` to `]` inclusive
  std::string_view value;  // its value, trimmed
};

/// The clk, emt and eval commands of `text` in order.
void find_commands(std::string_view text, std::vector<Command>& out) {
  out.clear();
  size_t pos = 0;
  while ((pos = text.find("[%", pos)) != std::string_view::npos) {
    const size_t close = text.find(']', pos);
    if (close == std::string_view::npos) return;
    std::string_view body = text.substr(pos + 2, close - pos - 2);
    size_t name_end = 0;
    while (name_end < body.size() && !is_blank(body[name_end])) ++name_end;
    const std::string_view name = body.substr(0, name_end);
    const std::string_view value = trim(body.substr(name_end));
    if (name == "clk") out.push_back({Command::kClock, pos, close + 1, value});
    else if (name == "emt") out.push_back({Command::kEmt, pos, close + 1, value});
    else if (name == "eval") out.push_back({Command::kEval, pos, close + 1, value});
    pos = close + 1;
  }
}

/// `text` without the commands the filter drops, blanks around them collapsed.
std::string strip_commands(std::string_view text, const std::vector<Command>& commands,
                           const AnnotationFilter& filter, CommentCounts& counts) {
  std::string out;
  size_t from = 0;
  for (const Command& c : commands) {
    const bool clock = c.kind != Command::kEval;
    if (clock ? filter.clocks : filter.evals) continue;
    ++(clock ? counts.dropped_clocks : counts.dropped_evals);
    std::string_view before = trim(text.substr(from, c.begin - from));
    if (!before.empty()) {
      if (!out.empty()) out += ' ';
      out.append(before);
    }
    from = c.end;
  }
  std::string_view after = trim(text.substr(from));
  if (!after.empty()) {
    if (!out.empty()) out += ' ';
    out.append(after);
  }
  return out;
}

bool parse_digits(std::string_view s, uint64_t& value) {
  if (s.empty() || s.size() > 9) return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + uint64_t(c - '0');
  }
  return true;
}

constexpr uint64_t kMaxTenths = uint64_t(1) << 28;  // about 7,456 hours
constexpr int64_t kMaxEval = int64_t(1) << 28;

}  // namespace

bool parse_clock(std::string_view text, uint32_t& tenths, bool& with_tenths) {
  const size_t c1 = text.find(':');
  if (c1 == std::string_view::npos || text.size() < c1 + 6) return false;
  if (text[c1 + 3] != ':') return false;
  uint64_t h = 0, m = 0, s = 0, t = 0;
  if (!parse_digits(text.substr(0, c1), h) || !parse_digits(text.substr(c1 + 1, 2), m) ||
      !parse_digits(text.substr(c1 + 4, 2), s))
    return false;
  std::string_view rest = text.substr(c1 + 6);
  with_tenths = !rest.empty();
  if (with_tenths && (rest.size() != 2 || rest[0] != '.' || !parse_digits(rest.substr(1), t)))
    return false;
  const uint64_t value = ((h * 3600 + m * 60 + s) * 10) + t;
  if (value >= kMaxTenths) return false;
  tenths = uint32_t(value);
  // The canonical spelling (what db::append_clock writes back), checked without writing it:
  // hours without leading zeros, minutes and seconds below 60.
  return m < 60 && s < 60 && (c1 == 1 || text[0] != '0');
}

bool parse_evaluation(std::string_view text, db::Evaluation& eval, bool& short_form) {
  if (text.empty()) return false;
  std::string_view body = text;
  const bool mate = body.front() == '#';
  if (mate) body.remove_prefix(1);
  const bool negative = !body.empty() && body.front() == '-';
  if (negative) body.remove_prefix(1);
  int64_t value = 0;
  uint64_t whole = 0, fraction = 0;
  const size_t dot = body.find('.');
  if (mate) {
    if (dot != std::string_view::npos || !parse_digits(body, whole)) return false;
    value = int64_t(whole);
  } else {
    if (!parse_digits(body.substr(0, dot), whole)) return false;
    if (dot != std::string_view::npos) {
      const std::string_view digits = body.substr(dot + 1);
      if (digits.empty() || digits.size() > 2 || !parse_digits(digits, fraction)) return false;
      if (digits.size() == 1) fraction *= 10;
    }
    value = int64_t(whole) * 100 + int64_t(fraction);
  }
  if (value > kMaxEval) return false;
  eval.mate = mate;
  eval.value = int32_t(negative ? -value : value);
  for (bool form : {false, true}) {
    std::string canonical;
    db::append_evaluation(eval, form, canonical);
    if (canonical == text) {
      short_form = form;
      return true;
    }
  }
  return false;
}

CommentOutcome read_ply_annotation(std::string_view text, const AnnotationFilter& filter,
                                   bool typed_allowed, db::PlyAnnotation& out, std::string& kept,
                                   CommentCounts& counts) {
  thread_local std::vector<Command> commands;
  find_commands(text, commands);
  out = db::PlyAnnotation();
  auto as_text = [&] {
    if (filter.clocks && filter.evals) {
      kept.assign(text);
    } else {
      kept = strip_commands(text, commands, filter, counts);
      if (kept.empty()) return CommentOutcome::kDropped;
    }
    return CommentOutcome::kText;
  };
  if (commands.empty() || !typed_allowed) return as_text();

  // The commands must sit together at one end of the comment, each kind once, emt last.
  int clock = -1, emt = -1, eval = -1;
  for (size_t i = 0; i < commands.size(); ++i) {
    int& slot = commands[i].kind == Command::kClock ? clock
                : commands[i].kind == Command::kEmt ? emt
                                                    : eval;
    if (slot >= 0) return as_text();
    slot = int(i);
    if (i > 0 && !all_blank(text.substr(commands[i - 1].end, commands[i].begin - commands[i - 1].end)))
      return as_text();
  }
  if (emt >= 0 && emt != int(commands.size()) - 1) return as_text();
  const std::string_view before = trim(text.substr(0, commands.front().begin));
  const std::string_view after = trim(text.substr(commands.back().end));
  if (!before.empty() && !after.empty()) return as_text();

  bool clock_tenths = false, emt_tenths = false, short_eval = false;
  uint16_t bits = 0;
  if (clock >= 0) {
    if (!parse_clock(commands[size_t(clock)].value, out.clock, clock_tenths)) return as_text();
    bits |= db::kAnnClock;
  }
  if (emt >= 0) {
    if (!parse_clock(commands[size_t(emt)].value, out.emt, emt_tenths)) return as_text();
    if (clock >= 0 && emt_tenths != clock_tenths) return as_text();
    bits |= db::kAnnEmt;
  }
  if (eval >= 0) {
    if (!parse_evaluation(commands[size_t(eval)].value, out.eval, short_eval)) return as_text();
    bits |= db::kAnnEval;
    if (short_eval) bits |= db::kAnnEvalShort;
  }
  if (clock_tenths || emt_tenths) bits |= db::kAnnTenths;
  if (clock >= 0 && eval >= 0 && clock < eval) bits |= db::kAnnClockFirst;
  if (!before.empty() || !after.empty()) {
    bits |= db::kAnnRest;
    if (!before.empty()) bits |= db::kAnnRestFirst;
    out.rest = before.empty() ? after : before;
  }
  out.bits = bits;
  thread_local std::string rebuilt;
  rebuilt.clear();
  db::append_annotation_text(out, rebuilt);
  if (!same_words(rebuilt, text)) {
    out = db::PlyAnnotation();
    return as_text();
  }

  // Apply the filter to the typed values.
  if (!filter.clocks && (out.bits & (db::kAnnClock | db::kAnnEmt))) {
    counts.dropped_clocks += (out.bits & db::kAnnClock ? 1 : 0) + (out.bits & db::kAnnEmt ? 1 : 0);
    out.bits &= uint16_t(~(db::kAnnClock | db::kAnnEmt | db::kAnnTenths | db::kAnnClockFirst));
  }
  if (!filter.evals && (out.bits & db::kAnnEval)) {
    ++counts.dropped_evals;
    out.bits &= uint16_t(~(db::kAnnEval | db::kAnnEvalShort | db::kAnnClockFirst));
  }
  if (!(out.bits & (db::kAnnClock | db::kAnnEmt | db::kAnnEval))) {
    if (out.rest.empty()) return CommentOutcome::kDropped;
    kept.assign(out.rest);
    out = db::PlyAnnotation();
    return CommentOutcome::kText;
  }
  counts.clocks += (out.bits & db::kAnnClock ? 1 : 0) + (out.bits & db::kAnnEmt ? 1 : 0);
  counts.evals += out.bits & db::kAnnEval ? 1 : 0;
  return CommentOutcome::kTyped;
}

}  // namespace import
