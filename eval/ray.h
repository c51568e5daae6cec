// Rays: :ray, :rayattack, :raydiagonal, :rayorthogonal, :rayhorizontal, :rayvertical
// (seed 004 ":ray"; CQL-Position-List "position:ray" .. "position:rayvertical").
//
// Definition implemented (seed 004): a ray is a contiguous run of squares S1, S2, ..., Sn on
// one rank, file or diagonal. It is valid for the ray specifier (G1, ..., Gk), k >= 2, if G1
// matches S1, Gk matches Sn, and G2..G(k-1) can be paired, in order, with some of the squares
// S2..S(n-1) so that each matches its square and every unpaired square is empty. So n >= k,
// consecutive designators may stand on adjacent squares, and a `.` designator may take an
// empty square (`(K . . k)`: the kings with at least two empty squares between them).
// "G matches a square" means the square is in G's square set and its content (piece or
// emptiness) is one of G's kinds: the caller passes, per designator, the set of squares it
// matches in the position.
//
// Counting (a cqldb decision, see ray_count): a ray is a set of squares; it counts once when
// it is valid read in either direction, so `:ray (Q Q)` with two queens facing each other
// counts 1, and `(Q n k)` counts one ray per pinned knight.
// :rayattack (seed 004): only orthogonal rays whose first square S1 holds a rook or queen, and
// only diagonal rays whose S1 holds a bishop or queen, of either colour.
#pragma once

#include <cstdint>
#include <span>

#include "chess/position.h"
#include "chess/types.h"
#include "eval/piece_mask.h"

namespace eval {

/// A set of the 8 compass directions a ray may run in (from S1 towards Sn).
using RayDirections = uint8_t;

namespace ray_dir {
inline constexpr RayDirections kNorth = 1u << 0;      ///< towards rank 8
inline constexpr RayDirections kSouth = 1u << 1;      ///< towards rank 1
inline constexpr RayDirections kEast = 1u << 2;       ///< towards the h-file
inline constexpr RayDirections kWest = 1u << 3;       ///< towards the a-file
inline constexpr RayDirections kNorthEast = 1u << 4;  ///< a1 -> h8
inline constexpr RayDirections kSouthWest = 1u << 5;  ///< h8 -> a1
inline constexpr RayDirections kNorthWest = 1u << 6;  ///< h1 -> a8
inline constexpr RayDirections kSouthEast = 1u << 7;  ///< a8 -> h1

inline constexpr RayDirections kVertical = kNorth | kSouth;            ///< :rayvertical
inline constexpr RayDirections kHorizontal = kEast | kWest;            ///< :rayhorizontal
inline constexpr RayDirections kOrthogonal = kVertical | kHorizontal;  ///< :rayorthogonal
inline constexpr RayDirections kDiagonal =
    kNorthEast | kSouthWest | kNorthWest | kSouthEast;          ///< :raydiagonal
inline constexpr RayDirections kAll = kOrthogonal | kDiagonal;  ///< :ray, :rayattack
}  // namespace ray_dir

/// Which rays a ray keyword looks at.
struct RayFilter {
  RayDirections directions = ray_dir::kAll;  ///< allowed directions (closed under reversal)
  bool attack = false;  ///< :rayattack: S1 must hold a slider moving along the ray (R/Q or B/Q)
};

/// The filter of each ray keyword.
namespace ray_filter {
inline constexpr RayFilter kRay{ray_dir::kAll, false};
inline constexpr RayFilter kRayAttack{ray_dir::kAll, true};
inline constexpr RayFilter kRayDiagonal{ray_dir::kDiagonal, false};
inline constexpr RayFilter kRayOrthogonal{ray_dir::kOrthogonal, false};
inline constexpr RayFilter kRayHorizontal{ray_dir::kHorizontal, false};
inline constexpr RayFilter kRayVertical{ray_dir::kVertical, false};
}  // namespace ray_filter

/// Largest number of designators in a ray specifier (a longer ray cannot fit on the board
/// anyway: at most 8 squares).
inline constexpr size_t kMaxRaySteps = 8;

/// One designator of a ray specifier: piece kinds (with `.` for empty) on a set of squares.
struct RayStep {
  PieceMask pieces = 0;                           ///< kinds that match (layout in cql/pieces.h)
  chess::Bitboard squares = ~chess::Bitboard(0);  ///< where they must stand
};

/// Number of valid rays in `pos` for a ray specifier given as, per designator G1..Gk, the
/// set of squares G_i matches in this position (bit s = square s). Each valid ray counts
/// once whichever direction validates it (see the header comment). Returns 0 when fewer than
/// 2 or more than kMaxRaySteps designators are given (no ray can be valid then).
/// Allocation-free; at most 64 starts x 8 directions x 7 steps.
int ray_count(const chess::Position& pos, std::span<const chess::Bitboard> step_matches,
              RayFilter filter);

/// ray_count() with designators given as piece mask + square set; the matching squares are
/// squares_of(pos, pieces) & squares. For designators with extra conditions (promoted
/// pieces, tags) compute the match sets yourself and call the overload above.
int ray_count(const chess::Position& pos, std::span<const RayStep> steps, RayFilter filter);

/// True if at least one ray is valid (the default range of :ray, ">= 1").
inline bool ray_matches(const chess::Position& pos, std::span<const RayStep> steps,
                        RayFilter filter) {
  return ray_count(pos, steps, filter) > 0;
}

}  // namespace eval
