#include "render/board_svg.h"

#include <cctype>
#include <cstdio>

namespace render {

namespace {

constexpr int kSquare = 45;  // units per square; pieces are drawn in a 45x45 box
constexpr const char* kLight = "#f0d9b5";
constexpr const char* kDark = "#b58863";

/// The shapes of one piece kind inside its 45x45 box, in the piece's colours.
/// `fill` is the body colour, `line` the outline and detail colour.
std::string piece_shapes(chess::PieceType type, const char* fill, const char* line) {
  char buf[1400];
  const char* base = "<rect x='11' y='35' width='23' height='5' rx='1'/>";
  switch (type) {
    case chess::PAWN:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5'>"
                    "<circle cx='22.5' cy='15' r='6'/>"
                    "<path d='M16 35 L29 35 L27 24 Q22.5 19 18 24 Z'/>%s</g>",
                    fill, line, base);
      break;
    case chess::KNIGHT:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linejoin='round'>"
                    "<path d='M14 35 L32 35 L31 28 Q33 16 25 10 L23 6 L20 10 Q14 13 11 21 "
                    "L12 25 L16 24 L20 21 Q20 27 14 32 Z'/>%s"
                    "<circle cx='18' cy='16' r='1.5' fill='%s'/></g>",
                    fill, line, base, line);
      break;
    case chess::BISHOP:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5'>"
                    "<path d='M15 35 Q12 25 22.5 13 Q33 25 30 35 Z'/>"
                    "<circle cx='22.5' cy='10' r='3'/>%s"
                    "<path d='M22.5 20 V28 M18.5 24 H26.5' fill='none'/></g>",
                    fill, line, base);
      break;
    case chess::ROOK:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linejoin='round'>"
                    "<path d='M14 35 L15 19 L30 19 L31 35 Z'/>"
                    "<path d='M11 10 H16 V13 H20 V10 H25 V13 H29 V10 H34 V19 H11 Z'/>%s</g>",
                    fill, line, base);
      break;
    case chess::QUEEN:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linejoin='round'>"
                    "<path d='M12 35 L9 15 L16 26 L17 11 L22.5 25 L28 11 L29 26 L36 15 L33 35 Z'/>"
                    "<circle cx='9' cy='13' r='2.5'/><circle cx='17' cy='9' r='2.5'/>"
                    "<circle cx='28' cy='9' r='2.5'/><circle cx='36' cy='13' r='2.5'/>%s</g>",
                    fill, line, base);
      break;
    case chess::KING:
      std::snprintf(buf, sizeof buf,
                    "<g fill='%s' stroke='%s' stroke-width='1.5' stroke-linejoin='round'>"
                    "<path d='M13 35 Q7 23 16 20 Q22.5 18 22.5 25 Q22.5 18 29 20 Q38 23 32 35 Z'/>"
                    "<path d='M22.5 5 V17 M18 9 H27' fill='none' stroke-width='2'/>%s</g>",
                    fill, line, base);
      break;
    default:
      return {};
  }
  return buf;
}

/// The column (0..7 from the left) and row (0..7 from the top) where `sq` is drawn.
void square_cell(chess::Square sq, bool flipped, int& column, int& row) {
  column = flipped ? 7 - int(chess::file_of(sq)) : int(chess::file_of(sq));
  row = flipped ? int(chess::rank_of(sq)) : 7 - int(chess::rank_of(sq));
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string board_svg(const chess::Position& pos, const BoardSvgOptions& options) {
  const int margin = options.coordinates ? 15 : 0;
  const int extent = 8 * kSquare + 2 * margin;
  std::string svg;
  svg.reserve(16384);
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "<svg xmlns='http://www.w3.org/2000/svg' class='cqldb-board' width='%u' height='%u' "
                "viewBox='0 0 %d %d' data-fen='",
                options.size, options.size, extent, extent);
  svg += buf;
  svg += xml_escape(pos.fen()) + "' data-flipped='" + (options.flipped ? "1" : "0") + "'>";
  if (margin) {
    std::snprintf(buf, sizeof buf, "<rect width='%d' height='%d' fill='#4a4a4a'/>", extent, extent);
    svg += buf;
  }
  for (int s = 0; s < 64; ++s) {
    const auto sq = chess::Square(s);
    int column = 0, row = 0;
    square_cell(sq, options.flipped, column, row);
    const int x = margin + column * kSquare, y = margin + row * kSquare;
    const bool light = (int(chess::file_of(sq)) + int(chess::rank_of(sq))) % 2 == 1;
    std::snprintf(buf, sizeof buf, "<rect x='%d' y='%d' width='%d' height='%d' fill='%s'/>", x, y,
                  kSquare, kSquare, light ? kLight : kDark);
    svg += buf;
    if (sq == options.from || sq == options.to) {
      std::snprintf(buf, sizeof buf,
                    "<rect class='last-move' x='%d' y='%d' width='%d' height='%d' fill='#9bc700' "
                    "fill-opacity='0.45'/>",
                    x, y, kSquare, kSquare);
      svg += buf;
    }
    if (options.marked & chess::square_bb(sq)) {
      std::snprintf(buf, sizeof buf,
                    "<rect class='marked' x='%d' y='%d' width='%d' height='%d' fill='none' "
                    "stroke='#d62828' stroke-width='4'/>",
                    x + 2, y + 2, kSquare - 4, kSquare - 4);
      svg += buf;
    }
  }
  for (int s = 0; s < 64; ++s) {
    const auto sq = chess::Square(s);
    const chess::Piece piece = pos.piece_on(sq);
    if (piece == chess::NO_PIECE) continue;
    int column = 0, row = 0;
    square_cell(sq, options.flipped, column, row);
    const bool white = chess::color_of(piece) == chess::WHITE;
    std::snprintf(buf, sizeof buf, "<g transform='translate(%d %d)'>", margin + column * kSquare,
                  margin + row * kSquare);
    svg += buf;
    svg += piece_shapes(chess::type_of(piece), white ? "#ffffff" : "#2b2b2b", white ? "#1a1a1a" : "#000000");
    svg += "</g>";
  }
  if (margin) {
    for (int i = 0; i < 8; ++i) {
      const char file = char('a' + (options.flipped ? 7 - i : i));
      const char rank = char('1' + (options.flipped ? i : 7 - i));
      std::snprintf(buf, sizeof buf,
                    "<text x='%d' y='%d' font-family='sans-serif' font-size='11' fill='#eee' "
                    "text-anchor='middle'>%c</text>",
                    margin + i * kSquare + kSquare / 2, extent - 4, file);
      svg += buf;
      std::snprintf(buf, sizeof buf,
                    "<text x='%d' y='%d' font-family='sans-serif' font-size='11' fill='#eee' "
                    "text-anchor='middle'>%c</text>",
                    margin / 2, margin + i * kSquare + kSquare / 2 + 4, rank);
      svg += buf;
    }
  }
  svg += "</svg>";
  return svg;
}

std::optional<std::string> board_svg_from_fen(std::string_view fen, const BoardSvgOptions& options,
                                              std::string& error) {
  std::string full(fen);
  while (!full.empty() && std::isspace(static_cast<unsigned char>(full.back()))) full.pop_back();
  if (full.find(' ') == std::string::npos) full += " w - - 0 1";  // placement only
  chess::Position pos;
  const chess::FenError err = pos.set_fen(full);
  if (!err.ok()) {
    error = err.message;
    return std::nullopt;
  }
  return board_svg(pos, options);
}

std::optional<chess::Bitboard> parse_square_list(std::string_view text, std::string& error) {
  chess::Bitboard squares = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ',' || text[i] == ' ') {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && text[end] != ',' && text[end] != ' ') ++end;
    const std::string_view word = text.substr(i, end - i);
    const char f = word.size() == 2 ? char(std::tolower(static_cast<unsigned char>(word[0]))) : 0;
    const char r = word.size() == 2 ? word[1] : 0;
    if (f < 'a' || f > 'h' || r < '1' || r > '8') {
      error = "'" + std::string(word) + "' is not a square (a1..h8)";
      return std::nullopt;
    }
    squares |= chess::square_bb(chess::make_square(chess::File(f - 'a'), chess::Rank(r - '1')));
    i = end;
  }
  return squares;
}

}  // namespace render
