// Position index v3, bulk group decoding (issue 18, lookup speed): BitIn::rice_each and
// BitIn::bits_each read the same values as one rice() or bits() call per value, whatever the
// bit alignment, near the end of the bytes and across escapes; a big group (every game of a
// segment, deltas of 1, like the start position) round-trips through decode_group and
// decode_entries into PositionHits, and a truncated one is reported as damaged.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "index/position_index.h"
#include "index/position_index_format.h"

namespace {

using posindex::PositionHit;
using posindex::format::BitIn;
using posindex::format::BitOut;
using posindex::format::Group;
using posindex::format::GroupEntry;
using posindex::format::GroupHead;
using posindex::format::SegmentCoding;

/// Values for Rice codes of parameter k: long runs of 1 and of 0, random small ones, and
/// some whose quotient needs the escape (kRiceEscape or more).
std::vector<uint64_t> rice_values(std::mt19937_64& rng, unsigned k) {
  std::vector<uint64_t> v;
  for (int run = 0; run < 40; ++run) {
    const int kind = int(rng() % 4);
    const size_t n = 1 + rng() % 300;
    for (size_t i = 0; i < n; ++i) {
      if (kind == 0) v.push_back(1);
      else if (kind == 1) v.push_back(0);
      else if (kind == 2) v.push_back(rng() % (uint64_t(4) << k));
      else v.push_back(i % 7 == 3 ? (uint64_t(posindex::format::kRiceEscape + rng() % 5000) << k) + rng() % 3 : 2);
    }
  }
  return v;
}

}  // namespace

TEST(PositionIndexBulk, RiceEachEqualsRiceOneByOne) {
  std::mt19937_64 rng(18);
  for (unsigned k : {0u, 1u, 3u, 7u, 15u, 31u}) {
    for (unsigned lead = 0; lead < 9; ++lead) {  // every bit alignment of the first code
      const std::vector<uint64_t> values = rice_values(rng, k);
      std::string bytes;
      BitOut out(bytes);
      out.bits(0x155, lead);
      for (uint64_t v : values) out.rice(v, k);
      out.bits(0x2D, 6);  // something after the codes
      out.flush();
      BitIn one(bytes.data(), bytes.data() + bytes.size()), bulk = one;
      one.bits(lead);
      bulk.bits(lead);
      std::vector<uint64_t> got;
      bulk.rice_each(k, values.size(), [&](uint64_t v) { got.push_back(v); });
      ASSERT_FALSE(bulk.failed()) << "k " << k << " lead " << lead;
      ASSERT_EQ(got, values) << "k " << k << " lead " << lead;
      for (uint64_t v : values) ASSERT_EQ(one.rice(k), v);
      EXPECT_EQ(bulk.bits(6), 0x2Du);
      EXPECT_TRUE(bulk.at_clean_end());
    }
  }
}

TEST(PositionIndexBulk, RiceEachStopsAtTheEnd) {
  std::string bytes;
  BitOut out(bytes);
  for (int i = 0; i < 100; ++i) out.rice(1, 0);
  out.flush();
  BitIn in(bytes.data(), bytes.data() + bytes.size());
  size_t calls = 0;
  in.rice_each(0, 1000, [&](uint64_t) { ++calls; });  // more codes than written
  EXPECT_TRUE(in.failed());
  EXPECT_LE(calls, 1000u);
  EXPECT_GE(calls, 100u);
}

TEST(PositionIndexBulk, BitsEachEqualsBitsOneByOne) {
  std::mt19937_64 rng(19);
  for (unsigned width : {0u, 1u, 3u, 5u, 8u, 13u, 16u, 31u, 32u, 33u, 64u}) {
    for (unsigned lead = 0; lead < 9; ++lead) {
      std::vector<uint64_t> values(1 + rng() % 700);
      for (uint64_t& v : values) v = width == 0 ? 0 : width >= 64 ? rng() : rng() & ((uint64_t(1) << width) - 1);
      std::string bytes;
      BitOut out(bytes);
      out.bits(0x0F, lead);
      for (uint64_t v : values) out.bits(v, width);
      out.flush();
      BitIn in(bytes.data(), bytes.data() + bytes.size());
      in.bits(lead);
      std::vector<uint64_t> got;
      in.bits_each(width, values.size(), [&](uint64_t v) { got.push_back(v); });
      ASSERT_FALSE(in.failed()) << "width " << width;
      ASSERT_EQ(got, values) << "width " << width << " lead " << lead;
      EXPECT_TRUE(in.at_clean_end());
    }
  }
}

// The shape of the start position's group: every game of the segment once (deltas of 1, Rice
// parameter 0), 20 distinct moves; then a group with gaps, escapes and unknown entries.
TEST(PositionIndexBulk, BigGroupsRoundTripIntoHits) {
  const SegmentCoding c{1, 262144, posindex::format::key_rice_for(1000000)};
  std::mt19937_64 rng(20);
  std::vector<Group> groups(2);
  groups[0].top = 12345;
  groups[0].has_low = true;
  groups[0].low = 0xABCDE & ((uint64_t(1) << posindex::format::kLowKeyBits) - 1);
  for (uint32_t game = c.first; game <= c.last; ++game)
    groups[0].entries.push_back({game, uint16_t(1 + rng() % 20), true});
  groups[1].top = 12345 + 99;
  groups[1].has_low = true;
  groups[1].low = 7;
  uint32_t game = c.first;
  for (int i = 0; i < 50000 && game < c.last; ++i) {
    groups[1].entries.push_back({game, 0, i % 3 != 1});
    if (groups[1].entries.back().known) groups[1].entries.back().move = uint16_t(rng() % 300);
    const uint64_t r = rng() % 10;
    game += r < 4 ? 0 : r < 8 ? 1 : r < 9 ? uint32_t(rng() % 40) : 3000;  // 3000: an escape
    if (game > c.last) game = c.last;
  }
  std::string bytes;
  BitOut out(bytes);
  for (const Group& g : groups) posindex::format::encode_group(out, g, groups[0].top, c);
  out.flush();

  BitIn as_groups(bytes.data(), bytes.data() + bytes.size()), as_hits = as_groups;
  for (const Group& expected : groups) {
    Group g;
    ASSERT_TRUE(posindex::format::decode_group(as_groups, g, groups[0].top, c));
    EXPECT_EQ(g.top, expected.top);
    EXPECT_EQ(g.low, expected.low);
    ASSERT_EQ(g.entries.size(), expected.entries.size());
    GroupHead head;
    ASSERT_TRUE(posindex::format::decode_head(as_hits, head, groups[0].top, c));
    ASSERT_EQ(head.count, expected.entries.size());
    EXPECT_EQ(head.all_known, &expected == &groups[0]);
    std::vector<PositionHit> hits(head.count);
    ASSERT_TRUE(posindex::format::decode_entries(as_hits, head, c, hits.data()));
    for (size_t j = 0; j < expected.entries.size(); ++j) {
      const GroupEntry& e = expected.entries[j];
      ASSERT_EQ(g.entries[j].game, e.game) << j;
      ASSERT_EQ(g.entries[j].known, e.known) << j;
      ASSERT_EQ(hits[j].game, e.game) << j;
      ASSERT_EQ(hits[j].known, e.known) << j;
      if (e.known) {
        ASSERT_EQ(g.entries[j].move, e.move) << j;
        ASSERT_EQ(hits[j].next.raw(), e.move) << j;
      } else {
        ASSERT_EQ(hits[j].next, chess::Move::none()) << j;
      }
    }
  }
  EXPECT_TRUE(as_groups.at_clean_end());
  EXPECT_TRUE(as_hits.at_clean_end());

  // Cut inside the big group's game deltas and inside its moves: reported, no overrun.
  for (size_t cut : {size_t(40), bytes.size() / 8, bytes.size() / 3}) {
    BitIn in(bytes.data(), bytes.data() + cut);
    Group g;
    EXPECT_FALSE(posindex::format::decode_group(in, g, groups[0].top, c)) << cut;
  }
}
