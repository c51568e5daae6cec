// A chess position: board, side to move, castling rights, en-passant square, clocks and
// Zobrist key, with make/unmake of moves through a caller-owned undo record.
//
// Standard chess and Chess960 are handled by the same class. A castling move is encoded
// "king takes own rook" (see Move in types.h); the king always ends on the c- or g-file and
// the rook on the d- or f-file of its first rank.
//
// En-passant policy: ep_square() is set only when the side to move has a pawn that attacks
// it (an en-passant capture is pseudo-legal; it may still be illegal because of a pin).
// This holds after do_move() and after set_fen(): a FEN en-passant field naming a square on
// the right rank that no pawn can capture on, or that cannot follow a double push (no enemy
// pawn in front of it, or the square or the one behind it occupied), is dropped without
// error. So fen() writes the en-passant square only when a capture is possible, and key()
// does not depend on an uncapturable ep square.
#pragma once

#include <string>
#include <string_view>

#include "chess/bitboard.h"
#include "chess/types.h"
#include "chess/zobrist.h"

namespace chess {

/// Result of Position::set_fen(). ok() on success; otherwise `code` says which part of the
/// FEN is wrong and `message` says where and what was expected, e.g.
/// "FEN board, character 9 'X': expected a piece letter (PNBRQK/pnbrqk), a digit 1-8 or '/'".
struct FenError {
  enum Code : uint8_t {
    NONE = 0,
    BOARD,       ///< field 1: piece placement unreadable
    SIDE,        ///< field 2: side to move missing or not 'w'/'b'
    CASTLING,    ///< field 3: unreadable, or names a king/rook that is not there
    EN_PASSANT,  ///< field 4: not '-' or a square, or not on the rank the side to move needs
    HALFMOVE,    ///< field 5: half-move clock not a non-negative integer
    FULLMOVE,    ///< field 6: full-move number not a non-negative integer
    EXTRA,       ///< text after field 6
    ILLEGAL,     ///< readable, but not a legal position (kings, pawns, counts, check)
  };
  Code code = NONE;
  std::string message;  ///< empty when ok()

  bool ok() const { return code == NONE; }
};

/// State saved by Position::do_move() and consumed by undo_move(). Filled entirely by
/// do_move(); the caller only owns the storage (typically one per ply, on the stack).
struct UndoInfo {
  Key key;            ///< key before the move
  Bitboard checkers;  ///< checkers before the move
  uint16_t rule50;    ///< half-move clock before the move
  uint8_t castling;   ///< CastlingRight set before the move
  Square ep;          ///< en-passant square before the move
  Piece captured;     ///< piece the move captured (NO_PIECE if none; the pawn for en passant)
};

/// The castling right of colour `c` on the king side (h-file side) or queen side.
constexpr CastlingRight castling_right(Color c, bool king_side) {
  return CastlingRight((king_side ? WHITE_OO : WHITE_OOO) << (2 * c));
}

/// A chess position (standard or Chess960). Cheap to copy (about 300 bytes), but hot loops
/// should use do_move()/undo_move() instead of copies.
class Position {
 public:
  /// The standard start position.
  Position();

  // ---- Setting up --------------------------------------------------------------------

  /// Sets the position from a FEN (or X-FEN / Shredder-FEN) string. Fields: board, side,
  /// castling, en passant, half-move clock, full-move number; the last three may be missing
  /// (default '-', 0 and 1: a FEN as lichess and python-chess accept it, issue 40). Fields are separated by spaces or tabs; leading/trailing blanks are
  /// ignored. Castling letters: KQkq (X-FEN: the outermost rook on that side of the king) or
  /// file letters A-H/a-h (Shredder-FEN). Chess960 is assumed when `chess960` is true or when
  /// a castling right names a king not on the e-file or a rook not on the a/h-file.
  /// Validates: one king per side, no pawn on rank 1 or 8, at most 16 pieces and 8 pawns per
  /// side with promotions accounted for, side not to move not in check, the en-passant square
  /// on the rank a double push of the side not to move would leave behind (an impossible
  /// or uncapturable en-passant square is dropped: see the header comment). A full-move
  /// number of 0 is read as 1.
  /// On error returns the error and leaves the position in the start position.
  FenError set_fen(std::string_view fen, bool chess960 = false);

  /// Sets the standard start position (not Chess960).
  void set_start();

  /// The position as FEN. Castling is written KQkq when the castling rook is the outermost
  /// rook on its side of the king, otherwise with the rook's file letter (Shredder style,
  /// upper case for White). The en-passant square follows the policy in the header comment.
  std::string fen() const;

  // ---- Board queries -----------------------------------------------------------------

  /// The piece on square `s` (0..63), NO_PIECE if empty.
  Piece piece_on(Square s) const {
    assert(is_ok(s));
    return board_[s];
  }
  /// True if square `s` (0..63) is empty.
  bool empty(Square s) const {
    assert(is_ok(s));
    return board_[s] == NO_PIECE;
  }
  /// All occupied squares.
  Bitboard pieces() const { return by_type_[NO_PIECE_TYPE]; }
  /// Squares of the pieces of colour `c`.
  Bitboard pieces(Color c) const { return by_color_[c]; }
  /// Squares of the pieces of type `pt`, both colours.
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  /// Squares of the pieces of type `a` or `b`, both colours.
  Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
  /// Squares of the pieces of colour `c` and type `pt`.
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  /// Squares of the pieces of colour `c` and type `a` or `b`.
  Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  /// Number of pieces of colour `c` and type `pt`.
  int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }
  /// Square of the king of colour `c` (every valid position has exactly one).
  Square king_square(Color c) const { return lsb(pieces(c, KING)); }

  /// The side to move.
  Color side_to_move() const { return side_; }
  /// The set of castling rights still held (CastlingRight bits).
  uint8_t castling_rights() const { return castling_; }
  /// True if the single right `cr` is held.
  bool can_castle(CastlingRight cr) const { return (castling_ & cr) != 0; }
  /// The rook square of the single castling right `cr` (SQ_NONE when the right is not held).
  Square castling_rook_square(CastlingRight cr) const {
    return can_castle(cr) ? castling_rook_[right_index(cr)] : SQ_NONE;
  }
  /// En-passant target square (the square a capturing pawn moves to), or SQ_NONE. Set only
  /// when a pawn of the side to move attacks it (see the header comment).
  Square ep_square() const { return ep_; }
  /// Half-move clock: plies since the last capture or pawn move.
  int rule50_count() const { return rule50_; }
  /// FEN full-move number: 1 at the start, +1 after each Black move.
  int fullmove_number() const { return 1 + game_ply_ / 2; }
  /// Plies since the (possibly imaginary) game start implied by the FEN full-move number:
  /// 2 * (fullmove - 1) + (1 if Black to move).
  int game_ply() const { return game_ply_; }
  /// True if castling follows Chess960 rules and notation (set by set_fen(): forced or
  /// detected from the castling field).
  bool is_chess960() const { return chess960_; }
  /// Zobrist key of board, side to move, castling rights and en-passant square.
  Key key() const { return key_; }

  /// Pieces of the opponent giving check to the side to move's king. Computed on the first
  /// call after a move and kept until the next one (replays that never ask skip the work),
  /// so a Position shared between threads must not have moves played on it.
  Bitboard checkers() const {
    if (checkers_ == kCheckersUnknown) checkers_ = attackers_of(~side_, king_square(side_), pieces());
    return checkers_;
  }
  /// True if the side to move is in check.
  bool in_check() const { return checkers() != 0; }
  /// Pieces of both colours attacking `s`, with sliders seeing through everything not in
  /// `occupied`.
  Bitboard attackers_to(Square s, Bitboard occupied) const;
  /// Pieces of both colours attacking `s` on the current board.
  Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
  /// Pieces of colour `c` attacking `s` (attackers_to(s, occupied) & pieces(c)); a slider
  /// attack is looked up only when a slider of `c` stands on a line through `s`.
  Bitboard attackers_of(Color c, Square s, Bitboard occupied) const;
  /// Pieces of colour `c` that are the only piece between their own king and an enemy
  /// slider (absolutely pinned pieces). Computed on each call.
  Bitboard pinned(Color c) const;

  /// The piece a move moves (the king for castling).
  Piece moved_piece(Move m) const { return board_[m.from_sq()]; }
  /// True if `m` captures (castling never does; en passant does).
  bool is_capture(Move m) const {
    return m.kind() == Move::EN_PASSANT ||
           (m.kind() != Move::CASTLING && board_[m.to_sq()] != NO_PIECE);
  }
  /// Destination of the king when castling with right `cr`: c1/g1/c8/g8.
  static Square castling_king_to(CastlingRight cr) {
    return Square((cr & (WHITE_OO | BLACK_OO) ? SQ_G1 : SQ_C1) ^ (cr >= BLACK_OO ? 56 : 0));
  }
  /// Destination of the rook when castling with right `cr`: d1/f1/d8/f8.
  static Square castling_rook_to(CastlingRight cr) {
    return Square((cr & (WHITE_OO | BLACK_OO) ? SQ_F1 : SQ_D1) ^ (cr >= BLACK_OO ? 56 : 0));
  }

  // ---- Moves -------------------------------------------------------------------------

  /// True if the pseudo-legal move `m` (a move the piece on its origin can make by the
  /// movement rules, ignoring king safety) does not leave the mover's king attacked.
  /// Castling moves are checked completely (right held, path empty, king not in check and
  /// not passing through or onto an attacked square), so any castling-kind move may be asked.
  bool is_legal(Move m) const;

  /// True if `m` can be played by do_move() without breaking the board's invariants: a
  /// piece of the side to move on the origin; a destination holding neither one of our own
  /// pieces (castling excepted: it names our rook) nor a king; castling with a held right,
  /// its rook and an empty path; en passant onto the en-passant square by a pawn; a
  /// promotion exactly when a pawn reaches its last rank. Unlike is_legal() it does not ask
  /// whether the mover's king is left attacked. Replay of stored games uses it: their moves
  /// were proven legal at import, and this check is what keeps a damaged record from
  /// corrupting the board (both kings always stay on it). Any 16-bit value may be asked.
  bool is_well_formed(Move m) const {
    if (m.kind() != Move::NORMAL) return is_well_formed_special(m);
    // The replay's hot path, in bitboards (from == to fails: `to` holds our piece).
    const Bitboard ours = pieces(side_), from_bb = square_bb(m.from_sq());
    const Bitboard last_ranks = (pieces(side_, PAWN) & from_bb) ? RANK_1_BB | RANK_8_BB : 0;
    return (ours & from_bb) && !((ours | pieces(KING) | last_ranks) & square_bb(m.to_sq()));
  }

  /// Plays the legal move `m`, saving what undo_move() needs into `u`.
  void do_move(Move m, UndoInfo& u);
  /// Takes back `m`, which must be the last move played, with the `u` do_move() filled.
  void undo_move(Move m, const UndoInfo& u);
  /// Passes the turn (Move::null()): clears the en-passant square, bumps the clocks. Allowed
  /// in check, as PGN null moves sometimes are; the side that passed then stays in check.
  void do_null_move(UndoInfo& u);
  /// Takes back the null move that filled `u`.
  void undo_null_move(const UndoInfo& u);

  /// Recomputes the key from scratch (for tests; key() is maintained incrementally).
  Key compute_key() const;

 private:
  struct Uninitialized {};
  /// Leaves every member unset; the caller must set_fen() before any other use.
  explicit Position(Uninitialized) { init(); }

  bool is_well_formed_special(Move m) const;  // is_well_formed() of castling, en passant, promotion
  static int right_index(CastlingRight cr) { return std::countr_zero(unsigned(cr)); }

  void clear();
  void put_piece(Piece pc, Square s) {
    const Bitboard b = square_bb(s);
    board_[s] = pc;
    by_type_[NO_PIECE_TYPE] |= b;
    by_type_[type_of(pc)] |= b;
    by_color_[color_of(pc)] |= b;
  }
  void remove_piece(Square s) {
    const Piece pc = board_[s];
    const Bitboard b = square_bb(s);
    board_[s] = NO_PIECE;
    by_type_[NO_PIECE_TYPE] ^= b;
    by_type_[type_of(pc)] ^= b;
    by_color_[color_of(pc)] ^= b;
  }
  void move_piece(Square from, Square to) {
    const Piece pc = board_[from];
    const Bitboard b = square_bb(from) | square_bb(to);
    board_[from] = NO_PIECE;
    board_[to] = pc;
    by_type_[NO_PIECE_TYPE] ^= b;
    by_type_[type_of(pc)] ^= b;
    by_color_[color_of(pc)] ^= b;
  }
  /// Registers castling right `cr` with its rook on `rook`; the king must be in place.
  void add_castling_right(CastlingRight cr, Square rook);
  /// Recomputes checkers_ and key_ after the board has been set up.
  void finish_setup();

  // Parsing helpers (position_fen.cpp).
  FenError parse_board(std::string_view field);
  FenError parse_castling(std::string_view field);
  FenError parse_en_passant(std::string_view field);
  FenError validate() const;

  Piece board_[SQUARE_NB];            ///< piece on each square, NO_PIECE if empty
  Bitboard by_type_[PIECE_TYPE_NB];   ///< squares of each piece type; [0] = all pieces
  Bitboard by_color_[COLOR_NB];       ///< squares of each colour
  /// checkers_ before checkers() has computed it (no position has every square checking).
  static constexpr Bitboard kCheckersUnknown = ~Bitboard(0);
  mutable Bitboard checkers_;         ///< enemy pieces checking the side to move, or unknown
  Key key_;                           ///< Zobrist key, maintained incrementally
  Square castling_rook_[4];           ///< rook square of each right, by right_index()
  Bitboard castling_path_[4];         ///< squares that must be empty to castle, by right
  Bitboard king_path_[4];             ///< squares the king crosses or lands on, by right
  uint8_t castling_mask_[SQUARE_NB];  ///< rights lost when a move leaves or enters the square
  uint8_t castling_;                  ///< CastlingRight set currently held
  Square ep_;                         ///< en-passant square or SQ_NONE (see header comment)
  Color side_;                        ///< side to move
  bool chess960_;                     ///< castling follows Chess960 notation rules
  uint16_t rule50_;                   ///< half-move clock
  int game_ply_;                      ///< see game_ply()
};

}  // namespace chess
