// RecordBuilder: encodes one game's moves and annotations as a game record
// (layout in record_format.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "chess/types.h"
#include "db/record_format.h"

namespace db {

/// Builds game records, one game at a time, reusing its buffers: after the first few games
/// it does not allocate. Feed it the movetext in PGN order:
///
///   builder.reset();
///   builder.set_start_fen(fen, chess960);    // only for a non-standard start
///   builder.add_comment("before move 1");    // stored as kCommentBefore
///   builder.add_move(e2e4);                  // depth 0: main line
///   builder.add_nag(1);
///   builder.begin_variation();               // alternative to e2e4
///   builder.add_move(d2d4);                  // depth 1
///   builder.end_variation();
///   builder.add_move(e7e5);
///   std::string_view record = builder.finish();
///
/// Misuse (a marker value as move, begin_variation() before any move of the current line,
/// end_variation() on the main line, set_start_fen() after a move, finish() with an open
/// variation) throws std::invalid_argument; the importer treats it like a malformed game.
class RecordBuilder {
 public:
  /// Starts a new game: standard start, no moves, no annotations.
  void reset();
  /// Sets the start position. `fen` empty means the standard start (then only the Chess960
  /// flag is recorded). Must precede the first move.
  void set_start_fen(std::string_view fen, bool chess960);
  /// Appends a move to the current line (main line at depth 0). `move` must satisfy
  /// is_move_word(): from != to, or Move::null().
  void add_move(chess::Move move);
  /// Appends a NAG ($0-$255) to the current line.
  void add_nag(uint8_t nag);
  /// Appends a comment (bytes as given; the importer supplies UTF-8). Before the first move
  /// of the game or of a variation it is stored as kCommentBefore, otherwise as kComment.
  void add_comment(std::string_view text);
  /// Opens a variation: an alternative to the last move of the current line.
  void begin_variation();
  /// Closes the innermost variation.
  void end_variation();
  /// Encodes the game. The view aliases an internal buffer, valid until the next call of
  /// finish() or reset() or the builder's destruction.
  std::string_view finish();

  /// Current nesting depth (0 = main line).
  uint32_t depth() const { return depth_; }
  /// Main-line moves added so far.
  uint32_t main_line_size() const { return main_moves_; }

 private:
  /// Switches to recording a token stream (first annotation or variation): the stream so
  /// far is exactly the main line.
  void start_tokens();

  std::string main_;            // main-line move words, little-endian
  std::string tokens_;          // token stream; meaningful only when tokens_active_
  std::string fen_;             // start FEN, empty = standard
  std::string out_;             // the record returned by finish()
  uint32_t main_moves_ = 0;     // moves in main_
  uint32_t depth_ = 0;          // current nesting depth
  bool line_has_move_ = false;  // the current line already has a move
  bool tokens_active_ = false;  // a token stream is being recorded
  bool chess960_ = false;       // Chess960 flag
  bool has_variations_ = false;
  bool has_comments_ = false;  // comments or NAGs
};

}  // namespace db
