// The one rule for a stored move (issue 15), and the main-line replay of a record built on it.
//
// A move stored in a game record (db/record_format.h) may be played on its board when
//   - it is the null move and the side to move is not in check, or
//   - it is well-formed (chess::Position::is_well_formed: our piece on the origin, no
//     capture of our own piece or of a king, castling with its right, rook and empty path,
//     en passant onto the en-passant square, a promotion exactly on the last rank).
// Import stores only moves that satisfy this rule and are legal besides (SAN resolution proves
// legality; a null move in check is rejected), so replay need not prove legality again
// (SPEC-NOTES "Replay trusts the import"). Every reader of stored moves (the replay of eval/,
// the signatures of index/, the shell's `show`, `cqldb check`) applies this rule and treats a
// move that breaks it as a damaged record (db::CorruptRecord); so does import, before storing.
// Signatures (index/signature_builder.cpp) are facts of legal play and also refuse a
// well-formed move that is not legal on its board: such a record gets no signature.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "db/errors.h"
#include "db/record_view.h"

namespace db {

/// True if the stored move `m` may be played on `pos` (the rule above). Any 16-bit value may
/// be asked.
inline bool is_playable_stored(const chess::Position& pos, chess::Move m) {
  return m == chess::Move::null() ? !pos.in_check() : pos.is_well_formed(m);
}

/// Plays stored move `m` on `pos` (null moves included). Throws CorruptRecord naming
/// `ply` (1-based ply of the move in its line) when the rule refuses it.
void play_stored(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, uint32_t ply);

/// The start position of `record`. Throws CorruptRecord for a start FEN that does not load.
chess::Position start_position(const RecordView& record);

/// Steps through the main line of a record: position() is the position after ply() plies
/// (0 = the start); advance() plays the next stored move by the rule above.
class MainLineReplay {
 public:
  /// At the start position. Throws CorruptRecord for a bad start FEN. `record` must outlive
  /// the replay.
  explicit MainLineReplay(const RecordView& record)
      : record_(record), pos_(start_position(record)), cursor_(record) {
    if (!done()) next_ = cursor_.next();
  }

  const chess::Position& position() const { return pos_; }
  /// Plies played so far (0 = at the start).
  uint32_t ply() const { return ply_; }
  /// True at the last main-line position.
  bool done() const { return ply_ >= record_.main_line_size(); }
  /// The move played from position() (requires !done()).
  chess::Move next_move() const { return next_; }
  /// Plays next_move(). Throws CorruptRecord when the rule refuses it.
  void advance() {
    play_stored(pos_, next_, undo_, ply_ + 1);
    ++ply_;
    if (!done()) next_ = cursor_.next();
  }
  /// The undo record of the last advance() (what the move captured, the previous state).
  const chess::UndoInfo& last_undo() const { return undo_; }

 private:
  const RecordView& record_;
  chess::Position pos_;
  chess::UndoInfo undo_{};
  MainLineCursor cursor_;  // the main line in ply order
  chess::Move next_;       // the move from position() (none when done())
  uint32_t ply_ = 0;
};

}  // namespace db
