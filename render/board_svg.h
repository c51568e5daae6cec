// One SVG board renderer (issue 19): a position drawn as a self-contained SVG picture, with
// coordinates, an optional flip, the last move and marked squares highlighted. Used by the
// shell's `show ID PLY --svg FILE`, `cqldb query --format html` and the web API's
// /api/board.svg. The pieces are drawn here as simple vector shapes (own drawing, no
// third-party piece set).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/types.h"

namespace render {

/// How a board is drawn.
struct BoardSvgOptions {
  bool flipped = false;                    ///< Black at the bottom (rank 1 on top)
  bool coordinates = true;                 ///< file letters and rank digits around the board
  chess::Bitboard marked = 0;              ///< squares to mark (e.g. the squares a query names)
  chess::Square from = chess::SQ_NONE;     ///< the last move's origin square, SQ_NONE = none
  chess::Square to = chess::SQ_NONE;       ///< the last move's destination square
  unsigned size = 360;                     ///< width and height of the picture in pixels
};

/// The SVG document (one `<svg>` element, no XML prolog) of `pos`: 8x8 squares of 45 units,
/// a 15-unit margin with coordinates when asked. The root carries `data-fen` (the position's
/// FEN) and `class="cqldb-board"` so that pages and tests can read what it shows.
std::string board_svg(const chess::Position& pos, const BoardSvgOptions& options = {});

/// The board of a FEN: a full FEN, or only its piece placement (then White to move, no
/// castling). nullopt with `error` (the FEN parser's message) when it does not load.
std::optional<std::string> board_svg_from_fen(std::string_view fen, const BoardSvgOptions& options,
                                              std::string& error);

/// Parses a square list such as "e4,d5 h7" (separators: comma, blank; case-insensitive)
/// into a bitboard. nullopt with `error` naming the first word that is not a square a1..h8.
std::optional<chess::Bitboard> parse_square_list(std::string_view text, std::string& error);

/// `text` with & < > " ' escaped for HTML/XML text and attribute values.
std::string xml_escape(std::string_view text);

}  // namespace render
