// :line and :line* (seed 000 "Zugfolge" / "Transpositionsinvariante Zugfolge",
// CQL-Position-List :line, :line*): move lines compiled to per-move tests over the moves of
// the line being searched.
//
// :line (m1 .. mk | mk+1 .. mn) matches at the position where m1 is played: the line being
// searched (main line or a variation's line) continues with k moves matching m1 .. mk, and
// from the position they reach some sequence of legal moves matches mk+1 .. mn (the potential
// continuation; what the game actually played there does not matter).
// :line* (m1 .. mn) matches at ply n (counted from the game start) when that position equals
// the one m1 .. mn reach when played from the game's start position (board, side to move and
// castling rights; en-passant rights are ignored): the game reached it by a transposition.
//
// Nodes (Op::kLine) call match_line() per position; the cheap test of the first move against
// PosCtx::next comes first, so a scratch copy of the board is made only when it matched.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/types.h"
#include "cql/line.h"
#include "eval/piece_mask.h"

namespace eval {

struct PosCtx;
class Transform;

/// One compiled move of a line. Piece masks use the cql/pieces.h layout; squares are
/// bitboards (bit s = square s, a1 = 0), already transformed.
struct LineMoveSpec {
  enum class Kind : uint8_t {
    kNormal,    ///< from [-x:] to
    kCastling,  ///< O-O, K-Q ...: `castling` holds the allowed rights
    kAnyMove,   ///< `--`: any move but a null move
    kNullMove,  ///< `null`
    kNever,     ///< a drop (`N@f3`) or a designator that left the board: never matches
  };
  Kind kind = Kind::kNormal;
  PieceMask from = 0;               ///< kinds of the moving piece
  PieceMask from_promoted = 0;      ///< of them, kinds that must be promoted pieces (`~`)
  PieceMask from_not_promoted = 0;  ///< kinds that must not be promoted pieces (`~~`)
  chess::Bitboard from_squares = ~chess::Bitboard(0);
  /// Content of the landing square before the move (castling: the king's c/g square; en
  /// passant: the empty square). '-' = kEmpty; 'x' = the written pieces; ':' = written | kEmpty.
  PieceMask to = 0;
  PieceMask to_promoted = 0;      ///< kinds on the destination that must be promoted pieces
  PieceMask to_not_promoted = 0;  ///< kinds there that must not be promoted pieces
  chess::Bitboard to_squares = ~chess::Bitboard(0);
  bool en_passant = false;  ///< `ep`: the move is an en-passant capture (`to` is not used)
  PieceMask promotion = 0;  ///< non-zero: the move promotes to one of these kinds (`=Q`)
  uint8_t castling = 0;     ///< kCastling: chess::CastlingRight bits allowed
  uint8_t checks = 0;       ///< cql::CheckMark bits that must hold after the move
  bool forced = false;      ///< `!`: the only legal move of its position
};

/// A compiled :line or :line*.
struct LineSpec {
  std::vector<LineMoveSpec> moves;  ///< in order
  size_t played = 0;      ///< moves that must be played in the line (those before `|`)
  bool transposition = false;  ///< :line* (or a string ending in `*`)
  /// Piece colours are relative to the side making the move (lines with move numbers, and
  /// :line*, seed 000: "die Figurenfarben ergeben sich aus der Position in der Notation"):
  /// the masks are stored as if White moved, and swapped for a Black move.
  bool relative_colors = false;
  int first_fullmove = 0;  ///< > 0: the first move is move `first_fullmove` (FEN number)
  chess::Color first_side = chess::WHITE;  ///< with first_fullmove: who makes the first move

  /// Text that is equal for equal specs (transformed position lists are deduplicated by it).
  std::string canonical() const;
};

/// Compiles the parsed line `args` with every designator transformed by `t`. Throws
/// eval::CompileError at `loc` (the keyword) for a transformation with :line*, the colour
/// flip with move numbers, `!` or `ep` in :line*, and tagged designators.
std::shared_ptr<const LineSpec> compile_line(const cql::LineArgs& args, const Transform& t,
                                             const cql::SourceLoc& loc);

/// True if `spec` matches at the position `c` (see the header comment). Needs
/// PosCtx::line_moves (and PosCtx::start for :line*); without them it never matches.
bool match_line(const LineSpec& spec, const PosCtx& c);

}  // namespace eval
