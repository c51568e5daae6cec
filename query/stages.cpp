#include "query/stages.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <iterator>
#include <mutex>
#include <thread>

#include "analysis/session.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/record_view.h"
#include "eval/cql6_values.h"
#include "eval/game_matcher.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/postings.h"
#include "planner/position_plan.h"

namespace query::detail {

namespace {

using Clock = std::chrono::steady_clock;

/// The CQL 6 output of a matched game (issue 37): its sort value ("title: value" as a
/// comment at ply 0), the `comment` texts of its matched plies, its `settag` tags.
void cql6_output(const eval::Program& program, const eval::cql6_values::GameOutput& out, eval::GameMatch& m) {
  if (program.cql6_sort_matchcount()) {  // header `sort matchcount`: the matched positions
    m.sort_value = int64_t(m.plies.size() + m.variation_plies.size());
    m.comments.emplace_back(0, "matchcount: " + std::to_string(*m.sort_value));
  } else if (out.has_sort || !out.sorts.empty()) {
    if (!out.sorts.empty()) m.sort_value = out.sorts[0];
    for (size_t k = 1; k < out.sorts.size(); ++k) m.sort_keys.push_back(out.sorts[k]);
  }
  if (!program.cql6_sort_matchcount() && out.has_sort) {  // "title: value" of every sort but `sort quiet`
    std::string text;
    for (size_t k = 0; k < out.sorts.size() && k < out.sort_nodes.size(); ++k) {
      const cql6::Node* sort = out.sort_nodes[k];
      if (!out.sorts[k] || !sort || (sort->flags & cql6::kSortQuiet)) continue;
      if (!text.empty()) text += ' ';
      text += (sort->text.empty() ? "sort" : sort->text) + ": " + std::to_string(*out.sorts[k]);
    }
    if (!text.empty()) m.comments.emplace_back(0, std::move(text));
  }
  for (const auto& [ply, text] : out.comments)
    if (std::binary_search(m.plies.begin(), m.plies.end(), ply)) m.comments.emplace_back(ply, text);
  std::stable_sort(m.comments.begin(), m.comments.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [where, text] : out.variation_comments)
    if (std::find(m.variation_plies.begin(), m.variation_plies.end(), where) != m.variation_plies.end())
      m.variation_comments.emplace_back(where, text);
  for (const auto& [origin, where, text] : out.tree_comments)  // reached from a matched position
    if (std::binary_search(m.plies.begin(), m.plies.end(), origin)) m.variation_comments.emplace_back(where, text);
  m.tags = out.tags;
}

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr size_t kChunk = 512;  // candidates claimed by a replay worker at a time
/// Signatures tested before deciding whether they prune enough (>= 5%) to keep testing.
constexpr uint64_t kAdaptSample = 8192;

}  // namespace

bool RunState::in_scope(uint32_t id) const {
  return !options.within || std::binary_search(options.within->begin(), options.within->end(), id);
}

// ---- postings

void PostingStage::run(RunState& run, StageFigures& figures) {
  const auto start = Clock::now();
  const auto& alts = run.query.program().alternatives();
  // The positions stage ran first: its candidates (if any) stay and are narrowed further.
  run.posted.resize(alts.size());
  figures.in = run.after_indexes;
  figures.out = figures.in;
  if (!run.plan || !run.plan->prunes() || !run.options.enabled(kName)) {
    figures.note = run.options.enabled(kName) ? "nothing to narrow" : "off";
    return;
  }
  std::optional<sig::Postings> postings = sig::Postings::open(run.database.path());
  if (!postings) {
    figures.note = "no current postings.bin: cqldb reindex builds it";
    return;
  }
  for (size_t a = 0; a < alts.size(); ++a) {
    // Few games left by the position index: the signatures test them; bitmaps would cost more.
    if (run.posted[a] && run.posted[a]->size() * 16 < run.game_count) continue;
    std::optional<std::vector<uint32_t>> found = run.plan->posting_candidates(*postings, a, run.game_count);
    if (!found) continue;
    if (run.posted[a]) {
      std::vector<uint32_t> both;
      std::set_intersection(run.posted[a]->begin(), run.posted[a]->end(), found->begin(), found->end(),
                            std::back_inserter(both));
      run.posted[a] = std::move(both);
    } else {
      run.posted[a] = std::move(found);
    }
  }
  // The games some alternative keeps (no array over every game: a one-shot query on millions
  // of games pays for its candidates only, issue 16).
  bool all_posted = true;
  std::vector<uint32_t> kept;
  for (const auto& p : run.posted) {
    if (!p) {
      all_posted = false;
      break;
    }
    kept.insert(kept.end(), p->begin(), p->end());
  }
  if (all_posted && run.posted.size() > 1) {
    std::sort(kept.begin(), kept.end());
    kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
  }
  figures.ran = true;
  figures.out = all_posted ? kept.size() : run.game_count;
  figures.seconds = since(start);
  run.after_indexes = figures.out;
}

// ---- positions

void PositionStage::run(RunState& run, StageFigures& figures) {
  const auto start = Clock::now();
  const auto& alts = run.query.program().alternatives();
  figures.in = run.game_count;
  figures.out = figures.in;
  run.posted.assign(alts.size(), std::nullopt);
  bool any = false;
  if (run.plan)
    for (size_t a = 0; a < alts.size(); ++a) any = any || planner::uses_position_index(run.plan->condition(a));
  if (!any || !run.options.enabled(kName)) {
    figures.note = run.options.enabled(kName) ? "no :fen position to look up" : "off";
    return;
  }
  std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(run.database.path());
  if (!index) {
    figures.note = "no current position index: cqldb reindex --positions-only builds it";
    return;
  }
  for (size_t a = 0; a < alts.size(); ++a)
    run.posted[a] = planner::position_candidates(run.plan->condition(a), *index, run.game_count);
  std::vector<uint8_t> any_alt(size_t(run.game_count) + 1, 0);
  for (const auto& p : run.posted) {
    if (!p) {
      std::fill(any_alt.begin() + 1, any_alt.end(), 1);
      break;
    }
    for (uint32_t id : *p) any_alt[id] = 1;
  }
  figures.ran = true;
  figures.out = uint64_t(std::count(any_alt.begin() + 1, any_alt.end(), 1));
  figures.seconds = since(start);
  run.after_indexes = figures.out;
}

// ---- headers

void HeaderStage::run(RunState& run, StageFigures& figures) {
  const auto start = Clock::now();
  const auto& alts = run.query.program().alternatives();
  const uint32_t count = run.game_count;
  figures.in = run.after_indexes;
  bool any_header = false;
  std::optional<headers::HeaderStore> store;
  // Sparse: every alternative has a candidate list from the index stages and the game mask
  // is not needed afterwards (header pruning on, no negation, no `within`): the candidates
  // are merged from the lists, without an array over every game (issue 16: a one-shot query
  // on millions of games pays for its candidates only).
  const bool prune = run.options.enabled(kName);
  bool sparse = prune && run.any_list && !run.query.program().negated() && !run.options.within &&
                alts.size() <= 8 * sizeof(unsigned);
  for (const auto& p : run.posted) sparse = sparse && p.has_value();
  if (sparse) {
    std::vector<std::pair<uint32_t, unsigned>> kept;  // (game, alternative bit)
    for (size_t a = 0; a < alts.size(); ++a) {
      const std::vector<uint32_t>& within = *run.posted[a];
      if (alts[a].header.accepts_all()) {
        for (uint32_t id : within) kept.emplace_back(id, 1u << a);
        continue;
      }
      any_header = true;
      if (!store) store.emplace(run.database.path());
      for (uint32_t id : store->candidates(alts[a].header, count, &within)) kept.emplace_back(id, 1u << a);
    }
    std::sort(kept.begin(), kept.end());
    run.candidates.clear();
    for (const auto& [id, bit] : kept) {
      if (id == 0 || id > count) continue;
      if (!run.candidates.empty() && run.candidates.back().id == id) run.candidates.back().alternatives |= bit;
      else run.candidates.push_back({id, bit});
    }
  }
  if (!sparse) run.mask.assign(size_t(count) + 1, 0);
  for (size_t a = 0; a < alts.size() && !sparse; ++a) {
    const std::vector<uint32_t>* within = run.posted[a] ? &*run.posted[a] : nullptr;
    if (alts[a].header.accepts_all()) {
      if (within) {
        for (uint32_t id : *within) run.mask[id] |= 1u << a;
      } else {
        for (uint32_t id = 1; id <= count; ++id) run.mask[id] |= 1u << a;
      }
      continue;
    }
    any_header = true;
    if (!store) store.emplace(run.database.path());
    for (uint32_t id : store->candidates(alts[a].header, count, within)) run.mask[id] |= 1u << a;
  }
  if (run.options.within && !sparse) {
    std::vector<unsigned> restricted(run.mask.size(), 0);
    for (uint32_t id : *run.options.within)
      if (id <= count) restricted[id] = run.mask[id];
    run.mask.swap(restricted);
  }
  // Off, the header conditions prune nothing: every game in scope is replayed, and one whose
  // headers fail is then no match.
  const unsigned all_alternatives = (1u << alts.size()) - 1;
  if (!sparse) run.candidates.clear();
  for (uint32_t id = 1; id <= count && !sparse; ++id) {
    if (run.mask[id]) run.candidates.push_back({id, run.mask[id]});
    else if (!prune && run.any_list && run.in_scope(id)) run.candidates.push_back({id, all_alternatives | kHeaderFailed});
  }
  if (run.query.program().needs_game_info() || (run.plan && run.plan->needs_game_info())) {
    if (!store) store.emplace(run.database.path());
    // Few candidates: their rows only (point lookups) instead of a scan of every game.
    if (run.candidates.size() * 8 < count) {
      std::vector<uint32_t> ids;
      ids.reserve(run.candidates.size());
      for (const Candidate& c : run.candidates) ids.push_back(c.id);
      run.info = store->game_info(count, &ids);
    } else {
      run.info = store->game_info(count);
    }
    if (run.query.program().needs_game_text()) {  // CQL 6 string values of headers (issue 37)
      std::vector<uint32_t> ids;
      for (const Candidate& c : run.candidates) ids.push_back(c.id);
      const std::vector<std::string>& tags = run.query.program().cql6_tag_names();
      run.text = store->game_text(count, run.candidates.size() * 8 < count ? &ids : nullptr, tags);
      for (size_t id = 0; id < run.info.size() && id < run.text.size(); ++id) run.info[id].text = &run.text[id];
    }
  }
  figures.ran = any_header || !run.info.empty();
  if (!any_header) figures.note = "no header condition";
  else if (!prune) figures.note = "off: decides after replay";
  figures.out = run.candidates.size();
  figures.seconds = since(start);
  run.stats.candidates = run.candidates.size();
  run.after_signatures = run.candidates.size();
}

// ---- signatures

SignatureStage::SignatureStage(const RunState& run)
    : active_(run.plan && run.plan->prunes() && run.options.enabled(kName)) {}

void SignatureStage::test_chunk(RunState& run, db::GameReader& reader, size_t begin, size_t end,
                                std::vector<std::string_view>& chunk_sigs, sig::Signature& scratch,
                                std::vector<uint32_t>& damaged) {
  chunk_sigs.assign(end - begin, std::string_view());
  if (!active_ || gave_up_.load(std::memory_order_relaxed)) return;
  // Prune-only: the signatures of the whole chunk first (one cursor pass, one clock reading);
  // a game whose signature rules out every alternative gets 0 and is not replayed. Each
  // chunk's candidates belong to one worker alone.
  std::vector<Candidate>& candidates = run.candidates;
  const auto t0 = Clock::now();
  auto sigs = reader.scan_signatures(candidates[begin].id, candidates[end - 1].id);
  // Sparse candidates (a selective header filter): one lookup each instead of a cursor pass
  // over every id between them.
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
    const headers::GameInfo* gi = run.info.empty() ? nullptr : &run.info[candidates[i].id];
    // kHeaderFailed (the header stage is off) is not an alternative: keep it beside the kept ones.
    const unsigned header_failed = candidates[i].alternatives & kHeaderFailed;
    unsigned kept = 0;
    try {
      kept = run.plan->keep_encoded(sig_bytes, gi, candidates[i].alternatives & ~kHeaderFailed, scratch);
    } catch (const sig::CorruptSignature&) {  // one damaged signature: skip its game, answer the rest
      damaged.push_back(candidates[i].id);
      candidates[i].alternatives = 0;
      chunk_sigs[i - begin] = {};
      continue;
    }
    candidates[i].alternatives = kept ? kept | header_failed : 0;
    chunk_pruned += candidates[i].alternatives == 0;
  }
  nanoseconds_ += std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  const uint64_t before = tested_.fetch_add(end - begin);
  const uint64_t n = before + (end - begin);
  const uint64_t p = pruned_.fetch_add(chunk_pruned) + chunk_pruned;
  // The signatures cost time; when they rule out almost nothing, stop asking them (this only
  // ever means more replay, never another answer).
  if (before < kAdaptSample && n >= kAdaptSample && p * 20 < n) gave_up_ = true;
}

// ---- windows

WindowStage::WindowStage(const RunState& run)
    : active_(run.plan && run.plan->prunes() && run.plan->has_ply_windows() && run.options.enabled(kName)) {}

const std::vector<uint8_t>* WindowStage::windows(const RunState& run, db::GameReader& reader, uint32_t id,
                                                 unsigned alternatives, std::string_view sig_bytes,
                                                 sig::Signature& scratch, std::vector<uint8_t>& allowed) const {
  if (!active_) return nullptr;
  if (sig_bytes.empty() && !reader.signature(id, sig_bytes)) return nullptr;
  if (sig_bytes.empty() || !run.plan->ply_windows(sig_bytes, alternatives, scratch, allowed)) return nullptr;
  return &allowed;
}

// ---- replay

void ReplayStage::run(RunState& run, SignatureStage& signatures, const WindowStage& window_stage,
                      std::vector<eval::GameMatch>& matches, StageFigures& figures) {
  const auto replay_start = Clock::now();
  const ExecuteOptions& options = run.options;
  const eval::Program& program = run.query.program();
  std::vector<Candidate>& candidates = run.candidates;
  const bool negated = program.negated();
  figures.in = candidates.size();
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, std::min<unsigned>(threads, unsigned(candidates.size() / kChunk + 1)));
  if (program.sequential()) threads = 1;  // CQL 6 persistent variables: games in id order (issue 37)
  std::atomic<size_t> next_chunk{0};
  std::atomic<uint64_t> found{0}, searched{0}, positions{0}, replayed_games{0};
  std::atomic<bool> stop{false};
  std::atomic<bool> failed{false};  // a worker threw: engine waits of the others end
  analysis::AnalysisSession analysis_session(
      options.engine,
      options.analysis_cache ? run.database.path() / analysis::AnalysisCache::kFileName : std::filesystem::path(),
      options.cancel, &failed);
  std::mutex mutex;
  std::exception_ptr error;
  std::vector<uint32_t> damaged;
  auto worker = [&] {
    try {
      db::GameReader reader = run.database.reader();
      eval::GameMatcher matcher(program);
      analysis::AnalysisContext analysis_context(analysis_session);  // no engine until needed
      matcher.set_analysis(&analysis_context);
      bool engine_cancelled = false;
      sig::Signature scratch;
      std::vector<uint8_t> allowed;  // ply windows of the game being replayed
      std::vector<std::string_view> chunk_sigs;
      std::vector<eval::GameMatch> local;
      std::vector<uint32_t> local_damaged;
      std::vector<uint32_t> plies;
      uint64_t local_positions = 0;
      for (;;) {
        if (stop || (options.cancel && options.cancel->load())) break;
        size_t begin = next_chunk.fetch_add(kChunk);
        if (begin >= candidates.size()) break;
        size_t end = std::min(candidates.size(), begin + kChunk);
        signatures.test_chunk(run, reader, begin, end, chunk_sigs, scratch, local_damaged);
        for (size_t i = begin; i < end; ++i) {
          const uint32_t id = candidates[i].id;
          const headers::GameInfo* gi = run.info.empty() ? nullptr : &run.info[id];
          const bool header_failed = candidates[i].alternatives & kHeaderFailed;
          const unsigned alternatives = candidates[i].alternatives & ~kHeaderFailed;
          if (!alternatives) continue;  // pruned by the signature test
          bool hit = false;
          try {
            std::string_view bytes;
            if (!reader.record(id, bytes)) continue;
            ++replayed_games;
            matcher.set_ply_windows(
                window_stage.windows(run, reader, id, alternatives, chunk_sigs[i - begin], scratch, allowed));
            db::RecordView rec = db::RecordView::parse(bytes);
            hit = matcher.match(rec, alternatives, gi, plies, local_positions);
          } catch (const analysis::EngineCancelled&) {  // Ctrl-C (or another worker failed)
            engine_cancelled = true;
            break;
          } catch (const db::CorruptRecord&) {  // one damaged record: skip it, answer the rest
            local_damaged.push_back(id);
            continue;
          } catch (const db::FormatError&) {  // a record of the wrong shape
            local_damaged.push_back(id);
            continue;
          } catch (const db::LmdbError&) {  // a damaged page under the record (MDB_PAGE_NOTFOUND)
            local_damaged.push_back(id);
            continue;
          } catch (const sig::CorruptSignature&) {  // its signature, read for the ply windows
            local_damaged.push_back(id);
            continue;
          }
          if (header_failed) hit = false;
          if (hit != negated) {
            local.push_back({id, negated ? std::vector<uint32_t>{} : plies,
                             negated ? std::vector<eval::VariationPly>{} : matcher.variation_plies()});
            if (program.cql6_sort() || program.cql6_output())  // CQL 6 sort, comment, settag (issue 37)
              cql6_output(program, eval::cql6_values::game_output(), local.back());
            ++found;
          }
        }
        if (engine_cancelled) break;
        searched += end - begin;
        if (options.limit && found >= options.limit && !negated) stop = true;
      }
      positions += local_positions;
      std::lock_guard lock(mutex);
      for (auto& m : local) matches.push_back(std::move(m));
      damaged.insert(damaged.end(), local_damaged.begin(), local_damaged.end());
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
    // Progress every 100 ms, and no waiting once this thread's share of the work is done: a
    // short query (a Dask task on a small shard) must not wait out the interval.
    std::mutex wake_mutex;
    std::condition_variable wake;
    bool worked = false;
    std::thread progress_worker([&] {
      worker();
      {
        std::lock_guard lock(wake_mutex);
        worked = true;
      }
      wake.notify_all();
    });
    {
      std::unique_lock lock(wake_mutex);
      while (searched < candidates.size() && !stop && !(options.cancel && options.cancel->load())) {
        if (wake.wait_for(lock, std::chrono::milliseconds(100), [&] { return worked; })) break;
        lock.unlock();
        options.progress(searched, candidates.size(), found);
        lock.lock();
      }
    }
    progress_worker.join();
  } else {
    worker();
  }
  for (auto& t : pool) t.join();
  Stats& stats = run.stats;
  stats.engine_calls = analysis_session.engine_calls;
  stats.cache_hits = analysis_session.cache_hits;
  try {
    analysis_session.flush();  // the engine results of this query, for the next one
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cqldb: warning: engine results not cached: %s\n", e.what());
  }
  if (error) std::rethrow_exception(error);
  run.stopped_early = stop && searched < candidates.size();
  std::sort(damaged.begin(), damaged.end());
  stats.damaged = std::move(damaged);
  stats.games_replayed = replayed_games;
  run.after_signatures = candidates.size() - signatures.pruned();
  run.signature_seconds = signatures.seconds() / threads;
  stats.positions = positions;
  figures.ran = true;
  figures.in = run.after_signatures;
  figures.out = found;
  figures.seconds = since(replay_start) - run.signature_seconds;
}

}  // namespace query::detail
