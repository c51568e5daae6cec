#include "web/query_registry.h"

#include <algorithm>
#include <stdexcept>
#include <tuple>
#include <unordered_map>

#include "cql/parser.h"
#include "headers/filter_terms.h"
#include "headers/game_order.h"
#include "query/query.h"
#include "query/sharded.h"

namespace web {

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

const char* run_state_name(RunState state) {
  switch (state) {
    case RunState::kRunning: return "running";
    case RunState::kDone: return "done";
    case RunState::kCancelled: return "cancelled";
    case RunState::kFailed: return "failed";
  }
  return "failed";
}

QueryRegistry::QueryRegistry(const query::Store& store, RegistryOptions options) : store_(store), options_(options) {}

QueryRegistry::~QueryRegistry() {
  std::lock_guard lock(mutex_);
  for (auto& [id, entry] : runs_) entry.run->cancel = true;
  for (auto& [id, entry] : runs_)
    if (entry.thread.joinable()) entry.thread.join();
}

std::shared_ptr<QueryRun> QueryRegistry::start(const QueryRequest& request) {
  // Compile first (fast): errors go back to the client at once, with their line and column.
  auto compiled = std::make_shared<query::Query>(
      query::Query::compile(request.cql, "query", query::parse_dialect(request.dialect)));
  if (compiled->dialect() == query::Dialect::kCql6) {
    // CQL 6 (issue 36): the database is the input, so cql(input FILE) is ignored
    if (compiled->cql6_options().output)
      throw std::invalid_argument("the web interface writes no files: remove output from cql(...)");
  } else {
    const cql::Script script = cql::parse_or_throw(request.cql, "query");  // kept: keywords() points into it
    for (const cql::KeywordItem* k : script.match.keywords())
      if (k->keyword == cql::Keyword::Pgn || k->keyword == cql::Keyword::Output)
        throw std::invalid_argument("the web interface reads and writes no files: remove :pgn and :output");
  }
  if (!request.filter_terms.empty()) {
    std::string error;
    if (!headers::compile_filter_terms(request.filter_terms, error)) throw std::invalid_argument(error);
  }
  std::lock_guard lock(mutex_);
  size_t running = 0;
  for (const auto& [id, entry] : runs_) running += !entry.run->finished;
  if (running >= options_.max_running) return nullptr;
  auto run = std::make_shared<QueryRun>();
  const uint64_t serial = next_id_++;
  run->id = "q" + std::to_string(serial);
  run->request = request;
  run->last_seen_ms = steady_ms();
  run->plan = query::explain_plan(*compiled, true);
  Entry& entry = runs_[run->id];
  entry.run = run;
  entry.serial = serial;
  entry.thread = std::thread([this, run, compiled] { this->run(run, compiled); });
  return run;
}

void QueryRegistry::run(std::shared_ptr<QueryRun> run, std::shared_ptr<void> compiled_ptr) {
  const auto& compiled = *static_cast<const query::Query*>(compiled_ptr.get());
  query::Result result;
  std::string error;
  try {
    query::ExecuteOptions options;
    options.threads = options_.threads;
    options.analysis_cache = options_.analysis_cache;
    options.limit = run->request.limit;
    if (options.limit) options.sort = headers::parse_sort_order(run->request.sort);
    options.cancel = &run->cancel;
    options.progress = [&run](uint64_t searched, uint64_t total, uint64_t matches) {
      run->searched = searched;
      run->total = total;
      run->found = matches;
    };
    // The header filter fields: the same terms as the shell's `filter` (one compiler),
    // turned into the ids the query runs `within`.
    std::vector<uint32_t> within;
    if (!run->request.filter_terms.empty()) {
      std::string term_error;
      const auto filter = headers::compile_filter_terms(run->request.filter_terms, term_error);
      if (!filter) throw std::invalid_argument(term_error);
      within = store_.candidates(*filter);
      options.within = &within;
    }
    result = store_.execute(compiled, options);
  } catch (const std::exception& e) {
    error = e.what();
  }
  {
    std::lock_guard lock(run->mutex);
    if (!error.empty()) {
      run->state = RunState::kFailed;
      run->error = error;
    } else {
      run->state = result.stats.cancelled ? RunState::kCancelled : RunState::kDone;
      run->found = result.stats.matches;
      run->searched = result.stats.candidates;
      run->total = result.stats.candidates;
      run->result = std::move(result);
    }
    run->finished = true;
  }
  run->finished_signal.notify_all();
}

std::shared_ptr<QueryRun> QueryRegistry::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = runs_.find(id);
  if (it == runs_.end()) return nullptr;
  it->second.run->last_seen_ms = steady_ms();
  return it->second.run;
}

bool QueryRegistry::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = runs_.find(id);
  if (it == runs_.end()) return false;
  it->second.run->cancel = true;
  return true;
}

size_t QueryRegistry::running() const {
  std::lock_guard lock(mutex_);
  size_t n = 0;
  for (const auto& [id, entry] : runs_) n += !entry.run->finished;
  return n;
}

void QueryRegistry::sweep() {
  std::lock_guard lock(mutex_);
  const int64_t now = steady_ms();
  // (last asked about, serial, id): the runs nobody asked about for longest go first, so a
  // client still paging through its result keeps it while many others run queries.
  std::vector<std::tuple<int64_t, uint64_t, std::string>> finished;
  for (auto& [id, entry] : runs_) {
    QueryRun& run = *entry.run;
    if (!run.finished && now - run.last_seen_ms > int64_t(options_.idle_cancel_seconds) * 1000)
      run.cancel = true;  // the client went away
    if (run.finished) {
      if (entry.thread.joinable()) entry.thread.join();
      finished.emplace_back(run.last_seen_ms.load(), entry.serial, id);
    }
  }
  if (finished.size() <= options_.max_kept) return;
  std::sort(finished.begin(), finished.end());
  for (size_t i = 0; i + options_.max_kept < finished.size(); ++i) runs_.erase(std::get<2>(finished[i]));
}

std::vector<uint32_t> QueryRegistry::order(QueryRun& run, const std::string& sort) {
  std::lock_guard lock(run.mutex);
  if (auto it = run.orders.find(sort); it != run.orders.end()) return it->second;
  const std::vector<eval::GameMatch>& matches = run.result.matches;
  std::vector<uint32_t> order(matches.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  if (sort.empty() || sort == "id") {
  } else if (sort == "-id") {
    std::reverse(order.begin(), order.end());
  } else if (sort == "plies" || sort == "-plies") {
    // by the first matched main-line ply; games matched only in variations or by headers last
    auto first = [&](uint32_t i) { return matches[i].plies.empty() ? UINT32_MAX : matches[i].plies.front(); };
    const bool reversed = sort[0] == '-';
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      const uint32_t fa = first(a), fb = first(b);
      if (fa == UINT32_MAX || fb == UINT32_MAX) return fa != UINT32_MAX && fb == UINT32_MAX;
      return reversed ? fa > fb : fa < fb;
    });
  } else {
    const std::optional<headers::SortOrder> key = headers::parse_sort_order(sort);
    if (!key)
      throw std::invalid_argument("cannot sort by '" + sort + "' (expected " + std::string(headers::sort_order_names()) +
                                  ", plies)");
    // the games by id (Store::sort takes ascending ids; a run with a limit holds its first
    // sort's order), ordered over every part together, then back to indexes
    std::vector<eval::GameMatch> games;
    games.reserve(matches.size());
    for (const eval::GameMatch& m : matches) games.push_back({m.id, {}, {}});
    std::sort(games.begin(), games.end(), [](const eval::GameMatch& a, const eval::GameMatch& b) { return a.id < b.id; });
    store_.sort(games, *key);
    std::unordered_map<uint32_t, uint32_t> index;
    index.reserve(matches.size());
    for (uint32_t i = 0; i < matches.size(); ++i) index.emplace(matches[i].id, i);
    for (size_t i = 0; i < games.size(); ++i) order[i] = index.at(games[i].id);
  }
  run.orders.emplace(sort, order);
  return order;
}

}  // namespace web
