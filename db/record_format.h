// The game record: the compact per-game move data stored as the value of a game in the
// "games" sub-db (in a block of consecutive games, db/game_blocks.h; in a store of record
// format 4 or older, an entry of its own under key = game id, uint32, MDB_INTEGERKEY), and
// its annotation record in the "annotations" sub-db under key = game id. Built by RecordBuilder, read by RecordView.
// Replaying a game reads only the move record; comments, NAGs, clocks and evaluations are
// read only by export, `show`, jsonl and `check` (issue 23).
//
// Layout, format version kRecordFormatVersion (= 5, whose records are those of 4; version 3 is the same without packed
// main lines, version 2 also without the bit-coded typed block; a database may mix all
// three, and every reader reads all three). Integers are little-endian; a
// "varint" is unsigned LEB128 (7 bits per byte, low bits first, high bit = more follows,
// at most 5 bytes, no overlong encodings); "zigzag" maps 0,-1,1,-2,.. to 0,1,2,3,..
//
// Move record ("games"):
//
//   offset  size        field
//   0       1           flags (RecordFlags); bits 5-7 must be 0
//   1       varint      N = main-line ply count (number of main-line moves)
//           [varint L]  only with kHasStartFen: FEN length in bytes
//           [L bytes]   only with kHasStartFen: the start FEN (ASCII, as given in the PGN)
//           main line   N chess::Move values, contiguous so that replaying a game reads
//                       only this span; without kPackedMainLine 2*N bytes (raw uint16,
//                       little-endian), with it the packed main line below
//           rest        only with kHasVariations: the move stream, up to the end of the record
//
// Packed main line (kPackedMainLine, issue 16/23 size work; written since format 4): a
// move's raw word is its 12 low bits (from << 6 | to) and its 4 high bits (Move::Kind and
// promotion piece), which are 0 for all but castlings, en-passant captures and promotions.
//   varint S         the number of plies whose move has nonzero high bits ("special"), S <= N
//   S varints        in ply order, (gap << 4) | high: the ply is gap plies after the previous
//                    special's ply + 1 (the first: after ply 0), high = raw >> 12 (1..15);
//                    every ply < N
//   ceil(3N/2) bytes the 12 low bits of each move in ply order, move i at bit 12i, bits
//                    filling each byte from its least significant bit; when N is odd the
//                    last byte's high 4 bits are 0
// So a main line takes 1.5 bytes a ply plus about 2 bytes per castling or promotion, and
// ply i's move is read without a board (RecordView::main_move, MainLineCursor).
//
// The move stream holds the move tree in order, main-line moves included again: 16-bit
// words, each a move (from != to, or Move::null() = 65, "b1b1", the PGN null move "--") or
// a marker:
//
//   word    squares  token
//   0x0082  c1c1     kBeginVariation   "(": an alternative to the last move of its line
//   0x00C3  d1d1     kEndVariation     ")"
//   any other from == to word (including Move::none() = 0) is corrupt. (0x0104 e1e1,
//   0x0145 f1f1 and 0x0186 g1g1 were the comment and NAG markers of version 1.)
//
// Without kHasVariations the move stream is the main line itself. Its tokens are numbered
// from 1; "anchor k" is the place after the k-th token (anchor 0 = before the first).
//
// Annotation record ("annotations", present iff the move record has kHasAnnotations):
//
//   1       flags (AnnotationFlags); bits 2-7 must be 0
//   [varint T + T bytes]  only with kHasTypedBlock: the typed block (below)
//   rest    the note list, up to the end of the record
//
// The note list holds the comments and NAGs in movetext order, each anchored in the move
// stream. An entry starts with varint H = (anchor delta << 2) | kind, the anchor delta
// being its anchor minus the previous entry's (the first: minus 0):
//   kind 0  comment: varint length + UTF-8 bytes. A comment where its line has no move yet
//           (start of the game or of a variation) is a comment before (TokenKind::
//           kCommentBefore), else after (kComment).
//   kind 1  NAG: 1 byte, the NAG number (0-255)
//   kind 2  the place of the typed comment of the main-line ply just played (only for a
//           ply whose descriptor has kAnnPlaced, at the anchor right after its move)
//   kind 3  corrupt
//
// The typed block (db/annotation_codec.h) gives each main-line ply a descriptor
// (AnnotationBits; 0 = no typed comment) and values. Its runs: varint R, then R runs
// (varint descriptor, varint length >= 1) covering exactly N plies. Two layouts, told apart
// by the first byte (a run count is >= 1):
//
// Byte-coded (the first records of format 2; read, no longer written): the runs, then for
//   each ply in order, as its descriptor says: clock (zigzag varint: the clock minus the
//   previous clock of the same ply parity, first 0), evaluation (varint zigzag(value) << 1 |
//   mate), emt (varint), other text (varint length + bytes).
//
// Bit-coded (issue 23's size target: a clock-only lichess game about 5 bits a ply instead
//   of 9):
//     1 byte   0 (marker)
//     varint R + R runs, as above
//     [varint B + B bytes]  only when a descriptor has emt or other text: for each ply in
//                           order its emt (varint) and other text (varint length + bytes)
//     [varint C0, varint D] only when a descriptor has a clock: C0 = the game's first clock,
//                           D = the largest clock delta of the game (below; >= 0)
//     [1 byte K]            only when a descriptor has a clock or an evaluation: the Rice
//                           parameters, clocks in bits 0-3, evaluations in bits 4-7
//     bits, to the end of the block: for each ply in order its clock, then its evaluation,
//     each a Rice code (below). A clock's delta is the clock minus the previous clock of
//     the same ply parity (the first of each side: minus C0) and is coded as D - delta
//     (>= 0: clocks mostly go down by the time used). An evaluation is coded as
//     zigzag(x) << 1 | mate, x = the mate distance, or the centipawns minus the last
//     centipawn evaluation of the game (0 before the first).
//   Rice code of z with parameter k: q = z >> k; q < 24: q one bits, a zero bit, the k low
//   bits of z; else 24 one bits, 6 bits w = the bit width of z, then the w bits of z.
//   Bits fill each byte from its least significant bit; the last byte is padded with zero
//   bits and ends the block.
//
// Clock and emt are in tenths of a second, or in seconds with kClockSeconds. A typed comment
// comes right after its move (before that anchor's notes) unless kAnnPlaced marks its place.
// Its text is append_annotation_text() (lichess's spelling).
//
// Invariants checked by RecordView::parse: the moves at depth 0 of the move stream equal
// the main line; a variation starts only after a move of the line it branches from and
// every variation is closed; kHasVariations is set iff the stream has a variation; the
// record ends exactly after the last token. For an annotation record: anchors within the
// move stream, a kind-2 entry exactly where a kAnnPlaced ply needs one, every ply read and
// no byte left over.
//
// Main-line moves themselves are not checked for legality (that takes a board); only that
// each is a move word.
#pragma once

#include <cstdint>
#include <string_view>

#include "chess/types.h"
#include "db/annotation_codec.h"

namespace db {

/// Version of the layout above; stored in the database meta data, bumped on any change.
/// 3: bit-coded typed blocks (issue 23); 4: packed main lines (kPackedMainLine); 5: the
/// records of version 4, and the signatures, stored in blocks of consecutive games
/// (db/game_blocks.h) instead of one LMDB entry a game (issue 16). The record bytes of
/// versions 4 and 5 are the same; the number tells the layout of the sub-dbs.
inline constexpr uint32_t kRecordFormatVersion = 5;
/// The first version whose store keeps records and signatures in blocks. A store is
/// created with kRecordFormatVersion; an older one keeps one entry a game for life.
inline constexpr uint32_t kFirstBlockedRecordFormatVersion = 5;
/// The newest version of a store with one entry a game: a store of versions 2 or 3 opened
/// for writing is stamped this (it may then get packed main lines and bit-coded blocks,
/// which an older cqldb would report as damaged); its records stay one entry a game.
inline constexpr uint32_t kLastPerGameRecordFormatVersion = 4;
/// The oldest record format version still read: a format-2 record is a format-4 record whose
/// typed block is byte-coded and whose main line is not packed, which this build reads too.
inline constexpr uint32_t kOldestRecordFormatVersion = 2;

/// Bits of the record's flags byte.
enum RecordFlags : uint8_t {
  kHasStartFen = 1 << 0,    ///< the game starts from the FEN stored in the record
  kChess960 = 1 << 1,       ///< Chess960 rules (castling moves are king-takes-rook anyway)
  kHasVariations = 1 << 2,  ///< the move stream has at least one variation
  kHasAnnotations = 1 << 3, ///< the game has an annotation record (comments, NAGs, clocks,
                            ///< evaluations) in the "annotations" sub-db
  kPackedMainLine = 1 << 4, ///< the main line is packed (12 bits a move plus the specials)
  kKnownFlags = 0x1F,       ///< every defined bit; others must be 0
};

/// Bits of the annotation record's flags byte.
enum AnnotationFlags : uint8_t {
  kHasTypedBlock = 1 << 0,  ///< a typed block (clocks, evaluations) follows
  kClockSeconds = 1 << 1,   ///< its clock and emt values are stored in seconds, not tenths
  kKnownAnnotationFlags = 0x03,
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

/// One decoded token. `comment` points into the record bytes (valid as long as they are)
/// or, for a typed comment, into the iterator that produced it (valid until it advances).
struct Token {
  TokenKind kind = TokenKind::kMove;  ///< which of the fields below is meaningful
  uint32_t depth = 0;        ///< 0 = main line, 1 = a variation of it, ...; begin/end markers
                             ///< carry the depth of the variation they open/close
  chess::Move move;          ///< kMove only
  uint8_t nag = 0;           ///< kNag only
  std::string_view comment;  ///< kComment / kCommentBefore only, as stored (UTF-8); for a
                             ///< typed comment its text (append_annotation_text)
  PlyAnnotation annotation;  ///< kComment: the typed values when annotation.bits != 0
};

/// Marker words of the move stream (see the table above).
namespace marker {
inline constexpr uint16_t kBeginVariation = chess::Move(chess::SQ_C1, chess::SQ_C1).raw();
inline constexpr uint16_t kEndVariation = chess::Move(chess::SQ_D1, chess::SQ_D1).raw();
static_assert(kBeginVariation == 0x0082 && kEndVariation == 0x00C3);
}  // namespace marker

/// Kinds of a note-list entry of the annotation record (the low 2 bits of its header).
namespace note {
inline constexpr uint32_t kComment = 0;
inline constexpr uint32_t kNag = 1;
inline constexpr uint32_t kTypedPlace = 2;
}  // namespace note

/// True when `word` is stored as a move token: from != to, or the null move.
constexpr bool is_move_word(uint16_t word) {
  chess::Move m(word);
  return m.from_sq() != m.to_sq() || m == chess::Move::null();
}

}  // namespace db
