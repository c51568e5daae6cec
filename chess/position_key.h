// Position identity (SPEC "Position identity"): the key that `:fen`, `cqldb query --fen`,
// the position index (index/position_index.h) and the opening tree compare.
//
// Two positions are the same when piece placement, side to move and castling rights agree,
// and their en-passant squares agree *counting only a square on which a legal en-passant
// capture exists* (FIDE Laws 9.2.3). Position::key() already drops an en-passant square no
// pawn attacks; identity_key() also drops one whose every capture is illegal (the capturing
// pawn pinned, or the capture exposing its king along the rank). Move clocks never count.
#pragma once

#include "chess/position.h"
#include "chess/zobrist.h"

namespace chess {

/// True if the side to move has a legal en-passant capture on pos.ep_square().
bool has_legal_en_passant(const Position& pos);

/// The identity key of `pos`: pos.key() without the en-passant part when no legal
/// en-passant capture exists. Equal for transpositions (same position reached by other
/// move orders); fixed across runs and platforms (zobrist.h), so it may be stored.
inline Key identity_key(const Position& pos) {
  if (pos.ep_square() == SQ_NONE || has_legal_en_passant(pos)) return pos.key();
  return pos.key() ^ zobrist::enpassant[file_of(pos.ep_square())];
}

/// Summary of a position from which Frontier::may_reach() decides whether another position
/// can still occur later in the same line: what no later move can bring back. Used by the
/// position index (GameFacts, index/position_index.h) and by replay, which stops a game once
/// no `:fen` target of a plain query can occur any more (eval/game_matcher.cpp).
struct Frontier {
  uint8_t castling = 0;      ///< CastlingRight bits held
  uint8_t white_home = 0;    ///< bit f: a white pawn on file f of rank 2
  uint8_t black_home = 0;    ///< bit f: a black pawn on file f of rank 7
  uint8_t white_men = 0;     ///< white pieces and pawns on the board (1..16)
  uint8_t black_men = 0;     ///< black pieces and pawns
  uint8_t white_pawns = 0;   ///< 0..8
  uint8_t black_pawns = 0;

  static Frontier of(const Position& pos);
  /// True unless `target` provably cannot occur after a position with this summary: pawns
  /// never return to their home rank, men are never added (promotion replaces a pawn),
  /// pawns never increase, castling rights never come back.
  bool may_reach(const Frontier& target) const {
    return (target.castling & ~castling) == 0 && (target.white_home & ~white_home) == 0 &&
           (target.black_home & ~black_home) == 0 && target.white_men <= white_men &&
           target.black_men <= black_men && target.white_pawns <= white_pawns &&
           target.black_pawns <= black_pawns;
  }
};

}  // namespace chess
