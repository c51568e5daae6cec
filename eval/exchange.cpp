// Static exchange evaluation; what is evaluated and how is described in exchange.h.
#include "eval/exchange.h"

#include <algorithm>

#include "eval/board_predicates.h"

namespace eval {

namespace {

using chess::Bitboard;
using chess::Color;
using chess::PieceType;
using chess::Square;
using chess::square_bb;

/// Power of a piece type in pawn units (SPEC: Q9 R5 B3 N3 P1; the king 0, it is never taken).
int value_of(PieceType pt) {
  return piece_power(chess::make_piece(chess::WHITE, pt));
}

/// Material a pawn gains by promoting to a queen during the exchange.
constexpr int kQueenPromotionGain = 8;

constexpr Bitboard kLastRanks = chess::RANK_1_BB | chess::RANK_8_BB;

/// True if the piece of colour `side` on `from` may move to `to` (capturing on `victim`, or
/// SQ_NONE) when the squares `occ` are occupied, without leaving its king attacked. Only
/// pieces on `occ` count; the piece on `to`, if any, is the one being captured.
bool king_safe_after(const chess::Position& pos, Color side, Square from, Square to,
                     Square victim, Bitboard occ) {
  Bitboard after = (occ & ~square_bb(from)) | square_bb(to);
  if (victim != chess::SQ_NONE) after &= ~square_bb(victim) | square_bb(to);
  const Square king = chess::type_of(pos.piece_on(from)) == chess::KING ? to : pos.king_square(side);
  const Bitboard enemies = pos.pieces(~side) & after & ~square_bb(to);
  return !(pos.attackers_to(king, after) & enemies);
}

/// The square of the least valuable piece of `side` that may legally capture on `to` when
/// the squares `occ` are occupied (x-rays through squares already vacated included);
/// SQ_NONE if there is none.
Square least_valuable_capturer(const chess::Position& pos, Color side, Square to, Bitboard occ) {
  const Bitboard attackers = pos.attackers_to(to, occ) & occ & pos.pieces(side) & ~square_bb(to);
  if (!attackers) return chess::SQ_NONE;
  for (PieceType pt : {chess::PAWN, chess::KNIGHT, chess::BISHOP, chess::ROOK, chess::QUEEN, chess::KING}) {
    for (Bitboard b = attackers & pos.pieces(pt); b;) {
      const Square from = chess::pop_lsb(b);
      if (king_safe_after(pos, side, from, to, to, occ)) return from;
    }
  }
  return chess::SQ_NONE;
}

}  // namespace

ExchangeMove exchange_move(const chess::Position& pos, chess::Move m) {
  ExchangeMove e;
  e.from = m.from_sq();
  e.to = m.to_sq();
  if (m.kind() == chess::Move::EN_PASSANT)
    e.victim = chess::square_offset(e.to, -chess::pawn_push(pos.side_to_move()));
  else if (!pos.empty(e.to))
    e.victim = e.to;
  if (m.kind() == chess::Move::PROMOTION) e.promotion = m.promotion_type();
  return e;
}

bool exchange_move_is_legal(const chess::Position& pos, const ExchangeMove& m) {
  const Color side = chess::color_of(pos.piece_on(m.from));
  return king_safe_after(pos, side, m.from, m.to, m.victim, pos.pieces());
}

int static_exchange(const chess::Position& pos, const ExchangeMove& m, int max_plies) {
  if (max_plies <= 0 || max_plies > kMaxExchangePlies) max_plies = kMaxExchangePlies;
  const chess::Piece mover = pos.piece_on(m.from);
  // gain[i]: what the side making capture i wins if the sequence stops after it.
  int gain[kMaxExchangePlies];
  const int captured = m.victim != chess::SQ_NONE ? piece_power(pos.piece_on(m.victim)) : 0;
  int on_square;  // power of the piece standing on m.to
  if (m.promotion != chess::NO_PIECE_TYPE) {
    gain[0] = captured + value_of(m.promotion) - value_of(chess::PAWN);
    on_square = value_of(m.promotion);
  } else {
    gain[0] = captured;
    on_square = value_of(chess::type_of(mover));
  }
  bool king_on_square = chess::type_of(mover) == chess::KING;
  Bitboard occ = pos.pieces() & ~square_bb(m.from);
  if (m.victim != chess::SQ_NONE) occ &= ~square_bb(m.victim);
  occ |= square_bb(m.to);
  Color side = chess::color_of(mover);
  int n = 1;
  for (; n < max_plies && !king_on_square; ++n) {  // a king on the square is never taken
    side = ~side;
    const Square from = least_valuable_capturer(pos, side, m.to, occ);
    if (from == chess::SQ_NONE) break;
    const PieceType pt = chess::type_of(pos.piece_on(from));
    const bool promotes = pt == chess::PAWN && (square_bb(m.to) & kLastRanks);
    gain[n] = on_square + (promotes ? kQueenPromotionGain : 0) - gain[n - 1];
    on_square = promotes ? value_of(chess::QUEEN) : value_of(pt);
    king_on_square = pt == chess::KING;
    occ &= ~square_bb(from);
  }
  // Each side chooses between stopping and capturing (the move under test is forced).
  while (--n > 0) gain[n - 1] = std::min(gain[n - 1], -gain[n]);
  return gain[0];
}

std::optional<int> next_move_exchange(const chess::Position& pos, chess::Move next,
                                      Bitboard victims, int max_plies) {
  if (!next.is_ok() || next == chess::Move::null() || next.kind() == chess::Move::CASTLING ||
      !pos.is_capture(next))
    return std::nullopt;
  const ExchangeMove m = exchange_move(pos, next);
  if (!(victims & square_bb(m.victim))) return std::nullopt;
  return static_exchange(pos, m, max_plies);
}

std::optional<int> max_swap_value(const chess::Position& pos, Bitboard movers, Bitboard targets,
                                  int enough) {
  std::optional<int> best;
  const Bitboard occ = pos.pieces();
  targets &= ~pos.pieces(chess::KING);  // a king is never captured
  for (Bitboard b = movers & occ; b;) {
    const Square from = chess::pop_lsb(b);
    const chess::Piece pc = pos.piece_on(from);
    const Color c = chess::color_of(pc);
    const PieceType pt = chess::type_of(pc);
    const Bitboard enemies = pos.pieces(~c);
    Square ep = chess::SQ_NONE;  // en passant only for the side to move
    Bitboard dests;
    if (pt == chess::PAWN) {
      const Bitboard push = chess::shift_forward(c, square_bb(from)) & ~occ;
      const bool home = chess::relative_rank(c, chess::rank_of(from)) == chess::RANK_2;
      dests = push | (home ? chess::shift_forward(c, push) & ~occ : 0) |
              (chess::pawn_attacks_bb(c, from) & enemies);
      if (c == pos.side_to_move() && pos.ep_square() != chess::SQ_NONE &&
          (chess::pawn_attacks_bb(c, from) & square_bb(pos.ep_square()))) {
        ep = pos.ep_square();
        dests |= square_bb(ep);
      }
    } else {
      dests = chess::attacks_bb(pt, from, occ) & ~pos.pieces(c);
    }
    for (Bitboard d = dests & targets; d;) {
      ExchangeMove m;
      m.from = from;
      m.to = chess::pop_lsb(d);
      if (enemies & square_bb(m.to)) m.victim = m.to;
      else if (m.to == ep) m.victim = chess::square_offset(m.to, -chess::pawn_push(c));
      const bool promotes = pt == chess::PAWN && (square_bb(m.to) & kLastRanks);
      const int captured = m.victim != chess::SQ_NONE ? piece_power(pos.piece_on(m.victim)) : 0;
      // A move is never worth more than what it takes (plus its promotion gain): skip the
      // moves that cannot beat the best so far (exact; most quiet moves end here).
      const int bound = captured + (promotes ? kQueenPromotionGain : 0);
      if (best && bound <= *best) continue;
      if (!exchange_move_is_legal(pos, m)) continue;
      for (PieceType promo : {chess::QUEEN, chess::ROOK, chess::BISHOP, chess::KNIGHT}) {
        if (promotes) m.promotion = promo;
        if (promotes && best && captured + value_of(promo) - value_of(chess::PAWN) <= *best) continue;
        const int v = static_exchange(pos, m);
        if (!best || v > *best) best = v;
        if (v >= enough) return best;
        if (!promotes) break;
      }
    }
  }
  return best;
}

}  // namespace eval
