// Position index: building segments and facts, the catch-up after an import (see
// position_index.h).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <thread>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>

#include "chess/position_key.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/file_mapping.h"
#include "db/game_header.h"
#include "db/record_view.h"
#include "db/stored_move.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_index_build.h"
#include "index/position_index_format.h"
#include "index/position_segment.h"

namespace posindex {

namespace {

/// Asks the kernel to back `bytes` at `p` (not yet touched) with transparent huge pages:
/// the buffers of a segment are ~86 MB each, and 4 KiB pages cost the import ~20,000 page
/// faults per buffer and the sort's scatter a TLB miss per entry. Only advice: harmless
/// where huge pages are off.
void advise_huge_pages(const void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

/// Puts the `n` entries that `each(fn)` visits in (game, ply) order into `out` in (key,
/// game, ply) order: one stable scatter on the key's top 16 bits (`each` is called twice:
/// counting, then scattering), then each bucket, already in (game, ply) order, sorted by
/// key where it is not sorted yet (a bucket averages under a hundred entries, so that
/// sort runs in cache; one of all the games' start position is already in order). About
/// twice as fast as four LSD radix passes over the whole buffer, and `out`'s memory is
/// reused.
template <class Each>
void bucket_sort(size_t n, Each&& each, std::vector<BuildEntry>& out) {
  std::vector<uint32_t> start(65536 + 1);
  each([&](const BuildEntry& e) { ++start[(e.key >> 48) + 1]; });
  for (size_t b = 1; b <= 65536; ++b) start[b] += start[b - 1];  // start[b]: bucket b's first
  if (out.capacity() < n) {
    std::vector<BuildEntry>().swap(out);
    out.reserve(n);
    advise_huge_pages(out.data(), n * sizeof(BuildEntry));
  }
  out.resize(n);
  BuildEntry* const base = out.data();
  each([&](const BuildEntry& e) { base[start[e.key >> 48]++] = e; });
  // start[b] is now the end of bucket b.
  const auto by_key = [](const BuildEntry& a, const BuildEntry& b) { return a.key < b.key; };
  size_t begin = 0;
  for (size_t b = 0; b < 65536; ++b) {
    const size_t end = start[b];
    if (end - begin > 1 && !std::is_sorted(base + begin, base + end, by_key)) std::sort(base + begin, base + end);
    begin = end;
  }
}

/// Sorts entries made in (game, ply) order into (key, game, ply) order (bucket_sort).
void sort_by_key(std::vector<BuildEntry>& entries) {
  std::vector<BuildEntry> sorted;
  bucket_sort(entries.size(), [&](auto&& fn) { for (const BuildEntry& e : entries) fn(e); }, sorted);
  entries.swap(sorted);
}

/// The entries of `games` (its game i is game first + i) into `out` in (key, game, ply)
/// order.
void sort_games(const FreshPositions::Collected& games, uint32_t first, std::vector<BuildEntry>& out) {
  bucket_sort(games.entries, [&](auto&& fn) {
    for (size_t i = 0; i < games.begins.size(); ++i) {
      const uint32_t game = first + uint32_t(i);
      for (const GameEntry *e = games.begins[i], *end = e + games.counts[i]; e != end; ++e)
        fn(BuildEntry{e->key, game, e->ply, e->move});
    }
  }, out);
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
  FreshGame game;
  while (scan.next(id, bytes)) {
    GameFacts& f = facts[id - first];
    index_record(bytes, game);
    for (const GameEntry& e : game.entries) entries.push_back({e.key, id, e.ply, e.move});
    f.frontier = game.frontier;
    f.flags = game.flags;
  }
}

/// Writes sorted entries as the segment of games first..last in `dir`: one group with low
/// bits and moves per key reached twice or more; the keys reached once (singletons) of a top
/// become one group of unknown entries, after that top's groups with low bits (a lone one
/// is a singleton group: no low bits, no move). With few top bits a top holds several
/// singletons, whose game ids then cost a Rice-coded delta each instead of a fixed width.
void write_segment(const std::filesystem::path& dir, const std::vector<BuildEntry>& entries, uint32_t first,
                   uint32_t last) {
  uint64_t tops = 0;
  for (size_t i = 0; i < entries.size(); ++i)
    tops += i == 0 || format::top_of(entries[i].key) != format::top_of(entries[i - 1].key);
  format::SegmentWriter writer(dir / format::segment_name(first, last), first, last, tops);
  format::Group g, unknown;
  for (size_t i = 0; i < entries.size();) {
    const uint64_t top = format::top_of(entries[i].key);
    unknown.top = top;
    unknown.has_low = false;
    unknown.entries.clear();
    while (i < entries.size() && format::top_of(entries[i].key) == top) {
      size_t j = i;
      while (j < entries.size() && entries[j].key == entries[i].key) ++j;
      if (j - i == 1) {
        unknown.entries.push_back({entries[i].game, 0, false});
      } else {
        g.top = top;
        g.low = format::low_of(entries[i].key);
        g.has_low = true;
        g.entries.clear();
        for (size_t k = i; k < j; ++k) g.entries.push_back({entries[k].game, entries[k].move, true});
        writer.add(g);
      }
      i = j;
    }
    if (unknown.entries.empty()) continue;
    std::sort(unknown.entries.begin(), unknown.entries.end(),
              [](const format::GroupEntry& x, const format::GroupEntry& y) { return x.game < y.game; });
    writer.add(unknown);
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

/// The game ranges of the segments `existing` names (recovered from its manifest file).
std::vector<std::pair<uint32_t, uint32_t>> manifest_segments(const std::filesystem::path& dir,
                                                             const PositionIndex& existing) {
  std::string manifest;
  if (FILE* f = std::fopen((dir / kManifestFile).c_str(), "rb")) {
    char buf[4096];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, f)) > 0;) manifest.append(buf, n);
    std::fclose(f);
  }
  std::vector<std::pair<uint32_t, uint32_t>> segments;
  for (size_t i = 0; i < existing.segments(); ++i) {
    const size_t at = format::kManifestHeaderBytes + 8 * i;
    if (at + 8 > manifest.size()) throw std::runtime_error("position index manifest changed while read");
    segments.emplace_back(format::read_u32(manifest.data() + at), format::read_u32(manifest.data() + at + 4));
  }
  return segments;
}

/// True when segments `i` and `i + 1` of `segments` are merged by the tiered rule
/// (position_index.h): the earlier holds at most as many games as the later, and together
/// at most kMaxMergedGames.
bool pair_due(const std::vector<std::pair<uint32_t, uint32_t>>& segments, size_t i) {
  const uint64_t games_a = segments[i].second - segments[i].first + 1;
  const uint64_t games_b = segments[i + 1].second - segments[i + 1].first + 1;
  return games_a <= games_b && games_a + games_b <= kMaxMergedGames;
}

/// True when the last two of `segments` are merged by the tiered rule (pair_due).
bool merge_due(const std::vector<std::pair<uint32_t, uint32_t>>& segments) {
  return segments.size() >= 2 && pair_due(segments, segments.size() - 2);
}

/// Merges segments `i` and `i + 1` of `segments` into one file and updates the list, then
/// calls `merged(segments)` (e.g. to write a manifest naming the merged file) and removes the
/// two input files.
template <class Merged>
void merge_pair(const std::filesystem::path& dir, std::vector<std::pair<uint32_t, uint32_t>>& segments,
                size_t i, Merged&& merged) {
  const auto [fa, la] = segments[i];
  const auto [fb, lb] = segments[i + 1];
  format::merge_segments(dir, fa, la, fb, lb);
  segments.erase(segments.begin() + std::ptrdiff_t(i) + 1);
  segments[i] = {fa, lb};
  merged(segments);
  std::error_code ec;
  std::filesystem::remove(dir / format::segment_name(fa, la), ec);
  std::filesystem::remove(dir / format::segment_name(fb, lb), ec);
}

/// Merges the last two segments of `segments` (merge_pair of the last pair).
template <class Merged>
void merge_last_two(const std::filesystem::path& dir, std::vector<std::pair<uint32_t, uint32_t>>& segments,
                    Merged&& merged) {
  merge_pair(dir, segments, segments.size() - 2, std::forward<Merged>(merged));
}

/// The rightmost pair (i, i + 1) of `segments` that the tiered rule merges (the earlier holds
/// at most as many games as the later, together at most kMaxMergedGames), or none. Unlike
/// merge_due() it looks past the last pair: an import ends with a partial segment smaller
/// than the one before it, and the next import's first segment must still merge with it.
std::optional<size_t> merge_due_anywhere(const std::vector<std::pair<uint32_t, uint32_t>>& segments) {
  for (size_t i = segments.size() < 2 ? 0 : segments.size() - 1; i-- > 0;)
    if (pair_due(segments, i)) return i;
  return std::nullopt;
}

/// Tiered merges of a published index: while some adjacent pair is due (merge_due_anywhere),
/// the rightmost one is merged, the manifest (covering `covered` games) replaced after each
/// merge and before the merged inputs are removed, so a reader holding the old manifest
/// still finds its files and a crash leaves a consistent index. Afterwards no adjacent pair
/// is due: segment sizes fall from first to last (except pairs over kMaxMergedGames), so an
/// index of n games has O(log n + n / kMaxMergedGames) segments however it was appended to.
void merge_published(const std::filesystem::path& dir, uint32_t covered,
                     std::vector<std::pair<uint32_t, uint32_t>>& segments, PositionIndexUpdate& result) {
  while (const std::optional<size_t> at = merge_due_anywhere(segments)) {
    merge_pair(dir, segments, *at, [&](const std::vector<std::pair<uint32_t, uint32_t>>& merged) {
      write_file_atomically(dir / kManifestFile, encode_manifest(covered, merged));
    });
    ++result.merges;
  }
}

/// Completes `result` of an update of the index in `dir` begun at `start`: the size and
/// segment count of the index as it is now, and the seconds taken.
void finish_update(const std::filesystem::path& dir, std::chrono::steady_clock::time_point start,
                   PositionIndexUpdate& result) {
  if (auto index = PositionIndex::open(dir)) {
    result.file_bytes = index->file_bytes();
    result.segments = index->segments();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// GameFacts::year of a date's year: the year when 1..65535, else 0 (unknown).
uint16_t fact_year(std::optional<int> year) { return year && *year > 0 && *year < 65536 ? uint16_t(*year) : 0; }

/// Fills the header fields of facts[id - first] (Elos, year, result) for games
/// first..last from headers.sqlite.
void fill_header_facts(headers::HeaderStore& header_store, uint32_t first, uint32_t last,
                       std::vector<GameFacts>& facts) {
  header_store.scan_rows(last, [&](const headers::GameRow& row) {
    if (row.id < first || row.id > last) return;
    GameFacts& f = facts[row.id - first];
    f.white_elo = row.white_elo;
    f.black_elo = row.black_elo;
    f.year = fact_year(row.year);
    f.result = row.result;
  }, first);
}

}  // namespace

void index_record(std::string_view record, FreshGame& out) {
  out.entries.clear();
  out.entries.reserve(kIndexedPlies + 1);
  out.frontier = Frontier{};
  out.flags = 0;
  try {
    const db::RecordView view = db::RecordView::parse(record);
    db::MainLineReplay replay(view);
    for (;;) {
      const bool end = replay.done();
      out.entries.push_back({chess::identity_key(replay.position()),
                             end ? uint16_t(0) : replay.next_move().raw(), uint8_t(replay.ply())});
      if (end || replay.ply() == kIndexedPlies) break;
      replay.advance();
    }
    out.frontier = Frontier::of(replay.position());
    if (replay.done()) out.flags |= GameFacts::kComplete;
  } catch (const db::CorruptRecord&) {
    out.entries.clear();
    out.frontier = Frontier{};
    out.flags = GameFacts::kUnindexed;
  }
}

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
    segments = manifest_segments(dir, *existing);
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
    fill_header_facts(header_store, first, last, facts);
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
    merge_published(dir, covered, segments, result);
  }
  if (result.rebuilt && count == 0) write_file_atomically(dir / kManifestFile, encode_manifest(0, {}));
  if (result.rebuilt && count == 0) write_facts(dir, 1, {});
  result.covered = covered;
  finish_update(dir, start, result);
  return result;
}

FreshPositions::FreshPositions(const db::Database& database, uint32_t games_per_segment)
    : dir_(database.path()), per_segment_(std::max(1u, games_per_segment)) {
  std::vector<std::pair<uint32_t, uint32_t>> published;  // the segments of the index now
  try {
    const uint32_t count = database.reader().game_count();
    if (std::optional<PositionIndex> existing = PositionIndex::open(dir_)) {
      usable_ = existing->covered() == count && existing->segments() < kMaxSegments;
      if (usable_) published = manifest_segments(dir_, *existing);
    } else if (count == 0) {
      remove_position_index(dir_);  // leftovers of an import that never finished
      usable_ = true;
    }
    base_ = count;
  } catch (const std::exception&) {
    usable_ = false;
  }
  last_ = base_;
  segment_first_ = base_ + 1;
  if (usable_) {
    collecting_.begins.reserve(per_segment_);
    collecting_.counts.reserve(per_segment_);
  }
  // The merges the last import left due (end_stream() publishes without merging) run now,
  // in the background while this import reads its games: an append keeps the cores less
  // busy than a fresh import (its writer thread waits on headers.sqlite's index inserts),
  // so they mostly cost no wall time. The first segment this import writes waits for them
  // (flush_segment() joins the thread), and end_stream() reads the manifest after them.
  if (usable_ && published.size() >= 2) {
    worker_ = std::thread([this, published = std::move(published)]() mutable {
      pthread_setname_np(pthread_self(), "cqldb-posindex");
      try {
        PositionIndexUpdate merged;
        merge_published(dir_, base_, published, merged);
        catch_up_merges_ = merged.merges;
      } catch (...) {
        error_ = std::current_exception();
      }
    });
  }
}

FreshPositions::~FreshPositions() {
  if (publisher_.joinable()) publisher_.join();
  try {
    join();
  } catch (...) {
  }
  if (!published_) discard();
}

void FreshPositions::begin_batch(std::vector<GameEntry>&& entries) {
  if (!usable_) return;
  batch_ = std::make_shared<const std::vector<GameEntry>>(std::move(entries));
  batch_next_ = 0;
  collecting_.batches.push_back(batch_);
}

void FreshPositions::skip(uint32_t count) { batch_next_ += count; }

void FreshPositions::add(uint32_t id, uint32_t count, const GameFacts& facts) {
  if (!usable_) return;
  // A gap (the update replays the records instead), or entries the batch does not have.
  if (id != last_ + 1 || !batch_ || count > kIndexedPlies + 1 || batch_next_ + count > batch_->size()) {
    usable_ = false;
    collecting_ = Collected();
    batch_.reset();
    return;
  }
  last_ = id;
  entry_count_ += count;
  collecting_.begins.push_back(batch_->data() + batch_next_);
  collecting_.counts.push_back(uint8_t(count));
  collecting_.entries += count;
  batch_next_ += count;
  facts_.push_back(facts);
  if (last_ - segment_first_ + 1 == per_segment_) flush_segment();
}

GameFacts game_facts(const db::GameHeader& header, const Frontier& frontier, uint8_t flags) {
  auto elo = [](int v) { return uint16_t(v < 0 ? 0 : v > 65535 ? 65535 : v); };
  GameFacts f;
  f.white_elo = elo(header.white_elo);
  f.black_elo = elo(header.black_elo);
  f.year = fact_year(db::parse_pgn_date(header.date).year);
  f.result = uint8_t(db::result_code(header.result));
  f.frontier = frontier;
  f.flags = flags;
  return f;
}

void FreshPositions::end_stream(const db::Database& database) {
  ended_ = true;
  join();  // the merges begun by the constructor change the manifest read below
  if (!usable_ || last_ == base_) return;
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = database.path();
  std::optional<PositionIndex> existing = PositionIndex::open(dir);
  const bool fits = existing ? existing->covered() == base_ && existing->segments() < kMaxSegments : base_ == 0;
  if (!fits || last_ != database.reader().game_count()) return;  // update_position_index catches up
  std::vector<std::pair<uint32_t, uint32_t>> segments;
  if (existing) segments = manifest_segments(dir, *existing);
  published_result_.rebuilt = !existing;
  existing.reset();
  if (last_ >= segment_first_) flush_segment();
  publisher_ = std::thread([this, dir, start, segments = std::move(segments)]() mutable {
    pthread_setname_np(pthread_self(), "cqldb-posindex");
    try {
      join();
      PositionIndexUpdate& result = published_result_;
      const uint32_t first = base_ + 1;
      for (const GameFacts& f : facts_) result.unindexed += (f.flags & GameFacts::kUnindexed) != 0;
      write_facts(dir, first, facts_);
      std::vector<GameFacts>().swap(facts_);
      segments.insert(segments.end(), written_.begin(), written_.end());
      write_file_atomically(dir / kManifestFile, encode_manifest(last_, segments));
      published_ = true;
      // No merges here: the segments they would merge stay as they are until the next
      // import, which merges them while it reads (constructor). An append used to spend most
      // of its time after the stream here (about 6 s of 21 for players-344k onto itself).
      result.merges = catch_up_merges_;
      result.added = last_ - first + 1;
      result.entries = entry_count_;
      result.covered = last_;
      finish_update(dir, start, result);
    } catch (...) {
      publish_error_ = std::current_exception();
    }
  });
}

void FreshPositions::flush_segment() {
  join();
  const uint32_t first = segment_first_, last = last_;
  segment_first_ = last_ + 1;
  Collected games = std::move(collecting_);
  collecting_ = Collected();
  collecting_.begins.reserve(per_segment_);
  collecting_.counts.reserve(per_segment_);
  if (batch_) collecting_.batches.push_back(batch_);  // the rest of the batch is the next segment's
  worker_ = std::thread([this, first, last, games = std::move(games)]() mutable {
    pthread_setname_np(pthread_self(), "cqldb-posindex");
    try {
      sort_games(games, first, sorted_);
      games = Collected();  // the batches' memory goes back now
      write_segment(dir_, sorted_, first, last);
      // Merges of new segments lag one segment behind: the newest waits. When the import
      // ends first, the merges of its last segments run in end_stream()'s publication, on
      // the core the import's single-threaded finish (headers.sqlite) leaves idle, not while
      // the stream keeps both cores busy. The tiered rule gives the same segments either way.
      while (written_.size() >= 2 && merge_due(written_)) merge_last_two(dir_, written_, [](const auto&) {});
      written_.emplace_back(first, last);
    } catch (...) {
      error_ = std::current_exception();
    }
  });
}

void FreshPositions::join() {
  if (worker_.joinable()) worker_.join();
  if (error_) {
    std::exception_ptr e = error_;
    error_ = nullptr;
    std::rethrow_exception(e);
  }
}

void FreshPositions::discard() {
  std::error_code ec;
  for (const auto& [f, l] : written_) std::filesystem::remove(dir_ / format::segment_name(f, l), ec);
  written_.clear();
  usable_ = false;
  collecting_ = Collected();
  batch_.reset();
  std::vector<BuildEntry>().swap(sorted_);
}

PositionIndexUpdate update_position_index(const db::Database& database, FreshPositions& fresh, unsigned threads) {
  if (!fresh.ended_) fresh.end_stream(database);
  if (fresh.publisher_.joinable()) {  // end_stream() publishes it
    fresh.publisher_.join();
    if (fresh.publish_error_) std::rethrow_exception(std::exchange(fresh.publish_error_, nullptr));
    return fresh.published_result_;
  }
  // Nothing new, or not the games above the index: the catch-up replays the records.
  fresh.join();
  fresh.discard();
  return update_position_index(database, /*rebuild=*/false, threads);
}

}  // namespace posindex
