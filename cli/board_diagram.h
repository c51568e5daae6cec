// A chess position drawn as text: a framed 8x8 board with Unicode piece symbols
// (♔♕♖♗♘♙ White, ♚♛♜♝♞♟ Black), rank and file labels, for the shell's `show`.
#pragma once

#include <string>

#include "chess/position.h"
#include "chess/types.h"

namespace cli {

/// How a diagram is drawn.
struct DiagramOptions {
  bool flipped = false;           ///< Black at the bottom (rank 1 on top)
  chess::Bitboard highlight = 0;  ///< squares to mark (e.g. the last move's from and to)
  bool ansi = false;              ///< mark squares with reverse video (else: no marking)
};

/// The diagram of `pos`: 10 lines (frame, 8 ranks, frame) and a line of file letters, each
/// ending in '\n'. Empty squares are '·'. Each square is two columns wide (symbol + blank).
std::string board_diagram(const chess::Position& pos, const DiagramOptions& options = {});

/// The Unicode chess symbol of `piece` (UTF-8), "·" for NO_PIECE.
const char* piece_symbol(chess::Piece piece);

}  // namespace cli
