#include "eval/search.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <optional>
#include <thread>

#include "db/database.h"
#include "db/record_view.h"
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

  // 1. Header conditions in SQLite: the candidates of each alternative.
  const auto& alts = program.alternatives();
  std::vector<unsigned> mask(size_t(count) + 1, 0);
  for (size_t a = 0; a < alts.size(); ++a) {
    if (alts[a].header.accepts_all()) {
      for (uint32_t id = 1; id <= count; ++id) mask[id] |= 1u << a;
    } else {
      for (uint32_t id : alts[a].header.candidates(database.path(), count)) mask[id] |= 1u << a;
    }
  }
  if (options.within) {
    std::vector<unsigned> restricted(mask.size(), 0);
    for (uint32_t id : *options.within)
      if (id <= count) restricted[id] = mask[id];
    mask.swap(restricted);
  }
  std::vector<GameInfo> info;
  if (program.needs_game_info() || (options.filter && options.filter->needs_game_info()))
    info = load_game_info(database.path(), count);
  stats.header_seconds = since(start);

  std::vector<Candidate> candidates;
  bool any_list = false;
  for (const Alternative& a : alts) any_list |= !a.lists.empty();
  for (uint32_t id = 1; id <= count; ++id)
    if (mask[id]) candidates.push_back({id, mask[id]});
  stats.candidates = candidates.size();
  stats.after_signatures = candidates.size();

  // 2. Signatures are tested by the replay workers below, just before each replay.
  const CandidateFilter* filter = (options.filter && any_list && !program.negated()) ? options.filter : nullptr;

  // Games that match or fail without replay.
  const bool negated = program.negated();
  auto in_scope = [&](uint32_t id) {
    return !options.within || std::binary_search(options.within->begin(), options.within->end(), id);
  };
  if (!any_list) {
    // Header conditions decide alone.
    for (uint32_t id = 1; id <= count; ++id)
      if ((mask[id] != 0) != negated && in_scope(id)) matches.push_back({id, {}});
  } else {
    // 3. Replay the candidates on all cores.
    const auto replay_start = Clock::now();
    unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
    threads = std::max(1u, std::min<unsigned>(threads, unsigned(candidates.size() / kChunk + 1)));
    std::atomic<size_t> next_chunk{0};
    std::atomic<uint64_t> found{0}, searched{0}, positions{0}, pruned{0}, replayed_games{0};
    std::atomic<int64_t> signature_ns{0};
    std::atomic<uint64_t> tested{0};
    std::atomic<bool> filter_off{false};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::exception_ptr error;
    std::vector<GameMatch> replayed;
    auto worker = [&] {
      try {
        db::GameReader reader = database.reader();
        GameMatcher matcher(program);
        sig::Signature signature;
        std::vector<GameMatch> local;
        std::vector<uint32_t> plies;
        uint64_t local_positions = 0;
        for (;;) {
          if (stop || (options.cancel && options.cancel->load())) break;
          size_t begin = next_chunk.fetch_add(kChunk);
          if (begin >= candidates.size()) break;
          size_t end = std::min(candidates.size(), begin + kChunk);
          std::optional<db::GameReader::SignatureScan> sigs;
          if (filter && !filter_off) sigs.emplace(reader.scan_signatures(candidates[begin].id, candidates[end - 1].id));
          for (size_t i = begin; i < end; ++i) {
            const GameInfo* gi = info.empty() ? nullptr : &info[candidates[i].id];
            unsigned alternatives = candidates[i].alternatives;
            if (filter && !filter_off.load(std::memory_order_relaxed)) {
              // Prune-only: a game whose signature rules out every alternative is skipped.
              const auto t0 = Clock::now();
              uint32_t sig_id = 0;
              std::string_view sig_bytes;
              while (sig_id < candidates[i].id && sigs->next(sig_id, sig_bytes)) {
              }
              if (sig_id == candidates[i].id && !sig_bytes.empty()) {
                sig::decode(sig_bytes, signature, filter->scope());
                alternatives = filter->keep(signature, gi, alternatives);
              }
              signature_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
              uint64_t n = ++tested;
              if (!alternatives) {
                ++pruned;
                continue;
              }
              // The signatures cost time; when they rule out almost nothing, stop asking them
              // (this only ever means more replay, never another answer).
              if (n == kAdaptSample && pruned.load() * 20 < n) filter_off = true;
            }
            std::string_view bytes;
            if (!reader.record(candidates[i].id, bytes)) continue;
            ++replayed_games;
            db::RecordView rec = db::RecordView::parse(bytes);
            bool hit = matcher.match(rec, alternatives, gi, plies, local_positions);
            if (hit != negated) {
              local.push_back({candidates[i].id, negated ? std::vector<uint32_t>{} : plies});
              ++found;
            }
          }
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
    if (error) std::rethrow_exception(error);
    stats.games_replayed = replayed_games;
    stats.after_signatures = candidates.size() - pruned;
    stats.signature_seconds = double(signature_ns.load()) / 1e9 / threads;
    stats.positions = positions;
    stats.replay_seconds = since(replay_start) - stats.signature_seconds;
    if (negated) {
      for (uint32_t id = 1; id <= count; ++id)
        if (!mask[id] && in_scope(id)) replayed.push_back({id, {}});
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
