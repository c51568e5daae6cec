// Ray matching for :ray and its variants; definitions in ray.h (seed 004 ":ray").
#include "eval/ray.h"

#include <array>

#include "chess/bitboard.h"

namespace eval {

namespace {

using chess::Bitboard;
using chess::Square;

struct Direction {
  int df, dr;         // file and rank step
  RayDirections bit;  // its ray_dir bit
  bool diagonal;
};

// Indexed so that the reverse of direction i is i ^ 1.
constexpr std::array<Direction, 8> kDirections = {{
    {0, 1, ray_dir::kNorth, false},
    {0, -1, ray_dir::kSouth, false},
    {1, 0, ray_dir::kEast, false},
    {-1, 0, ray_dir::kWest, false},
    {1, 1, ray_dir::kNorthEast, true},
    {-1, -1, ray_dir::kSouthWest, true},
    {-1, 1, ray_dir::kNorthWest, true},
    {1, -1, ray_dir::kSouthEast, true},
}};

/// The squares from `s` (exclusive) to the board's edge in each direction of kDirections.
struct DirectionRays {
  Bitboard ray[64][8];
  constexpr DirectionRays() : ray{} {
    for (int s = 0; s < 64; ++s)
      for (size_t d = 0; d < kDirections.size(); ++d)
        for (int f = s % 8 + kDirections[d].df, r = s / 8 + kDirections[d].dr;
             f >= 0 && f < 8 && r >= 0 && r < 8; f += kDirections[d].df, r += kDirections[d].dr)
          ray[s][d] |= Bitboard(1) << (8 * r + f);
  }
};
constexpr DirectionRays kRays;

// The squares Sn such that the ray from `start` in direction `dir` up to Sn is valid for
// the specifier whose match sets are m[0..k-1] (2 <= k <= kMaxRaySteps).
Bitboard valid_ends(const chess::Position& pos, std::span<const Bitboard> m, Square start,
                    const Direction& dir, bool attack) {
  if (!(m[0] & chess::square_bb(start))) return 0;
  if (attack) {
    const chess::PieceType pt = chess::type_of(pos.piece_on(start));
    const bool slides = pt == chess::QUEEN || pt == (dir.diagonal ? chess::BISHOP : chess::ROOK);
    if (!slides) return 0;
  }
  const size_t middle = m.size() - 2;  // designators G2..G(k-1)
  const Bitboard occupied = pos.pieces();
  // Bit j of `states`: the squares walked so far can be read with G2..G(j+1) paired and every
  // other square empty.
  unsigned states = 1;
  Bitboard ends = 0;
  int f = chess::file_of(start), r = chess::rank_of(start);
  while (true) {
    f += dir.df;
    r += dir.dr;
    if (f < 0 || f > 7 || r < 0 || r > 7) break;
    const Bitboard sq = chess::square_bb(chess::make_square(chess::File(f), chess::Rank(r)));
    if ((states >> middle) & 1 && (m[m.size() - 1] & sq)) ends |= sq;
    unsigned next = (occupied & sq) ? 0 : states;  // the square left unpaired: must be empty
    for (size_t j = 0; j < middle; ++j)
      if ((states >> j) & 1 && (m[j + 1] & sq)) next |= 1u << (j + 1);  // paired with G(j+2)
    states = next;
    if (!states) break;
  }
  return ends;
}

}  // namespace

int ray_count(const chess::Position& pos, std::span<const Bitboard> step_matches,
              RayFilter filter) {
  if (step_matches.size() < 2 || step_matches.size() > kMaxRaySteps) return 0;
  int count = 0;
  const Bitboard last = step_matches.back();
  for (Bitboard starts = step_matches[0]; starts;) {
    const Square start = chess::pop_lsb(starts);
    // A ray ends on a square in line with its start (cheap test before walking 8 directions).
    if (!(chess::pseudo_attacks_bb(chess::QUEEN, start) & last)) continue;
    for (size_t d = 0; d < kDirections.size(); ++d) {
      if (!(filter.directions & kDirections[d].bit)) continue;
      if (!(kRays.ray[start][d] & last)) continue;  // no end square that way
      for (Bitboard ends = valid_ends(pos, step_matches, start, kDirections[d], filter.attack);
           ends;) {
        const Square end = chess::pop_lsb(ends);
        // A ray valid in both directions is counted from its lower-numbered end only.
        const Direction& back = kDirections[d ^ 1];
        if (end < start && (filter.directions & back.bit) &&
            (valid_ends(pos, step_matches, end, back, filter.attack) & chess::square_bb(start)))
          continue;
        ++count;
      }
    }
  }
  return count;
}

int ray_count(const chess::Position& pos, std::span<const RayStep> steps, RayFilter filter) {
  if (steps.size() < 2 || steps.size() > kMaxRaySteps) return 0;
  std::array<Bitboard, kMaxRaySteps> matches{};
  for (size_t i = 0; i < steps.size(); ++i) {
    matches[i] = squares_of(pos, steps[i].pieces) & steps[i].squares;
    if (!matches[i]) return 0;  // a step no square matches: no ray
  }
  return ray_count(pos, std::span<const Bitboard>(matches.data(), steps.size()), filter);
}

}  // namespace eval
