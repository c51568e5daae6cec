// MaterialKey: the material of a position (how many pawns, knights, bishops, rooks and queens
// each side has) packed into one integer, so that material tests are a shift and a mask.
#pragma once

#include <cassert>
#include <compare>
#include <cstdint>

#include "chess/position.h"
#include "chess/types.h"

namespace sig {

/// Counts of pawns, knights, bishops, rooks and queens per colour, 4 bits each (0..15):
///
///   bits 4*i .. 4*i+3, i = 5*colour + (type - PAWN):
///   i = 0 white pawns, 1 white knights, 2 white bishops, 3 white rooks, 4 white queens,
///       5 black pawns, ..., 9 black queens; bits 40-63 are 0.
///
/// Kings are not counted (every legal position has one per side). Legal positions never
/// exceed 10 of a kind (8 promotions plus the original 2), so the nibbles never overflow.
/// The packed value is stored as is in the material timeline (signature.h), so this layout
/// is part of kSignatureFormatVersion.
class MaterialKey {
 public:
  /// Bits of the key that can be set (10 nibbles).
  static constexpr uint64_t kValidBits = (uint64_t(1) << 40) - 1;

  /// No pieces besides the kings.
  constexpr MaterialKey() = default;
  /// The key with the packed value `bits` (only kValidBits may be set).
  constexpr explicit MaterialKey(uint64_t bits) : bits_(bits) { assert((bits & ~kValidBits) == 0); }

  /// The material of `pos`.
  static MaterialKey of(const chess::Position& pos) {
    MaterialKey key;
    for (chess::Color c : {chess::WHITE, chess::BLACK})
      for (int pt = chess::PAWN; pt <= chess::QUEEN; ++pt)
        key.bits_ |= uint64_t(pos.count(c, chess::PieceType(pt))) << shift(c, chess::PieceType(pt));
    return key;
  }

  /// The material of the standard start position (8 pawns, 2 knights, 2 bishops, 2 rooks,
  /// 1 queen a side).
  static constexpr MaterialKey standard_start() {
    constexpr uint64_t side = 8 | 2 << 4 | 2 << 8 | 2 << 12 | 1 << 16;
    return MaterialKey(side | side << 20);
  }

  /// Number of pieces of colour `c` and type `pt` (PAWN..QUEEN), 0..15.
  constexpr int count(chess::Color c, chess::PieceType pt) const {
    return int((bits_ >> shift(c, pt)) & 15);
  }
  /// Pawns, knights, bishops, rooks and queens of colour `c` together.
  constexpr int pieces(chess::Color c) const {
    int n = 0;
    for (int pt = chess::PAWN; pt <= chess::QUEEN; ++pt) n += count(c, chess::PieceType(pt));
    return n;
  }
  /// Adds one piece. Precondition: count(c, pt) < 15.
  constexpr void add(chess::Color c, chess::PieceType pt) {
    assert(count(c, pt) < 15);
    bits_ += uint64_t(1) << shift(c, pt);
  }
  /// Removes one piece. Precondition: count(c, pt) > 0.
  constexpr void remove(chess::Color c, chess::PieceType pt) {
    assert(count(c, pt) > 0);
    bits_ -= uint64_t(1) << shift(c, pt);
  }

  /// The packed value (layout above).
  constexpr uint64_t bits() const { return bits_; }
  constexpr bool operator==(const MaterialKey&) const = default;
  constexpr auto operator<=>(const MaterialKey&) const = default;

  /// Bit offset of the nibble of colour `c` and type `pt` (PAWN..QUEEN).
  static constexpr unsigned shift(chess::Color c, chess::PieceType pt) {
    assert(pt >= chess::PAWN && pt <= chess::QUEEN);
    return 4 * (5 * unsigned(c) + unsigned(pt) - chess::PAWN);
  }

 private:
  uint64_t bits_ = 0;  // the packed counts
};

}  // namespace sig
