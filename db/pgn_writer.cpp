#include "db/pgn_writer.h"

#include <algorithm>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"
#include "db/errors.h"

namespace db {

namespace {

void append_tag(std::string& out, std::string_view name, std::string_view value) {
  out += '[';
  out += name;
  out += " \"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c;
  }
  out += "\"]\n";
}

/// Collects movetext tokens and wraps them into lines.
class MovetextWriter {
 public:
  MovetextWriter(std::string& out, size_t width) : out_(out), width_(width) {}

  /// Writes `t` after a blank (none after "("), breaking the line first if `t` would not
  /// fit.
  void token(std::string_view t) {
    if (column_ > 0 && column_ + 1 + t.size() > width_) {
      out_ += '\n';
      column_ = 0;
    } else if (column_ > 0 && !after_open_) {
      out_ += ' ';
      ++column_;
    }
    out_ += t;
    column_ += t.size();
    after_open_ = t == "(";
  }

  /// A comment `{...}`, wrapped at blanks like the rest of the movetext (PGN export format
  /// keeps lines short); inner line breaks become blanks. `padded`: a blank inside each
  /// brace and no line break inside, as lichess writes its clock and evaluation comments
  /// (`{ [%clk 0:00:30] }`).
  void comment(std::string_view text, bool padded = false) {
    if (padded) {  // one unbroken token, as lichess writes it
      std::string whole = "{";
      std::string word;
      for (char ch : text) {
        if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
          if (!word.empty()) whole += ' ' + word;
          word.clear();
        } else {
          word += ch;
        }
      }
      if (!word.empty()) whole += ' ' + word;
      token(whole + " }");
      return;
    }
    std::string word = "{";
    bool opening = true;  // `word` is still the opening brace with no text after it
    auto flush = [&](bool last) {
      if (last) word += '}';
      if (!word.empty()) token(word);
      word.clear();
      opening = false;
    };
    for (char ch : text) {
      if (ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t') {
        if (!word.empty() && !opening) flush(false);
      } else {
        word += ch;
        opening = false;
      }
    }
    flush(true);
  }

  void close_paren() {
    out_ += ')';
    ++column_;
    after_open_ = false;
  }

  void finish() {
    if (column_ > 0) out_ += '\n';
  }

 private:
  std::string& out_;
  size_t width_;
  size_t column_ = 0;
  bool after_open_ = false;
};

/// A line being replayed: its board and how to take back its last move.
struct LineState {
  chess::Position pos;
  chess::Move last_move;
  chess::UndoInfo last_undo;
  bool need_number = true;  // the next move needs its number (start, after comment/variation)
  uint32_t ply = 0;             // moves of this line played (variations: since the branch)
  uint32_t variations_here = 0; // variations begun since this line's last move
  std::vector<uint32_t> path;   // variations: the ply path without the last ply
};

/// True if the position `ply` of the line `l` is one of `paths` (ply paths).
bool marked(const LineState& l, uint32_t ply, std::span<const std::vector<uint32_t>> paths) {
  for (const std::vector<uint32_t>& p : paths)
    if (p.size() == l.path.size() + 1 && p.back() == ply && std::equal(l.path.begin(), l.path.end(), p.begin()))
      return true;
  return false;
}

/// Writes the comments of options.variation_comments at line `l`'s position `ply`; true if
/// some was written.
bool variation_comments(MovetextWriter& w, const LineState& l, uint32_t ply, const PgnWriteOptions& options) {
  bool any = false;
  for (const auto& [p, text] : options.variation_comments)
    if (p.size() == l.path.size() + 1 && p.back() == ply && std::equal(l.path.begin(), l.path.end(), p.begin())) {
      w.comment(text);
      any = true;
    }
  return any;
}

bool legal(const chess::Position& pos, chess::Move m) {
  if (m == chess::Move::null()) return !pos.in_check();
  chess::MoveList list;
  chess::generate_legal(pos, list);
  return std::find(list.begin(), list.end(), m) != list.end();
}

}  // namespace

void write_pgn(const GameHeader& header, const RecordView& record, std::string& out,
               const PgnWriteOptions& options) {
  append_tag(out, "Event", header.event.empty() ? "?" : header.event);
  append_tag(out, "Site", header.site.empty() ? "?" : header.site);
  append_tag(out, "Date", header.date.empty() ? "????.??.??" : header.date);
  append_tag(out, "Round", header.round.empty() ? "?" : header.round);
  append_tag(out, "White", header.white.empty() ? "?" : header.white);
  append_tag(out, "Black", header.black.empty() ? "?" : header.black);
  append_tag(out, "Result", header.result.empty() ? "*" : header.result);
  if (header.white_elo) append_tag(out, "WhiteElo", std::to_string(header.white_elo));
  if (header.black_elo) append_tag(out, "BlackElo", std::to_string(header.black_elo));
  if (!header.eco.empty()) append_tag(out, "ECO", header.eco);
  if (!header.variant.empty()) append_tag(out, "Variant", header.variant);
  bool has_setup = false;
  for (const auto& [name, value] : header.other_tags) {
    bool replaced = false;
    for (const auto& extra : options.extra_tags) replaced |= extra.first == name;
    if (!replaced) append_tag(out, name, value);
    has_setup |= name == "SetUp";
  }
  for (const auto& [name, value] : options.extra_tags) append_tag(out, name, value);
  if (!header.start_fen.empty()) {
    if (!has_setup) append_tag(out, "SetUp", "1");
    append_tag(out, "FEN", header.start_fen);
  }
  out += '\n';

  std::vector<LineState> lines(1);
  if (record.start_fen().empty()) {
    lines[0].pos.set_start();
  } else {
    chess::FenError err = lines[0].pos.set_fen(record.start_fen(), record.chess960());
    if (!err.ok()) throw CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  MovetextWriter w(out, options.line_width);
  auto match = options.match_plies.begin();
  auto match_end = options.match_plies.end();
  uint32_t main_ply = 0;
  auto extra = options.ply_comments.begin();
  // the extra comments of main-line ply `ply`; true if some was written
  auto extra_comments = [&](uint32_t ply) {
    bool any = false;
    while (extra != options.ply_comments.end() && extra->first < ply) ++extra;
    for (; extra != options.ply_comments.end() && extra->first == ply; ++extra) {
      w.comment(extra->second);
      any = true;
    }
    return any;
  };
  extra_comments(0);
  const std::string_view mark_text = options.match_text;
  const bool join = options.join_marks;
  bool mark_pending = false;  // join_marks: a mark waits for the comment after its move
  auto mark = [&]() {
    if (join) mark_pending = !mark_text.empty();
    else if (!mark_text.empty()) w.comment(mark_text);
  };
  auto flush_mark = [&]() {
    if (mark_pending) w.comment(mark_text);
    mark_pending = false;
  };
  const bool start_marked = match != match_end && *match == 0;
  if (start_marked) ++match;
  auto tokens = record.tokens();
  auto token = tokens.begin();
  if (join) {  // the start: the game's first comment, the start text, the mark
    std::string first;
    if (token != tokens.end() && (token->kind == TokenKind::kComment || token->kind == TokenKind::kCommentBefore)) {
      first = token->comment;
      ++token;
    }
    auto append = [&](std::string_view part) {
      if (part.empty()) return;
      if (!first.empty()) first += ' ';
      first += part;
    };
    append(options.start_text);
    if (start_marked) append(mark_text);
    if (!first.empty()) w.comment(first);
  } else if (start_marked) {
    mark();
  }
  std::string text;
  for (; token != tokens.end(); ++token) {
    const Token& t = *token;
    if (mark_pending && t.kind != TokenKind::kNag && t.kind != TokenKind::kComment) flush_mark();
    switch (t.kind) {
      case TokenKind::kMove: {
        LineState& l = lines.back();
        if (!legal(l.pos, t.move)) throw CorruptRecord("stored move is illegal on its board");
        text.clear();
        if (l.pos.side_to_move() == chess::WHITE) {
          text = std::to_string(l.pos.fullmove_number()) + ". ";
        } else if (l.need_number) {
          text = std::to_string(l.pos.fullmove_number()) + "... ";
        }
        chess::append_san(l.pos, t.move, text);  // number and move stay on one line
        w.token(text);
        if (t.move == chess::Move::null()) l.pos.do_null_move(l.last_undo);
        else l.pos.do_move(t.move, l.last_undo);
        l.last_move = t.move;
        l.need_number = false;
        ++l.ply;
        l.variations_here = 0;
        if (lines.size() == 1) {
          ++main_ply;
          if (extra_comments(main_ply)) l.need_number = true;
          if (match != match_end && *match == main_ply) {
            mark();
            ++match;
            l.need_number = l.need_number || !mark_text.empty();
          }
        } else {
          if (!options.variation_comments.empty() && variation_comments(w, l, l.ply, options)) l.need_number = true;
          if (!options.match_variation_plies.empty() && marked(l, l.ply, options.match_variation_plies)) {
            mark();
            l.need_number = l.need_number || !mark_text.empty();
          }
        }
        break;
      }
      case TokenKind::kBeginVariation: {
        LineState child;
        child.pos = lines.back().pos;
        LineState& parent = lines.back();
        if (parent.last_move == chess::Move::null()) child.pos.undo_null_move(parent.last_undo);
        else child.pos.undo_move(parent.last_move, parent.last_undo);
        // the ply path of the variation (eval/match_location.h): the branch ply in the parent
        // (before its last move) and the variation's number among those of that move
        child.path = parent.path;
        child.path.push_back(parent.ply - 1);
        child.path.push_back(++parent.variations_here);
        lines.push_back(std::move(child));
        w.token("(");
        if (!options.variation_comments.empty()) variation_comments(w, lines.back(), 0, options);
        // (join_marks, CQL 6.2: the branch position is the parent line's, marked there)
        if (!options.match_variation_plies.empty() && marked(lines.back(), 0, options.match_variation_plies) &&
            !mark_text.empty() && !join)
          w.comment(mark_text);
        break;
      }
      case TokenKind::kEndVariation:
        lines.pop_back();
        lines.back().need_number = true;
        w.close_paren();
        break;
      case TokenKind::kComment:
      case TokenKind::kCommentBefore:
        if (mark_pending && t.kind == TokenKind::kComment) {  // "COMMENT MARK" (CQL 6.2)
          w.comment(std::string(t.comment) + " " + std::string(mark_text));
          mark_pending = false;
        } else {
          w.comment(t.comment, t.annotation.bits != 0);
        }
        lines.back().need_number = true;
        break;
      case TokenKind::kNag:
        w.token("$" + std::to_string(t.nag));
        break;
    }
  }
  flush_mark();
  w.token(header.result.empty() ? "*" : header.result);
  w.finish();
  out += '\n';
}

}  // namespace db
