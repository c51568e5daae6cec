#include "index/postings.h"

#include <roaring/roaring.hh>

#include <algorithm>
#include <functional>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "db/database.h"
#include "db/file_mapping.h"
#include "index/postings_format.h"

namespace sig {

using namespace format;

// ---- GameSet ---------------------------------------------------------------------------

GameSet::GameSet() : r_(std::make_unique<::Roaring>()) {}
GameSet::~GameSet() = default;
GameSet::GameSet(const GameSet& o) : r_(std::make_unique<::Roaring>(*o.r_)) {}
GameSet::GameSet(GameSet&& o) noexcept : r_(std::move(o.r_)) {}
GameSet& GameSet::operator=(const GameSet& o) {
  if (this != &o) r_ = std::make_unique<::Roaring>(*o.r_);
  return *this;
}
GameSet& GameSet::operator=(GameSet&& o) noexcept {
  r_ = std::move(o.r_);
  return *this;
}
void GameSet::add(uint32_t id) { r_->add(id); }
void GameSet::add_many(const std::vector<uint32_t>& ids) { add_many(ids.data(), ids.size()); }
void GameSet::add_many(const uint32_t* ids, size_t n) {
  if (n) r_->addMany(n, ids);
}
void GameSet::add_range(uint32_t first, uint32_t last) {
  if (first <= last) r_->addRange(first, uint64_t(last) + 1);
}
bool GameSet::contains(uint32_t id) const { return r_->contains(id); }
uint64_t GameSet::size() const { return r_->cardinality(); }
GameSet& GameSet::operator&=(const GameSet& o) {
  *r_ &= *o.r_;
  return *this;
}
GameSet& GameSet::operator|=(const GameSet& o) {
  *r_ |= *o.r_;
  return *this;
}
GameSet GameSet::unite(const std::vector<const GameSet*>& sets) {
  GameSet out;
  if (sets.empty()) return out;
  if (sets.size() == 1) return *sets[0];
  std::vector<const ::Roaring*> in;
  in.reserve(sets.size());
  for (const GameSet* s : sets) in.push_back(s->r_.get());
  *out.r_ = ::Roaring::fastunion(in.size(), in.data());
  return out;
}
std::vector<uint32_t> GameSet::ids() const {
  std::vector<uint32_t> out(r_->cardinality());
  if (!out.empty()) r_->toUint32Array(out.data());
  return out;
}

// ---- Postings (read side) ----------------------------------------------------------------

std::filesystem::path segment_path(const std::filesystem::path& dir, uint32_t first) {
  return first <= 1 ? dir / kPostingsFile : dir / ("postings-" + std::to_string(first) + ".seg");
}

uint64_t postings_bytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name == kPostingsFile || (name.rfind("postings-", 0) == 0 && e.path().extension() == ".seg")) {
      std::error_code size_ec;
      const uintmax_t n = e.file_size(size_ec);
      if (!size_ec) total += n;
    }
  }
  return total;
}

std::optional<Postings::Segment> Postings::open_segment(const std::filesystem::path& path, uint32_t first) {
  auto map = std::make_shared<const Mapping>(path);
  if (!map->data()) return std::nullopt;
  const std::string_view b(map->data(), map->size());
  if (b.size() < kHeaderBytes || std::memcmp(b.data(), kMagic, 8) != 0) return std::nullopt;
  if (read_u32(b.data() + 8) != kPostingsFormatVersion || read_u32(b.data() + 12) != kSignatureFormatVersion)
    return std::nullopt;
  Segment seg;
  seg.last = read_u32(b.data() + 16);
  const uint32_t n = read_u32(b.data() + 20);
  seg.first = read_u32(b.data() + 24);
  if (seg.first != first || uint64_t(seg.last) + 1 < first || n > kKeySpace || b.size() < kHeaderBytes + size_t(n) * 12)
    return std::nullopt;
  seg.entries.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const char* e = b.data() + kHeaderBytes + size_t(i) * 12;
    Entry entry{read_u32(e), read_u32(e + 4), read_u32(e + 8)};
    if (entry.key >= kKeySpace || (entry.offset != kDenseOffset && size_t(entry.offset) + entry.length > b.size()) ||
        (i && entry.key <= seg.entries[i - 1].key))
      return std::nullopt;
    seg.entries[i] = entry;
  }
  seg.map = std::move(map);
  return seg;
}

std::optional<Postings> Postings::open(const std::filesystem::path& dir) {
  std::optional<Segment> base = open_segment(dir / kPostingsFile, 1);
  if (!base) return std::nullopt;
  Postings p;
  p.covered_ = base->last;
  p.segments_.push_back(std::move(*base));
  // An empty base (a database without games: last = 0) has no segments after it; a segment
  // that adds no game ends the chain too (issue 40: segment_path(dir, 1) is the base itself,
  // and reading it again and again ran out of memory).
  while (p.covered_ >= 1 && p.covered_ < UINT32_MAX) {
    std::optional<Segment> next = open_segment(segment_path(dir, p.covered_ + 1), p.covered_ + 1);
    if (!next || next->last <= p.covered_) break;
    p.covered_ = next->last;
    p.segments_.push_back(std::move(*next));
  }
  return p;
}

bool Postings::read(const Segment& seg, uint32_t key, bool& dense, GameSet& out) {
  auto it = std::lower_bound(seg.entries.begin(), seg.entries.end(), key,
                             [](const Entry& e, uint32_t k) { return e.key < k; });
  if (it == seg.entries.end() || it->key != key) return false;
  dense = it->offset == kDenseOffset;
  if (dense) return true;
  bool valid = false;
  try {
    *out.r_ = ::Roaring::readSafe(seg.map->data() + it->offset, it->length);
    // CRoaring 0.2's readSafe checks only byte bounds: a damaged container (values out of
    // order, an empty run container) deserializes, answers inconsistently and can crash an
    // intersection (issue 14, tests/fuzz/postings_fuzz.cpp). Its values must ascend, lie in
    // the segment and number its cardinality; the set is then rebuilt from them, so its
    // containers are well-formed.
    const std::vector<uint32_t> ids = out.ids();
    valid = ids.size() == out.size() &&
            std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end() &&
            (ids.empty() || (ids.front() >= seg.first && ids.back() <= seg.last));
    if (valid) *out.r_ = ::Roaring(ids.size(), ids.data());
  } catch (const std::exception&) {
  }
  if (!valid)
    throw std::runtime_error(segment_path("", seg.first).string() + ": posting " + std::to_string(key) +
                             " is damaged");
  return true;
}

const GameSet* Postings::find(uint32_t key) const {
  for (const auto& [k, set] : cache_)
    if (k == key) return set.get();
  auto set = std::make_shared<GameSet>();
  size_t dense_segments = 0;
  GameSet part;
  for (const Segment& seg : segments_) {
    bool dense = false;
    if (!read(seg, key, dense, part)) continue;
    if (dense) {
      ++dense_segments;
      set->add_range(seg.first, seg.last);
    } else if (segments_.size() == 1) {
      *set = std::move(part);
      part = GameSet();
    } else {
      *set |= part;
    }
  }
  if (dense_segments && dense_segments == segments_.size()) set.reset();
  cache_.emplace_back(key, set);
  return set.get();
}


}  // namespace sig
