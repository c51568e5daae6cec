// `:date` of a match list as an interval of day keys, the form in which it is compared
// with the partial dates of headers.sqlite (games.year / month / day).
//
// A day key is year * 10000 + month * 100 + day. A date written with fewer parts stands
// for all the days it covers: `2010` is 2010-01-01 .. 2010-12-31 and `2010-10` is
// 2010-10-01 .. 2010-10-31 (the last day of any month is taken as 31: keys only need to
// order days, and no real day falls between day 30 of a short month and day 1 of the next).
#pragma once

#include <cstdint>
#include <optional>

#include "cql/range.h"

namespace headers {

/// An interval of day keys; a missing bound is open.
struct DayKeyInterval {
  std::optional<int64_t> lo;  ///< lower bound (nullopt: none)
  std::optional<int64_t> hi;  ///< upper bound (nullopt: none)
  bool lo_strict = false;     ///< lo itself is excluded
  bool hi_strict = false;     ///< hi itself is excluded
};

/// The first day key `d` (offsets applied) stands for.
int64_t first_day_key(const cql::DateValue& d);
/// The last day key `d` (offsets applied) stands for.
int64_t last_day_key(const cql::DateValue& d);

/// The day keys `range` admits. Precondition: range.kind == DateRange::Kind::Interval.
///   `d`          first(d) .. last(d)
///   `d1 d2`      first(d1) .. last(d2)
///   `d1 .. d2`   d1 < d2: first(d1) .. before first(d2); d1 > d2: after last(d2) .. last(d1)
///                (d1 is included, d2 excluded, CQL-Match-List `:date`)
///   `>d` after last(d); `>=d` from first(d); `<d` before first(d); `<=d` up to last(d)
DayKeyInterval day_key_interval(const cql::DateRange& range);

}  // namespace headers
