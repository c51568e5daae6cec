// Perft node counting (see perft.h).
#include "chess/perft.h"

#include "chess/movegen.h"

namespace chess {

uint64_t perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  generate_legal(pos, list);
  if (depth == 1) return list.size();  // bulk counting: the leaves need no make/unmake
  uint64_t nodes = 0;
  UndoInfo u;
  for (Move m : list) {
    pos.do_move(m, u);
    nodes += perft(pos, depth - 1);
    pos.undo_move(m, u);
  }
  return nodes;
}

std::vector<std::pair<Move, uint64_t>> perft_divide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> result;
  MoveList list;
  generate_legal(pos, list);
  UndoInfo u;
  for (Move m : list) {
    pos.do_move(m, u);
    result.emplace_back(m, perft(pos, depth - 1));
    pos.undo_move(m, u);
  }
  return result;
}

}  // namespace chess
