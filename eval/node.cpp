#include "eval/node.h"

#include <algorithm>
#include <cassert>
#include <climits>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/position_key.h"
#include "eval/analysis_keywords.h"
#include "eval/accumulator.h"
#include "eval/board_predicates.h"
#include "eval/control.h"
#include "eval/cql6_eval.h"
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

/// The ray filters by payload::RayKind::filter for Op::kRay.
constexpr RayFilter kRayFilters[payload::RayKind::kCount] = {ray_filter::kRay,          ray_filter::kRayAttack,
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
  assert(c.pos && "Designator::matches: no position");
  assert(tag < 2 && "Designator::matches: at most two tags (CQL-Tagging)");
  if (tag >= 0) return c.tag_squares[tag] & c.pos->pieces() & squares;
  if (!(promoted | not_promoted)) return squares_of(*c.pos, pieces) & squares;
  Bitboard plain = squares_of(*c.pos, PieceMask(pieces & ~(promoted | not_promoted)));
  if (promoted) plain |= squares_of(*c.pos, promoted) & c.promoted;
  if (not_promoted) plain |= squares_of(*c.pos, not_promoted) & ~c.promoted;
  return plain & squares;
}

void order_by_cost(std::vector<Node>& nodes) {
  for (const Node& n : nodes)
    if (n.cost == Cost::kOrdered) return;
  std::stable_sort(nodes.begin(), nodes.end(), [](const Node& a, const Node& b) { return a.cost < b.cost; });
}

bool PositionList::any_variant(const PosCtx& c) const {
  auto all_match = [&](uint32_t v) {
    for (const Node& n : variants[v])
      if (!n.match(c)) return false;
    return true;
  };
  if (index.active()) return index.any(*c.pos, all_match);
  for (const std::vector<Node>& conjunction : variants) {
    bool all = true;
    for (const Node& n : conjunction) {
      if (!n.match(c)) {
        all = false;
        break;
      }
    }
    if (all) return true;
  }
  return false;
}

const MemoSlot* PositionList::counted_here(const PosCtx& c, const MemoKey& key) const {
  if (!c.accumulators || c.accumulators->counting || memo.accumulate_counters().empty()) return nullptr;
  const MemoSlot& counted = memo_slot(memo.id(), 1);
  return counted.id == memo.id() && key.starts_with(counted.key) ? &counted : nullptr;
}

bool PositionList::match(const PosCtx& c) const {
  bool any;
  if (memo.active() && BoardMemo::enabled()) {
    MemoKey key;
    memo.key(c, true, key);
    MemoSlot& slot = memo_slot(memo.id(), 0);
    if (slot.id == memo.id() && slot.key == key) {
      any = slot.any;
    } else if (const MemoSlot* counted = counted_here(c, key)) {
      // the counting pass at this position found the variants that can match
      any = false;
      for (uint32_t v : counted->matched) {
        bool all = true;
        for (const Node& n : variants[v])
          if (n.op == Op::kSumRange && !n.match(c)) all = false;
        if (all) {
          any = true;
          break;
        }
      }
      slot.id = memo.id();
      slot.key = key;
      slot.any = any;
    } else {
      any = any_variant(c);
      slot.id = memo.id();
      slot.key = key;
      slot.any = any;
    }
  } else {
    any = any_variant(c);
  }
  return fire_control(any != negated, control, c);
}

bool Node::match(const PosCtx& c) const {
  assert(c.pos && "Node::match: no position");
  assert(c.ply >= c.line_first_ply && "Node::match: ply before the line's first");
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
    case Op::kCastling:
      r = chess::popcount(Bitboard(pos.castling_rights() & as<payload::Castling>().rights)) == 1;
      break;
    case Op::kEndgame: r = is_endgame(pos); break;
    case Op::kFen: {
      const chess::Position* fen = as<payload::FenPosition>().position.get();
      // Position identity (SPEC): an en-passant square counts only with a legal capture.
      r = chess::identity_key(pos) == chess::identity_key(*fen) && pos.pieces() == fen->pieces() &&
          pos.pieces(chess::WHITE) == fen->pieces(chess::WHITE) &&
          pos.pieces(chess::PAWN) == fen->pieces(chess::PAWN) &&
          pos.pieces(chess::KNIGHT) == fen->pieces(chess::KNIGHT) &&
          pos.pieces(chess::BISHOP) == fen->pieces(chess::BISHOP) &&
          pos.pieces(chess::ROOK) == fen->pieces(chess::ROOK) &&
          pos.pieces(chess::QUEEN) == fen->pieces(chess::QUEEN);
      break;
    }
    case Op::kGameIsOver: r = no_mating_material(pos) || !chess::has_legal_move(pos); break;
    case Op::kMatingMaterial: r = has_mating_material(pos); break;
    case Op::kCannotWin: r = cannot_win(pos, as<payload::Side>().color); break;
    case Op::kHalfmoveClock: r = range.contains(pos.rule50_count()); break;
    case Op::kHalfmoveClockLimit: r = pos.rule50_count() <= as<payload::ClockLimit>().max_clock; break;
    case Op::kFiftyMoveRule:
      r = pos.rule50_count() == 100 || (c.ply == 0 && pos.rule50_count() > 100);
      break;
    case Op::kRepetition: r = c.occurrences == as<payload::Occurrences>().count; break;
    case Op::kPieceCount: r = range.contains(chess::popcount(d[0].matches(c))); break;
    case Op::kPower: r = range.contains(power(pos, d[0].matches(c))); break;
    case Op::kPowerDifference:
      if (d.size() == 1) {
        int diff = power_difference(pos, d[0].matches(c));
        r = range.contains(as<payload::ColorsSwapped>().swapped ? -diff : diff);
      } else {
        r = range.contains(power(pos, d[0].matches(c)) - power(pos, d[1].matches(c)));
      }
      break;
    case Op::kPieceCountDifference:
      if (d.size() == 1) {
        Bitboard m = d[0].matches(c);
        int diff = chess::popcount(m & pos.pieces(chess::WHITE)) -
                   chess::popcount(m & pos.pieces(chess::BLACK));
        r = range.contains(as<payload::ColorsSwapped>().swapped ? -diff : diff);
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
      r = range.contains(empty ? 0 : ray_count(pos, std::span<const Bitboard>(steps, n),
                                                 kRayFilters[as<payload::RayKind>().filter]));
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
          (castling_of(pos, c.next) & as<payload::Castling>().rights);
      break;
    case Op::kMoveNumber: r = range.contains(pos.fullmove_number(), c.last_movenumber); break;
    case Op::kHalfmoveNumber: r = range.contains(c.ply, c.last_ply); break;
    case Op::kResult:
      assert(c.info && "Node::match: :result without game information");
      r = (as<payload::ResultSet>().codes >> c.info->result) & 1;
      break;
    case Op::kElo:
      assert(c.info && "Node::match: Elo without game information");
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
    case Op::kPawnCount: r = pawn_count_matches(*as<payload::PawnSpec>().spec, pos, d[0].matches(c)); break;
    case Op::kPawnCountDifference: {
      std::optional<Bitboard> second;
      if (d.size() > 1) second = d[1].matches(c);
      r = range.contains(pawn_count_difference(*as<payload::PawnSpec>().spec, pos, d[0].matches(c), second));
      break;
    }
    case Op::kGoodBishop: {
      const PawnCountSpec& spec = *as<payload::PawnSpec>().spec;
      for (Bitboard b = d[0].matches(c) & pos.pieces(chess::BISHOP); b && !r;)
        r = good_bishop(pos, chess::pop_lsb(b), spec.ranges[0], spec.ranges[1]);
      break;
    }
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
      const std::vector<cql::Range>& ranges = as<payload::PawnSpec>().spec->ranges;
      r = ranges.size() == 2 ? ranges[0].contains(white) && ranges[1].contains(black)
                             : ranges[0].contains(white + black);
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
    case Op::kNextFact: r = (c.next_facts & as<payload::NextFacts>().bits) != 0; break;
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
    case Op::kCheckCount: {
      const payload::CheckCounts& counts = as<payload::CheckCounts>();
      r = counts.received[chess::WHITE].contains(c.checks_given[chess::BLACK]) &&
          counts.received[chess::BLACK].contains(c.checks_given[chess::WHITE]) &&
          (!counts.at_reach || c.ply == 0 || pos.in_check());
      break;
    }
    case Op::kNthCheck:
      r = c.ply > 0 && pos.in_check() && range.contains(c.checks_given[~pos.side_to_move()]);
      break;
    case Op::kStartPosition:
      for (const IntRange& e : as<payload::StartNumbers>().numbers) r = r || e.contains(c.start_position);
      break;
    case Op::kVariant: r = (as<payload::VariantRules>().bits >> (c.chess960 ? 1 : 0)) & 1; break;
    case Op::kInsideVariation: r = c.inside_variation; break;
    case Op::kControl: r = true; break;  // its argument is evaluated on its own (control.h)
    case Op::kAccumulate: r = true; break;
    case Op::kSumRange:
      r = c.accumulators &&
          (c.accumulators->counting || range.contains(c.accumulators->value(as<payload::Counter>().index)));
      break;
    case Op::kSequence:
    case Op::kLineTable: {
      assert(c.sequence_hits && "Node::match: sequence without sequence hits");
      const std::vector<uint8_t>& hits = (*c.sequence_hits)[as<payload::SequenceId>().id];
      assert(c.ply - c.line_first_ply < hits.size() && "Node::match: ply beyond the sequence hits");
      r = hits[c.ply - c.line_first_ply] != 0;
      break;
    }
    case Op::kRelation:
      assert(c.relation && "Node::match: :relation without relations");
      r = c.relation->at(as<payload::RelationId>().id, c.ply - c.line_first_ply);
      break;
    case Op::kLine: r = match_line(*as<payload::Line>().spec, c); break;
    case Op::kCql6: r = cql6_eval::match(*as<payload::Cql6>().filter, cql6_eval::from(c)); break;
    case Op::kTagMatch: {
      const uint8_t tag = as<payload::TagNumber>().tag;
      assert(tag < 2 && "Node::match: at most two tags (CQL-Tagging)");
      r = (d[0].matches(c) & c.tag_squares[tag]) != 0;
      break;
    }
    case Op::kEndgameEvaluation: r = endgame_evaluation(*this, c); break;
    case Op::kExchangeEvaluation: {
      const Bitboard victims = d.empty() ? ~Bitboard(0) : d[0].matches(c);
      const std::optional<int> v = next_move_exchange(pos, c.next, victims, as<payload::ExchangeDepth>().max_plies);
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
