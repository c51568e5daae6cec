// Storing a player list, linking game sides to it, and listing players (headers/players.h).
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <map>
#include <unordered_map>

#include "db/sqlite_statement.h"
#include "db/sqlite_transaction.h"
#include "headers/player_name.h"
#include "headers/player_hints.h"
#include "headers/players.h"

namespace headers::players {

namespace {

using db::sqlite::Statement;

void bind_text_or_null(Statement& s, int index, const std::string& text) {
  if (text.empty()) s.bind_null(index);
  else s.bind(index, std::string_view(text));
}

/// A lookup from a name key to the one list entry having it (-1 = several).
using KeyIndex = std::unordered_map<std::string, int64_t>;

void add_unique(KeyIndex& index, const std::string& key, int64_t id) {
  auto [it, inserted] = index.emplace(key, id);
  if (!inserted && it->second != id) it->second = -1;
}

/// One game side's tag data.
struct SideTags {
  std::optional<int64_t> fide_id;
  std::string title;
};

std::string normal_title(std::string_view tag) {
  std::string t;
  for (char c : tag)
    if (c != ' ') t += char(std::toupper(static_cast<unsigned char>(c)));
  if (t == "-" || t == "?") t.clear();
  return t;
}

}  // namespace

int64_t store_player_list(db::sqlite::Connection& sql, const std::vector<PlayerRecord>& records) {
  db::sqlite::Transaction txn(sql, db::sqlite::Begin::kImmediate);
  Statement drop_by_id(sql, "DELETE FROM player_data WHERE fide_id = ?1");
  Statement drop_by_name(sql, "DELETE FROM player_data WHERE fide_id IS NULL AND full_key = ?1");
  Statement insert(sql,
                   "INSERT INTO player_data(fide_id, name, full_key, key, country, sex, title, birth, death) "
                   "VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  int64_t stored = 0;
  for (const PlayerRecord& r : records) {
    const std::string full = full_name_key(r.name);
    if (r.fide_id) {
      drop_by_id.bind(1, *r.fide_id);
      drop_by_id.run();
    } else {
      drop_by_name.bind(1, std::string_view(full));
      drop_by_name.run();
    }
    const std::string key = player_key(r.name);
    insert.bind(1, r.fide_id);
    insert.bind(2, std::string_view(r.name));
    insert.bind(3, std::string_view(full));
    insert.bind(4, std::string_view(key));
    bind_text_or_null(insert, 5, r.country);
    bind_text_or_null(insert, 6, r.sex);
    bind_text_or_null(insert, 7, r.title);
    insert.bind(8, r.birth ? std::optional<int64_t>(*r.birth) : std::nullopt);
    insert.bind(9, r.death ? std::optional<int64_t>(*r.death) : std::nullopt);
    insert.run();
    ++stored;
  }
  txn.commit();
  return stored;
}

LinkCounts link_games(db::sqlite::Connection& sql, LinkScope scope) {
  const auto started = std::chrono::steady_clock::now();
  LinkCounts counts;
  // Games first..last get linked; games before first were linked by an earlier call.
  int64_t first = 1, last = 0;
  {
    Statement q(sql, "SELECT (SELECT value FROM meta WHERE key = 'linked_games'), "
                     "(SELECT value FROM meta WHERE key = 'committed_games')");
    if (q.step()) {
      if (scope == LinkScope::kNewGames && !q.column_is_null(0)) first = q.column_int64(0) + 1;
      last = q.column_int64(1);
    }
  }
  auto record_linked = [&] {
    Statement set(sql, "INSERT OR REPLACE INTO meta(key, value) VALUES('linked_games', ?1)");
    set.bind(1, last);
    set.run();
  };
  if (first > last) {  // nothing new
    counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return counts;
  }
  // The list: by FIDE id, by full name, by key.
  struct Entry {
    std::string country, sex, title;
    std::optional<int64_t> birth, death;
  };
  std::unordered_map<int64_t, Entry> entries;
  std::unordered_map<int64_t, int64_t> by_fide;
  KeyIndex by_full, by_key;
  {
    Statement q(sql, "SELECT id, fide_id, full_key, key, country, sex, title, birth, death FROM player_data");
    while (q.step()) {
      const int64_t id = q.column_int64(0);
      if (!q.column_is_null(1)) by_fide[q.column_int64(1)] = id;
      add_unique(by_full, std::string(q.column_text(2)), id);
      add_unique(by_key, std::string(q.column_text(3)), id);
      Entry e{std::string(q.column_text(4)), std::string(q.column_text(5)), std::string(q.column_text(6)),
              q.column_is_null(7) ? std::nullopt : std::optional<int64_t>(q.column_int64(7)),
              q.column_is_null(8) ? std::nullopt : std::optional<int64_t>(q.column_int64(8))};
      entries.emplace(id, std::move(e));
    }
  }
  // Each spelling's entry by name (0 = none).
  std::unordered_map<int64_t, int64_t> by_player;
  if (!entries.empty()) {
    // Only the spellings of the games to link (all of them for a full link).
    Statement q(sql, first == 1 ? "SELECT id, name FROM players"
                                : "SELECT id, name FROM players WHERE id IN ("
                                  "SELECT white_id FROM games WHERE id BETWEEN ?1 AND ?2 UNION "
                                  "SELECT black_id FROM games WHERE id BETWEEN ?1 AND ?2)");
    if (first != 1) {
      q.bind(1, first);
      q.bind(2, last);
    }
    while (q.step()) {
      const std::string_view name = q.column_text(1);
      int64_t entry = 0;
      if (auto it = by_full.find(full_name_key(name)); it != by_full.end()) {
        entry = it->second;
      } else if (auto k = by_key.find(player_key(name)); k != by_key.end()) {
        entry = k->second;
      }
      if (entry < 0) {
        ++counts.ambiguous_names;
        entry = 0;
      }
      if (entry > 0) by_player.emplace(q.column_int64(0), entry);
    }
  }
  // Tags: game id -> [white, black].
  {
    Statement any(sql,
                  "SELECT EXISTS(SELECT 1 FROM game_players WHERE game_id >= ?1) OR "
                  "EXISTS(SELECT 1 FROM tags WHERE game_id BETWEEN ?1 AND ?2 AND name IN "
                  "('WhiteFideId', 'BlackFideId', 'WhiteTitle', 'BlackTitle'))");
    any.bind(1, first);
    any.bind(2, last);
    if (entries.empty() && any.step() && any.column_int64(0) == 0) {  // nothing to link or to clear
      db::sqlite::Transaction txn(sql, db::sqlite::Begin::kImmediate);
      record_linked();
      txn.commit();
      counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      return counts;
    }
  }
  std::unordered_map<int64_t, std::array<SideTags, 2>> tags;
  {
    Statement q(sql,
                "SELECT game_id, name, value FROM tags WHERE game_id BETWEEN ?1 AND ?2 AND "
                "name IN ('WhiteFideId', 'BlackFideId', 'WhiteTitle', 'BlackTitle')");
    q.bind(1, first);
    q.bind(2, last);
    while (q.step()) {
      const std::string_view name = q.column_text(1);
      SideTags& side = tags[q.column_int64(0)][name.starts_with("Black") ? 1 : 0];
      if (name.ends_with("FideId")) {
        const std::string_view v = q.column_text(2);
        int64_t id = 0;
        auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), id);
        if (ec == std::errc() && end == v.data() + v.size() && id > 0) side.fide_id = id;
      } else {
        side.title = normal_title(q.column_text(2));
      }
    }
  }
  db::sqlite::Transaction txn(sql, db::sqlite::Begin::kImmediate);
  {
    Statement clear(sql, "DELETE FROM game_players WHERE game_id >= ?1");
    clear.bind(1, first);
    clear.run();
  }
  Statement insert(sql,
                   "INSERT INTO game_players(game_id, side, fide_id, title, player_data_id, country, sex, "
                   "birth, death) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  Statement games(sql, "SELECT id, white_id, black_id FROM games WHERE id BETWEEN ?1 AND ?2 "
                       "ORDER BY id");
  games.bind(1, first);
  games.bind(2, last);
  const SideTags no_tags;
  while (games.step()) {
    ++counts.games;
    const int64_t game = games.column_int64(0);
    auto t = tags.find(game);
    for (int side = 0; side < 2; ++side) {
      const SideTags& st = t == tags.end() ? no_tags : t->second[size_t(side)];
      int64_t entry = 0;
      if (st.fide_id) {
        if (auto f = by_fide.find(*st.fide_id); f != by_fide.end()) {
          entry = f->second;
          ++counts.sides_by_fide_id;
        }
      } else if (auto p = by_player.find(games.column_int64(1 + side)); p != by_player.end()) {
        entry = p->second;
        ++counts.sides_by_name;
      }
      const Entry* e = entry > 0 ? &entries.at(entry) : nullptr;
      const std::string& title = !st.title.empty() ? st.title : e ? e->title : st.title;
      if (!st.fide_id && title.empty() && !e) continue;
      if (!title.empty()) ++counts.sides_with_title;
      insert.bind(1, game);
      insert.bind(2, int64_t(side));
      insert.bind(3, st.fide_id);
      bind_text_or_null(insert, 4, title);
      if (e) {
        insert.bind(5, entry);
        bind_text_or_null(insert, 6, e->country);
        bind_text_or_null(insert, 7, e->sex);
        insert.bind(8, e->birth);
        insert.bind(9, e->death);
      }
      insert.run();
    }
  }
  record_linked();
  txn.commit();
  counts.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return counts;
}

std::vector<PlayerSummary> list_players(db::sqlite::Connection& sql, std::string_view pattern, bool quoted) {
  const PlayerMatcher matcher(pattern, quoted);
  // Matching spellings, grouped into players (player_group_keys).
  std::map<std::string, PlayerSummary> by_key;
  std::unordered_map<int64_t, PlayerSummary*> of_player;
  std::unordered_map<int64_t, size_t> spelling_of_player;
  {
    std::vector<std::pair<int64_t, std::string>> matched;
    Statement q(sql, "SELECT id, name FROM players");
    while (q.step()) {
      const std::string_view name = q.column_text(1);
      if (matcher.matches(name)) matched.emplace_back(q.column_int64(0), std::string(name));
    }
    std::vector<std::string_view> names;
    names.reserve(matched.size());
    for (const auto& m : matched) names.push_back(m.second);
    const std::vector<std::string> keys = player_group_keys(names);
    for (size_t i = 0; i < matched.size(); ++i) {
      PlayerSummary& s = by_key[keys[i]];
      s.key = keys[i];
      spelling_of_player[matched[i].first] = s.spellings.size();
      s.spellings.emplace_back(matched[i].second, 0);
      of_player[matched[i].first] = &s;
    }
  }
  if (!of_player.empty()) {
    // One pass over the games (both sides), counting into the matched players.
    Statement q(sql, "SELECT white_id, black_id, white_elo, black_elo, year FROM games");
    while (q.step()) {
      for (int side = 0; side < 2; ++side) {
        const int64_t player = q.column_int64(side);
        auto it = of_player.find(player);
        if (it == of_player.end()) continue;
        PlayerSummary& s = *it->second;
        ++s.games;
        ++s.spellings[spelling_of_player[player]].second;
        const int elo = int(q.column_int64(2 + side));
        if (elo > 0) {
          s.elo_min = s.elo_min == 0 ? elo : std::min(s.elo_min, elo);
          s.elo_max = std::max(s.elo_max, elo);
        }
        if (!q.column_is_null(4)) {
          const int year = int(q.column_int64(4));
          s.first_year = s.first_year == 0 ? year : std::min(s.first_year, year);
          s.last_year = std::max(s.last_year, year);
        }
      }
    }
  }
  std::vector<PlayerSummary> out;
  for (auto& [key, s] : by_key) {
    std::stable_sort(s.spellings.begin(), s.spellings.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    out.push_back(std::move(s));
  }
  std::stable_sort(out.begin(), out.end(), [](const PlayerSummary& a, const PlayerSummary& b) {
    return a.games > b.games;
  });
  return out;
}

std::vector<std::string> quoted_name_hints(db::sqlite::Connection& sql, const cql::Script& script) {
  std::vector<std::string> hints;
  for (const cql::Keyword keyword : {cql::Keyword::Player, cql::Keyword::WhitePlayer, cql::Keyword::BlackPlayer}) {
    cql::walk(script.match, [&](const cql::KeywordItem& item) {
      if (item.keyword != keyword) return;
      for (const cql::TextPattern& pattern : item.as<cql::TextArgs>().patterns) {
        const std::string& text = pattern.text;
        if (!pattern.quoted || text.empty() || !is_plain_name(text)) continue;
        Statement q(sql, "SELECT name FROM players");
        bool found = false;
        while (!found && q.step()) found = contains_ignoring_case(q.column_text(0), text);
        if (!found) continue;
        hints.push_back("hint: :" + std::string(item.info().name) + " \"" + text +
                        "\" must match a whole name (or player key); \"" + text + "*\" or unquoted " + text +
                        " (a substring) find players");
      }
    });
  }
  return hints;
}

}  // namespace headers::players
