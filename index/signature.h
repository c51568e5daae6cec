// Signature: a summary of one game's main line, computed at import and stored next to the
// game record (LMDB sub-db "signatures", see db/schema.h), from which the query planner can
// rule a game out without replaying it. Everything in a signature is a fact about the main
// line; a signature never claims anything about variations (see Signature::has_variations).
//
// Plies: ply 0 is the start position of the main line (the standard start or the FEN),
// ply p the position after p moves; a game of N moves has positions 0..N. Squares are
// numbered 0..63 from a1. Bitboard arrays are indexed by chess::Piece (W_PAWN = 1 ..
// W_KING = 6, B_PAWN = 9 .. B_KING = 14; the other four entries stay 0).
//
// ---- Encoding, format version kSignatureFormatVersion (= 3) ------------------------------
//
// Integers in the byte part are little-endian; a varint is unsigned LEB128 (db/record_codec.h).
// Bytes 0-5, the plies, the castling plies and start_game_ply are the Summary (below): fixed
// places, readable without the bit stream, so the planner's first test costs a few
// nanoseconds a game.
//
//   byte 0   flags (SignatureByteFlags): start FEN, Chess960, variations, null moves, en
//            passant played, final position in check, final position without a legal move,
//            Black moves first
//   byte 1   bits 0-3: castlings played (chess::CastlingRight bits); bits 4-7: promotions
//            played by either side, bit 4 + (type - KNIGHT) (4 knight .. 7 queen)
//   byte 2   bits 0-3: positions with White in check, bits 4-7: with Black in check (each
//            capped at 15)
//   byte 3   White's least material over the main line (lower bounds; kinds separately,
//            so the minima may come from different plies): bits 0-1 min(pawns, 3), bit 2
//            queens >= 1 throughout, bits 3-4 min(rooks, 3), bits 5-6 min(bishops, 3),
//            bit 7 knights >= 1 throughout
//   byte 4   the same for Black
//   byte 5   bit 0: some position has White to move in double check (two or more
//            checkers), bit 1: the same for Black; bits 2-7 are 0
//   (version 1 had neither the promotion bits nor bytes 3-4; version 2 had no byte 5 and
//   no castling plies)
//   varint   N = main-line plies
//   varint   for each castling bit set in byte 1 (bits 0..3 in order): the ply p from which
//            the castling was played (the move from ply p to p + 1; p < N, and the side to
//            move at p is the castling side)
//   only with kByteStartFen:
//     varint   start_game_ply (chess::Position::game_ply() of the FEN)
//     8 bytes  occupied squares of ply 0 (Bitboard, little-endian)
//     ceil(k/2) bytes  the chess::Piece on each of those k squares in ascending square order,
//              4 bits each, low nibble first (a last odd nibble is 0)
//   (without it, ply 0 is the standard start position)
//
// The rest is a bit stream (bit_stream.h: least significant bit first, gamma = Elias gamma,
// width_for(n) = the bits needed for the values 0..n-1, 0 when n <= 1), five sections in
// this order, the last byte padded with zero bits:
//
//   1. material timeline. gamma(R) where R = number of runs (>= 1). The first run starts at
//      ply 0 with the material of ply 0. For each further run:
//        gamma(first_ply - previous first_ply)   (>= 1)
//        the move that changed the material, played from ply first_ply - 1 by the side to
//        move there (start side, alternating every ply), as a prefix code (bits in the
//        order read; the common captures get the short codes):
//          1                    it captured a pawn
//          0, bits(t - KNIGHT, 2) with t = KNIGHT, BISHOP, ROOK: it captured a t
//          0, bits(3, 2), 0     it captured a queen
//          0, bits(3, 2), 1, bits(captured, 3), bits(promoted - KNIGHT, 2):
//                               it promoted to `promoted` (KNIGHT..QUEEN) and captured a
//                               `captured` (0 = nothing, PAWN..QUEEN)
//        A captured piece belongs to the side not moving.
//   2. always. For each of the 12 kinds (W_PAWN..W_KING, B_PAWN..B_KING): one bit per square
//      of the kind's ply-0 squares, lowest square first: 1 = occupied by the kind in every
//      position of the main line.
//   3. home pawns. The candidates are the home squares (rank 2 for White, rank 7 for Black)
//      holding that side's pawn at ply 0 but not "always", listed White a..h, then Black
//      a..h. For each of them, in order of departure: bits(index into the candidates not yet
//      listed, width_for(count left)), gamma(departure ply - previous departure ply), the
//      previous being 0 at first. (Two home pawns never leave at the same ply.)
//   4. ever. For each kind: gamma(n + 1), n = number of squares the kind occupied on the main
//      line besides its ply-0 squares, then their positions in the kind's square order
//      (square_order.h) as gaps: gamma(first index + 1), gamma(next index - previous), ...
//   5. final position. For each kind, with m = its count in the final material (1 for kings)
//      and the n squares of ever[kind] in ascending order: nothing if m = 0 or m = n;
//      bits(index of the square, width_for(n)) if m = 1; otherwise n bits, 1 = occupied.
//
// decode() checks all of the above and that the bytes end exactly after the padding, and
// throws CorruptSignature otherwise.
//
// Size: 81.0 bytes per game on average over players-344k (header 8.8 of which byte 5 1.0
// and castling plies 1.7, timeline 12.0, always 4.0, home pawns 10.7, ever 38.3, final
// position 6.6, padding 0.5; version 2 took 78.3); an empty game from the standard start
// takes 13 bytes.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "chess/types.h"
#include "index/material_key.h"

namespace sig {

/// Version of the encoding above; stored in the LMDB meta sub-db ("signature_format_version")
/// and checked on open. Bump on any change; `cqldb reindex` rewrites old signatures.
inline constexpr uint32_t kSignatureFormatVersion = 3;

/// The full-move number of main-line ply `ply` of a game whose ply 0 has
/// Position::game_ply() `start_game_ply` (Signature::start_game_ply): 1 + (g + p) / 2.
constexpr int64_t full_move_number(uint32_t start_game_ply, uint32_t ply) {
  return 1 + (int64_t(start_game_ply) + ply) / 2;
}

/// Check counts saturate at this value.
inline constexpr uint8_t kMaxChecks = 15;

/// Bits of byte 0 of an encoded signature.
enum SignatureByteFlags : uint8_t {
  kByteStartFen = 1 << 0,      ///< ply 0 is a FEN position (its block follows the header)
  kByteChess960 = 1 << 1,      ///< the game is Chess960
  kByteVariations = 1 << 2,    ///< the record has variations
  kByteNullMoves = 1 << 3,     ///< the main line has a null move
  kByteEnPassant = 1 << 4,     ///< an en-passant capture was played
  kByteFinalCheck = 1 << 5,    ///< the side to move is in check at the final position
  kByteFinalNoMoves = 1 << 6,  ///< the side to move has no legal move at the final position
  kByteBlackStarts = 1 << 7,   ///< Black is to move at ply 0
};

/// The bytes given to decode() are not a valid signature. what() names the section and the
/// problem, e.g. "corrupt signature: material timeline: a capture of a black queen, which
/// is not on the board".
class CorruptSignature : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A run of consecutive main-line positions with the same material. The runs of a game are
/// in ply order and cover plies 0..N without gaps; no two have the same key (material only
/// ever shrinks: a capture removes a piece, a promotion turns a pawn into a piece).
struct MaterialRun {
  MaterialKey key;         ///< the material of every position of the run
  uint32_t first_ply = 0;  ///< first position of the run
  uint32_t last_ply = 0;   ///< last position of the run (inclusive)

  bool operator==(const MaterialRun&) const = default;
};

/// The decoded summary of a game's main line. What the planner may conclude from each field
/// is written next to it; every conclusion is about main-line positions only.
struct Signature {
  using Boards = std::array<chess::Bitboard, chess::PIECE_NB>;  ///< one bitboard per Piece

  /// Main-line plies N; the main line has positions 0..N. A position with ply > N does not
  /// exist, so `:movenumber`/`:halfmovenumber`-style conditions test against it.
  uint32_t plies = 0;
  /// Position::game_ply() of ply 0: 0 for the standard start, from the FEN's move number
  /// otherwise. Position p has game ply start_game_ply + p.
  uint32_t start_game_ply = 0;
  /// The side to move at ply 0 (White for the standard start).
  chess::Color start_side = chess::WHITE;

  bool start_fen = false;  ///< ply 0 is a FEN position (the record has a start FEN)
  bool chess960 = false;   ///< the game is Chess960
  /// The record has variations. The signature describes the main line only, so a query that
  /// looks into variations (`:variations`) must not be pruned by it for such a game.
  bool has_variations = false;
  /// The main line has a null move ("--"). Then a checkmate or stalemate position may occur
  /// before the final position; without null moves only the final position can be one.
  bool null_moves = false;
  bool en_passant = false;      ///< an en-passant capture was played on the main line
  bool final_check = false;     ///< the side to move is in check at the final position
  bool final_no_moves = false;  ///< the side to move has no legal move at the final position
  /// CastlingRight bits of the castlings played on the main line (WHITE_OO: White castled
  /// king side, ...). Chess960 castlings count by the side of the rook.
  uint8_t castlings = 0;
  /// castling_plies[b] = the ply from which the castling of CastlingRight bit b (0..3) was
  /// played (the move from that ply to the next), when castlings has bit b; 0 otherwise. A
  /// side castles at most once (castling removes its rights), so this is exact:
  /// `:iscastling` with right b can hold only at ply castling_plies[b].
  std::array<uint32_t, 4> castling_plies{};
  /// Bit c set: some main-line position has side c to move and in double check (two or
  /// more checkers; the `:doublecheck` positions).
  uint8_t double_checks = 0;
  /// Promotions played on the main line: bit 4 * colour + (type - KNIGHT), e.g. bit 3 =
  /// White promoted to a queen, bit 4 = Black promoted to a knight. Derived from the
  /// material timeline (every promotion changes the material).
  uint8_t promotions = 0;
  /// checks[c] = number of main-line positions in which side c is to move and in check,
  /// capped at kMaxChecks (so kMaxChecks means "at least kMaxChecks").
  std::array<uint8_t, chess::COLOR_NB> checks{};

  /// The material timeline: runs of equal material in ply order (see MaterialRun). The
  /// material of ply p is that of the run with first_ply <= p <= last_ply.
  std::vector<MaterialRun> material;

  /// start[pc] = squares of piece `pc` at ply 0.
  Boards start{};
  /// ever[pc] = squares piece `pc` occupied in at least one main-line position (ever[pc]
  /// contains start[pc] and final[pc]). A query needing `pc` on square s in some main-line
  /// position can match only if s is in ever[pc].
  Boards ever{};
  /// always[pc] = squares piece `pc` occupied in every main-line position (a subset of
  /// start[pc] and of final[pc]). A query needing s empty or held by something else than
  /// `pc` cannot match on the main line if s is in always[pc].
  Boards always{};
  /// final[pc] = squares of piece `pc` at ply N (the final position, exactly).
  Boards final{};

  /// Pawn-structure history: home_pawn_until[c][f] is the first ply at which side c has no
  /// pawn on its home square of file f (rank 2 for White, rank 7 for Black); 0 when there
  /// was none at ply 0 and N + 1 when the pawn never left. Pawns cannot come back to their
  /// home rank, so "c has a pawn on its home square of file f at ply p" holds exactly for
  /// p < home_pawn_until[c][f].
  ///
  /// With ever[] this rules out pawn placements as follows:
  ///   - a pawn of side c on square s at any ply: only if s is in ever[c pawn];
  ///   - a pawn of side c on its home square of file f at ply p: only if
  ///     p < home_pawn_until[c][f] (exact), so e.g. "all of White's home pawns still
  ///     home" ends at the first departure;
  ///   - a pawn of side c on file f on relative rank r or beyond: only if
  ///     most_advanced_rank(c, f) >= r;
  ///   - any pawn placement in the final position: decided exactly by final[].
  std::array<std::array<uint32_t, 8>, chess::COLOR_NB> home_pawn_until{};

  /// Side to move at the final position.
  chess::Color final_side() const { return chess::Color(start_side ^ (plies & 1)); }
  /// The final position is checkmate.
  bool final_mate() const { return final_check && final_no_moves; }
  /// The final position is stalemate.
  bool final_stalemate() const { return !final_check && final_no_moves; }
  /// True if side `c` promoted to type `pt` (KNIGHT..QUEEN) on the main line.
  bool promoted(chess::Color c, chess::PieceType pt) const {
    return promotions & (1u << (4 * c + pt - chess::KNIGHT));
  }
  /// True if some main-line position has side `c` to move and in double check.
  bool double_check(chess::Color c) const { return double_checks >> c & 1; }
  /// True if some side promoted to a knight, bishop or rook on the main line.
  bool under_promotion() const { return (promotions & 0x77) != 0; }
  /// The material run holding ply `p` (p <= plies; binary search).
  const MaterialRun& run_at(uint32_t p) const;
  /// The most advanced relative rank (RANK_2..RANK_7; RANK_1 = never) a pawn of side `c`
  /// reached on file `f` on the main line, from ever[].
  chess::Rank most_advanced_rank(chess::Color c, chess::File f) const;

  /// Resets every field to its default (zero: no runs, empty boards), keeping the
  /// timeline's capacity.
  void clear();
  /// Field-by-field equality.
  bool operator==(const Signature&) const = default;
};

/// The fixed-place part of an encoded signature (bytes 0-5, the plies, the castling plies and
/// start_game_ply),
/// read by read_summary() without decoding the bit stream: the planner's cheap first test
/// (planner::Condition::holds_summary). Everything in it is about the main line.
struct Summary {
  uint8_t flags = 0;           ///< byte 0 (SignatureByteFlags)
  uint8_t castlings = 0;       ///< Signature::castlings
  /// Bit (type - KNIGHT) set when some side promoted to `type` (KNIGHT..QUEEN); the colour
  /// is only in the material timeline.
  uint8_t promoted_types = 0;
  std::array<uint8_t, chess::COLOR_NB> checks{};  ///< Signature::checks
  std::array<uint32_t, 4> castling_plies{};       ///< Signature::castling_plies
  uint8_t double_checks = 0;                      ///< Signature::double_checks (byte 5)
  /// Lower bounds of each kind's count over every main-line position, capped (pawns, rooks
  /// and bishops at 3, queens and knights at 1): count(c, t) of the material at any ply
  /// >= min_material.count(c, t). Kinds are bounded separately.
  MaterialKey min_material;
  uint32_t plies = 0;           ///< Signature::plies
  uint32_t start_game_ply = 0;  ///< Signature::start_game_ply

  bool null_moves() const { return flags & kByteNullMoves; }
  /// True if some main-line position has side `c` to move and in double check.
  bool double_check(chess::Color c) const { return double_checks >> c & 1; }
  bool final_mate() const { return (flags & kByteFinalCheck) && (flags & kByteFinalNoMoves); }
  bool final_stalemate() const { return !(flags & kByteFinalCheck) && (flags & kByteFinalNoMoves); }
  /// Side to move at the final position.
  chess::Color final_side() const {
    return chess::Color(((flags & kByteBlackStarts) ? 1 : 0) ^ (plies & 1));
  }
  bool operator==(const Summary&) const = default;
};

/// The Summary that encode() writes for `s`.
Summary summarize(const Signature& s);
/// Reads the Summary of an encoded signature (only its first bytes; the rest is not
/// checked). Returns false when the bytes are too short or a varint is bad.
bool read_summary(std::string_view bytes, Summary& out);

/// Appends the encoding of `s` (layout above) to `out`. Throws std::invalid_argument when
/// `s` is not consistent (timeline not contiguous from ply 0 to plies, two consecutive runs
/// not one capture and/or promotion apart, ever/always/final/start not nested, counts not
/// matching), which only a programming error can produce.
void encode(const Signature& s, std::string& out);

/// How much of a signature decode() reads. Sections are read in layout order, so a
/// narrower scope is cheaper: on players-344k about 0.02 us per game for kHeader, 0.15 us
/// for kMaterial and 0.9 us for kAll (one core of the 2-core test machine); read_summary()
/// is cheaper still. kMaterial and kAll also check the Summary bytes against the timeline.
enum class DecodeScope : uint8_t {
  kHeader,    ///< bytes 0-2 and 5, plies, castling plies and the start position: flags,
              ///< castlings, castling_plies, checks, double_checks, plies, start_game_ply,
              ///< start_side, start
  kMaterial,  ///< also the material timeline and the promotions derived from it
  kAll,       ///< every field
};

/// Decodes an encoded signature. Throws CorruptSignature for anything that is not a valid
/// encoding (truncated, trailing bytes, impossible material changes, ...).
Signature decode(std::string_view bytes);
/// Same, into `out`, reusing its timeline storage (no allocation once it has grown). With a
/// narrower `scope` only the sections it names are read and validated; the other fields
/// keep the values Signature::clear() gives them.
void decode(std::string_view bytes, Signature& out, DecodeScope scope = DecodeScope::kAll);

}  // namespace sig
