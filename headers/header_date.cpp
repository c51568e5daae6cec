#include "headers/header_date.h"

namespace headers {

namespace {

int64_t key(int year, int month, int day) {
  return int64_t(year) * 10000 + month * 100 + day;
}

}  // namespace

int64_t first_day_key(const cql::DateValue& date) {
  cql::DateValue d = date.resolved();
  if (d.month == 0) return key(d.year, 1, 1);
  return key(d.year, d.month, d.day == 0 ? 1 : d.day);
}

int64_t last_day_key(const cql::DateValue& date) {
  cql::DateValue d = date.resolved();
  if (d.month == 0) return key(d.year, 12, 31);
  return key(d.year, d.month, d.day == 0 ? 31 : d.day);
}

DayKeyInterval day_key_interval(const cql::DateRange& r) {
  using Form = cql::DateRange::Form;
  DayKeyInterval out;
  switch (r.form) {
    case Form::Exact:
      out.lo = first_day_key(r.first);
      out.hi = last_day_key(r.first);
      break;
    case Form::Between:
      out.lo = first_day_key(r.first);
      out.hi = last_day_key(r.second);
      break;
    case Form::HalfOpen:
      if (r.first.compare(r.second) < 0) {
        out.lo = first_day_key(r.first);
        out.hi = first_day_key(r.second);
        out.hi_strict = true;
      } else {
        out.lo = last_day_key(r.second);
        out.lo_strict = true;
        out.hi = last_day_key(r.first);
      }
      break;
    case Form::Greater:
      out.lo = last_day_key(r.first);
      out.lo_strict = true;
      break;
    case Form::GreaterEqual:
      out.lo = first_day_key(r.first);
      break;
    case Form::Less:
      out.hi = first_day_key(r.first);
      out.hi_strict = true;
      break;
    case Form::LessEqual:
      out.hi = last_day_key(r.first);
      break;
  }
  return out;
}

}  // namespace headers
