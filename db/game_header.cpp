#include "db/game_header.h"

#include <cstdio>

namespace db {

ResultCode result_code(std::string_view result) {
  if (result == "1-0") return ResultCode::kWhiteWins;
  if (result == "0-1") return ResultCode::kBlackWins;
  if (result == "1/2-1/2") return ResultCode::kDraw;
  return ResultCode::kUnknown;
}

std::string_view result_text(ResultCode code) {
  switch (code) {
    case ResultCode::kWhiteWins:
      return "1-0";
    case ResultCode::kBlackWins:
      return "0-1";
    case ResultCode::kDraw:
      return "1/2-1/2";
    case ResultCode::kUnknown:
      break;
  }
  return "*";
}

namespace {

/// The value of `part` when it is 1-4 decimal digits within [lo, hi].
std::optional<int> number(std::string_view part, int lo, int hi) {
  if (part.empty() || part.size() > 4) return std::nullopt;
  int value = 0;
  for (char c : part) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  if (value < lo || value > hi) return std::nullopt;
  return value;
}

}  // namespace

DateParts parse_pgn_date(std::string_view date) {
  DateParts parts;
  // blanks around the date (`[Date " 2007.??.??"]`) are not part of it (CQL 6.2 reads the
  // year there too)
  while (!date.empty() && (date.front() == ' ' || date.front() == '\t')) date.remove_prefix(1);
  while (!date.empty() && (date.back() == ' ' || date.back() == '\t')) date.remove_suffix(1);
  size_t dot1 = date.find('.');
  parts.year = number(date.substr(0, dot1), 0, 9999);
  if (dot1 == std::string_view::npos) return parts;
  std::string_view rest = date.substr(dot1 + 1);
  size_t dot2 = rest.find('.');
  parts.month = number(rest.substr(0, dot2), 1, 12);
  if (dot2 == std::string_view::npos) return parts;
  parts.day = number(rest.substr(dot2 + 1), 1, 31);
  return parts;
}

}  // namespace db

namespace db {

std::string canonical_pgn_date(const DateParts& parts) {
  char buf[32];
  auto part = [](std::optional<int> v, int width, char* out) {
    if (v) std::snprintf(out, 8, "%0*d", width, *v);
    else std::snprintf(out, 8, "%s", width == 4 ? "????" : "??");
  };
  char y[8], m[8], d[8];
  part(parts.year, 4, y);
  part(parts.month, 2, m);
  part(parts.day, 2, d);
  std::snprintf(buf, sizeof buf, "%s.%s.%s", y, m, d);
  return buf;
}

}  // namespace db
