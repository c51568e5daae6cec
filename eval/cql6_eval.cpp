// CQL 6 filter evaluation (eval/cql6_eval.h). The meaning of each filter follows the CQL 6
// documentation and, where it is silent, CQL 6.2 (SPEC "CQL 6 scripts"; the decisions are
// listed in SPEC-NOTES "CQL 6 scripts: decisions").
#include "eval/cql6_eval.h"
#include "eval/cql6_compare.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <string>
#include <memory>
#include <vector>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "eval/cql6_path.h"
#include "eval/cql6_path_facts.h"
#include "db/record_view.h"
#include "eval/cql6_values.h"
#include "eval/node.h"

namespace eval::cql6_eval {

namespace {

using chess::Bitboard;
using chess::Move;
using chess::Position;
using chess::Square;
using cql6::Kind;
using cql6::Node;
using cql6::Type;

constexpr Bitboard kFileA = chess::FILE_A_BB;
constexpr Bitboard kFileH = chess::FILE_H_BB;
constexpr Bitboard kLightSquares = 0x55AA55AA55AA55AAULL;

/// The squares holding a piece of one of `kinds` (cql6/lexer.h layout: bit colour * 6 +
/// type - 1, then the empty square). Only the kinds present are visited; a whole colour is
/// one read.
Bitboard kinds_bb(const Position& pos, cql6::Kinds kinds) {
  if ((kinds & cql6::kAllKinds) == cql6::kAllKinds) return ~Bitboard(0);
  Bitboard b = (kinds & cql6::kEmptyKind) ? ~pos.pieces() : 0;
  const unsigned white = kinds & cql6::kWhiteKinds, black = (kinds & cql6::kBlackKinds) >> 6;
  if (white == black) {  // the same types of both colours (`[Nn]`, `[Aa]`)
    if (white == cql6::kWhiteKinds) return b | pos.pieces();
    for (unsigned m = white; m; m &= m - 1) b |= pos.pieces(chess::PieceType(std::countr_zero(m) + 1));
    return b;
  }
  if (white == cql6::kWhiteKinds) b |= pos.pieces(chess::WHITE);
  else for (unsigned m = white; m; m &= m - 1) b |= pos.pieces(chess::WHITE, chess::PieceType(std::countr_zero(m) + 1));
  if (black == cql6::kWhiteKinds) b |= pos.pieces(chess::BLACK);
  else for (unsigned m = black; m; m &= m - 1) b |= pos.pieces(chess::BLACK, chess::PieceType(std::countr_zero(m) + 1));
  return b;
}

/// The squares the piece on `s` attacks (none when `s` is empty).
Bitboard attacks_from(const Position& pos, Square s) {
  const chess::Piece pc = pos.piece_on(s);
  if (pc == chess::NO_PIECE) return 0;
  const chess::PieceType pt = chess::PieceType(pc & 7);
  const chess::Color color = chess::Color(pc >> 3);
  if (pt == chess::PAWN) return chess::pawn_attacks_bb(color, s);
  return chess::attacks_bb(pt, s, pos.pieces());
}

/// `b` moved one step in the direction with index `d` (bit d of cql6::Direction).
Bitboard step(Bitboard b, int d) {
  switch (d) {
    case 0: return b << 8;                // up
    case 1: return b >> 8;                // down
    case 2: return (b & ~kFileH) << 1;    // right
    case 3: return (b & ~kFileA) >> 1;    // left
    case 4: return (b & ~kFileH) << 9;    // northeast
    case 5: return (b & ~kFileA) << 7;    // northwest
    case 6: return (b & ~kFileH) >> 7;    // southeast
    default: return (b & ~kFileA) >> 9;   // southwest
  }
}

/// `b` and the squares any number of steps from it in direction `d` (Kogge-Stone fill; the
/// board's edges stop it, nothing else does: CQL 6 directions pass through pieces).
Bitboard fill(Bitboard b, int d) {
  static constexpr int kShift[8] = {8, -8, 1, -1, 9, 7, -7, -9};
  static constexpr Bitboard kNotA = ~chess::FILE_A_BB, kNotH = ~chess::FILE_H_BB;
  static constexpr Bitboard kEntry[8] = {~Bitboard(0), ~Bitboard(0), kNotA, kNotH, kNotA, kNotH, kNotA, kNotH};
  auto sh = [](Bitboard x, int s) { return s > 0 ? x << s : x >> -s; };
  const int s = kShift[d];
  Bitboard pro = kEntry[d];
  b |= pro & sh(b, s);
  pro &= sh(pro, s);
  b |= pro & sh(b, 2 * s);
  pro &= sh(pro, 2 * s);
  b |= pro & sh(b, 4 * s);
  return b;
}

/// The squares lo..hi steps (0 = the square itself) from `b` in the directions `bits`.
Bitboard direction(Bitboard b, uint8_t bits, int64_t lo, int64_t hi) {
  Bitboard out = lo <= 0 ? b : 0;
  if (hi < 0 || hi > 7) hi = 7;
  if (lo <= 1 && hi == 7) {  // every square along the way: one fill per direction
    for (int d = 0; d < 8; ++d)
      if (bits & (1u << d)) out |= step(fill(b, d), d);
    return out;
  }
  for (int d = 0; d < 8; ++d) {
    if (!(bits & (1u << d))) continue;
    Bitboard cur = b;
    for (int64_t k = 1; k <= hi && cur; ++k) {
      cur = step(cur, d);
      if (k >= lo) out |= cur;
    }
  }
  return out;
}

Bitboard file_fill(Bitboard b) {
  b |= b << 8;
  b |= b << 16;
  b |= b << 32;
  b |= b >> 8;
  b |= b >> 16;
  b |= b >> 32;
  return b;
}
Bitboard sideways(Bitboard b) { return ((b & ~kFileH) << 1) | ((b & ~kFileA) >> 1); }
Bitboard above(Bitboard b) {  // squares strictly above some square of b
  b <<= 8;
  b |= b << 8;
  b |= b << 16;
  b |= b << 32;
  return b;
}
Bitboard below(Bitboard b) {
  b >>= 8;
  b |= b >> 8;
  b |= b >> 16;
  b |= b >> 32;
  return b;
}

/// CQL 6.2's pawn sets (its definitions in terms of direction filters, on bitboards).
Bitboard pawn_set(const Position& pos, cql6::PawnSet which) {
  const Bitboard w = pos.pieces(chess::WHITE, chess::PAWN), b = pos.pieces(chess::BLACK, chess::PAWN);
  auto connected = [](Bitboard p) { return p & sideways(file_fill(p)); };
  switch (which) {
    case cql6::PawnSet::kConnected: return connected(w) | connected(b);
    case cql6::PawnSet::kIsolated: return (w | b) & ~(connected(w) | connected(b));
    case cql6::PawnSet::kDoubled: return (w & (above(w) | below(w))) | (b & (above(b) | below(b)));
    case cql6::PawnSet::kPassed: return (w & ~below(b | sideways(b))) | (b & ~above(w | sideways(w)));
    default: return 0;
  }
}

int piece_value(chess::PieceType t) {
  static constexpr int kValues[] = {0, 1, 3, 3, 5, 9, 0};
  return kValues[t];
}

/// CQL 6.2's ray walk: from the square before `from` along direction `d`, matching the sets
/// masks[index..]; returns the squares of the last set reached.
Bitboard ray_walk(Square from, size_t index, const Bitboard* masks, size_t n, int d, Bitboard occupied) {
  Bitboard out = 0;
  Bitboard cur = chess::square_bb(from);
  while (true) {
    cur = step(cur, d);
    if (!cur) return out;
    const bool last = index == n - 1, in = masks[index] & cur, empty = !(occupied & cur);
    if (last) {
      if (in) out |= cur;
      if (!empty) return out;
    } else if (in && empty) {
      out |= ray_walk(chess::lsb(cur), index + 1, masks, n, d, occupied);
    } else if (in) {
      ++index;
    } else if (!empty) {
      return out;
    }
  }
}

bool ray_direction_fits(chess::PieceType pt, int d) {
  const bool diagonal = d >= 4;
  if (pt == chess::ROOK) return !diagonal;
  if (pt == chess::BISHOP) return diagonal;
  return pt == chess::QUEEN;
}

Bitboard ray(const Node& n, const Ctx& c) {
  Bitboard masks[16];
  const size_t count = std::min<size_t>(n.kids.size(), 16);
  for (size_t i = 0; i < count; ++i) {
    masks[i] = squares(n.kids[i], c);
    if (!masks[i]) return 0;
  }
  const Position& pos = *c.pos;
  const Bitboard occupied = pos.pieces();
  const bool attack = n.flags & cql6::kXray;
  Bitboard out = 0;
  for (Bitboard s = masks[0]; s;) {
    const Square sq = chess::pop_lsb(s);
    const chess::Piece pc = pos.piece_on(sq);
    for (int d = 0; d < 8; ++d) {
      if (!(n.sub & (1u << d))) continue;
      if (attack && (pc == chess::NO_PIECE || !ray_direction_fits(chess::PieceType(pc & 7), d))) continue;
      const Bitboard reached = ray_walk(sq, 1, masks, count, d, occupied);
      if (n.flags & cql6::kRayReturnFirst) {
        if (reached) out |= chess::square_bb(sq);
      } else {
        out |= reached;
      }
    }
  }
  return out;
}

Bitboard pin(const Node& n, const Ctx& c) {
  const Position& pos = *c.pos;
  const Bitboard from = n.kids[0].kind == Kind::kNone ? ~Bitboard(0) : squares(n.kids[0], c);
  const Bitboard through = n.kids[1].kind == Kind::kNone ? ~Bitboard(0) : squares(n.kids[1], c);
  const Bitboard to = n.kids[2].kind == Kind::kNone ? pos.pieces(chess::KING) : squares(n.kids[2], c);
  if (!from || !through || !to) return 0;
  const Bitboard occupied = pos.pieces();
  Bitboard from_out = 0, through_out = 0, to_out = 0;
  for (int color = 0; color < 2; ++color) {
    const chess::Color us = chess::Color(color), them = chess::Color(1 - color);
    const Bitboard pinners = from & pos.pieces(us), pinned = through & pos.pieces(them);
    const Bitboard targets = to & (pos.pieces(them) | ~occupied);
    if (!pinned || !targets) continue;
    for (Bitboard s = pinners; s;) {
      const Square sq = chess::pop_lsb(s);
      const chess::PieceType pt = chess::PieceType(pos.piece_on(sq) & 7);
      Bitboard lines = 0;
      if (pt == chess::ROOK || pt == chess::QUEEN) lines |= chess::pseudo_attacks_bb(chess::ROOK, sq);
      if (pt == chess::BISHOP || pt == chess::QUEEN) lines |= chess::pseudo_attacks_bb(chess::BISHOP, sq);
      if (!(lines & targets) || !(lines & pinned)) continue;
      for (Bitboard t = lines & targets; t;) {
        const Square tq = chess::pop_lsb(t);
        const Bitboard between = chess::between_bb(sq, tq);
        const Bitboard p = pinned & between;
        if (!p || chess::popcount(between & occupied) > 1) continue;
        from_out |= chess::square_bb(sq);
        through_out |= p;
        to_out |= chess::square_bb(tq);
      }
    }
  }
  return n.sub == 0 ? from_out : n.sub == 2 ? to_out : through_out;
}

// ---- earlier positions of the main line (move previous, line <--)

/// Per thread: the main line of the game being searched as replayed so far. Entries are
/// reused as they are for the same game (PosCtx::game, the same moves); otherwise (another
/// game, or no serial) only the prefix that agrees with the caller's moves is kept.
struct History {
  std::vector<Position> positions;  // positions[k]: the position at ply k
  std::vector<Move> moves;          // moves[k]: the move from positions[k]
  uint64_t game = 0;                // serial of the game they belong to (0: check the moves)
};

/// The position `back` plies before `c` on the main line (1 <= back <= c.past); null when
/// the game's start is unknown.
const Position* earlier(const Ctx& c, uint32_t back) {
  thread_local History h;
  if (!c.start || back > c.past || back > c.ply) return nullptr;
  const uint32_t target = c.ply - back;
  if (c.game == 0 || h.game != c.game) {
    // keep the prefix that agrees with this game's moves
    size_t keep = 0;
    if (!h.positions.empty() && h.positions[0].key() == c.start->key()) {
      keep = 1;
      while (keep < h.positions.size() && keep <= c.ply && h.moves[keep - 1] == c.moves[int64_t(keep - 1) - int64_t(c.ply)])
        ++keep;
    }
    if (keep == 0) {
      h.positions.assign(1, *c.start);
      h.moves.clear();
      keep = 1;
    }
    h.positions.resize(keep);
    h.moves.resize(keep - 1);
    h.game = c.game;
  }
  while (h.positions.size() <= target) {
    const size_t k = h.positions.size() - 1;
    const Move m = c.moves[int64_t(k) - int64_t(c.ply)];
    h.positions.push_back(h.positions[k]);
    chess::UndoInfo u;
    if (m == Move::null()) h.positions.back().do_null_move(u);
    else h.positions.back().do_move(m, u);
    h.moves.push_back(m);
  }
  return &h.positions[target];
}

/// The context `k` plies after `c` on its line, with its position stored in `slot`.
Ctx later(const Ctx& c, uint32_t k, const Position* pos) {
  Ctx n = c;
  n.pos = pos;
  n.ply = c.ply + k;
  n.moves = c.moves ? c.moves + k : nullptr;
  n.moves_left = c.moves_left - k;
  n.next = n.moves_left ? n.moves[0] : Move::none();
  n.past = c.past + k;
  if (k) n.next_secondary = false, n.on_main_line = n.main_line;  // past a branch position: its line's
  return n;
}

// ---- moves

/// True if move `m` goes from a square of `from` to one of `to` as a CQL 6.2 dash sees it: a
/// castling fits as the king's move or as the rook's (the move filter looks at the king's alone).
bool move_fits(const Position& pos, Move m, Bitboard from, Bitboard to) {
  if (m == Move::null() || m == Move::none()) return false;
  if (m.kind() == Move::CASTLING) {
    const Square king = m.from_sq(), rook = m.to_sq();
    const bool king_side = rook > king;
    const chess::Color us = pos.side_to_move();
    const chess::CastlingRight cr = chess::castling_right(us, king_side);
    const bool by_king = (from & chess::square_bb(king)) && (to & chess::square_bb(Position::castling_king_to(cr)));
    const bool by_rook = (from & chess::square_bb(rook)) && (to & chess::square_bb(Position::castling_rook_to(cr)));
    return by_king || by_rook;
  }
  return (from & chess::square_bb(m.from_sq())) && (to & chess::square_bb(m.to_sq()));
}

/// CQL 6.2's castling of the side to move at `c` to the king's side or the queen's
/// (Attack::castle), as the move (king's square, rook's square), or Move::none(): the king on
/// e1/e8 and its rook on the corner, the squares between them empty, neither the king's
/// square nor the one it crosses nor its destination attacked, and no earlier move of the
/// game ending on the king's or the rook's square. That last test stands for the castling
/// rights: CQL 6.2 does not read them from a FEN, so a study set up without them may still
/// castle. Where the rights are kept (pos.can_castle) the two tests agree; a game from a FEN
/// without the right is looked at through its earlier moves, which only the main line has
/// (a variation of such a game: no castling).
Move may_castle(const Ctx& c, bool king_side) {
  const Position& pos = *c.pos;
  const chess::Color us = pos.side_to_move();
  const chess::CastlingRight cr = chess::castling_right(us, king_side);
  if (pos.can_castle(cr)) {
    const Move m = Move::make(pos.king_square(us), pos.castling_rook_square(cr), Move::CASTLING);
    return pos.is_legal(m) ? m : Move::none();
  }
  if (!c.game_start || c.game_start->can_castle(cr) || !c.main_line || c.past != c.ply || (c.past && !c.moves))
    return Move::none();  // lost in the game (a move ended on the king's or rook's square)
  const Square king = us == chess::WHITE ? chess::SQ_E1 : chess::SQ_E8;
  const Square rook = king_side ? Square(king + 3) : Square(king - 4);
  if (pos.piece_on(king) != chess::make_piece(us, chess::KING) || pos.piece_on(rook) != chess::make_piece(us, chess::ROOK))
    return Move::none();
  if (chess::between_bb(king, rook) & pos.pieces()) return Move::none();
  const Square crossed = king_side ? Square(king + 1) : Square(king - 1);
  const Square dest = king_side ? Square(king + 2) : Square(king - 2);
  for (const Square s : {king, crossed, dest})
    if (pos.attackers_of(chess::Color(1 - us), s, pos.pieces())) return Move::none();
  for (uint32_t i = 1; i <= c.past; ++i) {
    const Move m = c.moves[-int64_t(i)];
    if (m == Move::null() || m == Move::none()) continue;
    Square to = m.to_sq();  // a castling ends on the king's destination (CQL 6.2's move)
    if (m.kind() == Move::CASTLING) to = m.to_sq() > m.from_sq() ? Square(m.from_sq() + 2) : Square(m.from_sq() - 2);
    if (to == king || to == rook) return Move::none();
  }
  return Move::make(king, rook, Move::CASTLING);
}

/// Calls `f(m)` for the pseudo-legal moves of the side to move (legal ones plus those leaving
/// the king in check; castling only where legal) that may satisfy a move filter: a move
/// other than castling only from a square of `origin` to one of `dest`, an en passant
/// capture only when `ep` (its destination is also in `dest`); the castlings `castles`
/// (Move::none() for none: may_castle). Nothing else is filtered: the caller applies the
/// filter to each move. Stops when `f` returns true and then returns true.
template <class F>
bool for_each_pseudo_legal(const Position& pos, Bitboard origin, Bitboard dest, bool ep, const std::array<Move, 2>& castles,
                           F&& f) {
  const chess::Color us = pos.side_to_move(), them = chess::Color(1 - us);
  const Bitboard own = pos.pieces(us), occupied = pos.pieces();
  dest &= ~own;
  for (const Move m : castles)
    if (m != Move::none() && f(m)) return true;
  origin &= own;
  if (!origin || (!dest && !ep)) return false;
  const Bitboard pawns = origin & pos.pieces(chess::PAWN);
  for (Bitboard s = origin & ~pawns; s;) {
    const Square sq = chess::pop_lsb(s);
    const chess::PieceType pt = chess::PieceType(pos.piece_on(sq) & 7);
    for (Bitboard t = chess::attacks_bb(pt, sq, occupied) & dest; t;)
      if (f(Move(sq, chess::pop_lsb(t)))) return true;
  }
  if (!pawns) return false;
  const Bitboard start_rank = us == chess::WHITE ? chess::rank_bb(chess::RANK_2) : chess::rank_bb(chess::RANK_7);
  const Square ep_square = ep ? pos.ep_square() : chess::SQ_NONE;
  for (Bitboard s = pawns; s;) {
    const Square sq = chess::pop_lsb(s);
    const Bitboard attacks = chess::pawn_attacks_bb(us, sq);
    if (ep_square != chess::SQ_NONE && (attacks & chess::square_bb(ep_square)) &&
        f(Move::make(sq, ep_square, Move::EN_PASSANT)))
      return true;
    Bitboard targets = attacks & pos.pieces(them);
    const Bitboard one = chess::shift_forward(us, chess::square_bb(sq)) & ~occupied;
    targets |= one;
    if (one && (chess::square_bb(sq) & start_rank)) targets |= chess::shift_forward(us, one) & ~occupied;
    for (Bitboard t = targets & dest; t;) {
      const Square to = chess::pop_lsb(t);
      if (chess::square_bb(to) & (chess::RANK_1_BB | chess::RANK_8_BB)) {
        for (chess::PieceType p : {chess::QUEEN, chess::ROOK, chess::BISHOP, chess::KNIGHT})
          if (f(Move::make(sq, to, Move::PROMOTION, p))) return true;
      } else if (f(Move(sq, to))) {
        return true;
      }
    }
  }
  return false;
}

/// True if `m` (from `before`) satisfies the parameters of the move filter `n`, whose sets
/// are `from`, `to`, `cap` (all squares when absent).
bool move_satisfies(const Node& n, const Position& before, Move m, Bitboard from, Bitboard to, Bitboard cap) {
  const uint32_t f = n.flags;
  if (m == Move::none()) return false;
  if (m == Move::null()) {  // CQL 6.2: from the mover's king square to itself, capturing nothing
    if (n.kids[2].kind != Kind::kNone || n.kids[3].kind != Kind::kNone ||
        (f & (cql6::kMoveCastle | cql6::kMoveKingSide | cql6::kMoveQueenSide | cql6::kMoveEnPassant)))
      return false;
    const Bitboard king = before.pieces(before.side_to_move(), chess::KING);
    return (from & king) && (to & king);
  }
  if (f & cql6::kMoveNull) return false;
  if ((f & cql6::kMoveCastle) && m.kind() != Move::CASTLING) return false;
  if ((f & (cql6::kMoveKingSide | cql6::kMoveQueenSide)) &&
      ((m.to_sq() > m.from_sq()) != bool(f & cql6::kMoveKingSide)))
    return false;
  if ((f & cql6::kMoveEnPassant) && m.kind() != Move::EN_PASSANT) return false;
  if (m.kind() == Move::CASTLING) {  // CQL 6.2's move filter: the king's move alone (a dash's: both)
    const Square king_to = Position::castling_king_to(chess::castling_right(before.side_to_move(), m.to_sq() > m.from_sq()));
    if (!(from & chess::square_bb(m.from_sq())) || !(to & chess::square_bb(king_to))) return false;
  } else if (!move_fits(before, m, from, to)) {
    return false;
  }
  if (n.kids[2].kind != Kind::kNone) {
    const int cs = cql6_path_facts::captured_square(before, m);
    if (cs == 64 || !(cap & chess::square_bb(Square(cs)))) return false;
  }
  if (n.kids[3].kind != Kind::kNone) {
    if (m.kind() != Move::PROMOTION) return false;
    const int t = m.promotion_type() - 1;
    if (!(n.kids[3].kinds & ((1u << t) | (1u << (6 + t))))) return false;
  }
  return true;
}

/// The square of move `m` (played in `pos`) that a `move` set returns (sub 1 from, 2 to, 3
/// the captured piece's); a castling is the king's move (CQL 6.2). 64: none.
int move_square(const Position& pos, Move m, uint8_t sub) {
  if (m == Move::none()) return 64;
  if (m == Move::null()) {  // from the mover's king square to itself (CQL 6.2)
    const Bitboard king = pos.pieces(pos.side_to_move(), chess::KING);
    return sub == 3 || !king ? 64 : chess::lsb(king);
  }
  if (sub == 3) return cql6_path_facts::captured_square(pos, m);
  if (sub == 1) return m.from_sq();
  if (m.kind() != Move::CASTLING) return m.to_sq();
  return Position::castling_king_to(chess::castling_right(pos.side_to_move(), m.to_sq() > m.from_sq()));
}

/// The context after c.next is played from `c` (a null move too). `after` holds a copy of
/// c's position: the move is made on it and the returned Ctx points at it; the line's moves
/// advance by one, and the tree node is the first child (CQL 6.2's numbering).
Ctx after_next(const Ctx& c, Position& after) {
  chess::UndoInfo u;
  if (c.next == Move::null()) after.do_null_move(u);
  else after.do_move(c.next, u);
  Ctx at = c;
  at.pos = &after;
  at.ply = c.ply + 1;
  at.past = c.past + 1;
  at.on_main_line = at.main_line;
  at.moves = c.moves ? c.moves + 1 : nullptr;
  at.moves_left = c.moves_left ? c.moves_left - 1 : 0;
  at.next = at.moves_left ? at.moves[0] : Move::none();
  at.node = c.node >= 0 && !c.next_secondary ? c.node + 1 : -1;
  at.next_secondary = false;
  return at;
}

/// The game-tree children of c's position (node ids of `tree`, the main continuation
/// first) when the script walks a game tree (`variations`, part 2) and more than one move
/// is played from there; null otherwise (then c.next is the only move).
const std::vector<uint32_t>* branching_children(const Ctx& c, cql6_values::TreeRef& tree) {
  int64_t node = -1;
  if (!cql6_values::tree_of(c, tree, node) || (*tree.children)[size_t(node)].size() < 2) return nullptr;
  return &(*tree.children)[size_t(node)];
}

/// The number of moves satisfying the move filter `n` at `c` (stops at 1 unless counting);
/// with `set` (a `move from|to|capture` set, n.sub) every fitting move is looked at and the
/// squares it returns are added to *set.
int64_t moves_matching(const Node& n, const Ctx& c, Bitboard* set = nullptr) {
  const bool count = (n.flags & cql6::kMoveCount) || set;
  const Position* before = c.pos;
  Ctx at = c;
  if ((n.flags & cql6::kMovePrevious) && cql6::past_move_kind_only(n)) {
    // `castle`, `enpassant`, `nullmove`, a dash's `(o-o)`: the last move alone (also inside a
    // variation, whose earlier positions are not replayed)
    if (c.past == 0 || !c.moves) return 0;
    return move_satisfies(n, *c.pos, c.moves[-1], ~Bitboard(0), ~Bitboard(0), ~Bitboard(0)) ? 1 : 0;
  }
  Move last = Move::none();  // `previous`: the move that led here
  if (n.flags & cql6::kMovePrevious) {
    if (c.main_line) {
      before = earlier(c, 1);
      if (!before) return 0;
      last = c.moves[-1];
      at.pos = before;  // the sets are read in the position before the move
      // a piece variable there is the square its piece stood on then (CQL 6.2)
      if ((cql6_values::reads_piece_variable(n.kids[0]) || cql6_values::reads_piece_variable(n.kids[1]) ||
           cql6_values::reads_piece_variable(n.kids[2])) &&
          !cql6_values::previous_ctx(c, at))
        return 0;
    } else {  // inside a variation (`variations`): the game tree's parent and the move from it
      cql6_values::TreeRef tree;
      int64_t node = -1;
      if (!cql6_values::tree_of(c, tree, node) || node <= 0 || !cql6_values::previous_ctx(c, at)) return 0;
      before = at.pos;
      last = (*tree.in_move)[size_t(node)];
    }
  }
  auto set_or_all = [&](const Node& k) { return k.kind == Kind::kNone ? ~Bitboard(0) : squares(k, at); };
  const Bitboard from = set_or_all(n.kids[0]), to = set_or_all(n.kids[1]), cap = set_or_all(n.kids[2]);
  if (!from || !to || !cap) return 0;
  if (n.flags & cql6::kMovePrevious) {
    if (!move_satisfies(n, *before, last, from, to, cap)) return 0;
    if (set && move_square(*before, last, n.sub) < 64) *set |= Bitboard(1) << move_square(*before, last, n.sub);
    if (n.kids.size() > 4) match(n.kids[4], c);  // `comment`: at the move's tail, here
    return 1;
  }
  if (n.flags & (cql6::kMoveLegal | cql6::kMovePseudoLegal)) {
    // Only the moves that may satisfy the filter are made (SPEC-NOTES "CQL 6 scripts:
    // decisions", Moves: the sets decide which moves count; no null move is generated).
    const Position& pos = *c.pos;
    const uint32_t f = n.flags;
    if (f & cql6::kMoveNull) return 0;
    const chess::Color us = pos.side_to_move(), them = chess::Color(1 - us);
    const bool capture = n.kids[2].kind != Kind::kNone, promote = n.kids[3].kind != Kind::kNone;
    std::array<Move, 2> castles{Move::none(), Move::none()};
    if (!capture && !promote && !(f & cql6::kMoveEnPassant)) castles = {may_castle(c, true), may_castle(c, false)};
    Bitboard origin = from, dest = to;
    // en passant: onto the en passant square, capturing the pawn beyond it; never at the
    // game's first position (CQL 6.2 reads the previous move, not a FEN's square)
    bool ep = c.ply > 0 && pos.ep_square() != chess::SQ_NONE && !promote && (to & chess::square_bb(pos.ep_square())) &&
              (cap & chess::square_bb(Square(pos.ep_square() ^ 8)));
    if (f & cql6::kMoveCastle) origin = dest = 0, ep = false;
    if (f & cql6::kMoveEnPassant) dest = 0;
    if (capture) dest &= cap & pos.pieces(them);
    if (promote) {
      origin &= pos.pieces(us, chess::PAWN) &
                (us == chess::WHITE ? chess::rank_bb(chess::RANK_7) : chess::rank_bb(chess::RANK_2));
      dest &= chess::RANK_1_BB | chess::RANK_8_BB;
    }
    const bool legal = f & cql6::kMoveLegal;
    if (legal) dest &= ~pos.pieces(them, chess::KING);  // never a king capture (chess/movegen.cpp)
    int64_t found = 0;
    for_each_pseudo_legal(pos, origin, dest, ep, castles, [&](Move m) {
      if (!move_satisfies(n, pos, m, from, to, cap)) return false;
      if ((f & cql6::kMoveCountSquares) && m.kind() == Move::PROMOTION && m.promotion_type() != chess::QUEEN)
        return false;  // CQL 6.2's `legal --` counts a promotion's squares once
      if (legal && m.kind() != Move::CASTLING && !pos.is_legal(m)) return false;
      ++found;
      if (set && move_square(pos, m, n.sub) < 64) *set |= Bitboard(1) << move_square(pos, m, n.sub);
      return !count;
    });
    return found;
  }
  {  // a game tree (`variations`, part 2): every move played from this node (CQL 6.2)
    cql6_values::TreeRef tree;
    if (const std::vector<uint32_t>* branches = branching_children(c, tree)) {
      const std::vector<uint32_t>& kids = *branches;
      int64_t found = 0;
      for (size_t i = 0; i < kids.size(); ++i) {
        const Move m = (*tree.in_move)[kids[i]];
        if (!move_satisfies(n, *c.pos, m, from, to, cap)) continue;
        if ((n.flags & (cql6::kMovePrimary | cql6::kMoveSecondary)) && (i > 0) != bool(n.flags & cql6::kMoveSecondary))
          continue;
        ++found;
        if (set && move_square(*c.pos, m, n.sub) < 64) *set |= Bitboard(1) << move_square(*c.pos, m, n.sub);
        if (n.kids.size() > 4) {
          Ctx after;
          if (cql6_values::tree_ctx(c, kids[i], after)) match(n.kids[4], after);
        }
        if (!count) break;
      }
      return found;
    }
  }
  if (!move_satisfies(n, *c.pos, c.next, from, to, cap)) return 0;
  if ((n.flags & (cql6::kMovePrimary | cql6::kMoveSecondary)) &&
      next_is_secondary(c) != bool(n.flags & cql6::kMoveSecondary))
    return 0;  // `move primary` / `move secondary`
  if (set && move_square(*c.pos, c.next, n.sub) < 64) *set |= Bitboard(1) << move_square(*c.pos, c.next, n.sub);
  if (n.kids.size() > 4) {  // `comment`: at the position after the move (CQL 6.2 movebase)
    Position after = *c.pos;
    match(n.kids[4], after_next(c, after));
  }
  return 1;
}

/// The sets of the dash whose target is being evaluated (CQL 6.2: `from` / `to` there are
/// owned by the dash: a castling's squares are those of the piece its sets name).
struct DashSets {
  bool active = false;
  Bitboard from = 0, to = 0;
};
thread_local DashSets t_dash_sets;

/// The dash `n` played from `c` (its move c.next fits): calls `f(ctx after the move)` for
/// its target and returns what it returns (true without a target).
template <class F>
bool dash_then(const Node& n, const Ctx& c, F&& f) {
  {  // a game tree (`variations`, part 2): the first move played from this node that fits
    cql6_values::TreeRef tree;
    if (const std::vector<uint32_t>* branches = branching_children(c, tree)) {
      const std::vector<uint32_t>& kids = *branches;
      for (size_t i = 0; i < kids.size(); ++i) {
        Ctx from = c;
        from.next = (*tree.in_move)[kids[i]];
        from.next_secondary = i > 0;
        if (!dash_fits(n, from, from.next)) continue;
        if (n.kids.size() < 3 || n.kids[2].kind == Kind::kNone) return f(nullptr);
        Ctx at;
        if (!cql6_values::tree_ctx(c, kids[i], at)) continue;
        const DashScope scope(n, from);
        if (f(&at)) return true;
      }
      return false;
    }
  }
  if (c.next == Move::none() || !dash_fits(n, c, c.next)) return false;
  if (n.kids.size() < 3 || n.kids[2].kind == Kind::kNone) return f(nullptr);
  Position after = *c.pos;
  const Ctx at = after_next(c, after);
  const DashScope scope(n, c);
  return f(&at);
}

bool dash(const Node& n, const Ctx& c) {
  return dash_then(n, c, [&](const Ctx* at) { return !at || match(n.kids[2], *at); });
}

/// `from` (`from` true) or `to` read right after move `m` of `mover` (whose king stands on
/// `king`): CQL 6.2's squares of the move; a null move goes from the king's square to itself;
/// a castling, the king's and the rook's squares, inside a dash's target only those of the
/// piece the dash's sets name (`R--(from)` after O-O is the rook's square).
Bitboard move_end(Move m, chess::Color mover, Bitboard king, bool from) {
  if (m == Move::none()) return 0;
  if (m == Move::null()) return king;
  if (m.kind() != Move::CASTLING) return chess::square_bb(from ? m.from_sq() : m.to_sq());
  const chess::CastlingRight cr = chess::castling_right(mover, m.to_sq() > m.from_sq());
  const Bitboard king_from = chess::square_bb(m.from_sq()), rook_from = chess::square_bb(m.to_sq());
  const Bitboard king_to = chess::square_bb(Position::castling_king_to(cr));
  const Bitboard rook_to = chess::square_bb(Position::castling_rook_to(cr));
  bool by_king = true, by_rook = true;
  if (t_dash_sets.active) {
    by_king = (t_dash_sets.from & king_from) && (t_dash_sets.to & king_to);
    by_rook = (t_dash_sets.from & rook_from) && (t_dash_sets.to & rook_to);
    if (!by_king && !by_rook) by_king = by_rook = true;
  }
  if (from) return (by_king ? king_from : 0) | (by_rook ? rook_from : 0);
  return (by_king ? king_to : 0) | (by_rook ? rook_to : 0);
}

// ---- `--(from)` / `--(to)` without making the move

/// The `from` / `to` node that is the whole target of dash `n` (`--(from)`), or null.
const Node* from_to_target(const Node& n) {
  if (n.kids.size() < 3 || n.kids[2].kind != Kind::kCompound || n.kids[2].kids.size() != 1) return nullptr;
  const Node& t = n.kids[2].kids[0];
  return t.kind == Kind::kFromSquare || t.kind == Kind::kToSquare ? &t : nullptr;
}

/// squares() of a dash whose target is only `from` or `to`: what the target reads at the
/// position after the move (dash_then(), after_next()), found without copying the board and
/// making the move (the sets are evaluated as often, in the same order: dash_fits(), DashScope).
Bitboard dash_from_to(const Node& n, const Ctx& c, bool from) {
  if (c.next == Move::none() || !dash_fits(n, c, c.next)) return 0;
  const DashScope scope(n, c);
  if (!c.moves) return 0;  // after_next() leaves no line: from / to read nothing
  const chess::Color mover = c.pos->side_to_move();
  return move_end(c.moves[0], mover, c.pos->pieces(mover, chess::KING), from);
}

// ---- line

/// Positions of a forward line, made on demand, and the matcher's memos (per thread, one
/// buffer per line filter). Positions and memo columns are indexed by "cell" = origin +
/// offset (LineState): per evaluation (origin 0, the line's start), or, for a forward line on
/// the main line of a known game without a length range, by absolute ply: a holder's result
/// and whether the rest of the line matches from a ply do not depend on where the line
/// started, so they are kept for every later start in the same game (each computed once
/// per game instead of once per start).
struct LineBuffer {
  std::vector<Position> positions;  // positions[cell]
  uint32_t made_from = 0, made_to = 0;  // positions[made_from, made_to) are made
  uint64_t made_game = 0;               // ... for this game (0: this evaluation only)
  // the memo of holder results: entry holder * span + cell is valid when its stamp is the
  // current one (no clearing between evaluations)
  std::vector<uint32_t> stamps;
  std::vector<uint8_t> results;
  // the memo of the line's top-level sequence: (item index, cell) -> whether the rest of
  // the line matches from there (seq_*), and whether an unbounded repetition of that item
  // that has reached its minimum, then the rest, does (rep_*)
  std::vector<uint32_t> seq_stamps, rep_stamps;
  std::vector<uint8_t> seq_results, rep_results;
  uint32_t stamp = 0;
  uint64_t stamp_game = 0;  // with absolute cells: the game the stamp belongs to
  uint32_t stamp_span = 0;  // ... and the memo row length it was made with
};

struct LineState {
  const Ctx* c;
  const Node* line;
  bool backward;
  uint32_t stride;        // 2 with singlecolor
  LineBuffer* buffer;
  uint32_t origin = 0;    // cell of offset 0 (the current position)
  uint32_t span = 0;      // cells (memo row length): origin + the positions the line may reach
  const std::vector<Node>* top = nullptr;  // the line's top-level constituents
  uint32_t length = 0;    // positions consumed by the match found (CQL 6 sort of a line)
  // a backward line over the game tree (`variations`, part-2 route): the ancestors of `node`
  bool tree = false;
  cql6_values::TreeRef t;
  int64_t node = -1;
};

/// The `k`th ancestor of `node` in the game tree `t` (k = 0: the node itself); -1 past the root.
int64_t ancestor(const cql6_values::TreeRef& t, int64_t node, uint32_t k) {
  for (; k > 0; --k) {
    if (node <= 0) return -1;
    node = int64_t((*t.parent)[size_t(node)]);
  }
  return node;
}

thread_local int64_t t_line_length = 0;  // of the last line that matched (last_line_length())
thread_local int64_t t_line_last = 0;    // ... its last position (last_line_position())

/// The position `k` plies from the line's start (forward or back); null beyond the line.
const Position* line_position(LineState& s, uint32_t k) {
  const Ctx& c = *s.c;
  if (k == 0) return c.pos;
  if (s.backward && s.tree) {
    const int64_t a = ancestor(s.t, s.node, k);
    return a < 0 ? nullptr : &(*s.t.positions)[size_t(a)];
  }
  if (s.backward) return k <= c.past ? earlier(c, k) : nullptr;
  if (k > c.moves_left) return nullptr;
  LineBuffer& b = *s.buffer;
  const uint32_t cell = s.origin + k;
  if (cell < b.made_to) return &b.positions[cell];  // made_from <= origin (line())
  while (b.made_to <= cell) {
    if (b.positions.size() <= b.made_to) b.positions.resize(size_t(b.made_to) + 1);
    b.positions[b.made_to] = b.positions[b.made_to - 1];
    chess::UndoInfo u;
    const Move m = c.moves[b.made_to - 1 - s.origin];
    if (m == Move::null()) b.positions[b.made_to].do_null_move(u);
    else b.positions[b.made_to].do_move(m, u);
    ++b.made_to;
  }
  return &b.positions[cell];
}

/// A continuation of the line matcher: the rest of a sequence, or the rest of a repetition.
struct Cont {
  bool repetition = false;
  const std::vector<Node>* items = nullptr;  // sequence: its items, from index i
  size_t i = 0;
  const Node* item = nullptr;                // repetition: the item, repetitions done, start
  int64_t done = 0;
  uint32_t start = 0;
  const Cont* next = nullptr;
};

bool resume(const Cont* k, uint32_t off, LineState& s);

bool repeat(const Node& item, int64_t done, uint32_t off, const Cont* after, LineState& s);
bool repeat_search(const Node& item, int64_t done, uint32_t off, const Cont* after, LineState& s);

/// One occurrence of `item` at position `off`, then `k`.
bool once(const Node& item, uint32_t off, const Cont* k, LineState& s) {
  if (item.flags & cql6::kLineGroup) {
    Cont inner;
    inner.items = &item.kids;
    inner.next = k;
    return resume(&inner, off, s);
  }
  if (s.origin + off >= s.span) return false;
  const size_t slot = size_t(item.value) * s.span + s.origin + off;  // holders are numbered per line
  if (s.buffer->stamps[slot] == s.buffer->stamp) {
    if (!s.buffer->results[slot]) return false;
    return resume(k, off + s.stride, s);
  }
  const Position* pos = line_position(s, off);
  if (!pos) return false;
  const Ctx& c = *s.c;
  Ctx at = c;
  if (s.backward && s.tree) {
    if (!cql6_values::tree_ctx(c, ancestor(s.t, s.node, off), at)) return false;
  } else if (s.backward) {
    at.pos = pos;
    at.ply = c.ply - off;
    at.moves = c.moves ? c.moves - off : nullptr;
    at.moves_left = c.moves_left + off;
    at.next = off ? c.moves[-int64_t(off)] : c.next;
    at.past = c.past - off;
    if (off) at.on_main_line = at.main_line;
  } else {
    at = later(c, off, pos);
  }
  const bool hit = match(item.kids[0], at);
  s.buffer->stamps[slot] = s.buffer->stamp;
  s.buffer->results[slot] = hit;
  if (!hit) return false;
  return resume(k, off + s.stride, s);
}

bool repeat(const Node& item, int64_t done, uint32_t off, const Cont* after, LineState& s) {
  // an unbounded repetition past its minimum, followed by the rest of the top-level
  // sequence, depends only on (item, offset): memoised
  size_t slot = SIZE_MAX;
  if (item.hi < 0 && done >= item.lo && after && !after->repetition && !after->next && after->items == s.top &&
      s.origin + off < s.span) {
    slot = (after->i - 1) * s.span + s.origin + off;
    if (s.buffer->rep_stamps[slot] == s.buffer->stamp) return s.buffer->rep_results[slot];
  }
  const bool r = repeat_search(item, done, off, after, s);
  if (slot != SIZE_MAX) {
    s.buffer->rep_stamps[slot] = s.buffer->stamp;
    s.buffer->rep_results[slot] = r;
  }
  return r;
}

bool repeat_search(const Node& item, int64_t done, uint32_t off, const Cont* after, LineState& s) {
  if (item.hi < 0 || done < item.hi) {
    Cont again;
    again.repetition = true;
    again.item = &item;
    again.done = done;
    again.start = off;
    again.next = after;
    if (once(item, off, &again, s)) return true;
  }
  return done >= item.lo && resume(after, off, s);
}

bool resume(const Cont* k, uint32_t off, LineState& s) {
  if (!k) {  // the whole line matched; `off` positions (stride apart) were consumed
    s.length = off / s.stride;
    if (!(s.line->flags & cql6::kLineHasRange)) return true;
    const int64_t length = off / s.stride;
    return length >= s.line->lo && (s.line->hi < 0 || length <= s.line->hi);
  }
  if (k->repetition) {
    if (off == k->start) return false;  // no progress: stop the repetition here
    return repeat(*k->item, k->done + 1, off, k->next, s);
  }
  if (k->i == k->items->size()) return resume(k->next, off, s);
  // the rest of the top-level sequence from item i at `off` is memoised
  size_t slot = SIZE_MAX;
  if (!k->next && k->items == s.top && s.origin + off < s.span) {
    slot = k->i * s.span + s.origin + off;
    if (s.buffer->seq_stamps[slot] == s.buffer->stamp) return s.buffer->seq_results[slot];
  }
  Cont after;
  after.items = k->items;
  after.i = k->i + 1;
  after.next = k->next;
  const bool r = repeat((*k->items)[k->i], 0, off, &after, s);
  if (slot != SIZE_MAX) {
    s.buffer->seq_stamps[slot] = s.buffer->stamp;
    s.buffer->seq_results[slot] = r;
  }
  return r;
}

// ---- line over a game tree (`variations`, a game with variations)

/// CQL 6.2's forward line over the game tree (its futurenode): a stack of constituents still
/// to match; a holder that matches at a position continues at every child (with singlecolor
/// every grandchild); a holder is evaluated once per move from the position with `move`
/// reading that move (CQL 6.2 linearises the holder's move filters); a way ends when the
/// rest of the stack can match nothing. The best way ends deepest (the first of equal depth).
struct TreeLine {
  const Node* line = nullptr;
  Ctx start;
  cql6_values::TreeRef t;
  uint32_t stride = 1;
  struct Item {
    const Node* item;
    bool repeating;  // a repetition in progress: `done` occurrences, the last began at `began`
    int64_t done;    // not repeating: kOnce for one occurrence of a repeated constituent
    uint32_t began;
  };
  std::vector<Item> stack;
  bool found = false;
  uint32_t best = 0;
  uint32_t best_ply = 0;
  uint64_t steps = 0;
};

/// TreeLine::Item::done of one occurrence of a constituent with a repeat (`check{1,3}`).
constexpr int64_t kOnce = -1;

/// Past this many steps a tree line stops with what it found (CQL 6.2 has no bound).
constexpr uint64_t kMaxTreeLineSteps = 20'000'000;

/// True if the constituent `item` (a kLineItem) can match no position at all.
bool item_nullable(const Node& item) {
  if (item.lo == 0) return true;
  if (!(item.flags & cql6::kLineGroup)) return false;
  for (const Node& k : item.kids)
    if (!item_nullable(k)) return false;
  return true;
}

bool stack_nullable(const TreeLine& s) {
  for (const TreeLine::Item& it : s.stack) {
    if (it.repeating ? it.done >= it.item->lo || item_nullable(*it.item) : item_nullable(*it.item)) continue;
    if (!it.repeating && it.done == kOnce && (it.item->flags & cql6::kLineGroup) &&
        std::all_of(it.item->kids.begin(), it.item->kids.end(), [](const Node& k) { return item_nullable(k); }))
      continue;  // one occurrence of a group whose parts may all be empty
    return false;
  }
  return true;
}

void tree_line_compute(TreeLine& s, uint32_t node);

/// The holder `f` at `node`, then the rest at the positions after it.
void tree_line_holder(TreeLine& s, const Node& f, uint32_t node) {
  const std::vector<uint32_t>& kids = (*s.t.children)[node];
  Ctx at;
  if (!cql6_values::tree_ctx(s.start, node, at)) return;
  auto merge = [&]() {
    if (!stack_nullable(s)) return;
    const uint32_t ply = at.ply;
    if (!s.found || ply > s.best_ply) {
      s.found = true;
      s.best = node;
      s.best_ply = ply;
    }
  };
  auto descend = [&](uint32_t child) {
    if (s.stack.empty()) return;
    if (s.stride == 1) {
      tree_line_compute(s, child);
      return;
    }
    for (uint32_t g : (*s.t.children)[child]) tree_line_compute(s, g);
  };
  if (kids.empty()) {
    if (match(f, at)) merge();
    return;
  }
  for (size_t i = 0; i < kids.size(); ++i) {
    // the holder reads the move to this child as the move played here
    Ctx m = at;
    Move pair[2] = {at.past ? at.moves[-1] : Move::none(), (*s.t.in_move)[kids[i]]};
    if (i > 0) {
      m.moves = pair + 1;
      m.moves_left = 1;
      m.past = std::min<uint32_t>(at.past, 1);
      m.next = pair[1];
      m.next_secondary = true;
    }
    if (!match(f, m)) continue;
    merge();
    descend(kids[i]);
  }
}

void tree_line_compute(TreeLine& s, uint32_t node) {
  if (s.stack.empty() || ++s.steps > kMaxTreeLineSteps) return;
  const TreeLine::Item top = s.stack.back();
  s.stack.pop_back();
  const Node& item = *top.item;
  if (top.repeating) {
    // enough occurrences: the rest first; then one more (not after one that consumed nothing)
    if (top.done >= item.lo) tree_line_compute(s, node);
    if ((item.hi < 0 || top.done < item.hi) && !(top.done > 0 && top.began == node)) {
      s.stack.push_back(TreeLine::Item{&item, true, top.done + 1, node});
      s.stack.push_back(TreeLine::Item{&item, false, kOnce, 0});
      tree_line_compute(s, node);
      s.stack.pop_back();
      s.stack.pop_back();
    }
  } else if ((item.lo != 1 || item.hi != 1) && top.done != kOnce) {  // a repetition starts
    s.stack.push_back(TreeLine::Item{&item, true, 0, node});
    tree_line_compute(s, node);
    s.stack.pop_back();
  } else if (item.flags & cql6::kLineGroup) {
    for (size_t i = item.kids.size(); i-- > 0;) s.stack.push_back(TreeLine::Item{&item.kids[i], false, 0, 0});
    tree_line_compute(s, node);
    s.stack.resize(s.stack.size() - item.kids.size());
  } else {
    tree_line_holder(s, item.kids[0], node);
  }
  s.stack.push_back(top);
}

/// The forward line `n` from `c` over the game tree; true when it matched (its length in
/// t_line_length).
bool tree_line(const Node& n, const Ctx& c, const cql6_values::TreeRef& t, int64_t node) {
  // one search per nesting depth (a line in a holder of a line), reused: its stack keeps its
  // capacity, nothing is allocated per evaluation once warm
  thread_local std::vector<std::unique_ptr<TreeLine>> pool;
  thread_local size_t depth = 0;
  while (pool.size() <= depth) pool.push_back(std::make_unique<TreeLine>());
  TreeLine& s = *pool[depth];
  struct Nesting {
    size_t& d;
    explicit Nesting(size_t& x) : d(x) { ++d; }
    ~Nesting() { --d; }
  } nesting(depth);
  s.stack.clear();
  s.found = false;
  s.best = 0;
  s.best_ply = 0;
  s.steps = 0;
  s.line = &n;
  s.start = c;
  s.start.node = node;
  s.t = t;
  s.stride = (n.flags & cql6::kLineSingleColor) ? 2 : 1;
  for (size_t i = n.kids.size(); i-- > 0;) s.stack.push_back(TreeLine::Item{&n.kids[i], false, 0, 0});
  tree_line_compute(s, uint32_t(node));
  if (!s.found) return false;
  int64_t length = int64_t(s.best_ply) - int64_t(c.ply) + 1;
  if (s.stride == 2) length = (length + 1) / 2;
  if ((n.flags & cql6::kLineHasRange) && (length < n.lo || (n.hi >= 0 && length > n.hi))) return false;
  t_line_length = length;
  t_line_last = s.best;
  return true;
}

bool line(const Node& n, const Ctx& c) {
  if (!(n.flags & cql6::kLineBackward) && c.record && c.record->has_variations()) {  // cheap test first
    cql6_values::TreeRef t;
    int64_t node = 0;
    if (cql6_values::tree_of(c, t, node)) return tree_line(n, c, t, node);
  }
  // one buffer per line filter: a line never holds itself, so nested lines have their own
  struct Entry {
    const Node* node;
    std::unique_ptr<LineBuffer> buffer;
    bool busy;  // an evaluation of this line is running (nested lines: another entry)
  };
  thread_local std::vector<Entry> buffers;
  Entry* entry = nullptr;
  for (Entry& e : buffers)
    if (e.node == &n) entry = &e;
  if (!entry) {
    if (buffers.size() >= 64)  // mostly filters of earlier queries: drop the idle ones
      std::erase_if(buffers, [](const Entry& e) { return !e.busy; });
    buffers.push_back(Entry{&n, std::make_unique<LineBuffer>(), false});
    entry = &buffers.back();
  }
  LineBuffer* buffer = entry->buffer.get();
  const size_t entry_index = size_t(entry - buffers.data());  // until resume(): nested lines move entries
  LineState s;
  s.c = &c;
  s.line = &n;
  s.backward = n.flags & cql6::kLineBackward;
  s.stride = (n.flags & cql6::kLineSingleColor) ? 2 : 1;
  s.buffer = buffer;
  s.top = &n.kids;
  if (s.backward) s.tree = cql6_values::tree_of(c, s.t, s.node);
  LineBuffer& b = *buffer;
  const bool absolute = !s.backward && c.game != 0 && c.main_line && c.moves && !(n.flags & cql6::kLineHasRange);
  const uint64_t game = absolute ? c.game : 0;
  s.origin = absolute ? c.ply : 0;
  s.span = s.origin + (s.backward ? (s.tree ? c.ply : c.past) : c.moves_left) + 1;
  // the positions: kept when they are this game's and reach back to the current ply
  if (!s.backward && (game == 0 || b.made_game != game || s.origin < b.made_from || s.origin >= b.made_to)) {
    if (b.positions.size() <= s.origin) b.positions.resize(size_t(s.origin) + 1);
    b.positions[s.origin] = *c.pos;
    b.made_from = s.origin;
    b.made_to = s.origin + 1;
    b.made_game = game;
  }
  const size_t cells = size_t(std::max<int64_t>(n.value, 1)) * s.span;
  const size_t seq_cells = (n.kids.size() + 1) * s.span;
  // memo entries of other evaluations are void (also of this game when the line reads variables)
  bool fresh = game == 0 || b.stamp_game != game || (n.flags & cql6::kLineStateful);
  if (b.stamps.size() < cells || b.seq_stamps.size() < seq_cells) {
    b.stamps.assign(std::max(cells, b.stamps.size()), 0);
    b.results.assign(b.stamps.size(), 0);
    b.seq_stamps.assign(std::max(seq_cells, b.seq_stamps.size()), 0);
    b.seq_results.assign(b.seq_stamps.size(), 0);
    b.rep_stamps.assign(b.seq_stamps.size(), 0);
    b.rep_results.assign(b.seq_stamps.size(), 0);
    b.stamp = 0;
    fresh = true;
  } else if (game != 0 && b.stamp_game == game && b.stamp_span != s.span) {
    fresh = true;  // cannot happen within one game (span = its plies + 1); kept exact anyway
  }
  if (fresh) {
    if (++b.stamp == 0) {  // wrapped: forget every entry
      std::fill(b.stamps.begin(), b.stamps.end(), 0);
      std::fill(b.seq_stamps.begin(), b.seq_stamps.end(), 0);
      std::fill(b.rep_stamps.begin(), b.rep_stamps.end(), 0);
      b.stamp = 1;
    }
    b.stamp_game = game;
    b.stamp_span = s.span;
  }
  Cont all;
  all.items = &n.kids;
  buffers[entry_index].busy = true;
  const bool r = resume(&all, 0, s);
  // nested lines may have added entries (moving the vector) but never removed a busy one;
  // idle ones before it may have gone: find it again
  for (Entry& e : buffers)
    if (e.node == &n) e.busy = false;
  if (r) {
    t_line_length = s.length;
    // the last position consumed (a line of the main line: positionid = ply)
    const int64_t last = s.length > 0 ? int64_t(s.length - 1) * s.stride : 0;
    t_line_last = s.backward ? int64_t(c.ply) - last : int64_t(c.ply) + last;
  }
  return r;
}

// ---- the generic value functions

bool compare_chain(const Node& n, const Ctx& c) {
  // CQL 6.2 makes `a != b` of numbers or strings `not (a == b)`: true when a side has no
  // value (`(child : x) != 3` at the last position, a division by zero)
  if (n.kids.size() == 2 && n.ops[0] == cql6::Cmp::kNe && n.kids[0].type != Type::kPosition &&
      n.kids[1].type != Type::kPosition && !(n.kids[0].type == Type::kSet && n.kids[1].type == Type::kSet)) {
    const Node& a = n.kids[0];
    const Node& b = n.kids[1];
    if (a.type == Type::kString) {
      std::string x, y;
      return !cql6_values::string(a, c, x) || !cql6_values::string(b, c, y) || x != y;
    }
    int64_t x = 0, y = 0;
    return !number(a, c, x) || !number(b, c, y) || x != y;
  }
  for (size_t i = 0; i + 1 < n.kids.size(); ++i) {
    const Node& a = n.kids[i];
    const Node& b = n.kids[i + 1];
    const cql6::Cmp op = n.ops[i];
    if (a.type == Type::kString) {  // part 2: strings compare as strings
      std::string x, y;
      if (!cql6_values::string(a, c, x) || !cql6_values::string(b, c, y)) return false;
      const int r = x.compare(y);
      if (!compare(r < 0 ? -1 : r > 0 ? 1 : 0, op, 0)) return false;
      continue;
    }
    // CQL 6.2 reads `a == b == c` as `a == (b == c)`: only the last pair compares two sets as
    // sets, before it a set is counted
    if (a.type == Type::kSet && b.type == Type::kSet && (op == cql6::Cmp::kEq || op == cql6::Cmp::kNe) &&
        i + 2 == n.kids.size()) {
      const bool equal = squares(a, c) == squares(b, c);
      if (equal != (op == cql6::Cmp::kEq)) return false;
      continue;
    }
    int64_t x = 0, y = 0;
    if (!number(a, c, x) || !number(b, c, y) || !compare(x, op, y)) return false;
  }
  return true;
}

/// The anchors of a transform's variants. A transform expands into up to ~64 variants
/// (`shift`, `rotate45`...), most of which fail at a position on their first piece
/// designator. A variant whose conjuncts (a compound, `and`) include a piece designator on one
/// square can only match where a piece of its kinds stands on that square: the variants are
/// indexed by that square (the anchor), and a position looks only at the variants whose
/// anchor square holds such a piece. Used only when no variant has an effect or leaves state
/// (then the order and number of variants evaluated change nothing but the time).
struct Anchors {
  cql6::Kinds kinds = 0;  ///< the union of the anchors' kinds
  Bitboard squares = 0;   ///< the anchor squares
  std::array<std::vector<uint16_t>, 64> by_square;  ///< variant numbers by anchor square
  std::vector<cql6::Kinds> anchor_kinds;  ///< by variant (0: no anchor)
  std::vector<uint16_t> rest;             ///< variants without an anchor: always evaluated
};

/// The anchors of transform `n` on this thread (made once per node and search), or null
/// when they do not pay (few variants) or may not be used (a variant with an effect).
const Anchors* anchors_of(const Node& n) {
  constexpr size_t kMinVariants = 8;
  if (n.kids.size() < kMinVariants || n.kids.size() > 4096) return nullptr;
  thread_local uint64_t search = 0;
  thread_local std::vector<std::pair<const Node*, std::unique_ptr<Anchors>>> cache;
  if (search != cql6_values::search_serial()) {
    search = cql6_values::search_serial();
    cache.clear();
  }
  for (const auto& [node, a] : cache)
    if (node == &n) return a.get();
  auto a = std::make_unique<Anchors>();
  a->anchor_kinds.assign(n.kids.size(), 0);
  bool usable = true;
  for (size_t i = 0; i < n.kids.size() && usable; ++i) {
    const Node& v = n.kids[i];
    if (!cql6_values::stateless(v)) {
      usable = false;
      break;
    }
    std::vector<const Node*> members;
    cql6_values::conjuncts(v, members);
    const Node* best = nullptr;
    for (const Node* m : members)
      if (m->kind == Kind::kDesignator && std::popcount(m->squares) == 1 && m->kinds &&
          (!best || std::popcount(m->kinds) < std::popcount(best->kinds)))
        best = m;
    if (!best) {
      a->rest.push_back(uint16_t(i));
      continue;
    }
    const int s = std::countr_zero(best->squares);
    a->by_square[size_t(s)].push_back(uint16_t(i));
    a->anchor_kinds[i] = best->kinds;
    a->kinds |= best->kinds;
    a->squares |= best->squares;
  }
  if (!usable) a.reset();
  if (cache.size() >= 256) cache.clear();
  cache.emplace_back(&n, std::move(a));
  return cache.back().second.get();
}

/// Transform orbits (kTransform after compile): kids are the variants; lo..hi counts.
int64_t variants_matching(const Node& n, const Ctx& c, bool all) {
  int64_t k = 0;
  if (const Anchors* a = anchors_of(n)) {
    for (const uint16_t i : a->rest)
      if (match(n.kids[i], c) && (++k, !all)) return 1;
    for (Bitboard s = kinds_bb(*c.pos, a->kinds) & a->squares; s;) {
      const int sq = chess::pop_lsb(s);
      for (const uint16_t i : a->by_square[size_t(sq)])
        if ((kinds_bb(*c.pos, a->anchor_kinds[i]) & (Bitboard(1) << sq)) && match(n.kids[i], c) && (++k, !all))
          return 1;
    }
    return k;
  }
  for (const Node& v : n.kids)
    if (match(v, c) && (++k, !all)) return 1;
  return k;
}

}  // namespace

int64_t last_line_length() { return t_line_length; }
int64_t last_line_position() { return t_line_last; }

DashScope::DashScope(const Node& dash, const Ctx& head, Move m, unsigned parts)
    : saved_(t_dash_sets.active), from_(t_dash_sets.from), to_(t_dash_sets.to) {
  Bitboard from = dash.kids[0].kind == Kind::kNone ? ~Bitboard(0) : squares(dash.kids[0], head);
  Bitboard to = dash.kids[1].kind == Kind::kNone ? ~Bitboard(0) : squares(dash.kids[1], head);
  if (m != Move::none() && m != Move::null() && m.kind() == Move::CASTLING && parts != 3) {
    const chess::CastlingRight cr = chess::castling_right(head.pos->side_to_move(), m.to_sq() > m.from_sq());
    if (!(parts & 1)) {
      from &= ~chess::square_bb(m.from_sq());
      to &= ~chess::square_bb(Position::castling_king_to(cr));
    }
    if (!(parts & 2)) {
      from &= ~chess::square_bb(m.to_sq());
      to &= ~chess::square_bb(Position::castling_rook_to(cr));
    }
  }
  t_dash_sets.from = from;
  t_dash_sets.to = to;
  t_dash_sets.active = true;
}

DashScope::~DashScope() {
  t_dash_sets.active = saved_;
  t_dash_sets.from = from_;
  t_dash_sets.to = to_;
}

bool dash_fits(const Node& n, const Ctx& c, Move m, unsigned parts) {
  if (m == Move::none()) return false;
  Bitboard from = n.kids[0].kind == Kind::kNone ? ~Bitboard(0) : squares(n.kids[0], c);
  Bitboard to = n.kids[1].kind == Kind::kNone ? ~Bitboard(0) : squares(n.kids[1], c);
  if (m == Move::null()) {  // CQL 6.2: a null move goes from the mover's king square to itself
    if (n.flags & (cql6::kDashCapture | cql6::kDashPromote)) return false;
    const Bitboard king = c.pos->pieces(c.pos->side_to_move(), chess::KING);
    return (from & king) && (to & king);
  }
  if (n.flags & cql6::kDashCapture) {
    const int cs = cql6_path_facts::captured_square(*c.pos, m);
    if (cs == 64 || !(from & chess::square_bb(m.from_sq())) || !(to & chess::square_bb(Square(cs)))) return false;
  } else {
    if (m.kind() == Move::CASTLING && parts != 3) {  // a path's focus: only the focused piece's squares
      const chess::CastlingRight cr = chess::castling_right(c.pos->side_to_move(), m.to_sq() > m.from_sq());
      if (!(parts & 1)) {
        from &= ~chess::square_bb(m.from_sq());
        to &= ~chess::square_bb(Position::castling_king_to(cr));
      }
      if (!(parts & 2)) {
        from &= ~chess::square_bb(m.to_sq());
        to &= ~chess::square_bb(Position::castling_rook_to(cr));
      }
    }
    if (!move_fits(*c.pos, m, from, to)) return false;
  }
  if (n.flags & cql6::kDashPromote) {
    if (m.kind() != Move::PROMOTION) return false;
    const int t = m.promotion_type() - 1;
    if (n.flags & cql6::kDashPromoteText) {  // CQL 6.2: any letter of the string, "" or "." any piece
      std::string letters;
      if (n.kids.size() < 4 || !cql6_values::string(n.kids[3], c, letters)) return false;
      if (letters.empty() || letters == ".") return true;
      const char mine = "PNBRQK"[t];
      for (char ch : letters)
        if (std::toupper(static_cast<unsigned char>(ch)) == mine) return true;
      return false;
    }
    if (!(n.kinds & ((1u << t) | (1u << (6 + t))))) return false;
  }
  return true;
}

Ctx from(const PosCtx& c) {
  Ctx x;
  x.pos = c.pos;
  x.next = c.next;
  x.ply = c.ply;
  x.info = c.info;
  x.moves = c.line_moves;
  x.moves_left = c.line_moves ? c.line_moves_left : 0;
  x.main_line = !c.inside_variation;
  x.on_main_line = !c.inside_variation || c.branch_of_main_line;
  x.past = !c.line_moves ? 0 : c.inside_variation ? c.ply - c.line_first_ply : c.ply;
  x.start = c.inside_variation ? nullptr : c.start;
  x.game = c.game;
  x.record = c.record;
  x.game_start = c.start;
  x.variation = c.variation_serial;
  return x;
}

uint64_t squares(const Node& n, const Ctx& c) {
  const Position& pos = *c.pos;
  switch (n.kind) {
    case Kind::kDesignator: return kinds_bb(pos, n.kinds) & n.squares;
    case Kind::kUnion: return squares(n.kids[0], c) | squares(n.kids[1], c);
    case Kind::kIntersect: {
      // a plain designator first: cheapest, and often empty (no side effects: any order)
      const bool swap = n.kids[1].kind == Kind::kDesignator && n.kids[0].kind != Kind::kDesignator;
      const Bitboard a = squares(n.kids[swap ? 1 : 0], c);
      return a ? a & squares(n.kids[swap ? 0 : 1], c) : 0;
    }
    case Kind::kComplement: return ~squares(n.kids[0], c);
    case Kind::kAttacks: {
      const Bitboard a = squares(n.kids[0], c) & pos.pieces();
      if (!a) return 0;
      const Bitboard b = squares(n.kids[1], c);
      Bitboard out = 0;
      for (Bitboard s = a; s;) {
        const Square sq = chess::pop_lsb(s);
        if (attacks_from(pos, sq) & b) out |= chess::square_bb(sq);
      }
      return out;
    }
    case Kind::kAttackedBy: {
      const Bitboard a = squares(n.kids[0], c);
      if (!a) return 0;
      Bitboard attacked = 0;
      for (Bitboard s = squares(n.kids[1], c) & pos.pieces(); s;) attacked |= attacks_from(pos, chess::pop_lsb(s));
      return a & attacked;
    }
    case Kind::kBetween: {
      const Bitboard a = squares(n.kids[0], c), b = squares(n.kids[1], c);
      Bitboard out = 0;
      for (Bitboard s = a; s;) {
        const Square x = chess::pop_lsb(s);
        for (Bitboard t = b; t;) out |= chess::between_bb(x, chess::pop_lsb(t));
      }
      return out;
    }
    case Kind::kRay: return ray(n, c);
    case Kind::kPin: return pin(n, c);
    case Kind::kMove: {  // `move from|to|capture ...` as a set (n.sub)
      Bitboard out = 0;
      if (n.sub) moves_matching(n, c, &out);
      return out;
    }
    case Kind::kDirection: {
      if (n.kids.size() < 3) return direction(squares(n.kids[0], c), n.sub, n.lo, n.hi);
      // bounds from variables (CQL 6.2: -7..7; a negative step goes the opposite way; an
      // unbound variable or a bad range, where CQL 6.2 stops the search: no squares)
      int64_t lo = 0, hi = 0;
      if (!number(n.kids[1], c, lo) || !number(n.kids[2], c, hi) || lo < -7 || hi > 7 || lo > hi) return 0;
      const Bitboard b = squares(n.kids[0], c);
      Bitboard out = lo <= 0 && hi >= 0 ? b : 0;
      if (hi >= 1) out |= direction(b, n.sub, std::max<int64_t>(lo, 1), hi);
      if (lo <= -1) {
        uint8_t back = 0;  // the opposite directions: up/down, right/left, NE/SW, NW/SE
        static constexpr uint8_t kOpposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};
        for (int d = 0; d < 8; ++d)
          if (n.sub & (1u << d)) back |= uint8_t(1u << kOpposite[d]);
        out |= direction(b, back, std::max<int64_t>(-hi, 1), -lo);
      }
      return out;
    }
    case Kind::kLight: return squares(n.kids[0], c) & kLightSquares;
    case Kind::kDark: return squares(n.kids[0], c) & ~kLightSquares;
    case Kind::kPawns: return pawn_set(pos, cql6::PawnSet(n.sub));
    case Kind::kFromSquare:
    case Kind::kToSquare: {
      if (c.past == 0 || !c.moves) return 0;
      const chess::Color mover = chess::Color(1 - pos.side_to_move());
      return move_end(c.moves[-1], mover, pos.pieces(mover, chess::KING), n.kind == Kind::kFromSquare);
    }
    case Kind::kTransform: {
      Bitboard out = 0;
      for (const Node& v : n.kids) out |= squares(v, c);
      return out;
    }
    case Kind::kIf:
      if (match(n.kids[0], c)) return squares(n.kids[1], c);
      return n.kids.size() > 2 ? squares(n.kids[2], c) : 0;
    case Kind::kCompound: {
      for (size_t i = 0; i + 1 < n.kids.size(); ++i)
        if (!match(n.kids[i], c)) return 0;
      return n.kids.empty() ? 0 : squares(n.kids.back(), c);
    }
    case Kind::kDash: {  // `--(from)`: the target's squares after the move
      if (const Node* end = from_to_target(n)) return dash_from_to(n, c, end->kind == Kind::kFromSquare);
      Bitboard out = 0;
      dash_then(n, c, [&](const Ctx* at) { return at && (out = squares(n.kids[2], *at)) != 0; });
      return out;
    }
    default: return cql6::is_part2(n.kind) ? cql6_values::squares(n, c) : 0;
  }
}

bool number(const Node& n, const Ctx& c, int64_t& out) {
  if (n.type == Type::kSet) {
    out = chess::popcount(squares(n, c));
    return true;
  }
  switch (n.kind) {
    case Kind::kNumber: out = n.value; return true;
    case Kind::kCount: {
      if (n.kids[0].type == Type::kString) {  // a string's length (CQL 6.2)
        std::string text;
        if (!cql6_values::string(n.kids[0], c, text)) return false;
        out = int64_t(text.size());
        return true;
      }
      out = chess::popcount(squares(n.kids[0], c));
      return true;
    }
    case Kind::kArith: {
      int64_t a = 0, b = 0;
      if (!number(n.kids[0], c, a) || !number(n.kids[1], c, b)) return false;
      switch (n.sub) {
        case '+': out = a + b; return true;
        case '-': out = a - b; return true;
        case '*': out = a * b; return true;
        case '/': if (b == 0) return false; out = a / b; return true;
        default: if (b == 0) return false; out = a % b; return true;
      }
    }
    case Kind::kNegate: if (!number(n.kids[0], c, out)) return false; out = -out; return true;
    case Kind::kAbs: if (!number(n.kids[0], c, out)) return false; out = out < 0 ? -out : out; return true;
    case Kind::kMax:
    case Kind::kMin: {
      bool any = false;
      for (const Node& k : n.kids) {
        int64_t v = 0;
        if (!number(k, c, v)) return false;
        if (!any || (n.kind == Kind::kMax ? v > out : v < out)) out = v;
        any = true;
      }
      return any;
    }
    case Kind::kPower: {
      int64_t sum = 0;
      for (Bitboard s = squares(n.kids[0], c) & c.pos->pieces(); s;)
        sum += piece_value(chess::PieceType(c.pos->piece_on(chess::pop_lsb(s)) & 7));
      out = sum;
      return true;
    }
    case Kind::kPly: out = c.ply; return true;
    case Kind::kMoveNumber: out = move_number(c.ply, c.pos->side_to_move() == chess::WHITE); return true;
    case Kind::kElo: {
      if (!c.info) return false;
      const int64_t w = c.info->white_elo, b = c.info->black_elo;
      const auto side = cql6::Side(n.sub);
      if (side == cql6::Side::kWhite) { out = w; return w > 0; }
      if (side == cql6::Side::kBlack) { out = b; return b > 0; }
      out = std::max(w, b);
      return out > 0;
    }
    case Kind::kMove: out = moves_matching(n, c); return true;
    case Kind::kDash:
      if (n.flags & cql6::kDashCount) {  // `countmoves --`: the moves of the line from here that fit
        out = dash(n, c) ? 1 : 0;
        return true;
      }
      return dash_then(n, c, [&](const Ctx* at) { return at && number(n.kids[2], *at, out); });
    case Kind::kYear: return cql6_values::year(c, out);  // part 2: per position (header texts)
    case Kind::kTransform: {
      if (n.flags & cql6::kHasRange) {  // CQL 6.2: the number of matching transforms, in the range
        out = variants_matching(n, c, true);
        return out >= n.lo && (n.hi < 0 || out <= n.hi);
      }
      bool any = false;
      for (const Node& v : n.kids) {
        int64_t x = 0;
        if (number(v, c, x) && (!any || x > out)) {
          out = x;
          any = true;
        }
      }
      return any;
    }
    case Kind::kIf:
      if (match(n.kids[0], c)) return number(n.kids[1], c, out);
      return n.kids.size() > 2 && number(n.kids[2], c, out);
    case Kind::kCompound:
      for (size_t i = 0; i + 1 < n.kids.size(); ++i)
        if (!match(n.kids[i], c)) return false;
      return !n.kids.empty() && number(n.kids.back(), c, out);
    case Kind::kCompare:  // a comparison as a number (CQL 6.2, under `sort`): its left side's value
      return compare_chain(n, c) && number(n.kids[0], c, out);
    default:
      if (cql6_path::owns(n.kind)) return cql6_path::number(n, c, out);
      return cql6::is_part2(n.kind) && cql6_values::number(n, c, out);
  }
}

bool match(const Node& n, const Ctx& c) {
  const Position& pos = *c.pos;
  switch (n.kind) {
    case Kind::kTrue: return true;
    case Kind::kFalse: return false;
    case Kind::kCheck: return pos.in_check();
    case Kind::kMate: return pos.in_check() && !chess::has_legal_move(pos);
    case Kind::kStalemate: return !pos.in_check() && !chess::has_legal_move(pos);
    case Kind::kWtm: return pos.side_to_move() == chess::WHITE;
    case Kind::kBtm: return pos.side_to_move() == chess::BLACK;
    case Kind::kInitial: return c.ply == 0;
    case Kind::kTerminal: return c.next == Move::none();
    case Kind::kMainline: return c.on_main_line;
    case Kind::kResult: return c.info && c.info->result == n.value;
    case Kind::kNot: return !match(n.kids[0], c);
    case Kind::kAnd: return match(n.kids[0], c) && match(n.kids[1], c);
    case Kind::kOr: return match(n.kids[0], c) || match(n.kids[1], c);
    case Kind::kCompound:
      for (const Node& k : n.kids)
        if (!match(k, c)) return false;
      return true;
    case Kind::kIf:
      if (match(n.kids[0], c)) return match(n.kids[1], c);
      return n.kids.size() < 3 || match(n.kids[2], c);
    case Kind::kCompare: return compare_chain(n, c);
    case Kind::kIn: {
      const Bitboard a = squares(n.kids[0], c);
      return (a & squares(n.kids[1], c)) == a;
    }
    case Kind::kMove: return (n.flags & cql6::kMoveCount) || moves_matching(n, c) > 0;
    case Kind::kDash: return (n.flags & cql6::kDashCount) || dash(n, c);
    case Kind::kLine: return line(n, c);
    case Kind::kHeaderText: return cql6_values::header_text(n, c);  // part 2: per position
    case Kind::kTransform: {
      if (!(n.flags & cql6::kHasRange)) {
        if (n.type == Type::kNumber) {
          int64_t v = 0;
          return number(n, c, v);
        }
        return variants_matching(n, c, false) > 0;
      }
      const int64_t k = variants_matching(n, c, true);
      return k >= n.lo && (n.hi < 0 || k <= n.hi);
    }
    default:
      if (cql6_path::owns(n.kind)) return cql6_path::match(n, c);
      if (cql6::is_part2(n.kind)) return cql6_values::match(n, c);
      break;
  }
  if (n.type == Type::kSet) return squares(n, c) != 0;
  int64_t v = 0;
  return number(n, c, v);
}

}  // namespace eval::cql6_eval
