#include "render/game_walk.h"

#include "chess/position.h"
#include "chess/san.h"
#include "db/errors.h"
#include "db/stored_move.h"

namespace render {

namespace {

/// The squares a move is shown on: castling (stored king-takes-rook) as the king's move.
void shown_squares(chess::Move m, chess::Square& from, chess::Square& to) {
  from = m.from_sq();
  to = m.to_sq();
  if (m.kind() == chess::Move::CASTLING) {
    const chess::File f = to > from ? chess::FILE_G : chess::FILE_C;
    to = chess::make_square(f, chess::rank_of(from));
  }
}

/// One open line while walking: where its moves go and the positions around its last move.
struct Frame {
  WalkLine* line;
  std::vector<uint32_t> prefix;  // path elements before the ply inside this line
  uint32_t first_ply;            // ply (in path terms) of the line's start position (0)
  chess::Position before_last;   // position before the line's last move
  chess::Position current;       // position after the line's last move
};

}  // namespace

std::string path_text(const std::vector<uint32_t>& path) {
  std::string text;
  for (size_t i = 0; i < path.size(); ++i) text += (i ? "." : "") + std::to_string(path[i]);
  return text;
}

GameWalk walk_game(const db::RecordView& record) {
  GameWalk walk;
  const chess::Position start = db::start_position(record);
  walk.start_fen = start.fen();
  walk.chess960 = record.chess960();
  walk.fens.push_back(walk.start_fen);
  std::vector<Frame> stack;
  stack.push_back({&walk.main, {}, 0, start, start});
  for (const db::Token& token : record.tokens()) {
    Frame& frame = stack.back();
    switch (token.kind) {
      case db::TokenKind::kMove: {
        WalkMove move;
        chess::Position& pos = frame.current;
        if (!db::is_playable_stored(pos, token.move))
          throw db::CorruptRecord("a stored move is illegal on its board");
        move.white = pos.side_to_move() == chess::WHITE;
        move.move_number = pos.fullmove_number();
        move.san = chess::to_san(pos, token.move);
        move.uci = token.move == chess::Move::null() ? "0000" : chess::to_uci(token.move, pos);
        if (token.move != chess::Move::null()) shown_squares(token.move, move.from, move.to);
        frame.before_last = pos;
        chess::UndoInfo undo;
        const uint32_t ply = frame.first_ply + uint32_t(frame.line->moves.size()) + 1;
        db::play_stored(pos, token.move, undo, ply);
        move.fen = pos.fen();
        move.path = frame.prefix;
        move.path.push_back(ply);
        if (stack.size() == 1) walk.fens.push_back(move.fen);
        frame.line->moves.push_back(std::move(move));
        break;
      }
      case db::TokenKind::kBeginVariation: {
        if (frame.line->moves.empty()) throw db::CorruptRecord("a variation before any move");
        WalkMove& replaced = frame.line->moves.back();
        replaced.variations.emplace_back();
        // The branch position: the ply before the replaced move, in its line's terms.
        std::vector<uint32_t> prefix = replaced.path;
        prefix.back() -= 1;
        prefix.push_back(uint32_t(replaced.variations.size()));
        const chess::Position branch = frame.before_last;
        stack.push_back({&replaced.variations.back(), std::move(prefix), 0, branch, branch});
        break;
      }
      case db::TokenKind::kEndVariation:
        if (stack.size() > 1) stack.pop_back();
        break;
      case db::TokenKind::kComment:
        if (!frame.line->moves.empty()) {
          std::string& c = frame.line->moves.back().comment;
          c += (c.empty() ? "" : " ") + std::string(token.comment);
        }
        break;
      case db::TokenKind::kCommentBefore: {
        std::string& c = frame.line->comment_before;
        c += (c.empty() ? "" : " ") + std::string(token.comment);
        break;
      }
      case db::TokenKind::kNag:
        if (!frame.line->moves.empty()) frame.line->moves.back().nags.push_back(token.nag);
        break;
    }
  }
  return walk;
}

}  // namespace render
