// The callbacks a PGN parse drives (in the manner of Disservin chess-library's pgn.hpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace import {

/// Receives one game at a time from PgnParser. Every string_view points into the parser's
/// input or scratch buffers and is valid only during the callback: copy what you keep.
///
/// Call order for one game:
///   begin_game, tag*, begin_movetext, { move nag* | comment | nag | begin_variation |
///   end_variation }*, result?, end_game
/// begin_movetext() is called even when the game has no movetext (a tags-only game).
/// end_game() is always called once after begin_game(), also when the parser found an error
/// or the visitor skipped the game; the ParseStatus returned by the parser says which
/// (commit the game only if !status.rejected).
///
/// Any callback may call skip_rest_of_game() (e.g. move() on an illegal move, tag() on an
/// unsupported variant): the parser then makes no further callbacks except end_game(), does
/// no further work on the game, and sets ParseStatus::skipped.
class PgnVisitor {
 public:
  virtual ~PgnVisitor() = default;

  /// A new game starts.
  virtual void begin_game() {}
  /// One tag pair, e.g. ("White", "Kasparov, Garry"). `value` has \" and \\ unescaped and
  /// is valid UTF-8 (legacy encodings are converted, see text_encoding.h).
  virtual void tag(std::string_view /*name*/, std::string_view /*value*/) {}
  /// The tag section is over; moves follow (FEN-dependent setup goes here).
  virtual void begin_movetext() {}
  /// One move in SAN as written ("e4", "Nbd7", "exd8=Q+", "O-O", "0-0", "--"), with its
  /// glyph suffix ("!", "?!"...) removed: the glyph arrives next through nag(). `line` is
  /// the move's 1-based line in the file. The move is not checked for legality here.
  virtual void move(std::string_view /*san*/, uint32_t /*line*/) {}
  /// A Numeric Annotation Glyph 0..255 for the preceding move (or position): `$n`, or a
  /// glyph: ! = 1, ? = 2, !! = 3, ?? = 4, !? = 5, ?! = 6.
  virtual void nag(uint8_t /*nag*/) {}
  /// A `{...}` or `;` comment: trimmed of surrounding blanks, never empty, valid UTF-8.
  /// Multi-line comments keep their inner '\n'.
  virtual void comment(std::string_view /*text*/) {}
  /// A `(` variation starts: it replaces the move just visited.
  virtual void begin_variation() {}
  /// The matching `)`.
  virtual void end_variation() {}
  /// The game termination marker: "1-0", "0-1", "1/2-1/2" or "*".
  virtual void result(std::string_view /*result*/) {}
  /// The game is over (always called after begin_game()).
  virtual void end_game() {}

  /// Asks the parser to stop working on the current game (see the class comment).
  void skip_rest_of_game() { skip_ = true; }
  /// True once skip_rest_of_game() was called for the current game.
  bool skipping_rest_of_game() const { return skip_; }

 protected:
  PgnVisitor() = default;
  PgnVisitor(const PgnVisitor&) = default;
  PgnVisitor& operator=(const PgnVisitor&) = default;

 private:
  friend class PgnParser;  // clears the flag when a game starts
  bool skip_ = false;
};

}  // namespace import
