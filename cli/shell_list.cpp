// The shell's `list` (a table of the current result) and `stats` (its results, Elo, years).
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "cli/conventions.h"
#include "cli/options.h"
#include "cli/shell_commands.h"
#include "db/game_header.h"
#include "headers/header_store.h"

namespace cli {

namespace {

/// Number of code points of UTF-8 `text` (its width in a monospaced table).
size_t width_of(std::string_view text) {
  return size_t(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

/// `text` cut to `width` code points, ending in "…" when cut.
std::string cut(std::string_view text, size_t width) {
  if (width_of(text) <= width) return std::string(text);
  size_t i = 0;
  for (size_t chars = 0; i < text.size() && chars + 1 < width; ++chars) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  }
  return std::string(text.substr(0, i)) + "\xE2\x80\xA6";
}

constexpr size_t kColumns = 8;
using Row = std::array<std::string, kColumns>;
constexpr std::array<size_t, kColumns> kMaxWidth = {7, 22, 22, 9, 7, 10, 28, 5};

/// Writes `rows` (the first is the heading) as aligned columns.
void write_rows(std::ostream& out, std::vector<Row>& rows) {
  std::array<size_t, kColumns> width{};
  for (Row& row : rows)
    for (size_t c = 0; c < kColumns; ++c) {
      row[c] = cut(row[c], kMaxWidth[c]);
      width[c] = std::max(width[c], width_of(row[c]));
    }
  // On a terminal (or with $COLUMNS) the rows fit its width: the players and the event give
  // up characters, the widest first, down to 6 each.
  if (const std::optional<size_t> columns = terminal_columns()) {
    size_t total = 2 * (kColumns - 1);
    for (size_t w : width) total += w;
    constexpr size_t kNames[] = {1, 2, 6};
    while (total > *columns) {
      size_t* widest = &width[kNames[0]];
      for (size_t c : kNames)
        if (width[c] > *widest) widest = &width[c];
      if (*widest <= 6) break;
      --*widest;
      --total;
    }
    for (Row& row : rows)
      for (size_t c : kNames) row[c] = cut(row[c], width[c]);
  }
  for (const Row& row : rows) {
    std::string line;
    for (size_t c = 0; c < kColumns; ++c) {
      line += row[c];
      if (c + 1 < kColumns) line.append(width[c] + 2 - width_of(row[c]), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }
}

/// Membership of game ids in the current result, indexed by id.
std::vector<bool> scope_bitmap(const ShellState& state) {
  std::vector<bool> in(size_t(state.game_count()) + 1, state.result().all);
  in[0] = false;
  if (!state.result().all)
    for (const eval::GameMatch& m : state.result().games)
      if (m.id < in.size()) in[m.id] = true;
  return in;
}

/// The ids in scope in `order` (headers::HeaderStore::sort_ids, the order of `cqldb query
/// --sort`).
std::vector<uint32_t> sorted_ids(ShellState& state, headers::SortOrder order) {
  return state.header_store().sort_ids(state.result_ids(), order);
}

bool parse_list_args(const std::vector<std::string>& words, uint64_t& limit, headers::SortOrder& key,
                     std::string& error) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "all") {
      limit = 0;
    } else if (!w.empty() && std::all_of(w.begin(), w.end(), ::isdigit)) {
      limit = std::stoull(w.substr(0, 12));
      if (limit == 0) return error = "N must be at least 1 (or `all`)", false;
    } else if (w == "sort") {
      if (i + 1 < words.size() && words[i + 1] == "by") ++i;
      if (i + 1 >= words.size())
        return error = "sort by what? (" + std::string(headers::sort_order_names()) + ")", false;
      const std::string& k = words[++i];
      std::optional<headers::SortOrder> order = headers::parse_sort_order(k);
      if (!order)
        return error = "cannot sort by '" + k + "' (" + std::string(headers::sort_order_names()) + ")", false;
      key = *order;
    } else {
      return error = "unexpected '" + w + "'", false;
    }
  }
  return true;
}

std::string elo_cell(const db::GameHeader& h) {
  if (!h.white_elo && !h.black_elo) return "-";
  auto one = [](int e) { return e ? std::to_string(e) : std::string("?"); };
  return one(h.white_elo) + "/" + one(h.black_elo);
}

}  // namespace

CommandStatus shell_list(ShellState& state, const CommandInput& input) {
  uint64_t limit = 20;
  headers::SortOrder key;
  std::string error;
  if (!parse_list_args(input.words, limit, key, error)) {
    state.err() << "list: " << error << "\nusage: list [N|all] [sort by date|elo|white|black|event|id]\n";
    return CommandStatus::kFailed;
  }
  state.refresh_game_count();
  std::vector<uint32_t> ids =
      key.key == headers::SortKey::kId && !key.reversed ? state.result_ids() : sorted_ids(state, key);
  const size_t total = ids.size();
  if (limit && ids.size() > limit) ids.resize(limit);

  std::vector<Row> rows;
  rows.push_back({"id", "White", "Black", "Elo", "result", "date", "event", "ply"});
  {
    db::GameReader reader = state.database().reader();
    db::GameHeader h;
    for (uint32_t id : ids) {
      if (state.cancel()) break;
      if (!reader.read_header(id, h)) continue;
      const eval::GameMatch* m = state.find_match(id);
      std::string ply = m && !m->plies.empty() ? std::to_string(m->plies.front()) : "-";
      rows.push_back(
          {std::to_string(id), h.white, h.black, elo_cell(h), h.result, h.date, h.event, ply});
    }
  }
  write_rows(state.out(), rows);
  if (rows.size() - 1 < total)
    state.out() << "(" << with_commas(rows.size() - 1) << " of " << with_commas(total)
                << " games; `list N` or `list all` for more)\n";
  else if (total == 0)
    state.out() << "(no games in scope)\n";
  return CommandStatus::kOk;
}

CommandStatus shell_stats(ShellState& state, const CommandInput&) {
  state.refresh_game_count();
  std::vector<bool> in = scope_bitmap(state);
  uint64_t games = 0, results[4] = {}, elo_count = 0, elo_sum = 0, dated = 0;
  int64_t elo_min = 0, elo_max = 0, year_min = 0, year_max = 0;
  std::map<int64_t, uint64_t> decades;
  state.header_store().scan_rows(state.game_count(), [&](const headers::GameRow& r) {
    if (r.id >= in.size() || !in[r.id]) return;
    ++games;
    ++results[r.result <= 3 ? r.result : 0];
    for (int64_t e : {int64_t(r.white_elo), int64_t(r.black_elo)}) {
      if (e <= 0) continue;
      elo_min = elo_count ? std::min(elo_min, e) : e;
      elo_max = elo_count ? std::max(elo_max, e) : e;
      elo_sum += uint64_t(e);
      ++elo_count;
    }
    if (r.year) {
      int64_t y = *r.year;
      year_min = dated ? std::min(year_min, y) : y;
      year_max = dated ? std::max(year_max, y) : y;
      ++dated;
      ++decades[y / 10 * 10];
    }
  });
  std::ostream& out = state.out();
  auto percent = [&](uint64_t n) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.1f%%", games ? 100.0 * double(n) / double(games) : 0.0);
    return std::string(buf);
  };
  out << "games:    " << with_commas(games) << (state.result().all ? " (all)" : " (current result)")
      << '\n';
  if (games == 0) return CommandStatus::kOk;
  const char* names[4] = {"*", "1-0", "0-1", "1/2-1/2"};
  out << "results: ";
  for (int r : {1, 2, 3, 0})  // "*" only when some result is unknown
    if (results[r] || r)
      out << "  " << names[r] << " " << with_commas(results[r]) << " (" << percent(results[r])
          << ")";
  out << '\n';
  if (elo_count)
    out << "Elo:      " << with_commas(elo_count) << " ratings, average " << elo_sum / elo_count
        << ", lowest " << elo_min << ", highest " << elo_max << '\n';
  else
    out << "Elo:      no ratings\n";
  if (!dated) {
    out << "years:    no dates\n";
    return CommandStatus::kOk;
  }
  out << "years:    " << year_min << ".." << year_max << " (" << with_commas(dated)
      << " games dated)\n";
  uint64_t most = 0;
  for (const auto& [decade, n] : decades) most = std::max(most, n);
  for (const auto& [decade, n] : decades) {
    char head[48];
    std::snprintf(head, sizeof head, "  %llds %9s  ", static_cast<long long>(decade),
                  with_commas(n).c_str());
    size_t bar = size_t((n * 40 + most - 1) / most);
    out << head << std::string(bar, '#') << '\n';
  }
  return CommandStatus::kOk;
}

}  // namespace cli
