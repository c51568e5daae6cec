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
  // (count, move), reused: a segment has millions of groups.
  thread_local std::vector<std::pair<uint32_t, uint16_t>> table;
  table.clear();
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

namespace {

void set_entry(GroupEntry& e, uint32_t game, bool known) { e = {game, 0, known}; }
void set_entry(PositionHit& e, uint32_t game, bool known) { e = {game, chess::Move::none(), known}; }
void set_move(GroupEntry& e, uint16_t move) { e.move = move; }
void set_move(PositionHit& e, uint16_t move) { e.next = chess::Move(move); }

/// decode_entries() for either entry type: game deltas, known flags, move table, move
/// indexes, each section read in bulk (BitIn::rice_each, BitIn::bits_each).
template <class Entry>
bool decode_entries_into(BitIn& in, const GroupHead& h, const SegmentCoding& c, Entry* out) {
  const uint64_t n = h.count, games = uint64_t(c.last - c.first) + 1;
  uint64_t game = h.first_game;
  set_entry(out[0], uint32_t(c.first + game), h.all_known);
  if (n == 1) return !in.failed();
  bool bad = false;
  Entry* next = out + 1;
  in.rice_each(c.game_rice(n), n - 1, [&](uint64_t delta) {
    game += delta;
    bad |= game >= games;
    set_entry(*next++, uint32_t(c.first + game), h.all_known);
  });
  if (bad || in.failed()) return false;
  if (!h.has_low) return true;
  uint64_t known = n;
  if (!h.all_known) {
    known = 0;
    Entry* e = out;
    in.bits_each(1, n, [&](uint64_t bit) {
      e++->known = bit != 0;
      known += bit;
    });
    if (in.failed() || known == 0) return false;
  }
  const uint64_t d = in.gamma();
  if (in.failed() || d > known || d == 0) return false;
  uint16_t moves[64];
  std::vector<uint16_t> many;
  uint16_t* table = moves;
  if (d > 64) {
    many.resize(d);
    table = many.data();
  }
  for (uint64_t i = 0; i < d; ++i) table[i] = uint16_t(in.bits(16));
  Entry* e = out;
  in.bits_each(width_for(d), known, [&](uint64_t index) {
    while (!e->known) ++e;  // `known` entries are known: stays within out[0..n)
    bad |= index >= d;
    set_move(*e++, table[index < d ? index : 0]);
  });
  return !bad && !in.failed();
}

}  // namespace

bool decode_head(BitIn& in, GroupHead& h, uint64_t prev_top, const SegmentCoding& c) {
  const uint64_t delta = in.rice(c.key_rice);
  const uint64_t top_limit = kTopKeyBits >= 64 ? ~uint64_t(0) : (uint64_t(1) << kTopKeyBits) - 1;
  if (in.failed() || delta > top_limit - prev_top) return false;
  h.top = prev_top + delta;
  h.count = in.gamma();
  const uint64_t games = uint64_t(c.last - c.first) + 1;
  if (in.failed() || h.count > games * (kIndexedPlies + 1)) return false;
  h.first_game = in.bits(c.game_bits());
  if (h.first_game >= games) return false;
  h.has_low = h.all_known = false;
  h.low = 0;
  if (h.count == 1) return !in.failed();
  h.has_low = in.bits(1) != 0;
  if (h.has_low) {
    h.all_known = in.bits(1) != 0;
    h.low = in.bits(kLowKeyBits);
  }
  return !in.failed();
}

bool decode_entries(BitIn& in, const GroupHead& h, const SegmentCoding& c, GroupEntry* out) {
  return decode_entries_into(in, h, c, out);
}

bool decode_entries(BitIn& in, const GroupHead& h, const SegmentCoding& c, PositionHit* out) {
  return decode_entries_into(in, h, c, out);
}

bool decode_group(BitIn& in, Group& g, uint64_t prev_top, const SegmentCoding& c) {
  GroupHead h;
  if (!decode_head(in, h, prev_top, c)) return false;
  g.top = h.top;
  g.has_low = h.has_low;
  g.low = h.low;
  g.entries.resize(h.count);
  return decode_entries(in, h, c, g.entries.data());
}

}  // namespace posindex::format
