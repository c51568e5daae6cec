#include "eval/node.h"

#include <algorithm>
#include <climits>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "eval/analysis_keywords.h"
#include "eval/accumulator.h"
#include "eval/board_predicates.h"
#include "eval/control.h"
#include "eval/pawn_structure.h"
#include "eval/piece_structure.h"
#include "eval/exchange.h"
#include "eval/lookahead.h"
#include "eval/line.h"
#include "eval/ray.h"
#include "eval/relation.h"

namespace eval {

using chess::Bitboard;

namespace {

/// The rays filters by Node::value for Op::kRay.
constexpr RayFilter kRayFilters[] = {ray_filter::kRay,          ray_filter::kRayAttack,
                                     ray_filter::kRayDiagonal,  ray_filter::kRayOrthogonal,
                                     ray_filter::kRayHorizontal, ray_filter::kRayVertical};

/// The castling right a castling move `m` (king takes own rook) uses.
chess::CastlingRight castling_of(const chess::Position& pos, chess::Move m) {
  chess::Color us = pos.side_to_move();
  bool king_side = m.to_sq() > m.from_sq();
  return chess::castling_right(us, king_side);
}

/// The square a moving piece lands on: for castling the king's destination (c/g file).
chess::Square landing_square(const chess::Position& pos, chess::Move m) {
  if (m.kind() == chess::Move::CASTLING) return chess::Position::castling_king_to(castling_of(pos, m));
  return m.to_sq();
}

/// A bare :cut / :exclude / :skip (`bits`) fires when its list matches (`matched`).
bool fire_control(bool matched, uint8_t bits, const PosCtx& c) {
  if (bits && matched && c.control) c.control->fire(bits);
  return matched;
}

bool designator_on(const Designator& d, const PosCtx& c, chess::Square s) {
  return (d.matches(c) & chess::square_bb(s)) != 0;
}

}  // namespace

Bitboard Designator::matches(const PosCtx& c) const {
  if (tag >= 0) return c.tag_squares[tag] & c.pos->pieces() & squares;
  if (!(promoted | not_promoted)) return squares_of(*c.pos, pieces) & squares;
  Bitboard plain = squares_of(*c.pos, PieceMask(pieces & ~(promoted | not_promoted)));
  if (promoted) plain |= squares_of(*c.pos, promoted) & c.promoted;
  if (not_promoted) plain |= squares_of(*c.pos, not_promoted) & ~c.promoted;
  return plain & squares;
}

namespace {

/// Cost class of a node for order_by_cost: 0 reads a stored fact (side to move, move
/// number, the next move, headers), 1 a few bitboard operations, 2 more (attacks, pawn
/// structure, exchanges, move generation). -1: the node has side effects or may be slow in
/// ways that must not be reordered (sub-lists, controls, accumulation, lines, relations,
/// engine and tablebase probes).
int evaluation_cost(const Node& n) {
  switch (n.op) {
    case Op::kTrue: case Op::kFalse: case Op::kWtm: case Op::kBtm: case Op::kInitial:
    case Op::kTerminal: case Op::kCastling: case Op::kHalfmoveClock:
    case Op::kHalfmoveClockLimit: case Op::kFiftyMoveRule: case Op::kRepetition:
    case Op::kMoveFrom: case Op::kMoveTo: case Op::kPromote: case Op::kNoPromotion:
    case Op::kEnPassant: case Op::kIsCastling: case Op::kMoveNumber: case Op::kHalfmoveNumber:
    case Op::kResult: case Op::kElo: case Op::kWhiteElo: case Op::kBlackElo:
    case Op::kNextFact: case Op::kIsCheckCount: case Op::kIsNull: case Op::kCheckCount:
    case Op::kNthCheck: case Op::kStartPosition: case Op::kVariant: case Op::kInsideVariation:
    case Op::kSumRange: case Op::kSequence: case Op::kLineTable: case Op::kTagMatch:
      return 0;
    case Op::kDesignator: case Op::kPieceCount: case Op::kPower: case Op::kPowerDifference:
    case Op::kPieceCountDifference: case Op::kInside:
      return 1;
    case Op::kCheck: return n.d.empty() ? 1 : 2;
    case Op::kList: case Op::kAnd: case Op::kOr: case Op::kXor: case Op::kCond:
    case Op::kControl: case Op::kAccumulate: case Op::kLine: case Op::kRelation:
    case Op::kEndgameEvaluation: case Op::kEvaluation: case Op::kMoveEvaluation:
      return -1;
    default: return 2;
  }
}

}  // namespace

void order_by_cost(std::vector<Node>& nodes) {
  for (const Node& n : nodes)
    if (evaluation_cost(n) < 0) return;
  std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) {
    return evaluation_cost(a) < evaluation_cost(b);
  });
}

bool PositionList::match(const PosCtx& c) const {
  auto all_match = [&](uint32_t v) {
    for (const Node& n : variants[v])
      if (!n.match(c)) return false;
    return true;
  };
  if (index.active()) return fire_control(index.any(*c.pos, all_match) != negated, control, c);
  bool any = false;
  for (const std::vector<Node>& conjunction : variants) {
    bool all = true;
    for (const Node& n : conjunction) {
      if (!n.match(c)) {
        all = false;
        break;
      }
    }
    if (all) {
      any = true;
      break;
    }
  }
  return fire_control(any != negated, control, c);
}

bool Node::match(const PosCtx& c) const {
  const chess::Position& pos = *c.pos;
  bool r = false;
  switch (op) {
    case Op::kTrue: r = true; break;
    case Op::kFalse: r = false; break;
    case Op::kDesignator: r = d[0].matches(c) != 0; break;
    case Op::kMate: r = is_mate(pos); break;
    case Op::kStalemate: r = is_stalemate(pos); break;
    case Op::kCheck: r = d.empty() ? pos.in_check() : is_check(pos, d[0].matches(c)); break;
    case Op::kDoubleCheck:
      r = d.empty() ? is_double_check(pos) : is_double_check(pos, d[0].matches(c));
      break;
    case Op::kContactCheck:
      r = d.empty() ? is_contact_check(pos) : is_contact_check(pos, d[0].matches(c));
      break;
    case Op::kWtm: r = pos.side_to_move() == chess::WHITE; break;
    case Op::kBtm: r = pos.side_to_move() == chess::BLACK; break;
    case Op::kInitial: r = c.ply == 0; break;
    case Op::kTerminal: r = c.ply == c.last_ply; break;
    case Op::kCastling: r = chess::popcount(Bitboard(pos.castling_rights() & value)) == 1; break;
    case Op::kEndgame: r = is_endgame(pos); break;
    case Op::kFen:
      r = pos.key() == fen->key() && pos.pieces() == fen->pieces() &&
          pos.pieces(chess::WHITE) == fen->pieces(chess::WHITE) &&
          pos.pieces(chess::PAWN) == fen->pieces(chess::PAWN) &&
          pos.pieces(chess::KNIGHT) == fen->pieces(chess::KNIGHT) &&
          pos.pieces(chess::BISHOP) == fen->pieces(chess::BISHOP) &&
          pos.pieces(chess::ROOK) == fen->pieces(chess::ROOK) &&
          pos.pieces(chess::QUEEN) == fen->pieces(chess::QUEEN);
      break;
    case Op::kGameIsOver: r = no_mating_material(pos) || !chess::has_legal_move(pos); break;
    case Op::kMatingMaterial: r = has_mating_material(pos); break;
    case Op::kCannotWin: r = cannot_win(pos, chess::Color(value)); break;
    case Op::kHalfmoveClock: r = range.contains(pos.rule50_count()); break;
    case Op::kHalfmoveClockLimit: r = pos.rule50_count() <= value; break;
    case Op::kFiftyMoveRule:
      r = pos.rule50_count() == 100 || (c.ply == 0 && pos.rule50_count() > 100);
      break;
    case Op::kRepetition: r = c.occurrences == uint32_t(value); break;
    case Op::kPieceCount: r = range.contains(chess::popcount(d[0].matches(c))); break;
    case Op::kPower: r = range.contains(power(pos, d[0].matches(c))); break;
    case Op::kPowerDifference:
      if (d.size() == 1) {
        int diff = power_difference(pos, d[0].matches(c));
        r = range.contains(value ? -diff : diff);  // value = 1: colours swapped
      } else {
        r = range.contains(power(pos, d[0].matches(c)) - power(pos, d[1].matches(c)));
      }
      break;
    case Op::kPieceCountDifference:
      if (d.size() == 1) {
        Bitboard m = d[0].matches(c);
        int diff = chess::popcount(m & pos.pieces(chess::WHITE)) -
                   chess::popcount(m & pos.pieces(chess::BLACK));
        r = range.contains(value ? -diff : diff);
      } else {
        r = range.contains(chess::popcount(d[0].matches(c)) - chess::popcount(d[1].matches(c)));
      }
      break;
    case Op::kAttackCount:
      r = range.contains(attack_count(pos, d[0].matches(c), d[1].matches(c)));
      break;
    case Op::kRay: {
      if (d.size() > 8) {  // a ray has at most 8 squares: no ray fits, the count is 0
        r = range.contains(0);
        break;
      }
      Bitboard steps[8];
      size_t n = d.size();
      bool empty = false;  // a step no square matches: no ray
      for (size_t i = 0; i < n && !empty; ++i) empty = !(steps[i] = d[i].matches(c));
      r = range.contains(empty ? 0 : ray_count(pos, std::span<const Bitboard>(steps, n), kRayFilters[value]));
      break;
    }
    case Op::kInside: r = d[0].matches(c) != 0; break;
    case Op::kMoveFrom:
      r = c.next.is_ok() && c.next != chess::Move::null() && designator_on(d[0], c, c.next.from_sq());
      break;
    case Op::kMoveTo:
      r = c.next.is_ok() && c.next != chess::Move::null() &&
          designator_on(d[0], c, landing_square(pos, c.next));
      break;
    case Op::kPromote:
      if (c.next.is_ok() && c.next.kind() == chess::Move::PROMOTION) {
        chess::Piece promo = chess::make_piece(pos.side_to_move(), c.next.promotion_type());
        r = (d[0].pieces & piece_bit(promo)) && (d[0].squares & chess::square_bb(c.next.to_sq()));
      }
      break;
    case Op::kNoPromotion:
      r = c.next.is_ok() && c.next.kind() != chess::Move::PROMOTION;
      break;
    case Op::kEnPassant: r = c.next.is_ok() && c.next.kind() == chess::Move::EN_PASSANT; break;
    case Op::kIsCastling:
      r = c.next.is_ok() && c.next.kind() == chess::Move::CASTLING &&
          (castling_of(pos, c.next) & value);
      break;
    case Op::kMoveNumber: r = range.contains(pos.fullmove_number(), c.last_movenumber); break;
    case Op::kHalfmoveNumber: r = range.contains(c.ply, c.last_ply); break;
    case Op::kResult: r = (value >> c.info->result) & 1; break;
    case Op::kElo:
      r = range.contains(c.info->white_elo) || range.contains(c.info->black_elo);
      break;
    case Op::kWhiteElo: r = range.contains(c.info->white_elo); break;
    case Op::kBlackElo: r = range.contains(c.info->black_elo); break;
    case Op::kList: r = lists[0]->match(c); break;
    case Op::kAnd:
      r = true;
      for (const auto& l : lists)
        if (!l->match(c)) {
          r = false;
          break;
        }
      break;
    case Op::kOr:
      for (const auto& l : lists)
        if (l->match(c)) {
          r = true;
          break;
        }
      break;
    case Op::kXor: {
      int n = 0;
      for (const auto& l : lists) n += l->match(c);
      r = n == 1;
      break;
    }
    case Op::kCond: {
      size_t i = 0;
      for (; i + 1 < lists.size(); i += 2) {
        if (lists[i]->match(c)) return lists[i + 1]->match(c) != negate;
      }
      r = i < lists.size() ? lists[i]->match(c) : false;  // default expression
      break;
    }
    case Op::kPawnCount: r = pawn_count_matches(*pawn, pos, d[0].matches(c)); break;
    case Op::kPawnCountDifference: {
      std::optional<Bitboard> second;
      if (d.size() > 1) second = d[1].matches(c);
      r = range.contains(pawn_count_difference(*pawn, pos, d[0].matches(c), second));
      break;
    }
    case Op::kGoodBishop:
      for (Bitboard b = d[0].matches(c) & pos.pieces(chess::BISHOP); b && !r;)
        r = good_bishop(pos, chess::pop_lsb(b), pawn->ranges[0], pawn->ranges[1]);
      break;
    case Op::kPassedPawnRace: {
      if (d.empty()) {  // no designator: the side to move
        r = wins_passed_pawn_race(pos, pos.side_to_move());
        break;
      }
      const PieceMask m = d[0].pieces;
      r = ((m & cql::piece_mask::kWhitePawn) && wins_passed_pawn_race(pos, chess::WHITE)) ||
          ((m & cql::piece_mask::kBlackPawn) && wins_passed_pawn_race(pos, chess::BLACK));
      break;
    }
    case Op::kPerpendicular: r = perpendicular(pos, d[0].matches(c), d[1].matches(c)); break;
    case Op::kUnstoppablePawns: {
      const Bitboard pawns = d[0].matches(c);
      const int white = unstoppable_pawns(pos, chess::WHITE, pawns);
      const int black = unstoppable_pawns(pos, chess::BLACK, pawns);
      r = pawn->ranges.size() == 2 ? pawn->ranges[0].contains(white) && pawn->ranges[1].contains(black)
                                   : pawn->ranges[0].contains(white + black);
      break;
    }
    case Op::kOpposition: {
      if (d.empty()) {  // no designator: the king of the side to move
        r = has_opposition(pos, pos.side_to_move());
        break;
      }
      Bitboard kings = d[0].matches(c) & pos.pieces(chess::KING);
      r = ((kings & pos.pieces(chess::WHITE)) && has_opposition(pos, chess::WHITE)) ||
          ((kings & pos.pieces(chess::BLACK)) && has_opposition(pos, chess::BLACK));
      break;
    }
    case Op::kNextFact: r = (c.next_facts & value) != 0; break;
    case Op::kIsCheckCount:
      r = (c.next_facts & next_fact::kCheck) &&
          range.contains(c.checks_given[pos.side_to_move()] + 1);
      break;
    case Op::kIsNull: r = c.next == chess::Move::null(); break;
    case Op::kForced:
      if (c.next.is_ok() && c.next != chess::Move::null()) {
        chess::MoveList moves;
        chess::generate_legal(pos, moves);
        r = moves.size() == 1;
      }
      break;
    case Op::kCheckCount:
      r = ranges[0].contains(c.checks_given[chess::BLACK]) &&
          ranges[1].contains(c.checks_given[chess::WHITE]) &&
          (value == 0 || c.ply == 0 || pos.in_check());
      break;
    case Op::kNthCheck:
      r = c.ply > 0 && pos.in_check() && range.contains(c.checks_given[~pos.side_to_move()]);
      break;
    case Op::kStartPosition:
      for (const IntRange& e : ranges) r = r || e.contains(c.start_position);
      break;
    case Op::kVariant: r = (value >> (c.chess960 ? 1 : 0)) & 1; break;
    case Op::kInsideVariation: r = c.inside_variation; break;
    case Op::kControl: r = true; break;  // its argument is evaluated on its own (control.h)
    case Op::kAccumulate: r = true; break;
    case Op::kSumRange:
      r = c.accumulators && (c.accumulators->counting || range.contains(c.accumulators->value(size_t(value))));
      break;
    case Op::kSequence:
    case Op::kLineTable: r = (*c.sequence_hits)[size_t(value)][c.ply - c.line_first_ply] != 0; break;
    case Op::kRelation: r = c.relation->at(size_t(value), c.ply - c.line_first_ply); break;
    case Op::kLine: r = match_line(*line, c); break;
    case Op::kTagMatch: r = (d[0].matches(c) & c.tag_squares[value]) != 0; break;
    case Op::kEndgameEvaluation: r = endgame_evaluation(*this, c); break;
    case Op::kExchangeEvaluation: {
      const Bitboard victims = d.empty() ? ~Bitboard(0) : d[0].matches(c);
      const std::optional<int> v = next_move_exchange(pos, c.next, victims, int(value));
      r = v && range.contains(*v);
      break;
    }
    case Op::kMaxSwapEvaluation: {
      // without an upper bound the first value >= the lower bound decides
      const int enough = range.hi == INT64_MAX ? int(std::clamp<int64_t>(range.lo, INT_MIN, INT_MAX)) : INT_MAX;
      const std::optional<int> v = max_swap_value(pos, d[0].matches(c), d[1].matches(c), enough);
      r = v && range.contains(*v);
      break;
    }
    case Op::kEvaluation: r = match_evaluation(*this, c); break;
    case Op::kMoveEvaluation: r = match_move_evaluation(*this, c); break;
  }
  return r != negate;
}

}  // namespace eval
