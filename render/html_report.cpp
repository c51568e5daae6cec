#include "render/html_report.h"

#include <algorithm>
#include <set>

#include "chess/position.h"
#include "db/game_header.h"
#include "db/record_view.h"
#include "render/board_svg.h"
#include "render/game_walk.h"

namespace render {

namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;color:#222}"
    "h1{font-size:1.3em}h2{font-size:1.1em;margin-bottom:.2em}.meta{color:#555;margin-top:0}"
    "pre.query{background:#f4f4f4;padding:.5em;white-space:pre-wrap}"
    ".moves{line-height:1.6}.moves .match{background:#ffe066;font-weight:bold;padding:0 2px}"
    ".moves .var{color:#666}.moves .comment{color:#2a6f2a}"
    ".diagrams{display:flex;flex-wrap:wrap;gap:1em}figure{margin:0}figcaption{font-size:.9em;"
    "text-align:center}section{border-top:1px solid #ccc;padding-bottom:1em}";

/// A matched position: its ply path (main line {k}) and where it is drawn from.
struct Diagram {
  std::string caption;
  std::string fen;
  chess::Square from = chess::SQ_NONE, to = chess::SQ_NONE;
};

/// Writes `line` as HTML movetext, marking the moves whose path is in `matched` and adding
/// a diagram for each.
void write_line(std::string& html, const WalkLine& line, const std::set<std::vector<uint32_t>>& matched,
                std::vector<Diagram>& diagrams, bool variation) {
  if (!line.comment_before.empty())
    html += "<span class='comment'>{" + xml_escape(line.comment_before) + "}</span> ";
  bool number_next = true;
  for (const WalkMove& m : line.moves) {
    std::string number;
    if (m.white) number = std::to_string(m.move_number) + ". ";
    else if (number_next) number = std::to_string(m.move_number) + "... ";
    number_next = false;
    const bool is_match = matched.count(m.path) != 0;
    html += number;
    html += is_match ? "<span class='match'>" + xml_escape(m.san) + "</span>" : xml_escape(m.san);
    for (uint8_t nag : m.nags) html += " $" + std::to_string(nag);
    html += ' ';
    if (is_match)
      diagrams.push_back({"After " + number + m.san + (variation ? " (variation " + path_text(m.path) + ")"
                                                                 : " (ply " + path_text(m.path) + ")"),
                          m.fen, m.from, m.to});
    if (!m.comment.empty()) {
      html += "<span class='comment'>{" + xml_escape(m.comment) + "}</span> ";
      number_next = true;
    }
    for (const WalkLine& v : m.variations) {
      html += "<span class='var'>( ";
      write_line(html, v, matched, diagrams, true);
      html += ")</span> ";
      number_next = true;
    }
  }
}

std::string elo_text(int elo) {
  return elo ? " (" + std::to_string(elo) + ")" : std::string();
}

}  // namespace

void write_html_report(std::ostream& out, db::GameSource& reader, const std::vector<eval::GameMatch>& matches,
                       const HtmlReportOptions& options) {
  out << "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><title>cqldb: "
      << matches.size() << " matching game" << (matches.size() == 1 ? "" : "s") << "</title><style>" << kStyle
      << "</style></head><body>\n<h1>" << matches.size() << " matching game" << (matches.size() == 1 ? "" : "s")
      << "</h1>\n";
  if (!options.query_text.empty()) out << "<pre class='query'>" << xml_escape(options.query_text) << "</pre>\n";
  db::GameHeader h;
  for (const eval::GameMatch& match : matches) {
    if (!reader.read_header(match.id, h)) throw std::out_of_range("no game " + std::to_string(match.id));
    db::RecordView record;
    if (!reader.record_view(match.id, record)) throw std::out_of_range("no game " + std::to_string(match.id));
    const GameWalk walk = walk_game(record);
    std::set<std::vector<uint32_t>> matched;
    for (uint32_t ply : match.plies) matched.insert({ply});
    for (const eval::VariationPly& path : match.variation_plies) matched.insert(path);
    std::string moves;
    std::vector<Diagram> diagrams;
    if (matched.count({0})) diagrams.push_back({"Start position (ply 0)", walk.start_fen});
    write_line(moves, walk.main, matched, diagrams, false);
    moves += xml_escape(h.result);
    out << "<section id='game-" << match.id << "'><h2>" << match.id << ". " << xml_escape(h.white)
        << xml_escape(elo_text(h.white_elo)) << " &ndash; " << xml_escape(h.black) << xml_escape(elo_text(h.black_elo))
        << " &nbsp;" << xml_escape(h.result) << "</h2>\n<p class='meta'>" << xml_escape(h.event)
        << (h.site.empty() ? "" : ", " + xml_escape(h.site)) << ", " << xml_escape(h.date)
        << (h.round.empty() || h.round == "?" ? "" : ", round " + xml_escape(h.round));
    const std::string eco = h.eco_class.empty() ? h.eco : h.eco_class;
    if (!eco.empty()) out << ", " << xml_escape(eco) << (h.opening.empty() ? "" : " " + xml_escape(h.opening));
    out << "</p>\n<p class='moves'>" << moves << "</p>\n<div class='diagrams'>\n";
    const size_t shown = std::min(diagrams.size(), options.max_diagrams_per_game);
    for (size_t i = 0; i < shown; ++i) {
      const Diagram& d = diagrams[i];
      chess::Position pos;
      if (!pos.set_fen(d.fen, walk.chess960).ok()) continue;  // cannot happen: the FEN is ours
      BoardSvgOptions board;
      board.size = 240;
      board.from = d.from;
      board.to = d.to;
      out << "<figure>" << board_svg(pos, board) << "<figcaption>" << xml_escape(d.caption)
          << "</figcaption></figure>\n";
    }
    out << "</div>\n";
    if (diagrams.size() > shown)
      out << "<p class='meta'>" << diagrams.size() - shown << " further matched positions are marked in the moves.</p>\n";
    out << "</section>\n";
  }
  out << "</body></html>\n";
}

}  // namespace render
