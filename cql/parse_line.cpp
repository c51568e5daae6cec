// :line / :line* arguments and :fen.
#include <optional>
#include <string>

#include "cql/parser_impl.h"

namespace cql::detail {

namespace {

// The colour a from-designator fixes (0 white, 1 black), or -1 if it allows both/none.
int designator_color(const PieceDesignator& pd) {
  if (!pd.tag.empty() || !pd.piece_part_written) return -1;
  bool white = pd.pieces & piece_mask::kWhite;
  bool black = pd.pieces & piece_mask::kBlack;
  if (white == black) return -1;
  return white ? 0 : 1;
}

int single_square(const SquareDesignator& sd) {
  if (sd.reserve || sd.squares == 0 || (sd.squares & (sd.squares - 1))) return -1;
  int s = 0;
  while (!(sd.squares >> s & 1)) ++s;
  return s;
}

// Exactly one piece type (either colour), ignoring the empty square.
bool single_type(PieceMask m) {
  PieceMask types = PieceMask((m | (m >> 6)) & 0x3F);
  return types != 0 && (types & (types - 1)) == 0 && !(m & piece_mask::kEmpty);
}

}  // namespace

LineArgs Parser::parse_line(const Token& kw, bool star) {
  LineArgs args;
  args.transposition = star;
  struct Word {
    std::string text;
    SourceLoc loc;
    const Token* token;
    size_t offset;  // byte offset of the word in the token text
  };
  std::vector<Word> words;
  if (at(TokenKind::String)) {
    const Token& t = next();
    args.quoted = true;
    size_t i = 0;
    while (i < t.text.size()) {
      while (i < t.text.size() && (t.text[i] == ' ' || t.text[i] == '\t' || t.text[i] == '\n')) ++i;
      size_t start = i;
      while (i < t.text.size() && t.text[i] != ' ' && t.text[i] != '\t' && t.text[i] != '\n') ++i;
      if (i > start)
        words.push_back({t.text.substr(start, i - start), offset_loc(t, start), &t, start});
    }
    if (words.empty()) fail(t, "empty move line", "moves like \"e2-e4 e7-e5\"");
  } else if (at(TokenKind::LParen)) {
    const Token& open = next();
    while (!at(TokenKind::RParen)) {
      const Token& t = peek();
      if (t.kind == TokenKind::End)
        fail(t,
             "unbalanced parenthesis: the move line opened at " + std::to_string(open.loc.line) +
                 ":" + std::to_string(open.loc.column) + " is not closed",
             "')'");
      if (t.kind != TokenKind::Word && t.kind != TokenKind::Number)
        fail(t, "unexpected " + describe(t) + " in a move line", "a move like Nb1-c3 or ')'");
      words.push_back({t.text, t.loc, &t, 0});
      next();
    }
    const Token& close = next();
    if (words.empty()) fail(close, "empty move line", "at least one move");
  } else {
    fail(peek(),
         "'" + kw.spelled() + "' expects a move line in parentheses, found " + describe(peek()),
         "'(' followed by moves like Pe2-e4");
  }

  const LineArgs start = args;
  try {
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& w = words[i];
    if (w.text == "|") {
      if (star)
        fail_at(w.loc, "|", "':line*' does not allow a potential continuation '|'", "moves only");
      if (args.potential_from)
        fail_at(w.loc, "|", "only one '|' is allowed in a move line", "moves");
      if (args.moves.empty())
        fail_at(w.loc, "|", "'|' needs at least one move before it", "a move");
      args.potential_from = args.moves.size();
      continue;
    }
    if (w.text == "ep" || w.text == "e.p.") {
      if (args.moves.empty() || args.moves.back().kind != LineMove::Kind::Normal ||
          args.moves.back().target == LineMove::Target::Empty || args.moves.back().en_passant)
        fail_at(w.loc, w.text, "'" + w.text + "' must follow a pawn capture", "a move like Pd5xe6");
      args.moves.back().en_passant = true;
      continue;
    }
    if (w.text == "*" && i + 1 == words.size() && !args.moves.empty()) {
      args.transposition = true;  // older string form: "... *"
      continue;
    }
    try {
      LineMove m = parse_line_move(w.text);
      m.loc = w.loc;
      m.from.loc = m.to.loc = w.loc;
      if (m.promotion) m.promotion->loc = w.loc;
      args.moves.push_back(std::move(m));
    } catch (const LineMoveError& e) {
      fail_at(offset_loc(*w.token, w.offset + e.offset), w.text,
              "invalid move '" + w.text + "': " + e.message,
              e.expected.empty() ? "a move like Nb1-c3, Pe4xd5, O-O or --" : e.expected);
    } catch (const DesignatorError& e) {
      fail_at(offset_loc(*w.token, w.offset + e.offset), w.text,
              "invalid move '" + w.text + "': " + e.message,
              e.expected.empty() ? "a move like Nb1-c3, Pe4xd5, O-O or --" : e.expected);
    }
  }
  if (args.moves.empty()) fail(kw, "empty move line", "at least one move");
  if (args.potential_from && *args.potential_from >= args.moves.size())
    fail_at(args.moves.back().loc, args.moves.back().text, "'|' needs at least one move after it",
            "a move");

  // Move numbers: if used, the line starts with one and they follow the plies.
  bool any_number = false;
  for (const LineMove& m : args.moves) any_number = any_number || m.move_number.has_value();
  args.numbered = any_number;
  if (any_number) {
    const LineMove& first = args.moves.front();
    if (!first.move_number)
      fail_at(first.loc, first.text, "a line with move numbers must start with one",
              "a move like 1.Pe2-e4");
    int ply = (*first.move_number - 1) * 2 + (first.black_move_number ? 1 : 0);
    for (size_t i = 1; i < args.moves.size(); ++i) {
      ++ply;
      const LineMove& m = args.moves[i];
      if (!m.move_number) continue;
      int expected = (*m.move_number - 1) * 2 + (m.black_move_number ? 1 : 0);
      if (expected != ply) {
        int number = ply / 2 + 1;
        std::string want = std::to_string(number) + (ply % 2 ? "..." : ".");
        fail_at(m.loc, m.text, "move number does not follow the previous moves",
                "'" + want + "' here");
      }
    }
  } else if (!args.transposition) {
    // Without move numbers, pieces of a definite colour must alternate.
    int last_color = -1;
    size_t last_index = 0;
    for (size_t i = 0; i < args.moves.size(); ++i) {
      const LineMove& m = args.moves[i];
      if (m.kind != LineMove::Kind::Normal || !m.from_written) continue;
      int c = designator_color(m.from);
      if (c < 0) continue;
      if (last_color >= 0 && ((i - last_index) % 2 == 0) != (c == last_color))
        fail_at(m.loc, m.text,
                "the colours of the moving pieces must alternate in a line without move numbers",
                std::string("a ") +
                    (((i - last_index) % 2 == 0) == (last_color == 0) ? "white" : "black") +
                    " piece here, or move numbers");
      last_color = c;
      last_index = i;
    }
  }
  if (star) {  // the uniqueness rules of :line* (the older string form "... *" has none)
    for (size_t i = 0; i < args.moves.size(); ++i) {
      const LineMove& m = args.moves[i];
      auto bad = [&](const std::string& why) {
        fail_at(m.loc, m.text,
                "move '" + m.text + "' is not uniquely determined in ':line*': " + why,
                "a move like Pe2-e4 or Pe4xPd5");
      };
      if (m.checks & (kMarkCheck | kMarkDoubleCheck | kMarkContactCheck | kMarkMate)) {
        if (i + 1 != args.moves.size())
          fail_at(m.loc, m.text, "':line*' allows check marks only on the last move",
                  "no '+' here");
      }
      if (m.kind == LineMove::Kind::AnyMove || m.kind == LineMove::Kind::NullMove)
        bad("any/null move");
      if (m.kind != LineMove::Kind::Normal) continue;
      if (!m.from.piece_part_written || !single_type(m.from.pieces))
        bad("the moving piece is not given");
      if (single_square(m.from.squares) < 0) bad("the origin square is not unique");
      if (single_square(m.to.squares) < 0) bad("the destination square is not unique");
      if (m.target == LineMove::Target::Either) bad("':' leaves open whether it captures");
      if (m.target == LineMove::Target::Capture &&
          (!m.to.piece_part_written || !single_type(m.to.pieces)))
        bad("the captured piece is not given");
      if (m.promotion && !single_type(m.promotion->pieces))
        bad("the promotion piece is not unique");
    }
  }
  } catch (const ParseError&) {
    // Not the seed's notation: the line may be standard algebraic notation as players write
    // it (`1.d4 d5 2.c4 dxc4`, `e4 e5 Nf3 Nc6`); if it is not that either, the seed
    // notation's error stands.
    LineArgs san = start;
    std::optional<int> number;  // a move number written as a word of its own ("1." "1...")
    bool black_number = false;
    for (const Word& w : words) {
      if (w.text == "|") {
        if (star || san.potential_from || san.moves.empty()) throw;
        san.potential_from = san.moves.size();
        continue;
      }
      if (w.text == "*" && &w == &words.back() && !san.moves.empty()) {
        san.transposition = true;
        continue;
      }
      if (w.text == "ep" || w.text == "e.p.") continue;  // a SAN pawn capture includes e.p.
      const size_t digits = w.text.find_first_not_of("0123456789");
      if (digits != 0 && digits != std::string::npos &&
          (w.text.substr(digits) == "." || w.text.substr(digits) == "...")) {
        if (number) throw;
        number = std::stoi(w.text.substr(0, std::min<size_t>(digits, 5)));
        black_number = w.text.substr(digits) == "...";
        if (*number == 0) throw;
        continue;
      }
      std::optional<LineMove> m = parse_san_move(w.text);
      if (!m) throw;
      if (number) {
        if (m->move_number) throw;
        m->move_number = number;
        m->black_move_number = black_number;
        m->text = std::to_string(*number) + (black_number ? "..." : ".") + m->text;
        number.reset();
      }
      m->loc = m->from.loc = m->to.loc = w.loc;
      if (m->promotion) m->promotion->loc = w.loc;
      san.moves.push_back(std::move(*m));
    }
    if (number || san.moves.empty()) throw;
    if (san.potential_from && *san.potential_from >= san.moves.size()) throw;
    for (const LineMove& m : san.moves) san.numbered = san.numbered || m.move_number.has_value();
    if (san.numbered) {  // the same numbering rules as the seed's lines
      const LineMove& first = san.moves.front();
      if (!first.move_number)
        fail_at(first.loc, first.text, "a line with move numbers must start with one",
                "a move like 1.e4");
      int ply = (*first.move_number - 1) * 2 + (first.black_move_number ? 1 : 0);
      for (size_t i = 1; i < san.moves.size(); ++i) {
        ++ply;
        const LineMove& m = san.moves[i];
        if (!m.move_number) continue;
        if ((*m.move_number - 1) * 2 + (m.black_move_number ? 1 : 0) != ply)
          fail_at(m.loc, m.text, "move number does not follow the previous moves",
                  "'" + std::to_string(ply / 2 + 1) + (ply % 2 ? "..." : ".") + "' here");
      }
    }
    if (star) {
      for (size_t i = 0; i + 1 < san.moves.size(); ++i)
        if (san.moves[i].checks & (kMarkCheck | kMarkDoubleCheck | kMarkContactCheck | kMarkMate))
          fail_at(san.moves[i].loc, san.moves[i].text,
                  "':line*' allows check marks only on the last move", "no '+' here");
    }
    san.san = true;
    return san;
  }
  return args;
}

FenArgs Parser::parse_fen() {
  const Token& t = peek();
  if (t.kind != TokenKind::String)
    fail(t, "expected a FEN in double quotes, found " + describe(t), "\"<FEN>\"");
  const std::string& f = t.text;
  // Fields: placement side castling [en-passant [halfmove fullmove [+w+b]]].
  std::vector<std::pair<std::string, size_t>> fields;
  for (size_t i = 0; i < f.size();) {
    while (i < f.size() && f[i] == ' ') ++i;
    size_t start = i;
    while (i < f.size() && f[i] != ' ') ++i;
    if (i > start) fields.emplace_back(f.substr(start, i - start), start);
  }
  auto bad = [&](size_t offset, const std::string& why) {
    fail_at(offset_loc(t, offset), t.spelled(), "invalid FEN: " + why,
            "a FEN like \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"");
  };
  // The en-passant and clock fields may be left out, as lichess and python-chess allow (issue 40).
  if (fields.size() < 3 || fields.size() > 7) bad(0, "expected 3 to 7 space-separated fields");
  const auto& [placement, p0] = fields[0];
  int rank = 0, file = 0;
  for (size_t i = 0; i < placement.size(); ++i) {
    char c = placement[i];
    if (c == '/') {
      if (file != 8) bad(p0 + i, "rank " + std::to_string(8 - rank) + " does not have 8 squares");
      ++rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
    } else if (std::string_view("KQRBNPkqrbnp").find(c) != std::string_view::npos) {
      ++file;
    } else {
      bad(p0 + i, std::string("'") + c + "' is not a piece letter or digit");
    }
    if (file > 8) bad(p0 + i, "rank " + std::to_string(8 - rank) + " has more than 8 squares");
  }
  if (rank != 7 || file != 8) bad(p0, "the placement must describe 8 ranks of 8 squares");
  if (fields[1].first != "w" && fields[1].first != "b")
    bad(fields[1].second, "the side to move is 'w' or 'b'");
  const auto& [castling, c0] = fields[2];
  if (castling != "-") {
    for (size_t i = 0; i < castling.size(); ++i)
      if (std::string_view("KQkqABCDEFGHabcdefgh").find(castling[i]) == std::string_view::npos)
        bad(c0 + i, "invalid castling field");
  }
  if (fields.size() >= 4) {
    const auto& [ep, e0] = fields[3];
    if (ep != "-" &&
        !(ep.size() == 2 && ep[0] >= 'a' && ep[0] <= 'h' && (ep[1] == '3' || ep[1] == '6')))
      bad(e0, "invalid en-passant square");
  }
  for (size_t k = 4; k < fields.size() && k < 6; ++k)
    for (char c : fields[k].first)
      if (c < '0' || c > '9') bad(fields[k].second, "move counters must be numbers");
  next();
  return FenArgs{f};
}

}  // namespace cql::detail
