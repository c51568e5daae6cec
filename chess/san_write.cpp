// Writing SAN and UCI move strings; parse_uci().
#include "chess/movegen.h"
#include "chess/san.h"

namespace chess {

namespace {

constexpr char PIECE_LETTERS[PIECE_TYPE_NB + 1] = " PNBRQK";

void append_square(std::string& out, Square s) {
  out += file_char(file_of(s));
  out += rank_char(rank_of(s));
}

}  // namespace

void append_san(const Position& pos, Move m, std::string& out) {
  if (m == Move::null()) {
    out += "--";
    return;
  }
  const Color us = pos.side_to_move();
  const Square from = m.from_sq(), to = m.to_sq();

  if (m.kind() == Move::CASTLING) {
    out += to > from ? "O-O" : "O-O-O";
  } else {
    const PieceType pt = type_of(pos.piece_on(from));
    if (pt == PAWN) {
      if (file_of(from) != file_of(to)) {
        out += file_char(file_of(from));
        out += 'x';
      }
      append_square(out, to);
      if (m.kind() == Move::PROMOTION) {
        out += '=';
        out += PIECE_LETTERS[m.promotion_type()];
      }
    } else {
      out += PIECE_LETTERS[pt];
      if (pt != KING) {
        // Other pieces of the same kind that could legally go to `to` (pinned ones cannot).
        Bitboard rivals = 0;
        Bitboard others = attacks_bb(pt, to, pos.pieces()) & pos.pieces(us, pt) & ~square_bb(from);
        while (others) {
          Square o = pop_lsb(others);
          if (pos.is_legal(Move(o, to))) rivals |= square_bb(o);
        }
        if (rivals) {
          if (!(rivals & file_bb(from))) {
            out += file_char(file_of(from));
          } else if (!(rivals & rank_bb(from))) {
            out += rank_char(rank_of(from));
          } else {
            append_square(out, from);
          }
        }
      }
      if (pos.piece_on(to) != NO_PIECE) out += 'x';
      append_square(out, to);
    }
  }

  // Check and mate marks: play the move on a copy (SAN writing is not a hot path).
  Position after = pos;
  UndoInfo u;
  after.do_move(m, u);
  if (after.in_check()) out += has_legal_move(after) ? '+' : '#';
}

std::string to_san(const Position& pos, Move m) {
  std::string out;
  append_san(pos, m, out);
  return out;
}

std::string to_uci(Move m, const Position& pos) {
  if (!m.is_ok()) return "0000";
  Square from = m.from_sq(), to = m.to_sq();
  if (m.kind() == Move::CASTLING && !pos.is_chess960())
    to = Position::castling_king_to(castling_right(pos.side_to_move(), to > from));
  std::string out;
  append_square(out, from);
  append_square(out, to);
  if (m.kind() == Move::PROMOTION) out += char(PIECE_LETTERS[m.promotion_type()] - 'A' + 'a');
  return out;
}

Move parse_uci(const Position& pos, std::string_view uci) {
  if (uci == "0000") return Move::null();
  if (uci.size() != 4 && uci.size() != 5) return Move::none();
  MoveList list;
  generate_legal(pos, list);
  for (Move m : list)
    if (to_uci(m, pos) == uci) return m;
  // Chess960-style king-takes-rook castling is accepted in standard chess too.
  for (Move m : list) {
    if (m.kind() != Move::CASTLING || uci.size() != 4) continue;
    std::string alt;
    append_square(alt, m.from_sq());
    append_square(alt, m.to_sq());
    if (alt == uci) return m;
  }
  return Move::none();
}

}  // namespace chess
