// SignatureBuilder: computes a game's Signature (signature.h) while its main line is played,
// either by the importer's GameBuilder (which plays the moves anyway) or by replaying a
// stored record (compute_signature).
#pragma once

#include <array>
#include <cstdint>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "chess/types.h"
#include "db/record_view.h"
#include "index/material_key.h"
#include "index/signature.h"

namespace sig {

/// Accumulates the signature of one main line, one move at a time:
///
///   builder.begin(pos, has_start_fen, chess960); // pos = ply 0
///   for each main-line move m:
///     pos.do_move(m, undo);                      // or do_null_move(undo) for Move::null()
///     builder.add_move(pos, m, undo);
///   builder.finish(pos, has_variations);         // pos = the final position
///   encode(builder.signature(), bytes);
///
/// Cost per move: a few bitboard operations on the (at most three) piece kinds the move
/// touches; finish() runs one legal-move check on the final position. Reusable: begin()
/// starts over without allocating once the timeline has grown.
class SignatureBuilder {
 public:
  /// Starts a main line at `start` (ply 0). `start_fen`: the game starts from a FEN (the
  /// record's kHasStartFen flag), even if that FEN is the standard position; `chess960`:
  /// the game is Chess960 (the record's kChess960 flag; a Chess960 game from the standard
  /// start is played on a Position that does not know it).
  void begin(const chess::Position& start, bool start_fen, bool chess960);
  /// Records main-line move `m` (or Move::null()), just played: `after` is the position
  /// after it and `undo` what do_move()/do_null_move() filled.
  void add_move(const chess::Position& after, chess::Move m, const chess::UndoInfo& undo);
  /// Completes the signature at the final position `final_pos` (the position after the last
  /// add_move(), or ply 0 when there was none). `has_variations`: the record has variations.
  void finish(const chess::Position& final_pos, bool has_variations);

  /// The signature: complete after finish(), valid until the next begin().
  const Signature& signature() const { return sig_; }

 private:
  /// Updates ever/always of piece `pc` from the board after a move.
  void touch(const chess::Position& after, chess::Piece pc) {
    const chess::Bitboard now = after.pieces(chess::color_of(pc), chess::type_of(pc));
    sig_.ever[pc] |= now;
    sig_.always[pc] &= now;
  }
  /// Records that the side to move at `pos` (the position with ply ply_) is in check, and
  /// whether by two pieces.
  void count_check(const chess::Position& pos) {
    const chess::Color c = pos.side_to_move();
    if (sig_.checks[c] < kMaxChecks) ++sig_.checks[c];
    if (chess::more_than_one(pos.checkers())) sig_.double_checks |= uint8_t(1u << c);
  }

  Signature sig_;                                             // the signature being built
  MaterialKey material_;                                      // material of the current position
  std::array<chess::Bitboard, chess::COLOR_NB> home_left_{};  // home pawns not yet gone
  uint32_t ply_ = 0;                                          // ply of the current position
};

/// Replays the main line of `record` into `builder` (begin .. finish); the result is
/// builder.signature(). Throws db::CorruptRecord when the stored start FEN is invalid or a
/// stored move is impossible on its board.
void compute_signature(const db::RecordView& record, SignatureBuilder& builder);

}  // namespace sig
