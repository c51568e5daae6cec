// Standard Algebraic Notation (SAN) reading and writing, and UCI move strings.
//
// parse_san() is on the PGN importer's hot path: it does not generate all legal moves. It
// finds the pieces of the named type that reach the destination (one table lookup), filters
// them by the disambiguation given, and tests only those candidates for legality. It
// allocates only to write an error message.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/position.h"
#include "chess/types.h"

namespace chess {

/// Why parse_san() failed. ok() after success.
struct SanError {
  enum Code : uint8_t {
    NONE = 0,
    SYNTAX,        ///< the token is not SAN (e.g. "Nz9", "e9", "Kx", a stray byte)
    NO_SUCH_MOVE,  ///< readable, but no piece of that kind can move there (or nothing to take)
    ILLEGAL,       ///< a piece can move there, but the move leaves the own king in check;
                   ///< or castling without the right / through attacked or occupied squares
    AMBIGUOUS,     ///< two or more pieces can legally make the move; message names them
  };
  Code code = NONE;
  std::string message;  ///< e.g. "'Nd2' is ambiguous: knights on b1 and f3 can move to d2"

  bool ok() const { return code == NONE; }
};

/// Parses one SAN move `token` in position `pos`. Returns the legal move, or Move::none()
/// with `*err` (if not null) describing the failure; `*err` is reset on success.
///
/// Accepted: piece moves with optional file, rank or square disambiguation (superfluous
/// disambiguation allowed), captures with 'x', ':' or nothing, a '-' between origin and
/// destination ("Ng1-f3", "e2-e4"), and long algebraic without a piece letter ("g1-f3",
/// "g1f3": the piece on the origin square moves); pawn moves "e4", "exd5", "ed5", en passant
/// "exd6" with an optional "e.p." or "ep" suffix (with or without a space before it); an
/// optional leading 'P'; promotions "e8=Q", "e8Q", "e8/Q" with
/// the piece letter in either case; castling "O-O", "O-O-O", "0-0", "0-0-0", "o-o"; in
/// standard chess also the king's two-square move ("Kg1"); "Kxh1"-style king-takes-own-rook
/// castling; any trailing mix of '+', '#', '!' and '?' (ignored, not checked). The null move
/// "--", "Z0" or "null" gives Move::null() in any position.
/// Never reads outside `token`; any bytes give either a move or an error.
Move parse_san(const Position& pos, std::string_view token, SanError* err = nullptr);

/// Appends the SAN of the legal move `m` in `pos` to `out`: piece letter, minimal
/// disambiguation (file, else rank, else square; pinned pieces do not count), 'x' for
/// captures, "=Q" promotions, "O-O"/"O-O-O", then '+' or '#'. Move::null() is written "--".
void append_san(const Position& pos, Move m, std::string& out);

/// The SAN of the legal move `m` in `pos` (see append_san()).
std::string to_san(const Position& pos, Move m);

/// The UCI string of `m` in `pos`: "e2e4", "e7e8q". Castling is "e1g1" in standard chess
/// and king-takes-rook ("e1h1") in Chess960 (the UCI_Chess960 convention). Move::null()
/// and Move::none() are "0000".
std::string to_uci(Move m, const Position& pos);

/// Parses a UCI move string ("e2e4", "e7e8q", "e1g1" or "e1h1" for castling, "0000" for
/// the null move) in `pos`. Returns Move::none() unless it names a legal move (or "0000").
/// Not for hot loops: it generates all legal moves.
Move parse_uci(const Position& pos, std::string_view uci);

}  // namespace chess
