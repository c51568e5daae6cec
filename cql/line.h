// Move lines of :line and :line* (seed 000 "Zugfolge", CQL-Position-List :line).
//
// A line is `( move move ... [| move ...] )` or, as on the older English page, a string
// "move move ... [*]". Move notation (one word each):
//   [N. | N...] body suffixes
//   body := from [sep [to]]      sep: '-' to an empty square, 'x' capture, ':' either
//         | sep to               (`xm`: any piece captures a black major piece)
//         | [piece] '@' [square] drop (drop variants)
//         | O-O | O-O-O | O-O-O-O | K-K | K-Q | K-KQ | k-k | k-q | k-kq   castling
//         | --                   any move | null   the null move
//   from/to are piece designators whose piece part may be omitted (`e2-e4`, `Nxe5`).
//   suffixes := ['=' piece] [check] ['!']   check: + ++ +++ # - -- --- * and `+*`
// `ep` / `e.p.` after a move marks it as en passant; `|` starts the potential continuation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/designator.h"
#include "cql/source_location.h"

namespace cql {

/// Check annotations of a line move, as a bit set.
enum CheckMark : uint8_t {
  kMarkCheck = 1,            ///< +
  kMarkDoubleCheck = 2,      ///< ++
  kMarkContactCheck = 4,     ///< +++
  kMarkMate = 8,             ///< #
  kMarkNoCheck = 16,         ///< -
  kMarkNoDoubleCheck = 32,   ///< --
  kMarkNoContactCheck = 64,  ///< ---
  kMarkNoMate = 128,         ///< *
};

struct LineMove {
  enum class Kind : uint8_t { Normal, Drop, Castling, AnyMove, NullMove };
  /// How the destination was written: '-' (must be empty), 'x' (capture), ':' (either).
  enum class Target : uint8_t { Empty, Capture, Either };

  Kind kind = Kind::Normal;
  std::optional<int> move_number;  ///< `12.` or `12...`
  bool black_move_number = false;  ///< written as `N...`
  /// Moving piece (Normal, Drop). piece_part_written == false when omitted (`e2-e4`), then
  /// pieces = U (any piece); squares all when omitted (`Ne5`).
  PieceDesignator from;
  bool from_written = false;  ///< anything was written before the separator
  Target target = Target::Empty;
  /// Destination (Normal, Drop); pieces default to '.' for '-', U for 'x', ? for ':'.
  PieceDesignator to;
  std::optional<PieceDesignator> promotion;  ///< `=Q`
  uint8_t castling = 0;                      ///< chess::CastlingRight bits allowed (Castling)
  bool en_passant = false;                   ///< followed by `ep` / `e.p.`
  uint8_t checks = 0;                        ///< CheckMark bits
  bool forced = false;                       ///< trailing '!': the only legal move
  SourceLoc loc;
  std::string text;  ///< as written
};

struct LineArgs {
  std::vector<LineMove> moves;
  /// Index of the first move after '|' (the potential continuation), if any.
  std::optional<size_t> potential_from;
  bool transposition = false;  ///< :line* or a trailing `*` in the string form
  bool quoted = false;         ///< written as a string
  bool numbered = false;       ///< move numbers are used
  /// Written in standard algebraic notation (parse_san_move): piece letters are relative to
  /// the side making the move, as in numbered lines.
  bool san = false;
};

/// Thrown by parse_line_move: byte offset into the word and a message.
struct LineMoveError {
  size_t offset = 0;
  std::string message;
  std::string expected;
};

/// Parses one move word (without `ep`). Throws LineMoveError or DesignatorError.
LineMove parse_line_move(std::string_view word);

/// Parses one move word in standard algebraic notation as players write it (SPEC-NOTES
/// "Move lines"): `[N.|N...]` then `e4`, `dxc4`, `exd8=Q`, `Nf3`, `Nbd7`, `R1xe2`, `Qh4xe1`,
/// `O-O`, `O-O-O`, followed by the seed's suffixes (`+ # !` ...). Piece letters are the
/// mover's whatever their case (`Nc6` is Black's knight when Black moves), a pawn move
/// names no piece, a move without `x` goes to an empty square, a pawn capture also matches
/// en passant. Returns nullopt when `word` is not such a move.
std::optional<LineMove> parse_san_move(std::string_view word);

/// Canonical spelling of a move.
std::string to_string(const LineMove& m);

}  // namespace cql
