#include "planner/condition.h"
#include "planner/material.h"

#include <algorithm>
#include <map>

#include "chess/bitboard.h"
#include "eval/board_predicates.h"
#include "eval/line.h"
#include "eval/sequence.h"

namespace planner {

using chess::Bitboard;
using cql::PieceMask;
using eval::Node;
using eval::Op;

namespace {

constexpr Bitboard kAll = ~Bitboard(0);

/// True for the conditions that test one material run at a time.
bool is_run_test(CondOp op) {
  return op == CondOp::kCountRun || op == CondOp::kCountAtLeast || op == CondOp::kPowerRun ||
         op == CondOp::kPowerAtLeast || op == CondOp::kDiffRun;
}

/// Evaluates a run test on one material run.
bool run_holds(const Condition& c, const sig::MaterialKey& key) {
  switch (c.op) {
    case CondOp::kCountRun:
    case CondOp::kPowerRun: {
      const cond::RunMaterial& m = c.as<cond::RunMaterial>();
      const int64_t v = material_of(key, m.pieces, c.op == CondOp::kPowerRun);
      return v >= m.lo && v <= m.hi;
    }
    case CondOp::kCountAtLeast:
    case CondOp::kPowerAtLeast: {
      const cond::RunMaterial& m = c.as<cond::RunMaterial>();
      return material_of(key, m.pieces, c.op == CondOp::kPowerAtLeast) >= m.lo;
    }
    case CondOp::kDiffRun: {
      const cond::RunMaterial& m = c.as<cond::RunMaterial>();
      int64_t v = material_of(key, m.pieces, m.power, 1);
      if (m.black_minus_white) v = -v;
      return v >= m.lo && v <= m.hi;
    }
    default: return true;
  }
}

Condition leaf(CondOp op) {
  Condition c;
  c.op = op;
  return c;
}

Condition all_of(std::vector<Condition> kids) {
  Condition c = leaf(CondOp::kAnd);
  c.kids = std::move(kids);
  return simplify(std::move(c));
}

Condition any_of(std::vector<Condition> kids) {
  Condition c = leaf(CondOp::kOr);
  c.kids = std::move(kids);
  return simplify(std::move(c));
}

/// "A piece of the designator stands on one of its squares": kTrue when the designator also
/// accepts empty squares (nothing to look up).
Condition ever(const eval::Designator& d) {
  if (d.pieces & cql::piece_mask::kEmpty) return leaf(CondOp::kTrue);
  if (!d.squares || !(d.pieces & cql::piece_mask::kAnyPiece)) return leaf(CondOp::kFalse);
  Condition c = leaf(CondOp::kEver);
  c.set(cond::PieceSquares{d.pieces, d.squares, false});
  return c;
}

/// A kPlyWindow / kMoveWindow leaf.
Condition window(CondOp op, const eval::IntRange& r) {
  Condition c = leaf(op);
  c.set(cond::Window{r});
  return c;
}

/// A run test leaf over `pieces` with the bounds of `r`.
Condition run_leaf(CondOp op, cql::PieceMask pieces, const eval::IntRange& r) {
  Condition c = leaf(op);
  c.set(cond::RunMaterial{pieces, r.lo, r.hi, false, false});
  return c;
}

/// Counting keywords (:piececount, :power) over designator `d` with range `r`.
Condition count_condition(const eval::Designator& d, const eval::IntRange& r, bool power) {
  if (d.pieces & cql::piece_mask::kEmpty) return leaf(CondOp::kTrue);  // empty squares vary
  // `~`, `~~` and tags count a part of the pieces of the kinds: like a part of the board,
  // only a lower bound carries over to the material.
  const bool part = d.promoted || d.not_promoted || d.tag >= 0;
  if (d.squares == kAll && !part) return run_leaf(power ? CondOp::kPowerRun : CondOp::kCountRun, d.pieces, r);
  if (r.lo < 1) return leaf(CondOp::kTrue);  // a part of the board may hold none
  return all_of({run_leaf(power ? CondOp::kPowerAtLeast : CondOp::kCountAtLeast, d.pieces, r), ever(d)});
}

Condition derive_node(const Node& n, size_t max_variants);

/// The accumulating lists of the alternative being planned (AccumulatingScope), and whether
/// a :sumrange is being derived (its lists' own :sumrange nodes then give nothing: no loop).
thread_local const std::vector<std::shared_ptr<const eval::PositionList>>* t_accumulating = nullptr;
thread_local bool t_in_sumrange = false;

/// :sumrange with a range from 1 up (SPEC-NOTES "Accumulators"): the counter is the number
/// of matching variants of the lists accumulating it, counted at this position, so one of
/// them matches here: the disjunction of their conditions is necessary.
Condition sumrange_condition(const Node& n, size_t max_variants) {
  if (n.range.lo < 1 || !t_accumulating || t_in_sumrange) return leaf(CondOp::kTrue);
  const uint32_t counter = n.as<eval::payload::Counter>().index;
  std::vector<Condition> kids;
  t_in_sumrange = true;
  for (const auto& list : *t_accumulating) {
    bool adds = false;
    for (const auto& variant : list->variants)
      for (const Node& m : variant)
        adds |= m.op == Op::kAccumulate && m.as<eval::payload::Counter>().index == counter;
    if (adds) kids.push_back(derive(*list, max_variants));
  }
  t_in_sumrange = false;
  if (kids.empty()) return leaf(CondOp::kTrue);  // accumulated only in nested lists: nothing known
  return any_of(std::move(kids));
}

Condition derive_lists(const Node& n, bool any, size_t max_variants) {
  std::vector<Condition> kids;
  for (const auto& l : n.lists) kids.push_back(derive(*l, max_variants));
  return any ? any_of(std::move(kids)) : all_of(std::move(kids));
}

Condition derive_node(const Node& n, size_t max_variants) {
  if (n.negate) return leaf(CondOp::kTrue);  // nothing positive follows from a negation
  // A tagged designator ($name, CQL-Tagging) stands for one bound piece, not for the kinds in
  // its mask: only "some piece on its squares" follows, and only from the designator itself.
  for (const eval::Designator& d : n.d)
    if (d.tag >= 0) return n.op == Op::kDesignator || n.op == Op::kInside ? ever(d) : leaf(CondOp::kTrue);
  switch (n.op) {
    case Op::kTrue: return leaf(CondOp::kTrue);
    case Op::kFalse: return leaf(CondOp::kFalse);
    case Op::kDesignator:
    case Op::kInside: return ever(n.d[0]);
    case Op::kMate: return leaf(CondOp::kFinalMate);
    case Op::kStalemate: return leaf(CondOp::kFinalStalemate);
    case Op::kCheck:
      // a CQL 6 hint counting positions in check (eval/compile_cql6.cpp path_facts: range.lo)
      if (n.d.empty() && n.range.lo >= 2 && n.range.lo != INT64_MIN) {
        Condition c = leaf(CondOp::kAnyCheck);
        c.set(cond::Checks{n.range.lo});
        return c;
      }
      [[fallthrough]];
    case Op::kContactCheck:
      return n.d.empty() ? leaf(CondOp::kAnyCheck) : all_of({leaf(CondOp::kAnyCheck), ever(n.d[0])});
    case Op::kDoubleCheck:  // with a designator: two of its pieces check, so one stands on its squares
      return n.d.empty() ? leaf(CondOp::kDoubleCheck) : all_of({leaf(CondOp::kDoubleCheck), ever(n.d[0])});
    case Op::kPieceCount: return count_condition(n.d[0], n.range, false);
    case Op::kPower: return count_condition(n.d[0], n.range, true);
    case Op::kPowerDifference:
    case Op::kPieceCountDifference: {
      const eval::Designator& d = n.d[0];
      if (n.d.size() != 1 || d.squares != kAll || (d.pieces & cql::piece_mask::kEmpty) ||
          d.promoted || d.not_promoted || d.tag >= 0)
        return leaf(CondOp::kTrue);
      Condition c = run_leaf(CondOp::kDiffRun, d.pieces, n.range);
      cond::RunMaterial& m = c.as<cond::RunMaterial>();
      m.power = n.op == Op::kPowerDifference;
      m.black_minus_white = n.as<eval::payload::ColorsSwapped>().swapped;
      return c;
    }
    case Op::kAttackCount:
      if (n.range.lo < 1) return leaf(CondOp::kTrue);
      return all_of({ever(n.d[0]), ever(n.d[1])});
    case Op::kRay: {
      if (n.range.lo < 1) return leaf(CondOp::kTrue);
      std::vector<Condition> kids;
      for (const eval::Designator& d : n.d) kids.push_back(ever(d));
      return all_of(std::move(kids));
    }
    case Op::kMoveFrom:
    case Op::kMoveTo: return all_of({leaf(CondOp::kHasMove), ever(n.d[0])});
    case Op::kPromote: {
      Condition c = leaf(CondOp::kPromotion);
      c.set(cond::Promotion{n.d[0].pieces});
      return c;
    }
    case Op::kNoPromotion: return leaf(CondOp::kHasMove);
    case Op::kEnPassant: return leaf(CondOp::kEnPassant);
    case Op::kIsCastling: {
      Condition c = leaf(CondOp::kCastled);
      c.set(cond::Castling{n.as<eval::payload::Castling>().rights, {}});
      return c;
    }
    case Op::kHalfmoveNumber: return window(CondOp::kPlyWindow, n.range);
    case Op::kMoveNumber: return window(CondOp::kMoveWindow, n.range);
    case Op::kFen: {
      const chess::Position* fen = n.as<eval::payload::FenPosition>().position.get();
      Condition c = leaf(CondOp::kMaterial);
      cond::FenMaterial& material =
          c.set(cond::FenMaterial{sig::MaterialKey::of(*fen).bits(), {}, n.as<eval::payload::FenPosition>().position});
      material.boards.assign(chess::PIECE_NB, 0);
      for (int pc = 0; pc < chess::PIECE_NB; ++pc)
        if (chess::type_of(chess::Piece(pc)) != chess::NO_PIECE_TYPE && chess::type_of(chess::Piece(pc)) < chess::PIECE_TYPE_NB)
          material.boards[pc] = fen->pieces(chess::color_of(chess::Piece(pc)), chess::type_of(chess::Piece(pc)));
      // Home pawns: present ones have not left yet, missing ones have (pawns never return).
      Condition home = leaf(CondOp::kHomePawns);
      cond::HomePawns& pawns = home.set(cond::HomePawns{});
      for (int colour = 0; colour < 2; ++colour)
        for (int f = 0; f < 8; ++f) {
          chess::Square sq = chess::make_square(chess::File(f), colour ? chess::RANK_7 : chess::RANK_2);
          bool present = fen->piece_on(sq) == chess::make_piece(chess::Color(colour), chess::PAWN);
          (present ? pawns.present : pawns.gone) |= uint16_t(1u << (8 * colour + f));
        }
      return all_of({c, home});
    }
    case Op::kResult: {
      Condition c = leaf(CondOp::kResult);
      c.set(cond::Results{n.as<eval::payload::ResultSet>().codes});
      return c;
    }
    case Op::kElo:
    case Op::kWhiteElo:
    case Op::kBlackElo: {
      Condition c = leaf(CondOp::kElo);
      c.set(cond::Elo{n.range, uint8_t(n.op == Op::kElo ? 0 : n.op == Op::kWhiteElo ? 1 : 2)});
      return c;
    }
    case Op::kList: return derive(*n.lists[0], max_variants);
    // A CQL 6 filter (eval/compile_cql6.cpp): its hint list holds conditions it implies
    // (designators it needs on the board, check, transforms' disjunctions), not evaluated.
    case Op::kCql6: return n.lists.empty() ? leaf(CondOp::kTrue) : derive(*n.lists[0], max_variants);
    case Op::kSumRange: return sumrange_condition(n, max_variants);
    case Op::kLine: {
      // :line (eval/line.h): the played moves fit in the game, a numbered line starts at its
      // move number, and the first move is a :movefrom / :moveto with its designators (when
      // the colours are as written). :line*: the game has a position at ply n.
      const eval::LineSpec& line = *n.as<eval::payload::Line>().spec;
      const eval::LineMoveSpec& m = line.moves[0];
      eval::IntRange plies;
      if (line.transposition) {
        plies.lo = plies.hi = int64_t(line.moves.size());
        return window(CondOp::kPlyWindow, plies);
      }
      plies.lo = 0;
      plies.hi = int64_t(line.played);  // end - played
      plies.hi_from_end = true;
      std::vector<Condition> kids{window(CondOp::kPlyWindow, plies)};
      if (line.first_fullmove) {
        eval::IntRange number;
        number.lo = number.hi = line.first_fullmove;
        kids.push_back(window(CondOp::kMoveWindow, number));
      }
      if (!line.relative_colors && m.kind == eval::LineMoveSpec::Kind::kNormal) {
        kids.push_back(ever(eval::Designator{m.from, m.from_promoted, m.from_not_promoted, m.from_squares}));
        kids.push_back(m.en_passant ? leaf(CondOp::kEnPassant)
                                    : ever(eval::Designator{m.to, m.to_promoted, m.to_not_promoted, m.to_squares}));
      }
      return all_of(std::move(kids));
    }
    case Op::kSequence: {
      // :sequence: the first element matches at the position where the sequence starts, like
      // a nested list. Later elements match at other positions; their conditions are left out
      // so they are never joined with this position's run tests. :gappedsequence (leading
      // gap), :matchconsecutive and :match: the first element matches at some position of
      // the line, maybe another one: its condition is wrapped (a one-kid kOr) so that derive()
      // joins none of it with this position's material run or final position.
      if (n.lists.empty()) return leaf(CondOp::kTrue);
      Condition first = derive(*n.lists[0], max_variants);
      if (n.range.lo == int64_t(eval::SequenceSpec::Kind::kSequence)) return first;
      Condition somewhere = leaf(CondOp::kOr);
      somewhere.kids.push_back(std::move(first));
      return somewhere;
    }
    case Op::kAnd: return derive_lists(n, false, max_variants);
    case Op::kOr:
    case Op::kXor: return derive_lists(n, true, max_variants);
    case Op::kCond: {
      // The result of :cond is that of one expression (or the default): one must match.
      std::vector<Condition> kids;
      for (size_t i = 1; i < n.lists.size(); i += 2) kids.push_back(derive(*n.lists[i], max_variants));
      if (n.lists.size() % 2 == 1) kids.push_back(derive(*n.lists.back(), max_variants));
      return any_of(std::move(kids));
    }
    // Exchange values depend on the whole board (eval/exchange.h): no signature condition.
    case Op::kExchangeEvaluation:
    case Op::kMaxSwapEvaluation: return leaf(CondOp::kTrue);
    // Engine scores (eval/analysis_keywords.h) follow from no signature: no condition; the list's
    // other items still prune before any engine search.
    case Op::kEvaluation:
    case Op::kMoveEvaluation: return leaf(CondOp::kTrue);
    // Tablebase probes (analysis/tablebase.h) need a total piece count some table holds
    // (ranges[0], e.g. 2..3 with Debian's set): the game must reach such material.
    case Op::kEndgameEvaluation: {
      return run_leaf(CondOp::kCountRun, cql::piece_mask::kAnyPiece, n.as<eval::payload::TablebaseProbe>().table_pieces);
    }
    default: return leaf(CondOp::kTrue);
  }
}

/// The weakened condition of many variants of one shape: per node position, the union of
/// the variants' conditions there (kEver leaves with the same kinds merged), ANDed.
Condition weaken(const std::vector<std::vector<Node>>& variants, size_t max_variants) {
  const size_t width = variants[0].size();
  for (const auto& v : variants) {
    if (v.size() != width) return leaf(CondOp::kTrue);
    for (size_t i = 0; i < width; ++i)
      if (v[i].op != variants[0][i].op || v[i].negate != variants[0][i].negate) return leaf(CondOp::kTrue);
  }
  std::vector<Condition> per_position;
  for (size_t i = 0; i < width; ++i) {
    std::map<PieceMask, Bitboard> ever_union;
    std::map<std::string, Condition> others;
    bool any_true = false;
    for (const auto& v : variants) {
      Condition c = derive_node(v[i], max_variants);
      if (c.op == CondOp::kTrue) any_true = true;
      else if (c.op == CondOp::kEver) ever_union[c.as<cond::PieceSquares>().pieces] |= c.as<cond::PieceSquares>().squares;
      else if (c.op != CondOp::kFalse) others.emplace(c.describe(), std::move(c));
    }
    if (any_true || others.size() > max_variants) continue;  // position i tells nothing
    std::vector<Condition> kids;
    for (const auto& [pieces, squares] : ever_union) {
      Condition c = leaf(CondOp::kEver);
      c.set(cond::PieceSquares{pieces, squares, false});
      kids.push_back(c);
    }
    for (auto& [text, c] : others) kids.push_back(std::move(c));
    per_position.push_back(any_of(std::move(kids)));
  }
  return all_of(std::move(per_position));
}

std::string mask_text(PieceMask m) {
  static const char* kLetters = "KQRBNPkqrbnp.";
  std::string s;
  for (int i = 0; i < 13; ++i)
    if (m >> i & 1) s += kLetters[i];
  return s.size() == 1 ? s : "[" + s + "]";
}

std::string squares_text(Bitboard b) {
  if (b == kAll) return "";
  std::string s;
  int n = 0;
  for (Bitboard x = b; x; ++n) {
    chess::Square sq = chess::pop_lsb(x);
    if (n < 6) s += std::string(s.empty() ? "" : ",") + char('a' + chess::file_of(sq)) + char('1' + chess::rank_of(sq));
  }
  if (n > 6) s += ",...(" + std::to_string(n) + ")";
  return n == 1 ? s : "[" + s + "]";
}

std::string range_text(int64_t lo, int64_t hi, bool lo_end, bool hi_end) {
  auto bound = [](int64_t v, bool end, bool low) -> std::string {
    if (!end && v == (low ? INT64_MIN : INT64_MAX)) return low ? "-inf" : "inf";
    return end ? (v ? "end-" + std::to_string(v) : "end") : std::to_string(v);
  };
  return bound(lo, lo_end, true) + ".." + bound(hi, hi_end, false);
}

}  // namespace

AccumulatingScope::AccumulatingScope(const std::vector<std::shared_ptr<const eval::PositionList>>& lists)
    : previous_(t_accumulating) {
  t_accumulating = &lists;
}

AccumulatingScope::~AccumulatingScope() { t_accumulating = previous_; }

Condition derive(const eval::PositionList& list, size_t max_variants) {
  if (list.negated) return leaf(CondOp::kTrue);
  if (list.variants.empty()) return leaf(CondOp::kFalse);
  if (list.variants.size() > max_variants) return weaken(list.variants, max_variants);
  std::vector<Condition> variants;
  for (const auto& v : list.variants) {
    // The nodes of a variant hold in one position together: their material tests must hold
    // in one material run together (kSameRun), not each in some run.
    std::vector<Condition> nodes;
    Condition same_run = leaf(CondOp::kSameRun);
    same_run.set(cond::SameRun{});
    for (const Node& n : v) {
      Condition c = derive_node(n, max_variants);
      if (c.op == CondOp::kAnd) {
        for (Condition& k : c.kids) (is_run_test(k.op) ? same_run.kids : nodes).push_back(std::move(k));
      } else {
        (is_run_test(c.op) ? same_run.kids : nodes).push_back(std::move(c));
      }
    }
    // A variant with :mate, :stalemate or :terminal can only match the final position (mate
    // and stalemate: unless a null move let one occur earlier): its designators and material
    // are then tested against the final position and the last material run, exactly.
    // :iscastling and :movenumber of one variant hold at the same position: the castling
    // was played from a position in the move-number range (exact, by castling_plies).
    for (const Node& castling : v) {
      if (castling.negate || castling.op != Op::kIsCastling) continue;
      for (const Node& move : v) {
        if (move.negate || move.op != Op::kMoveNumber) continue;
        Condition c = leaf(CondOp::kCastledAt);
        c.set(cond::Castling{uint8_t(castling.as<eval::payload::Castling>().rights & chess::ANY_CASTLING), move.range});
        nodes.push_back(std::move(c));
      }
    }
    bool terminal = false, mate = false;
    int side = -1;
    for (const Node& n : v) {
      if (n.negate) continue;
      terminal |= n.op == Op::kTerminal;
      mate |= n.op == Op::kMate || n.op == Op::kStalemate;
      if (n.op == Op::kWtm) side = chess::WHITE;
      if (n.op == Op::kBtm) side = chess::BLACK;
    }
    if (terminal || mate) {
      const bool escape = !terminal;  // null moves keep the game
      for (Condition& c : nodes)
        if (c.op == CondOp::kEver) {
          c.op = CondOp::kFinalEver;
          c.as<cond::PieceSquares>().or_null_moves = escape;
        }
      if (!same_run.kids.empty()) {
        same_run.set(cond::SameRun{true, escape});
        nodes.push_back(std::move(same_run));
      }
      if (side >= 0) {
        Condition c = leaf(CondOp::kFinalSide);
        c.set(cond::FinalSide{chess::Color(side), escape});
        nodes.push_back(std::move(c));
      }
    } else if (same_run.kids.size() == 1) {
      nodes.push_back(std::move(same_run.kids[0]));
    } else if (!same_run.kids.empty()) {
      nodes.push_back(std::move(same_run));
    }
    variants.push_back(all_of(std::move(nodes)));
  }
  return any_of(std::move(variants));
}

Condition simplify(Condition c) {
  if (c.op != CondOp::kAnd && c.op != CondOp::kOr) return c;
  const bool is_and = c.op == CondOp::kAnd;
  std::vector<Condition> kids;
  for (Condition& k : c.kids) {
    Condition s = simplify(std::move(k));
    if (s.op == (is_and ? CondOp::kTrue : CondOp::kFalse)) continue;  // neutral element
    if (s.op == (is_and ? CondOp::kFalse : CondOp::kTrue)) return s;   // absorbing element
    if (s.op == c.op) {
      for (Condition& g : s.kids) kids.push_back(std::move(g));
    } else {
      kids.push_back(std::move(s));
    }
  }
  if (kids.empty()) return leaf(is_and ? CondOp::kTrue : CondOp::kFalse);
  if (kids.size() == 1) return std::move(kids[0]);
  c.kids = std::move(kids);
  return c;
}

bool Condition::holds(const sig::Signature& s, const eval::GameInfo* info) const {
  if (const std::optional<bool> shared = shared_field_test(*this, s, info)) return *shared;
  switch (op) {
    case CondOp::kTrue: return true;
    case CondOp::kFalse: return false;
    case CondOp::kAnd:
    case CondOp::kOr:
      return kids_hold(op == CondOp::kAnd, [&](const Condition& k) { return k.holds(s, info); });
    case CondOp::kEver: {
      const cond::PieceSquares& e = as<cond::PieceSquares>();
      for (int i = 0; i < 12; ++i)
        if ((e.pieces >> i & 1) && (s.ever[piece_of_bit(i)] & e.squares)) return true;
      return false;
    }
    case CondOp::kCountRun:
    case CondOp::kPowerRun:
    case CondOp::kCountAtLeast:
    case CondOp::kPowerAtLeast:
    case CondOp::kDiffRun:
      for (const sig::MaterialRun& r : s.material)
        if (run_holds(*this, r.key)) return true;
      return false;
    case CondOp::kSameRun: {
      const cond::SameRun& runs = as<cond::SameRun>();
      if (runs.or_null_moves && s.null_moves) return true;
      size_t first = runs.last_only && !s.material.empty() ? s.material.size() - 1 : 0;
      for (size_t i = first; i < s.material.size(); ++i) {
        bool all = true;
        for (const Condition& k : kids) all = all && run_holds(k, s.material[i].key);
        if (all) return true;
      }
      return false;
    }
    case CondOp::kFinalEver: {
      const cond::PieceSquares& e = as<cond::PieceSquares>();
      if (e.or_null_moves && s.null_moves) return true;
      for (int i = 0; i < 12; ++i)
        if ((e.pieces >> i & 1) && (s.final[piece_of_bit(i)] & e.squares)) return true;
      return false;
    }
    case CondOp::kFinalSide: {
      const cond::FinalSide& f = as<cond::FinalSide>();
      return (f.or_null_moves && s.null_moves) || s.final_side() == f.side;
    }
    case CondOp::kFinalMate: return s.null_moves || s.final_mate();
    case CondOp::kFinalStalemate: return s.null_moves || s.final_stalemate();
    case CondOp::kPromotion:
      for (int i = 0; i < 12; ++i) {
        if (!(as<cond::Promotion>().pieces >> i & 1)) continue;
        chess::PieceType pt = kPieceTypeOfBit[i % 6];
        if (pt >= chess::KNIGHT && pt <= chess::QUEEN && s.promoted(chess::Color(i / 6), pt)) return true;
      }
      return false;
    case CondOp::kEnPassant: return s.en_passant;
    case CondOp::kHasVariations: return s.has_variations;
    case CondOp::kCastled: case CondOp::kCastledAt: case CondOp::kHasMove: case CondOp::kPlyWindow:
    case CondOp::kMoveWindow: case CondOp::kResult: case CondOp::kElo: case CondOp::kAnyCheck:
    case CondOp::kDoubleCheck: break;  // shared_field_test answered above
    case CondOp::kMaterial: {
      const cond::FenMaterial& m = as<cond::FenMaterial>();
      for (const sig::MaterialRun& r : s.material) {
        if (r.key.bits() != m.key) continue;
        bool fits = true;
        for (int pc = 0; pc < chess::PIECE_NB && fits; ++pc) fits = (m.boards[pc] & ~s.ever[pc]) == 0;
        if (fits) return true;
      }
      return false;
    }
    case CondOp::kHomePawns: {
      // Ply p has home pawn (c, f) iff p < home_pawn_until[c][f]: the wanted plies are
      // [max until of the gone ones, min until of the present ones).
      const cond::HomePawns& home = as<cond::HomePawns>();
      int64_t from = 0, to = int64_t(s.plies) + 1;
      for (int i = 0; i < 16; ++i) {
        int64_t until = s.home_pawn_until[i / 8][i % 8];
        if (home.present >> i & 1) to = std::min(to, until);
        if (home.gone >> i & 1) from = std::max(from, until);
      }
      return from < to;
    }
  }
  return true;
}

sig::DecodeScope Condition::scope() const {
  switch (op) {
    case CondOp::kAnd:
    case CondOp::kOr: {
      sig::DecodeScope s = sig::DecodeScope::kHeader;
      for (const Condition& k : kids) s = std::max(s, k.scope());
      return s;
    }
    case CondOp::kEver:
    case CondOp::kFinalEver:
    case CondOp::kHomePawns:
    case CondOp::kMaterial: return sig::DecodeScope::kAll;
    case CondOp::kCountRun:
    case CondOp::kCountAtLeast:
    case CondOp::kPowerRun:
    case CondOp::kPowerAtLeast:
    case CondOp::kDiffRun:
    case CondOp::kSameRun:
    case CondOp::kPromotion: return sig::DecodeScope::kMaterial;
    default: return sig::DecodeScope::kHeader;
  }
}

bool Condition::needs_game_info() const {
  if (op == CondOp::kResult || op == CondOp::kElo) return true;
  for (const Condition& k : kids)
    if (k.needs_game_info()) return true;
  return false;
}

std::string Condition::describe() const {
  // the range of the op's payload, if it has one
  std::string r;
  if (const auto* m = std::get_if<cond::RunMaterial>(&payload)) r = range_text(m->lo, m->hi, false, false);
  if (const auto* w = std::get_if<cond::Window>(&payload))
    r = range_text(w->range.lo, w->range.hi, w->range.lo_from_end, w->range.hi_from_end);
  if (const auto* c = std::get_if<cond::Castling>(&payload))
    r = range_text(c->moves.lo, c->moves.hi, c->moves.lo_from_end, c->moves.hi_from_end);
  if (const auto* e = std::get_if<cond::Elo>(&payload))
    r = range_text(e->range.lo, e->range.hi, e->range.lo_from_end, e->range.hi_from_end);
  switch (op) {
    case CondOp::kTrue: return "true";
    case CondOp::kFalse: return "false";
    case CondOp::kAnd:
    case CondOp::kOr: {
      std::string s;
      for (const Condition& k : kids) {
        if (!s.empty()) s += op == CondOp::kAnd ? " and " : " or ";
        bool paren = k.op == CondOp::kAnd || k.op == CondOp::kOr;
        s += paren ? "(" + k.describe() + ")" : k.describe();
      }
      return s;
    }
    case CondOp::kEver:
      return "ever(" + mask_text(as<cond::PieceSquares>().pieces) + squares_text(as<cond::PieceSquares>().squares) + ")";
    case CondOp::kCountRun: return "material count " + mask_text(as<cond::RunMaterial>().pieces) + " in " + r;
    case CondOp::kCountAtLeast:
      return "material count " + mask_text(as<cond::RunMaterial>().pieces) + " >= " + std::to_string(as<cond::RunMaterial>().lo);
    case CondOp::kPowerRun: return "material power " + mask_text(as<cond::RunMaterial>().pieces) + " in " + r;
    case CondOp::kPowerAtLeast:
      return "material power " + mask_text(as<cond::RunMaterial>().pieces) + " >= " + std::to_string(as<cond::RunMaterial>().lo);
    case CondOp::kDiffRun: {
      const cond::RunMaterial& m = as<cond::RunMaterial>();
      return std::string("material ") + (m.power ? "power" : "count") + " difference " + mask_text(m.pieces) +
             (m.black_minus_white ? " (black-white)" : "") + " in " + r;
    }
    case CondOp::kFinalMate: return "final position mate";
    case CondOp::kFinalStalemate: return "final position stalemate";
    case CondOp::kAnyCheck: {
      const cond::Checks* count = std::get_if<cond::Checks>(&payload);
      return count ? "at least " + std::to_string(count->at_least) + " positions in check" : "some check";
    }
    case CondOp::kDoubleCheck: return "some double check";
    case CondOp::kPromotion: return "promotion to " + mask_text(as<cond::Promotion>().pieces);
    case CondOp::kEnPassant: return "en passant played";
    case CondOp::kHasVariations: return "has variations";
    case CondOp::kCastled: return "castled (rights " + std::to_string(as<cond::Castling>().rights) + ")";
    case CondOp::kCastledAt:
      return "castled (rights " + std::to_string(as<cond::Castling>().rights) + ") at move number in " + r;
    case CondOp::kHasMove: return "has a move";
    case CondOp::kPlyWindow: return "ply in " + r;
    case CondOp::kMoveWindow: return "move number in " + r;
    case CondOp::kMaterial: return "material and squares of a :fen position";
    case CondOp::kHomePawns: return "home pawns present/gone at one ply";
    case CondOp::kFinalEver:
      return "final(" + mask_text(as<cond::PieceSquares>().pieces) + squares_text(as<cond::PieceSquares>().squares) + ")";
    case CondOp::kFinalSide:
      return std::string("final side to move ") + (as<cond::FinalSide>().side == chess::BLACK ? "black" : "white");
    case CondOp::kSameRun: {
      std::string t;
      for (const Condition& k : kids) t += (t.empty() ? "" : ", ") + k.describe();
      return std::string(as<cond::SameRun>().last_only ? "last material run with {" : "one material run with {") + t + "}";
    }
    case CondOp::kResult: return "result in set " + std::to_string(as<cond::Results>().codes);
    case CondOp::kElo: {
      const uint8_t which = as<cond::Elo>().which;
      return std::string(which == 1 ? "white " : which == 2 ? "black " : "either ") + "Elo in " + r;
    }
  }
  return "?";
}

}  // namespace planner
