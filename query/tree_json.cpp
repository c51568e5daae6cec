#include "query/tree_json.h"

#include <cctype>
#include <cstdio>

#include "chess/san.h"
#include "db/game_header.h"
#include "db/game_reader.h"

namespace query {

namespace {

std::string json_escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (uint8_t(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

void append_game_json(std::string& out, const HeaderLookup& headers, const posindex::TreeGame& g) {
  db::GameHeader h;
  const bool known = g.id && headers(g.id, h);
  char buf[160];
  std::snprintf(buf, sizeof buf, "{\"id\":%u,\"winner\":%s,\"year\":", g.id,
                g.result == 1 ? "\"white\"" : g.result == 2 ? "\"black\"" : "null");
  out += buf;
  out += g.year ? std::to_string(g.year) : "null";
  out += ",\"white\":{\"name\":\"" + json_escape(known ? h.white : "") + "\",\"rating\":" +
         (g.white_elo ? std::to_string(g.white_elo) : "null") + "},\"black\":{\"name\":\"" +
         json_escape(known ? h.black : "") + "\",\"rating\":" + (g.black_elo ? std::to_string(g.black_elo) : "null") + "}}";
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

std::string format_tree_json(const posindex::Tree& tree, const chess::Position& pos, const HeaderLookup& headers) {
  auto counts = [](const posindex::TreeStats& s) {
    char buf[128];
    std::snprintf(buf, sizeof buf, "\"white\":%u,\"draws\":%u,\"black\":%u,\"games\":%u", s.white, s.draws, s.black,
                  s.games);
    return std::string(buf);
  };
  auto extras = [](const posindex::TreeStats& s) {
    std::string out = ",\"averageRating\":" + std::to_string(s.average_rating()) +
                      ",\"performance\":" + std::to_string(s.performance());
    const double score = s.white_score_percent();
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", score);
    out += std::string(",\"score\":") + (score < 0 ? "null" : buf);
    out += ",\"firstYear\":" + (s.first_year ? std::to_string(s.first_year) : "null");
    out += ",\"lastYear\":" + (s.last_year ? std::to_string(s.last_year) : "null");
    return out;
  };
  std::string out = "{\"fen\":\"" + json_escape(pos.fen()) + "\"," + counts(tree.total) + extras(tree.total) +
                    ",\"ended\":" + std::to_string(tree.ended) + ",\"moves\":[";
  bool first = true;
  for (const posindex::TreeMove& m : tree.moves) {
    if (!first) out += ',';
    first = false;
    out += "{\"uci\":\"" + chess::to_uci(m.move, pos) + "\",\"san\":\"" + json_escape(chess::to_san(pos, m.move)) +
           "\"," + counts(m.stats) + extras(m.stats) + ",\"game\":";
    if (m.stats.best.id) append_game_json(out, headers, m.stats.best);
    else out += "null";
    out += '}';
  }
  out += "],\"topGames\":[";
  first = true;
  for (const posindex::TreeGame& g : tree.top_games) {
    if (!first) out += ',';
    first = false;
    append_game_json(out, headers, g);
  }
  out += "]}";
  return out;
}

std::string format_tree_json(const posindex::Tree& tree, const chess::Position& pos, db::GameSource& reader) {
  return format_tree_json(tree, pos, [&reader](uint32_t id, db::GameHeader& h) { return reader.read_header(id, h); });
}

}  // namespace query
