#include "query/result_json.h"

#include <stdexcept>
#include <string>

#include "db/record_format.h"
#include "db/utf8.h"

namespace query {

namespace {

using nlohmann::ordered_json;

ordered_json text(std::string_view s) {
  return db::repair_utf8(s);
}

ordered_json elo(int e) {
  return e ? ordered_json(e) : ordered_json(nullptr);
}

/// The per-ply clocks and evaluations of a game in lichess's JSON shape (its game export
/// API): "clocks" [centiseconds or null per main-line ply] and "analysis" [{"eval":cp} or
/// {"mate":n} or {} per ply], each only when some ply has one (issue 23).
void add_annotations(ordered_json& j, const db::RecordView& record) {
  std::vector<db::PlyAnnotation> plies;
  record.ply_annotations(plies);
  bool clocks = false, evals = false;
  for (const db::PlyAnnotation& a : plies) {
    clocks |= a.has_clock();
    evals |= a.has_eval();
  }
  if (clocks) {
    ordered_json list = ordered_json::array();
    for (const db::PlyAnnotation& a : plies)
      list.push_back(a.has_clock() ? ordered_json(uint64_t(a.clock) * 10) : ordered_json(nullptr));
    j["clocks"] = std::move(list);
  }
  if (evals) {
    ordered_json list = ordered_json::array();
    for (const db::PlyAnnotation& a : plies) {
      ordered_json e = ordered_json::object();
      if (a.has_eval()) e[a.eval.mate ? "mate" : "eval"] = a.eval.value;
      list.push_back(std::move(e));
    }
    j["analysis"] = std::move(list);
  }
}

}  // namespace

ordered_json match_json(const db::GameHeader& h, const eval::GameMatch& m, const db::RecordView* annotations) {
  ordered_json j = ordered_json::object();
  // Keys are appended in the shape's order (the object is a vector of pairs): no lookup.
  ordered_json::object_t& o = j.get_ref<ordered_json::object_t&>();
  o.reserve(24);
  auto add = [&o](const char* key, ordered_json value) { o.emplace_back(key, std::move(value)); };
  add("id", m.id);
  add("file", text(h.source_file));
  add("ordinal", h.ordinal);
  add("white", text(h.white));
  add("black", text(h.black));
  add("event", text(h.event));
  add("site", text(h.site));
  add("date", text(h.date));
  add("round", text(h.round));
  add("result", text(h.result));
  // issue 17: both Elos (null when none), ECO and opening name ("" when none): the code and
  // name import classified (issue 17 A), else the [ECO] and [Opening] tags
  add("white_elo", elo(h.white_elo));
  add("black_elo", elo(h.black_elo));
  add("eco", text(h.eco_class.empty() ? h.eco : h.eco_class));
  std::string_view opening = h.opening;
  if (opening.empty())
    for (const auto& [name, value] : h.other_tags)
      if (name == "Opening") opening = value;
  add("opening", text(opening));
  add("game_plies", h.plies);
  // issue 23: the time control tag (null when none), clocks and evaluations when present
  ordered_json time_control = nullptr;
  for (const auto& [name, value] : h.other_tags)
    if (name == "TimeControl") time_control = text(value);
  add("time_control", std::move(time_control));
  if (annotations) add_annotations(j, *annotations);
  // main-line plies as numbers, variation positions as ply paths ([31,1,2]), merged in the
  // order of the main-line ply (a main-line ply before the variations leaving there)
  ordered_json plies = ordered_json::array();
  size_t i = 0, k = 0;
  const auto& paths = m.variation_plies;
  while (i < m.plies.size() || k < paths.size()) {
    if (k == paths.size() || (i < m.plies.size() && m.plies[i] <= paths[k].front())) plies.push_back(m.plies[i++]);
    else plies.push_back(paths[k++]);
  }
  add("plies", std::move(plies));
  return j;
}

std::string json_text(const ordered_json& json) {
  return json.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

void write_jsonl(std::ostream& out, db::GameSource& reader, const std::vector<eval::GameMatch>& matches) {
  db::GameHeader header;
  std::string line;
  for (const eval::GameMatch& m : matches) {
    if (!reader.read_header(m.id, header)) throw std::out_of_range("no game " + std::to_string(m.id));
    db::RecordView record;
    std::string_view bytes;
    const bool annotated = reader.record(m.id, bytes) && !bytes.empty() &&
                           (uint8_t(bytes[0]) & db::kHasAnnotations) && reader.record_view(m.id, record);
    line = json_text(match_json(header, m, annotated && record.has_typed() ? &record : nullptr));
    line += '\n';
    out.write(line.data(), std::streamsize(line.size()));
  }
}

}  // namespace query
