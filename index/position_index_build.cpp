// Position index: building segments and facts, the catch-up after an import (see
// position_index.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <unistd.h>

#include "chess/position_key.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/file_mapping.h"
#include "db/record_view.h"
#include "db/stored_move.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_index_format.h"
#include "index/position_segment.h"

namespace posindex {

namespace {

/// An entry being built: sorted by key, game, ply.
struct BuildEntry {
  uint64_t key;
  uint32_t game;
  uint8_t ply;
  uint16_t move;
  bool operator<(const BuildEntry& o) const {
    if (key != o.key) return key < o.key;
    if (game != o.game) return game < o.game;
    return ply < o.ply;
  }
};

/// Sorts entries made in (game, ply) order into (key, game, ply) order: a stable LSD radix
/// sort on the key (4 passes of 16 bits), several times faster than std::sort here.
void sort_by_key(std::vector<BuildEntry>& entries) {
  std::vector<BuildEntry> scratch(entries.size());
  std::vector<uint32_t> start(65537);
  for (int shift = 0; shift < 64; shift += 16) {
    std::fill(start.begin(), start.end(), 0);
    for (const BuildEntry& e : entries) ++start[((e.key >> shift) & 0xFFFF) + 1];
    for (size_t i = 1; i < start.size(); ++i) start[i] += start[i - 1];
    for (const BuildEntry& e : entries) scratch[start[(e.key >> shift) & 0xFFFF]++] = e;
    entries.swap(scratch);
  }
}

/// Writes `bytes` to `path` atomically (beside it, fsync, rename).
void write_file_atomically(const std::filesystem::path& path, const std::string& bytes) {
  const std::filesystem::path tmp = path.string() + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + tmp.string());
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() && std::fflush(f) == 0 &&
            ::fsync(fileno(f)) == 0;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

/// Replays games first..last (main line, plies 0..kIndexedPlies) into entries and facts
/// (facts[id - first]; header fields filled later).
void index_games(const db::Database& database, uint32_t first, uint32_t last, std::vector<BuildEntry>& entries,
                 std::vector<GameFacts>& facts) {
  db::GameReader reader = database.reader();
  auto scan = reader.scan(first, last);
  uint32_t id;
  std::string_view bytes;
  while (scan.next(id, bytes)) {
    GameFacts& f = facts[id - first];
    const size_t mark = entries.size();
    try {
      const db::RecordView view = db::RecordView::parse(bytes);
      db::MainLineReplay replay(view);
      for (;;) {
        const bool end = replay.done();
        entries.push_back({chess::identity_key(replay.position()), id, uint8_t(replay.ply()),
                           end ? uint16_t(0) : replay.next_move().raw()});
        if (end || replay.ply() == kIndexedPlies) break;
        replay.advance();
      }
      f.frontier = Frontier::of(replay.position());
      if (replay.done()) f.flags |= GameFacts::kComplete;
    } catch (const db::CorruptRecord&) {
      entries.resize(mark);
      f.flags = GameFacts::kUnindexed;
    }
  }
}

/// Writes sorted entries as the segment of games first..last in `dir`: one group per
/// distinct key, a key reached once being a singleton (no low bits, no move).
void write_segment(const std::filesystem::path& dir, const std::vector<BuildEntry>& entries, uint32_t first,
                   uint32_t last) {
  uint64_t groups = 0;
  for (size_t i = 0; i < entries.size(); ++i) groups += i == 0 || entries[i].key != entries[i - 1].key;
  format::SegmentWriter writer(dir / format::segment_name(first, last), first, last, groups);
  format::Group g;
  for (size_t i = 0; i < entries.size();) {
    size_t j = i;
    while (j < entries.size() && entries[j].key == entries[i].key) ++j;
    g.top = format::top_of(entries[i].key);
    g.low = format::low_of(entries[i].key);
    g.has_low = j - i > 1;
    g.entries.clear();
    for (size_t k = i; k < j; ++k) g.entries.push_back({entries[k].game, entries[k].move, g.has_low});
    writer.add(g);
    i = j;
  }
  writer.finish();
}

std::string encode_manifest(uint32_t covered, const std::vector<std::pair<uint32_t, uint32_t>>& segments) {
  std::string out(format::kManifestMagic, 8);
  format::append_le<uint32_t>(out, kPositionIndexVersion);
  format::append_le<uint32_t>(out, kIndexedPlies);
  format::append_le<uint32_t>(out, covered);
  format::append_le<uint32_t>(out, uint32_t(segments.size()));
  for (const auto& [f, l] : segments) {
    format::append_le<uint32_t>(out, f);
    format::append_le<uint32_t>(out, l);
  }
  return out;
}

/// Writes facts of games first.. into the facts file (created with its header if needed).
void write_facts(const std::filesystem::path& dir, uint32_t first, const std::vector<GameFacts>& facts) {
  const std::filesystem::path path = dir / kFactsFile;
  FILE* f = std::fopen(path.c_str(), first == 1 ? "wb" : "r+b");
  if (!f) throw std::runtime_error("cannot write " + path.string());
  std::string bytes;
  if (first == 1) {
    bytes.assign(format::kFactsMagic, 8);
    format::append_le<uint32_t>(bytes, kPositionIndexVersion);
    format::append_le<uint32_t>(bytes, 0);
  }
  const size_t at = bytes.size();
  bytes.resize(at + facts.size() * format::kFactsBytes);
  for (size_t i = 0; i < facts.size(); ++i) format::encode_facts(facts[i], bytes.data() + at + i * format::kFactsBytes);
  const long offset = first == 1 ? 0 : long(format::kFactsHeaderBytes + size_t(first - 1) * format::kFactsBytes);
  bool ok = std::fseek(f, offset, SEEK_SET) == 0 && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size() &&
            std::fflush(f) == 0 && ::fsync(fileno(f)) == 0;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace

void remove_position_index(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove(dir / kManifestFile, ec);
  std::filesystem::remove(dir / kFactsFile, ec);
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("positions-", 0) == 0 && name.size() > 4 &&
        (name.compare(name.size() - 4, 4, ".seg") == 0 || name.compare(name.size() - 8, 8, ".seg.tmp") == 0))
      std::filesystem::remove(entry.path(), ec);
  }
}

PositionIndexUpdate update_position_index(const db::Database& database, bool rebuild, unsigned threads) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = database.path();
  PositionIndexUpdate result;
  const uint32_t count = database.reader().game_count();
  std::optional<PositionIndex> existing = rebuild ? std::nullopt : PositionIndex::open(dir);
  if (existing && (existing->covered() > count || existing->segments() >= kMaxSegments)) existing.reset();
  std::vector<std::pair<uint32_t, uint32_t>> segments;
  uint32_t covered = 0;
  if (existing) {
    covered = existing->covered();
    // The manifest's ranges: recovered from the segment files it names.
    const std::string manifest = [&] {
      FILE* f = std::fopen((dir / kManifestFile).c_str(), "rb");
      std::string s;
      if (f) {
        char buf[4096];
        for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) s.append(buf, n);
        std::fclose(f);
      }
      return s;
    }();
    for (size_t i = 0; i < existing->segments(); ++i)
      segments.emplace_back(format::read_u32(manifest.data() + format::kManifestHeaderBytes + 8 * i),
                            format::read_u32(manifest.data() + format::kManifestHeaderBytes + 8 * i + 4));
  } else {
    result.rebuilt = true;
    remove_position_index(dir);
  }
  threads = std::max(1u, threads ? threads : std::thread::hardware_concurrency());
  headers::HeaderStore header_store(dir);
  while (covered < count) {
    const uint32_t first = covered + 1;
    const uint32_t last = std::min<uint64_t>(count, uint64_t(covered) + kGamesPerSegment);
    const uint32_t n = last - first + 1;
    std::vector<GameFacts> facts(n);
    std::vector<std::vector<BuildEntry>> parts(threads);
    std::vector<std::thread> workers;
    const uint32_t per = (n + threads - 1) / threads;
    std::exception_ptr error;
    std::vector<std::exception_ptr> errors(threads);
    for (unsigned t = 0; t < threads; ++t) {
      const uint32_t a = first + t * per;
      if (a > last) break;
      const uint32_t b = std::min<uint64_t>(last, uint64_t(a) + per - 1);
      workers.emplace_back([&, t, a, b] {
        try {
          std::vector<GameFacts> local(b - a + 1);
          parts[t].reserve(size_t(b - a + 1) * (kIndexedPlies + 1));
          index_games(database, a, b, parts[t], local);
          // Only the replay's fields: the header fields are filled meanwhile by the caller.
          for (uint32_t i = 0; i < local.size(); ++i) {
            facts[a - first + i].frontier = local[i].frontier;
            facts[a - first + i].flags = local[i].flags;
          }
          sort_by_key(parts[t]);  // made in (game, ply) order: stable by key is enough
        } catch (...) {
          errors[t] = std::current_exception();
        }
      });
    }
    header_store.scan_rows(last, [&](const headers::GameRow& row) {
      if (row.id < first || row.id > last) return;
      GameFacts& f = facts[row.id - first];
      f.white_elo = row.white_elo;
      f.black_elo = row.black_elo;
      f.year = row.year && *row.year > 0 && *row.year < 65536 ? uint16_t(*row.year) : 0;
      f.result = row.result;
    }, first);
    for (std::thread& w : workers) w.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
    // Merge the sorted parts.
    std::vector<BuildEntry> entries = std::move(parts[0]);
    for (size_t t = 1; t < parts.size(); ++t) {
      const size_t mid = entries.size();
      entries.insert(entries.end(), parts[t].begin(), parts[t].end());
      std::vector<BuildEntry>().swap(parts[t]);
      std::inplace_merge(entries.begin(), entries.begin() + std::ptrdiff_t(mid), entries.end());
    }
    write_segment(dir, entries, first, last);
    write_facts(dir, first, facts);
    segments.emplace_back(first, last);
    covered = last;
    write_file_atomically(dir / kManifestFile, encode_manifest(covered, segments));
    result.added += n;
    result.entries += entries.size();
    for (const GameFacts& f : facts) result.unindexed += (f.flags & GameFacts::kUnindexed) != 0;
    std::vector<BuildEntry>().swap(entries);
    // Tiered merge: the last two segments while the earlier is no larger than the later.
    while (segments.size() >= 2) {
      const auto [fa, la] = segments[segments.size() - 2];
      const auto [fb, lb] = segments.back();
      const uint64_t games_a = la - fa + 1, games_b = lb - fb + 1;
      if (games_a > games_b || games_a + games_b > kMaxMergedGames) break;
      format::merge_segments(dir, fa, la, fb, lb);
      segments.pop_back();
      segments.back() = {fa, lb};
      write_file_atomically(dir / kManifestFile, encode_manifest(covered, segments));
      std::error_code ec;
      std::filesystem::remove(dir / format::segment_name(fa, la), ec);
      std::filesystem::remove(dir / format::segment_name(fb, lb), ec);
      ++result.merges;
    }
  }
  if (result.rebuilt && count == 0) write_file_atomically(dir / kManifestFile, encode_manifest(0, {}));
  if (result.rebuilt && count == 0) write_facts(dir, 1, {});
  result.covered = covered;
  if (auto index = PositionIndex::open(dir)) {
    result.file_bytes = index->file_bytes();
    result.segments = index->segments();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace posindex
