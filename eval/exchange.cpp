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
  return !(pos.attackers_of(~side, king, after) & after & ~square_bb(to));
}

/// The square of the least valuable piece of `side` that may legally capture on `to` when
/// the squares `occ` are occupied (x-rays through squares already vacated included);
/// SQ_NONE if there is none.
Square least_valuable_capturer(const chess::Position& pos, Color side, Square to, Bitboard occ) {
  const Bitboard attackers = pos.attackers_of(side, to, occ) & occ & ~square_bb(to);
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

namespace {

/// The moves of the piece on `from` whose destination is in `targets` (kings excluded by the
/// caller), as for max_swap_value. Calls `visit(m, bound)` for each, `bound` being the most
/// the move can win (what it takes plus its promotion gain, before the promotion piece is
/// chosen); `visit` returns true to stop.
template <class Visit>
bool for_each_move(const chess::Position& pos, Square from, Bitboard targets, Visit&& visit) {
  const Bitboard occ = pos.pieces();
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
    if (visit(m, captured + (promotes ? kQueenPromotionGain : 0))) return true;
  }
  return false;
}

/// The exchange values of the legal move `m`: one, or, when a pawn promotes, one per
/// promotion piece (queen first) whose bound (what the move takes plus the promotion gain)
/// `wanted(bound)` accepts. Calls `take(v)` for each until it returns true.
template <class Wanted, class Take>
bool for_each_value(const chess::Position& pos, ExchangeMove m, Wanted&& wanted, Take&& take) {
  const bool promotes = chess::type_of(pos.piece_on(m.from)) == chess::PAWN &&
                        (square_bb(m.to) & kLastRanks);
  if (!promotes) return take(static_exchange(pos, m));
  const int captured = m.victim != chess::SQ_NONE ? piece_power(pos.piece_on(m.victim)) : 0;
  for (PieceType promo : {chess::QUEEN, chess::ROOK, chess::BISHOP, chess::KNIGHT}) {
    m.promotion = promo;
    if (!wanted(captured + value_of(promo) - value_of(chess::PAWN))) continue;
    if (take(static_exchange(pos, m))) return true;
  }
  return false;
}

}  // namespace

std::optional<int> max_swap_value(const chess::Position& pos, Bitboard movers, Bitboard targets,
                                  int enough) {
  targets &= ~pos.pieces(chess::KING);  // a king is never captured
  movers &= pos.pieces();
  if (enough == INT_MAX || enough <= 1) {  // the maximum (or the first value >= enough)
    std::optional<int> best;
    // A move is never worth more than what it takes (plus its promotion gain): skip the
    // moves that cannot beat the best so far (exact; most quiet moves end here).
    auto beats_best = [&](int bound) { return !best || bound > *best; };
    auto take = [&](int v) {
      if (!best || v > *best) best = v;
      return v >= enough;
    };
    for (Bitboard b = movers; b;) {
      if (for_each_move(pos, chess::pop_lsb(b), targets, [&](const ExchangeMove& m, int bound) {
            return beats_best(bound) && exchange_move_is_legal(pos, m) &&
                   for_each_value(pos, m, beats_best, take);
          }))
        return best;
    }
    return best;
  }
  // Only whether some value reaches `enough` (>= 2) matters, and a move can reach it only by
  // capturing a piece worth `enough` or more, or by promoting: look at the pawns about to
  // promote, and at the other captures from the victims' side.
  std::optional<int> found;
  auto reaches = [&](int bound) { return bound >= enough; };
  auto take = [&](int v) {
    if (v >= enough) found = v;
    return v >= enough;
  };
  for (Color c : {chess::WHITE, chess::BLACK}) {
    const Bitboard mine = movers & pos.pieces(c);
    if (!mine) continue;
    const Bitboard promoting = mine & pos.pieces(chess::PAWN) &
                               chess::rank_bb(c == chess::WHITE ? chess::RANK_7 : chess::RANK_2);
    for (Bitboard b = promoting; b;) {
      if (for_each_move(pos, chess::pop_lsb(b), targets, [&](const ExchangeMove& m, int bound) {
            return reaches(bound) && exchange_move_is_legal(pos, m) &&
                   for_each_value(pos, m, reaches, take);
          }))
        return found;
    }
    Bitboard victims = 0;  // the enemy pieces worth at least `enough`
    if (enough <= value_of(chess::KNIGHT)) victims |= pos.pieces(chess::KNIGHT);
    if (enough <= value_of(chess::BISHOP)) victims |= pos.pieces(chess::BISHOP);
    if (enough <= value_of(chess::ROOK)) victims |= pos.pieces(chess::ROOK);
    if (enough <= value_of(chess::QUEEN)) victims |= pos.pieces(chess::QUEEN);
    victims &= targets & pos.pieces(~c);
    const Bitboard others = mine & ~promoting;
    for (Bitboard t = victims; t;) {
      ExchangeMove m;
      m.to = m.victim = chess::pop_lsb(t);
      for (Bitboard a = pos.attackers_of(c, m.to, pos.pieces()) & others; a;) {
        m.from = chess::pop_lsb(a);
        if (!exchange_move_is_legal(pos, m)) continue;
        const int v = static_exchange(pos, m);
        if (v >= enough) return v;
      }
    }
  }
  return std::nullopt;
}

}  // namespace eval
