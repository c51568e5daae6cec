// planner::material_of (planner/material.h): the nibble-sum shortcut for plain counts equals
// the count kind by kind, for every piece mask on materials of real games.
#include <gtest/gtest.h>

#include <random>

#include "planner/material.h"

namespace {

int64_t count_kind_by_kind(const sig::MaterialKey& key, uint32_t mask) {
  int64_t n = 0;
  for (int i = 0; i < 12; ++i) {
    if (!(mask >> i & 1)) continue;
    const chess::PieceType pt = planner::kPieceTypeOfBit[i % 6];
    n += pt == chess::KING ? 1 : key.count(chess::Color(i / 6), pt);
  }
  return n;
}

TEST(MaterialOf, PlainCountsEqualTheCountKindByKind) {
  std::mt19937_64 rng(7);
  std::vector<sig::MaterialKey> keys = {sig::MaterialKey::standard_start(), sig::MaterialKey()};
  for (int k = 0; k < 200; ++k) {  // random materials, up to 15 of a kind (the nibble's limit)
    sig::MaterialKey key;
    for (int c = 0; c < 2; ++c)
      for (int pt = chess::PAWN; pt <= chess::QUEEN; ++pt)
        for (int n = int(rng() % 16); n > 0; --n) key.add(chess::Color(c), chess::PieceType(pt));
    keys.push_back(key);
  }
  for (const sig::MaterialKey& key : keys)
    for (uint32_t mask = 0; mask < 4096; ++mask)
      ASSERT_EQ(planner::material_of(key, mask, false), count_kind_by_kind(key, mask)) << key.bits() << " " << mask;
}

}  // namespace
