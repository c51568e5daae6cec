// Program::compile_cql6: a CQL 6 script (cql6/ast.h) -> the eval::Program every stage takes
// (issue 36; SPEC "CQL 6 scripts"). The script's body is one top-level position list:
//   - a filter with an exact CQL-S counterpart (piece designator, check, mate, stalemate,
//     wtm, btm, initial, terminal, result, `ply` / `movenumber` / `#designator` compared with
//     constants) becomes that op, so the planner derives its necessary conditions;
//   - header filters (`player`, `event`, `site`, `date`, `eco`, `year` ranges) written as
//     top-level filters or header parameters become the alternative's HeaderFilter (SQL);
//   - every other filter becomes one Op::kCql6 node holding the filter with its transforms
//     expanded here (eval/cql6_eval.h evaluates it); the planner treats it as "may hold".
// Transforms follow CQL 6.2: each transform of a filter is the filter with its designators,
// directions, colours and results transformed; a transform under which some designator has
// no square left is dropped (shift: squares leaving the board drop, full ranks and files stay).
#include <algorithm>
#include <array>
#include <atomic>
#include <functional>
#include <optional>

#include "cql6/ast.h"
#include "db/site_name.h"
#include "eval/cql6_compare.h"
#include "eval/cql6_values.h"
#include "eval/list_compiler.h"
#include "headers/where_builder.h"

namespace eval {

namespace {

using cql6::Kind;
using cql6::Node;
using cql6::Type;
using chess::Bitboard;

/// One primitive transform: a dihedral map, a shift or the colour reversal.
struct Xf {
  enum class K : uint8_t { kDihedral, kShift, kColor, kRotate45 } k = K::kDihedral;
  bool rx = false, ry = false, swap = false;  // kDihedral: mirror files, mirror ranks, transpose
  int dx = 0, dy = 0;                         // kShift; kRotate45: dx = eighth turns
  /// True if the transform swaps light and dark squares (CQL 6.2's flipsSquareParity).
  bool flips_parity() const {
    if (k == K::kColor) return true;
    if (k == K::kShift) return (dx + dy) % 2 != 0;
    if (k == K::kDihedral) return rx != ry;
    return false;
  }
};

Bitboard map_squares(Bitboard b, bool rx, bool ry, bool swap) {
  Bitboard out = 0;
  for (Bitboard s = b; s;) {
    const int sq = chess::pop_lsb(s);
    int x = sq & 7, y = sq >> 3;
    if (rx) x = 7 - x;
    if (ry) y = 7 - y;
    if (swap) std::swap(x, y);
    out |= Bitboard(1) << (y * 8 + x);
  }
  return out;
}

/// CQL 6.2's shift of a square set one file to the right: squares leaving drop, a full rank
/// stays full.
Bitboard shift_right1(Bitboard b) {
  Bitboard out = (b & ~chess::FILE_H_BB) << 1;
  for (int r = 0; r < 8; ++r)
    if (((b >> (8 * r)) & 0xFF) == 0xFF) out |= Bitboard(1) << (8 * r);
  return out;
}

Bitboard shift_x(Bitboard b, int dx) {
  if (dx < 0) return map_squares(shift_x(map_squares(b, true, false, false), -dx), true, false, false);
  for (int i = 0; i < dx; ++i) b = shift_right1(b);
  return b;
}

Bitboard transform_squares(Bitboard b, const Xf& t) {
  switch (t.k) {
    case Xf::K::kDihedral: return map_squares(b, t.rx, t.ry, t.swap);
    case Xf::K::kColor: return map_squares(b, false, true, false);
    case Xf::K::kRotate45: return b;  // only whole or empty sets (checked by transformed())
    case Xf::K::kShift: {
      Bitboard y = t.dy ? map_squares(shift_x(map_squares(b, false, false, true), t.dy), false, false, true) : b;
      return t.dx ? shift_x(y, t.dx) : y;
    }
  }
  return b;
}

cql6::Kinds swap_colors(cql6::Kinds k) {
  return cql6::Kinds((k & cql6::kEmptyKind) | ((k & cql6::kWhiteKinds) << 6) | ((k & cql6::kBlackKinds) >> 6));
}

uint8_t transform_directions(uint8_t bits, const Xf& t) {
  static constexpr std::array<std::pair<int, int>, 8> kVec = {
      {{0, 1}, {0, -1}, {1, 0}, {-1, 0}, {1, 1}, {-1, 1}, {1, -1}, {-1, -1}}};
  if (t.k == Xf::K::kShift) return bits;
  uint8_t out = 0;
  for (int d = 0; d < 8; ++d) {
    if (!(bits & (1u << d))) continue;
    int x = kVec[size_t(d)].first, y = kVec[size_t(d)].second;
    if (t.k == Xf::K::kRotate45) {
      for (int i = 0; i < t.dx; ++i) {  // one eighth turn anticlockwise
        const int nx = x - y, ny = x + y;
        x = (nx > 0) - (nx < 0);
        y = (ny > 0) - (ny < 0);
      }
    } else if (t.k == Xf::K::kColor) {
      y = -y;
    } else {
      if (t.rx) x = -x;
      if (t.ry) y = -y;
      if (t.swap) std::swap(x, y);
    }
    for (int e = 0; e < 8; ++e)
      if (kVec[size_t(e)].first == x && kVec[size_t(e)].second == y) out |= uint8_t(1u << e);
  }
  return out;
}

/// `n` under `t`; nullopt when some designator of it loses every square.
std::optional<Node> transformed(const Node& n, const Xf& t) {
  Node out = n;
  const bool color = t.k == Xf::K::kColor;
  switch (n.kind) {
    case Kind::kDesignator:
      if (n.flags & cql6::kNoTransform) return out;
      if (t.k == Xf::K::kRotate45 && n.squares != ~Bitboard(0))
        throw cql6::Error(n.loc, "rotate45 cannot be applied to a particular square (only to whole-board designators)");
      if (color) out.kinds = swap_colors(n.kinds);
      out.squares = transform_squares(n.squares, t);
      if (!out.squares) return std::nullopt;
      return out;
    case Kind::kPawns: return out;  // CQL 6.2: pawn sets are not transformed
    case Kind::kWtm: if (color) out.kind = Kind::kBtm; break;
    case Kind::kBtm: if (color) out.kind = Kind::kWtm; break;
    case Kind::kResult: if (color && n.value != 3) out.value = 3 - n.value; break;
    case Kind::kElo:
      if (color && n.sub) out.sub = uint8_t(n.sub == uint8_t(cql6::Side::kWhite) ? cql6::Side::kBlack : cql6::Side::kWhite);
      break;
    case Kind::kDirection:
    case Kind::kRay: out.sub = transform_directions(n.sub, t); break;
    case Kind::kDash: if (color) out.kinds = swap_colors(n.kinds); break;
    case Kind::kLight:
    case Kind::kDark:
      if (t.k == Xf::K::kRotate45) throw cql6::Error(n.loc, "rotate45 cannot be applied to 'light' or 'dark'");
      if (t.flips_parity()) out.kind = n.kind == Kind::kLight ? Kind::kDark : Kind::kLight;
      break;
    default: break;
  }
  if (n.kind == Kind::kTransform) {  // an expanded orbit: transform each variant, drop the empty
    out.kids.clear();
    for (const Node& v : n.kids)
      if (std::optional<Node> tv = transformed(v, t)) out.kids.push_back(std::move(*tv));
    if (out.kids.empty()) return std::nullopt;
    return out;
  }
  for (size_t i = 0; i < n.kids.size(); ++i) {
    std::optional<Node> k = transformed(n.kids[i], t);
    if (!k) return std::nullopt;
    out.kids[i] = std::move(*k);
  }
  return out;
}

/// The transforms of a transform filter (CQL 6.2: the identity first, except reversecolor).
std::vector<std::optional<Xf>> transforms_of(cql6::TransformKind k) {
  using TK = cql6::TransformKind;
  std::vector<std::optional<Xf>> out;
  if (k != TK::kReverseColor) out.push_back(std::nullopt);  // identity
  auto dihedral = [&](bool rx, bool ry, bool swap) {
    Xf t;
    t.rx = rx;
    t.ry = ry;
    t.swap = swap;
    out.push_back(t);
  };
  switch (k) {
    case TK::kFlip:
      for (int m = 1; m < 8; ++m) dihedral(m & 1, m & 2, m & 4);
      break;
    case TK::kFlipVertical: dihedral(true, false, false); break;
    case TK::kFlipHorizontal: dihedral(false, true, false); break;
    case TK::kRotate90:
      dihedral(false, true, true);
      dihedral(true, true, false);
      dihedral(true, false, true);
      break;
    case TK::kRotate45:
      for (int e = 1; e < 8; ++e) {
        Xf t;
        t.k = Xf::K::kRotate45;
        t.dx = e;
        out.push_back(t);
      }
      break;
    case TK::kFlipColor:
    case TK::kReverseColor: {
      Xf t;
      t.k = Xf::K::kColor;
      out.push_back(t);
      break;
    }
    case TK::kShift:
    case TK::kShiftHorizontal:
    case TK::kShiftVertical:
      for (int dx = -7; dx <= 7; ++dx)
        for (int dy = -7; dy <= 7; ++dy) {
          if ((!dx && !dy) || (k == TK::kShiftHorizontal && dy) || (k == TK::kShiftVertical && dx)) continue;
          Xf t;
          t.k = Xf::K::kShift;
          t.dx = dx;
          t.dy = dy;
          out.push_back(t);
        }
      break;
  }
  return out;
}

bool same_but_directions(const Node& a, const Node& b, std::vector<size_t>& path,
                         std::vector<std::vector<size_t>>& where);

/// True if `a` and `b` are the same filter (every field but the script location).
bool same_filter(const Node& a, const Node& b) {
  std::vector<size_t> path;
  std::vector<std::vector<size_t>> where;
  return same_but_directions(a, b, path, where) && where.empty();
}

/// `n` with every transform filter expanded into its variants (kids of the kTransform node).
/// A variant equal to an earlier one is dropped when that cannot be seen: the transform
/// counts no variants (no range, not a number: its value is "some variant matches" or the
/// union of their sets) and the variant is stateless (cql6_values::stateless), so a second
/// evaluation gives the first one's answer (`flip {light A == A}` keeps 2 of its 8).
/// Throws when no variant is left.
Node expand(const Node& n) {
  Node out = n;
  for (Node& k : out.kids) k = expand(k);
  if (n.kind != Kind::kTransform) return out;
  const Node inner = std::move(out.kids[0]);
  out.kids.clear();
  for (const std::optional<Xf>& t : transforms_of(cql6::TransformKind(n.sub))) {
    if (!t) {
      out.kids.push_back(inner);
      continue;
    }
    if (std::optional<Node> v = transformed(inner, *t)) out.kids.push_back(std::move(*v));
  }
  if (!(n.flags & cql6::kHasRange) && n.type != Type::kNumber && cql6_values::stateless(inner)) {
    std::vector<Node> distinct;
    for (Node& v : out.kids)
      if (std::none_of(distinct.begin(), distinct.end(), [&](const Node& d) { return same_filter(d, v); }))
        distinct.push_back(std::move(v));
    out.kids = std::move(distinct);
  }
  if (out.kids.empty()) throw cql6::Error(n.loc, "this transform leaves no square to any of its designators");
  return out;
}

/// Numbers the holder constituents of every `line` below `n` (kLineItem::value = 0, 1...;
/// the line's value = their count), for the line matcher's memo (eval/cql6_eval.cpp).
void number_holders(Node& n) {
  if (n.kind == Kind::kLine) {
    int64_t next = 0;
    auto walk = [&](auto&& self, Node& item) -> void {
      if (item.kind != Kind::kLineItem) return;
      if (item.flags & cql6::kLineGroup) {
        for (Node& k : item.kids) self(self, k);
      } else {
        item.value = next++;
      }
    };
    for (Node& item : n.kids) walk(walk, item);
    n.value = next;
  }
  for (Node& k : n.kids) number_holders(k);
}

/// Calls `f` on `n` and every node below it.
template <class F>
void visit(const Node& n, F&& f) {
  f(n);
  for (const Node& k : n.kids) visit(k, f);
}

// ---- header conditions (SQL over games g)

bool is_header_condition(const Node& n) {
  if (n.kind == Kind::kHeaderText) return true;
  if (n.kind != Kind::kCompare) return false;
  bool year = false;
  for (const Node& k : n.kids) {
    if (k.kind == Kind::kYear) year = true;
    else if (k.kind != Kind::kNumber) return false;
  }
  return year;
}

void add_header_condition(headers::WhereBuilder& b, const Node& n) {
  if (n.kind == Kind::kHeaderText) {
    auto in_table = [&](const char* column, const char* table) {
      return std::string(column) + " IN (SELECT id FROM " + table + " WHERE instr(name, " + b.text(n.text) + ") > 0)";
    };
    switch (cql6::HeaderTag(n.sub)) {
      case cql6::HeaderTag::kPlayer: {
        const std::string w = in_table("g.white_id", "players");
        b.add(w + " OR " + in_table("g.black_id", "players"));
        break;
      }
      case cql6::HeaderTag::kWhite: b.add(in_table("g.white_id", "players")); break;
      case cql6::HeaderTag::kBlack: b.add(in_table("g.black_id", "players")); break;
      case cql6::HeaderTag::kEvent: b.add(in_table("g.event_id", "events")); break;
      case cql6::HeaderTag::kSite: {
        const std::string on_name = "instr(name, " + b.text(n.text) + ") > 0";
        const std::string on_full = "instr(" + db::site_name_sql("g") + ", " + b.text(n.text) + ") > 0";
        b.add(headers::site_condition_sql("g", on_name, on_full));
        break;
      }
      case cql6::HeaderTag::kDate: b.add("instr(IFNULL(g.date, ''), " + b.text(n.text) + ") > 0"); break;
      case cql6::HeaderTag::kEco: b.add("instr(IFNULL(g.eco, ''), " + b.text(n.text) + ") > 0"); break;
      case cql6::HeaderTag::kTag: break;  // `tag "Name"` is a string value, never a kHeaderText
    }
    return;
  }
  // a chain over constants and `year`: a game without a year has no value (no match)
  static const char* kSql[] = {"<", "<=", "=", ">=", ">", "<>"};
  std::string sql = "g.year IS NOT NULL";
  for (size_t i = 0; i + 1 < n.kids.size(); ++i) {
    auto side = [&](const Node& k) { return k.kind == Kind::kYear ? std::string("g.year") : b.number(k.value); };
    const std::string l = side(n.kids[i]);
    sql += " AND " + l + " " + kSql[int(n.ops[i])] + " " + side(n.kids[i + 1]);
  }
  b.add(sql);
}

// ---- exact CQL-S counterparts

cql::PieceMask piece_mask(cql6::Kinds k) {
  cql::PieceMask m = 0;
  for (int color = 0; color < 2; ++color)
    for (int t = 0; t < 6; ++t)
      if (k & (1u << (color * 6 + t))) m |= cql::PieceMask(1u << (color * 6 + (5 - t)));
  if (k & cql6::kEmptyKind) m |= cql::piece_mask::kEmpty;
  return m;
}

/// The inclusive range a chain `k1 op x op k2` over constants gives the one variable `x` of
/// kind `var` (`ply`, `movenumber`, `#designator`); nullopt for any other shape.
std::optional<IntRange> range_of(const Node& n, const Node** var_out) {
  if (n.kind != Kind::kCompare) return std::nullopt;
  const Node* var = nullptr;
  for (const Node& k : n.kids) {
    if (k.kind == Kind::kNumber) continue;
    if (var) return std::nullopt;
    var = &k;
  }
  if (!var) return std::nullopt;
  IntRange r;
  for (size_t i = 0; i + 1 < n.kids.size(); ++i) {
    const Node& a = n.kids[i];
    const Node& b = n.kids[i + 1];
    cql6::Cmp op = n.ops[i];
    int64_t k = 0;
    if (&a == var) {
      k = b.value;
    } else if (&b == var) {
      k = a.value;
      // k op x  ->  x op' k
      using C = cql6::Cmp;
      op = op == C::kLt ? C::kGt : op == C::kLe ? C::kGe : op == C::kGt ? C::kLt : op == C::kGe ? C::kLe : op;
    } else {
      // two constants: decide now
      const int64_t x = a.value, y = b.value;
      if (!eval::cql6_eval::compare(x, op, y)) {
        r.lo = 1;
        r.hi = 0;
      }
      continue;
    }
    switch (op) {
      case cql6::Cmp::kLt: r.hi = std::min(r.hi, k - 1); break;
      case cql6::Cmp::kLe: r.hi = std::min(r.hi, k); break;
      case cql6::Cmp::kEq: r.lo = std::max(r.lo, k); r.hi = std::min(r.hi, k); break;
      case cql6::Cmp::kGe: r.lo = std::max(r.lo, k); break;
      case cql6::Cmp::kGt: r.lo = std::max(r.lo, k + 1); break;
      default: return std::nullopt;  // != and the position relations: no range
    }
  }
  *var_out = var;
  return r;
}

/// The op of a top-level filter with an exact CQL-S counterpart, if it has one.
std::optional<eval::Node> exact_op(const Node& n, bool& needs_info) {
  eval::Node out;
  auto simple = [&](Op op, Cost cost = Cost::kCheap) {
    out.op = op;
    out.cost = cost;
    return out;
  };
  switch (n.kind) {
    case Kind::kTrue: return simple(Op::kTrue);
    case Kind::kFalse: return simple(Op::kFalse);
    case Kind::kCheck: return simple(Op::kCheck);
    case Kind::kMate: return simple(Op::kMate, Cost::kExpensive);
    case Kind::kStalemate: return simple(Op::kStalemate, Cost::kExpensive);
    case Kind::kWtm: return simple(Op::kWtm);
    case Kind::kBtm: return simple(Op::kBtm);
    case Kind::kInitial: return simple(Op::kInitial);
    case Kind::kTerminal: return simple(Op::kTerminal);
    case Kind::kDesignator: {
      Designator d;
      d.pieces = piece_mask(n.kinds);
      d.squares = n.squares;
      out.d.push_back(d);
      return simple(Op::kDesignator, Cost::kMedium);
    }
    case Kind::kResult: {
      needs_info = true;
      out.set(payload::ResultSet{uint8_t(1u << n.value)});
      return simple(Op::kResult);
    }
    case Kind::kCompare: {
      const Node* var = nullptr;
      std::optional<IntRange> r = range_of(n, &var);
      if (!r) return std::nullopt;
      out.range = *r;
      if (var->kind == Kind::kPly) return simple(Op::kHalfmoveNumber);
      // CQL 6.2 numbers moves from the game's first position, not from a FEN's full-move
      // number (Op::kMoveNumber's): no exact counterpart; implied_by hints a ply range
      if (var->kind == Kind::kMoveNumber) return std::nullopt;
      // `#D`, or the designator D itself (a set compared with a number counts its squares)
      const Node* counted = var->kind == Kind::kCount ? &var->kids[0] : var;
      if (counted->kind == Kind::kDesignator && (var->kind == Kind::kCount || !(counted->kinds & cql6::kEmptyKind))) {
        Designator d;
        d.pieces = piece_mask(counted->kinds);
        d.squares = counted->squares;
        out.d.push_back(d);
        return simple(Op::kPieceCount, Cost::kMedium);
      }
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

/// A position list of one conjunction of `nodes` (index and memo built).
std::shared_ptr<const PositionList> list_of(std::vector<eval::Node> nodes) {
  auto list = std::make_shared<PositionList>();
  order_by_cost(nodes);
  list->variants.push_back(std::move(nodes));
  list->index.build(list->variants);
  list->memo.build(list->variants);
  return list;
}

void implied_by_set(const Node& n, std::vector<eval::Node>& out);

/// A planner hint (never evaluated, see worth_testing): a promotion to a piece of one of the
/// types of `kinds` (either colour: CQL 6 looks at the type only) is played in the game.
eval::Node promotion_op(cql6::Kinds kinds) {
  eval::Node out;
  out.op = Op::kPromote;
  Designator d;
  d.pieces = piece_mask(cql6::Kinds(kinds | swap_colors(kinds)) & cql6::kAllKinds & ~cql6::kEmptyKind);
  out.d.push_back(d);
  return out;
}

/// The game facts a `move` filter implies where it matches: its from/to/capture sets are
/// not empty here (every form needs them); a move played from here or to here (not
/// `legal`/`pseudolegal`, which look at possible moves) that castles, captures en passant or
/// promotes makes the game have such a move (planner hints: Op::kIsCastling, kEnPassant,
/// kPromote). `count` matches everywhere: nothing.
void played_move_facts(const Node& n, std::vector<eval::Node>& out) {
  const uint32_t f = n.flags;
  if (f & cql6::kMoveCount) return;
  // `move previous`: its sets are read in the position before the move (a captured piece is
  // gone here), and its castling, en passant and promotion were played from there
  if (f & cql6::kMovePrevious) return;
  for (size_t i = 0; i < 3 && i < n.kids.size(); ++i)
    if (n.kids[i].kind != Kind::kNone) implied_by_set(n.kids[i], out);
  if (f & (cql6::kMoveLegal | cql6::kMovePseudoLegal | cql6::kMoveNull)) return;
  // (not after `previous`: the planner ties a castling to the move number of the position
  // it is played from, kCastledAt, and `move previous` is read one position later)
  if ((f & cql6::kMoveCastle) && !(f & cql6::kMovePrevious)) {
    eval::Node c;
    c.op = Op::kIsCastling;
    uint8_t rights = chess::ANY_CASTLING;
    if (f & cql6::kMoveKingSide) rights = chess::WHITE_OO | chess::BLACK_OO;
    if (f & cql6::kMoveQueenSide) rights = chess::WHITE_OOO | chess::BLACK_OOO;
    c.set(payload::Castling{rights});
    out.push_back(std::move(c));
  }
  if (f & cql6::kMoveEnPassant) {
    eval::Node e;
    e.op = Op::kEnPassant;
    out.push_back(std::move(e));
  }
  if (n.kids.size() > 3 && n.kids[3].kind != Kind::kNone)
    out.push_back(promotion_op(n.kids[3].kind == Kind::kDesignator ? n.kids[3].kinds : cql6::kAllKinds));
}

void implied_by(const Node& n, std::vector<eval::Node>& out);

/// A path's constituent `con` that must occur (eval/cql6_path.h): its conditions go to
/// `here` when it is the path's first (`first`: it is tested at the start position; a dash's
/// sets are read there), otherwise to lists of their own (Op::kList: they hold at some other
/// position of the game, like a line's later constituents). A dash's targets hold after it.
/// `first` turns false after the first constituent (or one that may not occur).
void path_facts(const Node& con, bool& first, std::vector<eval::Node>& here) {
  auto elsewhere = [&](const std::function<void(std::vector<eval::Node>&)>& add) {
    std::vector<eval::Node> inner;
    add(inner);
    if (inner.empty()) return;
    eval::Node some;
    some.op = Op::kList;
    some.cost = Cost::kExpensive;
    some.lists.push_back(list_of(std::move(inner)));
    here.push_back(std::move(some));
  };
  switch (con.kind) {
    case Kind::kDash: {
      Node move = con;  // the move itself: its sets and promotion, without the targets
      move.kids[2].kind = Kind::kNone;
      move.kids[2].kids.clear();
      if (first) implied_by(move, here);
      else elsewhere([&](std::vector<eval::Node>& v) { implied_by(move, v); });
      first = false;
      if (con.kids[2].kind != Kind::kNone) elsewhere([&](std::vector<eval::Node>& v) { implied_by(con.kids[2], v); });
      return;
    }
    case Kind::kPathChain:
      for (const Node& k : con.kids) path_facts(k, first, here);
      return;
    case Kind::kPathRepeat:
      if (con.lo >= 2 && con.kids[0].kind == Kind::kDash && con.kids[0].kids[2].kind != Kind::kNone) {
        // `(―― check){m,}`: each repetition plays a move to another position of the line,
        // where the target holds; a target implying check makes m positions in check (a
        // planner hint: Op::kCheck counting them in range.lo, planner/condition.cpp)
        std::vector<eval::Node> target;
        implied_by(con.kids[0].kids[2], target);
        if (std::any_of(target.begin(), target.end(),
                        [](const eval::Node& k) { return k.op == Op::kCheck && !k.negate && k.d.empty(); }))
          elsewhere([&](std::vector<eval::Node>& v) {
            eval::Node checks;
            checks.op = Op::kCheck;
            checks.range.lo = con.lo;
            v.push_back(std::move(checks));
          });
      }
      if (con.lo >= 1) path_facts(con.kids[0], first, here);
      else first = false;
      return;
    default:
      if (first) implied_by(con, here);
      else elsewhere([&](std::vector<eval::Node>& v) { implied_by(con, v); });
      first = false;
      return;
  }
}

/// Appends ops that hold wherever the (expanded) filter `n` matches: necessary conditions
/// with a CQL-S counterpart (check, mate, designators...), added beside its Op::kCql6 node
/// so that the planner can prune and cheap tests run first. Conservative: a filter it does
/// not know implies nothing.
void implied_by(const Node& n, std::vector<eval::Node>& out) {
  bool unused = false;
  switch (n.kind) {
    case Kind::kCheck: case Kind::kMate: case Kind::kStalemate: case Kind::kWtm: case Kind::kBtm:
    case Kind::kInitial: case Kind::kTerminal:
      if (std::optional<eval::Node> op = exact_op(n, unused)) out.push_back(std::move(*op));
      return;
    case Kind::kCompound:
    case Kind::kAnd:
      for (const Node& k : n.kids) implied_by(k, out);
      return;
    case Kind::kMove: played_move_facts(n, out); return;
    case Kind::kDash: {
      // a move played from here, from a square of the left set to (or capturing on) one of
      // the right set, both read here
      if (n.kids[0].kind != Kind::kNone) implied_by_set(n.kids[0], out);
      if (n.kids[1].kind != Kind::kNone) implied_by_set(n.kids[1], out);
      if (n.flags & cql6::kDashPromote)  // to a string's letters (`--=T`): some promotion
        out.push_back(promotion_op((n.flags & cql6::kDashPromoteText) ? cql6::kAllKinds : n.kinds));
      return;
    }
    case Kind::kLine: {
      // The first constituent consumes the current position: a holder that must occur holds
      // here. Every other holder that must occur holds at some position of the game: its
      // conditions go into a list of their own (Op::kList, a planner hint), so the planner
      // does not join them with this position's (same material run, final position).
      for (size_t i = 0; i < n.kids.size(); ++i) {
        const Node& item = n.kids[i];
        if ((item.flags & cql6::kLineGroup) || item.lo < 1 || item.kids.empty()) continue;
        if (i == 0) {
          implied_by(item.kids[0], out);
          continue;
        }
        std::vector<eval::Node> elsewhere;
        implied_by(item.kids[0], elsewhere);
        if (elsewhere.empty()) continue;
        eval::Node some;
        some.op = Op::kList;
        some.cost = Cost::kExpensive;
        some.lists.push_back(list_of(std::move(elsewhere)));
        out.push_back(std::move(some));
      }
      return;
    }
    case Kind::kPathFilter: {
      // CQL 6.2's path: every constituent that must occur holds somewhere along it
      bool first = true;
      for (size_t i = 2; i < n.kids.size(); ++i) path_facts(n.kids[i], first, out);
      return;
    }
    case Kind::kCompare: {
      if (std::optional<eval::Node> op = exact_op(n, unused)) {
        out.push_back(std::move(*op));
        return;
      }
      // `movenumber` in lo..hi: CQL 6.2's move m spans plies 2m-2..2m-1 when White moved
      // first and 2m-3..2m-2 when Black did (cql6_eval::move_number), so ply 2lo-3..2hi-1
      const Node* var = nullptr;
      std::optional<IntRange> r = range_of(n, &var);
      if (!r || var->kind != Kind::kMoveNumber) return;
      eval::Node plies;
      plies.op = Op::kHalfmoveNumber;
      plies.range = *r;
      if (r->lo <= r->hi) {
        constexpr int64_t kHuge = INT64_MAX / 4;
        plies.range.lo = r->lo <= 2 ? INT64_MIN : r->lo > kHuge ? kHuge : 2 * r->lo - 3;
        plies.range.hi = r->hi > kHuge ? INT64_MAX : r->hi < 1 ? -1 : 2 * r->hi - 1;
      }
      out.push_back(std::move(plies));
      return;
    }
    case Kind::kSquareLoop:
    case Kind::kPieceLoop:
      // without kLoopAll a set: it matches when some element of its set made the body match
      // here, so both the set's conditions and the body's hold (implied_by reads no variable;
      // a `forall` of an empty set matches without its body: nothing)
      if (!(n.flags & cql6::kLoopAll)) {
        implied_by_set(n.kids[1], out);
        implied_by(n.kids[2], out);
      }
      return;
    case Kind::kSort:  // matches when its number has a value: a path's, only where it matches
      if (n.kids[0].kind == Kind::kPathFilter) implied_by(n.kids[0], out);
      return;
    case Kind::kTransform: {
      if (n.flags & cql6::kHasRange) return;  // a count range may admit zero
      std::vector<std::shared_ptr<const PositionList>> lists;
      for (const Node& v : n.kids) {
        std::vector<eval::Node> inner;
        implied_by(v, inner);
        if (inner.empty()) return;  // a variant implying nothing: the whole or says nothing
        lists.push_back(list_of(std::move(inner)));
      }
      if (lists.size() == 1) {
        for (const eval::Node& k : lists[0]->variants[0]) out.push_back(k);
        return;
      }
      eval::Node any;
      any.op = Op::kOr;
      any.cost = Cost::kMedium;
      any.lists = std::move(lists);
      out.push_back(std::move(any));
      return;
    }
    default:
      if (n.type == Type::kSet) implied_by_set(n, out);
      return;
  }
}

/// The piece kinds (and kEmptyKind) a square of the set filter `n` may hold: a designator's
/// kinds, narrowed by `&`, widened by `|`; a square of `a -> b` or `a <- b` is one of `a`.
/// Any other filter may give any square.
cql6::Kinds kinds_bound(const Node& n) {
  switch (n.kind) {
    case Kind::kDesignator: return n.kinds & cql6::kAllKinds;
    case Kind::kIntersect: return kinds_bound(n.kids[0]) & kinds_bound(n.kids[1]);
    case Kind::kUnion: return kinds_bound(n.kids[0]) | kinds_bound(n.kids[1]);
    case Kind::kAttacks: case Kind::kAttackedBy: return kinds_bound(n.kids[0]);
    default: return cql6::kAllKinds;
  }
}

/// True if a piece of a square of `attackers` attacking a square of `targets` puts a king
/// in check: the targets hold only kings of one colour and the attackers only pieces of the
/// other. Game positions are legal, so that king's side is to move and in check.
bool attack_is_check(const Node& attackers, const Node& targets) {
  constexpr cql6::Kinds kWhiteKing = 1u << 5, kBlackKing = 1u << 11;
  const cql6::Kinds a = kinds_bound(attackers), t = kinds_bound(targets);
  if (!a || !t) return false;
  return (!(t & ~kBlackKing) && !(a & ~cql6::kWhiteKinds)) || (!(t & ~kWhiteKing) && !(a & ~cql6::kBlackKinds));
}

/// Appends the exact op of the argument-less status filter `kind` (mate, check) to `out`.
void implied_status(Kind kind, std::vector<eval::Node>& out) {
  bool unused = false;
  Node status;
  status.kind = kind;
  if (std::optional<eval::Node> op = exact_op(status, unused)) out.push_back(std::move(*op));
}

/// The same for a set filter that matched (it is not empty).
void implied_by_set(const Node& n, std::vector<eval::Node>& out) {
  if (n.kind == Kind::kMateKind) {  // the participants of a pure or model mate: a mate here
    implied_status(Kind::kMate, out);
    return;
  }
  if ((n.kind == Kind::kAttacks && attack_is_check(n.kids[0], n.kids[1])) ||
      (n.kind == Kind::kAttackedBy && attack_is_check(n.kids[1], n.kids[0])))
    implied_status(Kind::kCheck, out);
  switch (n.kind) {
    case Kind::kDesignator: {
      bool unused = false;
      if (n.squares != ~Bitboard(0) || (n.kinds & cql6::kAllKinds) != cql6::kAllKinds)
        if (std::optional<eval::Node> op = exact_op(n, unused)) out.push_back(std::move(*op));
      return;
    }
    case Kind::kIntersect: case Kind::kAttacks: case Kind::kAttackedBy: case Kind::kBetween:
    case Kind::kRay:
      for (const Node& k : n.kids) implied_by_set(k, out);
      return;
    case Kind::kDirection: case Kind::kLight: case Kind::kDark:
      implied_by_set(n.kids[0], out);
      return;
    case Kind::kTransform:
    case Kind::kCompound:
      implied_by(n, out);
      return;
    default: return;
  }
}

/// True if the script uses a part-2 feature (issue 37): variables, loops, find, positions...
bool uses_part2(const cql6::Script& script) {
  if (!script.vars.empty()) return true;
  bool any = false;
  for (const Node& n : script.body)
    visit(n, [&](const Node& k) {
      any |= cql6::is_part2(k.kind);
      // `move previous` inside a variation reads the game tree's parent (cql6_values)
      any |= script.header.variations && k.kind == Kind::kMove && (k.flags & cql6::kMovePrevious) &&
             !cql6::past_move_kind_only(k);
      // so does `line <--` (the ancestors)
      any |= script.header.variations && k.kind == Kind::kLine && (k.flags & cql6::kLineBackward);
    });
  return any;
}

/// Part-2 kinds that read other positions of the game, position ids or piece identities:
/// main line only (with `variations` they are refused: positionid, depth and the tree of a
/// variation position are not known to the evaluation yet).
bool navigates(const Node& k) {
  switch (k.kind) {
    case Kind::kFind: case Kind::kParent: case Kind::kChild: case Kind::kPositionAt: case Kind::kAt:
    case Kind::kEcho: case Kind::kPieceLoop: case Kind::kLca: case Kind::kDistance: case Kind::kPosIntersect:
    case Kind::kDepth: case Kind::kPositionId: case Kind::kCurrentPosition: case Kind::kAncestor: case Kind::kDescendant:
    case Kind::kTry: case Kind::kConsecutiveMoves: case Kind::kPieceId:
    case Kind::kPieceAssign:
      return true;
    case Kind::kVar: return k.flags & cql6::kVarPiece;
    default: return false;
  }
}

/// True if `n` is `s & t == .` (or `t & s == .`, `. == s & t`) over the echo variables s, t.
bool same_board_test(const Node& n, int64_t s, int64_t t) {
  if (n.kind != Kind::kCompare || n.kids.size() != 2 || n.ops[0] != cql6::Cmp::kEq) return false;
  auto whole = [](const Node& k) {
    return k.kind == Kind::kDesignator && k.squares == ~Bitboard(0) && (k.kinds & cql6::kAllKinds) == cql6::kAllKinds;
  };
  auto both = [&](const Node& k) {
    if (k.kind != Kind::kPosIntersect || k.kids[0].kind != Kind::kVar || k.kids[1].kind != Kind::kVar) return false;
    const int64_t a = k.kids[0].value, b = k.kids[1].value;
    return (a == s && b == t) || (a == t && b == s);
  };
  return (both(n.kids[0]) && whole(n.kids[1])) || (whole(n.kids[0]) && both(n.kids[1]));
}

/// Numbers the sorts of `n` (Node::value: their key, in the order first written; sorts with
/// one title share a key, CQL 6.2's sort variable) and lists their directions in `keys`.
void number_sorts(Node& n, std::vector<bool>& keys) {
  thread_local std::vector<std::string> titles;
  if (keys.empty()) titles.clear();
  if (n.kind == Kind::kSort) {
    auto it = n.text.empty() ? titles.end() : std::find(titles.begin(), titles.end(), n.text);
    if (it != titles.end()) {
      n.value = it - titles.begin();
    } else {
      n.value = int64_t(keys.size());
      titles.push_back(n.text.empty() ? "\n" + std::to_string(keys.size()) : n.text);
      keys.push_back(n.flags & cql6::kSortMin);
    }
  }
  for (Node& k : n.kids) number_sorts(k, keys);
}

/// Marks every echo whose body requires the same placement at s and t (kEchoSameBoard).
void mark_echoes(Node& n) {
  if (n.kind == Kind::kEcho) {
    const Node& body = n.kids[2];
    const int64_t s = n.kids[0].value, t = n.kids[1].value;
    bool same = same_board_test(body, s, t);
    if (body.kind == Kind::kCompound)
      for (const Node& k : body.kids) {  // a conjunct after side effects would skip them
        if (same_board_test(k, s, t)) same = true;
        if (same || cql6_values::has_side_effect(k)) break;
      }
    if (same) n.flags |= cql6::kEchoSameBoard;
  }
  for (Node& k : n.kids) mark_echoes(k);
}

/// True if the value of `n` may depend on more than the position it is evaluated at: it
/// reads a variable, a dictionary or a `~~` group, or changes state.
bool reads_state(const Node& n) {
  switch (n.kind) {
    case Kind::kVar: case Kind::kDictGet: case Kind::kMatchGroup: case Kind::kIsBound: return true;
    default: break;
  }
  if (cql6_values::has_side_effect(n)) return true;
  for (const Node& k : n.kids)
    if (reads_state(k)) return true;
  return false;
}

/// Marks every `line` / `path` below `n` whose constituents read state (kLineStateful): the
/// line matcher then keeps no memo from one evaluation to the next (a piece loop's body
/// `⊢ T――` gives another answer for each piece T at the same position).
void mark_stateful_lines(Node& n) {
  if (n.kind == Kind::kLine && reads_state(n)) n.flags |= cql6::kLineStateful;
  for (Node& k : n.kids) mark_stateful_lines(k);
}

/// Piece loops of `n` as square loops over the pieces of their sets, their variables as
/// square variables (see compile_cql6_part2: only without navigation).
void unpiece(Node& n) {
  if (n.kind == Kind::kVar) n.flags &= ~uint32_t(cql6::kVarPiece);
  if (n.kind == Kind::kPieceLoop) {
    n.kind = Kind::kSquareLoop;
    Node pieces;
    pieces.kind = Kind::kDesignator;
    pieces.type = Type::kSet;
    pieces.loc = n.kids[1].loc;
    pieces.kinds = cql6::kWhiteKinds | cql6::kBlackKinds;
    pieces.squares = ~Bitboard(0);
    Node both;
    both.kind = Kind::kIntersect;
    both.type = Type::kSet;
    both.loc = n.kids[1].loc;
    both.kids.push_back(std::move(n.kids[1]));
    both.kids.push_back(std::move(pieces));
    n.kids[1] = std::move(both);
  }
  for (Node& k : n.kids) unpiece(k);
}

/// True if the variables of `n` are read only where `assigned` (set by earlier top-level
/// assignments at the same position) or an enclosing loop / echo (`bound`) gave them their
/// value there, and `n` has no other side effect: see effects_are_local.
bool reads_local(const Node& n, const std::vector<int64_t>& assigned, std::vector<int64_t>& bound) {
  auto has = [](const std::vector<int64_t>& v, int64_t x) { return std::find(v.begin(), v.end(), x) != v.end(); };
  switch (n.kind) {
    case Kind::kVar:
      return !(n.flags & (cql6::kVarPersistent | cql6::kVarDictionary)) && (has(assigned, n.value) || has(bound, n.value));
    case Kind::kSquareLoop: case Kind::kPieceLoop: case Kind::kEcho: {
      const size_t vars = n.kind == Kind::kEcho ? 2 : 1;
      if (n.kind != Kind::kEcho && !reads_local(n.kids[1], assigned, bound)) return false;
      for (size_t i = 0; i < vars; ++i) bound.push_back(n.kids[i].value);
      const bool ok = reads_local(n.kids.back(), assigned, bound);
      bound.resize(bound.size() - vars);
      return ok;
    }
    case Kind::kAssign: case Kind::kDictAssign: case Kind::kDictGet: case Kind::kUnbind: case Kind::kIsBound:
    case Kind::kMatchGroup: case Kind::kPieceAssign: case Kind::kSort: case Kind::kComment: case Kind::kSettag: case Kind::kRemoveComment:
      return false;
    default:
      for (const Node& k : n.kids)
        if (!reads_local(k, assigned, bound)) return false;
      return true;
  }
}

/// True if what a script's body does at one position cannot reach another position: every
/// variable is read only after a top-level assignment at the same position gave it its
/// value (or inside the loop / echo that binds it), nothing is persistent, and there is no
/// sort, comment, settag, unbind, dictionary or `\N` group. Then a position where some
/// filter fails is one where the side effects before it are overwritten before any read,
/// so every filter's necessary conditions may prune (and header filters become SQL).
bool effects_are_local(const std::vector<Node>& body) {
  std::vector<int64_t> assigned, bound;
  for (const Node& f : body) {
    if (f.kind == Kind::kAssign) {
      const Node& v = f.kids[0];
      if (v.flags & (cql6::kVarPersistent | cql6::kVarDictionary | cql6::kVarPiece)) return false;
      const bool reads_old = f.sub != '=';
      if (reads_old && std::find(assigned.begin(), assigned.end(), v.value) == assigned.end()) return false;
      if (!reads_local(f.kids[1], assigned, bound)) return false;
      assigned.push_back(v.value);
      continue;
    }
    if (!reads_local(f, assigned, bound)) return false;
  }
  return true;
}

/// True if `n` is worth testing at every position before its CQL 6 filter: anything but a
/// designator of the whole board (`N`, `[qr]`) and a disjunction over transforms. Those
/// hold in nearly every position, and the CQL 6 evaluation finds an empty set itself at
/// once; they still give the planner its conditions (the Op::kCql6 node's hint list).
bool worth_testing(const eval::Node& n) {
  if (n.op == Op::kOr || n.op == Op::kList || n.op == Op::kPromote || n.op == Op::kEnPassant ||
      n.op == Op::kIsCastling)
    return false;
  if (n.op == Op::kDesignator && n.d.size() == 1 && n.d[0].squares == ~Bitboard(0)) return false;
  return true;
}

/// The Op::kCql6 node of the expanded filter `f`; `implied` (implied_by(f)) becomes its
/// hint list, which only the planner reads (planner/condition.cpp).
eval::Node cql6_node(cql6::Node f, std::vector<eval::Node> implied) {
  eval::Node node;
  node.op = Op::kCql6;
  node.cost = Cost::kExpensive;
  if (!implied.empty()) node.lists.push_back(list_of(std::move(implied)));
  node.set(payload::Cql6{std::make_shared<const cql6::Node>(std::move(f))});
  return node;
}

/// True if `a` and `b` are equal but for the direction bits (`sub`) of kDirection nodes;
/// `where` collects the paths (kid indices from the root) of the nodes that differ.
bool same_but_directions(const Node& a, const Node& b, std::vector<size_t>& path,
                         std::vector<std::vector<size_t>>& where) {
  if (a.kind != b.kind || a.type != b.type || a.kinds != b.kinds || a.squares != b.squares || a.value != b.value ||
      a.lo != b.lo || a.hi != b.hi || a.flags != b.flags || a.ops != b.ops || a.text != b.text ||
      a.kids.size() != b.kids.size())
    return false;
  if (a.sub != b.sub) {
    if (a.kind != Kind::kDirection) return false;
    if (std::find(where.begin(), where.end(), path) == where.end()) where.push_back(path);
  }
  for (size_t i = 0; i < a.kids.size(); ++i) {
    path.push_back(i);
    const bool same = same_but_directions(a.kids[i], b.kids[i], path, where);
    path.pop_back();
    if (!same) return false;
  }
  return true;
}

/// A transform whose variants differ only in the directions of one direction filter
/// (`rotate45 {(right 2 k) & Q}`), reached from the root through filters that distribute
/// over a union of sets (`& | -> <-`, a compound or `and`/`or` where only that kid differs):
/// "some variant matches" is then the one filter with the union of the directions
/// (a direction filter is the union over its directions). Nullopt for any other transform.
std::optional<Node> merged_directions(const Node& t) {
  if (t.kind != Kind::kTransform || (t.flags & cql6::kHasRange) || t.type == Type::kNumber || t.kids.size() < 2)
    return std::nullopt;
  std::vector<std::vector<size_t>> where;
  std::vector<size_t> path;
  for (size_t i = 1; i < t.kids.size(); ++i)
    if (!same_but_directions(t.kids[0], t.kids[i], path, where)) return std::nullopt;
  if (where.size() != 1) return std::nullopt;
  Node out = t.kids[0];
  Node* n = &out;
  for (size_t k : where[0]) {
    switch (n->kind) {
      case Kind::kIntersect: case Kind::kUnion: case Kind::kAttacks: case Kind::kAttackedBy:
      case Kind::kCompound: case Kind::kAnd: case Kind::kOr: case Kind::kDirection:
        break;
      default: return std::nullopt;
    }
    n = &n->kids[k];
  }
  for (const Node& v : t.kids) {
    const Node* m = &v;
    for (size_t k : where[0]) m = &m->kids[k];
    n->sub |= m->sub;
  }
  return out;
}

/// Appends the nodes of the top-level filter `f` (expanded, holders numbered). Usually one
/// Op::kCql6 node: the conditions it implies are its planner hints and are not tested
/// separately (the CQL 6 evaluation tests them itself, in the script's order, and a node
/// more per position costs more than it saves). A transform without a count range and with
/// at least `VariantIndex` size of variants becomes a nested list with one variant per
/// transform (Op::kList): each variant is its implied conditions worth testing (designators
/// of particular squares: the keys of the list's variant index, which then offers only the
/// transforms whose key pieces stand on the board) and its Op::kCql6 node.
void cql6_nodes(cql6::Node f, std::vector<eval::Node>& out) {
  if (std::optional<Node> merged = merged_directions(f)) f = std::move(*merged);
  constexpr size_t kIndexedVariants = 8;  // VariantIndex::build's minimum
  if (f.kind == Kind::kTransform && !(f.flags & cql6::kHasRange) && f.type != Type::kNumber &&
      f.kids.size() >= kIndexedVariants) {
    auto list = std::make_shared<PositionList>();
    // whole-board designators every transform needs (`Q` under rotate45): tested once,
    // before the list
    std::vector<Designator> common;
    bool first = true;
    for (Node& v : f.kids) {
      std::vector<eval::Node> implied, variant;
      implied_by(v, implied);
      std::vector<Designator> mine;
      for (const eval::Node& k : implied) {
        if (worth_testing(k)) variant.push_back(k);
        else if (k.op == Op::kDesignator && !k.negate && k.d.size() == 1) mine.push_back(k.d[0]);
      }
      if (first) common = mine;
      else std::erase_if(common, [&](const Designator& d) { return std::find(mine.begin(), mine.end(), d) == mine.end(); });
      first = false;
      variant.push_back(cql6_node(std::move(v), std::move(implied)));
      order_by_cost(variant);
      list->variants.push_back(std::move(variant));
    }
    for (size_t i = 0; i < common.size(); ++i) {
      const Designator& d = common[i];
      if (std::find(common.begin(), common.begin() + std::ptrdiff_t(i), d) != common.begin() + std::ptrdiff_t(i))
        continue;  // once each
      eval::Node need;
      need.op = Op::kDesignator;
      need.cost = Cost::kMedium;
      need.d.push_back(d);
      out.push_back(std::move(need));
    }
    list->index.build(list->variants, kIndexedVariants);
    list->memo.build(list->variants);
    eval::Node node;
    node.op = Op::kList;
    node.cost = Cost::kExpensive;
    node.lists.push_back(std::move(list));
    out.push_back(std::move(node));
    return;
  }
  std::vector<eval::Node> implied;
  implied_by(f, implied);
  out.push_back(cql6_node(std::move(f), std::move(implied)));
}

/// The one alternative of a CQL 6 script: the header filter built in `where` (its SQL and
/// `params`), one position list of `nodes` (ordered by cost here), the header's matchcount
/// range, and the main line or, with `variations`, every line.
Alternative script_alternative(const cql6::Header& h, headers::WhereBuilder& where,
                               std::vector<db::sqlite::Param>& params, std::vector<eval::Node> nodes) {
  Alternative alt;
  if (h.gamenumber_lo > 0 || h.gamenumber_hi >= 0) {  // `gamenumber m n`: the games' ids (file order)
    std::string range = "g.id >= " + where.number(h.gamenumber_lo);  // parameters in placeholder order
    if (h.gamenumber_hi >= 0) range += " AND g.id <= " + where.number(h.gamenumber_hi);
    where.add(range);
  }
  alt.header = headers::HeaderFilter::from_where(where.take(), std::move(params));
  order_by_cost(nodes);
  auto list = std::make_shared<PositionList>();
  list->variants.push_back(std::move(nodes));
  list->index.build(list->variants);
  list->memo.build(list->variants);
  alt.lists.push_back(list);
  MatchCount count;
  count.lo = h.matchcount_lo;
  count.hi = h.matchcount_hi < 0 ? INT64_MAX : h.matchcount_hi;
  alt.counts.push_back(count);
  alt.scopes.push_back(h.variations ? LineScope::kAll : LineScope::kMainLine);
  return alt;
}

}  // namespace

/// A part-2 script (issue 37): the body is evaluated in order as one Op::kCql6 node whose
/// root is a kScript (its variables' storage, eval/cql6_values.h). Necessary conditions are
/// added beside it only from the filters before the first one with a side effect (an
/// assignment, a loop, `echo`, `~~`, sort, comment...): where one of them fails, CQL 6.2
/// stops before any side effect, so skipping that position or game (the planner) changes
/// nothing. Header filters (SQL) are taken from that prefix too; later ones are answered per
/// position. When the side effects cannot reach another position (effects_are_local), every
/// filter counts as that prefix.
Program Program::compile_cql6_part2(const cql6::Script& script) {
  Program program;
  const cql6::Header& h = script.header;
  std::vector<db::sqlite::Param> params;
  headers::WhereBuilder where(params);
  for (const cql6::Node& n : h.conditions) {
    if (is_header_condition(n)) add_header_condition(where, n);
  }
  cql6::Node root;
  root.kind = Kind::kScript;
  static std::atomic<int64_t> next_id{1};
  root.value = next_id++;
  root.flags = h.variations ? 1u : 0u;  // navigation over the game tree (eval/cql6_values.cpp)
  std::vector<eval::Node> nodes, hints;
  bool pure = true;
  const bool local = effects_are_local(script.body);
  // The planner's hints decide games only (Op::kCql6's hint list prunes no position: the ply
  // windows read only the tested ops). A game matches where every top-level filter matches,
  // so without state that outlives a game (persistent variables, dictionaries) or a
  // `message` (printed wherever it runs), a filter after a side effect gives hints too.
  bool contained = true;
  for (const cql6::Node& n : script.body)
    visit(n, [&](const cql6::Node& k) {
      if (k.kind == Kind::kVar && (k.flags & (cql6::kVarPersistent | cql6::kVarDictionary))) contained = false;
      if (k.kind == Kind::kDictGet || k.kind == Kind::kDictAssign || (k.kind == Kind::kComment && k.sub == 1))
        contained = false;
    });
  for (const cql6::Node& n : h.conditions)
    if (!is_header_condition(n)) root.kids.push_back(expand(n));
  for (const cql6::Node& n : script.body) {
    if (pure && is_header_condition(n)) {  // later ones are answered per position (GameText)
      add_header_condition(where, n);
      continue;
    }
    cql6::Node e = expand(n);
    if (!local && cql6_values::has_side_effect(e)) pure = false;
    if (pure) {
      bool unused = false;
      if (std::optional<eval::Node> op = exact_op(e, unused)) nodes.push_back(std::move(*op));
      else implied_by(e, hints);  // conditions for the planner only (cql6_node), not tested here
    } else if (contained) {
      implied_by(e, hints);
    }
    root.kids.push_back(std::move(e));
  }
  visit(root, [&](const cql6::Node& k) {
    if (k.kind == Kind::kHeaderText || k.kind == Kind::kYear || k.kind == Kind::kHeaderValue ||
        k.kind == Kind::kHhdbAward) {
      program.needs_game_info_ = true;  // header texts per position (GameInfo::text)
      program.needs_game_text_ = true;
      auto& names = program.cql6_tag_names_;
      if (k.kind == Kind::kHeaderValue && cql6::HeaderTag(k.sub) == cql6::HeaderTag::kTag &&
          std::find(names.begin(), names.end(), k.text) == names.end())
        names.push_back(k.text);
    }
    if (k.kind == Kind::kPath) throw cql6::not_supported(k.loc, "path");
    if (k.kind == Kind::kResult || k.kind == Kind::kElo) program.needs_game_info_ = true;
    if (k.kind == Kind::kVar && (k.flags & cql6::kVarPersistent)) program.sequential_ = true;
    if (k.kind == Kind::kSort && !program.cql6_sort_) {
      program.cql6_sort_ = (k.flags & cql6::kSortMin) ? 2 : 1;
      program.cql6_sort_title_ = (k.flags & cql6::kSortQuiet) ? "" : k.text.empty() ? "sort" : k.text;
    }
    if ((k.kind == Kind::kComment && k.sub == 0) || k.kind == Kind::kSettag) program.cql6_output_ = true;
  });
  // Without navigation anywhere, a piece variable is only read at the position its loop
  // bound it: the piece's square then, so the loop is a square loop over the pieces of its
  // set (no piece identities to follow).
  bool any_navigation = false;
  visit(root, [&](const cql6::Node& k) {
    any_navigation |= k.kind != Kind::kPieceLoop && k.kind != Kind::kVar && navigates(k);
    // filters evaluated at other positions of the line read a piece variable there too
    any_navigation |= k.kind == Kind::kLine || (k.kind == Kind::kMove && (k.flags & cql6::kMovePrevious)) ||
                      (k.kind == Kind::kDash && k.kids.size() > 2 && k.kids[2].kind != Kind::kNone) ||
                      k.kind == Kind::kPathFilter;  // a path reads later positions
  });
  if (!any_navigation) unpiece(root);
  mark_echoes(root);
  mark_stateful_lines(root);
  number_sorts(root, program.cql6_sort_keys_);
  cql6_values::check_patterns(root);
  number_holders(root);
  program.needs_line_moves_ = true;  // other positions of the game are replayed from its moves
  nodes.push_back(cql6_node(std::move(root), std::move(hints)));
  program.needs_variations_ = h.variations;
  program.tree_positions_once_ = true;
  if (h.sort_matchcount) program.cql6_sort_matchcount_ = true, program.cql6_sort_ = 1, program.cql6_sort_title_ = "matchcount";
  program.alternatives_.push_back(script_alternative(h, where, params, std::move(nodes)));
  return program;
}

Program Program::compile_cql6(const cql6::Script& script) {
  if (uses_part2(script)) return compile_cql6_part2(script);
  Program program;
  const cql6::Header& h = script.header;
  std::vector<db::sqlite::Param> params;
  headers::WhereBuilder where(params);
  std::vector<const cql6::Node*> position_filters;
  for (const cql6::Node& n : h.conditions) {
    if (is_header_condition(n)) add_header_condition(where, n);
    else position_filters.push_back(&n);  // result, elo: per position (game information)
  }
  for (const cql6::Node& n : script.body) {
    if (is_header_condition(n)) add_header_condition(where, n);
    else position_filters.push_back(&n);
  }
  // header filters anywhere else cannot be answered per position yet
  for (const cql6::Node* n : position_filters)
    visit(*n, [&](const cql6::Node& k) {
      if (k.kind == Kind::kHeaderText) throw cql6::not_supported(k.loc, "player/event/site/date/eco", "inside another filter");
      if (k.kind == Kind::kYear) throw cql6::not_supported(k.loc, "year", "other than compared with constants at the top level");
      if (k.kind == Kind::kResult || k.kind == Kind::kElo) program.needs_game_info_ = true;
      // (`move legal` / `pseudolegal`: a castling from a FEN without the right looks at the
      // earlier moves, cql6_eval may_castle)
      if (k.kind == Kind::kLine || (k.kind == Kind::kMove && (k.flags & cql6::kMovePrevious)) ||
          (k.kind == Kind::kMove && (k.flags & (cql6::kMoveLegal | cql6::kMovePseudoLegal))) ||
          k.kind == Kind::kFromSquare || k.kind == Kind::kToSquare ||
          (k.kind == Kind::kDash && k.kids.size() > 2 && k.kids[2].kind != Kind::kNone))
        program.needs_line_moves_ = true;
    });
  std::vector<eval::Node> nodes;
  for (const cql6::Node* n : position_filters) {
    if (std::optional<eval::Node> op = exact_op(*n, program.needs_game_info_)) {
      nodes.push_back(std::move(*op));
      continue;
    }
    cql6::Node filter = expand(*n);
    number_holders(filter);
    cql6_nodes(std::move(filter), nodes);
  }
  program.needs_variations_ = h.variations;
  program.tree_positions_once_ = true;
  if (h.sort_matchcount) program.cql6_sort_matchcount_ = true, program.cql6_sort_ = 1, program.cql6_sort_title_ = "matchcount";
  program.alternatives_.push_back(script_alternative(h, where, params, std::move(nodes)));
  return program;
}

std::string payload::Cql6::key() const {
  return "6:" + std::to_string(reinterpret_cast<uintptr_t>(filter.get()));
}

}  // namespace eval
