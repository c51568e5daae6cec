#include "query/result_json.h"

#include <stdexcept>
#include <string>

#include "db/record_format.h"
#include "db/utf8.h"

namespace query {

namespace {

using nlohmann::ordered_json;

/// The slots of a match_json object filled in the shape's order into an object that may
/// hold the previous game's: a slot whose key is already in place keeps its value's memory
/// (a string's buffer, an array's capacity), so a reused object allocates nothing for a
/// typical game. Keys are const in nlohmann's ordered map: from the first slot whose key
/// differs (a game with clocks after one without), the rest is dropped and appended anew.
class Slots {
 public:
  explicit Slots(ordered_json& j) : o_(j.get_ref<ordered_json::object_t&>()) {}
  /// The value of the next key, `key`.
  ordered_json& operator[](const char* key) {
    // (the map's operator[] takes a key: its slots are reached through iterators)
    if (n_ < o_.size() && o_.begin()[std::ptrdiff_t(n_)].first != key) o_.erase(o_.begin() + std::ptrdiff_t(n_), o_.end());
    if (n_ == o_.size()) o_.emplace_back(key, nullptr);
    return o_.begin()[std::ptrdiff_t(n_++)].second;
  }
  /// Drops the slots after the last one filled.
  void finish() { o_.erase(o_.begin() + std::ptrdiff_t(n_), o_.end()); }

 private:
  ordered_json::object_t& o_;
  size_t n_ = 0;
};

/// Sets `v` to the text `s` repaired to valid UTF-8 (db/utf8.h), reusing its string buffer.
void set_text(ordered_json& v, std::string_view s) {
  if (!v.is_string()) v = ordered_json::string_t();
  ordered_json::string_t& out = v.get_ref<ordered_json::string_t&>();
  if (db::is_valid_utf8(s)) out.assign(s);
  else out = db::repair_utf8(s);
}

void set_elo(ordered_json& v, int e) {
  if (e) v = e;
  else v = nullptr;
}

/// `v` as an empty array that keeps its capacity.
ordered_json::array_t& empty_array(ordered_json& v) {
  if (!v.is_array()) v = ordered_json::array();
  ordered_json::array_t& a = v.get_ref<ordered_json::array_t&>();
  a.clear();
  return a;
}

/// The per-ply clocks and evaluations of a game in lichess's JSON shape (its game export
/// API): "clocks" [centiseconds or null per main-line ply] and "analysis" [{"eval":cp} or
/// {"mate":n} or {} per ply], each only when some ply has one (issue 23).
void add_annotations(Slots& slot, const db::RecordView& record) {
  std::vector<db::PlyAnnotation> plies;
  record.ply_annotations(plies);
  bool clocks = false, evals = false;
  for (const db::PlyAnnotation& a : plies) {
    clocks |= a.has_clock();
    evals |= a.has_eval();
  }
  if (clocks) {
    ordered_json::array_t& list = empty_array(slot["clocks"]);
    for (const db::PlyAnnotation& a : plies)
      list.push_back(a.has_clock() ? ordered_json(uint64_t(a.clock) * 10) : ordered_json(nullptr));
  }
  if (evals) {
    ordered_json::array_t& list = empty_array(slot["analysis"]);
    for (const db::PlyAnnotation& a : plies) {
      ordered_json e = ordered_json::object();
      if (a.has_eval()) e[a.eval.mate ? "mate" : "eval"] = a.eval.value;
      list.push_back(std::move(e));
    }
  }
}

/// Fills `j` (an object, possibly the previous game's, or null) with match_json's shape.
void fill_match_json(ordered_json& j, const db::GameHeader& h, const eval::GameMatch& m,
                     const db::RecordView* annotations) {
  if (!j.is_object()) {
    j = ordered_json::object();
    j.get_ref<ordered_json::object_t&>().reserve(24);
  }
  Slots slot(j);
  slot["id"] = m.id;
  set_text(slot["file"], h.source_file);
  slot["ordinal"] = h.ordinal;
  set_text(slot["white"], h.white);
  set_text(slot["black"], h.black);
  set_text(slot["event"], h.event);
  set_text(slot["site"], h.site);
  set_text(slot["date"], h.date);
  set_text(slot["round"], h.round);
  set_text(slot["result"], h.result);
  // issue 17: both Elos (null when none), ECO and opening name ("" when none): the code and
  // name import classified (issue 17 A), else the [ECO] and [Opening] tags
  set_elo(slot["white_elo"], h.white_elo);
  set_elo(slot["black_elo"], h.black_elo);
  set_text(slot["eco"], h.eco_class.empty() ? h.eco : h.eco_class);
  std::string_view opening = h.opening;
  if (opening.empty())
    for (const auto& [name, value] : h.other_tags)
      if (name == "Opening") opening = value;
  set_text(slot["opening"], opening);
  slot["game_plies"] = h.plies;
  // issue 23: the time control tag (null when none), clocks and evaluations when present
  const std::string* time_control = nullptr;
  for (const auto& [name, value] : h.other_tags)
    if (name == "TimeControl") time_control = &value;
  ordered_json& tc = slot["time_control"];
  if (time_control) set_text(tc, *time_control);
  else tc = nullptr;
  if (annotations) add_annotations(slot, *annotations);
  // main-line plies as numbers, variation positions as ply paths ([31,1,2]), merged in the
  // order of the main-line ply (a main-line ply before the variations leaving there)
  ordered_json::array_t& plies = empty_array(slot["plies"]);
  size_t i = 0, k = 0;
  const auto& paths = m.variation_plies;
  while (i < m.plies.size() || k < paths.size()) {
    if (k == paths.size() || (i < m.plies.size() && m.plies[i] <= paths[k].front())) plies.emplace_back(m.plies[i++]);
    else plies.emplace_back(paths[k++]);
  }
  slot.finish();
}

using Serializer = nlohmann::detail::serializer<ordered_json>;

/// A serializer appending compact JSON to `out`, invalid UTF-8 replaced by U+FFFD. It is
/// nlohmann-json's own (what dump() builds for every call), kept to write many values.
Serializer serializer_into(std::string& out) {
  return Serializer(nlohmann::detail::output_adapter<char>(out), ' ', ordered_json::error_handler_t::replace);
}

}  // namespace

ordered_json match_json(const db::GameHeader& h, const eval::GameMatch& m, const db::RecordView* annotations) {
  ordered_json j;
  fill_match_json(j, h, m, annotations);
  return j;
}

std::string json_text(const ordered_json& json) {
  return json.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
}

void write_jsonl(std::ostream& out, db::GameSource& reader, const std::vector<eval::GameMatch>& matches) {
  // One object, one line buffer and one serializer for all the lines: only the values
  // change from game to game (the same bytes as json_text(match_json(...)) per line).
  db::GameHeader header;
  ordered_json object;
  std::string line;
  line.reserve(1024);
  Serializer serializer = serializer_into(line);
  for (const eval::GameMatch& m : matches) {
    if (!reader.read_header(m.id, header)) throw std::out_of_range("no game " + std::to_string(m.id));
    db::RecordView record;
    std::string_view bytes;
    const bool annotated = reader.record(m.id, bytes) && !bytes.empty() &&
                           (uint8_t(bytes[0]) & db::kHasAnnotations) && reader.record_view(m.id, record);
    fill_match_json(object, header, m, annotated && record.has_typed() ? &record : nullptr);
    line.clear();
    serializer.dump(object, false, false, 0);
    line += '\n';
    out.write(line.data(), std::streamsize(line.size()));
  }
}

}  // namespace query
