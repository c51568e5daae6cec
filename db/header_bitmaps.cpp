#include "db/header_bitmaps.h"

#include <roaring/roaring.hh>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include <unistd.h>

#include "db/database.h"
#include "db/errors.h"
#include "db/file_mapping.h"
#include "db/game_header.h"
#include "db/game_reader.h"
#include "db/schema.h"
#include "db/segment_chain.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"

namespace db {

namespace {

constexpr char kMagic[8] = {'C', 'Q', 'L', 'H', 'B', 'M', 'P', '1'};
/// magic, version, first, last, column count, one entry count per column.
constexpr size_t kHeaderBytes = 8 + 4 * 4 + 4 * kHeaderColumns;
constexpr size_t kEntryBytes = 16;
constexpr const char* kSegmentPrefix = "header-bitmaps-";
/// The columns' names in check()'s findings, in HeaderColumn order.
constexpr const char* kColumnNames[kHeaderColumns] = {"year", "white Elo", "black Elo", "ECO", "white player",
                                                      "black player"};

uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian hosts only, as the posting files
}

/// FNV-1a (32 bits) of the column number, the 4 bytes of `value` and the `n` bytes at `p`:
/// the checksum of a bitmap and of the column and value it belongs to (one changed byte
/// always changes it).
uint32_t checksum(size_t column, int32_t value, const char* p, size_t n) {
  uint32_t h = (2166136261u ^ uint8_t(column)) * 16777619u;
  for (int i = 0; i < 4; ++i) h = (h ^ uint8_t(uint32_t(value) >> (8 * i))) * 16777619u;
  for (size_t i = 0; i < n; ++i) h = (h ^ uint8_t(p[i])) * 16777619u;
  return h;
}

void append_u32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

/// Writes `bytes` as `path` through a temporary file, fsync and rename.
void write_file(const std::filesystem::path& path, const std::string& bytes) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + tmp.string());
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0 &&
                  ::fsync(fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

/// The bytes of a segment of games first..last whose columns hold `bitmaps` (value ->
/// bitmap, per column).
std::string segment_bytes(uint32_t first, uint32_t last,
                          const std::array<std::map<int32_t, Roaring>, kHeaderColumns>& bitmaps) {
  std::string out(kMagic, 8);
  append_u32(out, kHeaderBitmapsFormatVersion);
  append_u32(out, first);
  append_u32(out, last);
  append_u32(out, kHeaderColumns);
  size_t entries = 0;
  for (const auto& column : bitmaps) {
    append_u32(out, uint32_t(column.size()));
    entries += column.size();
  }
  size_t offset = kHeaderBytes + entries * kEntryBytes;
  std::string data;
  for (size_t c = 0; c < bitmaps.size(); ++c)
    for (const auto& [value, set] : bitmaps[c]) {
      const size_t n = set.getSizeInBytes(true);
      const size_t at = data.size();
      data.resize(at + n);
      set.write(data.data() + at, true);
      append_u32(out, uint32_t(value));
      append_u32(out, uint32_t(offset + at));
      append_u32(out, uint32_t(n));
      append_u32(out, checksum(c, value, data.data() + at, n));
    }
  if (offset + data.size() > UINT32_MAX) throw std::runtime_error("header bitmap segment over 4 GB");
  out += data;
  return out;
}

/// Removes the segment files of `dir` (not the base) whose first game is at most `up_to`,
/// and temporary files left by a writer that died.
void remove_segments_up_to(const std::filesystem::path& dir, uint32_t up_to) {
  std::error_code ec;
  std::vector<std::filesystem::path> doomed;
  const std::string prefix = kSegmentPrefix;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const bool tmp = name.rfind("header-bitmaps", 0) == 0 && name.size() > 4 &&
                     name.compare(name.size() - 4, 4, ".tmp") == 0;
    const bool seg = name.rfind(prefix, 0) == 0 && e.path().extension() == ".seg";
    if (tmp || (seg && std::strtoul(name.c_str() + prefix.size(), nullptr, 10) <= up_to)) doomed.push_back(e.path());
  }
  for (const auto& p : doomed) std::filesystem::remove(p, ec);
}

}  // namespace

// ---- values ----------------------------------------------------------------------------

int32_t eco_key(std::string_view code) {
  if (code.empty()) return kNoValue;
  if (code.size() != 3 || code[0] < 'A' || code[0] > 'E' || code[1] < '0' || code[1] > '9' || code[2] < '0' ||
      code[2] > '9')
    return kOtherEco;
  return (code[0] - 'A') * 100 + (code[1] - '0') * 10 + (code[2] - '0');
}

HeaderValues header_values(const GameHeader& header, int64_t white_id, int64_t black_id) {
  HeaderValues v;
  const DateParts date = parse_pgn_date(header.date);
  v[size_t(HeaderColumn::kYear)] = date.year ? int32_t(*date.year) : kNoValue;
  v[size_t(HeaderColumn::kWhiteElo)] = header.white_elo ? int32_t(header.white_elo) : kNoValue;
  v[size_t(HeaderColumn::kBlackElo)] = header.black_elo ? int32_t(header.black_elo) : kNoValue;
  v[size_t(HeaderColumn::kOpeningEco)] = eco_key(header.eco_class);
  v[size_t(HeaderColumn::kWhitePlayer)] = int32_t(std::clamp<int64_t>(white_id, kMinValue, kMaxValue));
  v[size_t(HeaderColumn::kBlackPlayer)] = int32_t(std::clamp<int64_t>(black_id, kMinValue, kMaxValue));
  return v;
}

void add_value_ranges(BitmapTerm& term, HeaderColumn column, const std::vector<int64_t>& ids) {
  for (size_t i = 0; i < ids.size();) {
    size_t j = i + 1;
    while (j < ids.size() && ids[j] == ids[j - 1] + 1) ++j;
    const int64_t lo = std::clamp<int64_t>(ids[i], kMinValue, kMaxValue);
    const int64_t hi = std::clamp<int64_t>(ids[j - 1], kMinValue, kMaxValue);
    term.push_back({column, int32_t(lo), int32_t(hi)});
    i = j;
  }
}

// ---- the builder -------------------------------------------------------------------------

struct HeaderBitmapsBuilder::Columns {
  /// Values 0..kDense-1 (every Elo, year, code and players row of real games) index a
  /// vector directly, grown as values come: no hashing on the writer thread; others (none,
  /// negative, huge) go to a map.
  static constexpr int32_t kDense = 1 << 22;
  static constexpr size_t kFirstSize = 4096;
  std::array<std::vector<std::vector<uint32_t>>, kHeaderColumns> dense;
  std::array<std::unordered_map<int32_t, std::vector<uint32_t>>, kHeaderColumns> other;

  std::vector<uint32_t>& ids(size_t column, int32_t value) {
    if (value >= 0 && value < kDense) {
      auto& d = dense[column];
      if (size_t(value) >= d.size()) d.resize(std::max({kFirstSize, 2 * d.size(), size_t(value) + 1}));
      return d[size_t(value)];
    }
    return other[column][value];
  }

  const std::vector<uint32_t>* find(size_t column, int32_t value) const {
    if (value >= 0 && value < kDense) {
      const auto& d = dense[column];
      return size_t(value) < d.size() && !d[size_t(value)].empty() ? &d[size_t(value)] : nullptr;
    }
    const auto it = other[column].find(value);
    return it == other[column].end() ? nullptr : &it->second;
  }
};

HeaderBitmapsBuilder::HeaderBitmapsBuilder() : columns_(std::make_unique<Columns>()) {}
HeaderBitmapsBuilder::~HeaderBitmapsBuilder() = default;
HeaderBitmapsBuilder::HeaderBitmapsBuilder(HeaderBitmapsBuilder&&) noexcept = default;
HeaderBitmapsBuilder& HeaderBitmapsBuilder::operator=(HeaderBitmapsBuilder&&) noexcept = default;

void HeaderBitmapsBuilder::add(uint32_t id, const HeaderValues& values) {
  for (size_t i = 0; i < size_t(kHeaderColumns); ++i) columns_->ids(i, values[i]).push_back(id);
}

const std::vector<uint32_t>* HeaderBitmapsBuilder::ids(HeaderColumn column, int32_t value) const {
  return columns_->find(size_t(column), value);
}

void HeaderBitmapsBuilder::write(const std::filesystem::path& dir, uint32_t first, uint32_t last) const {
  std::array<std::map<int32_t, Roaring>, kHeaderColumns> bitmaps;
  auto put = [&](size_t column, int32_t value, const std::vector<uint32_t>& ids) {
    if (ids.empty()) return;
    Roaring r(ids.size(), ids.data());
    r.runOptimize();
    bitmaps[column].emplace(value, std::move(r));
  };
  for (size_t i = 0; i < size_t(kHeaderColumns); ++i) {
    for (size_t v = 0; v < columns_->dense[i].size(); ++v) put(i, int32_t(v), columns_->dense[i][v]);
    for (const auto& [value, ids] : columns_->other[i]) put(i, value, ids);
  }
  write_file(header_bitmaps_path(dir, first), segment_bytes(first, last, bitmaps));
}

// ---- the read side -----------------------------------------------------------------------

/// Reading one segment file (open, validated bitmaps), shared by the reader and the merge.
struct HeaderBitmapsAccess {
  /// Opens `path`, which must hold games from `first`. nullopt when missing or of another
  /// version; throws FormatError when its header or table is damaged.
  static std::optional<HeaderBitmaps::Segment> open_segment(const std::filesystem::path& path, uint32_t first) {
    auto map = std::make_shared<const FileMapping>(path);
    if (!map->data()) return std::nullopt;
    const std::string_view b(map->data(), map->size());
    auto damaged = [&](const std::string& what) {
      return FormatError(path.string() + " is damaged (" + what + "); rebuild it with `cqldb reindex --db " +
                         path.parent_path().string() + "`");
    };
    if (b.size() < 12 || std::memcmp(b.data(), kMagic, 8) != 0) throw damaged("not a header bitmap file");
    if (read_u32(b.data() + 8) != kHeaderBitmapsFormatVersion) return std::nullopt;
    if (b.size() < kHeaderBytes) throw damaged("truncated header");
    HeaderBitmaps::Segment seg;
    seg.path = path;
    seg.first = read_u32(b.data() + 12);
    seg.last = read_u32(b.data() + 16);
    if (read_u32(b.data() + 20) != uint32_t(kHeaderColumns)) throw damaged("wrong column count");
    if (seg.first != first || uint64_t(seg.last) + 1 < first) throw damaged("games out of the chain");
    size_t at = kHeaderBytes;
    for (int c = 0; c < kHeaderColumns; ++c) {
      const uint32_t n = read_u32(b.data() + 24 + 4 * size_t(c));
      if (n > (b.size() - at) / kEntryBytes) throw damaged("truncated table");
      auto& entries = seg.entries[size_t(c)];
      entries.resize(n);
      for (uint32_t i = 0; i < n; ++i, at += kEntryBytes) {
        const char* e = b.data() + at;
        HeaderBitmaps::Entry entry{int32_t(read_u32(e)), read_u32(e + 4), read_u32(e + 8), read_u32(e + 12)};
        if (uint64_t(entry.offset) + entry.length > b.size() || (i && entry.value <= entries[i - 1].value))
          throw damaged("bad table entry");
        entries[i] = entry;
      }
    }
    // The bitmaps follow the table back to back, in its order, to the end of the file: a
    // changed entry count or offset cannot drop or shift a bitmap unnoticed.
    size_t next = at;
    for (const auto& column : seg.entries)
      for (const HeaderBitmaps::Entry& e : column) {
        if (e.offset != next) throw damaged("bitmaps out of place");
        next += e.length;
      }
    if (next != b.size()) throw damaged("bitmaps out of place");
    seg.map = std::move(map);
    return seg;
  }

  /// The bitmap of `e` in `seg`, checked: it and its value match the entry's checksum, its values
  /// ascend and lie in the segment's games (CRoaring's readSafe checks byte bounds only);
  /// rebuilt from them so that its containers are well-formed. Throws FormatError when
  /// damaged.
  static Roaring read(const HeaderBitmaps::Segment& seg, size_t column, const HeaderBitmaps::Entry& e) {
    bool valid = false;
    Roaring out;
    const char* bytes = seg.map->data() + e.offset;
    try {
      if (checksum(column, e.value, bytes, e.length) == e.checksum) {
        out = Roaring::readSafe(bytes, e.length);
        std::vector<uint32_t> ids(out.cardinality());
        if (!ids.empty()) out.toUint32Array(ids.data());
        valid = std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end() &&
                (ids.empty() || (ids.front() >= seg.first && ids.back() <= seg.last));
        if (valid) out = Roaring(ids.size(), ids.data());
      }
    } catch (const std::exception&) {
      valid = false;
    }
    if (!valid)
      throw FormatError(seg.path.string() + " is damaged (the bitmap of value " + std::to_string(e.value) +
                        "); rebuild it with `cqldb reindex --db " + seg.path.parent_path().string() + "`");
    return out;
  }
};

HeaderBitmaps::HeaderBitmaps(HeaderBitmaps&&) noexcept = default;
HeaderBitmaps& HeaderBitmaps::operator=(HeaderBitmaps&&) noexcept = default;
HeaderBitmaps::~HeaderBitmaps() = default;

std::filesystem::path header_bitmaps_path(const std::filesystem::path& dir, uint32_t first) {
  return first <= 1 ? dir / kHeaderBitmapsFile : dir / (kSegmentPrefix + std::to_string(first) + ".seg");
}

uint64_t header_bitmaps_bytes(const std::filesystem::path& dir) {
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name == kHeaderBitmapsFile || (name.rfind(kSegmentPrefix, 0) == 0 && e.path().extension() == ".seg")) {
      std::error_code size_ec;
      const uintmax_t n = e.file_size(size_ec);
      if (!size_ec) total += n;
    }
  }
  return total;
}

void remove_header_bitmaps(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove(dir / kHeaderBitmapsFile, ec);
  remove_segments_up_to(dir, UINT32_MAX);
}

std::optional<HeaderBitmaps> HeaderBitmaps::open(const std::filesystem::path& dir) {
  std::optional<Segment> base = HeaderBitmapsAccess::open_segment(dir / kHeaderBitmapsFile, 1);
  if (!base) return std::nullopt;
  HeaderBitmaps h;
  h.covered_ = base->last;
  h.segments_.push_back(std::move(*base));
  while (h.covered_ >= 1 && h.covered_ < UINT32_MAX) {
    std::optional<Segment> next;
    try {
      next = HeaderBitmapsAccess::open_segment(header_bitmaps_path(dir, h.covered_ + 1), h.covered_ + 1);
    } catch (const FormatError&) {
      break;  // a later segment that does not continue the chain only lowers covered()
    }
    if (!next || next->last <= h.covered_) break;
    h.covered_ = next->last;
    h.segments_.push_back(std::move(*next));
  }
  return h;
}

std::vector<uint32_t> HeaderBitmaps::select(const std::vector<BitmapTerm>& terms, uint32_t game_count) const {
  const uint32_t top = std::min(covered_, game_count);
  Roaring result;
  bool first_term = true;
  for (const BitmapTerm& term : terms) {
    std::vector<Roaring> parts;
    for (const Segment& seg : segments_) {
      if (seg.first > top) break;
      for (const ValueRange& r : term) {
        if (r.lo > r.hi) continue;
        const auto& entries = seg.entries[size_t(r.column)];
        auto it = std::lower_bound(entries.begin(), entries.end(), r.lo,
                                   [](const Entry& e, int32_t v) { return e.value < v; });
        for (; it != entries.end() && it->value <= r.hi; ++it) parts.push_back(HeaderBitmapsAccess::read(seg, size_t(r.column), *it));
      }
    }
    std::vector<const Roaring*> in;
    in.reserve(parts.size());
    for (const Roaring& p : parts) in.push_back(&p);
    Roaring united = in.empty() ? Roaring() : in.size() == 1 ? *in[0] : Roaring::fastunion(in.size(), in.data());
    if (first_term) result = std::move(united);
    else result &= united;
    first_term = false;
    if (result.isEmpty()) break;
  }
  if (first_term && top >= 1) result.addRange(1, uint64_t(top) + 1);
  if (top < covered_) {  // ids above game_count are left out
    Roaring within;
    if (top >= 1) within.addRange(1, uint64_t(top) + 1);
    result &= within;
  }
  std::vector<uint32_t> ids(result.cardinality());
  if (!ids.empty()) result.toUint32Array(ids.data());
  return ids;
}

std::vector<std::string> HeaderBitmaps::check(uint64_t& bitmaps) const {
  std::vector<std::string> problems;
  bitmaps = 0;
  for (const Segment& seg : segments_) {
    for (int c = 0; c < kHeaderColumns; ++c) {
      uint64_t games = 0;
      Roaring all;
      try {
        for (const Entry& e : seg.entries[size_t(c)]) {
          const Roaring r = HeaderBitmapsAccess::read(seg, size_t(c), e);
          games += r.cardinality();
          all |= r;
          ++bitmaps;
        }
      } catch (const FormatError& e) {
        problems.push_back(e.what());
        continue;
      }
      const uint64_t expected = uint64_t(seg.last) + 1 - seg.first;
      if (games != expected || all.cardinality() != expected)
        problems.push_back(seg.path.string() + ": column " + std::to_string(c) + " (" + kColumnNames[size_t(c)] +
                           ") holds " + std::to_string(games) +
                           " game entries (" + std::to_string(all.cardinality()) + " distinct) for " +
                           std::to_string(expected) + " games");
    }
  }
  return problems;
}

// ---- update ------------------------------------------------------------------------------

namespace {

/// Builds the segment of games first..last from headers.sqlite (one scan by id range).
void build_segment(const std::filesystem::path& dir, uint32_t first, uint32_t last) {
  HeaderBitmapsBuilder builder;
  if (first <= last) {
    sqlite::Connection sql(dir / schema::kHeadersFile, sqlite::OpenMode::kReadOnly);
    sqlite::Statement q(sql,
                        "SELECT id, year, white_elo, black_elo, opening_eco, white_id, black_id FROM games "
                        "WHERE id BETWEEN ?1 AND ?2 "
                        "ORDER BY id");
    q.bind(1, int64_t(first));
    q.bind(2, int64_t(last));
    auto value = [&](int i) {
      if (q.column_is_null(i)) return kNoValue;
      const int64_t v = q.column_int64(i);
      return int32_t(std::clamp<int64_t>(v, kMinValue, kMaxValue));
    };
    uint32_t expected = first;
    while (q.step()) {
      const uint32_t id = uint32_t(q.column_int64(0));
      if (id != expected)
        throw FormatError("headers.sqlite has no row for game " + std::to_string(expected) +
                          ": cannot build the header bitmaps");
      ++expected;
      HeaderValues v;
      v[size_t(HeaderColumn::kYear)] = value(1);
      v[size_t(HeaderColumn::kWhiteElo)] = value(2);
      v[size_t(HeaderColumn::kBlackElo)] = value(3);
      v[size_t(HeaderColumn::kOpeningEco)] = q.column_is_null(4) ? kNoValue : eco_key(q.column_text(4));
      v[size_t(HeaderColumn::kWhitePlayer)] = value(5);
      v[size_t(HeaderColumn::kBlackPlayer)] = value(6);
      builder.add(id, v);
    }
    if (expected != last + 1)
      throw FormatError("headers.sqlite has no row for game " + std::to_string(expected) +
                        ": cannot build the header bitmaps");
  }
  builder.write(dir, first, last);
}

}  // namespace

HeaderBitmapsUpdate update_header_bitmaps(const Database& database, bool rebuild, FreshHeaderBitmaps* fresh) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = database.path();
  const uint32_t count = database.reader().game_count();
  SegmentChain chain;
  chain.max_merged_games = kMaxMergedHeaderGames;
  chain.open = [&]() -> std::optional<std::vector<ChainSpan>> {
    std::optional<HeaderBitmaps> existing;
    try {
      existing = HeaderBitmaps::open(dir);
    } catch (const FormatError&) {
      return std::nullopt;  // damaged: built anew
    }
    if (!existing) return std::nullopt;
    std::vector<ChainSpan> spans;
    for (const HeaderBitmaps::Segment& seg : existing->segments_) spans.push_back({seg.first, seg.last});
    return spans;
  };
  chain.write = [&](uint32_t first, uint32_t last) {
    if (fresh && !fresh->broken && fresh->first == first && fresh->last == last) {
      fresh->builder.write(dir, first, last);
      return true;
    }
    build_segment(dir, first, last);
    return false;
  };
  chain.merge = [&](const ChainSpan& a, const ChainSpan& b) {
    std::array<std::map<int32_t, Roaring>, kHeaderColumns> bitmaps;
    {
      // Both files are read and unmapped before the earlier one is replaced.
      for (const ChainSpan& span : {a, b}) {
        std::optional<HeaderBitmaps::Segment> seg =
            HeaderBitmapsAccess::open_segment(header_bitmaps_path(dir, span.first), span.first);
        if (!seg) throw std::runtime_error("cannot read back " + header_bitmaps_path(dir, span.first).string());
        for (size_t c = 0; c < size_t(kHeaderColumns); ++c)
          for (const HeaderBitmaps::Entry& e : seg->entries[c]) bitmaps[c][e.value] |= HeaderBitmapsAccess::read(*seg, c, e);
      }
    }
    for (auto& column : bitmaps)
      for (auto& [value, set] : column) set.runOptimize();
    write_file(header_bitmaps_path(dir, a.first), segment_bytes(a.first, b.last, bitmaps));
    std::error_code ec;
    std::filesystem::remove(header_bitmaps_path(dir, b.first), ec);  // no longer continues the chain
  };
  chain.remove_segments = [&] { remove_segments_up_to(dir, UINT32_MAX); };
  HeaderBitmapsUpdate result;
  static_cast<ChainUpdate&>(result) = update_segment_chain(chain, count, rebuild);
  // The SQLite indexes the bitmaps replace, in a database made before them (schema.cpp).
  sqlite::Connection sql(dir / schema::kHeadersFile, sqlite::OpenMode::kReadWrite);
  schema::drop_bitmap_indexes(sql);
  result.covered = count;
  result.file_bytes = header_bitmaps_bytes(dir);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace db
