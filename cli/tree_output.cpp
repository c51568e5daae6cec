#include "cli/tree_output.h"

#include <cstdio>

#include "chess/san.h"
#include "cli/options.h"
#include "db/game_header.h"
#include "db/game_reader.h"

namespace cli {

namespace {

std::string percent(uint32_t part, uint32_t whole) {
  if (!whole) return "-";
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.1f", 100.0 * part / whole);
  return buf;
}

/// "White - Black (year)" of game `g`, read from the headers.
std::string players(db::GameSource& reader, const posindex::TreeGame& g) {
  db::GameHeader h;
  if (!g.id || !reader.read_header(g.id, h)) return "";
  std::string s = "#" + std::to_string(g.id) + " " + h.white + " - " + h.black;
  if (g.year) s += " " + std::to_string(g.year);
  return s;
}

}  // namespace

std::string format_tree_table(const posindex::Tree& tree, const chess::Position& pos, db::GameSource& reader) {
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-8s %9s %6s %6s %6s %6s %6s %5s %5s  %-9s  %s\n", "move", "games", "%", "white",
                "draw", "black", "score", "elo", "perf", "years", "best game");
  out += buf;
  auto row = [&](const std::string& name, const posindex::TreeStats& s) {
    const uint32_t decided = s.white + s.draws + s.black;
    const double score = s.white_score_percent();
    std::string years = s.first_year ? std::to_string(s.first_year) + "-" + std::to_string(s.last_year) : "-";
    std::snprintf(buf, sizeof buf, "%-8s %9s %6s %6s %6s %6s %6s %5s %5s  %-9s  %s\n", name.c_str(),
                  with_commas(s.games).c_str(), percent(s.games, tree.total.games).c_str(),
                  percent(s.white, decided).c_str(), percent(s.draws, decided).c_str(), percent(s.black, decided).c_str(),
                  score < 0 ? "-" : percent(uint32_t(score * 10 + 0.5), 1000).c_str(),
                  s.average_rating() ? std::to_string(s.average_rating()).c_str() : "-",
                  s.performance() ? std::to_string(s.performance()).c_str() : "-", years.c_str(),
                  players(reader, s.best).c_str());
    out += buf;
  };
  for (const posindex::TreeMove& m : tree.moves) row(chess::to_san(pos, m.move), m.stats);
  if (tree.ended) {
    posindex::TreeStats ended;
    ended.games = tree.ended;
    std::snprintf(buf, sizeof buf, "%-8s %9s %6s  (main line ends here)\n", "(end)", with_commas(tree.ended).c_str(),
                  percent(tree.ended, tree.total.games).c_str());
    out += buf;
  }
  row("total", tree.total);
  return out;
}

}  // namespace cli
