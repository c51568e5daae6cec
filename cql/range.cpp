#include "cql/range.h"

#include <cmath>
#include <sstream>

namespace cql {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

bool leap(int y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int days_in_month(int y, int m) {
  static const int kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap(y) ? 29 : kDays[m - 1];
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t days_from_civil(int64_t y, int m, int d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

void civil_from_days(int64_t z, int& y, int& m, int& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  d = int(doy - (153 * mp + 2) / 5 + 1);
  m = int(mp < 10 ? mp + 3 : mp - 9);
  y = int(yoe + era * 400 + (m <= 2));
}

std::string bound_to_string(const RangeBound& b, bool percent) {
  std::string s;
  if (b.from_end) {
    s = b.value == 0 ? "end" : "end-" + std::to_string(b.value);
  } else {
    s = std::to_string(b.value);
  }
  if (percent) s += '%';
  return s;
}

std::string number_to_string(double v) {
  std::ostringstream os;
  os.precision(15);
  os << v;
  return os.str();
}

int to_int(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

}  // namespace

Range Range::exactly(int64_t n) {
  Range r;
  r.lo = RangeBound{n, false};
  r.hi = RangeBound{n, false};
  return r;
}

bool Range::contains(int64_t v) const {
  if (kind != Kind::Interval) return false;
  if (lo && (lo_strict ? v <= lo->value : v < lo->value)) return false;
  if (hi && (hi_strict ? v >= hi->value : v > hi->value)) return false;
  return true;
}

bool Range::contains_ratio(int64_t num, int64_t den) const {
  if (kind != Kind::Interval || den <= 0) return false;
  // Compare num/den with p/100 exactly: num * 100 vs p * den.
  int64_t scaled = num * 100;
  if (lo) {
    int64_t b = lo->value * den;
    if (lo_strict ? scaled <= b : scaled < b) return false;
  }
  if (hi) {
    int64_t b = hi->value * den;
    if (hi_strict ? scaled >= b : scaled > b) return false;
  }
  return true;
}

bool ScoreRange::contains(double v) const {
  if (lo && (lo_strict ? v <= *lo : v < *lo)) return false;
  if (hi && (hi_strict ? v >= *hi : v > *hi)) return false;
  return true;
}

DateValue DateValue::resolved() const {
  if (month == 0 || day == 0) return *this;
  if (offset_years == 0 && offset_months == 0 && offset_days == 0) return *this;
  int y = year + offset_years;
  int m0 = (month - 1) + offset_months;
  y += m0 >= 0 ? m0 / 12 : -((11 - m0) / 12);
  m0 = ((m0 % 12) + 12) % 12;
  int m = m0 + 1;
  int d = day > days_in_month(y, m) ? days_in_month(y, m) : day;
  int64_t z = days_from_civil(y, m, d) + offset_days;
  DateValue out;
  civil_from_days(z, out.year, out.month, out.day);
  return out;
}

int DateValue::compare(const DateValue& other) const {
  DateValue a = resolved();
  DateValue b = other.resolved();
  if (a.year != b.year) return a.year < b.year ? -1 : 1;
  if (a.month != b.month) return a.month < b.month ? -1 : 1;
  if (a.day != b.day) return a.day < b.day ? -1 : 1;
  return 0;
}

std::optional<DateValue> parse_date(const std::string& w, std::string& error) {
  DateValue d;
  size_t n = w.size();
  size_t i = 0;
  while (i < n && is_digit(w[i])) ++i;
  if (i != 4) {
    error = "a date starts with a four-digit year";
    return std::nullopt;
  }
  d.year = to_int(std::string_view(w).substr(0, 4));
  auto two_digit_field = [&](size_t at) {
    return at + 3 <= n && w[at] == '-' && is_digit(w[at + 1]) && is_digit(w[at + 2]) &&
           (at + 3 == n || w[at + 3] == '-' || w[at + 3] == '+');
  };
  if (two_digit_field(i)) {
    d.month = to_int(std::string_view(w).substr(i + 1, 2));
    i += 3;
    if (two_digit_field(i)) {
      d.day = to_int(std::string_view(w).substr(i + 1, 2));
      i += 3;
    }
  }
  if (d.month != 0 && (d.month < 1 || d.month > 12)) {
    error = "month " + std::to_string(d.month) + " is not in 01..12";
    return std::nullopt;
  }
  if (d.day != 0 && (d.day < 1 || d.day > days_in_month(d.year, d.month))) {
    error = "day " + std::to_string(d.day) + " does not exist in " + std::to_string(d.year) + "-" +
            (d.month < 10 ? "0" : "") + std::to_string(d.month);
    return std::nullopt;
  }
  bool seen_y = false, seen_m = false, seen_d = false;
  while (i < n) {
    char sign = w[i];
    if (sign != '+' && sign != '-') {
      error = "unexpected '" + std::string(1, sign) + "' in date";
      return std::nullopt;
    }
    size_t j = i + 1;
    while (j < n && is_digit(w[j])) ++j;
    if (j == i + 1 || j >= n || j - i - 1 > 6) {
      error = "a date offset is written like +1m, -43d or +2y (at most 6 digits)";
      return std::nullopt;
    }
    int v = to_int(std::string_view(w).substr(i + 1, j - i - 1)) * (sign == '-' ? -1 : 1);
    char unit = w[j];
    bool* seen = unit == 'y' ? &seen_y : unit == 'm' ? &seen_m : unit == 'd' ? &seen_d : nullptr;
    if (!seen || *seen) {
      error = seen ? "repeated date offset unit" : "a date offset unit is y, m or d";
      return std::nullopt;
    }
    *seen = true;
    (unit == 'y' ? d.offset_years : unit == 'm' ? d.offset_months : d.offset_days) = v;
    i = j + 1;
  }
  if ((seen_y || seen_m || seen_d) && (d.month == 0 || d.day == 0)) {
    error = "a date offset needs a full date YYYY-MM-DD";
    return std::nullopt;
  }
  return d;
}

std::optional<EcoRange> parse_eco_range(const std::string& w, std::string& error) {
  auto code = [&](size_t at, uint16_t& out) {
    if (at + 3 > w.size() || w[at] < 'A' || w[at] > 'E' || !is_digit(w[at + 1]) ||
        !is_digit(w[at + 2]))
      return false;
    out = uint16_t((w[at] - 'A') * 100 + (w[at + 1] - '0') * 10 + (w[at + 2] - '0'));
    return true;
  };
  EcoRange r;
  if (!code(0, r.first)) {
    error = "an ECO code is a letter A-E followed by two digits";
    return std::nullopt;
  }
  r.last = r.first;
  if (w.size() == 3) return r;
  if (w[3] != '-') {
    error = "an ECO range is written like B00-99 or A00-B99";
    return std::nullopt;
  }
  if (w.size() == 6 && is_digit(w[4]) && is_digit(w[5])) {
    r.last = uint16_t((r.first / 100) * 100 + (w[4] - '0') * 10 + (w[5] - '0'));
  } else if (w.size() != 7 || !code(4, r.last)) {
    error = "an ECO range is written like B00-99 or A00-B99";
    return std::nullopt;
  }
  if (r.last < r.first) {
    error = "reversed ECO range";
    return std::nullopt;
  }
  return r;
}

std::optional<int> parse_roman(const std::string& w) {
  auto value = [](char c) {
    switch (c) {
      case 'I':
        return 1;
      case 'V':
        return 5;
      case 'X':
        return 10;
      case 'L':
        return 50;
      case 'C':
        return 100;
      case 'D':
        return 500;
      case 'M':
        return 1000;
      default:
        return 0;
    }
  };
  if (w.empty()) return std::nullopt;
  int total = 0;
  for (size_t i = 0; i < w.size(); ++i) {
    int v = value(w[i]);
    if (v == 0) return std::nullopt;
    int next = i + 1 < w.size() ? value(w[i + 1]) : 0;
    total += v < next ? -v : v;
  }
  // Accept only the canonical spelling of the value.
  static const std::pair<int, const char*> kTable[] = {
      {1000, "M"}, {900, "CM"}, {500, "D"}, {400, "CD"}, {100, "C"}, {90, "XC"}, {50, "L"},
      {40, "XL"},  {10, "X"},   {9, "IX"},  {5, "V"},    {4, "IV"},  {1, "I"}};
  if (total <= 0 || total >= 4000) return std::nullopt;
  std::string canon;
  int rest = total;
  for (const auto& [v, s] : kTable)
    while (rest >= v) {
      canon += s;
      rest -= v;
    }
  if (canon != w) return std::nullopt;
  return total;
}

std::string to_string(const Range& r) {
  if (r.kind == Range::Kind::Any) return "*";
  if (r.kind == Range::Kind::Missing) return "-";
  if (r.lo && r.hi) {
    if (*r.lo == *r.hi && !r.lo_strict && !r.hi_strict) return bound_to_string(*r.lo, r.percent);
    return bound_to_string(*r.lo, r.percent) + " " + bound_to_string(*r.hi, r.percent);
  }
  if (r.lo) return (r.lo_strict ? ">" : ">=") + bound_to_string(*r.lo, r.percent);
  if (r.hi) return (r.hi_strict ? "<" : "<=") + bound_to_string(*r.hi, r.percent);
  return "unlimited unlimited";
}

std::string to_string(const ScoreRange& r) {
  if (r.lo && r.hi) {
    if (*r.lo == *r.hi && !r.lo_strict && !r.hi_strict) return number_to_string(*r.lo);
    return number_to_string(*r.lo) + " " + number_to_string(*r.hi);
  }
  if (r.lo) return (r.lo_strict ? ">" : ">=") + number_to_string(*r.lo);
  if (r.hi) return (r.hi_strict ? "<" : "<=") + number_to_string(*r.hi);
  return "unlimited unlimited";
}

std::string to_string(const DateValue& d) {
  auto two = [](int v) { return (v < 10 ? "0" : "") + std::to_string(v); };
  std::string s = std::to_string(d.year);
  if (d.month) s += "-" + two(d.month);
  if (d.day) s += "-" + two(d.day);
  auto off = [&](int v, char unit) {
    if (v) s += (v > 0 ? "+" : "-") + std::to_string(std::abs(v)) + unit;
  };
  off(d.offset_years, 'y');
  off(d.offset_months, 'm');
  off(d.offset_days, 'd');
  return s;
}

std::string to_string(const DateRange& r) {
  if (r.kind == DateRange::Kind::Any) return "*";
  if (r.kind == DateRange::Kind::Missing) return "-";
  switch (r.form) {
    case DateRange::Form::Exact:
      return to_string(r.first);
    case DateRange::Form::Between:
      return to_string(r.first) + " " + to_string(r.second);
    case DateRange::Form::HalfOpen:
      return to_string(r.first) + " .. " + to_string(r.second);
    case DateRange::Form::Greater:
      return ">" + to_string(r.first);
    case DateRange::Form::GreaterEqual:
      return ">=" + to_string(r.first);
    case DateRange::Form::Less:
      return "<" + to_string(r.first);
    case DateRange::Form::LessEqual:
      return "<=" + to_string(r.first);
  }
  return {};
}

std::string to_string(const EcoRange& e) {
  auto code = [](uint16_t c) {
    std::string s(1, char('A' + c / 100));
    s += char('0' + (c % 100) / 10);
    s += char('0' + c % 10);
    return s;
  };
  if (e.first == e.last) return code(e.first);
  if (e.first / 100 == e.last / 100) return code(e.first) + "-" + code(e.last).substr(1);
  return code(e.first) + "-" + code(e.last);
}

}  // namespace cql
