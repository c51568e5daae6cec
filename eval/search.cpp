#include "eval/search.h"

#include <algorithm>
#include <chrono>
#include <mutex>
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

  // 2. Signatures: drop candidates that cannot match (prune only; replay decides).
  if (options.filter && any_list && !program.negated() && !candidates.empty()) {
    const auto sig_start = Clock::now();
    sig::Signature signature;
    size_t kept = 0, next = 0;
    auto scan = snapshot.scan_signatures(candidates.front().id, candidates.back().id);
    uint32_t id;
    std::string_view bytes;
    while (next < candidates.size() && scan.next(id, bytes)) {
      if (id != candidates[next].id) continue;
      Candidate c = candidates[next++];
      if (!bytes.empty()) {
        sig::decode(bytes, signature, options.filter->scope());
        c.alternatives = options.filter->keep(signature, info.empty() ? nullptr : &info[c.id], c.alternatives);
      }
      if (c.alternatives) candidates[kept++] = c;
    }
    while (next < candidates.size()) candidates[kept++] = candidates[next++];
    candidates.resize(kept);
    stats.signature_seconds = since(sig_start);
  }
  stats.after_signatures = candidates.size();

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
    std::atomic<uint64_t> found{0}, searched{0}, positions{0};
    std::atomic<bool> stop{false};
    std::mutex mutex;
    std::exception_ptr error;
    std::vector<GameMatch> replayed;
    auto worker = [&] {
      try {
        db::GameReader reader = database.reader();
        GameMatcher matcher(program);
        std::vector<GameMatch> local;
        std::vector<uint32_t> plies;
        uint64_t local_positions = 0;
        for (;;) {
          if (stop || (options.cancel && options.cancel->load())) break;
          size_t begin = next_chunk.fetch_add(kChunk);
          if (begin >= candidates.size()) break;
          size_t end = std::min(candidates.size(), begin + kChunk);
          for (size_t i = begin; i < end; ++i) {
            std::string_view bytes;
            if (!reader.record(candidates[i].id, bytes)) continue;
            db::RecordView rec = db::RecordView::parse(bytes);
            const GameInfo* gi = info.empty() ? nullptr : &info[candidates[i].id];
            bool hit = matcher.match(rec, candidates[i].alternatives, gi, plies, local_positions);
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
    stats.games_replayed = searched;
    stats.positions = positions;
    stats.replay_seconds = since(replay_start);
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
