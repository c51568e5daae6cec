// Range specifiers (CQL-Range-Specifiers, CQL-Percentage-Specifiers) and the other value
// kinds of keyword arguments: dates, ECO codes, score ranges in pawn units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cql/source_location.h"

namespace cql {

/// How a range was written; kept so the printer can reproduce it.
enum class RangeForm : uint8_t {
  Exact,         ///< `n`
  Between,       ///< `lo hi` (inclusive; `unlimited` = open bound)
  Greater,       ///< `>n`
  GreaterEqual,  ///< `>=n`
  Less,          ///< `<n`
  LessEqual,     ///< `<=n`
};

/// One bound of an integer range: a number, or `end` / `end-N` (move-number keywords).
struct RangeBound {
  int64_t value = 0;      ///< the number, or N of `end-N` (0 for `end`)
  bool from_end = false;  ///< `end-N`: counted back from the last position of the main line

  friend bool operator==(const RangeBound&, const RangeBound&) = default;
};

/// An integer range specifier. Bounds are kept as written: `>5` is lo = 5 with lo_strict,
/// not lo = 6, so percentages (`>12%` against 1/8 = 12.5%) stay exact.
struct Range {
  enum class Kind : uint8_t {
    Interval,  ///< a numeric interval (lo/hi below)
    Any,       ///< `*`: any value is present (game information only)
    Missing,   ///< `-`: the value is missing (game information only)
  };
  Kind kind = Kind::Interval;
  RangeForm form = RangeForm::Exact;
  std::optional<RangeBound> lo;  ///< nullopt: unbounded below
  std::optional<RangeBound> hi;  ///< nullopt: unbounded above
  bool lo_strict = false;        ///< lo is excluded (`>n`)
  bool hi_strict = false;        ///< hi is excluded (`<n`)
  bool percent = false;          ///< bounds are percentages 0..100
  SourceLoc loc;

  /// The exact range [n, n].
  static Range exactly(int64_t n);
  /// True if v lies in the interval. Precondition: kind == Interval, no `end` bound.
  bool contains(int64_t v) const;
  /// True if num/den (as a percentage) lies in the interval; den == 0 never matches.
  /// Precondition: percent.
  bool contains_ratio(int64_t num, int64_t den) const;

  /// Compares meaning, not location.
  friend bool operator==(const Range& a, const Range& b) {
    return a.kind == b.kind && a.lo == b.lo && a.hi == b.hi && a.lo_strict == b.lo_strict &&
           a.hi_strict == b.hi_strict && a.percent == b.percent;
  }
};

/// A range of engine or exchange scores in pawn units (decimals allowed, `unlimited` = open).
struct ScoreRange {
  RangeForm form = RangeForm::Exact;
  std::optional<double> lo;  ///< nullopt: unbounded below
  std::optional<double> hi;  ///< nullopt: unbounded above
  bool lo_strict = false;
  bool hi_strict = false;
  SourceLoc loc;

  bool contains(double v) const;
  friend bool operator==(const ScoreRange& a, const ScoreRange& b) {
    return a.lo == b.lo && a.hi == b.hi && a.lo_strict == b.lo_strict && a.hi_strict == b.hi_strict;
  }
};

/// A date as written in `:date` / `:eventdate`: YYYY[-MM[-DD]] with optional offsets
/// (`2010-10-01+1m`, `2010-10-27-43d`).
struct DateValue {
  int year = 0;
  int month = 0;  ///< 1..12, 0 = not given
  int day = 0;    ///< 1..31, 0 = not given
  int offset_years = 0;
  int offset_months = 0;
  int offset_days = 0;

  /// The date with offsets applied (calendar arithmetic; month overflow clamps the day).
  /// Only meaningful for a full date; partial dates are returned unchanged.
  DateValue resolved() const;
  /// Orders resolved dates; a missing month/day sorts first.
  int compare(const DateValue& other) const;
  friend bool operator==(const DateValue&, const DateValue&) = default;
};

/// The argument of `:date` / `:eventdate`.
struct DateRange {
  enum class Kind : uint8_t { Interval, Any, Missing };
  enum class Form : uint8_t {
    Exact,     ///< one date
    Between,   ///< `d1 d2`, both inclusive (d1 <= d2 required)
    HalfOpen,  ///< `d1 .. d2`: d1 inclusive, d2 exclusive, either order, d1 != d2
    Greater,
    GreaterEqual,
    Less,
    LessEqual,
  };
  Kind kind = Kind::Interval;
  Form form = Form::Exact;
  DateValue first;
  DateValue second;  ///< Between and HalfOpen only
  SourceLoc loc;
  friend bool operator==(const DateRange& a, const DateRange& b) {
    return a.kind == b.kind && a.form == b.form && a.first == b.first && a.second == b.second;
  }
};

/// An inclusive range of ECO codes, each encoded as letter index * 100 + number
/// (A00 = 0, E99 = 499): `B00-99` = {100, 199}.
struct EcoRange {
  uint16_t first = 0;
  uint16_t last = 0;
  friend bool operator==(const EcoRange&, const EcoRange&) = default;
};

/// Parses a date word ("2010-10-27", "1930", "2010-10-01+1m"). Returns an error message in
/// `error` (and nullopt) if the word is not a valid date.
std::optional<DateValue> parse_date(const std::string& word, std::string& error);

/// Parses an ECO range word ("A00", "B00-99", "A00-B99"); nullopt + error if invalid.
std::optional<EcoRange> parse_eco_range(const std::string& word, std::string& error);

/// Parses a Roman numeral ("XX" = 20); nullopt if the word is not one.
std::optional<int> parse_roman(const std::string& word);

/// Canonical spellings for the printer.
std::string to_string(const Range& r);
std::string to_string(const ScoreRange& r);
std::string to_string(const DateValue& d);
std::string to_string(const DateRange& r);
std::string to_string(const EcoRange& e);

}  // namespace cql
