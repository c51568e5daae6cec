#include "convert.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace pycqldb {

py::str text(const std::string& s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), Py_ssize_t(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(o);
}

std::pair<std::string, std::string> opening_of(const db::GameHeader& h) {
  std::string eco = h.eco_class.empty() ? h.eco : h.eco_class;
  std::string opening = h.opening;
  if (opening.empty())
    for (const auto& [name, value] : h.other_tags)
      if (name == "Opening") opening = value;
  return {eco, opening};
}

py::object clocks_list(const std::vector<db::PlyAnnotation>& annotations) {
  bool any = false;
  for (const db::PlyAnnotation& a : annotations) any |= a.has_clock();
  if (!any) return py::none();
  py::list out;
  for (const db::PlyAnnotation& a : annotations)
    out.append(a.has_clock() ? py::object(py::int_(uint64_t(a.clock) * 10)) : py::object(py::none()));
  return out;
}

py::object evals_list(const std::vector<db::PlyAnnotation>& annotations) {
  bool any = false;
  for (const db::PlyAnnotation& a : annotations) any |= a.has_eval();
  if (!any) return py::none();
  py::list out;
  for (const db::PlyAnnotation& a : annotations) {
    py::dict d;
    if (a.has_eval()) d[a.eval.mate ? "mate" : "eval"] = a.eval.value;
    out.append(d);
  }
  return out;
}

namespace {

/// The row's keys, made once (interned str objects kept for the process's life): a result of
/// 30,000 rows would otherwise make 500,000 key strings.
struct RowKeys {
  py::handle id, file, ordinal, white, black, event, site, date, round, result, white_elo, black_elo, eco, opening,
      game_plies, time_control, clocks, analysis, plies;
  RowKeys() {
    auto key = [](const char* name) { return py::handle(PyUnicode_InternFromString(name)); };
    id = key("id"), file = key("file"), ordinal = key("ordinal"), white = key("white"), black = key("black");
    event = key("event"), site = key("site"), date = key("date"), round = key("round"), result = key("result");
    white_elo = key("white_elo"), black_elo = key("black_elo"), eco = key("eco"), opening = key("opening");
    game_plies = key("game_plies"), time_control = key("time_control"), clocks = key("clocks");
    analysis = key("analysis"), plies = key("plies");
  }
};

}  // namespace

py::dict row_dict(const MatchRow& row) {
  static const RowKeys k;  // made with the GIL held, on the first call
  const db::GameHeader& h = row.header;
  const eval::GameMatch& m = row.match;
  py::dict d;
  auto elo = [](int e) { return e ? py::object(py::int_(e)) : py::object(py::none()); };
  d[k.id] = m.id;
  d[k.file] = text(h.source_file);
  d[k.ordinal] = h.ordinal;
  d[k.white] = text(h.white);
  d[k.black] = text(h.black);
  d[k.event] = text(h.event);
  d[k.site] = text(h.site);
  d[k.date] = text(h.date);
  d[k.round] = text(h.round);
  d[k.result] = text(h.result);
  d[k.white_elo] = elo(h.white_elo);
  d[k.black_elo] = elo(h.black_elo);
  const auto [eco, opening] = opening_of(h);
  d[k.eco] = text(eco);
  d[k.opening] = text(opening);
  d[k.game_plies] = h.plies;
  py::object time_control = py::none();
  for (const auto& [name, value] : h.other_tags)
    if (name == "TimeControl") time_control = text(value);
  d[k.time_control] = time_control;
  if (py::object clocks = clocks_list(row.annotations); !clocks.is_none()) d[k.clocks] = clocks;
  if (py::object evals = evals_list(row.annotations); !evals.is_none()) d[k.analysis] = evals;
  // main-line plies as ints, variation positions as ply paths, in main-line order (a
  // main-line ply before the variations leaving there), as the jsonl output
  py::list plies;
  size_t i = 0, j = 0;
  const auto& paths = m.variation_plies;
  while (i < m.plies.size() || j < paths.size()) {
    if (j == paths.size() || (i < m.plies.size() && m.plies[i] <= paths[j].front())) {
      plies.append(m.plies[i++]);
      continue;
    }
    plies.append(py::cast(paths[j++]));
  }
  d[k.plies] = plies;
  return d;
}

py::dict stats_dict(const query::Stats& s) {
  py::dict d;
  d["games_total"] = s.games_total;
  d["after_indexes"] = s.after_indexes();
  d["candidates"] = s.candidates;
  d["after_signatures"] = s.after_signatures();
  d["games_replayed"] = s.games_replayed;
  d["positions"] = s.positions;
  d["matches"] = s.matches;
  d["matches_found"] = s.matches_found;
  d["search_complete"] = s.search_complete;
  d["summary"] = query::matches_text(s);
  d["seconds"] = s.seconds;
  d["cancelled"] = s.cancelled;
  d["engine_calls"] = s.engine_calls;
  d["cache_hits"] = s.cache_hits;
  d["damaged"] = py::cast(s.damaged);
  d["planner_on"] = s.planner_on;
  py::list stages;
  for (const query::StageFigures& f : s.stages) {
    py::dict st;
    st["name"] = f.name;
    st["ran"] = f.ran;
    st["in"] = f.in;
    st["out"] = f.out;
    st["seconds"] = f.seconds;
    st["note"] = f.note;
    stages.append(st);
  }
  d["stages"] = stages;
  d["explain"] = query::explain_stats(s);
  return d;
}

}  // namespace pycqldb
