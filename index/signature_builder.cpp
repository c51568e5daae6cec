#include "index/signature_builder.h"

#include <bit>
#include <cstdint>

#include "chess/movegen.h"
#include "db/errors.h"
#include "db/stored_move.h"

namespace sig {

namespace {

/// Marks a home pawn that has not left yet (replaced by plies + 1 in finish()).
constexpr uint32_t kStillHome = UINT32_MAX;

/// The home rank of side `c`'s pawns.
chess::Bitboard home_rank(chess::Color c) {
  return chess::rank_bb(chess::relative_rank(c, chess::RANK_2));
}


/// True if `m` is a move the piece on its origin can make by the movement rules (the
/// precondition of Position::is_legal and do_move). Stored records were legal when
/// imported; this guards a replay against damaged bytes without generating all moves.
bool pseudo_legal(const chess::Position& pos, chess::Move m) {
  using namespace chess;
  const Color us = pos.side_to_move();
  const Square from = m.from_sq(), to = m.to_sq();
  const Piece pc = pos.piece_on(from);
  if (pc == NO_PIECE || color_of(pc) != us) return false;
  if (m.kind() == Move::CASTLING) return type_of(pc) == KING;  // is_legal checks the rest
  const Piece target = pos.piece_on(to);
  if (target != NO_PIECE && (color_of(target) == us || type_of(target) == KING)) return false;
  if (type_of(pc) != PAWN)
    return m.kind() == Move::NORMAL &&
           (attacks_bb(type_of(pc), from, pos.pieces()) & square_bb(to));
  if (m.kind() == Move::EN_PASSANT)
    return to == pos.ep_square() && (pawn_attacks_bb(us, from) & square_bb(to));
  const bool last_rank = relative_rank(us, rank_of(to)) == RANK_8;
  if (last_rank != (m.kind() == Move::PROMOTION)) return false;
  if (pawn_attacks_bb(us, from) & square_bb(to)) return target != NO_PIECE;
  if (target != NO_PIECE) return false;
  if (to == square_offset(from, pawn_push(us))) return true;
  return relative_rank(us, rank_of(from)) == RANK_2 &&
         to == square_offset(from, 2 * pawn_push(us)) &&
         pos.empty(square_offset(from, pawn_push(us)));
}

}  // namespace

void SignatureBuilder::begin(const chess::Position& start, bool start_fen, bool chess960) {
  sig_.clear();
  sig_.start_fen = start_fen;
  sig_.chess960 = chess960;
  sig_.start_side = start.side_to_move();
  sig_.start_game_ply = uint32_t(start.game_ply());
  for (chess::Color c : {chess::WHITE, chess::BLACK}) {
    for (int pt = chess::PAWN; pt <= chess::KING; ++pt) {
      const chess::Piece pc = chess::make_piece(c, chess::PieceType(pt));
      const chess::Bitboard b = start.pieces(c, chess::PieceType(pt));
      sig_.start[pc] = sig_.ever[pc] = sig_.always[pc] = b;
    }
    home_left_[c] = start.pieces(c, chess::PAWN) & home_rank(c);
    for (chess::Bitboard b = home_left_[c]; b;)
      sig_.home_pawn_until[c][chess::file_of(chess::pop_lsb(b))] = kStillHome;
  }
  material_ = MaterialKey::of(start);
  sig_.material.push_back({material_, 0, 0});
  ply_ = 0;
  if (start.in_check()) count_check(start);
}

void SignatureBuilder::add_move(const chess::Position& after, chess::Move m,
                                const chess::UndoInfo& undo) {
  ++ply_;
  const chess::Color mover = ~after.side_to_move();
  if (m == chess::Move::null()) {
    sig_.null_moves = true;
  } else {
    const MaterialKey before = material_;
    bool pawn_touched = false;
    switch (m.kind()) {
      case chess::Move::CASTLING:
        touch(after, chess::make_piece(mover, chess::KING));
        touch(after, chess::make_piece(mover, chess::ROOK));
      {
        const chess::CastlingRight right = chess::castling_right(mover, m.to_sq() > m.from_sq());
        sig_.castlings |= right;
        sig_.castling_plies[std::countr_zero(unsigned(right))] = ply_ - 1;  // played from ply_ - 1
        break;
      }
      case chess::Move::PROMOTION:
        touch(after, chess::make_piece(mover, chess::PAWN));
        touch(after, chess::make_piece(mover, m.promotion_type()));
        material_.remove(mover, chess::PAWN);
        material_.add(mover, m.promotion_type());
        sig_.promotions |= uint8_t(1u << (4 * mover + m.promotion_type() - chess::KNIGHT));
        pawn_touched = true;
        break;
      case chess::Move::EN_PASSANT:
        sig_.en_passant = true;
        touch(after, chess::make_piece(mover, chess::PAWN));
        pawn_touched = true;
        break;
      case chess::Move::NORMAL: {
        const chess::Piece moved = after.piece_on(m.to_sq());
        touch(after, moved);
        pawn_touched = chess::type_of(moved) == chess::PAWN;
        break;
      }
    }
    if (undo.captured != chess::NO_PIECE) {
      touch(after, undo.captured);
      material_.remove(chess::color_of(undo.captured), chess::type_of(undo.captured));
      pawn_touched |= chess::type_of(undo.captured) == chess::PAWN;
    }
    if (material_ != before) {
      sig_.material.back().last_ply = ply_ - 1;
      sig_.material.push_back({material_, ply_, ply_});
    }
    if (pawn_touched) {
      for (chess::Color c : {chess::WHITE, chess::BLACK}) {
        chess::Bitboard gone = home_left_[c] & ~after.pieces(c, chess::PAWN);
        home_left_[c] &= ~gone;
        while (gone) sig_.home_pawn_until[c][chess::file_of(chess::pop_lsb(gone))] = ply_;
      }
    }
  }
  if (after.in_check()) count_check(after);
}

void SignatureBuilder::finish(const chess::Position& final_pos, bool has_variations) {
  sig_.plies = ply_;
  sig_.material.back().last_ply = ply_;
  sig_.has_variations = has_variations;
  for (chess::Color c : {chess::WHITE, chess::BLACK}) {
    for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
      sig_.final[chess::make_piece(c, chess::PieceType(pt))] =
          final_pos.pieces(c, chess::PieceType(pt));
    for (uint32_t& until : sig_.home_pawn_until[c])
      if (until == kStillHome) until = ply_ + 1;
  }
  sig_.final_check = final_pos.in_check();
  sig_.final_no_moves = !chess::has_legal_move(final_pos);
}

void compute_signature(const db::RecordView& record, SignatureBuilder& builder) {
  db::MainLineReplay replay(record);  // the stored-move rule (db/stored_move.h)
  builder.begin(replay.position(), record.flags() & db::kHasStartFen, record.chess960());
  while (!replay.done()) {
    const chess::Move m = replay.next_move();
    // Signatures are facts of legal play (index/signature.h checks their consistency), so
    // beyond the stored-move rule that every replay applies, a signature is computed only
    // from moves that are legal on their board; anything else is a damaged record.
    if (m != chess::Move::null() && (!m.is_ok() || !pseudo_legal(replay.position(), m) ||
                                     !replay.position().is_legal(m)))
      throw db::CorruptRecord("stored move at ply " + std::to_string(replay.ply() + 1) +
                              " is illegal on its board");
    replay.advance();
    builder.add_move(replay.position(), m, replay.last_undo());
  }
  builder.finish(replay.position(), record.has_variations());
}

}  // namespace sig
