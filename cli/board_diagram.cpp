#include "cli/board_diagram.h"

namespace cli {

const char* piece_symbol(chess::Piece piece) {
  switch (piece) {
    case chess::W_KING:
      return "\u2654";
    case chess::W_QUEEN:
      return "\u2655";
    case chess::W_ROOK:
      return "\u2656";
    case chess::W_BISHOP:
      return "\u2657";
    case chess::W_KNIGHT:
      return "\u2658";
    case chess::W_PAWN:
      return "\u2659";
    case chess::B_KING:
      return "\u265A";
    case chess::B_QUEEN:
      return "\u265B";
    case chess::B_ROOK:
      return "\u265C";
    case chess::B_BISHOP:
      return "\u265D";
    case chess::B_KNIGHT:
      return "\u265E";
    case chess::B_PAWN:
      return "\u265F";
    default:
      return "\u00B7";
  }
}

std::string board_diagram(const chess::Position& pos, const DiagramOptions& options) {
  const std::string rule =
      "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500"
      "\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2500";  // 17 x ─
  std::string out = "  \u250C" + rule + "\u2510\n";
  for (int row = 0; row < 8; ++row) {
    const auto rank = chess::Rank(options.flipped ? row : 7 - row);
    out += chess::rank_char(rank);
    out += " \u2502 ";
    for (int column = 0; column < 8; ++column) {
      const auto file = chess::File(options.flipped ? 7 - column : column);
      const chess::Square s = chess::make_square(file, rank);
      const bool marked = options.ansi && (options.highlight & chess::square_bb(s));
      if (marked) out += "\033[7m";
      out += piece_symbol(pos.piece_on(s));
      if (marked) out += "\033[0m";
      out += ' ';
    }
    out += "\u2502\n";
  }
  out += "  \u2514" + rule + "\u2518\n    ";
  for (int column = 0; column < 8; ++column) {
    out += chess::file_char(chess::File(options.flipped ? 7 - column : column));
    out += column < 7 ? " " : "\n";
  }
  return out;
}

}  // namespace cli
