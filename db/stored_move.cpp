#include "db/stored_move.h"

#include <string>

namespace db {

void play_stored(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, uint32_t ply) {
  if (!is_playable_stored(pos, m))
    throw CorruptRecord(m == chess::Move::null()
                            ? "stored null move while in check at ply " + std::to_string(ply)
                            : "stored move at ply " + std::to_string(ply) + " is illegal on its board");
  if (m == chess::Move::null())
    pos.do_null_move(undo);
  else
    pos.do_move(m, undo);
}

chess::Position start_position(const RecordView& record) {
  chess::Position pos;
  if (record.flags() & kHasStartFen) {
    chess::FenError err = pos.set_fen(record.start_fen(), record.chess960());
    if (!err.ok()) throw CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  return pos;
}

}  // namespace db
