#include "eval/variation_walker.h"

#include <algorithm>

#include "db/errors.h"
#include "eval/lookahead.h"

namespace eval {

namespace {

/// Throws db::CorruptRecord unless the stored move `m` can be played on `pos`
/// (is_playable_stored).
void check_stored(const chess::Position& pos, chess::Move m) {
  if (!is_playable_stored(pos, m))
    throw db::CorruptRecord(m == chess::Move::null() ? "stored null move while in check"
                                                     : "stored variation move is illegal on its board");
}

/// Plays `m`, accepted by check_stored(), on `pos`; the promoted-piece marks and check
/// counts follow.
void play(chess::Position& pos, chess::Bitboard& promoted, uint16_t* checks_given, chess::Move m) {
  chess::UndoInfo undo;
  if (m == chess::Move::null()) {
    pos.do_null_move(undo);
    return;
  }
  promoted = update_promoted(promoted, m);
  chess::Color mover = pos.side_to_move();
  pos.do_move(m, undo);
  if (pos.in_check()) ++checks_given[mover];
}

}  // namespace

void VariationWalker::walk(const db::RecordView& record, const chess::Position& start,
                           const PosCtx& base, bool lookahead, bool repetition,
                           const std::function<void(std::span<const PosCtx>)>& on_line) {
  if (!record.has_variations()) return;
  size_t depth = 0;  // frames_[0..depth] are open
  uint32_t serial = 0;  // variations begun so far (PosCtx::variation_serial)
  if (frames_.empty()) frames_.resize(1);
  {
    Frame& main = frames_[0];
    main.cur = State{start, 0, 0, {0, 0}, 1};
    main.prev = main.cur;
    main.keys.assign(1, start.key());
    main.variations_here = 0;
  }
  // Appends the frame's current position to its line (variations only).
  auto collect = [&](Frame& f) {
    PosCtx c = base;
    c.promoted = f.cur.promoted;
    c.ply = f.cur.ply;
    c.checks_given[0] = f.cur.checks_given[0];
    c.checks_given[1] = f.cur.checks_given[1];
    c.material_new = f.cur.material_new;
    c.next = chess::Move::none();
    c.next_facts = 0;
    c.inside_variation = true;
    c.branch_of_main_line = depth == 1 && f.line.empty();
    c.variation_serial = f.serial;
    if (repetition) {
      const chess::Key key = f.cur.pos.key();
      uint32_t n = 0;
      int last = int(f.cur.keys) - 1;
      int back = std::min<int>(f.cur.pos.rule50_count(), last);
      for (int j = last; j >= last - back; j -= 2) n += f.keys[size_t(j)] == key;
      c.occurrences = n;
    }
    f.positions.push_back(f.cur.pos);
    f.line.push_back(c);
  };
  for (const db::Token& t : record.tokens()) {
    switch (t.kind) {
      case db::TokenKind::kMove: {
        Frame& f = frames_[depth];
        check_stored(f.cur.pos, t.move);
        if (depth > 0) {  // the last collected position gets its next move
          f.line.back().next = t.move;
          if (lookahead) f.line.back().next_facts = next_move_facts(f.positions.back(), t.move);
          f.moves.push_back(t.move);
        }
        f.prev = f.cur;
        f.variations_here = 0;  // later variations are alternatives to this move
        f.cur.material_new = t.move != chess::Move::null() &&
                             (t.move.kind() == chess::Move::PROMOTION || f.cur.pos.is_capture(t.move));
        play(f.cur.pos, f.cur.promoted, f.cur.checks_given, t.move);
        ++f.cur.ply;
        f.keys.resize(f.prev.keys);
        f.keys.push_back(f.cur.pos.key());
        f.cur.keys = f.keys.size();
        if (depth > 0) collect(f);
        break;
      }
      case db::TokenKind::kBeginVariation: {
        ++depth;
        if (frames_.size() <= depth) frames_.resize(depth + 1);
        Frame& parent = frames_[depth - 1];
        Frame& f = frames_[depth];
        f.cur = parent.prev;
        f.prev = f.cur;
        f.keys.assign(parent.keys.begin(), parent.keys.begin() + std::ptrdiff_t(parent.prev.keys));
        f.positions.clear();
        f.line.clear();
        f.moves.clear();
        // the ply path: the parent's, then the branch ply inside the parent (the position
        // before its last move) and this variation's number among those of that move
        f.path = parent.path;
        f.path.push_back(parent.prev.ply - (depth == 1 ? 0 : parent.line[0].ply));
        f.path.push_back(++parent.variations_here);
        f.variations_here = 0;
        f.serial = ++serial;
        collect(f);  // the branch position, whose next move is the variation's first
        break;
      }
      case db::TokenKind::kEndVariation: {
        Frame& f = frames_[depth];
        const uint32_t last = f.line.back().ply;
        for (size_t i = 0; i < f.line.size(); ++i) {
          f.line[i].pos = &f.positions[i];
          f.line[i].last_ply = last;
          f.line[i].line_first_ply = f.line[0].ply;
          f.line[i].last_movenumber = 1 + (start.game_ply() + int(last)) / 2;
          f.line[i].line_moves = f.moves.data() + i;  // :line: the moves from line[i] on
          f.line[i].line_moves_left = uint32_t(f.moves.size() - i);
        }
        reporting_ = depth;
        on_line(f.line);
        --depth;
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace eval
