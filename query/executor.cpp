// The driver of query::execute: runs the stages of query/stages.h in order and collects their
// figures. See executor.h for the stage diagram.
#include "query/executor.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <unordered_map>

#include "db/database.h"
#include "headers/header_store.h"
#include "planner/explain.h"
#include "query/explain.h"
#include "query/stages.h"

namespace query {

namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

Result execute(const Query& query, db::Database& database, const ExecuteOptions& given) {
  const auto start = Clock::now();
  Result result;
  Stats& stats = result.stats;
  const eval::Program& program = query.program();
  db::GameReader snapshot = database.reader();  // the game count of this run
  // A sorted answer is cut after the sort: the stages search for every match.
  ExecuteOptions options = given;
  if (options.sort || query.program().cql6_sort()) options.limit = 0;  // CQL 6 sort too (issue 37)
  detail::RunState run{query, database, options, stats};
  run.game_count = snapshot.game_count();
  run.after_indexes = run.game_count;
  stats.games_total = run.game_count;
  for (const eval::Alternative& a : program.alternatives()) run.any_list |= !a.lists.empty();
  if (run.any_list && !program.negated()) run.plan = &query.plan();
  stats.planner_on = std::any_of(std::begin(kPruningStages), std::end(kPruningStages),
                                 [&](const char* s) { return options.enabled(s); });

  stats.stages.reserve(6);  // figures() hands out references: no reallocation
  auto figures = [&](const char* name) -> StageFigures& {
    stats.stages.push_back({});
    stats.stages.back().name = name;
    return stats.stages.back();
  };
  detail::PositionStage().run(run, figures(detail::PositionStage::kName));
  detail::PostingStage().run(run, figures(detail::PostingStage::kName));
  detail::HeaderStage().run(run, figures(detail::HeaderStage::kName));

  std::vector<eval::GameMatch>& matches = result.matches;
  const bool negated = program.negated();
  if (!run.any_list) {
    // The header conditions decide alone.
    for (uint32_t id = 1; id <= run.game_count; ++id)
      if ((run.mask[id] != 0) != negated && run.in_scope(id)) matches.push_back({id, {}, {}});
  } else {
    detail::SignatureStage signatures(run);
    detail::WindowStage windows(run);
    StageFigures& sig_figures = figures(detail::SignatureStage::kName);
    StageFigures& window_figures = figures(detail::WindowStage::kName);
    StageFigures& replay_figures = figures(detail::ReplayStage::kName);
    detail::ReplayStage().run(run, signatures, windows, matches, replay_figures);
    sig_figures.ran = signatures.active();
    sig_figures.in = stats.candidates;
    sig_figures.out = run.after_signatures;
    sig_figures.seconds = run.signature_seconds;
    if (!signatures.active()) sig_figures.note = options.enabled(detail::SignatureStage::kName) ? "nothing to test" : "off";
    window_figures.ran = windows.active();
    window_figures.in = window_figures.out = stats.games_replayed;
    if (!windows.active()) window_figures.note = options.enabled(detail::WindowStage::kName) ? "no windows" : "off";
    if (negated && options.enabled(detail::HeaderStage::kName)) {
      // Games whose headers fail match the negation without replay (with the header stage
      // off they were replayed above).
      for (uint32_t id = 1; id <= run.game_count; ++id)
        if (!run.mask[id] && run.in_scope(id)) matches.push_back({id, {}, {}});
    }
    std::sort(matches.begin(), matches.end(),
              [](const eval::GameMatch& a, const eval::GameMatch& b) { return a.id < b.id; });
  }
  stats.cancelled = options.cancel && options.cancel->load();
  stats.matches_found = matches.size();
  stats.search_complete = !stats.cancelled && !(options.limit && run.stopped_early);
  if (given.sort && !matches.empty()) {
    std::vector<uint32_t> ids;
    ids.reserve(matches.size());
    for (const eval::GameMatch& m : matches) ids.push_back(m.id);
    ids = headers::HeaderStore(database.path()).sort_ids(std::move(ids), *given.sort);
    std::unordered_map<uint32_t, size_t> position;  // id -> place in the order
    position.reserve(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) position.emplace(ids[i], i);
    std::vector<eval::GameMatch> sorted(matches.size());
    for (eval::GameMatch& m : matches) sorted[position.at(m.id)] = std::move(m);
    matches.swap(sorted);
  }
  if (!given.sort && query.program().cql6_sort() && !matches.empty()) {
    // CQL 6 `sort` (issue 37): by the games' sort values, largest first (`sort min`:
    // smallest first), equal values in id order, games without a value last
    const bool min = query.program().cql6_sort() == 2;
    const std::vector<bool>& keys = query.program().cql6_sort_keys();
    auto before = [](const std::optional<int64_t>& x, const std::optional<int64_t>& y, bool smallest) {
      if (x.has_value() != y.has_value()) return x.has_value() ? -1 : 1;  // no value: last
      if (!x || *x == *y) return 0;
      return (smallest ? *x < *y : *x > *y) ? -1 : 1;
    };
    std::stable_sort(matches.begin(), matches.end(), [&](const eval::GameMatch& a, const eval::GameMatch& b) {
      if (int r = before(a.sort_value, b.sort_value, min)) return r < 0;
      // later sorts break ties in turn (CQL 6.2)
      for (size_t k = 1; k < keys.size(); ++k) {
        const std::optional<int64_t> x = k - 1 < a.sort_keys.size() ? a.sort_keys[k - 1] : std::nullopt;
        const std::optional<int64_t> y = k - 1 < b.sort_keys.size() ? b.sort_keys[k - 1] : std::nullopt;
        if (int r = before(x, y, keys[k])) return r < 0;
      }
      return false;
    });
  }
  if (given.limit && matches.size() > given.limit) matches.resize(given.limit);
  stats.matches = matches.size();
  stats.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return result;
}

std::string pruning_stage_names() {
  std::string names;
  const size_t n = std::size(kPruningStages);
  for (size_t i = 0; i < n; ++i) names += std::string(i == 0 ? "" : i + 1 == n ? " or " : ", ") + kPruningStages[i];
  return names;
}

namespace {

std::string line(const char* label, uint64_t n, double seconds = -1) {
  char buf[160];
  if (seconds >= 0) std::snprintf(buf, sizeof buf, "  %-26s %14s   %8.3f s\n", label, with_commas(n).c_str(), seconds);
  else std::snprintf(buf, sizeof buf, "  %-26s %14s\n", label, with_commas(n).c_str());
  return buf;
}

}  // namespace

const StageFigures* Stats::stage(std::string_view name) const {
  for (const StageFigures& f : stages)
    if (f.name == name) return &f;
  return nullptr;
}

uint64_t Stats::after_indexes() const {
  uint64_t kept = games_total;
  for (const char* name : {"positions", "postings"})
    if (const StageFigures* f = stage(name); f && f->ran) kept = f->out;
  return kept;
}

uint64_t Stats::after_signatures() const {
  const StageFigures* f = stage("signatures");
  return f ? f->out : candidates;
}

std::string matches_text(const Stats& s) {
  const auto plural = [](uint64_t n) { return with_commas(n) + (n == 1 ? " match" : " matches"); };
  if (s.matches == s.matches_found) return plural(s.matches);
  if (s.search_complete) return with_commas(s.matches) + " of " + plural(s.matches_found);
  return "the first " + plural(s.matches);
}

std::string explain_stats(const Stats& s) {
  std::string out = "stages:\n";
  out += line("games in database", s.games_total);
  const StageFigures* positions = s.stage("positions");
  if (positions && positions->ran && s.planner_on)
    out += line("after position index", positions->out, positions->seconds);
  const StageFigures* postings = s.stage("postings");
  if (postings && s.planner_on)
    out += postings->ran ? line("after posting index", postings->out, postings->seconds)
                         : "  after posting index        (" + postings->note + ")\n";
  const StageFigures* headers = s.stage("headers");
  out += line("after header filter", s.candidates, headers ? headers->seconds : 0);
  const StageFigures* signatures = s.stage("signatures");
  if (signatures && s.planner_on) out += line("after signatures", signatures->out, signatures->seconds);
  const StageFigures* replay = s.stage("replay");
  out += line("games replayed", s.games_replayed, replay ? replay->seconds : 0);
  out += line("positions evaluated", s.positions);
  out += line("matches", s.matches);
  if (!s.damaged.empty()) out += line("damaged games skipped", s.damaged.size());
  char buf[80];
  std::snprintf(buf, sizeof buf, "  %-26s %14s   %8.3f s\n", "total", "", s.seconds);
  return out + buf;
}

std::string explain_plan(const Query& query, bool planner_on) {
  return planner::explain_plan(query.program(), planner_on ? &query.plan() : nullptr);
}

}  // namespace query
