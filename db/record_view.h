// RecordView: a validated, read-only view of a game record: its move record and, when the
// reader asks for it, its annotation record (layout in record_format.h).
#pragma once

#include <cstdint>
#include <functional>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "chess/types.h"
#include "db/annotation_codec.h"
#include "db/record_codec.h"
#include "db/record_format.h"

namespace db {

/// A view of one game record. It does not own the bytes: it is valid only as long as they
/// are (for a record read from LMDB, until the read transaction ends — see game_reader.h).
///
/// parse() checks the whole record (header, main line, move stream, annotation record; see
/// the invariants in record_format.h) and throws CorruptRecord for anything else, so the
/// accessors never read out of bounds. Cost: one pass over the bytes. A view parsed from
/// the move record alone (replay, queries) has no comments, NAGs or typed annotations even
/// when the game has some (has_annotations() tells; annotations_loaded() is then false).
class RecordView {
 public:
  class TokenIterator;
  class TokenRange;

  /// An empty game: standard start, no moves.
  RecordView() = default;
  /// Called by parse() with each token it checks.
  using TokenVisitor = std::function<void(const Token&)>;

  /// Validates the move record `bytes` and, when not empty, its annotation record
  /// `annotations`, and returns a view of them. Throws CorruptRecord. `visit`, when set, is
  /// called with every token of the check, which walks the tokens (as tokens(TypedText::kNone)
  /// gives them) only when the record has variations or `annotations` is given: a caller
  /// that needs one pass over them then needs no second one (GameWriter::add_game).
  static RecordView parse(std::span<const uint8_t> bytes,
                          std::span<const uint8_t> annotations = {},
                          const TokenVisitor& visit = {});
  /// Same, for bytes held in string_views (e.g. from RecordBuilder::finish() and
  /// annotations(), or LMDB).
  static RecordView parse(std::string_view bytes, std::string_view annotations = {},
                          const TokenVisitor& visit = {});

  /// The flags byte (RecordFlags).
  uint8_t flags() const { return flags_; }
  /// The start FEN as given in the PGN; empty for the standard start position.
  std::string_view start_fen() const { return fen_; }
  /// True for a Chess960 game.
  bool chess960() const { return flags_ & kChess960; }
  /// True when the move stream has variations.
  bool has_variations() const { return flags_ & kHasVariations; }
  /// True when the game has an annotation record (comments, NAGs, clocks, evaluations).
  bool has_annotations() const { return flags_ & kHasAnnotations; }
  /// True when the annotation record was given to parse() (tokens() then has them).
  bool annotations_loaded() const { return notes_ != nullptr; }
  /// True when the loaded annotations have a typed block (clocks, evaluations, emt).
  bool has_typed() const { return typed_ != nullptr; }

  /// Number of main-line moves (= main-line plies; the game has main_line_size() + 1
  /// positions on its main line).
  uint32_t main_line_size() const { return main_size_; }
  /// True when the main line is packed (kPackedMainLine: written since record format 4).
  bool packed_main_line() const { return flags_ & kPackedMainLine; }
  /// Main-line move `i` (0-based ply index; requires i < main_line_size()). For a packed
  /// main line this scans the specials (record_format.h), a few per game; a reader going
  /// through the main line in order uses MainLineCursor instead.
  chess::Move main_move(uint32_t i) const {
    if (!packed_main_line()) return chess::Move(codec::get_u16(main_ + 2 * size_t(i)));
    return chess::Move(uint16_t(codec::get_u12(main_, i) | special_high(i)));
  }
  /// Whether the tokens of typed comments carry their text (Token::comment).
  enum class TypedText {
    kRendered,  ///< Token::comment is the comment as export writes it (append_annotation_text)
    kNone,      ///< Token::comment is empty; Token::annotation alone describes the comment
                ///< (saves formatting every clock when only the values or flags are read)
  };
  /// All tokens in movetext order (main line and variations; comments, NAGs and typed
  /// comments when the annotations are loaded). For a game without variations and
  /// annotations these are just the main-line moves. `text`: see TypedText.
  TokenRange tokens(TypedText text = TypedText::kRendered) const;
  /// The typed comment of every main-line ply: out[i] for the move of ply i + 1 (0-based
  /// move index; bits 0 = none). All empty without loaded typed annotations.
  void ply_annotations(std::vector<PlyAnnotation>& out) const;

 private:
  friend class MainLineCursor;
  /// The 4 high bits of packed main-line move `i` (<< 12), from the specials.
  uint16_t special_high(uint32_t i) const;

  const uint8_t* main_ = nullptr;    // first main-line move word (packed: the 12-bit array)
  const uint8_t* specials_ = nullptr;  // packed: first special entry (they end at main_)
  const uint8_t* stream_ = nullptr;  // move stream start (= end of the main line)
  const uint8_t* end_ = nullptr;     // end of the move record
  const uint8_t* notes_ = nullptr;   // note list (nullptr: annotations not loaded)
  const uint8_t* notes_end_ = nullptr;
  const uint8_t* typed_ = nullptr;   // typed block (nullptr: none)
  const uint8_t* typed_end_ = nullptr;
  bool clock_seconds_ = false;       // typed clocks stored in seconds
  std::string_view fen_;             // start FEN, empty = standard
  uint32_t main_size_ = 0;           // main-line moves
  uint8_t flags_ = 0;                // RecordFlags
};

/// Reads the specials of a packed main line (record_format.h: varints (gap << 4) | high) in
/// ply order. The one reader of that list: parse() checks it with this, main_move() and
/// MainLineCursor read it.
class SpecialMoveReader {
 public:
  SpecialMoveReader() = default;
  /// The entries in [p, end).
  SpecialMoveReader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  /// The next entry's ply and high bits (<< 12); false when none is left or the bytes are
  /// not a varint (then the reader is unusable).
  bool next(uint64_t& ply, uint16_t& high) {
    uint32_t entry = 0;
    if (p_ == end_ || !codec::get_varint(p_, end_, entry)) return false;
    ply = next_ply_ + (entry >> 4);
    next_ply_ = ply + 1;
    high = uint16_t((entry & 15) << 12);
    return true;
  }
  /// The next unread byte.
  const uint8_t* position() const { return p_; }

 private:
  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  uint64_t next_ply_ = 0;  // the previous entry's ply + 1 (0 at first)
};

/// Reads the main-line moves of a parsed record in ply order, in either layout of
/// record_format.h, without a board: the replay's way through a packed main line (O(1) a
/// ply where main_move() scans the specials). The record must outlive the cursor.
class MainLineCursor {
 public:
  MainLineCursor() = default;
  /// At ply 0's move.
  explicit MainLineCursor(const RecordView& record)
      : main_(record.main_), specials_(record.specials_, record.main_), size_(record.main_size_),
        packed_(record.packed_main_line()) {
    if (packed_) read_special();
  }
  /// The move of the next ply: ply 0's at the first call. At most
  /// RecordView::main_line_size() calls.
  chess::Move next() {
    const uint32_t i = i_++;
    if (!packed_) {
      const uint16_t word = codec::get_u16(main_);
      main_ += 2;
      return chess::Move(word);
    }
    // Moves 2k and 2k + 1 share the 3 bytes at main_: the even one decodes both and keeps
    // the odd one (an odd count's last move has only 2 bytes, all that is read of it).
    uint16_t word;
    if (i & 1) {
      word = odd_;
    } else if (i + 1 < size_) {
      const uint32_t v = uint32_t(main_[0]) | uint32_t(main_[1]) << 8 | uint32_t(main_[2]) << 16;
      main_ += 3;
      word = uint16_t(v & 0xFFF);
      odd_ = uint16_t(v >> 12);
    } else {
      word = uint16_t((main_[0] | main_[1] << 8) & 0xFFF);
    }
    if (i == special_ply_) {
      word |= special_high_;
      read_special();
    }
    return chess::Move(word);
  }

 private:
  /// Reads the next special entry (parse() has checked them all: each ply < size_), or
  /// marks none left.
  void read_special() {
    uint64_t ply = 0;
    special_ply_ = specials_.next(ply, special_high_) ? uint32_t(ply) : UINT32_MAX;
  }

  const uint8_t* main_ = nullptr;      // the next unread main-line bytes (either layout)
  SpecialMoveReader specials_;         // packed: the entries after the pending one
  uint32_t i_ = 0;                     // ply of the next move
  uint32_t size_ = 0;                  // main-line moves
  uint16_t odd_ = 0;                   // packed: the odd move decoded with the even one
  uint32_t special_ply_ = UINT32_MAX;  // ply of the pending special entry
  uint16_t special_high_ = 0;          // its high bits, << 12
  bool packed_ = false;
};

/// Forward iterator over the tokens of a validated record: the move stream merged with the
/// note list and the typed comments. Compares equal to std::default_sentinel at the end.
class RecordView::TokenIterator {
 public:
  using value_type = Token;
  using difference_type = std::ptrdiff_t;

  TokenIterator() = default;
  TokenIterator(const TokenIterator& other) { *this = other; }
  TokenIterator& operator=(const TokenIterator& other);
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
  friend class RecordView;
  friend class RecordView::TokenRange;
  TokenIterator(const RecordView& view, TypedText text);
  /// Moves to the next token; nullptr on success, else what is wrong (then the iterator is
  /// unusable).
  const char* advance();
  /// Makes the current token the typed comment of the last main-line ply.
  void emit_typed();

  const uint8_t* move_p_ = nullptr;    // next undecoded move-stream word (with variations)
  const uint8_t* move_end_ = nullptr;  // end of the move stream
  MainLineCursor main_cursor_;         // without variations: the main line is the stream
  uint32_t main_left_ = 0;             // main-line moves not yet read by main_cursor_
  bool main_mode_ = false;             // reading the stream through main_cursor_
  const uint8_t* note_p_ = nullptr;    // next undecoded note-list byte
  const uint8_t* note_end_ = nullptr;  // end of the note list
  TypedBlockReader typed_;             // typed comments, when has_typed_
  bool has_typed_ = false;
  bool bad_typed_ = false;             // the typed block's run table is corrupt
  uint32_t anchor_ = 0;                // move-stream tokens consumed
  uint32_t note_anchor_ = 0;           // anchor of the next note (when note_ready_)
  uint32_t note_kind_ = 0;             // its kind (record_format.h `note`)
  bool note_ready_ = false;            // the next note's header is decoded
  uint32_t depth_ = 0;                 // depth after the current token
  bool line_has_move_ = false;         // the current line has a move
  int typed_state_ = 0;                // 0 none, 1 typed comment due next, 2 due at its marker
  PlyAnnotation ply_;                  // typed comment of the last main-line move
  std::string text_;                   // text of the typed comment (token_.comment)
  bool render_typed_ = true;           // TypedText::kRendered
  Token token_;                        // the current token
  bool at_end_ = true;                 // past the last token
};

/// The token sequence of a record, for range-for.
class RecordView::TokenRange {
 public:
  /// Iterator at the first token.
  TokenIterator begin() const {
    TokenIterator it(view_, text_);
    ++it;
    return it;
  }
  /// The end sentinel.
  std::default_sentinel_t end() const { return {}; }

 private:
  friend class RecordView;
  TokenRange(const RecordView& view, TypedText text) : view_(view), text_(text) {}

  RecordView view_;  // a copy of the view (the bytes must outlive the range)
  TypedText text_;
};

}  // namespace db
