#include "index/tree_json.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>

#include "chess/san.h"
#include "db/game_header.h"
#include "db/utf8.h"

namespace posindex {

namespace {

using nlohmann::ordered_json;

ordered_json year_or_null(uint16_t year) {
  return year ? ordered_json(year) : ordered_json(nullptr);
}

ordered_json rating_or_null(uint16_t elo) {
  return elo ? ordered_json(elo) : ordered_json(nullptr);
}

/// The counts and our figures of `s`, set on `j` in the shape's order.
void add_stats(ordered_json& j, const TreeStats& s) {
  j["white"] = s.white;
  j["draws"] = s.draws;
  j["black"] = s.black;
  j["games"] = s.games;
  j["averageRating"] = s.average_rating();
  j["performance"] = s.performance();
  const double score = s.white_score_percent();
  if (score < 0) {
    j["score"] = nullptr;
  } else {
    char buf[32];  // one decimal as printf rounds it, then the double that prints so
    std::snprintf(buf, sizeof buf, "%.1f", score);
    j["score"] = std::strtod(buf, nullptr);
  }
  j["firstYear"] = year_or_null(s.first_year);
  j["lastYear"] = year_or_null(s.last_year);
}

ordered_json game_json(const HeaderLookup& headers, const TreeGame& g) {
  db::GameHeader h;
  const bool known = g.id && headers(g.id, h);
  ordered_json j;
  j["id"] = g.id;
  j["winner"] = g.result == 1 ? ordered_json("white") : g.result == 2 ? ordered_json("black") : ordered_json(nullptr);
  j["year"] = year_or_null(g.year);
  j["white"] = {{"name", db::repair_utf8(known ? h.white : "")}, {"rating", rating_or_null(g.white_elo)}};
  j["black"] = {{"name", db::repair_utf8(known ? h.black : "")}, {"rating", rating_or_null(g.black_elo)}};
  return j;
}

}  // namespace

bool play_san_moves(chess::Position& pos, std::string_view moves, std::string& error) {
  size_t i = 0;
  while (i < moves.size()) {
    while (i < moves.size() && std::isspace(uint8_t(moves[i]))) ++i;
    size_t j = i;
    while (j < moves.size() && !std::isspace(uint8_t(moves[j]))) ++j;
    std::string_view token = moves.substr(i, j - i);
    i = j;
    // Move numbers: "1.", "1...", "12.Nf3".
    size_t k = 0;
    while (k < token.size() && std::isdigit(uint8_t(token[k]))) ++k;
    if (k && k < token.size() && token[k] == '.') {
      while (k < token.size() && token[k] == '.') ++k;
      token.remove_prefix(k);
    } else if (token.find_first_not_of('.') == std::string_view::npos) {
      token = {};
    }
    if (token.empty()) continue;
    chess::SanError err;
    const chess::Move m = chess::parse_san(pos, token, &err);
    if (!m) {
      error = "move '" + std::string(token) + "': " + err.message;
      return false;
    }
    chess::UndoInfo undo;
    if (m == chess::Move::null()) pos.do_null_move(undo);
    else pos.do_move(m, undo);
  }
  return true;
}

ordered_json tree_json(const Tree& tree, const chess::Position& pos, db::GameSource& reader) {
  return tree_json(tree, pos, [&reader](uint32_t id, db::GameHeader& h) { return reader.read_header(id, h); });
}

ordered_json tree_json(const Tree& tree, const chess::Position& pos, const HeaderLookup& headers) {
  ordered_json j;
  j["fen"] = pos.fen();
  add_stats(j, tree.total);
  j["ended"] = tree.ended;
  ordered_json moves = ordered_json::array();
  for (const TreeMove& m : tree.moves) {
    ordered_json mj;
    mj["uci"] = chess::to_uci(m.move, pos);
    mj["san"] = chess::to_san(pos, m.move);
    add_stats(mj, m.stats);
    mj["game"] = m.stats.best.id ? game_json(headers, m.stats.best) : ordered_json(nullptr);
    moves.push_back(std::move(mj));
  }
  j["moves"] = std::move(moves);
  ordered_json top = ordered_json::array();
  for (const TreeGame& g : tree.top_games) top.push_back(game_json(headers, g));
  j["topGames"] = std::move(top);
  return j;
}

}  // namespace posindex
