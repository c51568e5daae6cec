#include "eval/lookahead.h"

#include "chess/movegen.h"
#include "eval/board_predicates.h"

namespace eval {

namespace {

/// The next_fact bits of `pos` itself.
uint8_t facts_of(const chess::Position& pos) {
  if (!pos.in_check()) return chess::has_legal_move(pos) ? 0 : next_fact::kStalemate;
  uint8_t f = next_fact::kCheck;
  if (is_contact_check(pos)) f |= next_fact::kContactCheck;
  if (is_double_check(pos)) f |= next_fact::kDoubleCheck;
  if (!chess::has_legal_move(pos)) f |= next_fact::kMate;
  return f;
}

}  // namespace

uint8_t next_move_facts(chess::Position& pos, chess::Move m) {
  chess::UndoInfo undo;
  if (m == chess::Move::null()) {
    pos.do_null_move(undo);
    uint8_t f = facts_of(pos);
    pos.undo_null_move(undo);
    return f;
  }
  pos.do_move(m, undo);
  uint8_t f = facts_of(pos);
  pos.undo_move(m, undo);
  return f;
}

}  // namespace eval
