#include "web/json_shape.h"

#include "db/utf8.h"

namespace web {

namespace {

using nlohmann::json;

/// `text` with invalid UTF-8 replaced by U+FFFD (nlohmann refuses to dump invalid UTF-8).
std::string valid_utf8(const std::string& text) {
  return db::repair_utf8(text);
}

json elo(int value) {
  return value ? json(value) : json(nullptr);
}

void header_fields(json& j, const db::GameHeader& h) {
  j["id"] = h.id;
  j["white"] = valid_utf8(h.white);
  j["black"] = valid_utf8(h.black);
  j["white_elo"] = elo(h.white_elo);
  j["black_elo"] = elo(h.black_elo);
  j["result"] = h.result;
  j["date"] = valid_utf8(h.date);
  j["event"] = valid_utf8(h.event);
  j["site"] = valid_utf8(h.site);
  j["round"] = valid_utf8(h.round);
  j["eco"] = h.eco_class.empty() ? valid_utf8(h.eco) : h.eco_class;
  std::string opening = h.opening;
  if (opening.empty())
    for (const auto& [name, value] : h.other_tags)
      if (name == "Opening") opening = value;
  j["opening"] = valid_utf8(opening);
  j["game_plies"] = h.plies;
}

json line_json(const render::WalkLine& line, bool main_line) {
  json moves = json::array();
  for (const render::WalkMove& m : line.moves) {
    json move = {{"san", m.san},
                 {"uci", m.uci},
                 {"fen", m.fen},
                 {"from", square_name(m.from)},
                 {"to", square_name(m.to)},
                 {"path", render::path_text(m.path)},
                 {"white", m.white},
                 {"number", m.move_number}};
    if (main_line) move["ply"] = m.path.front();
    if (!m.nags.empty()) move["nags"] = m.nags;
    if (!m.comment.empty()) move["comment"] = valid_utf8(m.comment);
    if (!m.variations.empty()) {
      json variations = json::array();
      for (const render::WalkLine& v : m.variations) {
        json vj = {{"moves", line_json(v, false)}};
        if (!v.comment_before.empty()) vj["comment_before"] = valid_utf8(v.comment_before);
        variations.push_back(std::move(vj));
      }
      move["variations"] = std::move(variations);
    }
    moves.push_back(std::move(move));
  }
  return moves;
}

}  // namespace

std::string square_name(chess::Square sq) {
  if (!chess::is_ok(sq)) return "";
  return {char('a' + chess::file_of(sq)), char('1' + chess::rank_of(sq))};
}

json row_json(const db::GameHeader& header, const eval::GameMatch& match) {
  json j;
  header_fields(j, header);
  j["plies"] = match.plies;
  json paths = json::array();
  for (const eval::VariationPly& p : match.variation_plies) paths.push_back(render::path_text(p));
  j["variation_plies"] = std::move(paths);
  return j;
}

json game_json(const db::GameHeader& header, const render::GameWalk& walk) {
  json j;
  header_fields(j, header);
  json tags = json::object();
  for (const auto& [name, value] : header.other_tags) tags[valid_utf8(name)] = valid_utf8(value);
  j["tags"] = std::move(tags);
  j["start_fen"] = walk.start_fen;
  j["fens"] = walk.fens;
  j["comment_before"] = valid_utf8(walk.main.comment_before);
  j["moves"] = line_json(walk.main, true);
  return j;
}

json stats_json(const query::Stats& s) {
  json stages = json::array();
  for (const query::StageFigures& f : s.stages)
    stages.push_back({{"name", f.name}, {"ran", f.ran}, {"in", f.in}, {"out", f.out}, {"seconds", f.seconds},
                      {"note", f.note}});
  return {{"count", s.matches},
          {"found", s.matches_found},
          {"summary", query::matches_text(s)},
          {"seconds", s.seconds},
          {"games", s.games_total},
          {"candidates", s.candidates},
          {"replayed", s.games_replayed},
          {"positions", s.positions},
          {"cancelled", s.cancelled},
          {"damaged", s.damaged},
          {"stages", std::move(stages)},
          {"explain", valid_utf8(query::explain_stats(s))}};
}

json error_json(const std::string& message, uint32_t line, uint32_t column, const std::string& expected) {
  json j = {{"error", valid_utf8(message)}};
  if (line) {
    j["line"] = line;
    j["column"] = column;
    if (!expected.empty()) j["expected"] = valid_utf8(expected);
  }
  return j;
}

}  // namespace web
