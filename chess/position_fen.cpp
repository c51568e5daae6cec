// Position: reading and writing FEN (X-FEN and Shredder-FEN castling for Chess960).
#include <algorithm>
#include <string>

#include "chess/position.h"

namespace chess {

namespace {

constexpr std::string_view START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr std::string_view PIECE_CHARS = " PNBRQK  pnbrqk";

// Renders one byte of user input for an error message: printable ASCII as is, anything
// else as \xNN.
std::string show_char(char c) {
  if (c >= 0x20 && c < 0x7F) return std::string(1, c);
  static const char* hex = "0123456789ABCDEF";
  unsigned char u = static_cast<unsigned char>(c);
  return std::string("\\x") + hex[u >> 4] + hex[u & 15];
}

// Renders a whole field for an error message (bytes escaped, long fields cut).
std::string show_field(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size() && i < 40; ++i) out += show_char(field[i]);
  if (field.size() > 40) out += "...";
  return out;
}

FenError error(FenError::Code code, std::string message) {
  return FenError{code, std::move(message)};
}

std::string square_name(Square s) {
  return {file_char(file_of(s)), rank_char(rank_of(s))};
}

const char* color_name(Color c) {
  return c == WHITE ? "white" : "black";
}

// Parses a non-negative decimal integer of at most 6 digits; false if `s` is anything else.
bool parse_count(std::string_view s, int& value) {
  if (s.empty() || s.size() > 6) return false;
  value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  return true;
}

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

void Position::set_start() {
  // Read once, then copied: an importer sets the start position once per game.
  static const Position start = [] {
    Position p{Uninitialized{}};
    FenError e = p.set_fen(START_FEN);
    assert(e.ok());
    (void)e;
    return p;
  }();
  *this = start;
}

FenError Position::set_fen(std::string_view fen, bool chess960) {
  init();
  clear();
  chess960_ = chess960;

  // Split into at most 7 blank-separated fields (the 7th only to report extra text).
  std::string_view fields[7];
  int nfields = 0;
  size_t i = 0;
  while (nfields < 7) {
    while (i < fen.size() && is_blank(fen[i])) ++i;
    if (i == fen.size()) break;
    size_t start = i;
    while (i < fen.size() && !is_blank(fen[i])) ++i;
    fields[nfields++] = fen.substr(start, i - start);
  }

  FenError err;
  if (nfields == 0) {
    err = error(FenError::BOARD, "FEN is empty");
  } else if (!(err = parse_board(fields[0])).ok()) {
  } else if (nfields < 2) {
    err = error(FenError::SIDE, "FEN side to move: missing (expected 'w' or 'b' after the board)");
  } else if (fields[1] != "w" && fields[1] != "b") {
    err = error(FenError::SIDE,
                "FEN side to move: expected 'w' or 'b', found '" + show_field(fields[1]) + "'");
  } else {
    side_ = fields[1] == "w" ? WHITE : BLACK;
    if (nfields < 3) {
      err =
          error(FenError::CASTLING, "FEN castling: missing (expected '-' or letters KQkq/A-H/a-h)");
    } else if (!(err = parse_castling(fields[2])).ok()) {
    } else if (nfields >= 4 && !(err = parse_en_passant(fields[3])).ok()) {
      // A FEN as people paste it (lichess, python-chess) may end after the castling field:
      // no en-passant square, half-move clock 0, move 1 (issue 40).
    } else {
      int halfmove = 0, fullmove = 1;
      if (nfields >= 5 && !parse_count(fields[4], halfmove)) {
        err = error(FenError::HALFMOVE,
                    "FEN half-move clock: expected a non-negative integer, found '" +
                        show_field(fields[4]) + "'");
      } else if (nfields >= 6 && !parse_count(fields[5], fullmove)) {
        err = error(FenError::FULLMOVE,
                    "FEN full-move number: expected a non-negative integer, found '" +
                        show_field(fields[5]) + "'");
      } else if (nfields == 7) {
        err = error(FenError::EXTRA, "FEN: unexpected text after the full-move number: '" +
                                         show_field(fields[6]) + "'");
      } else {
        rule50_ = uint16_t(halfmove > 0xFFFF ? 0xFFFF : halfmove);
        game_ply_ = 2 * ((fullmove < 1 ? 1 : fullmove) - 1) + (side_ == BLACK);
      }
    }
  }
  if (err.ok()) err = validate();
  if (!err.ok()) {
    set_start();
    return err;
  }
  finish_setup();
  return err;
}

FenError Position::parse_board(std::string_view field) {
  int rank = 7, file = 0;
  for (size_t i = 0; i < field.size(); ++i) {
    char c = field[i];
    std::string where = "FEN board, character " + std::to_string(i + 1) + " '" + show_char(c) + "'";
    if (c == '/') {
      if (file != 8)
        return error(FenError::BOARD, where + ": rank " + std::to_string(rank + 1) + " has " +
                                          std::to_string(file) + " squares, expected 8");
      if (rank == 0) return error(FenError::BOARD, where + ": more than 8 ranks");
      --rank;
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8)
        return error(FenError::BOARD,
                     where + ": rank " + std::to_string(rank + 1) + " has more than 8 squares");
    } else {
      size_t p = PIECE_CHARS.find(c);
      if (c == ' ' || p == std::string_view::npos)
        return error(FenError::BOARD,
                     where + ": expected a piece letter (PNBRQK/pnbrqk), a digit 1-8 or '/'");
      if (file >= 8)
        return error(FenError::BOARD,
                     where + ": rank " + std::to_string(rank + 1) + " has more than 8 squares");
      put_piece(Piece(p), make_square(File(file), Rank(rank)));
      ++file;
    }
  }
  if (rank != 0)
    return error(FenError::BOARD,
                 "FEN board: " + std::to_string(8 - rank) + " ranks, expected 8 separated by '/'");
  if (file != 8)
    return error(FenError::BOARD,
                 "FEN board: rank 1 has " + std::to_string(file) + " squares, expected 8");
  return {};
}

FenError Position::parse_castling(std::string_view field) {
  if (field == "-") return {};
  for (size_t i = 0; i < field.size(); ++i) {
    char c = field[i];
    std::string where =
        "FEN castling, character " + std::to_string(i + 1) + " '" + show_char(c) + "'";
    Color color = (c >= 'A' && c <= 'Z') ? WHITE : BLACK;
    char lower = char(c | 0x20);
    bool letter = lower == 'k' || lower == 'q' || (lower >= 'a' && lower <= 'h');
    if (!letter)
      return error(FenError::CASTLING, where + ": expected '-' or letters KQkq or A-H/a-h");
    Bitboard kings = pieces(color, KING);
    Rank back = relative_rank(color, RANK_1);
    if (popcount(kings) != 1)
      return error(FenError::CASTLING,
                   where + ": needs exactly one " + color_name(color) + " king");
    if (rank_of(lsb(kings)) != back)
      return error(FenError::CASTLING, where + ": the " + color_name(color) +
                                           " king is not on rank " + std::to_string(back + 1));
    Square ksq = lsb(kings);
    Bitboard rooks = pieces(color, ROOK) & rank_bb(back);
    Square rook = SQ_NONE;
    if (lower == 'k') {
      Bitboard side = rooks & ~((square_bb(ksq) << 1) - 1);  // files beyond the king
      if (side) rook = msb(side);
    } else if (lower == 'q') {
      Bitboard side = rooks & (square_bb(ksq) - 1);
      if (side) rook = lsb(side);
    } else {
      Square s = make_square(File(lower - 'a'), back);
      if (s == ksq) return error(FenError::CASTLING, where + ": names the king's own file");
      if (rooks & square_bb(s)) rook = s;
    }
    if (rook == SQ_NONE)
      return error(FenError::CASTLING,
                   where + ": no " + color_name(color) + " rook on " +
                       (lower == 'k'   ? "the king side of rank " + std::to_string(back + 1)
                        : lower == 'q' ? "the queen side of rank " + std::to_string(back + 1)
                                       : std::string(1, lower) + std::to_string(back + 1)));
    CastlingRight cr = castling_right(color, rook > ksq);
    if (castling_ & cr) {
      if (castling_rook_[right_index(cr)] == rook) continue;  // repeated letter
      return error(FenError::CASTLING, where + ": a second " + color_name(color) +
                                           " castling right on the " +
                                           (rook > ksq ? "king" : "queen") + " side");
    }
    add_castling_right(cr, rook);
    if (file_of(ksq) != FILE_E || file_of(rook) != (rook > ksq ? FILE_H : FILE_A)) chess960_ = true;
  }
  return {};
}

FenError Position::parse_en_passant(std::string_view field) {
  if (field == "-") return {};
  Rank expected = side_ == WHITE ? RANK_6 : RANK_3;
  if (field.size() != 2 || field[0] < 'a' || field[0] > 'h' || field[1] < '1' || field[1] > '8')
    return error(FenError::EN_PASSANT,
                 "FEN en passant: expected '-' or a square, found '" + show_field(field) + "'");
  Square s = make_square(File(field[0] - 'a'), Rank(field[1] - '1'));
  if (rank_of(s) != expected)
    return error(FenError::EN_PASSANT, "FEN en passant: " + std::string(field) +
                                           " is not on rank " + std::to_string(expected + 1) +
                                           " (" + color_name(side_) + " to move)");
  Color them = ~side_;
  Square pawn = square_offset(s, -pawn_push(side_));   // where the double-pushed pawn stands
  Square origin = square_offset(s, pawn_push(side_));  // where it came from
  // Policy (see position.h): keep the square only when it can follow a double push and a
  // capture is possible; otherwise it is dropped.
  if (piece_on(pawn) == make_piece(them, PAWN) && empty(s) && empty(origin) &&
      (pawn_attacks_bb(them, s) & pieces(side_, PAWN)))
    ep_ = s;
  return {};
}

FenError Position::validate() const {
  for (Color c : {WHITE, BLACK}) {
    int kings = count(c, KING);
    if (kings != 1)
      return error(FenError::ILLEGAL, std::string("FEN position: ") + color_name(c) + " has " +
                                          std::to_string(kings) + " kings, expected exactly 1");
    if (popcount(pieces(c)) > 16)
      return error(FenError::ILLEGAL, std::string("FEN position: ") + color_name(c) + " has " +
                                          std::to_string(popcount(pieces(c))) +
                                          " pieces, at most 16 possible");
    int pawns = count(c, PAWN);
    if (pawns > 8)
      return error(FenError::ILLEGAL, std::string("FEN position: ") + color_name(c) + " has " +
                                          std::to_string(pawns) + " pawns, at most 8 possible");
    auto extra = [&](PieceType pt, int normal) { return std::max(0, count(c, pt) - normal); };
    int promoted = extra(KNIGHT, 2) + extra(BISHOP, 2) + extra(ROOK, 2) + extra(QUEEN, 1);
    if (promoted > 8 - pawns)
      return error(FenError::ILLEGAL, std::string("FEN position: ") + color_name(c) + " has " +
                                          std::to_string(promoted) + " promoted pieces but " +
                                          std::to_string(pawns) + " pawns");
  }
  if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB))
    return error(FenError::ILLEGAL, "FEN position: pawn on " +
                                        square_name(lsb(pieces(PAWN) & (RANK_1_BB | RANK_8_BB))) +
                                        " (rank 1 or 8)");
  Color them = ~side_;
  if (attackers_to(king_square(them)) & pieces(side_))
    return error(FenError::ILLEGAL, std::string("FEN position: the side not to move (") +
                                        color_name(them) + ") is in check");
  return {};
}

std::string Position::fen() const {
  std::string out;
  out.reserve(90);
  for (int r = 7; r >= 0; --r) {
    int empties = 0;
    for (int f = 0; f < 8; ++f) {
      Piece pc = board_[make_square(File(f), Rank(r))];
      if (pc == NO_PIECE) {
        ++empties;
        continue;
      }
      if (empties) out += char('0' + empties);
      empties = 0;
      out += PIECE_CHARS[pc];
    }
    if (empties) out += char('0' + empties);
    if (r) out += '/';
  }
  out += side_ == WHITE ? " w " : " b ";

  if (!castling_) out += '-';
  for (CastlingRight cr : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
    if (!(castling_ & cr)) continue;
    Color c = cr >= BLACK_OO ? BLACK : WHITE;
    Square rook = castling_rook_[right_index(cr)];
    Square ksq = king_square(c);
    // Rooks of the same colour further out than the castling rook on its rank.
    Bitboard outer = pieces(c, ROOK) & rank_bb(rook) &
                     (rook > ksq ? ~((square_bb(rook) << 1) - 1) : square_bb(rook) - 1);
    char letter = outer ? file_char(file_of(rook)) : (rook > ksq ? 'k' : 'q');
    out += c == WHITE ? char(letter - 'a' + 'A') : letter;
  }

  out += ' ';
  if (ep_ == SQ_NONE)
    out += '-';
  else
    out += square_name(ep_);
  out += ' ';
  out += std::to_string(rule50_);
  out += ' ';
  out += std::to_string(fullmove_number());
  return out;
}

}  // namespace chess
