// Ranges, score ranges, dates, ECO codes, comma lists and other value arguments.
#include <cmath>

#include "cql/parser_impl.h"

namespace cql::detail {

namespace {

// `end` or `end-N`; returns N (0 for `end`).
std::optional<int64_t> end_offset(const std::string& w) {
  if (w == "end") return 0;
  if (w.rfind("end-", 0) != 0 || w.size() == 4) return std::nullopt;
  int64_t n = 0;
  if (w.size() > 10) return std::nullopt;
  for (size_t i = 4; i < w.size(); ++i) {
    if (w[i] < '0' || w[i] > '9') return std::nullopt;
    n = n * 10 + (w[i] - '0');
  }
  return n;
}

bool value_token(const Token& t, const RangeOptions& opt) {
  switch (t.kind) {
    case TokenKind::Number:
      return true;
    case TokenKind::Percent:
      return opt.allow_percent;
    case TokenKind::Word:
      if (t.text == "unlimited") return true;
      if (opt.allow_end && end_offset(t.text)) return true;
      if (opt.allow_roman && parse_roman(t.text)) return true;
      return false;
    default:
      return false;
  }
}

const char* kRangeExpected = "a range like 3, 1 5, >=2 or <10";

}  // namespace

bool Parser::at_range_start(const RangeOptions& opt, size_t ahead) const {
  const Token& t = peek(ahead);
  if (t.kind == TokenKind::Compare) return true;
  if (opt.allow_special && t.kind == TokenKind::Word && (t.text == "*" || t.text == "-"))
    return true;
  return value_token(t, opt);
}

Range Parser::parse_range(const RangeOptions& opt, const char* what) {
  Range r;
  r.loc = peek().loc;
  struct Value {
    std::optional<RangeBound> bound;  // nullopt: unlimited
    bool percent = false;
  };
  auto value = [&](bool after_compare) -> Value {
    const Token& t = peek();
    if (!value_token(t, opt) ||
        (after_compare && t.kind == TokenKind::Word && t.text == "unlimited")) {
      std::string found = describe(t);
      if (t.kind == TokenKind::Percent)
        fail(t, "percentages are not allowed here, found " + found, kRangeExpected);
      fail(t, "expected " + std::string(what) + ", found " + found, kRangeExpected);
    }
    next();
    Value v;
    if (t.kind == TokenKind::Word) {
      if (t.text == "unlimited") return v;
      if (auto n = end_offset(t.text)) {
        v.bound = RangeBound{*n, true};
        return v;
      }
      v.bound = RangeBound{*parse_roman(t.text), false};
      return v;
    }
    if (!t.is_integer && t.kind == TokenKind::Number)
      fail(t, "a range needs whole numbers, found '" + t.text + "'", kRangeExpected);
    if (t.number > 1e15 || t.number < -1e15)
      fail(t, "number out of range: '" + t.text + "'", "a number of at most 15 digits");
    if (t.number < 0 && !opt.allow_negative)
      fail(t, "a negative bound is not allowed here, found '" + t.text + "'", "a value >= 0");
    if (t.kind == TokenKind::Percent) {
      if (t.number > 100)
        fail(t, "a percentage must lie in 0%..100%, found '" + t.text + "'", "0%..100%");
      v.percent = true;
    }
    v.bound = RangeBound{int64_t(t.number), false};
    return v;
  };
  const Token& first = peek();
  if (first.kind == TokenKind::Compare) {
    std::string op = next().text;
    Value v = value(true);
    r.percent = v.percent;
    if (op == ">" || op == ">=") {
      r.lo = v.bound;
      r.lo_strict = op == ">";
      r.form = op == ">" ? RangeForm::Greater : RangeForm::GreaterEqual;
    } else {
      r.hi = v.bound;
      r.hi_strict = op == "<";
      r.form = op == "<" ? RangeForm::Less : RangeForm::LessEqual;
    }
    return r;
  }
  if (opt.allow_special && first.kind == TokenKind::Word &&
      (first.text == "*" || first.text == "-")) {
    r.kind = first.text == "*" ? Range::Kind::Any : Range::Kind::Missing;
    next();
    return r;
  }
  const Token& lo_tok = peek();
  Value lo = value(false);
  if (!value_token(peek(), opt)) {
    if (!lo.bound) fail(lo_tok, "'unlimited' needs a second bound", "a range like 5 unlimited");
    r.lo = r.hi = lo.bound;
    r.percent = lo.percent;
    r.form = RangeForm::Exact;
    return r;
  }
  const Token& hi_tok = peek();
  Value hi = value(false);
  if ((lo.bound && hi.bound && lo.percent != hi.percent))
    fail(hi_tok, "a range cannot mix a percentage and a count", kRangeExpected);
  r.lo = lo.bound;
  r.hi = hi.bound;
  r.percent = lo.percent || hi.percent;
  r.form = RangeForm::Between;
  if (r.lo && r.hi && r.lo->from_end == r.hi->from_end) {
    bool reversed = r.lo->from_end ? r.lo->value < r.hi->value : r.lo->value > r.hi->value;
    if (reversed)
      fail(lo_tok, "reversed range bounds '" + lo_tok.text + " " + hi_tok.text + "'",
           "the lower bound first, e.g. '" + hi_tok.text + " " + lo_tok.text + "'");
  }
  return r;
}

bool Parser::at_score_start(size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Compare || t.kind == TokenKind::Number ||
         (t.kind == TokenKind::Word && t.text == "unlimited");
}

ScoreRange Parser::parse_score_range() {
  ScoreRange r;
  r.loc = peek().loc;
  const char* expected = "a score range in pawn units like >=2.5, <=-3 or -1 1";
  auto value = [&](bool allow_unlimited) -> std::optional<double> {
    const Token& t = peek();
    if (t.kind == TokenKind::Word && t.text == "unlimited" && allow_unlimited) {
      next();
      return std::nullopt;
    }
    if (t.kind != TokenKind::Number)
      fail(t, "expected a score in pawn units, found " + describe(t), expected);
    if (t.number > 1e9 || t.number < -1e9)
      fail(t, "score out of range: '" + t.text + "'", expected);
    next();
    return t.number;
  };
  if (at(TokenKind::Compare)) {
    std::string op = next().text;
    double v = *value(false);
    if (op == ">" || op == ">=") {
      r.lo = v;
      r.lo_strict = op == ">";
      r.form = op == ">" ? RangeForm::Greater : RangeForm::GreaterEqual;
    } else {
      r.hi = v;
      r.hi_strict = op == "<";
      r.form = op == "<" ? RangeForm::Less : RangeForm::LessEqual;
    }
    return r;
  }
  const Token& lo_tok = peek();
  std::optional<double> lo = value(true);
  if (!at_score_start() || at(TokenKind::Compare)) {
    if (!lo) fail(lo_tok, "'unlimited' needs a second bound", expected);
    r.lo = r.hi = lo;
    return r;
  }
  const Token& hi_tok = peek();
  std::optional<double> hi = value(true);
  if (lo && hi && *lo > *hi)
    fail(lo_tok, "reversed range bounds '" + lo_tok.text + " " + hi_tok.text + "'",
         "the lower bound first, e.g. '" + hi_tok.text + " " + lo_tok.text + "'");
  r.lo = lo;
  r.hi = hi;
  r.form = RangeForm::Between;
  return r;
}

bool Parser::at_plain_word(size_t ahead) const {
  const Token& t = peek(ahead);
  return t.kind == TokenKind::Word || t.kind == TokenKind::Number || t.kind == TokenKind::Percent;
}

std::vector<std::pair<std::string, SourceLoc>> Parser::parse_comma_list(const char* what) {
  if (!at_plain_word())
    fail(peek(), "expected " + std::string(what) + ", found " + describe(peek()), what);
  // Join tokens while a comma separates them: "normal," "corr" or "normal" ",corr".
  std::vector<const Token*> parts{&next()};
  while (at_plain_word() && (parts.back()->text.back() == ',' || peek().text.front() == ','))
    parts.push_back(&next());
  std::vector<std::pair<std::string, SourceLoc>> items;
  for (const Token* t : parts) {
    size_t start = 0;
    const std::string& s = t->text;
    for (size_t i = 0; i <= s.size(); ++i) {
      if (i < s.size() && s[i] != ',') continue;
      if (i > start) items.emplace_back(s.substr(start, i - start), offset_loc(*t, start));
      start = i + 1;
    }
  }
  // Empty items: ",," or a trailing comma.
  const Token& last = *parts.back();
  for (const Token* t : parts) {
    if (t->text.find(",,") != std::string::npos || t->text == ",")
      fail(*t, "empty item in the comma list '" + t->text + "'", what);
  }
  if (last.text.back() == ',') fail(last, "the comma list ends with ','", what);
  return items;
}

KeywordArgs Parser::parse_vocabulary(Signature sig, const Token& kw) {
  auto choices = [&](auto parse_one, auto words_fn, const char* what) {
    using E = typename decltype(parse_one(std::string_view{}))::value_type;
    ChoiceArgs<E> args;
    for (const auto& [word, loc] : parse_comma_list(what)) {
      auto v = parse_one(word);
      if (!v)
        fail_at(loc, word,
                "'" + word + "' is not " + std::string(what) + " for '" + kw.spelled() + "'",
                words_fn());
      args.values.push_back(*v);
    }
    return args;
  };
  switch (sig) {
    case Signature::Results:
      return choices(parse_game_result, vocabulary_words<GameResult>, "a game result");
    case Signature::EventModes:
      return choices(parse_event_mode, vocabulary_words<EventMode>, "an event mode");
    case Signature::EventTypes:
      return choices(parse_event_type, vocabulary_words<EventType>, "an event type");
    case Signature::TimeModes:
      return choices(parse_time_mode, vocabulary_words<TimeMode>, "a time mode");
    case Signature::Terminations:
      return choices(parse_termination, vocabulary_words<Termination>, "a termination reason");
    case Signature::SpecialMarkers:
      return choices(parse_special_marker, vocabulary_words<SpecialMarker>, "a special marker");
    case Signature::Gender: {
      const Token& t = peek();
      std::optional<Gender> g;
      if (t.kind == TokenKind::Word) g = parse_gender(t.text);
      if (!g) fail(t, "expected a gender, found " + describe(t), vocabulary_words<Gender>());
      next();
      return GenderArgs{{*g}};
    }
    case Signature::DecodeError: {
      const Token& t = peek();
      std::optional<DecodeError> e;
      if (t.kind == TokenKind::Word) e = parse_decode_error(t.text);
      if (!e)
        fail(t, "expected a decoding error name, found " + describe(t),
             vocabulary_words<DecodeError>());
      next();
      return DecodeErrorArgs{{*e}};
    }
    case Signature::Languages:
    case Signature::Markers:
      if (!at_plain_word()) return CodeListArgs{};
      [[fallthrough]];
    case Signature::Countries:
    case Signature::Titles:
    case Signature::Variants: {
      const char* what = sig == Signature::Countries   ? "a country code"
                         : sig == Signature::Titles    ? "a title"
                         : sig == Signature::Variants  ? "a chess variant"
                         : sig == Signature::Languages ? "a language code"
                                                       : "a game marker";
      CodeListArgs args;
      for (auto& [word, loc] : parse_comma_list(what)) args.codes.push_back(word);
      return args;
    }
    default:
      fail(kw, "internal error: no argument parser for '" + kw.spelled() + "'");
  }
}

DateArgs Parser::parse_date_range() {
  DateArgs args;
  DateRange& r = args.range;
  r.loc = peek().loc;
  const char* expected = "a date like 2010-10-27, a range like 2010-10-01 2010-10-31, * or -";
  auto date_at = [&](size_t ahead) -> bool {
    const Token& t = peek(ahead);
    if (t.kind != TokenKind::Word && t.kind != TokenKind::Number) return false;
    std::string err;
    return parse_date(t.text, err).has_value();
  };
  auto date = [&]() -> DateValue {
    const Token& t = peek();
    if (t.kind != TokenKind::Word && t.kind != TokenKind::Number)
      fail(t, "expected a date, found " + describe(t), expected);
    std::string err;
    auto d = parse_date(t.text, err);
    if (!d) fail(t, "invalid date '" + t.text + "': " + err, expected);
    next();
    return *d;
  };
  const Token& first = peek();
  if (first.kind == TokenKind::Compare) {
    std::string op = next().text;
    r.form = op == ">"    ? DateRange::Form::Greater
             : op == ">=" ? DateRange::Form::GreaterEqual
             : op == "<"  ? DateRange::Form::Less
                          : DateRange::Form::LessEqual;
    r.first = date();
    return args;
  }
  if (first.kind == TokenKind::Word && (first.text == "*" || first.text == "-")) {
    r.kind = first.text == "*" ? DateRange::Kind::Any : DateRange::Kind::Missing;
    next();
    return args;
  }
  const Token& lo_tok = peek();
  r.first = date();
  if (at_word("..")) {
    next();
    const Token& hi_tok = peek();
    r.second = date();
    r.form = DateRange::Form::HalfOpen;
    if (r.first.compare(r.second) == 0)
      fail(hi_tok, "empty date range '" + lo_tok.text + " .. " + hi_tok.text + "'",
           "two different dates");
  } else if (date_at(0)) {
    const Token& hi_tok = peek();
    r.second = date();
    r.form = DateRange::Form::Between;
    if (r.first.compare(r.second) > 0)
      fail(lo_tok, "reversed date range '" + lo_tok.text + " " + hi_tok.text + "'",
           "the earlier date first (or 'd1 .. d2')");
  }
  return args;
}

EcoArgs Parser::parse_eco() {
  EcoArgs args;
  if (at_word("*") || at_word("-")) {
    args.special = peek().text == "*" ? Range::Kind::Any : Range::Kind::Missing;
    next();
    return args;
  }
  for (const auto& [word, loc] : parse_comma_list("an ECO code or range like B00-99")) {
    std::string err;
    auto e = parse_eco_range(word, err);
    if (!e)
      fail_at(loc, word, "invalid ECO range '" + word + "': " + err,
              "an ECO code like A00 or a range like B00-99");
    args.ranges.push_back(*e);
  }
  return args;
}

StartPositionArgs Parser::parse_start_positions() {
  StartPositionArgs args;
  if (at_word("*")) {
    args.any = true;
    next();
    return args;
  }
  const char* expected = "a start position number 0..3840, a range like 1-960, or a FICS name";
  for (const auto& [word, loc] : parse_comma_list("a start position")) {
    auto number = [&](std::string_view s, uint16_t& out) {
      if (s.empty() || s.size() > 4) return false;
      int v = 0;
      for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
      }
      if (v > 3840) return false;
      out = uint16_t(v);
      return true;
    };
    StartPositionSpec spec;
    size_t dash = word.find('-');
    if (number(word, spec.first)) {
      spec.last = spec.first;
    } else if (dash != std::string::npos &&
               number(std::string_view(word).substr(0, dash), spec.first) &&
               number(std::string_view(word).substr(dash + 1), spec.last)) {
      if (spec.last < spec.first)
        fail_at(loc, word, "reversed start position range '" + word + "'", expected);
    } else {
      bool letter = false, ok = true;
      for (char c : word) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
          letter = true;
        else if (!((c >= '0' && c <= '9') || c == '/' || c == '_' || c == '-' || c == '.'))
          ok = false;
      }
      if (!letter || !ok) fail_at(loc, word, "invalid start position '" + word + "'", expected);
      spec.fics = word;
    }
    args.entries.push_back(spec);
  }
  return args;
}

TextPattern Parser::parse_text(bool quoted_only, const char* what) {
  const Token& t = peek();
  if (t.kind == TokenKind::String) {
    next();
    return TextPattern{t.text, true};
  }
  if (quoted_only)
    fail(t, "expected " + std::string(what) + " in double quotes, found " + describe(t), what);
  if (!at_plain_word()) fail(t, "expected " + std::string(what) + ", found " + describe(t), what);
  next();
  return TextPattern{t.text, false};
}

std::string Parser::parse_name(const char* what) {
  const Token& t = peek();
  bool ok = t.kind == TokenKind::Word && !t.text.empty();
  if (ok) {
    for (char c : t.text)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
        ok = false;
  }
  if (!ok)
    fail(t, "expected " + std::string(what) + ", found " + describe(t),
         std::string(what) + " (letters, digits, '_')");
  next();
  return t.text;
}

}  // namespace cql::detail
