#include "cli/query_output.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "cli/conventions.h"
#include "db/game_header.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "query/result_json.h"
#include "render/html_report.h"

namespace cli {

namespace {

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

void write_matches(std::ostream& out, OutputFormat format, db::GameSource& reader,
                   const std::vector<eval::GameMatch>& matches, const PgnMarks& marks) {
  if (format == OutputFormat::kTable) {
    write_table(out, reader, matches);
    return;
  }
  if (format == OutputFormat::kHtml) {
    render::write_html_report(out, reader, matches);
    return;
  }
  if (format == OutputFormat::kJsonl) {
    query::write_jsonl(out, reader, matches);
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
    db::RecordView record;
    if (!reader.record_view(m.id, record)) throw std::out_of_range("no game " + std::to_string(m.id));
    db::PgnWriteOptions options;
    options.match_plies = m.plies;
    options.match_variation_plies = m.variation_plies;
    options.ply_comments = m.comments;  // CQL 6 comment / sort (issue 37)
    options.variation_comments = m.variation_comments;
    options.extra_tags = m.tags;        // CQL 6 settag
    if (marks.cql6) {
      options.join_marks = true;
      options.match_text = marks.quiet || marks.silent ? std::string_view() : std::string_view(marks.match_text);
      options.start_text = marks.silent ? "" : "Game number " + std::to_string(header.ordinal);
    }
    text.clear();
    db::write_pgn(header, record, text, options);
    out.write(text.data(), std::streamsize(text.size()));
  }
}

}  // namespace cli
