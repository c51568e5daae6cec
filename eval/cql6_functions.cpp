// CQL 6 value keywords of the published examples (eval/cql6_functions.h). Each follows the
// CQL 6 documentation and, where it is silent, CQL 6.2 (SPEC-NOTES "Published examples:
// values, parameters, output (exvalues)").
#include "eval/cql6_functions.h"

#include <cmath>
#include <string_view>

#include "headers/game_info.h"

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "eval/cql6_values.h"

namespace eval::cql6_functions {

namespace {

using chess::Bitboard;
using chess::Color;
using chess::Position;
using chess::Square;
using cql6::Kind;
using cql6::Node;
using cql6_eval::Ctx;

/// The one square of the set filter `n` at `c`, or -1 when it has not exactly one.
int one_square(const Node& n, const Ctx& c) {
  const Bitboard b = cql6_eval::squares(n, c);
  return chess::popcount(b) == 1 ? int(chess::lsb(b)) : -1;
}

/// CQL 6.2's letter of the piece on `s`: KQRBNP white, kqrbnp black, `_` empty.
char piece_letter(const Position& pos, int s) {
  const chess::Piece pc = pos.piece_on(Square(s));
  if (pc == chess::NO_PIECE) return '_';
  static const char kLetters[] = " PNBRQK";
  const char upper = kLetters[pc & 7];
  return Color(pc >> 3) == chess::WHITE ? upper : char(upper - 'A' + 'a');
}

// ---- pure and model mates (the CQL 6 documentation's definitions, in the orientation where
// `us` mates `them`; CQL 6.2 checks both colours)

/// The squares the piece on `s` attacks with `occupied` as the occupied squares.
Bitboard attacks_of(const Position& pos, Square s, Bitboard occupied) {
  const chess::Piece pc = pos.piece_on(s);
  if (pc == chess::NO_PIECE) return 0;
  const chess::PieceType pt = chess::PieceType(pc & 7);
  return pt == chess::PAWN ? chess::pawn_attacks_bb(Color(pc >> 3), s) : chess::attacks_bb(pt, s, occupied);
}

/// True if the piece on `s` moves along direction `line` (a rook line or a diagonal).
bool slides_along(const Position& pos, Square s, Square a, Square b) {
  const chess::PieceType pt = chess::PieceType(pos.piece_on(s) & 7);
  const bool diagonal = chess::file_of(a) != chess::file_of(b) && chess::rank_of(a) != chess::rank_of(b);
  return pt == chess::QUEEN || (pt == chess::BISHOP && diagonal) || (pt == chess::ROOK && !diagonal);
}

/// CQL 6's attack ray `F -> m -> T`: the squares of `from` whose line piece looks along a
/// line on which the first piece is on `m` and, beyond it, reaches a square of `to` (the
/// squares up to and including the next piece).
Bitboard ray_through(const Position& pos, Bitboard from, Square m, Bitboard to) {
  const Bitboard occupied = pos.pieces();
  Bitboard out = 0;
  for (Bitboard s = from & occupied & ~chess::square_bb(m); s;) {
    const Square f = chess::pop_lsb(s);
    if (!chess::line_bb(f, m) || !slides_along(pos, f, f, m)) continue;
    if (chess::between_bb(f, m) & occupied) continue;
    // beyond m, away from f, up to the first piece
    const Bitboard beyond = chess::line_bb(f, m) & ~chess::between_bb(f, m) & ~chess::square_bb(f) &
                            ~chess::square_bb(m);
    for (Bitboard t = beyond; t;) {
      const Square x = chess::pop_lsb(t);
      if (chess::between_bb(f, x) & chess::square_bb(m) &&
          !(chess::between_bb(m, x) & occupied) && (to & chess::square_bb(x))) {
        out |= chess::square_bb(f);
        break;
      }
    }
  }
  return out;
}

/// True if the side to move has a pseudo-legal move of the piece on `s` to a square of
/// `dest` (pawns push to empty squares and capture diagonally), or an en passant capture
/// by it when `ep`.
bool pseudo_move_to(const Position& pos, Square s, Bitboard dest, bool ep) {
  const chess::Piece pc = pos.piece_on(s);
  if (pc == chess::NO_PIECE) return false;
  const Color c = Color(pc >> 3);
  const Bitboard occupied = pos.pieces();
  if ((pc & 7) != chess::PAWN) return chess::attacks_bb(chess::PieceType(pc & 7), s, occupied) & dest & ~pos.pieces(c);
  const Bitboard attacks = chess::pawn_attacks_bb(c, s);
  const bool can_ep = pos.ep_square() != chess::SQ_NONE && (attacks & chess::square_bb(pos.ep_square()));
  if (ep) return can_ep;
  Bitboard to = attacks & pos.pieces(Color(1 - c));
  if (can_ep) to |= chess::square_bb(pos.ep_square());
  const Bitboard one = chess::shift_forward(c, chess::square_bb(s)) & ~occupied;
  to |= one;
  const Bitboard start = c == chess::WHITE ? chess::rank_bb(chess::RANK_2) : chess::rank_bb(chess::RANK_7);
  if (one && (chess::square_bb(s) & start)) to |= chess::shift_forward(c, one) & ~occupied;
  return to & dest;
}

/// The squares strictly between each square of `a` and the square `k`.
Bitboard between_all(Bitboard a, Square k) {
  Bitboard out = 0;
  for (Bitboard s = a; s;) out |= chess::between_bb(chess::pop_lsb(s), k);
  return out;
}

/// The participants of a pure (`model`: model) mate of `them` (the side to move), or 0.
Bitboard mate_of(const Position& pos, Color them, bool model) {
  const Color us = Color(1 - them);
  if (pos.side_to_move() != them || !pos.in_check() || chess::has_legal_move(pos)) return 0;
  const Square k = pos.king_square(them), K = pos.king_square(us);
  const Bitboard occupied = pos.pieces(), ours = pos.pieces(us), theirs = pos.pieces(them);
  const Bitboard field = chess::pseudo_attacks_bb(chess::KING, k);
  const Bitboard checkers = pos.attackers_to(k) & ours;
  const int nchecks = chess::popcount(checkers);
  // the squares of the king's field each piece of ours guards (seeing through the king)
  auto guarders = [&](Square s) {
    int n = 0;
    for (Bitboard p = ours; p;)
      n += (attacks_of(pos, chess::pop_lsb(p), occupied ^ chess::square_bb(k)) & chess::square_bb(s)) != 0;
    return n;
  };
  // every flight square (empty or ours) guarded exactly once
  for (Bitboard f = field & ~theirs; f;)
    if (guarders(chess::pop_lsb(f)) != 1) return 0;
  // every self-blocker unguarded, or (single check) guarded once, pinned, and able to
  // capture the checker or interpose
  const Bitboard pinned_them = pos.pinned(them);
  const Bitboard refute = checkers | between_all(checkers, k);
  for (Bitboard b = field & theirs; b;) {
    const Square s = chess::pop_lsb(b);
    const int g = guarders(s);
    if (g == 0) continue;
    if (nchecks > 1 || g != 1 || !(pinned_them & chess::square_bb(s))) return 0;
    if (!pseudo_move_to(pos, s, refute, false) && !pseudo_move_to(pos, s, 0, true)) return 0;
  }
  // a double check: each checker necessary (a free piece of theirs could answer the other)
  if (nchecks > 1) {
    const Bitboard free_pieces = theirs & ~pinned_them & ~chess::square_bb(k);
    for (Bitboard ch = checkers; ch;) {
      const Square x = chess::pop_lsb(ch);
      const Bitboard other = checkers & ~chess::square_bb(x);
      const Bitboard answers = other | between_all(other, k);
      bool necessary = false;
      for (Bitboard p = free_pieces; p && !necessary;)
        necessary = attacks_of(pos, chess::pop_lsb(p), occupied) & answers;
      if (!necessary) return 0;
    }
  }
  // participants
  const Bitboard refuter_squares = chess::square_bb(K) | refute;
  Bitboard refuters = 0;
  for (Bitboard p = theirs; p;) {
    const Square s = chess::pop_lsb(p);
    if (pseudo_move_to(pos, s, refuter_squares, false)) refuters |= chess::square_bb(s);
  }
  const Bitboard pinned_us = pos.pinned(us);
  Bitboard white = 0;
  for (Bitboard p = ours; p;) {
    const Square a = chess::pop_lsb(p);
    const Bitboard sq = chess::square_bb(a);
    bool in = (checkers & sq) || (attacks_of(pos, a, occupied) & field) || (pinned_us & sq);
    if (!in && nchecks == 1) {
      // a pinner of a possible refuter
      for (Bitboard r = refuters & pinned_them; r && !in;) {
        const Square x = chess::pop_lsb(r);
        in = chess::line_bb(a, k) && (chess::between_bb(a, k) & chess::square_bb(x)) && slides_along(pos, a, a, k) &&
             chess::popcount(chess::between_bb(a, k) & occupied) == 1;
      }
      in = in || ray_through(pos, refuters, a, refuter_squares);
    }
    if (in) white |= sq;
  }
  Bitboard black = 0;
  for (Bitboard p = theirs; p;) {
    const Square x = chess::pop_lsb(p);
    const Bitboard sq = chess::square_bb(x);
    if (x == k || (field & sq) || ray_through(pos, theirs, x, chess::square_bb(K)) ||
        (nchecks == 1 && ray_through(pos, theirs, x, refuter_squares)))
      black |= sq;
  }
  if (model) {
    const Bitboard officers = ours & ~pos.pieces(chess::KING) & ~pos.pieces(chess::PAWN);
    if ((officers & white) != officers) return 0;
  }
  return white | black;
}

/// `hhdb prize` and the other award forms, read from the Event tag as the HHdb writes it:
/// ranks `N` or `N/M`, then `.sp` (special; `sp` without ranks), then `.p` (prize), `.hm`
/// (honourable mention) or `.c` (commendation): "4.p Lenin MT". Its value is the first rank
/// (`max`: the second; without ranks 1, or 10000 with `max`); false when the tag is not such
/// an award, is not of the type asked, or (a special award not asked for) has value 0.
bool hhdb_award(const Node& n, const Ctx& c, int64_t& out) {
  if (!c.info || !c.info->text) return false;
  std::string_view e = c.info->text->event;
  auto read_int = [&](int64_t& v) {
    size_t i = 0;
    v = 0;
    while (i < e.size() && e[i] >= '0' && e[i] <= '9' && v <= 100000000) v = v * 10 + (e[i++] - '0');
    if (v <= 0 || v > 100000000) return false;
    e.remove_prefix(i);
    return true;
  };
  auto read = [&](std::string_view p) {
    if (e.substr(0, p.size()) != p) return false;
    e.remove_prefix(p.size());
    return true;
  };
  int64_t r1 = 0, r2 = 0;
  if (read_int(r1)) {
    r2 = r1;
    if (read("/") && (!read_int(r2) || r2 <= r1)) return false;
  }
  const bool ranks = r1 > 0;
  const bool special = ranks ? read(".sp") : read("sp");
  int type = 0;
  if (read(".p")) type = 1;
  else if (read(".hm")) type = 2;
  else if (read(".c")) type = 3;
  else return false;
  if (n.sub != 0 && n.sub != type) return false;
  if ((n.flags & 2) && !special) return false;
  if (!ranks) r1 = 1, r2 = 10000;
  if (special && !(n.flags & 2)) return false;  // value 0: no numeric value
  out = (n.flags & 1) ? r2 : r1;
  return out > 0;
}

}  // namespace

bool handles(Kind k) {
  switch (k) {
    case Kind::kRank: case Kind::kFile: case Kind::kMakeSquare: case Kind::kTypeName:
    case Kind::kPieceName: case Kind::kPieceType: case Kind::kSqrt: case Kind::kFen: case Kind::kVariation:
    case Kind::kMateKind: case Kind::kHhdbAward: case Kind::kMoveSquares:
      return true;
    default: return false;
  }
}

uint64_t squares(const Node& n, const Ctx& c) {
  switch (n.kind) {
    case Kind::kMakeSquare: {
      if (n.kids.size() == 1) {  // a square name such as "e4"
        std::string name;
        if (!cql6_values::string(n.kids[0], c, name)) return 0;
        if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8') return 0;
        return Bitboard(1) << ((name[1] - '1') * 8 + (name[0] - 'a'));
      }
      int64_t file = 0, rank = 0;
      if (!cql6_eval::number(n.kids[0], c, file) || !cql6_eval::number(n.kids[1], c, rank)) return 0;
      if (file < 1 || file > 8 || rank < 1 || rank > 8) return 0;
      return Bitboard(1) << ((rank - 1) * 8 + (file - 1));
    }
    case Kind::kMoveSquares: {
      const Node& mv = n.kids[0];
      if (!cql6_eval::match(mv, c)) return 0;
      const bool previous = mv.flags & cql6::kMovePrevious;
      if (previous && (c.past == 0 || !c.moves)) return 0;
      const chess::Move m = previous ? c.moves[-1] : c.next;
      if (m == chess::Move::none() || m == chess::Move::null()) return 0;
      if (n.sub == 1) return chess::square_bb(m.from_sq());
      if (n.sub == 3) {  // the captured piece's square
        const Position* before = c.pos;
        if (previous) return 0;  // the position before is not at hand: CQL 6.2 scripts use `from`/`to`
        if (m.kind() == chess::Move::EN_PASSANT) return chess::square_bb(chess::Square(m.to_sq() ^ 8));
        return before->piece_on(m.to_sq()) != chess::NO_PIECE && m.kind() != chess::Move::CASTLING
                   ? chess::square_bb(m.to_sq()) : 0;
      }
      if (m.kind() == chess::Move::CASTLING) {  // the king's destination
        const Color mover = previous ? Color(1 - c.pos->side_to_move()) : c.pos->side_to_move();
        return chess::square_bb(Position::castling_king_to(chess::castling_right(mover, m.to_sq() > m.from_sq())));
      }
      return chess::square_bb(m.to_sq());
    }
    case Kind::kMateKind:
      return mate_of(*c.pos, chess::WHITE, n.sub == 1) | mate_of(*c.pos, chess::BLACK, n.sub == 1);
    default: return 0;
  }
}

bool number(const Node& n, const Ctx& c, int64_t& out) {
  switch (n.kind) {
    case Kind::kRank:
    case Kind::kFile: {
      const int s = one_square(n.kids[0], c);
      if (s < 0) return false;
      out = (n.kind == Kind::kRank ? s >> 3 : s & 7) + 1;
      return true;
    }
    case Kind::kPieceType: {
      const int s = one_square(n.kids[0], c);
      if (s < 0) return false;
      const chess::Piece pc = c.pos->piece_on(Square(s));
      out = pc == chess::NO_PIECE ? 0 : int64_t(pc & 7);  // 1 pawn .. 6 king
      return true;
    }
    case Kind::kHhdbAward: return hhdb_award(n, c, out);
    case Kind::kSqrt: {
      int64_t v = 0;
      if (!cql6_eval::number(n.kids[0], c, v) || v < 0) return false;
      out = int64_t(std::sqrt(double(v)));
      return true;
    }
    default:
      if (n.type == cql6::Type::kSet) {
        out = chess::popcount(cql6_functions::squares(n, c));
        return true;
      }
      return false;
  }
}

bool string(const Node& n, const Ctx& c, std::string& out) {
  switch (n.kind) {
    case Kind::kTypeName:
    case Kind::kPieceName: {
      const int s = one_square(n.kids[0], c);
      if (s < 0) return false;
      char letter = piece_letter(*c.pos, s);
      if (n.kind == Kind::kTypeName && letter >= 'a' && letter <= 'z') letter = char(letter - 'a' + 'A');
      out.assign(1, letter);
      return true;
    }
    case Kind::kFen: {
      // CQL 6.2 writes the placement, side, castling and en passant fields, then "0 1"
      out = c.pos->fen();
      size_t cut = out.size();
      for (int fields = 0; fields < 2 && cut != std::string::npos && cut > 0; ++fields) cut = out.rfind(' ', cut - 1);
      if (cut != std::string::npos) out = out.substr(0, cut) + " 0 1";
      // CQL 6.2's en passant field names the square a pawn's double step passed over, whether
      // or not a capture there is possible (`... w KQkq d6 0 1` after 3...d5)
      if (c.past > 0 && c.moves) {
        const chess::Move m = c.moves[-1];
        const size_t f3 = out.find(' ', out.find(' ', out.find(' ') + 1) + 1);  // before the ep field
        const size_t f4 = f3 == std::string::npos ? f3 : out.find(' ', f3 + 1);
        if (f4 != std::string::npos && m != chess::Move::null() && m != chess::Move::none() &&
            m.kind() == chess::Move::NORMAL && c.pos->piece_on(m.to_sq()) != chess::NO_PIECE &&
            chess::type_of(c.pos->piece_on(m.to_sq())) == chess::PAWN && std::abs(int(m.to_sq()) - int(m.from_sq())) == 16) {
          const int passed = (int(m.to_sq()) + int(m.from_sq())) / 2;
          out = out.substr(0, f3 + 1) + std::string{char('a' + (passed & 7)), char('1' + (passed >> 3))} + out.substr(f4);
        }
      }
      return true;
    }
    default: return false;
  }
}

bool match(const Node& n, const Ctx& c) {
  switch (n.kind) {
    case Kind::kVariation: return !c.on_main_line;
    case Kind::kMakeSquare:
    case Kind::kMoveSquares:
    case Kind::kMateKind: return cql6_functions::squares(n, c) != 0;
    case Kind::kTypeName:
    case Kind::kPieceName:
    case Kind::kFen: {
      std::string s;
      return cql6_functions::string(n, c, s);
    }
    default: {
      int64_t v = 0;
      return cql6_functions::number(n, c, v);
    }
  }
}

}  // namespace eval::cql6_functions
