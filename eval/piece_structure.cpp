#include "eval/piece_structure.h"

#include <cstdlib>

#include "chess/bitboard.h"

namespace eval {

using chess::Bitboard;

namespace {

constexpr Bitboard kDarkSquares = 0xAA55AA55AA55AA55ULL;  // a1 (bit 0) is dark

bool in_range(const cql::Range& r, int count, int total) {
  return r.percent ? r.contains_ratio(count, total) : r.contains(count);
}

/// The diagonal (a1-h8 direction) or, when `anti`, the anti-diagonal through `s`.
Bitboard diagonal_of(chess::Square s, bool anti) {
  Bitboard b = 0;
  const int f = chess::file_of(s), r = chess::rank_of(s);
  for (int i = -7; i <= 7; ++i) {
    const int ff = f + i, rr = anti ? r - i : r + i;
    if (ff >= 0 && ff < 8 && rr >= 0 && rr < 8)
      b |= chess::square_bb(chess::make_square(chess::File(ff), chess::Rank(rr)));
  }
  return b;
}

/// The move lines of the piece on `s`: [0] rank, [1] file, [2] diagonal, [3] anti-diagonal;
/// 0 where the piece does not move along that line.
void lines_of(const chess::Position& pos, chess::Square s, Bitboard lines[4]) {
  const chess::PieceType pt = chess::type_of(pos.piece_on(s));
  const bool orth = pt == chess::ROOK || pt == chess::QUEEN;
  const bool diag = pt == chess::BISHOP || pt == chess::QUEEN;
  lines[0] = orth ? chess::rank_bb(s) : 0;
  lines[1] = orth ? chess::file_bb(s) : 0;
  lines[2] = diag ? diagonal_of(s, false) : 0;
  lines[3] = diag ? diagonal_of(s, true) : 0;
}

}  // namespace

bool perpendicular(const chess::Position& pos, Bitboard first, Bitboard second) {
  const Bitboard sliders = pos.pieces(chess::QUEEN) | pos.pieces(chess::ROOK) | pos.pieces(chess::BISHOP);
  for (Bitboard a = first & sliders; a;) {
    const chess::Square sa = chess::pop_lsb(a);
    Bitboard la[4];
    lines_of(pos, sa, la);
    for (Bitboard b = second & sliders & ~chess::square_bb(sa); b;) {
      const chess::Square sb = chess::pop_lsb(b);
      Bitboard lb[4];
      lines_of(pos, sb, lb);
      const Bitboard own = chess::square_bb(sa) | chess::square_bb(sb);
      for (int i = 0; i < 4; ++i)
        if (la[i] & lb[i ^ 1] & ~own) return true;  // 0 <-> 1, 2 <-> 3
    }
  }
  return false;
}

bool good_bishop(const chess::Position& pos, chess::Square s, const cql::Range& opponents,
                 const cql::Range& own) {
  const chess::Piece bishop = pos.piece_on(s);
  const chess::Color c = chess::color_of(bishop);
  const Bitboard colour = (kDarkSquares >> s & 1) ? kDarkSquares : ~kDarkSquares;
  const Bitboard theirs = pos.pieces(chess::Color(c ^ 1), chess::PAWN);
  const Bitboard ours = pos.pieces(c, chess::PAWN);
  return in_range(opponents, chess::popcount(theirs & colour), chess::popcount(theirs)) &&
         in_range(own, chess::popcount(ours & ~colour), chess::popcount(ours));
}

bool has_opposition(const chess::Position& pos, chess::Color c) {
  const Bitboard wk = pos.pieces(chess::WHITE, chess::KING), bk = pos.pieces(chess::BLACK, chess::KING);
  if (!wk || !bk) return false;
  const chess::Square w = chess::lsb(wk), b = chess::lsb(bk);
  const int df = std::abs(int(chess::file_of(w)) - int(chess::file_of(b)));
  const int dr = std::abs(int(chess::rank_of(w)) - int(chess::rank_of(b)));
  const bool in_opposition = df % 2 == 0 && dr % 2 == 0;
  return in_opposition == (pos.side_to_move() != c);
}

}  // namespace eval
