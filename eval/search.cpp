#include "eval/search.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <optional>
#include <thread>

#include "db/database.h"
#include "db/record_view.h"
#include "eval/analysis.h"
#include "eval/game_matcher.h"

namespace eval {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

/// A game to replay and the alternatives whose header filter it passed.
struct Candidate {
  uint32_t id;
  unsigned alternatives;
};

/// Candidate::alternatives bit of a game replayed without the planner although its header
/// conditions fail every alternative: it is evaluated all the same and cannot match.
constexpr unsigned kHeaderFailed = 1u << 31;

constexpr size_t kChunk = 512;  // candidates claimed by a worker at a time
/// Signatures tested before deciding whether they prune enough (>= 5%) to keep testing.
constexpr uint64_t kAdaptSample = 8192;

}  // namespace

SearchStats search(const Program& program, db::Database& database, const SearchOptions& options,
                   std::vector<GameMatch>& matches) {
  const auto start = Clock::now();
  SearchStats stats;
  matches.clear();
  db::GameReader snapshot = database.reader();
  const uint32_t count = snapshot.game_count();
  stats.games_total = count;

  const auto& alts = program.alternatives();
  bool any_list = false;
  for (const Alternative& a : alts) any_list |= !a.lists.empty();
  const CandidateFilter* filter = (options.filter && any_list && !program.negated()) ? options.filter : nullptr;

  // 1. The posting index (planner, index/postings.h): per alternative, the games whose
  //    signature facts can satisfy it, from set algebra on compressed bitmaps.
  std::vector<std::optional<std::vector<uint32_t>>> posted(alts.size());
  if (filter) {
    if (std::optional<sig::Postings> postings = sig::Postings::open(database.path())) {
      for (size_t a = 0; a < alts.size(); ++a) posted[a] = filter->posting_candidates(*postings, a, count);
      stats.postings_used = true;
    }
  }
  stats.postings_seconds = since(start);

  // 2. Header conditions in SQLite, asked only about the posting candidates when there are
  //    few of them.
  std::vector<unsigned> mask(size_t(count) + 1, 0);
  std::vector<uint8_t> posted_any(stats.postings_used ? size_t(count) + 1 : 0, 0);
  for (size_t a = 0; a < alts.size(); ++a) {
    const std::vector<uint32_t>* within = posted[a] ? &*posted[a] : nullptr;
    if (stats.postings_used) {
      if (within) {
        for (uint32_t id : *within) posted_any[id] = 1;
      } else {
        std::fill(posted_any.begin() + 1, posted_any.end(), 1);
      }
    }
    if (alts[a].header.accepts_all()) {
      if (within) {
        for (uint32_t id : *within) mask[id] |= 1u << a;
      } else {
        for (uint32_t id = 1; id <= count; ++id) mask[id] |= 1u << a;
      }
    } else {
      for (uint32_t id : alts[a].header.candidates(database.path(), count, within)) mask[id] |= 1u << a;
    }
  }
  stats.after_postings = stats.postings_used ? uint64_t(std::count(posted_any.begin(), posted_any.end(), 1)) : count;
  if (options.within) {
    std::vector<unsigned> restricted(mask.size(), 0);
    for (uint32_t id : *options.within)
      if (id <= count) restricted[id] = mask[id];
    mask.swap(restricted);
  }
  auto in_scope = [&](uint32_t id) {
    return !options.within || std::binary_search(options.within->begin(), options.within->end(), id);
  };
  // Without the planner (no options.filter) nothing prunes, the header conditions included:
  // every game in scope is replayed, and one whose headers fail is then no match.
  const bool prune = options.filter != nullptr;
  const unsigned all_alternatives = (1u << alts.size()) - 1;
  std::vector<Candidate> candidates;
  for (uint32_t id = 1; id <= count; ++id) {
    if (mask[id]) candidates.push_back({id, mask[id]});
    else if (!prune && any_list && in_scope(id)) candidates.push_back({id, all_alternatives | kHeaderFailed});
  }
  stats.candidates = candidates.size();
  stats.after_signatures = candidates.size();
  std::vector<GameInfo> info;
  if (program.needs_game_info() || (filter && filter->needs_game_info())) {
    // Few candidates: their rows only (point lookups) instead of a scan of every game.
    if (candidates.size() * 8 < count) {
      std::vector<uint32_t> ids;
      ids.reserve(candidates.size());
      for (const Candidate& c : candidates) ids.push_back(c.id);
      info = load_game_info(database.path(), count, &ids);
    } else {
      info = load_game_info(database.path(), count);
    }
  }
  stats.header_seconds = since(start) - stats.postings_seconds;

  // 3. Signatures are tested by the replay workers below, just before each replay.

  // Games that match or fail without replay.
  const bool negated = program.negated();
  if (!any_list) {
    // Header conditions decide alone.
    for (uint32_t id = 1; id <= count; ++id)
      if ((mask[id] != 0) != negated && in_scope(id)) matches.push_back({id, {}, {}});
  } else {
    // 4. Replay the candidates on all cores.
    const auto replay_start = Clock::now();
    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(candidates.size() / kChunk + 1)));
    std::atomic<size_t> next_chunk{0};
    std::atomic<uint64_t> found{0}, searched{0}, positions{0}, pruned{0}, replayed_games{0};
    std::atomic<int64_t> signature_ns{0};
    std::atomic<uint64_t> tested{0};
    std::atomic<bool> filter_off{false};
    std::atomic<bool> stop{false};
    std::atomic<bool> failed{false};  // a worker threw: engine waits of the others end
    AnalysisSession analysis(
        options.engine, options.analysis_cache ? database.path() / AnalysisCache::kFileName : std::filesystem::path(),
        options.cancel, &failed);
    std::mutex mutex;
    std::exception_ptr error;
    std::vector<GameMatch> replayed;
    auto worker = [&] {
      try {
        db::GameReader reader = database.reader();
        GameMatcher matcher(program);
        AnalysisContext analysis_context(analysis);  // starts no engine until one is needed
        matcher.set_analysis(&analysis_context);
        bool engine_cancelled = false;
        sig::Signature signature;
        std::vector<uint8_t> allowed;  // ply windows of the game being replayed
        // The signatures the chunk's test read, for the ply windows of the same games (views
        // into the reader's snapshot, valid while it lives); empty = not read.
        std::vector<std::string_view> chunk_sigs;
        std::vector<GameMatch> local;
        std::vector<uint32_t> plies;
        uint64_t local_positions = 0;
        for (;;) {
          if (stop || (options.cancel && options.cancel->load())) break;
          size_t begin = next_chunk.fetch_add(kChunk);
          if (begin >= candidates.size()) break;
          size_t end = std::min(candidates.size(), begin + kChunk);
          chunk_sigs.assign(end - begin, std::string_view());
          if (filter && !filter_off.load(std::memory_order_relaxed)) {
            // Prune-only: the signatures of the whole chunk first (one cursor pass, one clock
            // reading); a game whose signature rules out every alternative gets 0 and is
            // skipped below. Each chunk's candidates belong to this worker alone.
            const auto t0 = Clock::now();
            auto sigs = reader.scan_signatures(candidates[begin].id, candidates[end - 1].id);
            // Sparse candidates (a selective header filter): one lookup each instead of a
            // cursor pass over every id between them.
            const bool sparse = candidates[end - 1].id - candidates[begin].id > 8 * (end - begin);
            uint32_t sig_id = 0;
            std::string_view sig_bytes;
            uint64_t chunk_pruned = 0;
            for (size_t i = begin; i < end; ++i) {
              if (sparse) {
                sig_id = reader.signature(candidates[i].id, sig_bytes) ? candidates[i].id : 0;
              } else {
                while (sig_id < candidates[i].id && sigs.next(sig_id, sig_bytes)) {
                }
              }
              if (sig_id != candidates[i].id || sig_bytes.empty()) continue;  // no signature: keep
              chunk_sigs[i - begin] = sig_bytes;
              const GameInfo* gi = info.empty() ? nullptr : &info[candidates[i].id];
              candidates[i].alternatives =
                  filter->keep_encoded(sig_bytes, gi, candidates[i].alternatives, signature);
              chunk_pruned += candidates[i].alternatives == 0;
            }
            signature_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
            const uint64_t before = tested.fetch_add(end - begin);
            const uint64_t n = before + (end - begin);
            const uint64_t p = pruned.fetch_add(chunk_pruned) + chunk_pruned;
            // The signatures cost time; when they rule out almost nothing, stop asking them
            // (this only ever means more replay, never another answer).
            if (before < kAdaptSample && n >= kAdaptSample && p * 20 < n) filter_off = true;
          }
          for (size_t i = begin; i < end; ++i) {
            const GameInfo* gi = info.empty() ? nullptr : &info[candidates[i].id];
            const bool header_failed = candidates[i].alternatives & kHeaderFailed;
            const unsigned alternatives = candidates[i].alternatives & ~kHeaderFailed;
            if (!alternatives) continue;  // pruned by the signature test above
            std::string_view bytes;
            if (!reader.record(candidates[i].id, bytes)) continue;
            ++replayed_games;
            // Planner ply windows: evaluate only the plies where a match is possible.
            const std::vector<uint8_t>* windows = nullptr;
            std::string_view window_sig = chunk_sigs[i - begin];
            if (filter && filter->has_ply_windows() &&
                (!window_sig.empty() || reader.signature(candidates[i].id, window_sig)) &&
                !window_sig.empty() && filter->ply_windows(window_sig, alternatives, signature, allowed))
              windows = &allowed;
            matcher.set_ply_windows(windows);
            db::RecordView rec = db::RecordView::parse(bytes);
            bool hit = false;
            try {
              hit = matcher.match(rec, alternatives, gi, plies, local_positions);
            } catch (const EngineCancelled&) {  // Ctrl-C (or another worker failed) mid-search
              engine_cancelled = true;
              break;
            }
            if (header_failed) hit = false;
            if (hit != negated) {
              local.push_back({candidates[i].id, negated ? std::vector<uint32_t>{} : plies,
                               negated ? std::vector<VariationPly>{} : matcher.variation_plies()});
              ++found;
            }
          }
          if (engine_cancelled) break;
          searched += end - begin;
          if (options.limit && found >= options.limit && !negated) stop = true;
        }
        positions += local_positions;
        std::lock_guard lock(mutex);
        for (auto& m : local) replayed.push_back(std::move(m));
      } catch (...) {
        std::lock_guard lock(mutex);
        if (!error) error = std::current_exception();
        stop = true;
        failed = true;
      }
    };
    std::vector<std::thread> pool;
    for (unsigned i = 1; i < threads; ++i) pool.emplace_back(worker);
    if (options.progress) {
      std::thread progress_worker(worker);
      while (searched < candidates.size() && !stop && !(options.cancel && options.cancel->load())) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        options.progress(searched, candidates.size(), found);
      }
      progress_worker.join();
    } else {
      worker();
    }
    for (auto& t : pool) t.join();
    stats.engine_calls = analysis.engine_calls;
    stats.cache_hits = analysis.cache_hits;
    try {
      analysis.flush();  // the engine results of this query, for the next one
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cqldb: warning: engine results not cached: %s\n", e.what());
    }
    if (error) std::rethrow_exception(error);
    stats.games_replayed = replayed_games;
    stats.after_signatures = candidates.size() - pruned;
    stats.signature_seconds = double(signature_ns.load()) / 1e9 / threads;
    stats.positions = positions;
    stats.replay_seconds = since(replay_start) - stats.signature_seconds;
    if (negated && prune) {  // without the planner these were replayed above
      for (uint32_t id = 1; id <= count; ++id)
        if (!mask[id] && in_scope(id)) replayed.push_back({id, {}, {}});
    }
    matches = std::move(replayed);
    std::sort(matches.begin(), matches.end(),
              [](const GameMatch& a, const GameMatch& b) { return a.id < b.id; });
  }
  stats.cancelled = options.cancel && options.cancel->load();
  if (options.limit && matches.size() > options.limit) matches.resize(options.limit);
  stats.matches = matches.size();
  stats.seconds = since(start);
  return stats;
}

}  // namespace eval
