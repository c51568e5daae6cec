// RecordView: a validated, read-only view of a game record (layout in record_format.h).
#pragma once

#include <cstdint>
#include <iterator>
#include <span>
#include <string_view>

#include "chess/types.h"
#include "db/record_codec.h"
#include "db/record_format.h"

namespace db {

/// A view of one game record. It does not own the bytes: it is valid only as long as they
/// are (for a record read from LMDB, until the read transaction ends — see game_reader.h).
///
/// parse() checks the whole record (header, main line, token stream; see the invariants in
/// record_format.h) and throws CorruptRecord for anything else, so the accessors never read
/// out of bounds. Cost: one pass over the bytes.
class RecordView {
 public:
  class TokenIterator;
  class TokenRange;

  /// An empty game: standard start, no moves.
  RecordView() = default;
  /// Validates `bytes` and returns a view of them. Throws CorruptRecord.
  static RecordView parse(std::span<const uint8_t> bytes);
  /// Same, for bytes held in a string_view (e.g. from RecordBuilder::finish or LMDB).
  static RecordView parse(std::string_view bytes);

  /// The flags byte (RecordFlags).
  uint8_t flags() const { return flags_; }
  /// The start FEN as given in the PGN; empty for the standard start position.
  std::string_view start_fen() const { return fen_; }
  /// True for a Chess960 game.
  bool chess960() const { return flags_ & kChess960; }
  /// True when the token stream has variations.
  bool has_variations() const { return flags_ & kHasVariations; }
  /// True when the token stream has comments or NAGs.
  bool has_comments() const { return flags_ & kHasComments; }

  /// Number of main-line moves (= main-line plies; the game has main_line_size() + 1
  /// positions on its main line).
  uint32_t main_line_size() const { return main_size_; }
  /// Main-line move `i` (0-based ply index; requires i < main_line_size()).
  chess::Move main_move(uint32_t i) const {
    return chess::Move(codec::get_u16(main_ + 2 * size_t(i)));
  }
  /// All tokens in movetext order (main line and variations, comments, NAGs). For a game
  /// without annotations these are just the main-line moves.
  TokenRange tokens() const;

 private:
  const uint8_t* main_ = nullptr;    // first main-line move word
  const uint8_t* stream_ = nullptr;  // token stream start (= end of the main line)
  const uint8_t* end_ = nullptr;     // end of the record
  std::string_view fen_;             // start FEN, empty = standard
  uint32_t main_size_ = 0;           // main-line moves
  uint8_t flags_ = 0;                // RecordFlags
};

/// Forward iterator over the tokens of a validated record; compares equal to
/// std::default_sentinel at the end.
class RecordView::TokenIterator {
 public:
  using value_type = Token;
  using difference_type = std::ptrdiff_t;

  TokenIterator() = default;
  /// The current token.
  const Token& operator*() const { return token_; }
  const Token* operator->() const { return &token_; }
  /// Advances to the next token.
  TokenIterator& operator++();
  /// Post-increment.
  TokenIterator operator++(int) {
    TokenIterator old = *this;
    ++*this;
    return old;
  }
  /// True past the last token.
  bool operator==(std::default_sentinel_t) const { return at_end_; }

 private:
  friend class RecordView::TokenRange;
  TokenIterator(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) { ++*this; }

  const uint8_t* p_ = nullptr;    // next undecoded byte
  const uint8_t* end_ = nullptr;  // end of the stream
  uint32_t depth_ = 0;            // depth after the current token
  Token token_;                   // the current token
  bool at_end_ = true;            // past the last token
};

/// The token sequence of a record, for range-for.
class RecordView::TokenRange {
 public:
  /// Iterator at the first token.
  TokenIterator begin() const { return TokenIterator(begin_, end_); }
  /// The end sentinel.
  std::default_sentinel_t end() const { return {}; }

 private:
  friend class RecordView;
  TokenRange(const uint8_t* begin, const uint8_t* end) : begin_(begin), end_(end) {}

  const uint8_t* begin_;  // first token
  const uint8_t* end_;    // end of the stream
};

}  // namespace db
