// Position: board updates, attacks, legality and make/unmake. FEN reading and writing are
// in position_fen.cpp.
#include "chess/position.h"

namespace chess {

Position::Position() {
  init();
  set_start();
}

void Position::clear() {
  for (Piece& p : board_) p = NO_PIECE;
  for (Bitboard& b : by_type_) b = 0;
  for (Bitboard& b : by_color_) b = 0;
  for (int i = 0; i < 4; ++i) {
    castling_rook_[i] = SQ_NONE;
    castling_path_[i] = king_path_[i] = 0;
  }
  for (uint8_t& m : castling_mask_) m = 0;
  checkers_ = 0;
  key_ = 0;
  castling_ = NO_CASTLING;
  ep_ = SQ_NONE;
  side_ = WHITE;
  chess960_ = false;
  rule50_ = 0;
  game_ply_ = 0;
}

void Position::add_castling_right(CastlingRight cr, Square rook) {
  Color c = cr >= BLACK_OO ? BLACK : WHITE;
  Square king = king_square(c);
  Square kto = castling_king_to(cr), rto = castling_rook_to(cr);
  int i = right_index(cr);
  castling_ |= cr;
  castling_rook_[i] = rook;
  castling_mask_[king] |= castling_right(c, true) | castling_right(c, false);
  castling_mask_[rook] |= cr;
  castling_path_[i] =
      (between_bb(king, kto) | square_bb(kto) | between_bb(rook, rto) | square_bb(rto)) &
      ~(square_bb(king) | square_bb(rook));
  // The destination is included even when the king is already on it: the castling rook
  // may be what shields it (Chess960, king c1, rook b1, enemy queen a1).
  king_path_[i] = between_bb(king, kto) | square_bb(kto);
}

Key Position::compute_key() const {
  Key k = 0;
  for (Bitboard b = pieces(); b;) {
    Square s = pop_lsb(b);
    k ^= zobrist::psq[board_[s]][s];
  }
  k ^= zobrist::castling[castling_];
  if (ep_ != SQ_NONE) k ^= zobrist::enpassant[file_of(ep_)];
  if (side_ == BLACK) k ^= zobrist::side;
  return k;
}

void Position::finish_setup() {
  checkers_ = attackers_to(king_square(side_)) & pieces(~side_);
  key_ = compute_key();
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
  return (pawn_attacks_bb(BLACK, s) & pieces(WHITE, PAWN)) |
         (pawn_attacks_bb(WHITE, s) & pieces(BLACK, PAWN)) |
         (pseudo_attacks_bb(KNIGHT, s) & pieces(KNIGHT)) |
         (attacks_bb(BISHOP, s, occupied) & pieces(BISHOP, QUEEN)) |
         (attacks_bb(ROOK, s, occupied) & pieces(ROOK, QUEEN)) |
         (pseudo_attacks_bb(KING, s) & pieces(KING));
}

Bitboard Position::attackers_of(Color c, Square s, Bitboard occupied) const {
  Bitboard b = (pawn_attacks_bb(~c, s) & pieces(c, PAWN)) |
               (pseudo_attacks_bb(KNIGHT, s) & pieces(c, KNIGHT)) |
               (pseudo_attacks_bb(KING, s) & pieces(c, KING));
  const Bitboard diagonal = pseudo_attacks_bb(BISHOP, s) & pieces(c, BISHOP, QUEEN);
  if (diagonal) b |= attacks_bb(BISHOP, s, occupied) & diagonal;
  const Bitboard straight = pseudo_attacks_bb(ROOK, s) & pieces(c, ROOK, QUEEN);
  if (straight) b |= attacks_bb(ROOK, s, occupied) & straight;
  return b;
}

Bitboard Position::pinned(Color c) const {
  Square ksq = king_square(c);
  Bitboard snipers = (pseudo_attacks_bb(ROOK, ksq) & pieces(~c, ROOK, QUEEN)) |
                     (pseudo_attacks_bb(BISHOP, ksq) & pieces(~c, BISHOP, QUEEN));
  Bitboard result = 0;
  while (snipers) {
    Bitboard b = between_bb(ksq, pop_lsb(snipers)) & pieces();
    if (b && !more_than_one(b)) result |= b & pieces(c);
  }
  return result;
}

bool Position::is_legal(Move m) const {
  Color us = side_, them = ~us;
  Square from = m.from_sq(), to = m.to_sq();
  Square ksq = king_square(us);

  switch (m.kind()) {
    case Move::EN_PASSANT: {
      Square capsq = square_offset(to, -pawn_push(us));
      Bitboard occ = (pieces() ^ square_bb(from) ^ square_bb(capsq)) | square_bb(to);
      return !(attackers_of(them, ksq, occ) & ~square_bb(capsq));
    }
    case Move::CASTLING: {
      if (from != ksq || checkers()) return false;
      bool king_side = to > from;
      CastlingRight cr = castling_right(us, king_side);
      int i = right_index(cr);
      if (!(castling_ & cr) || castling_rook_[i] != to) return false;
      if (castling_path_[i] & pieces()) return false;
      // The castling rook is taken off the board: it must not shield a square the king
      // crosses or lands on (Chess960, e.g. king c1, rook b1, enemy queen a1).
      Bitboard occ = pieces() ^ square_bb(to);
      for (Bitboard b = king_path_[i]; b;)
        if (attackers_of(them, pop_lsb(b), occ)) return false;
      return true;
    }
    default:
      break;
  }

  if (from == ksq) return !attackers_of(them, to, pieces() ^ square_bb(from));

  if (const Bitboard checkers = this->checkers()) {
    if (more_than_one(checkers)) return false;
    if (!((between_bb(ksq, lsb(checkers)) | checkers) & square_bb(to))) return false;
  }
  // Only a piece on a line with the king can be pinned; moving along that line is safe.
  const Bitboard line = line_bb(ksq, from);
  if (!line || aligned(ksq, from, to)) return true;
  // Every other attacker of the king is a checker, and the move blocked or took it (above):
  // only a slider of the line's kind on that line can attack the king after the move.
  const PieceType slider =
      rank_of(ksq) == rank_of(from) || file_of(ksq) == file_of(from) ? ROOK : BISHOP;
  const Bitboard snipers = line & pieces(them, slider, QUEEN);
  if (!snipers) return true;
  Bitboard occ = (pieces() ^ square_bb(from)) | square_bb(to);
  return !(attacks_bb(slider, ksq, occ) & snipers & ~square_bb(to));
}

bool Position::is_well_formed_special(Move m) const {
  const Square from = m.from_sq(), to = m.to_sq();
  if (from == to) return false;
  const Piece pc = board_[from];
  if (pc == NO_PIECE || color_of(pc) != side_) return false;
  const Piece target = board_[to];
  const bool pawn = type_of(pc) == PAWN;
  const bool last_rank = rank_of(to) == RANK_1 || rank_of(to) == RANK_8;
  switch (m.kind()) {
    case Move::CASTLING: {
      if (type_of(pc) != KING) return false;
      const CastlingRight cr = castling_right(side_, to > from);
      const int i = right_index(cr);
      return (castling_ & cr) && castling_rook_[i] == to && !(castling_path_[i] & pieces());
    }
    case Move::EN_PASSANT:
      return pawn && to == ep_ && target == NO_PIECE && (pawn_attacks_bb(side_, from) & square_bb(to));
    case Move::PROMOTION:
      if (!pawn || !last_rank) return false;
      break;
    default:
      if (pawn && last_rank) return false;
      break;
  }
  return target == NO_PIECE || (color_of(target) != side_ && type_of(target) != KING);
}

void Position::do_move(Move m, UndoInfo& u) {
  assert(m.is_ok());
  u.key = key_;
  u.checkers = checkers_;
  u.rule50 = rule50_;
  u.castling = castling_;
  u.ep = ep_;
  u.captured = NO_PIECE;

  Color us = side_, them = ~us;
  Square from = m.from_sq(), to = m.to_sq();
  Piece pc = board_[from];
  assert(pc != NO_PIECE && color_of(pc) == us);
  Key k = key_ ^ zobrist::side;
  if (ep_ != SQ_NONE) {
    k ^= zobrist::enpassant[file_of(ep_)];
    ep_ = SQ_NONE;
  }
  ++rule50_;
  ++game_ply_;

  if (m.kind() == Move::CASTLING) {
    CastlingRight cr = castling_right(us, to > from);
    Square kto = castling_king_to(cr), rto = castling_rook_to(cr);
    Piece rook = board_[to];
    remove_piece(from);
    remove_piece(to);
    put_piece(pc, kto);
    put_piece(rook, rto);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][kto] ^ zobrist::psq[rook][to] ^
         zobrist::psq[rook][rto];
  } else {
    Square capsq = m.kind() == Move::EN_PASSANT ? square_offset(to, -pawn_push(us)) : to;
    Piece captured = board_[capsq];
    if (captured != NO_PIECE) {
      assert(color_of(captured) == them && type_of(captured) != KING);
      remove_piece(capsq);
      k ^= zobrist::psq[captured][capsq];
      rule50_ = 0;
      u.captured = captured;
    }
    move_piece(from, to);
    k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];
    if (type_of(pc) == PAWN) {
      rule50_ = 0;
      if (m.kind() == Move::PROMOTION) {
        Piece promoted = make_piece(us, m.promotion_type());
        remove_piece(to);
        put_piece(promoted, to);
        k ^= zobrist::psq[pc][to] ^ zobrist::psq[promoted][to];
      } else if ((from ^ to) == 16) {
        Square epsq = square_offset(from, pawn_push(us));
        if (pawn_attacks_bb(us, epsq) & pieces(them, PAWN)) {
          ep_ = epsq;
          k ^= zobrist::enpassant[file_of(epsq)];
        }
      }
    }
  }

  uint8_t lost = castling_mask_[from] | castling_mask_[to];
  if (castling_ & lost) {
    k ^= zobrist::castling[castling_];
    castling_ &= uint8_t(~lost);
    k ^= zobrist::castling[castling_];
  }

  side_ = them;
  key_ = k;
  checkers_ = kCheckersUnknown;  // computed when asked (checkers())
}

void Position::undo_move(Move m, const UndoInfo& u) {
  side_ = ~side_;
  Color us = side_;
  Square from = m.from_sq(), to = m.to_sq();

  if (m.kind() == Move::CASTLING) {
    CastlingRight cr = castling_right(us, to > from);
    Square kto = castling_king_to(cr), rto = castling_rook_to(cr);
    Piece king = board_[kto], rook = board_[rto];
    remove_piece(kto);
    remove_piece(rto);
    put_piece(king, from);
    put_piece(rook, to);
  } else {
    if (m.kind() == Move::PROMOTION) {
      remove_piece(to);
      put_piece(make_piece(us, PAWN), to);
    }
    move_piece(to, from);
    if (u.captured != NO_PIECE) {
      Square capsq = m.kind() == Move::EN_PASSANT ? square_offset(to, -pawn_push(us)) : to;
      put_piece(u.captured, capsq);
    }
  }

  key_ = u.key;
  checkers_ = u.checkers;
  rule50_ = u.rule50;
  castling_ = u.castling;
  ep_ = u.ep;
  --game_ply_;
}

void Position::do_null_move(UndoInfo& u) {
  u.key = key_;
  u.checkers = checkers_;
  u.rule50 = rule50_;
  u.castling = castling_;
  u.ep = ep_;
  u.captured = NO_PIECE;

  Key k = key_ ^ zobrist::side;
  if (ep_ != SQ_NONE) {
    k ^= zobrist::enpassant[file_of(ep_)];
    ep_ = SQ_NONE;
  }
  ++rule50_;
  ++game_ply_;
  side_ = ~side_;
  key_ = k;
  checkers_ = kCheckersUnknown;
}

void Position::undo_null_move(const UndoInfo& u) {
  side_ = ~side_;
  key_ = u.key;
  checkers_ = u.checkers;
  rule50_ = u.rule50;
  castling_ = u.castling;
  ep_ = u.ep;
  --game_ply_;
}

}  // namespace chess
