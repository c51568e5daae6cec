// Typed per-ply annotations of online-chess PGN (issue 23): the clock `[%clk H:MM:SS(.t)]`,
// the elapsed move time `[%emt H:MM:SS(.t)]` and the engine evaluation `[%eval x.xx]` /
// `[%eval #n]` found in the comment after a main-line move, stored as numbers in the
// annotation record (layout in record_format.h) instead of comment text.
//
// This file holds the value type (PlyAnnotation), its spelling back as comment text
// (lichess's spelling: `[%eval 0.17] [%clk 0:00:30]`), and the byte coding of the typed
// block of an annotation record (TypedBlockWriter / TypedBlockReader). Parsing comment text
// into a PlyAnnotation is import/annotation_parser.h.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace db {

/// Bits of a ply descriptor: which typed values a main-line ply carries and how its
/// comment was spelled. Descriptor 0 = the ply has no typed comment.
enum AnnotationBits : uint16_t {
  kAnnClock = 1 << 0,       ///< [%clk] present
  kAnnEval = 1 << 1,        ///< [%eval] present
  kAnnEmt = 1 << 2,         ///< [%emt] present
  kAnnRest = 1 << 3,        ///< the comment has other text (PlyAnnotation::rest)
  kAnnRestFirst = 1 << 4,   ///< the other text comes before the commands
  kAnnClockFirst = 1 << 5,  ///< [%clk] is written before [%eval]
  kAnnTenths = 1 << 6,      ///< clock and emt are spelled with tenths (0:02:58.7)
  kAnnEvalShort = 1 << 7,   ///< the evaluation is spelled without trailing zeros (0.2, 1)
  kAnnPlaced = 1 << 8,      ///< the comment is not the first thing after its move: a
                            ///< marker in the note list gives its place
  kAnnKnownBits = 0x1FF,    ///< every defined bit
};

/// An engine evaluation: centipawns from White's point of view, or a mate distance in
/// moves (positive: White mates; lichess's `#-3` = Black mates in 3).
struct Evaluation {
  bool mate = false;  ///< true: `value` is a mate distance, false: centipawns
  int32_t value = 0;  ///< centipawns or moves to mate
  bool operator==(const Evaluation&) const = default;
};

/// The typed comment of one main-line ply. A value is present only when its bit is set in
/// `bits` ("absent" is distinct from 0:00:00 and from 0.00).
struct PlyAnnotation {
  uint16_t bits = 0;        ///< AnnotationBits; 0 = no typed comment on this ply
  uint32_t clock = 0;       ///< kAnnClock: clock time left, tenths of a second
  uint32_t emt = 0;         ///< kAnnEmt: elapsed move time, tenths of a second
  Evaluation eval;          ///< kAnnEval: the evaluation
  std::string_view rest;    ///< kAnnRest: the comment's other text (e.g. `[%csl Gd4] Good`)

  bool has_clock() const { return bits & kAnnClock; }
  bool has_eval() const { return bits & kAnnEval; }
  bool has_emt() const { return bits & kAnnEmt; }
};

/// Appends `tenths` as H:MM:SS, or H:MM:SS.t when `with_tenths` (the decimal digit is then
/// always written); without it `tenths` is rounded down to a second.
void append_clock(uint32_t tenths, bool with_tenths, std::string& out);
/// Appends an evaluation as lichess writes it: `#n` for a mate, centipawns as pawns with two
/// decimals (`0.17`, `-1.50`), or with `short_form` without trailing zeros (`-1.5`, `2`).
void append_evaluation(const Evaluation& eval, bool short_form, std::string& out);
/// Appends the comment text of `a` (no braces): the commands in the order its bits give
/// (`[%eval ...]`, `[%clk ...]`, then `[%emt ...]`), blank-separated, and its other text
/// before or after them. This is what export writes and what the importer compares with the
/// original comment before it stores a comment as typed.
void append_annotation_text(const PlyAnnotation& a, std::string& out);

/// Encodes the typed block of an annotation record: feed every main-line ply in order
/// (descriptor 0 for a ply without typed comment), then finish(). Writes the bit-coded layout
/// (record_format.h "Typed block, bit-coded"); the byte-coded layout of the first records of
/// format 2 is only read.
class TypedBlockWriter {
 public:
  /// Starts a block for a game whose clock and emt values are all whole seconds
  /// (`seconds_unit`: they are stored in seconds, else in tenths).
  void reset(bool seconds_unit);
  /// Adds main-line ply `ply` (0-based, consecutive from 0).
  void add(const PlyAnnotation& a);
  /// Appends the block (marker, runs of descriptors, byte values, bit-coded values) to `out`.
  void finish(std::string& out);

 private:
  /// A bit-coded value in ply order: a clock delta or an evaluation code.
  struct Value {
    bool clock = false;  ///< true: `delta` of a clock; false: `code` of an evaluation
    int64_t delta = 0;   ///< clock minus the previous clock of its side (stored unit)
    uint64_t code = 0;   ///< zigzag(evaluation difference or mate) << 1 | mate
  };

  std::vector<Value> values_;  // clock deltas and evaluation codes in ply order
  std::string bytes_;          // emt values and other text in ply order
  std::string runs_;           // (descriptor, length) pairs so far, without the open run
  uint32_t run_count_ = 0;     // pairs in runs_
  uint16_t run_bits_ = 0;      // descriptor of the open run
  uint32_t run_length_ = 0;    // plies in the open run (0 = none open)
  uint32_t ply_ = 0;           // plies added
  bool has_clock_ = false;     // a clock was added: first_clock_ is set
  uint32_t first_clock_ = 0;   // the first clock of the game (stored unit)
  uint32_t last_clock_[2] = {0, 0};  // last clock of each side (ply parity), stored unit
  int64_t max_delta_ = 0;      // the largest clock delta (>= 0: the first clock's is 0)
  int64_t last_cp_ = 0;        // the last centipawn evaluation (0 before the first)
  bool seconds_ = false;       // clocks stored in seconds
};

/// Decodes a typed block ply by ply (see record_format.h), either layout. Every error is
/// returned as a message, never thrown, so RecordView can report it with its offset.
/// Copyable: it only points into the record.
class TypedBlockReader {
 public:
  TypedBlockReader() = default;
  /// Reads the run table of a block of `bytes` for a main line of `plies` plies; nullptr
  /// on success, else what is wrong. `seconds_unit`: values stored in seconds.
  const char* open(const uint8_t* bytes, const uint8_t* end, uint32_t plies, bool seconds_unit);
  /// Decodes the next ply into `out` (bits 0 = no typed comment); nullptr or an error.
  const char* next(PlyAnnotation& out);
  /// True when every ply was read and the block ended exactly.
  bool at_end() const;

 private:
  /// Reads one bit-coded value (Rice code with parameter `k`, record_format.h) into `out`.
  bool read_rice(unsigned k, uint64_t& out);

  const uint8_t* runs_ = nullptr;  // next undecoded run
  const uint8_t* p_ = nullptr;     // next undecoded byte value (emt, other text; old layout: every value)
  const uint8_t* p_end_ = nullptr; // end of the byte values
  const uint8_t* end_ = nullptr;   // end of the block
  uint32_t runs_left_ = 0;         // runs not yet started
  uint32_t run_left_ = 0;          // plies left in the current run
  uint16_t run_bits_ = 0;          // descriptor of the current run
  uint32_t plies_ = 0;             // main-line plies
  uint32_t ply_ = 0;               // plies decoded
  uint32_t last_clock_[2] = {0, 0};
  bool seconds_ = false;
  // The bit-coded layout:
  bool bit_coded_ = false;         // the block has the bit-coded layout
  const uint8_t* bits_ = nullptr;  // its bit-coded values (to end_)
  uint64_t bit_ = 0;               // next unread bit, counted from bits_
  unsigned clock_k_ = 0, eval_k_ = 0;  // Rice parameters
  uint64_t max_delta_ = 0;         // the largest clock delta of the game
  int64_t last_cp_ = 0;            // the last centipawn evaluation
};

}  // namespace db
