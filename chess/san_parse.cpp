// parse_san(): SAN token -> legal move, without generating all legal moves.
#include <string>

#include "chess/san.h"

namespace chess {

namespace {

constexpr const char* PIECE_NAMES[PIECE_TYPE_NB] = {"",     "pawn",  "knight", "bishop",
                                                    "rook", "queen", "king"};

bool is_file(char c) {
  return c >= 'a' && c <= 'h';
}
bool is_rank(char c) {
  return c >= '1' && c <= '8';
}

// Upper-case piece letter as used in SAN for a piece (not a pawn); NO_PIECE_TYPE otherwise.
PieceType piece_letter(char c) {
  switch (c) {
    case 'N':
      return KNIGHT;
    case 'B':
      return BISHOP;
    case 'R':
      return ROOK;
    case 'Q':
      return QUEEN;
    case 'K':
      return KING;
    default:
      return NO_PIECE_TYPE;
  }
}

// Promotion piece letter (N, B, R, Q), either case; NO_PIECE_TYPE otherwise.
PieceType promotion_letter(char c) {
  PieceType pt = piece_letter(c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c);
  return pt == KING ? NO_PIECE_TYPE : pt;
}

std::string square_name(Square s) {
  return {file_char(file_of(s)), rank_char(rank_of(s))};
}

// The token quoted for a message: printable ASCII kept, other bytes as \xNN, cut at 32.
std::string quote(std::string_view token) {
  static const char* hex = "0123456789ABCDEF";
  std::string out = "'";
  for (size_t i = 0; i < token.size() && i < 32; ++i) {
    unsigned char c = static_cast<unsigned char>(token[i]);
    if (c >= 0x20 && c < 0x7F) {
      out += char(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (token.size() > 32) out += "...";
  return out + "'";
}

// Sets `*err` and returns Move::none().
Move fail(SanError* err, SanError::Code code, std::string_view token, const std::string& what) {
  if (err) {
    err->code = code;
    err->message = quote(token) + ": " + what;
  }
  return Move::none();
}

// "a1, b2 and c3"
std::string list_squares(Bitboard b) {
  std::string out;
  while (b) {
    Square s = pop_lsb(b);
    if (!out.empty()) out += b ? ", " : " and ";
    out += square_name(s);
  }
  return out;
}

const char* color_name(Color c) {
  return c == WHITE ? "white" : "black";
}

// Castling by right `cr`: checks the right and legality.
Move castle(const Position& pos, CastlingRight cr, std::string_view token, SanError* err) {
  Color us = pos.side_to_move();
  bool king_side = cr & (WHITE_OO | BLACK_OO);
  if (!pos.can_castle(cr))
    return fail(err, SanError::ILLEGAL, token,
                std::string(color_name(us)) + " has no " + (king_side ? "king" : "queen") +
                    "-side castling right");
  Move m = Move::make(pos.king_square(us), pos.castling_rook_square(cr), Move::CASTLING);
  if (pos.is_legal(m)) return m;
  return fail(err, SanError::ILLEGAL, token,
              pos.in_check() ? "cannot castle out of check"
                             : "castling path is occupied, or the king would cross or land "
                               "on an attacked square");
}

// Recognises O-O / O-O-O (also with '0' or 'o'); returns 2 or 3 for the number of O's, 0 if
// `s` is not castling notation.
int castling_length(std::string_view s) {
  if (s.empty() || (s[0] != 'O' && s[0] != '0' && s[0] != 'o')) return 0;
  char o = s[0];
  if (s.size() == 3 && s[1] == '-' && s[2] == o) return 2;
  if (s.size() == 5 && s[1] == '-' && s[2] == o && s[3] == '-' && s[4] == o) return 3;
  return 0;
}

}  // namespace

Move parse_san(const Position& pos, std::string_view token, SanError* err) {
  if (err) {
    err->code = SanError::NONE;
    err->message.clear();
  }

  // Trailing check/mate marks, annotation glyphs and "e.p.".
  std::string_view s = token;
  for (bool again = true; again;) {
    while (!s.empty() && (s.back() == '+' || s.back() == '#' || s.back() == '!' || s.back() == '?'))
      s.remove_suffix(1);
    size_t mark = s.size() > 4 && s.substr(s.size() - 4) == "e.p." ? 4
                  : s.size() > 2 && s.substr(s.size() - 2) == "ep" ? 2
                                                                   : 0;
    again = mark != 0;
    if (again) {
      s.remove_suffix(mark);
      while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    }
  }
  if (s.empty()) return fail(err, SanError::SYNTAX, token, "not a move");
  if (s == "--" || s == "Z0" || s == "null") return Move::null();

  const Color us = pos.side_to_move(), them = ~us;
  if (int n = castling_length(s)) return castle(pos, castling_right(us, n == 2), token, err);

  // [piece letter] [from file] [from rank] [x|:|-] to-file to-rank [[=|/] promotion]
  size_t begin = 0;
  PieceType pt = piece_letter(s[0]);
  bool letter = pt != NO_PIECE_TYPE || s[0] == 'P';
  if (letter) begin = 1;
  if (pt == NO_PIECE_TYPE) pt = PAWN;
  size_t end = s.size();
  PieceType promo = NO_PIECE_TYPE;
  if (end >= begin + 3 && promotion_letter(s[end - 1]) != NO_PIECE_TYPE &&
      (is_rank(s[end - 2]) || s[end - 2] == '=' || s[end - 2] == '/')) {
    promo = promotion_letter(s[end - 1]);
    --end;
    if (s[end - 1] == '=' || s[end - 1] == '/') --end;
  }
  if (end < begin + 2 || !is_file(s[end - 2]) || !is_rank(s[end - 1]))
    return fail(err, SanError::SYNTAX, token, "expected a destination square such as e4");
  const Square to = make_square(File(s[end - 2] - 'a'), Rank(s[end - 1] - '1'));
  end -= 2;
  bool capture = false;
  if (end > begin && (s[end - 1] == 'x' || s[end - 1] == ':' || s[end - 1] == '-')) {
    capture = s[end - 1] != '-';
    --end;
  }
  int from_file = -1, from_rank = -1;
  for (size_t i = begin; i < end; ++i) {
    if (is_file(s[i]) && from_file < 0 && from_rank < 0)
      from_file = s[i] - 'a';
    else if (is_rank(s[i]) && from_rank < 0)
      from_rank = s[i] - '1';
    else
      return fail(err, SanError::SYNTAX, token, "unexpected character before the destination");
  }
  // Long algebraic without a piece letter ("g1-f3", "g1f3"): the piece on the origin.
  if (!letter && from_file >= 0 && from_rank >= 0) {
    Piece on = pos.piece_on(make_square(File(from_file), Rank(from_rank)));
    if (on != NO_PIECE && color_of(on) == us) pt = type_of(on);
  }
  if (promo != NO_PIECE_TYPE && pt != PAWN)
    return fail(err, SanError::SYNTAX, token, "only pawns promote");

  Bitboard from_mask = ALL_SQUARES;
  if (from_file >= 0) from_mask &= file_bb(File(from_file));
  if (from_rank >= 0) from_mask &= rank_bb(Rank(from_rank));
  const Piece target = pos.piece_on(to);
  Move::Kind kind = Move::NORMAL;
  Bitboard candidates = 0;

  if (pt == PAWN) {
    const Rank to_rank = relative_rank(us, rank_of(to));
    if (capture || (from_file >= 0 && from_file != file_of(to))) {
      candidates = pawn_attacks_bb(them, to) & pos.pieces(us, PAWN) & from_mask;
      if (target == NO_PIECE) {
        if (to != pos.ep_square())
          return fail(err, SanError::NO_SUCH_MOVE, token,
                      "no piece to capture on " + square_name(to));
        kind = Move::EN_PASSANT;
      } else if (color_of(target) == us) {
        return fail(err, SanError::NO_SUCH_MOVE, token,
                    square_name(to) + " holds a " + color_name(us) + " piece");
      }
    } else {
      if (target != NO_PIECE)
        return fail(err, SanError::NO_SUCH_MOVE, token,
                    "a pawn cannot advance to the occupied square " + square_name(to));
      if (to_rank >= RANK_3) {
        Square one = square_offset(to, -pawn_push(us));
        if (pos.piece_on(one) == make_piece(us, PAWN)) {
          candidates = square_bb(one);
        } else if (to_rank == RANK_4 && pos.empty(one)) {
          Square two = square_offset(one, -pawn_push(us));
          if (pos.piece_on(two) == make_piece(us, PAWN)) candidates = square_bb(two);
        }
        candidates &= from_mask;
      }
    }
    if (to_rank == RANK_8) {
      if (promo == NO_PIECE_TYPE)
        return fail(err, SanError::NO_SUCH_MOVE, token, "promotion piece missing (e.g. =Q)");
      kind = Move::PROMOTION;
    } else if (promo != NO_PIECE_TYPE) {
      return fail(err, SanError::NO_SUCH_MOVE, token,
                  "promotion is only possible on the last rank");
    }
  } else {
    if (target != NO_PIECE && color_of(target) == us) {
      // "Kxh1": king takes own rook is castling notation (Chess960 style).
      if (pt == KING && type_of(target) == ROOK) {
        for (bool king_side : {true, false}) {
          CastlingRight cr = castling_right(us, king_side);
          if (pos.castling_rook_square(cr) == to) return castle(pos, cr, token, err);
        }
      }
      return fail(err, SanError::NO_SUCH_MOVE, token,
                  square_name(to) + " holds a " + color_name(us) + " piece");
    }
    Bitboard attackers =
        pt == KING ? pseudo_attacks_bb(KING, to) : attacks_bb(pt, to, pos.pieces());
    candidates = attackers & pos.pieces(us, pt) & from_mask;
    // Standard chess: "Kg1" from e1 means castling.
    if (pt == KING && !candidates && !pos.is_chess960() && !capture &&
        pos.king_square(us) == relative_square(us, SQ_E1) &&
        (from_mask & square_bb(relative_square(us, SQ_E1)))) {
      if (to == relative_square(us, SQ_G1))
        return castle(pos, castling_right(us, true), token, err);
      if (to == relative_square(us, SQ_C1))
        return castle(pos, castling_right(us, false), token, err);
    }
  }

  // Keep the candidates whose move is legal.
  Move found = Move::none();
  Bitboard legal = 0;
  for (Bitboard b = candidates; b;) {
    Square from = pop_lsb(b);
    Move m = Move::make(from, to, kind, kind == Move::PROMOTION ? promo : KNIGHT);
    if (pos.is_legal(m)) {
      legal |= square_bb(from);
      found = m;
    }
  }
  if (legal && !more_than_one(legal)) return found;

  std::string piece = std::string(color_name(us)) + " " + PIECE_NAMES[pt];
  if (legal)
    return fail(err, SanError::AMBIGUOUS, token,
                std::string("ambiguous: ") + PIECE_NAMES[pt] + "s on " + list_squares(legal) +
                    " can move to " + square_name(to));
  if (candidates)
    return fail(err, SanError::ILLEGAL, token,
                "the " + piece + " on " + list_squares(candidates) + " cannot move to " +
                    square_name(to) + " without leaving the king in check");
  std::string origin;
  if (from_file >= 0 && from_rank >= 0)
    origin = " from " + square_name(make_square(File(from_file), Rank(from_rank)));
  else if (from_file >= 0)
    origin = std::string(" from the ") + char('a' + from_file) + "-file";
  else if (from_rank >= 0)
    origin = " from rank " + std::to_string(from_rank + 1);
  return fail(err, SanError::NO_SUCH_MOVE, token,
              "no " + piece + origin + " can move to " + square_name(to));
}

}  // namespace chess
