// Position index: the read side and the frontier rule (see position_index.h).
#include "index/position_index.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "chess/bitboard.h"
#include "db/file_mapping.h"
#include "chess/position_key.h"
#include "index/position_index_format.h"

namespace posindex {

using namespace chess;

// ---- PositionIndex -------------------------------------------------------------------------

std::optional<PositionIndex> PositionIndex::open(const std::filesystem::path& dir) {
  Mapping manifest(dir / kManifestFile);
  const char* m = manifest.data();
  if (!m || manifest.size() < format::kManifestHeaderBytes || std::memcmp(m, format::kManifestMagic, 8) != 0 ||
      format::read_u32(m + 8) != kPositionIndexVersion || format::read_u32(m + 12) != kIndexedPlies)
    return std::nullopt;
  PositionIndex index;
  index.covered_ = format::read_u32(m + 16);
  const uint32_t count = format::read_u32(m + 20);
  if (manifest.size() != format::kManifestHeaderBytes + size_t(count) * 8) return std::nullopt;
  index.file_bytes_ = manifest.size();
  uint32_t expected_first = 1;
  for (uint32_t i = 0; i < count; ++i) {
    const uint32_t first = format::read_u32(m + format::kManifestHeaderBytes + 8 * i);
    const uint32_t last = format::read_u32(m + format::kManifestHeaderBytes + 8 * i + 4);
    if (first != expected_first || last < first || last > index.covered_) return std::nullopt;
    expected_first = last + 1;
    auto map = std::make_shared<const Mapping>(dir / format::segment_name(first, last));
    format::SegmentHeader h;
    if (!format::read_segment_header(map->data(), map->size(), first, last, h)) return std::nullopt;
    Segment seg;
    seg.header = h;
    index.file_bytes_ += map->size();
    seg.map = std::move(map);
    index.segments_.push_back(std::move(seg));
  }
  if (expected_first != index.covered_ + 1) return std::nullopt;
  auto facts = std::make_shared<const Mapping>(dir / kFactsFile);
  if (!facts->data() || facts->size() < format::kFactsHeaderBytes + size_t(index.covered_) * format::kFactsBytes ||
      std::memcmp(facts->data(), format::kFactsMagic, 8) != 0 ||
      format::read_u32(facts->data() + 8) != kPositionIndexVersion)
    return std::nullopt;
  index.file_bytes_ += facts->size();
  index.facts_ = std::move(facts);
  return index;
}

uint64_t PositionIndex::entries() const {
  uint64_t n = 0;
  for (const Segment& s : segments_) n += s.header.entries;
  return n;
}


namespace {

/// The order of lookup()'s hits within a segment: by game id, a game's known hits first.
bool by_game_known_first(const PositionHit& x, const PositionHit& y) {
  return x.game != y.game ? x.game < y.game : x.known > y.known;
}

/// Merges the sorted runs [first, mid) and [mid, last) as std::inplace_merge does (stable,
/// the left run first on ties). A right run much shorter than the left one (version 5: a
/// top's unknown group after the start position's group of every game) is copied aside and
/// put in from the back, the left run's elements moving in a few block moves.
void merge_runs(std::vector<PositionHit>::iterator first, std::vector<PositionHit>::iterator mid,
                std::vector<PositionHit>::iterator last, std::vector<PositionHit>& scratch) {
  if (last - mid > (mid - first) / 8) {
    std::inplace_merge(first, mid, last, by_game_known_first);
    return;
  }
  scratch.assign(mid, last);
  auto left_end = mid, write = last;
  for (auto j = scratch.end(); j != scratch.begin();) {
    --j;
    // The left run's elements after *j (strictly: a tie keeps the left one first) move right.
    const auto after = std::upper_bound(first, left_end, *j, by_game_known_first);
    write = std::move_backward(after, left_end, write);
    *--write = *j;
    left_end = after;
  }
}

}  // namespace

void PositionIndex::lookup(Key key, std::vector<PositionHit>& out) const {
  const uint64_t top = format::top_of(key), low = format::low_of(key);
  format::Group g;
  format::GroupHead head;
  std::vector<size_t> runs;
  std::vector<PositionHit> scratch;
  for (const Segment& seg : segments_) {
    const format::SegmentHeader& h = seg.header;
    const format::SegmentCoding coding = h.coding();
    const char* base = seg.map->data();
    // The first block whose first top is >= top; the one before may end with it.
    uint32_t lo = 0, hi = h.blocks;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (format::block_first_top(base, h, mid) < top) lo = mid + 1; else hi = mid;
    }
    runs.clear();        // where each group's hits begin (each run ascends by game)
    bool mixed = false;  // a group with known and unknown entries (an older merge) gave hits
    for (uint32_t b = lo ? lo - 1 : 0; b < h.blocks && format::block_first_top(base, h, b) <= top; ++b) {
      format::BlockSpan span;
      if (!format::block_span(base, h, b, span)) throw std::runtime_error("positions index: damaged block directory");
      format::BitIn in(span.begin, span.end);
      uint64_t prev = span.first_top;
      for (uint32_t i = 0; i < span.groups; ++i) {
        if (!format::decode_head(in, head, prev, coding))
          throw std::runtime_error("positions index: damaged block");
        prev = head.top;
        const size_t before = out.size();
        if (head.top == top && (!head.has_low || head.low == low)) {
          // Every entry is a hit (exact, or unknown): decode straight into `out`. Room for the
          // later segments' hits too, guessed from this segment's share of the games, so a
          // big group (the start position: every game) is not copied as `out` grows.
          if (out.capacity() < before + head.count) {
            const uint64_t games = uint64_t(h.last - h.first) + 1, rest = uint64_t(covered_ - h.first) + 1;
            out.reserve(before + size_t(head.count * rest / games) + head.count / 16);
          }
          out.resize(before + head.count);
          if (!format::decode_entries(in, head, coding, out.data() + before))
            throw std::runtime_error("positions index: damaged block");
          runs.push_back(before);
          mixed |= head.has_low && !head.all_known;
          continue;
        }
        g.entries.resize(head.count);
        if (!format::decode_entries(in, head, coding, g.entries.data()))
          throw std::runtime_error("positions index: damaged block");
        if (head.top < top) continue;
        if (head.top > top) break;
        for (const format::GroupEntry& e : g.entries)  // another position's group: its unknown entries
          if (!e.known) out.push_back({e.game, Move::none(), false});
        if (out.size() > before) {
          runs.push_back(before);
          mixed |= !head.all_known && head.has_low;
        }
      }
    }
    // Groups of one top hold different games: by game id, a game's known hits first. The
    // same order as a stable sort of the segment's hits, but in linear time: each group's
    // run is put in order (it already is, but for a game with known and unknown entries in
    // one merged group), then adjacent runs are merged, the left one first on ties. With 24
    // top bits the start position's group (every game) often shares its top with a
    // singleton: a stable sort of all its hits took 15 ms of a 3 ms lookup.
    // A run can be out of order only when its group mixed known and unknown entries (by
    // game, but known first within a game); version 5 writes no such group. The runs'
    // merges move the start position's 344,246 hits past a top's ~70 unknown ones with
    // block moves (merge_runs): a lookup of it took 5.8 ms with inplace_merge, 3.2 without.
    if (runs.size() > 1) {
      runs.push_back(out.size());
      if (mixed)
        for (size_t r = 0; r + 1 < runs.size(); ++r) {
          const auto b = out.begin() + std::ptrdiff_t(runs[r]), e = out.begin() + std::ptrdiff_t(runs[r + 1]);
          if (!std::is_sorted(b, e, by_game_known_first)) std::stable_sort(b, e, by_game_known_first);
        }
      for (size_t width = 1; width + 1 < runs.size(); width *= 2)
        for (size_t r = 0; r + width + 1 < runs.size(); r += 2 * width) {
          const size_t end = std::min(r + 2 * width, runs.size() - 1);
          merge_runs(out.begin() + std::ptrdiff_t(runs[r]), out.begin() + std::ptrdiff_t(runs[r + width]),
                     out.begin() + std::ptrdiff_t(runs[end]), scratch);
        }
    }
  }
}

std::string PositionIndex::verify() const {
  format::Group g;
  for (const Segment& seg : segments_) {
    const format::SegmentHeader& h = seg.header;
    const std::string name = format::segment_name(h.first, h.last);
    const char* base = seg.map->data();
    uint64_t entries = 0, groups = 0, previous_top = 0;
    bool previous_low = false;
    uint64_t previous_low_bits = 0;
    for (uint32_t b = 0; b < h.blocks; ++b) {
      format::BlockSpan span;
      if (!format::block_span(base, h, b, span) || span.groups == 0 || span.groups > kGroupsPerBlock ||
          span.first_top < previous_top)
        return name + ": block " + std::to_string(b) + " has a damaged directory entry";
      format::BitIn in(span.begin, span.end);
      uint64_t prev = span.first_top;
      for (uint32_t i = 0; i < span.groups; ++i) {
        const std::string where = name + ": block " + std::to_string(b) + " group " + std::to_string(i);
        if (!format::decode_group(in, g, prev, h.coding())) return where + " is damaged";
        if (g.top != previous_top) previous_low = false;
        if (g.has_low) {
          if (previous_low && g.low <= previous_low_bits) return where + ": low key bits out of order";
          previous_low = true;
          previous_low_bits = g.low;
        }
        for (size_t j = 1; j < g.entries.size(); ++j)
          if (g.entries[j].game < g.entries[j - 1].game) return where + ": game ids out of order";
        prev = previous_top = g.top;
        entries += g.entries.size();
        ++groups;
      }
      if (!in.at_clean_end()) return name + ": block " + std::to_string(b) + " has bits after its last group";
    }
    if (entries != h.entries || groups != h.groups)
      return name + ": " + std::to_string(entries) + " entries in " + std::to_string(groups) + " groups, the header says " +
             std::to_string(h.entries) + " in " + std::to_string(h.groups);
  }
  return "";
}

GameFacts PositionIndex::facts(uint32_t id) const {
  GameFacts f;
  if (id == 0 || id > covered_) return f;
  return format::decode_facts(facts_->data() + format::kFactsHeaderBytes + size_t(id - 1) * format::kFactsBytes);
}

std::vector<uint32_t> PositionIndex::candidates(const Position& pos, uint32_t game_count,
                                                std::vector<PositionHit>* first_hits) const {
  std::vector<PositionHit> hits;
  lookup(identity_key(pos), hits);
  // Per game its first hit: hits are by game id, a game's known ones first in ply order.
  hits.erase(std::unique(hits.begin(), hits.end(),
                         [](const PositionHit& x, const PositionHit& y) { return x.game == y.game; }),
             hits.end());
  const std::vector<PositionHit>& firsts = hits;
  const Frontier target = format::saturated_target(Frontier::of(pos));
  std::vector<uint32_t> out;
  out.reserve(firsts.size() + 16);
  size_t next = 0;
  const uint32_t indexed = std::min(covered_, game_count);
  const char* facts = facts_->data() + format::kFactsHeaderBytes;
  for (uint32_t id = 1; id <= indexed; ++id) {
    if (next < firsts.size() && firsts[next].game == id) {
      out.push_back(id);
      ++next;
      continue;
    }
    if (format::packed_may_reach_later(facts + size_t(id - 1) * format::kFactsBytes, target)) out.push_back(id);
  }
  for (uint32_t id = indexed + 1; id <= game_count; ++id) out.push_back(id);
  if (first_hits) {
    const auto end = std::upper_bound(hits.begin(), hits.end(), game_count,
                                      [](uint32_t id, const PositionHit& h) { return id < h.game; });
    hits.erase(end, hits.end());
    *first_hits = std::move(hits);
  }
  return out;
}

}  // namespace posindex
