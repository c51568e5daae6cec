#include "cli/query_output.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "cli/conventions.h"
#include "db/game_header.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "render/html_report.h"

namespace cli {

namespace {

/// Length of the valid UTF-8 sequence starting at text[i], or 0 if none starts there.
size_t utf8_sequence(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  if (b < 0x80) return 1;
  size_t len = b >= 0xC2 && b <= 0xDF   ? 2
               : b >= 0xE0 && b <= 0xEF ? 3
               : b >= 0xF0 && b <= 0xF4 ? 4
                                        : 0;
  if (len == 0 || i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k)
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  unsigned char b1 = byte(i + 1);
  if (b == 0xE0 && b1 < 0xA0) return 0;   // overlong
  if (b == 0xED && b1 >= 0xA0) return 0;  // surrogate
  if (b == 0xF0 && b1 < 0x90) return 0;   // overlong
  if (b == 0xF4 && b1 >= 0x90) return 0;  // above U+10FFFF
  return len;
}

/// Number of characters (code points) of UTF-8 `text`.
size_t char_count(std::string_view text) {
  return size_t(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

/// `text` cut to at most `width` characters, ending in "…" when cut.
std::string fit(std::string_view text, size_t width) {
  if (char_count(text) <= width) return std::string(text);
  size_t chars = 0, i = 0;
  while (i < text.size() && chars < width - 1) {
    ++i;
    while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
    ++chars;
  }
  return std::string(text.substr(0, i)) + "\xE2\x80\xA6";
}

/// `text` padded with blanks to `width` characters.
void write_cell(std::ostream& out, const std::string& text, size_t width, bool last) {
  out << text;
  if (!last)
    for (size_t n = char_count(text); n < width + 2; ++n) out << ' ';
}

constexpr size_t kTableColumns = 10;
constexpr std::array<size_t, kTableColumns> kMaxWidth = {10, 24, 24, 9, 7, 10, 4, 30, 24, 5};

/// The game's ECO code and opening name as the outputs show them (issue 17): the code and
/// name import classified (issue 17 A), else the [ECO] and [Opening] tags; empty when absent.
struct OpeningCells {
  std::string eco;
  std::string opening;
};
OpeningCells opening_cells(const db::GameHeader& h) {
  OpeningCells c;
  // The classified code and opening (issue 17 A) when import classified the game, else the
  // [ECO] and [Opening] tags.
  c.eco = h.eco_class.empty() ? h.eco : h.eco_class;
  c.opening = h.opening;
  if (c.opening.empty())
    for (const auto& [name, value] : h.other_tags)
      if (name == "Opening") c.opening = value;
  return c;
}

/// "2875/2819", "2875/?" or "-" when neither player has an Elo.
std::string elo_pair(const db::GameHeader& h) {
  if (!h.white_elo && !h.black_elo) return "-";
  auto one = [](int e) { return e ? std::to_string(e) : std::string("?"); };
  return one(h.white_elo) + "/" + one(h.black_elo);
}

void write_table(std::ostream& out, db::GameSource& reader,
                 const std::vector<eval::GameMatch>& matches) {
  using Row = std::array<std::string, kTableColumns>;
  std::vector<Row> rows;
  rows.push_back({"id", "White", "Black", "Elo", "result", "date", "ECO", "event", "opening", "ply"});
  db::GameHeader h;
  for (const eval::GameMatch& m : matches) {
    if (!reader.read_header(m.id, h)) throw std::out_of_range("no game " + std::to_string(m.id));
    const OpeningCells o = opening_cells(h);
    rows.push_back({std::to_string(m.id), h.white, h.black, elo_pair(h), h.result, h.date,
                    o.eco.empty() ? "-" : o.eco, h.event, o.opening,
                    m.plies.empty() ? "-" : std::to_string(m.plies.front())});
  }
  std::array<size_t, kTableColumns> width{};
  for (Row& row : rows)
    for (size_t c = 0; c < kTableColumns; ++c) {
      row[c] = fit(row[c], kMaxWidth[c]);
      width[c] = std::max(width[c], char_count(row[c]));
    }
  // On a terminal (or with $COLUMNS) the table fits its width: the name columns (players,
  // event, opening) give up characters, the widest first, down to 6 each; when that is not
  // enough, whole columns are left out: opening, Elo, ECO, event, in that order.
  std::array<bool, kTableColumns> shown{};
  shown.fill(true);
  if (const std::optional<size_t> columns = terminal_columns()) {
    auto total_width = [&] {
      size_t total = 0, count = 0;
      for (size_t c = 0; c < kTableColumns; ++c)
        if (shown[c]) total += width[c], ++count;
      return total + 2 * (count ? count - 1 : 0);
    };
    size_t total = total_width();
    const size_t names[] = {1, 2, 7, 8};
    while (total > *columns) {
      size_t* widest = &width[names[0]];
      for (size_t c : names)
        if (width[c] > *widest) widest = &width[c];
      if (*widest <= 6) break;
      --*widest;
      --total;
    }
    for (size_t c : {size_t(8), size_t(3), size_t(6), size_t(7)}) {
      if (total_width() <= *columns) break;
      shown[c] = false;
    }
    for (Row& row : rows)
      for (size_t c : names) row[c] = fit(row[c], width[c]);
  }
  size_t last = 0;
  for (size_t c = 0; c < kTableColumns; ++c)
    if (shown[c]) last = c;
  for (const Row& row : rows) {
    for (size_t c = 0; c < kTableColumns; ++c)
      if (shown[c]) write_cell(out, row[c], width[c], c == last);
    out << '\n';
  }
}

/// The per-ply clocks and evaluations of a game in lichess's JSON shape (its game export
/// API): `"clocks":[centiseconds or null per main-line ply]` and `"analysis":[{"eval":cp} or
/// {"mate":n} or {} per ply]`, each only when some ply has one (issue 23).
void write_json_annotations(std::ostream& out, const db::RecordView& record) {
  std::vector<db::PlyAnnotation> plies;
  record.ply_annotations(plies);
  bool clocks = false, evals = false;
  for (const db::PlyAnnotation& a : plies) {
    clocks |= a.has_clock();
    evals |= a.has_eval();
  }
  if (clocks) {
    out << ",\"clocks\":[";
    for (size_t i = 0; i < plies.size(); ++i) {
      out << (i ? "," : "");
      if (plies[i].has_clock()) out << uint64_t(plies[i].clock) * 10;
      else out << "null";
    }
    out << ']';
  }
  if (evals) {
    out << ",\"analysis\":[";
    for (size_t i = 0; i < plies.size(); ++i) {
      const db::PlyAnnotation& a = plies[i];
      out << (i ? "," : "");
      if (!a.has_eval()) out << "{}";
      else out << (a.eval.mate ? "{\"mate\":" : "{\"eval\":") << a.eval.value << '}';
    }
    out << ']';
  }
}

void write_json_line(std::ostream& out, const db::GameHeader& h, const eval::GameMatch& m,
                     const db::RecordView* record) {
  out << "{\"id\":" << m.id << ",\"file\":" << json_string(h.source_file)
      << ",\"ordinal\":" << h.ordinal << ",\"white\":" << json_string(h.white)
      << ",\"black\":" << json_string(h.black) << ",\"event\":" << json_string(h.event)
      << ",\"site\":" << json_string(h.site) << ",\"date\":" << json_string(h.date)
      << ",\"round\":" << json_string(h.round) << ",\"result\":" << json_string(h.result);
  // issue 17: both Elos (null when none), ECO and opening name ("" when none)
  const OpeningCells o = opening_cells(h);
  auto elo = [](int e) { return e ? std::to_string(e) : std::string("null"); };
  out << ",\"white_elo\":" << elo(h.white_elo) << ",\"black_elo\":" << elo(h.black_elo)
      << ",\"eco\":" << json_string(o.eco) << ",\"opening\":" << json_string(o.opening)
      << ",\"game_plies\":" << h.plies;
  // issue 23: the time control tag (null when none), clocks and evaluations when present
  std::string_view time_control;
  bool has_time_control = false;
  for (const auto& [name, value] : h.other_tags)
    if (name == "TimeControl") {
      time_control = value;
      has_time_control = true;
    }
  out << ",\"time_control\":" << (has_time_control ? json_string(time_control) : "null");
  if (record) write_json_annotations(out, *record);
  out << ",\"plies\":[";
  // main-line plies as numbers, variation positions as ply paths ([31,1,2]), merged in the
  // order of the main-line ply (a main-line ply before the variations leaving there)
  size_t i = 0, j = 0;
  const auto& paths = m.variation_plies;
  while (i < m.plies.size() || j < paths.size()) {
    out << (i + j ? "," : "");
    if (j == paths.size() || (i < m.plies.size() && m.plies[i] <= paths[j].front())) {
      out << m.plies[i++];
      continue;
    }
    out << '[';
    for (size_t k = 0; k < paths[j].size(); ++k) out << (k ? "," : "") << paths[j][k];
    out << ']';
    ++j;
  }
  out << "]}\n";
}

}  // namespace

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  if (name == "ids") return OutputFormat::kIds;
  if (name == "table") return OutputFormat::kTable;
  if (name == "jsonl") return OutputFormat::kJsonl;
  if (name == "pgn") return OutputFormat::kPgn;
  if (name == "html") return OutputFormat::kHtml;
  return std::nullopt;
}

std::string_view output_format_names() {
  return "ids, table, jsonl, pgn, html";
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (size_t i = 0; i < text.size();) {
    auto c = static_cast<unsigned char>(text[i]);
    size_t len = utf8_sequence(text, i);
    if (len == 0) {
      out += "\xEF\xBF\xBD";  // U+FFFD for a byte that is not valid UTF-8
      ++i;
      continue;
    }
    if (len > 1) {
      out.append(text.substr(i, len));
    } else if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(c));
      out += buf;
    } else {
      out += char(c);
    }
    i += len;
  }
  out += '"';
  return out;
}

void write_matches(std::ostream& out, OutputFormat format, db::GameSource& reader,
                   const std::vector<eval::GameMatch>& matches) {
  if (format == OutputFormat::kTable) {
    write_table(out, reader, matches);
    return;
  }
  if (format == OutputFormat::kHtml) {
    render::write_html_report(out, reader, matches);
    return;
  }
  db::GameHeader header;
  std::string text;
  for (const eval::GameMatch& m : matches) {
    if (format == OutputFormat::kIds) {
      out << m.id << '\n';
      continue;
    }
    if (!reader.read_header(m.id, header))
      throw std::out_of_range("no game " + std::to_string(m.id));
    if (format == OutputFormat::kJsonl) {
      db::RecordView record;
      std::string_view bytes;
      const bool annotated = reader.record(m.id, bytes) && !bytes.empty() &&
                             (uint8_t(bytes[0]) & db::kHasAnnotations) &&
                             reader.record_view(m.id, record);
      write_json_line(out, header, m, annotated && record.has_typed() ? &record : nullptr);
      continue;
    }
    db::RecordView record;
    if (!reader.record_view(m.id, record)) throw std::out_of_range("no game " + std::to_string(m.id));
    db::PgnWriteOptions options;
    options.match_plies = m.plies;
    options.match_variation_plies = m.variation_plies;
    text.clear();
    db::write_pgn(header, record, text, options);
    out.write(text.data(), std::streamsize(text.size()));
  }
}

}  // namespace cli
