// The group codec of position index blocks (position_index_format.h, layout in
// position_index.h).
#include <algorithm>

#include "index/position_index_format.h"

namespace posindex::format {

namespace {

/// Plain bits needed for an index below `n` (0 for n <= 1).
unsigned width_for(uint64_t n) { return n <= 1 ? 0 : unsigned(std::bit_width(n - 1)); }

}  // namespace

void encode_group(BitOut& out, const Group& g, uint64_t prev_top, const SegmentCoding& c) {
  const size_t n = g.entries.size();
  out.rice(g.top - prev_top, c.key_rice);
  out.gamma(n);
  out.bits(g.entries[0].game - c.first, c.game_bits());
  if (n == 1) return;  // a singleton: neither low bits nor move
  size_t known = 0;
  for (const GroupEntry& e : g.entries) known += e.known;
  const bool has_low = g.has_low && known > 0;
  out.bits(has_low, 1);
  if (has_low) {
    out.bits(known == n, 1);
    out.bits(g.low, kLowKeyBits);
  }
  const unsigned k = c.game_rice(n);
  for (size_t i = 1; i < n; ++i) out.rice(g.entries[i].game - g.entries[i - 1].game, k);
  if (!has_low) return;
  if (known != n)
    for (const GroupEntry& e : g.entries) out.bits(e.known, 1);
  // The distinct moves, most played first, then each known entry's index among them.
  std::vector<std::pair<uint32_t, uint16_t>> table;  // (-count as unsigned order, move)
  for (const GroupEntry& e : g.entries) {
    if (!e.known) continue;
    auto it = std::find_if(table.begin(), table.end(), [&](const auto& t) { return t.second == e.move; });
    if (it == table.end()) table.emplace_back(1, e.move);
    else ++it->first;
  }
  std::stable_sort(table.begin(), table.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  out.gamma(table.size());
  for (const auto& t : table) out.bits(t.second, 16);
  const unsigned width = width_for(table.size());
  if (width == 0) return;
  for (const GroupEntry& e : g.entries) {
    if (!e.known) continue;
    const size_t index = size_t(std::find_if(table.begin(), table.end(), [&](const auto& t) { return t.second == e.move; }) -
                                table.begin());
    out.bits(index, width);
  }
}

bool decode_group(BitIn& in, Group& g, uint64_t prev_top, const SegmentCoding& c) {
  const uint64_t delta = in.rice(c.key_rice);
  const uint64_t top_limit = kTopKeyBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << kTopKeyBits) - 1;
  if (in.failed() || delta > top_limit - prev_top) return false;
  g.top = prev_top + delta;
  const uint64_t n = in.gamma();
  const uint64_t games = uint64_t(c.last - c.first) + 1;
  if (in.failed() || n > games * (kIndexedPlies + 1)) return false;
  g.entries.resize(n);
  uint64_t game = in.bits(c.game_bits());
  if (game >= games) return false;
  g.entries[0] = {uint32_t(c.first + game), 0, false};
  g.has_low = false;
  g.low = 0;
  if (n == 1) return !in.failed();
  g.has_low = in.bits(1) != 0;
  bool all_known = false;
  if (g.has_low) {
    all_known = in.bits(1) != 0;
    g.low = in.bits(kLowKeyBits);
  }
  g.entries[0].known = all_known;
  const unsigned k = c.game_rice(n);
  for (uint64_t i = 1; i < n; ++i) {
    game += in.rice(k);
    if (game >= games) return false;
    g.entries[i] = {uint32_t(c.first + game), 0, all_known};
  }
  if (in.failed()) return false;
  if (!g.has_low) return true;
  uint64_t known = n;
  if (!all_known) {
    known = 0;
    for (GroupEntry& e : g.entries) known += (e.known = in.bits(1) != 0);
    if (known == 0) return false;
  }
  const uint64_t d = in.gamma();
  if (in.failed() || d > known) return false;
  uint16_t moves[64];
  std::vector<uint16_t> many;
  uint16_t* table = moves;
  if (d > 64) {
    many.resize(d);
    table = many.data();
  }
  for (uint64_t i = 0; i < d; ++i) table[i] = uint16_t(in.bits(16));
  const unsigned width = width_for(d);
  for (GroupEntry& e : g.entries) {
    if (!e.known) continue;
    const uint64_t index = in.bits(width);
    if (index >= d) return false;
    e.move = table[index];
  }
  return !in.failed();
}

}  // namespace posindex::format
