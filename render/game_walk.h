// A stored game walked move by move for pictures and pages (issue 19): every move of the
// main line and of its variations with its SAN, UCI, the FEN after it, its ply path, NAGs and
// comments, in movetext order. The HTML report (render/html_report.h) and the web API's
// /api/game/ID (web/game_json.h) read it; the moves are played by the stored-move rule
// (db/stored_move.h), so a damaged record throws db::CorruptRecord, never shows a wrong move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/types.h"
#include "db/record_view.h"

namespace render {

struct WalkLine;

/// One move of a line and what is written after it.
struct WalkMove {
  std::string san;        ///< "Nf3", "O-O", "e8=Q+", "--" for a null move
  std::string uci;        ///< "g1f3", "e1g1" (castling as the king's two-square move)
  std::string fen;        ///< the position after the move
  chess::Square from = chess::SQ_NONE;  ///< squares to highlight (castling: king's squares)
  chess::Square to = chess::SQ_NONE;
  /// The position after the move as a ply path (eval/match_location.h): {k} for main-line
  /// ply k (1-based); [p0, v0, p1, ...] inside variations.
  std::vector<uint32_t> path;
  bool white = true;          ///< White made the move
  int move_number = 1;        ///< the full-move number of the move
  std::vector<uint8_t> nags;  ///< $n after the move
  std::string comment;        ///< {...} after the move (several joined by a blank)
  /// Alternatives to this move (each starts from the position before it), in order.
  std::vector<WalkLine> variations;
};

/// A line of moves: the main line or one variation.
struct WalkLine {
  std::string comment_before;   ///< {...} before its first move
  std::vector<WalkMove> moves;
};

/// A whole game walked.
struct GameWalk {
  std::string start_fen;              ///< the position before the first move
  bool chess960 = false;              ///< Chess960 rules: load the FENs with set_fen(fen, true)
  WalkLine main;                      ///< the main line with its variations
  /// FEN of each main-line position: fens[k] after k plies (fens[0] = start_fen).
  std::vector<std::string> fens;
};

/// Walks `record` (main line, variations, comments, NAGs). Throws db::CorruptRecord for a
/// stored move the board refuses or a start FEN that does not load.
GameWalk walk_game(const db::RecordView& record);

/// The ply path as text: "31" for a main-line ply, "31.1.2" inside variations.
std::string path_text(const std::vector<uint32_t>& path);

}  // namespace render
