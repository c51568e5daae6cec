#include "eval/line.h"

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "eval/board_predicates.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/transform.h"

namespace eval {

namespace {

using cql::LineMove;
namespace pm = cql::piece_mask;

// ---- compiling

/// Both colours' kinds of `m` as white kinds (`p` -> `P`); the empty bit is dropped.
PieceMask fold_white(PieceMask m) {
  return PieceMask((m | (m >> 6)) & pm::kWhite);
}

/// White and black kinds swapped; the empty bit is kept.
PieceMask swap_colors(PieceMask m) {
  return PieceMask(((m & pm::kWhite) << 6) | ((m & pm::kBlack) >> 6) | (m & pm::kEmpty));
}

/// Castling rights with White's and Black's bits swapped.
uint8_t swap_rights(uint8_t r) {
  return uint8_t(((r & 3) << 2) | ((r >> 2) & 3));
}

/// The kinds the mover may move (`own`) or meet on the destination (`!own`) for a move
/// written in relative colours, stored as if White moved.
PieceMask relative(PieceMask m, bool own) {
  PieceMask kinds = fold_white(m);
  return PieceMask((own ? kinds : PieceMask(kinds << 6)) | (m & pm::kEmpty));
}

void no_tag(const cql::PieceDesignator& d, const LineMove& m) {
  if (!d.tag.empty())
    throw CompileError(m.loc, "not yet supported: tagged piece designator $" + d.tag + " in a move line");
}

LineMoveSpec compile_move(const LineMove& m, const Transform& t, bool rel) {
  LineMoveSpec s;
  s.checks = m.checks;
  s.forced = m.forced;
  switch (m.kind) {
    case LineMove::Kind::Drop: s.kind = LineMoveSpec::Kind::kNever; return s;
    case LineMove::Kind::AnyMove: s.kind = LineMoveSpec::Kind::kAnyMove; return s;
    case LineMove::Kind::NullMove: s.kind = LineMoveSpec::Kind::kNullMove; return s;
    case LineMove::Kind::Castling:
      s.kind = LineMoveSpec::Kind::kCastling;
      s.castling = rel ? uint8_t((m.castling | (m.castling >> 2)) & 3)
                       : t.swaps_colors() ? swap_rights(m.castling) : m.castling;
      return s;
    case LineMove::Kind::Normal: break;
  }
  no_tag(m.from, m);
  no_tag(m.to, m);
  auto own = [&](PieceMask x) { return rel ? relative(x, true) : t.apply(x); };
  auto other = [&](PieceMask x) { return rel ? relative(x, false) : t.apply(x); };
  s.from = own(m.from.pieces);
  s.from_promoted = own(m.from.promoted);
  s.from_not_promoted = own(m.from.not_promoted);
  s.from_squares = t.apply(m.from.squares.squares);
  PieceMask to = m.target == LineMove::Target::Empty     ? pm::kEmpty
                 : m.target == LineMove::Target::Capture ? PieceMask(m.to.pieces & ~pm::kEmpty)
                                                         : PieceMask(m.to.pieces | pm::kEmpty);
  s.to = other(to);
  s.to_promoted = other(m.to.promoted);
  s.to_not_promoted = other(m.to.not_promoted);
  // A capture takes an opponent's piece: when the mover's colour is fixed, the captured
  // piece's letter gives its kind only (seed 000 writes `Pc4xPd5 ... Nc3xNd5`).
  const bool white_mover = !(s.from & pm::kBlack), black_mover = !(s.from & pm::kWhite);
  if (!rel && (white_mover || black_mover)) {
    auto opponent = [&](PieceMask x) {
      PieceMask kinds = fold_white(x);
      return PieceMask((white_mover ? PieceMask(kinds << 6) : kinds) | (x & pm::kEmpty));
    };
    s.to = opponent(s.to);
    s.to_promoted = opponent(s.to_promoted);
    s.to_not_promoted = opponent(s.to_not_promoted);
  }
  s.to_squares = t.apply(m.to.squares.squares);
  s.en_passant = m.en_passant;
  if (m.promotion) {
    no_tag(*m.promotion, m);
    s.promotion = own(m.promotion->pieces);
    // the promoted piece is the mover's: `p=Q` is a black queen
    if (!rel && (white_mover || black_mover)) {
      const PieceMask kinds = fold_white(s.promotion);
      s.promotion = white_mover ? kinds : PieceMask(kinds << 6);
    }
  }
  if (!s.from_squares || !s.to_squares || !s.from) s.kind = LineMoveSpec::Kind::kNever;
  return s;
}

// ---- matching

/// The castling right a castling move `m` (king takes own rook) uses.
chess::CastlingRight castling_of(const chess::Position& pos, chess::Move m) {
  return chess::castling_right(pos.side_to_move(), m.to_sq() > m.from_sq());
}

/// True if a piece with mask bit `bit` (promoted or not) is one of `kinds`, honouring the
/// promotion restrictions.
bool kind_matches(PieceMask bit, bool is_promoted, PieceMask kinds, PieceMask promoted,
                  PieceMask not_promoted) {
  if (!(bit & kinds)) return false;
  if ((bit & promoted) && !is_promoted) return false;
  if ((bit & not_promoted) && is_promoted) return false;
  return true;
}

/// True if the move `m` (legal in `pos`, or null / none) is one the line move `s` allows,
/// without its check marks and `!`. `promoted`: squares of promoted pieces in `pos`; `swap`:
/// the masks are relative and Black moves.
bool move_matches(const LineMoveSpec& s, const chess::Position& pos, chess::Bitboard promoted,
                  chess::Move m, bool swap) {
  using Kind = LineMoveSpec::Kind;
  switch (s.kind) {
    case Kind::kNever: return false;
    case Kind::kNullMove: return m == chess::Move::null();
    case Kind::kAnyMove: return m.is_ok();  // none and null are not is_ok()
    case Kind::kCastling:
      return m.is_ok() && m.kind() == chess::Move::CASTLING &&
             (castling_of(pos, m) & (swap ? swap_rights(s.castling) : s.castling));
    case Kind::kNormal: break;
  }
  if (!m.is_ok()) return false;
  const chess::Square from = m.from_sq();
  if (!(s.from_squares & chess::square_bb(from))) return false;
  auto sw = [&](PieceMask x) { return swap ? swap_colors(x) : x; };
  if (!kind_matches(piece_bit(pos.piece_on(from)), promoted & chess::square_bb(from), sw(s.from),
                    sw(s.from_promoted), sw(s.from_not_promoted)))
    return false;
  const chess::Square to = m.kind() == chess::Move::CASTLING
                               ? chess::Position::castling_king_to(castling_of(pos, m))
                               : m.to_sq();
  if (!(s.to_squares & chess::square_bb(to))) return false;
  if (s.en_passant) {
    if (m.kind() != chess::Move::EN_PASSANT) return false;
  } else if (!kind_matches(piece_bit(pos.piece_on(to)), promoted & chess::square_bb(to), sw(s.to),
                           sw(s.to_promoted), sw(s.to_not_promoted))) {
    return false;
  }
  if (s.promotion) {
    if (m.kind() != chess::Move::PROMOTION) return false;
    if (!(piece_bit(pos.side_to_move(), m.promotion_type()) & sw(s.promotion))) return false;
  }
  return true;
}

/// True if the cql::CheckMark bits `checks` hold in `after`, the position a move reached.
bool marks_hold(uint8_t checks, const chess::Position& after) {
  const bool check = after.in_check();
  if ((checks & cql::kMarkCheck) && !check) return false;
  if ((checks & cql::kMarkNoCheck) && check) return false;
  if (checks & (cql::kMarkDoubleCheck | cql::kMarkNoDoubleCheck)) {
    const bool dbl = check && is_double_check(after);
    if ((checks & cql::kMarkDoubleCheck) && !dbl) return false;
    if ((checks & cql::kMarkNoDoubleCheck) && dbl) return false;
  }
  if (checks & (cql::kMarkContactCheck | cql::kMarkNoContactCheck)) {
    const bool contact = check && is_contact_check(after);
    if ((checks & cql::kMarkContactCheck) && !contact) return false;
    if ((checks & cql::kMarkNoContactCheck) && contact) return false;
  }
  if (checks & (cql::kMarkMate | cql::kMarkNoMate)) {
    const bool mate = check && !chess::has_legal_move(after);
    if ((checks & cql::kMarkMate) && !mate) return false;
    if ((checks & cql::kMarkNoMate) && mate) return false;
  }
  return true;
}

/// True if the side to move in `pos` has exactly one legal move.
bool only_move(const chess::Position& pos) {
  chess::MoveList moves;
  chess::generate_legal(pos, moves);
  return moves.size() == 1;
}


/// Plays the stored move `m` of the line on the scratch board; false if it cannot be
/// played there (a corrupt record: GameMatcher reports it when it gets there).
bool play_stored(chess::Position& pos, chess::Bitboard& promoted, chess::Move m) {
  if (!is_playable_stored(pos, m)) return false;  // as GameMatcher checks it
  chess::UndoInfo undo;
  if (m == chess::Move::null()) {
    pos.do_null_move(undo);
    return true;
  }
  promoted = update_promoted(promoted, m);
  pos.do_move(m, undo);
  return true;
}

bool swapped(const LineSpec& spec, const chess::Position& pos) {
  return spec.relative_colors && pos.side_to_move() == chess::BLACK;
}

/// The potential continuation (seed 000 `|`): some sequence of legal moves from `pos`
/// matches spec.moves[i..]. Backtracks over every matching move (exponential in the worst
/// case, as the seed warns). A null move is playable when the side to move is not in check.
bool continuation(const LineSpec& spec, size_t i, chess::Position& pos, chess::Bitboard promoted) {
  if (i == spec.moves.size()) return true;
  const LineMoveSpec& s = spec.moves[i];
  chess::UndoInfo undo;
  if (s.kind == LineMoveSpec::Kind::kNullMove) {
    if (pos.in_check() || s.forced) return false;  // a null move is never the only legal move
    pos.do_null_move(undo);
    bool ok = marks_hold(s.checks, pos) && continuation(spec, i + 1, pos, promoted);
    pos.undo_null_move(undo);
    return ok;
  }
  chess::MoveList moves;
  chess::generate_legal(pos, moves);
  if (s.forced && moves.size() != 1) return false;
  const bool swap = swapped(spec, pos);
  for (chess::Move m : moves) {
    if (!move_matches(s, pos, promoted, m, swap)) continue;
    const chess::Bitboard next_promoted = update_promoted(promoted, m);
    pos.do_move(m, undo);
    bool ok = marks_hold(s.checks, pos) && continuation(spec, i + 1, pos, next_promoted);
    pos.undo_move(m, undo);
    if (ok) return true;
  }
  return false;
}

/// Same pieces on the same squares, same side to move and castling rights (en passant and
/// the move counters are ignored).
bool same_position(const chess::Position& a, const chess::Position& b) {
  if (a.side_to_move() != b.side_to_move() || a.castling_rights() != b.castling_rights()) return false;
  if (a.pieces(chess::WHITE) != b.pieces(chess::WHITE) || a.pieces(chess::BLACK) != b.pieces(chess::BLACK))
    return false;
  for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
    if (a.pieces(chess::PieceType(pt)) != b.pieces(chess::PieceType(pt))) return false;
  return true;
}

/// :line* at `c` (see line.h): the line played from the start position reaches c's position
/// in as many plies.
bool match_transposition(const LineSpec& spec, const PosCtx& c) {
  if (!c.start || c.ply != spec.moves.size()) return false;
  chess::Position pos = *c.start;
  if (spec.first_fullmove &&
      (pos.fullmove_number() != spec.first_fullmove || pos.side_to_move() != spec.first_side))
    return false;
  chess::Bitboard promoted = 0;
  for (const LineMoveSpec& s : spec.moves) {
    // :line* moves are uniquely determined (cql/parse_line.cpp): the first legal match is it
    chess::MoveList moves;
    chess::generate_legal(pos, moves);
    const bool swap = swapped(spec, pos);
    chess::Move found = chess::Move::none();
    for (chess::Move m : moves)
      if (move_matches(s, pos, promoted, m, swap)) {
        found = m;
        break;
      }
    if (!found) return false;
    promoted = update_promoted(promoted, found);
    chess::UndoInfo undo;
    pos.do_move(found, undo);
  }
  return same_position(pos, *c.pos) && marks_hold(spec.moves.back().checks, *c.pos);
}

}  // namespace

std::shared_ptr<const LineSpec> compile_line(const cql::LineArgs& args, const Transform& t,
                                             const cql::SourceLoc& loc) {
  auto spec = std::make_shared<LineSpec>();
  spec->transposition = args.transposition;
  spec->relative_colors = args.numbered || args.transposition || args.san;
  if (args.transposition && !t.is_identity())
    throw CompileError(loc, ":line* does not allow transformations (:flip, :shift, :flipcolor, "
                            "match:eithercolor ...): a transposition-invariant line is searched as written");
  if (args.numbered && t.swaps_colors())
    throw CompileError(loc, "a move line with move numbers cannot be used with :flipcolor or "
                            "match:eithercolor (the numbers fix the colours)");
  for (const LineMove& m : args.moves) {
    if (args.transposition && m.forced)
      throw CompileError(m.loc, "':line*' does not allow '!' (forced move): the order of the moves is open");
    spec->moves.push_back(compile_move(m, t, spec->relative_colors));
  }
  spec->played = args.potential_from.value_or(spec->moves.size());
  if (args.numbered) {
    spec->first_fullmove = *args.moves.front().move_number;
    spec->first_side = args.moves.front().black_move_number ? chess::BLACK : chess::WHITE;
  }
  return spec;
}

std::string LineSpec::canonical() const {
  std::string s = transposition ? "L*" : "L";
  s += std::to_string(played) + "/" + std::to_string(relative_colors) + "/" +
       std::to_string(first_fullmove) + "/" + std::to_string(int(first_side));
  for (const LineMoveSpec& m : moves) {
    s += "[" + std::to_string(int(m.kind)) + "," + std::to_string(m.from) + "," +
         std::to_string(m.from_promoted) + "," + std::to_string(m.from_not_promoted) + "," +
         std::to_string(m.from_squares) + "," + std::to_string(m.to) + "," +
         std::to_string(m.to_promoted) + "," + std::to_string(m.to_not_promoted) + "," +
         std::to_string(m.to_squares) + "," + std::to_string(m.en_passant) + "," +
         std::to_string(m.promotion) + "," + std::to_string(m.castling) + "," +
         std::to_string(m.checks) + "," + std::to_string(m.forced) + "]";
  }
  return s;
}

bool match_line(const LineSpec& spec, const PosCtx& c) {
  if (spec.transposition) return match_transposition(spec, c);
  if (!c.line_moves || c.line_moves_left < spec.played) return false;
  const chess::Position& at = *c.pos;
  if (spec.first_fullmove &&
      (at.fullmove_number() != spec.first_fullmove || at.side_to_move() != spec.first_side))
    return false;
  // Hot path: the first move against the next move of the line, on the board as it is.
  const LineMoveSpec& first = spec.moves[0];
  if (!move_matches(first, at, c.promoted, c.line_moves[0], swapped(spec, at))) return false;
  if (spec.moves.size() == 1 && !first.checks && !first.forced) return true;
  chess::Position pos = at;
  chess::Bitboard promoted = c.promoted;
  for (size_t i = 0; i < spec.played; ++i) {
    const LineMoveSpec& s = spec.moves[i];
    const chess::Move m = c.line_moves[i];
    if (i > 0 && !move_matches(s, pos, promoted, m, swapped(spec, pos))) return false;
    if (s.forced && (m == chess::Move::null() || !only_move(pos))) return false;
    if (!play_stored(pos, promoted, m)) return false;
    if (s.checks && !marks_hold(s.checks, pos)) return false;
  }
  return continuation(spec, spec.played, pos, promoted);
}

std::string payload::Line::key() const { return spec->canonical(); }

}  // namespace eval
