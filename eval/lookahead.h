// Lookahead facts: what the next move of the line does to the board (CQL-S "Move keywords"
// :ischeck :iscontactcheck :isdoublecheck :ismate :isstalemate). GameMatcher computes them
// once per position, and only for programs that use them, by playing the next move on its
// own board and taking it back; nodes then read the bits from PosCtx::next_facts.
#pragma once

#include <cstdint>

#include "chess/position.h"
#include "chess/types.h"

namespace eval {

/// Bits of PosCtx::next_facts: properties of the position reached by the next move.
namespace next_fact {
inline constexpr uint8_t kCheck = 1;         ///< the side to move there is in check
inline constexpr uint8_t kContactCheck = 2;  ///< ... by a contact check (is_contact_check)
inline constexpr uint8_t kDoubleCheck = 4;   ///< ... by two pieces
inline constexpr uint8_t kMate = 8;          ///< ... and checkmated
inline constexpr uint8_t kStalemate = 16;    ///< not in check and without a legal move
}  // namespace next_fact

/// The next_fact bits of the position reached by playing `m` (a legal move or
/// chess::Move::null()) in `pos`. `pos` is changed during the call and restored before it
/// returns. Precondition: `m` is legal in `pos` (a null move only when not in check).
uint8_t next_move_facts(chess::Position& pos, chess::Move m);

}  // namespace eval
