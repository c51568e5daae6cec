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
    const char* s = map->data();
    if (!s || map->size() < format::kSegmentHeaderBytes || std::memcmp(s, format::kSegmentMagic, 8) != 0 ||
        format::read_u32(s + 8) != kPositionIndexVersion || format::read_u32(s + 12) != first ||
        format::read_u32(s + 16) != last)
      return std::nullopt;
    Segment seg;
    seg.first = first;
    seg.last = last;
    seg.blocks = format::read_u32(s + 20);
    seg.entries = format::read_u64(s + 24);
    if (map->size() < format::kSegmentHeaderBytes + size_t(seg.blocks) * format::kDirectoryEntryBytes)
      return std::nullopt;
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
  for (const Segment& s : segments_) n += s.entries;
  return n;
}

void PositionIndex::lookup(Key key, std::vector<PositionHit>& out) const {
  for (const Segment& seg : segments_) {
    const char* base = seg.map->data();
    const size_t size = seg.map->size();
    const char* dir = base + format::kSegmentHeaderBytes;
    auto first_key = [&](uint32_t b) { return format::read_u64(dir + size_t(b) * format::kDirectoryEntryBytes); };
    // The first block whose first key is >= key; the one before may end with the key.
    uint32_t lo = 0, hi = seg.blocks;
    while (lo < hi) {
      const uint32_t mid = lo + (hi - lo) / 2;
      if (first_key(mid) < key) lo = mid + 1; else hi = mid;
    }
    for (uint32_t b = lo ? lo - 1 : 0; b < seg.blocks && first_key(b) <= key; ++b) {
      const char* e = dir + size_t(b) * format::kDirectoryEntryBytes;
      const uint32_t offset = format::read_u32(e + 8), n = format::read_u32(e + 12);
      const uint32_t end = b + 1 < seg.blocks ? format::read_u32(e + format::kDirectoryEntryBytes + 8) : uint32_t(size);
      if (offset > end || end > size) throw std::runtime_error("positions index: damaged block directory");
      format::BlockReader reader(base + offset, base + end, first_key(b));
      format::Entry entry;
      for (uint32_t i = 0; i < n; ++i) {
        if (!reader.next(entry)) throw std::runtime_error("positions index: damaged block");
        if (entry.key > key) break;
        if (entry.key == key) out.push_back({entry.game, Move(entry.move)});
      }
    }
  }
}

std::string PositionIndex::verify() const {
  for (const Segment& seg : segments_) {
    const std::string name = format::segment_name(seg.first, seg.last);
    const char* base = seg.map->data();
    const size_t size = seg.map->size();
    const char* dir = base + format::kSegmentHeaderBytes;
    uint64_t entries = 0, previous_key = 0;
    for (uint32_t b = 0; b < seg.blocks; ++b) {
      const char* e = dir + size_t(b) * format::kDirectoryEntryBytes;
      const uint64_t first_key = format::read_u64(e);
      const uint32_t offset = format::read_u32(e + 8), n = format::read_u32(e + 12);
      const uint32_t end = b + 1 < seg.blocks ? format::read_u32(e + format::kDirectoryEntryBytes + 8) : uint32_t(size);
      if (offset > end || end > size || n == 0 || n > kEntriesPerBlock || first_key < previous_key)
        return name + ": block " + std::to_string(b) + " has a damaged directory entry";
      format::BlockReader reader(base + offset, base + end, first_key);
      format::Entry entry;
      for (uint32_t i = 0; i < n; ++i) {
        if (!reader.next(entry) || entry.key < previous_key || entry.game < seg.first || entry.game > seg.last)
          return name + ": block " + std::to_string(b) + " is damaged";
        previous_key = entry.key;
      }
      entries += n;
    }
    if (entries != seg.entries) return name + ": " + std::to_string(entries) + " entries, the header says " + std::to_string(seg.entries);
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
  // First occurrence per game (hits are by game id, then ply).
  std::vector<PositionHit> firsts;
  for (const PositionHit& h : hits)
    if (firsts.empty() || firsts.back().game != h.game) firsts.push_back(h);
  const Frontier target = Frontier::of(pos);
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
    if (format::decode_facts(facts + size_t(id - 1) * format::kFactsBytes).may_reach_later(target)) out.push_back(id);
  }
  for (uint32_t id = indexed + 1; id <= game_count; ++id) out.push_back(id);
  if (first_hits) {
    first_hits->clear();
    for (const PositionHit& h : firsts)
      if (h.game <= game_count) first_hits->push_back(h);
  }
  return out;
}

}  // namespace posindex
