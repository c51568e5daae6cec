// Cuts a PGN byte stream into games, without parsing them (the parse runs on worker
// threads; see pgn_parser.h).
//
// Game boundaries. A line whose first non-blank character is `[` starts a new game when the
// current game has movetext (anything that is not a tag, a blank line or a `%` line,
// comments included) or when a blank line followed a tag section without movetext and the
// new tag is an Event tag or repeats a tag name of the current game (header-only files);
// any other tag after such a blank line continues the game (a blank line inside a tag
// section, as ChessBase writes, with a kBlankLineInTags warning). A bracket line that is
// no tag (`[pgn]`, `[/pgn]`, `[C54]`: a word in brackets alone on its line) is dropped
// with a kNotATag warning and never starts a game. The splitter tracks `{...}` comments
// (which may span lines and hold lines starting with `[`), `;` comments to end of line and
// tag strings, so a `[` in those does not cut a game. Recovery: inside an open `{`
// comment, a line starting with `[Event "` right after a blank line ends the game there
// (the parser then reports the unterminated comment) so one bad comment cannot swallow the
// rest of the file. A game's text runs up to the line where the next game starts: blank
// lines (or stray text) after its result belong to it.
//
// What RawGame::text holds: the game's bytes as in the file, except that
//   - a lone CR line end becomes '\n' (CRLF stays: the parser reads '\r' as a blank);
//   - a UTF-8 byte order mark (U+FEFF) at the start of the stream or of a line (after
//     blanks) is dropped: it is whitespace (two files with marks concatenated);
//   - `%` escape lines (a `%` in column 1) and bracket lines that are no tag keep only
//     their '\n';
//   - C0 control bytes other than \t \n \r are dropped, with a kControlBytes warning;
//   - whitespace-only text before the first game is dropped.
// Every line end keeps its '\n', so the line of text offset i is first_line + (number of
// '\n' in text before i).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "import/input_stream.h"
#include "import/pgn_diagnostic.h"

namespace import {

/// The bytes of one game as cut from the stream, with where it came from.
struct RawGame {
  std::string text;          ///< the game's bytes, normalised as above; never empty
  uint64_t ordinal = 0;      ///< 1-based position of the game in its file
  uint32_t first_line = 0;   ///< 1-based file line of text[0]
  uint64_t byte_offset = 0;  ///< offset of the game's first byte in the decompressed stream
  std::vector<PgnDiagnostic> warnings;  ///< problems found while splitting (control bytes)
};

/// Yields the games of an InputStream one at a time. Single-threaded; a reader thread calls
/// next() and hands the RawGames to workers. Reads the stream in 1 MiB pieces.
class PgnSplitter {
 public:
  /// Splits `input` (the splitter owns it from now on). Reads the first bytes to drop a
  /// byte order mark, so it throws std::runtime_error for input that is corrupt at once.
  explicit PgnSplitter(InputStream input);
  ~PgnSplitter();
  PgnSplitter(PgnSplitter&&) noexcept;
  PgnSplitter& operator=(PgnSplitter&&) noexcept;

  /// Stores the next game in `out` (reusing its buffers) and returns true; returns false at
  /// the end of the stream. A truncated last game is returned as it is. Throws
  /// std::runtime_error if the input does (unreadable or corrupt compressed data).
  bool next(RawGame& out);

  /// Games returned so far.
  uint64_t games() const { return ordinal_; }

  /// Lines started so far (the current line number).
  uint32_t line() const { return line_; }

  /// The underlying stream, for progress (compressed_bytes_read(), file_size()) and its
  /// warnings (truncated compressed data).
  const InputStream& input() const { return input_; }

  /// Splitter warnings that belong to no game: control bytes or `[pgn]` lines before the
  /// first game (or in a file without games, or after the last game); each message ends with
  /// where the line was, " (before game 1)" or " (after game N)". Control bytes after a
  /// game's last line belong to it.
  const std::vector<PgnDiagnostic>& orphan_warnings() const { return orphan_warnings_; }

 private:
  /// What the bytes of the current line are, which decides the bytes that end a run.
  enum class Mode : uint8_t {
    kText,         ///< movetext outside comments
    kTag,          ///< a tag line outside a quoted string
    kTagString,    ///< inside a quoted tag value
    kTagTail,      ///< after a tag's `]`: another `[`, blanks, or movetext may follow
    kBrace,        ///< inside a { comment
    kLineComment,  ///< after `;`, to the end of the line
    kEscape,       ///< a `%` line: bytes are dropped
  };

  void flush();
  bool refill();
  size_t ensure(size_t k);
  bool start_line(RawGame& out);
  bool bracket_line_is_no_tag();
  bool starts_new_tag_section();
  void tag_tail();
  void special(unsigned char c);
  size_t backslashes_before() const;
  void end_line();
  void drop_control_byte();
  void yield(RawGame& out);
  bool finish(RawGame& out);

  InputStream input_;
  std::unique_ptr<char[]> buf_;  // decompressed bytes: buf_[pos_, end_) is unread
  size_t read_size_ = size_t(1) << 20;  // bytes per InputStream::read (kReadSize, or less for
                                       // a small uncompressed input of known size)
  size_t pos_ = 0, end_ = 0;
  size_t copy_from_ = 0;     // buf_[copy_from_, pos_) belongs to the game, not yet in acc_
  uint64_t buf_offset_ = 0;  // stream offset of buf_[0]
  bool eof_ = false;         // input_ is exhausted
  bool finished_ = false;    // the last game has been returned

  std::string acc_;                      // the game being gathered (its bytes before copy_from_)
  std::vector<PgnDiagnostic> warnings_;  // its warnings
  std::vector<PgnDiagnostic> orphan_warnings_;
  /// Moves warnings_ to orphan_warnings_, naming where they were.
  void keep_orphan_warnings();
  uint64_t ordinal_ = 0;      // games returned so far
  uint32_t game_line_ = 1;    // first line of the game being gathered
  uint64_t game_offset_ = 0;  // its stream offset

  // Game state.
  bool game_started_ = false;      // a tag or movetext line has been seen
  bool seen_tags_ = false;         // the game has a tag line
  bool seen_movetext_ = false;     // the game has movetext (a boundary may follow)
  bool blank_after_tags_ = false;  // a blank line followed tags, with no movetext yet
  bool in_brace_ = false;          // inside a { comment

  // Line state.
  Mode mode_ = Mode::kText;
  uint32_t line_ = 1;                // current 1-based line
  uint64_t line_offset_ = 0;         // stream offset of the current line's first byte
  size_t line_start_ = 0;            // offset in the game of the current line's first byte
  bool at_line_start_ = true;        // only blanks seen on this line so far
  bool line_has_blanks_ = false;     // the line started with blanks (no column-1 `%`)
  bool line_blank_ = false;          // this line is blank
  bool prev_line_blank_ = false;     // the previous line was blank
  uint32_t controls_on_line_ = 0;    // control bytes counted in warnings_.back()
  unsigned char first_control_ = 0;  // the first of them
};

}  // namespace import
