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

namespace {

// The evaluations of Node::match that take more than a line, by concept; Node::match stays
// one switch over Op with one line a case. Each reads only the node and the position
// context, as the case did (called once each: the compiler inlines them).

// ---- the position

/// Position identity (SPEC): same pieces on the same squares, side to move, castling rights
/// and an en-passant square only with a legal capture.
bool same_position(const chess::Position& pos, const chess::Position& fen) {
  return chess::identity_key(pos) == chess::identity_key(fen) && pos.pieces() == fen.pieces() &&
         pos.pieces(chess::WHITE) == fen.pieces(chess::WHITE) && pos.pieces(chess::PAWN) == fen.pieces(chess::PAWN) &&
         pos.pieces(chess::KNIGHT) == fen.pieces(chess::KNIGHT) &&
         pos.pieces(chess::BISHOP) == fen.pieces(chess::BISHOP) &&
         pos.pieces(chess::ROOK) == fen.pieces(chess::ROOK) && pos.pieces(chess::QUEEN) == fen.pieces(chess::QUEEN);
}

// ---- material

bool power_difference_matches(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  if (n.d.size() == 1) {
    int diff = power_difference(pos, n.d[0].matches(c));
    return n.range.contains(n.as<payload::ColorsSwapped>().swapped ? -diff : diff);
  }
  return n.range.contains(power(pos, n.d[0].matches(c)) - power(pos, n.d[1].matches(c)));
}

bool piece_count_difference_matches(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  if (n.d.size() == 1) {
    Bitboard m = n.d[0].matches(c);
    int diff = chess::popcount(m & pos.pieces(chess::WHITE)) - chess::popcount(m & pos.pieces(chess::BLACK));
    return n.range.contains(n.as<payload::ColorsSwapped>().swapped ? -diff : diff);
  }
  return n.range.contains(chess::popcount(n.d[0].matches(c)) - chess::popcount(n.d[1].matches(c)));
}

// ---- lines of squares

bool ray_matches(const Node& n, const PosCtx& c) {
  if (n.d.size() > 8) return n.range.contains(0);  // a ray has at most 8 squares: no ray fits
  Bitboard steps[8];
  const size_t count = n.d.size();
  bool empty = false;  // a step no square matches: no ray
  for (size_t i = 0; i < count && !empty; ++i) empty = !(steps[i] = n.d[i].matches(c));
  return n.range.contains(empty ? 0 : ray_count(*c.pos, std::span<const Bitboard>(steps, count),
                                                kRayFilters[n.as<payload::RayKind>().filter]));
}

// ---- the next move

bool promote_matches(const Node& n, const PosCtx& c) {
  if (!c.next.is_ok() || c.next.kind() != chess::Move::PROMOTION) return false;
  chess::Piece promo = chess::make_piece(c.pos->side_to_move(), c.next.promotion_type());
  return (n.d[0].pieces & piece_bit(promo)) && (n.d[0].squares & chess::square_bb(c.next.to_sq()));
}

bool forced_matches(const PosCtx& c) {
  if (!c.next.is_ok() || c.next == chess::Move::null()) return false;
  chess::MoveList moves;
  chess::generate_legal(*c.pos, moves);
  return moves.size() == 1;
}

bool check_count_matches(const Node& n, const PosCtx& c) {
  const payload::CheckCounts& counts = n.as<payload::CheckCounts>();
  return counts.received[chess::WHITE].contains(c.checks_given[chess::BLACK]) &&
         counts.received[chess::BLACK].contains(c.checks_given[chess::WHITE]) &&
         (!counts.at_reach || c.ply == 0 || c.pos->in_check());
}

// ---- logic over sub-lists

bool all_lists_match(const Node& n, const PosCtx& c) {
  for (const auto& l : n.lists)
    if (!l->match(c)) return false;
  return true;
}

bool some_list_matches(const Node& n, const PosCtx& c) {
  for (const auto& l : n.lists)
    if (l->match(c)) return true;
  return false;
}

bool one_list_matches(const Node& n, const PosCtx& c) {
  int matched = 0;
  for (const auto& l : n.lists) matched += l->match(c);
  return matched == 1;
}

/// :cond: the list after the first test list that matches, else the default list (or false).
bool cond_matches(const Node& n, const PosCtx& c) {
  size_t i = 0;
  for (; i + 1 < n.lists.size(); i += 2)
    if (n.lists[i]->match(c)) return n.lists[i + 1]->match(c);
  return i < n.lists.size() ? n.lists[i]->match(c) : false;  // default expression
}

// ---- pawn and piece structure

bool pawn_count_difference_matches(const Node& n, const PosCtx& c) {
  std::optional<Bitboard> second;
  if (n.d.size() > 1) second = n.d[1].matches(c);
  return n.range.contains(pawn_count_difference(*n.as<payload::PawnSpec>().spec, *c.pos, n.d[0].matches(c), second));
}

bool good_bishop_matches(const Node& n, const PosCtx& c) {
  const PawnCountSpec& spec = *n.as<payload::PawnSpec>().spec;
  for (Bitboard b = n.d[0].matches(c) & c.pos->pieces(chess::BISHOP); b;)
    if (good_bishop(*c.pos, chess::pop_lsb(b), spec.ranges[0], spec.ranges[1])) return true;
  return false;
}

bool passed_pawn_race_matches(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  if (n.d.empty()) return wins_passed_pawn_race(pos, pos.side_to_move());  // no designator: the side to move
  const PieceMask m = n.d[0].pieces;
  return ((m & cql::piece_mask::kWhitePawn) && wins_passed_pawn_race(pos, chess::WHITE)) ||
         ((m & cql::piece_mask::kBlackPawn) && wins_passed_pawn_race(pos, chess::BLACK));
}

bool unstoppable_pawns_match(const Node& n, const PosCtx& c) {
  const Bitboard pawns = n.d[0].matches(c);
  const int white = unstoppable_pawns(*c.pos, chess::WHITE, pawns);
  const int black = unstoppable_pawns(*c.pos, chess::BLACK, pawns);
  const std::vector<cql::Range>& ranges = n.as<payload::PawnSpec>().spec->ranges;
  return ranges.size() == 2 ? ranges[0].contains(white) && ranges[1].contains(black)
                            : ranges[0].contains(white + black);
}

bool opposition_matches(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  if (n.d.empty()) return has_opposition(pos, pos.side_to_move());  // no designator: the side to move's king
  Bitboard kings = n.d[0].matches(c) & pos.pieces(chess::KING);
  return ((kings & pos.pieces(chess::WHITE)) && has_opposition(pos, chess::WHITE)) ||
         ((kings & pos.pieces(chess::BLACK)) && has_opposition(pos, chess::BLACK));
}

// ---- the game and what spans positions

bool start_position_matches(const Node& n, const PosCtx& c) {
  for (const IntRange& e : n.as<payload::StartNumbers>().numbers)
    if (e.contains(c.start_position)) return true;
  return false;
}

bool sequence_hit(const Node& n, const PosCtx& c) {
  assert(c.sequence_hits && "Node::match: sequence without sequence hits");
  const std::vector<uint8_t>& hits = (*c.sequence_hits)[n.as<payload::SequenceId>().id];
  assert(c.ply - c.line_first_ply < hits.size() && "Node::match: ply beyond the sequence hits");
  return hits[c.ply - c.line_first_ply] != 0;
}

bool tag_matches(const Node& n, const PosCtx& c) {
  const uint8_t tag = n.as<payload::TagNumber>().tag;
  assert(tag < 2 && "Node::match: at most two tags (CQL-Tagging)");
  return (n.d[0].matches(c) & c.tag_squares[tag]) != 0;
}

// ---- evaluations

bool exchange_evaluation_matches(const Node& n, const PosCtx& c) {
  const Bitboard victims = n.d.empty() ? ~Bitboard(0) : n.d[0].matches(c);
  const std::optional<int> v = next_move_exchange(*c.pos, c.next, victims, n.as<payload::ExchangeDepth>().max_plies);
  return v && n.range.contains(*v);
}

bool max_swap_evaluation_matches(const Node& n, const PosCtx& c) {
  // without an upper bound the first value >= the lower bound decides
  const int enough = n.range.hi == INT64_MAX ? int(std::clamp<int64_t>(n.range.lo, INT_MIN, INT_MAX)) : INT_MAX;
  const std::optional<int> v = max_swap_value(*c.pos, n.d[0].matches(c), n.d[1].matches(c), enough);
  return v && n.range.contains(*v);
}

}  // namespace

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
    case Op::kFen: r = same_position(pos, *as<payload::FenPosition>().position); break;
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
    case Op::kPowerDifference: r = power_difference_matches(*this, c); break;
    case Op::kPieceCountDifference: r = piece_count_difference_matches(*this, c); break;
    case Op::kAttackCount:
      r = range.contains(attack_count(pos, d[0].matches(c), d[1].matches(c)));
      break;
    case Op::kRay: r = ray_matches(*this, c); break;
    case Op::kInside: r = d[0].matches(c) != 0; break;
    case Op::kMoveFrom:
      r = c.next.is_ok() && c.next != chess::Move::null() && designator_on(d[0], c, c.next.from_sq());
      break;
    case Op::kMoveTo:
      r = c.next.is_ok() && c.next != chess::Move::null() &&
          designator_on(d[0], c, landing_square(pos, c.next));
      break;
    case Op::kPromote: r = promote_matches(*this, c); break;
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
    case Op::kAnd: r = all_lists_match(*this, c); break;
    case Op::kOr: r = some_list_matches(*this, c); break;
    case Op::kXor: r = one_list_matches(*this, c); break;
    case Op::kCond: r = cond_matches(*this, c); break;
    case Op::kPawnCount: r = pawn_count_matches(*as<payload::PawnSpec>().spec, pos, d[0].matches(c)); break;
    case Op::kPawnCountDifference: r = pawn_count_difference_matches(*this, c); break;
    case Op::kGoodBishop: r = good_bishop_matches(*this, c); break;
    case Op::kPassedPawnRace: r = passed_pawn_race_matches(*this, c); break;
    case Op::kPerpendicular: r = perpendicular(pos, d[0].matches(c), d[1].matches(c)); break;
    case Op::kUnstoppablePawns: r = unstoppable_pawns_match(*this, c); break;
    case Op::kOpposition: r = opposition_matches(*this, c); break;
    case Op::kNextFact: r = (c.next_facts & as<payload::NextFacts>().bits) != 0; break;
    case Op::kIsCheckCount:
      r = (c.next_facts & next_fact::kCheck) &&
          range.contains(c.checks_given[pos.side_to_move()] + 1);
      break;
    case Op::kIsNull: r = c.next == chess::Move::null(); break;
    case Op::kForced: r = forced_matches(c); break;
    case Op::kCheckCount: r = check_count_matches(*this, c); break;
    case Op::kNthCheck:
      r = c.ply > 0 && pos.in_check() && range.contains(c.checks_given[~pos.side_to_move()]);
      break;
    case Op::kStartPosition: r = start_position_matches(*this, c); break;
    case Op::kVariant: r = (as<payload::VariantRules>().bits >> (c.chess960 ? 1 : 0)) & 1; break;
    case Op::kInsideVariation: r = c.inside_variation; break;
    case Op::kControl: r = true; break;  // its argument is evaluated on its own (control.h)
    case Op::kAccumulate: r = true; break;
    case Op::kSumRange:
      r = c.accumulators &&
          (c.accumulators->counting || range.contains(c.accumulators->value(as<payload::Counter>().index)));
      break;
    case Op::kSequence:
    case Op::kLineTable: r = sequence_hit(*this, c); break;
    case Op::kRelation:
      assert(c.relation && "Node::match: :relation without relations");
      r = c.relation->at(as<payload::RelationId>().id, c.ply - c.line_first_ply);
      break;
    case Op::kLine: r = match_line(*as<payload::Line>().spec, c); break;
    case Op::kCql6: r = cql6_eval::match(*as<payload::Cql6>().filter, cql6_eval::from(c)); break;
    case Op::kTagMatch: r = tag_matches(*this, c); break;
    case Op::kEndgameEvaluation: r = endgame_evaluation(*this, c); break;
    case Op::kExchangeEvaluation: r = exchange_evaluation_matches(*this, c); break;
    case Op::kMaxSwapEvaluation: r = max_swap_evaluation_matches(*this, c); break;
    case Op::kEvaluation: r = match_evaluation(*this, c); break;
    case Op::kMoveEvaluation: r = match_move_evaluation(*this, c); break;
  }
  return r != negate;
}

}  // namespace eval
