#include "cql/line.h"

#include "chess/types.h"

namespace cql {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_separator(char c) {
  return c == '-' || c == 'x' || c == ':';
}
bool is_suffix(char c) {
  return c == '+' || c == '#' || c == '-' || c == '*' || c == '!';
}
bool is_designator_stop(char c) {
  return is_separator(c) || is_suffix(c) || c == '=' || c == '@';
}
bool is_target_stop(char c) {
  return is_suffix(c) || c == '=';
}

[[noreturn]] void fail(size_t offset, std::string message, std::string expected = {}) {
  throw LineMoveError{offset, std::move(message), std::move(expected)};
}

struct CastlingSpelling {
  std::string_view text;
  uint8_t rights;
};
constexpr CastlingSpelling kCastling[] = {
    {"O-O-O-O", chess::ANY_CASTLING},
    {"O-O-O", chess::WHITE_OOO | chess::BLACK_OOO},
    {"O-O", chess::WHITE_OO | chess::BLACK_OO},
    {"K-KQ", chess::WHITE_OO | chess::WHITE_OOO},
    {"K-K", chess::WHITE_OO},
    {"K-Q", chess::WHITE_OOO},
    {"k-kq", chess::BLACK_OO | chess::BLACK_OOO},
    {"k-k", chess::BLACK_OO},
    {"k-q", chess::BLACK_OOO},
};

// Reads check marks and '!' from `pos` to the end of the word.
void read_suffixes(std::string_view w, size_t pos, LineMove& m) {
  while (pos < w.size()) {
    char c = w[pos];
    size_t run = 1;
    while (pos + run < w.size() && w[pos + run] == c && run < 3) ++run;
    if (c == '+') {
      m.checks |= run == 1 ? kMarkCheck : run == 2 ? kMarkDoubleCheck : kMarkContactCheck;
    } else if (c == '-') {
      m.checks |= run == 1 ? kMarkNoCheck : run == 2 ? kMarkNoDoubleCheck : kMarkNoContactCheck;
    } else if (c == '#' && run == 1) {
      m.checks |= kMarkMate;
    } else if (c == '*' && run == 1) {
      m.checks |= kMarkNoMate;
    } else if (c == '!' && run == 1) {
      m.forced = true;
    } else {
      fail(pos, "unexpected '" + std::string(w.substr(pos, run)) + "' in move",
           "a check mark (+ ++ +++ # - -- --- *) or '!'");
    }
    pos += run;
  }
}

std::string marks_to_string(const LineMove& m) {
  std::string s;
  if (m.checks & kMarkCheck) s += "+";
  if (m.checks & kMarkDoubleCheck) s += "++";
  if (m.checks & kMarkContactCheck) s += "+++";
  if (m.checks & kMarkMate) s += "#";
  if (m.checks & kMarkNoCheck) s += "-";
  if (m.checks & kMarkNoDoubleCheck) s += "--";
  if (m.checks & kMarkNoContactCheck) s += "---";
  if (m.checks & kMarkNoMate) s += "*";
  if (m.forced) s += "!";
  return s;
}

PieceMask default_target_pieces(LineMove::Target t) {
  switch (t) {
    case LineMove::Target::Empty:
      return piece_mask::kEmpty;
    case LineMove::Target::Capture:
      return piece_mask::kAnyPiece;
    case LineMove::Target::Either:
      return piece_mask::kAll;
  }
  return piece_mask::kAll;
}

}  // namespace

LineMove parse_line_move(std::string_view w) {
  LineMove m;
  m.text = std::string(w);
  size_t pos = 0;
  // Move number: "12." or "12...".
  if (pos < w.size() && is_digit(w[pos])) {
    size_t q = pos;
    int n = 0;
    while (q < w.size() && is_digit(w[q])) {
      n = n * 10 + (w[q++] - '0');
      if (n > 9999) fail(pos, "move number too large");
    }
    if (q >= w.size() || w[q] != '.')
      fail(q, "a move number must be followed by '.' or '...'", "'.'");
    if (n == 0) fail(pos, "move numbers start at 1");
    m.move_number = n;
    if (w.substr(q, 3) == "...") {
      m.black_move_number = true;
      pos = q + 3;
    } else {
      pos = q + 1;
    }
    if (pos >= w.size()) fail(pos, "missing move after the move number", "a move");
  }
  std::string_view body = w.substr(pos);
  for (const CastlingSpelling& c : kCastling) {
    if (body.substr(0, c.text.size()) == c.text &&
        (body.size() == c.text.size() || is_suffix(body[c.text.size()]))) {
      m.kind = LineMove::Kind::Castling;
      m.castling = c.rights;
      read_suffixes(w, pos + c.text.size(), m);
      return m;
    }
  }
  if (body == "--") {
    m.kind = LineMove::Kind::AnyMove;
    return m;
  }
  if (body == "null") {
    m.kind = LineMove::Kind::NullMove;
    return m;
  }
  // Drop: [piece] '@' [square]
  if (size_t at = body.find('@'); at != std::string_view::npos) {
    m.kind = LineMove::Kind::Drop;
    size_t p = pos;
    if (w[p] != '@') {
      m.from = read_piece_designator(w, p, false, [](char c) { return c == '@'; });
      m.from_written = true;
      if (p >= w.size() || w[p] != '@') fail(p, "unexpected character in drop move", "'@'");
    } else {
      m.from.pieces = piece_mask::kAnyPiece;
      m.from.piece_part_written = false;
    }
    m.from.squares.squares = 0;  // dropped from the reserve
    m.from.squares.reserve = true;
    ++p;  // '@'
    m.to.squares = read_square_designator(w, p);
    m.to.pieces = piece_mask::kEmpty;
    m.to.piece_part_written = false;
    read_suffixes(w, p, m);
    return m;
  }
  // Normal move.
  size_t p = pos;
  PieceDesignator first;
  bool first_written = false;
  if (!is_separator(w[p])) {
    first = read_piece_designator(w, p, true, is_designator_stop);
    first_written = true;
  }
  bool separator = p < w.size() && is_separator(w[p]);
  if (separator) {
    m.from = first;
    m.from_written = first_written;
    char sep = w[p++];
    m.target = sep == '-'   ? LineMove::Target::Empty
               : sep == 'x' ? LineMove::Target::Capture
                            : LineMove::Target::Either;
    if (p < w.size() && !is_target_stop(w[p])) {
      size_t target_start = p;
      m.to = read_piece_designator(w, p, true, is_target_stop);
      if (m.to.piece_part_written) {
        if (!m.to.tag.empty()) {
          // a tagged piece as destination content
        } else if (m.target == LineMove::Target::Empty && m.to.pieces != piece_mask::kEmpty) {
          fail(target_start, "a move with '-' goes to an empty square; write 'x' or ':' to capture",
               "a square after '-'");
        } else if (m.target == LineMove::Target::Capture && (m.to.pieces & piece_mask::kEmpty)) {
          fail(target_start, "a capture 'x' cannot go to an empty square '.'", "a piece after 'x'");
        }
      }
    }
  } else {
    // No separator: "Ne5" is short for "N??-e5", "N" for any knight move to an empty square.
    m.from = first;
    m.from_written = first_written;
    if (first.squares.written) {
      m.to.squares = first.squares;
      m.from.squares = SquareDesignator{};
    }
    m.target = LineMove::Target::Empty;
  }
  if (!m.from.piece_part_written || !m.from_written) {
    m.from.pieces = piece_mask::kAnyPiece;
  }
  if (!m.to.piece_part_written || m.to.text.empty()) {
    m.to.piece_part_written = false;
    m.to.pieces = default_target_pieces(m.target);
  }
  if (p < w.size() && w[p] == '=') {
    size_t q = p + 1;
    if (q >= w.size() || is_target_stop(w[q]))
      fail(q, "missing promotion piece after '='", "a piece designator like Q or [RBN]");
    m.promotion = read_piece_designator(w, q, false, is_target_stop);
    p = q;
  }
  read_suffixes(w, p, m);
  return m;
}

std::optional<LineMove> parse_san_move(std::string_view w) {
  LineMove m;
  m.text = std::string(w);
  size_t p = 0;
  if (p < w.size() && is_digit(w[p])) {  // move number: "12." or "12..."
    int n = 0;
    while (p < w.size() && is_digit(w[p])) {
      n = n * 10 + (w[p++] - '0');
      if (n > 9999) return std::nullopt;
    }
    if (n == 0 || p >= w.size() || w[p] != '.') return std::nullopt;
    m.move_number = n;
    m.black_move_number = w.substr(p, 3) == "...";
    p += m.black_move_number ? 3 : 1;
  }
  const std::string_view body = w.substr(p);
  auto file = [&](size_t i) { return i < w.size() && w[i] >= 'a' && w[i] <= 'h'; };
  auto rank = [&](size_t i) { return i < w.size() && w[i] >= '1' && w[i] <= '8'; };
  auto square_at = [&](size_t i) { return chess::Bitboard(1) << ((w[i + 1] - '1') * 8 + (w[i] - 'a')); };
  auto suffixes = [&](size_t i) -> bool {
    for (size_t k = i; k < w.size(); ++k)
      if (!is_suffix(w[k])) return false;
    try {
      read_suffixes(w, i, m);
    } catch (const LineMoveError&) {
      return false;
    }
    return true;
  };
  for (std::string_view castle : {"O-O-O", "O-O", "0-0-0", "0-0"}) {
    if (body.substr(0, castle.size()) != castle) continue;
    if (body.size() > castle.size() && body[castle.size()] == '-') continue;  // O-O-O-O
    m.kind = LineMove::Kind::Castling;
    m.castling = castle.size() == 5 ? chess::WHITE_OOO | chess::BLACK_OOO : chess::WHITE_OO | chess::BLACK_OO;
    if (!suffixes(p + castle.size())) return std::nullopt;
    return m;
  }
  m.kind = LineMove::Kind::Normal;
  m.from_written = true;
  m.from.piece_part_written = true;
  m.from.squares = SquareDesignator{};
  m.to.squares.written = true;
  m.to.piece_part_written = false;
  size_t i = p;
  const std::string_view letters = "KQRBN";
  const bool pawn = !(i < w.size() && letters.find(w[i]) != std::string_view::npos);
  if (!pawn) {
    const char letter = w[i++];
    m.from.pieces = PieceMask(1u << letters.find(letter));  // the white kind; relative later
    // disambiguation: file, rank or square, then optional 'x', then the destination
    chess::Bitboard origin = kAllSquares;
    if (file(i) && rank(i + 1) && (file(i + 2) || (i + 2 < w.size() && w[i + 2] == 'x'))) {
      origin = square_at(i);
      i += 2;
    } else if (file(i) && (file(i + 1) || (i + 1 < w.size() && w[i + 1] == 'x'))) {
      origin = chess::Bitboard(0x0101010101010101ull) << (w[i] - 'a');
      ++i;
    } else if (rank(i) && (file(i + 1) || (i + 1 < w.size() && w[i + 1] == 'x'))) {
      origin = chess::Bitboard(0xFFull) << (8 * (w[i] - '1'));
      ++i;
    }
    if (origin != kAllSquares) {
      m.from.squares.squares = origin;
      m.from.squares.written = true;
    }
    const bool capture = i < w.size() && w[i] == 'x';
    if (capture) ++i;
    if (!file(i) || !rank(i + 1)) return std::nullopt;
    m.to.squares.squares = square_at(i);
    i += 2;
    m.target = capture ? LineMove::Target::Capture : LineMove::Target::Empty;
    m.to.pieces = capture ? piece_mask::kAnyPiece : piece_mask::kEmpty;
    if (!suffixes(i)) return std::nullopt;
    return m;
  }
  m.from.pieces = piece_mask::kWhitePawn;
  if (!file(i)) return std::nullopt;
  if (i + 1 < w.size() && w[i + 1] == 'x') {  // exd5: from the e-file, captures (or en passant)
    m.from.squares.squares = chess::Bitboard(0x0101010101010101ull) << (w[i] - 'a');
    m.from.squares.written = true;
    i += 2;
    if (!file(i) || !rank(i + 1)) return std::nullopt;
    m.target = LineMove::Target::Either;  // a pawn moving diagonally to an empty square is e.p.
    m.to.pieces = piece_mask::kAll;
  } else {  // e4: a pawn of the e-file to an empty e4
    if (!rank(i + 1)) return std::nullopt;
    m.from.squares.squares = chess::Bitboard(0x0101010101010101ull) << (w[i] - 'a');
    m.from.squares.written = true;
    m.target = LineMove::Target::Empty;
    m.to.pieces = piece_mask::kEmpty;
  }
  m.to.squares.squares = square_at(i);
  i += 2;
  if (i < w.size() && (w[i] == '=' || letters.find(w[i]) != std::string_view::npos)) {
    if (w[i] == '=') ++i;
    if (i >= w.size() || letters.find(w[i]) == std::string_view::npos || w[i] == 'K') return std::nullopt;
    PieceDesignator promotion;
    promotion.pieces = PieceMask(1u << letters.find(w[i]));
    m.promotion = promotion;
    ++i;
  }
  if (!suffixes(i)) return std::nullopt;
  return m;
}

std::string to_string(const LineMove& m) {
  std::string s;
  if (m.move_number) s = std::to_string(*m.move_number) + (m.black_move_number ? "..." : ".");
  switch (m.kind) {
    case LineMove::Kind::Castling:
      for (const CastlingSpelling& c : kCastling)
        if (c.rights == m.castling) {
          s += c.text;
          break;
        }
      break;
    case LineMove::Kind::AnyMove:
      s += "--";
      break;
    case LineMove::Kind::NullMove:
      s += "null";
      break;
    case LineMove::Kind::Drop:
      if (m.from_written) {
        PieceDesignator piece = m.from;
        piece.squares = SquareDesignator{};
        s += to_string(piece);
      }
      s += "@" + to_string(m.to.squares);
      break;
    case LineMove::Kind::Normal: {
      std::string from;
      if (m.from_written) {
        PieceDesignator f = m.from;
        if (!f.piece_part_written) f.pieces = 0;
        from = to_string(f);
      }
      bool to_written = m.to.piece_part_written || m.to.squares.written;
      bool from_anywhere = m.from.squares.squares == kAllSquares && !m.from.squares.reserve;
      if (m.from_written && from_anywhere && m.target == LineMove::Target::Empty &&
          !m.to.piece_part_written) {
        // Shorthand "N", "Ne5".
        s += from + to_string(m.to.squares);
      } else {
        s += from;
        s += m.target == LineMove::Target::Empty     ? '-'
             : m.target == LineMove::Target::Capture ? 'x'
                                                     : ':';
        if (to_written) {
          PieceDesignator t = m.to;
          if (!t.piece_part_written) t.pieces = 0;
          s += to_string(t);
        }
      }
      break;
    }
  }
  if (m.promotion) s += "=" + to_string(*m.promotion);
  s += marks_to_string(m);
  if (m.en_passant) s += " ep";
  return s;
}

}  // namespace cql
