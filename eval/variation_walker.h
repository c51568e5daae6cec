// VariationWalker: replays the variations of a game's token stream (db/record_format.h) and
// hands each variation to a callback as a line of positions (SPEC Game traversal: positions
// inside a variation are positions of that line; a sequence that starts there continues
// along that line).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "chess/position.h"
#include "db/record_view.h"
#include "eval/node.h"

namespace eval {

/// Walks the variations of one game at a time. Keeps its buffers between games (one per
/// worker thread).
class VariationWalker {
 public:
  /// Calls `on_line(line)` once per variation (nested ones included, each before the
  /// variation containing it ends). `line[0]` is the position the variation branches from,
  /// with the variation's first move as its next move; then one position after each move
  /// of the variation. Every context copies `base`'s game constants (info, start position,
  /// chess960) and has inside_variation set; ply counts from the game start, last_ply is
  /// the ply of the variation's last position. `start` is the game's start position.
  /// `lookahead` / `repetition` fill next_facts / occurrences as GameMatcher does.
  /// Throws db::CorruptRecord for a move that is illegal on its board.
  void walk(const db::RecordView& record, const chess::Position& start, const PosCtx& base,
            bool lookahead, bool repetition,
            const std::function<void(std::span<const PosCtx>)>& on_line);

  /// During `on_line`: where the reported variation lies, as the ply path of its branch
  /// position without the last ply (`[p0, v0, ..., pj, vj]`, eval/match_location.h): line[i]
  /// is at `line_path() + [i]`.
  const std::vector<uint32_t>& line_path() const { return frames_[reporting_].path; }

 private:
  /// A position of a line with what the contexts need of its history.
  struct State {
    chess::Position pos;
    chess::Bitboard promoted = 0;
    uint32_t ply = 0;
    uint16_t checks_given[2] = {0, 0};
    size_t keys = 0;  ///< history length in the frame's `keys` (this position included)
    bool material_new = true;  ///< PosCtx::material_new: reached by a capture or promotion
  };
  /// One line being replayed: the main line (frame 0) or an open variation.
  struct Frame {
    State cur;                     ///< after the last move of the line
    State prev;                    ///< before it (where a variation of that move branches)
    std::vector<chess::Key> keys;  ///< position keys from the game start to `cur`
    std::vector<chess::Position> positions;  ///< variations: the line's positions
    std::vector<PosCtx> line;                ///< variations: their contexts (pos set at the end)
    std::vector<chess::Move> moves;          ///< variations: the line's moves (PosCtx::line_moves)
    std::vector<uint32_t> path;    ///< variations: line_path() of this line
    uint32_t variations_here = 0;  ///< variations begun since this line's last move
    uint32_t serial = 0;           ///< variations: its number in record order (PosCtx::variation_serial)
  };

  std::vector<Frame> frames_;  // stack; frames_[0] = main line
  size_t reporting_ = 0;       // the frame on_line is called for
};

}  // namespace eval
