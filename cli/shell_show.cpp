// The shell's `show ID [PLY | PLYPATH]`: one game's header, its main line with the matched
// positions marked, and a board diagram at a ply or at a ply path inside a variation.
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>

#include "chess/position.h"
#include "chess/san.h"
#include "cli/board_diagram.h"
#include "cli/options.h"
#include "cli/shell_commands.h"
#include "db/record_view.h"
#include "db/stored_move.h"
#include "render/board_svg.h"
#include "render/game_walk.h"

namespace cli {

namespace {

std::optional<uint64_t> parse_count(const std::string& word) {
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
  if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
  return v;
}

/// The destination square a move is shown on (the king's square for castling, which is
/// encoded king-takes-rook).
chess::Square shown_to(chess::Move m) {
  if (m.kind() != chess::Move::CASTLING) return m.to_sq();
  chess::File f = m.to_sq() > m.from_sq() ? chess::FILE_G : chess::FILE_C;
  return chess::make_square(f, chess::rank_of(m.from_sq()));
}

/// One word of the printed move list and its width on screen (without colour codes).
struct MoveWord {
  std::string text;
  size_t width;
};

/// The clock and evaluation of a ply as `show` prints them: "{0:02:58 0.17}", "" if none.
std::string typed_note(const db::PlyAnnotation& a) {
  if (!(a.bits & (db::kAnnClock | db::kAnnEval))) return {};
  std::string text = "{";
  if (a.has_clock()) db::append_clock(a.clock, a.bits & db::kAnnTenths, text);
  if (a.has_eval()) {
    if (a.has_clock()) text += ' ';
    db::append_evaluation(a.eval, false, text);
  }
  return text + "}";
}

/// The main line replayed: the printed words and the position at the diagram ply.
struct Replay {
  std::vector<MoveWord> words;                  ///< "1. e4", "e5", "2. [Qh5]"...
  chess::Position at_ply;                       ///< the position after `ply` plies
  chess::Move last_move = chess::Move::none();  ///< the move that led to it (none: start)
  std::string last_move_text;                   ///< "12... Qxh2#"
  std::string at_ply_note;                      ///< clock/evaluation after that move, or ""
};

/// Replays the main line of `record`, marking the moves that lead to the positions in
/// `plies` (ascending; 0 = the start, marked "[start]"), and keeps the position after
/// `diagram_ply` plies. Throws std::runtime_error for a start FEN that does not load.
Replay replay_main_line(const db::RecordView& record, const std::vector<uint32_t>& plies,
                        uint32_t diagram_ply, bool ansi) {
  Replay r;
  chess::Position pos = db::start_position(record);
  auto matched = [&](uint32_t ply) { return std::binary_search(plies.begin(), plies.end(), ply); };
  if (matched(0)) r.words.push_back({"[start]", 7});
  r.at_ply = pos;
  std::vector<db::PlyAnnotation> notes;
  record.ply_annotations(notes);
  for (uint32_t i = 0; i < record.main_line_size(); ++i) {
    const chess::Move m = record.main_move(i);
    const bool white = pos.side_to_move() == chess::WHITE;
    const std::string number = std::to_string(pos.fullmove_number()) + (white ? "." : "...");
    if (!db::is_playable_stored(pos, m))  // the stored-move rule (db/stored_move.h)
      throw db::CorruptRecord("stored move at ply " + std::to_string(i + 1) + " is illegal on its board");
    const std::string san = chess::to_san(pos, m);
    chess::UndoInfo undo;
    db::play_stored(pos, m, undo, i + 1);  // the stored-move rule: a damaged record throws
    MoveWord w{white || i == 0 ? number + " " : "", 0};
    w.width = w.text.size() + san.size();
    if (matched(i + 1)) {
      w.text += ansi ? "\033[1;7m[" + san + "]\033[0m" : "[" + san + "]";
      w.width += 2;
    } else {
      w.text += san;
    }
    const std::string note = typed_note(notes[i]);
    if (!note.empty()) {
      w.text += ' ' + note;
      w.width += 1 + note.size();
    }
    r.words.push_back(std::move(w));
    if (i + 1 == diagram_ply) {
      r.at_ply = pos;
      r.last_move = m;
      r.last_move_text = number + " " + san;
      r.at_ply_note = note;
    }
  }
  return r;
}

/// Writes `words` wrapped at `width` columns.
void write_wrapped(std::ostream& out, const std::vector<MoveWord>& words, size_t width) {
  size_t column = 0;
  for (const MoveWord& w : words) {
    if (column && column + 1 + w.width > width) {
      out << '\n';
      column = 0;
    }
    if (column) {
      out << ' ';
      ++column;
    }
    out << w.text;
    column += w.width;
  }
  if (column) out << '\n';
}

/// The lines above the moves: players, event, source, and what the current result matched.
void write_header(std::ostream& out, const db::GameHeader& h, uint32_t length,
                  const eval::GameMatch* match, bool result_is_all) {
  auto elo = [](int e) { return e ? " (" + std::to_string(e) + ")" : std::string(); };
  out << "Game " << h.id << ": " << (h.white.empty() ? "?" : h.white) << elo(h.white_elo) << " - "
      << (h.black.empty() ? "?" : h.black) << elo(h.black_elo) << "  " << h.result << '\n';
  out << "  " << h.event << (h.site.empty() ? "" : ", " + h.site) << ", " << h.date
      << (h.round.empty() || h.round == "?" ? "" : ", round " + h.round)
      << (h.eco.empty() ? "" : ", ECO " + h.eco) << '\n';
  out << "  " << h.source_file << " game " << h.ordinal << ", " << length << " plies"
      << (h.variant.empty() ? "" : ", " + h.variant) << '\n';
  if (match && !match->plies.empty()) {
    const std::vector<uint32_t>& plies = match->plies;
    out << "  matched at ply" << (plies.size() > 1 ? "s" : "");
    for (size_t i = 0; i < plies.size() && i < 12; ++i) out << (i ? ", " : " ") << plies[i];
    if (plies.size() > 12) out << ", ... (" << plies.size() << " positions)";
    out << "; marked [ ] below\n";
  }
  if (match && !match->variation_plies.empty()) {
    // positions inside variations (the diagram shows the main line): their ply paths,
    // eval/match_location.h, written 31.1.2 = ply 31, 1st variation, after its 2nd move
    const std::vector<eval::VariationPly>& paths = match->variation_plies;
    out << "  matched in variations at";
    for (size_t i = 0; i < paths.size() && i < 8; ++i) {
      out << (i ? ", " : " ");
      for (size_t k = 0; k < paths[i].size(); ++k) out << (k ? "." : "") << paths[i][k];
    }
    if (paths.size() > 8) out << ", ... (" << paths.size() << " positions)";
    out << " (main-line ply.variation.ply)\n";
  }
  if (!match && !result_is_all) {
    out << "  (not in the current result)\n";
  }
  out << '\n';
}

/// "31.1.2" (a ply path as jsonl and `show` print it, eval/match_location.h) as numbers:
/// an odd count of at least 3; nullopt otherwise.
std::optional<std::vector<uint32_t>> parse_ply_path(const std::string& word) {
  std::vector<uint32_t> path;
  size_t start = 0;
  for (;;) {
    const size_t dot = word.find('.', start);
    const std::optional<uint64_t> n = parse_count(word.substr(start, dot == std::string::npos ? dot : dot - start));
    if (!n || *n > UINT32_MAX) return std::nullopt;
    path.push_back(uint32_t(*n));
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  if (path.size() < 3 || path.size() % 2 == 0) return std::nullopt;
  return path;
}

/// The move of `line` (or of its variations, at any depth) whose ply path is `path`.
const render::WalkMove* find_move(const render::WalkLine& line, const std::vector<uint32_t>& path) {
  for (const render::WalkMove& m : line.moves) {
    if (m.path == path) return &m;
    for (const render::WalkLine& v : m.variations)
      if (const render::WalkMove* found = find_move(v, path)) return found;
  }
  return nullptr;
}

/// The position at ply path `path` of `walk`: its FEN and the move that led to it (null at a
/// branch position, `p.v.0`, which is the board of the line it leaves). nullopt when the game
/// has no such position.
std::optional<std::pair<std::string, const render::WalkMove*>> position_at(const render::GameWalk& walk,
                                                                           std::vector<uint32_t> path) {
  while (path.size() >= 3 && path.back() == 0) path.resize(path.size() - 2);  // the board it leaves
  if (path.size() == 1) {
    if (path[0] >= walk.fens.size()) return std::nullopt;
    return std::make_pair(walk.fens[path[0]], nullptr);
  }
  const render::WalkMove* m = find_move(walk.main, path);
  if (!m) return std::nullopt;
  return std::make_pair(m->fen, m);
}

/// `show ID PLYPATH`: the header, the main line and the board at a position inside a
/// variation (issue 40: the ply paths that jsonl and `show` print, e.g. 63.1.12).
CommandStatus show_path(ShellState& state, uint32_t id, const std::vector<uint32_t>& path, const std::string& svg_path,
                        bool flip) {
  const eval::GameMatch* match = state.find_match(id);
  const std::vector<uint32_t> plies = match ? match->plies : std::vector<uint32_t>{};
  const bool ansi = state.interactive() && isatty(STDOUT_FILENO);
  db::GameReader reader = state.database().reader();  // closed when the command ends
  const db::GameHeader h = reader.header(id);
  db::RecordView record;
  if (!reader.record_view(id, record)) throw std::out_of_range("no game " + std::to_string(id));
  const render::GameWalk walk = render::walk_game(record);
  // A branch position p.v.0 exists only when variation v leaves there.
  bool exists = true;
  if (path.back() == 0) {
    std::vector<uint32_t> first = path;
    first.back() = 1;
    exists = find_move(walk.main, first) != nullptr;
  }
  const auto at = exists ? position_at(walk, path) : std::nullopt;
  if (!at) {
    state.err() << "show: game " << id << " has no position " << render::path_text(path)
                << " (main-line ply.variation.ply; `show " << id << "` lists the matched ones)\n";
    return CommandStatus::kFailed;
  }
  std::ostream& out = state.out();
  write_header(out, h, record.main_line_size(), match, state.result().all);
  Replay replay = replay_main_line(record, plies, record.main_line_size(), ansi);
  replay.words.push_back({h.result, h.result.size()});
  write_wrapped(out, replay.words, 78);
  chess::Position pos;
  if (!pos.set_fen(at->first, walk.chess960).ok()) throw db::CorruptRecord("a position of the game does not load");
  const render::WalkMove* move = at->second;
  const bool matched =
      match && std::find(match->variation_plies.begin(), match->variation_plies.end(), path) != match->variation_plies.end();
  out << "\nPosition " << render::path_text(path) << " (inside a variation";
  if (move) out << ", after " << move->move_number << (move->white ? ". " : "... ") << move->san;
  else out << ", its branch position";
  out << "), " << (pos.side_to_move() == chess::WHITE ? "White" : "Black") << " to move"
      << (matched ? ", a matched position" : "") << ":\n";
  DiagramOptions diagram;
  diagram.ansi = ansi;
  if (move && move->from != chess::SQ_NONE)
    diagram.highlight = chess::square_bb(move->from) | chess::square_bb(move->to);
  out << board_diagram(pos, diagram);
  out << "FEN: " << pos.fen() << '\n';
  if (!svg_path.empty()) {
    render::BoardSvgOptions picture;
    picture.flipped = flip;
    if (move && move->from != chess::SQ_NONE) {
      picture.from = move->from;
      picture.to = move->to;
    }
    std::ofstream file(svg_path, std::ios::binary);
    file << render::board_svg(pos, picture) << '\n';
    file.close();
    if (!file) {
      state.err() << "show: cannot write " << svg_path << '\n';
      return CommandStatus::kFailed;
    }
    out << "board written to " << svg_path << '\n';
  }
  return CommandStatus::kOk;
}

}  // namespace

CommandStatus shell_show(ShellState& state, const CommandInput& input) {
  // --svg FILE and --flip may stand anywhere after the command; the rest is ID [PLY].
  std::vector<std::string> words;
  std::string svg_path;
  bool flip = false, bad = false;
  for (size_t i = 0; i < input.words.size(); ++i) {
    if (input.words[i] == "--svg") {
      if (i + 1 == input.words.size()) bad = true;
      else svg_path = input.words[++i];
    } else if (input.words[i] == "--flip") {
      flip = true;
    } else {
      words.push_back(input.words[i]);
    }
  }
  std::optional<uint64_t> id_arg, ply_arg;
  std::optional<std::vector<uint32_t>> path_arg;  // 63.1.12: a position inside a variation
  if (words.size() == 2 && words[1].find('.') != std::string::npos) path_arg = parse_ply_path(words[1]);
  if (bad || words.size() > 2 || (words.size() >= 1 && !(id_arg = parse_count(words[0]))) ||
      (words.size() == 2 && !path_arg && !(ply_arg = parse_count(words[1])))) {
    state.err() << "usage: show ID [PLY | PLYPATH] [--svg FILE [--flip]]   (PLYPATH: 31.1.2 = ply 31, "
                   "1st variation, after its 2nd move)\n";
    return CommandStatus::kFailed;
  }
  state.refresh_game_count();
  if (!id_arg) {  // `show` alone: the first game in scope
    if (state.result_size() == 0) {
      state.err() << "show: no games in scope\n";
      return CommandStatus::kFailed;
    }
    id_arg = state.result().all ? 1 : state.result().games.front().id;
  }
  if (*id_arg == 0 || *id_arg > state.game_count()) {
    state.err() << "show: no game " << *id_arg << " (ids are 1.." << state.game_count() << ")\n";
    return CommandStatus::kFailed;
  }
  const auto id = uint32_t(*id_arg);
  if (path_arg) return show_path(state, id, *path_arg, svg_path, flip);
  const eval::GameMatch* match = state.find_match(id);
  const std::vector<uint32_t> plies = match ? match->plies : std::vector<uint32_t>{};
  const bool ansi = state.interactive() && isatty(STDOUT_FILENO);

  db::GameReader reader = state.database().reader();  // closed when the command ends
  const db::GameHeader h = reader.header(id);
  db::RecordView record;
  if (!reader.record_view(id, record)) throw std::out_of_range("no game " + std::to_string(id));
  const uint32_t length = record.main_line_size();
  uint32_t diagram_ply = plies.empty() ? length : plies.front();
  if (ply_arg) {
    if (*ply_arg > length) {
      state.err() << "show: game " << id << " has " << length << " plies (PLY is 0.." << length
                  << ")\n";
      return CommandStatus::kFailed;
    }
    diagram_ply = uint32_t(*ply_arg);
  }

  std::ostream& out = state.out();
  write_header(out, h, length, match, state.result().all);
  Replay replay = replay_main_line(record, plies, diagram_ply, ansi);
  replay.words.push_back({h.result, h.result.size()});
  write_wrapped(out, replay.words, 78);
  if (record.has_variations() || record.has_annotations())
    out << "(main line only, {clock evaluation} after a move; `export` writes the variations "
           "and comments)\n";

  out << '\n' << (diagram_ply == 0 ? "Start position" : "After " + replay.last_move_text);
  if (diagram_ply) out << " (ply " << diagram_ply << ")";
  if (!replay.at_ply_note.empty()) out << " " << replay.at_ply_note;
  out << ", " << (replay.at_ply.side_to_move() == chess::WHITE ? "White" : "Black") << " to move"
      << (std::binary_search(plies.begin(), plies.end(), diagram_ply) ? ", a matched position" : "")
      << ":\n";
  DiagramOptions diagram;
  diagram.ansi = ansi;
  const chess::Move last = replay.last_move;
  if (last && last != chess::Move::null())
    diagram.highlight = chess::square_bb(last.from_sq()) | chess::square_bb(shown_to(last));
  out << board_diagram(replay.at_ply, diagram);
  out << "FEN: " << replay.at_ply.fen() << '\n';
  if (!svg_path.empty()) {  // the same board as a picture (render/board_svg.h)
    render::BoardSvgOptions picture;
    picture.flipped = flip;
    if (last && last != chess::Move::null()) {
      picture.from = last.from_sq();
      picture.to = shown_to(last);
    }
    std::ofstream file(svg_path, std::ios::binary);
    file << render::board_svg(replay.at_ply, picture) << '\n';
    file.close();
    if (!file) {
      state.err() << "show: cannot write " << svg_path << '\n';
      return CommandStatus::kFailed;
    }
    out << "board written to " << svg_path << '\n';
  }
  return CommandStatus::kOk;
}

}  // namespace cli
