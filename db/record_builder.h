// RecordBuilder: encodes one game's moves and annotations as a move record and an
// annotation record (layout in record_format.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <vector>

#include "chess/types.h"
#include "db/annotation_codec.h"
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
///   if (builder.can_add_typed()) builder.add_typed_comment(clock_of_e7e5);
///   std::string_view record = builder.finish();
///   std::string_view notes = builder.annotations();  // empty: none

///
/// Misuse (a marker value as move, begin_variation() before any move of the current line,
/// end_variation() on the main line, set_start_fen() after a move, finish() with an open
/// variation) throws std::invalid_argument; the importer treats it like a malformed game.
class RecordBuilder {
 public:
  /// The longest main line a record holds (a packed main line's special entry keeps a ply
  /// gap in 28 bits); add_move() throws std::invalid_argument beyond it.
  static constexpr uint32_t kMaxMainLineMoves = 1u << 27;
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
  /// True when a typed comment (clock, evaluation) may follow now: on the main line right
  /// after a move (NAGs and comments in between are fine, a variation is not) and the ply
  /// has none yet.
  bool can_add_typed() const;
  /// Adds the typed comment of the last main-line move (`a.bits` != 0, `a.rest` copied).
  /// Requires can_add_typed(); throws std::invalid_argument otherwise.
  void add_typed_comment(const PlyAnnotation& a);
  /// Opens a variation: an alternative to the last move of the current line.
  void begin_variation();
  /// Closes the innermost variation.
  void end_variation();
  /// Encodes the game: returns the move record; annotations() then holds the annotation
  /// record. The views alias internal buffers, valid until the next call of finish() or
  /// reset() or the builder's destruction.
  std::string_view finish();
  /// The annotation record made by the last finish(); empty when the game has no comment,
  /// NAG or typed annotation (the move record then lacks kHasAnnotations).
  std::string_view annotations() const { return notes_out_; }

  /// Current nesting depth (0 = main line).
  uint32_t depth() const { return depth_; }
  /// Main-line moves added so far.
  uint32_t main_line_size() const { return main_moves_; }

 private:
  /// Appends the packed main line (record_format.h) of main_ to out_.
  void append_packed_main_line();
  /// Switches to recording a move stream (first variation): the stream so far is exactly
  /// the main line.
  void start_stream();
  /// Appends a note-list entry header at the current anchor.
  void put_note(uint32_t kind);

  /// A typed comment waiting for finish(); its other text is in typed_text_.
  struct TypedEntry {
    uint32_t ply;          // 0-based main-line ply
    PlyAnnotation value;   // rest is not set here
    size_t rest_offset;    // other text: typed_text_[rest_offset, + rest_size)
    size_t rest_size;
  };

  std::string main_;            // main-line move words, little-endian
  std::string stream_;          // move stream; meaningful only when has_variations_
  std::string fen_;             // start FEN, empty = standard
  std::string notes_;           // note list of the annotation record
  std::string out_;             // the move record returned by finish()
  std::string notes_out_;       // the annotation record made by finish()
  std::string typed_text_;      // other text of the typed comments
  std::vector<TypedEntry> typed_;  // typed comments in ply order
  TypedBlockWriter typed_writer_;
  uint32_t main_moves_ = 0;     // moves in main_
  uint32_t stream_tokens_ = 0;  // tokens of the move stream so far (the current anchor)
  uint32_t note_anchor_ = 0;    // anchor of the last note-list entry
  uint32_t typed_anchor_ = UINT32_MAX;  // anchor right after the last main-line move
  uint32_t depth_ = 0;          // current nesting depth
  bool line_has_move_ = false;  // the current line already has a move
  bool chess960_ = false;       // Chess960 flag
  bool has_variations_ = false;
  bool note_here_ = false;      // a note was added at the current anchor
};

}  // namespace db
