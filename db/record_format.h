// The game record: the compact per-game move data stored as the LMDB value of a game
// (key = game id, uint32, MDB_INTEGERKEY). Built by RecordBuilder, read by RecordView.
//
// Layout, format version kRecordFormatVersion (= 1). Integers are little-endian; a
// "varint" is unsigned LEB128 (7 bits per byte, low bits first, high bit = more follows,
// at most 5 bytes, no overlong encodings):
//
//   offset  size        field
//   0       1           flags (RecordFlags); bits 4-7 must be 0
//   1       varint      N = main-line ply count (number of main-line moves)
//           [varint L]  only with kHasStartFen: FEN length in bytes
//           [L bytes]   only with kHasStartFen: the start FEN (ASCII, as given in the PGN)
//           2*N         the main line: N chess::Move values (raw uint16, little-endian),
//                       contiguous so that replaying a game reads only this span
//           rest        only with kHasVariations or kHasComments: the token stream, up to the
//                       end of the record
//
// The token stream holds the whole movetext in order, main-line moves included again, so
// the exact movetext can be rebuilt from it alone. Each token starts with a 16-bit word:
// a word whose origin square differs from its destination square is a move, and so is
// Move::null() (65, "b1b1", the PGN null move "--"). Other from == to words, impossible as
// moves, are markers:
//
//   word    squares  token                 followed by
//   0x0082  c1c1     kBeginVariation       -
//   0x00C3  d1d1     kEndVariation         -
//   0x0104  e1e1     kComment              varint length + UTF-8 bytes (a comment after a move)
//   0x0145  f1f1     kCommentBefore        varint length + UTF-8 bytes (a comment before the
//                                          first move of the game or of a variation)
//   0x0186  g1g1     kNag                  1 byte: the NAG number (0-255)
//   any other from == to word (including Move::none() = 0) is corrupt.
//
// Invariants checked by RecordView::parse: the moves at depth 0 of the token stream equal
// the main line; a variation starts only after a move of the line it branches from and
// every variation is closed; kCommentBefore appears exactly where its line has no move yet
// and kComment exactly where it has one; kHasVariations is set iff the stream has a
// variation and kHasComments iff it has a comment or NAG; the record ends exactly after
// the last token. A game without variations, comments and NAGs has no token stream.
//
// Main-line moves themselves are not checked for legality (that takes a board); only that
// each is a move word.
#pragma once

#include <cstdint>
#include <string_view>

#include "chess/types.h"

namespace db {

/// Version of the layout above; stored in the database meta data, bumped on any change.
inline constexpr uint32_t kRecordFormatVersion = 1;

/// Bits of the record's flags byte.
enum RecordFlags : uint8_t {
  kHasStartFen = 1 << 0,    ///< the game starts from the FEN stored in the record
  kChess960 = 1 << 1,       ///< Chess960 rules (castling moves are king-takes-rook anyway)
  kHasVariations = 1 << 2,  ///< the token stream has at least one variation
  kHasComments = 1 << 3,    ///< the token stream has at least one comment or NAG
  kKnownFlags = 0x0F,       ///< every defined bit; others must be 0
};

/// What a token of the token stream is.
enum class TokenKind : uint8_t {
  kMove,            ///< a move (Token::move), possibly Move::null()
  kBeginVariation,  ///< "(": an alternative to the last move of the enclosing line starts
  kEndVariation,    ///< ")": the variation ends; the enclosing line continues
  kComment,         ///< "{...}" after a move (Token::comment)
  kCommentBefore,   ///< "{...}" before the first move of the game or variation
  kNag,             ///< "$n" (Token::nag)
};

/// One decoded token. `comment` points into the record bytes (valid as long as they are).
struct Token {
  TokenKind kind = TokenKind::kMove;  ///< which of the fields below is meaningful
  uint32_t depth = 0;        ///< 0 = main line, 1 = a variation of it, ...; begin/end markers
                             ///< carry the depth of the variation they open/close
  chess::Move move;          ///< kMove only
  uint8_t nag = 0;           ///< kNag only
  std::string_view comment;  ///< kComment / kCommentBefore only, as stored (UTF-8)
};

/// Marker words of the token stream (see the table above).
namespace marker {
inline constexpr uint16_t kBeginVariation = chess::Move(chess::SQ_C1, chess::SQ_C1).raw();
inline constexpr uint16_t kEndVariation = chess::Move(chess::SQ_D1, chess::SQ_D1).raw();
inline constexpr uint16_t kComment = chess::Move(chess::SQ_E1, chess::SQ_E1).raw();
inline constexpr uint16_t kCommentBefore = chess::Move(chess::SQ_F1, chess::SQ_F1).raw();
inline constexpr uint16_t kNag = chess::Move(chess::SQ_G1, chess::SQ_G1).raw();
static_assert(kBeginVariation == 0x0082 && kNag == 0x0186);
}  // namespace marker

/// True when `word` is stored as a move token: from != to, or the null move.
constexpr bool is_move_word(uint16_t word) {
  chess::Move m(word);
  return m.from_sq() != m.to_sq() || m == chess::Move::null();
}

}  // namespace db
