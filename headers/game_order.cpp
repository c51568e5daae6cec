#include "headers/game_order.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "db/sqlite_statement.h"
#include "headers/header_pattern.h"
#include "headers/header_store.h"

namespace headers {

std::optional<SortOrder> parse_sort_order(std::string_view text) {
  SortOrder order;
  if (!text.empty() && text.front() == '-') {
    order.reversed = true;
    text.remove_prefix(1);
  }
  if (text == "id") order.key = SortKey::kId;
  else if (text == "date") order.key = SortKey::kDate;
  else if (text == "elo") order.key = SortKey::kElo;
  else if (text == "white") order.key = SortKey::kWhite;
  else if (text == "black") order.key = SortKey::kBlack;
  else if (text == "event") order.key = SortKey::kEvent;
  else if (text == "result") order.key = SortKey::kResult;
  else if (text == "eco") order.key = SortKey::kEco;
  else return std::nullopt;
  return order;
}

std::string_view sort_order_names() {
  return "date, elo, white, black, event, result, eco, id (a leading - reverses)";
}

namespace {

/// `text` with the letters folded (header_pattern.h), as UTF-8-ordered bytes per code point.
std::u32string folded(std::string_view text) {
  std::u32string s = decode_utf8(text);
  for (char32_t& c : s) c = fold_case(c);
  return s;
}

/// The SQL of one game's sort value for `key` (NULL = the game has none).
const char* value_sql(SortKey key) {
  switch (key) {
    case SortKey::kDate:
      // yyyymmdd with 00 for an unknown month or day (schema.h: year/month/day columns)
      return "CASE WHEN g.year IS NULL THEN NULL ELSE g.year * 10000 + IFNULL(g.month, 0) * 100 + "
             "IFNULL(g.day, 0) END";
    case SortKey::kElo:
      return "CASE WHEN g.white_elo IS NULL AND g.black_elo IS NULL THEN NULL "
             "WHEN g.white_elo IS NULL THEN g.black_elo WHEN g.black_elo IS NULL THEN g.white_elo "
             "ELSE (g.white_elo + g.black_elo) / 2 END";
    case SortKey::kWhite: return "(SELECT NULLIF(p.name, '') FROM players p WHERE p.id = g.white_id)";
    case SortKey::kBlack: return "(SELECT NULLIF(p.name, '') FROM players p WHERE p.id = g.black_id)";
    case SortKey::kEvent: return "(SELECT NULLIF(e.name, '') FROM events e WHERE e.id = g.event_id)";
    case SortKey::kResult:  // db::ResultCode 1 = 1-0, 3 = draw, 2 = 0-1; '*' has none
      return "CASE g.result WHEN 1 THEN 1 WHEN 3 THEN 2 WHEN 2 THEN 3 ELSE NULL END";
    case SortKey::kEco:  // the classified code (game_openings, issue 17), else the [ECO] tag
      return "COALESCE((SELECT o.eco FROM game_openings o WHERE o.game_id = g.id), NULLIF(g.eco, ''))";
    case SortKey::kId: break;
  }
  return "g.id";
}

}  // namespace

std::vector<SortEntry> HeaderStore::sort_entries(const std::vector<uint32_t>& ids, SortOrder order) {
  std::vector<SortEntry> entries;
  entries.reserve(ids.size());
  if (order.key == SortKey::kId) {
    for (uint32_t id : ids) entries.push_back({id, true, int64_t(id), {}});
    return entries;
  }
  const bool textual = order.key == SortKey::kWhite || order.key == SortKey::kBlack || order.key == SortKey::kEvent ||
                       order.key == SortKey::kEco;
  db::sqlite::Statement q(sql_, std::string("SELECT ") + value_sql(order.key) + " FROM games g WHERE g.id = ?1");
  for (uint32_t id : ids) {
    SortEntry e;
    e.id = id;
    q.bind(1, int64_t(id));
    if (q.step() && !q.column_is_null(0)) {
      e.has = true;
      if (textual) e.text = folded(q.column_text(0));
      else e.number = q.column_int64(0);
    }
    q.reset();
    entries.push_back(std::move(e));
  }
  return entries;
}

void sort_entries(std::vector<SortEntry>& entries, SortOrder order) {
  const bool textual = order.key == SortKey::kWhite || order.key == SortKey::kBlack || order.key == SortKey::kEvent ||
                       order.key == SortKey::kEco;
  // Natural directions: id, date and names ascending, Elo descending.
  const bool descending = (order.key == SortKey::kElo) != order.reversed;
  std::stable_sort(entries.begin(), entries.end(), [&](const SortEntry& a, const SortEntry& b) {
    if (a.has != b.has) return a.has;  // games without the value last
    if (!a.has) return a.id < b.id;
    int c = textual ? a.text.compare(b.text) : (a.number < b.number ? -1 : a.number > b.number ? 1 : 0);
    if (c == 0) return a.id < b.id;
    return descending ? c > 0 : c < 0;
  });
}

std::vector<uint32_t> HeaderStore::sort_ids(std::vector<uint32_t> ids, SortOrder order) {
  std::vector<SortEntry> entries = sort_entries(ids, order);
  headers::sort_entries(entries, order);
  for (size_t i = 0; i < entries.size(); ++i) ids[i] = entries[i].id;
  return ids;
}

}  // namespace headers
