// Legal move generation (standard chess and Chess960).
#pragma once

#include <cstddef>

#include "chess/position.h"
#include "chess/types.h"

namespace chess {

/// A stack-allocated list of moves. 256 entries exceed the largest number of legal moves
/// in any chess position (218).
struct MoveList {
  static constexpr size_t CAPACITY = 256;

  Move moves[CAPACITY];
  size_t count = 0;

  void push_back(Move m) {
    assert(count < CAPACITY);
    moves[count++] = m;
  }
  void clear() { count = 0; }
  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  Move operator[](size_t i) const {
    assert(i < count);
    return moves[i];
  }
  const Move* begin() const { return moves; }
  const Move* end() const { return moves + count; }
  Move* begin() { return moves; }
  Move* end() { return moves + count; }
  /// True if `m` is in the list (linear scan).
  bool contains(Move m) const {
    for (Move x : *this)
      if (x == m) return true;
    return false;
  }
};

/// Appends every legal move of the side to move to `list` (which is not cleared first).
/// Order: king moves, castling, knights, bishops, rooks, queens, pawns. Promotions come as
/// four moves (queen, rook, bishop, knight).
void generate_legal(const Position& pos, MoveList& list);

/// True if the side to move has at least one legal move (stops at the first one found).
/// With in_check(): false means checkmate, and without check false means stalemate.
bool has_legal_move(const Position& pos);

}  // namespace chess
