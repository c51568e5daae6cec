#include "query/sharded.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fstream>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include "db/schema.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "query/explain.h"
#include "query/result_json.h"

namespace query {

namespace {

double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Adds the figures of `b` (a part's, whose ids start at `first_id`) into `a` (the first
/// part's copied whole); seconds are wall time, so the largest.
void add_stats(Stats& a, const Stats& b, uint32_t first_id, bool first) {
  if (first) {
    a = b;
    a.damaged.clear();
  } else {
    a.games_total += b.games_total;
    a.candidates += b.candidates;
    a.games_replayed += b.games_replayed;
    a.positions += b.positions;
    a.matches += b.matches;
    a.matches_found += b.matches_found;
    a.search_complete = a.search_complete && b.search_complete;
    a.cancelled = a.cancelled || b.cancelled;
    a.engine_calls += b.engine_calls;
    a.cache_hits += b.cache_hits;
    a.planner_on = a.planner_on || b.planner_on;
    for (size_t i = 0; i < a.stages.size() && i < b.stages.size(); ++i) {
      StageFigures& s = a.stages[i];
      const StageFigures& t = b.stages[i];
      s.ran = s.ran || t.ran;
      s.in += t.in;
      s.out += t.out;
      s.seconds = std::max(s.seconds, t.seconds);
      if (s.note.empty()) s.note = t.note;
    }
  }
  for (uint32_t id : b.damaged) a.damaged.push_back(id + first_id - 1);
}

/// Adds the tree statistics `b` into `a` (the games of `b` have higher ids than those of `a`).
void add_tree_stats(posindex::TreeStats& a, const posindex::TreeStats& b) {
  a.games += b.games;
  a.white += b.white;
  a.draws += b.draws;
  a.black += b.black;
  a.rating_sum += b.rating_sum;
  a.rated += b.rated;
  a.opponent_sum += b.opponent_sum;
  a.opponents += b.opponents;
  a.mover_points += b.mover_points;
  if (b.first_year && (!a.first_year || b.first_year < a.first_year)) a.first_year = b.first_year;
  a.last_year = std::max(a.last_year, b.last_year);
  if (b.best.id && (!a.best.id || b.best.rating() > a.best.rating())) a.best = b.best;
}

void globalize(posindex::TreeGame& g, uint32_t first_id) {
  if (g.id) g.id += first_id - 1;
}

}  // namespace

bool is_sharded(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(dir / kShardManifest, ec);
}

std::vector<ShardInfo> read_manifest(const std::filesystem::path& dir) {
  const std::filesystem::path file = dir / kShardManifest;
  std::ifstream in(file);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
    if (j.at("format").get<std::string>() != "cqldb-sharded")
      throw std::runtime_error("not a cqldb sharded manifest");
    std::vector<ShardInfo> shards;
    uint32_t next = 1;
    for (const nlohmann::json& s : j.at("shards")) {
      ShardInfo info{s.at("path").get<std::string>(), s.at("first_id").get<uint32_t>(), s.at("games").get<uint32_t>()};
      if (info.first_id != next)
        throw std::runtime_error("shard " + info.path + " starts at id " + std::to_string(info.first_id) +
                                 ", expected " + std::to_string(next));
      if (info.path.empty() || info.path.find("..") != std::string::npos || info.path.front() == '/')
        throw std::runtime_error("shard path '" + info.path + "' is not a plain name inside the directory");
      next = info.first_id + info.games;
      shards.push_back(std::move(info));
    }
    return shards;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(file.string() + ": malformed manifest: " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(file.string() + ": " + e.what());
  }
}

void write_manifest(const std::filesystem::path& dir, const std::vector<ShardInfo>& shards, uint64_t shard_size) {
  nlohmann::json j;
  j["format"] = "cqldb-sharded";
  j["version"] = 1;
  if (shard_size) j["shard_size"] = shard_size;
  uint64_t games = 0;
  nlohmann::json list = nlohmann::json::array();
  for (const ShardInfo& s : shards) {
    list.push_back({{"path", s.path}, {"first_id", s.first_id}, {"games", s.games}});
    games += s.games;
  }
  j["games"] = games;
  j["shards"] = list;
  const std::filesystem::path tmp = dir / (std::string(kShardManifest) + ".tmp");
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << j.dump(2) << '\n';
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, dir / kShardManifest);
}

std::unique_ptr<Store> Store::open(const std::filesystem::path& dir, bool readonly) {
  auto store = std::make_unique<Store>();
  store->dir_ = dir;
  if (is_sharded(dir)) {
    store->sharded_ = true;
    for (const ShardInfo& s : read_manifest(dir)) {
      Part part;
      part.dir = dir / s.path;
      part.name = s.path;
      part.first_id = s.first_id;
      part.database = std::make_unique<db::Database>(readonly ? open_database(part.dir)
                                                              : db::Database::create_or_open(part.dir));
      part.games = part.database->reader().game_count();
      if (part.games != s.games)
        throw std::runtime_error(part.dir.string() + " holds " + std::to_string(part.games) +
                                 " games, the manifest says " + std::to_string(s.games));
      store->parts_.push_back(std::move(part));
    }
    return store;
  }
  Part part;
  part.dir = dir;
  part.name = ".";
  part.database = std::make_unique<db::Database>(readonly ? open_database(dir) : db::Database::create_or_open(dir));
  part.games = part.database->reader().game_count();
  store->parts_.push_back(std::move(part));
  return store;
}

uint32_t Store::game_count() const {
  uint32_t n = 0;
  for (const Part& p : parts_) n += p.games;
  return n;
}

std::vector<ShardInfo> Store::shards() const {
  std::vector<ShardInfo> out;
  for (const Part& p : parts_) out.push_back({p.name, p.first_id, p.games});
  return out;
}

Result Store::execute(const Query& query, const ExecuteOptions& options) const {
  if (parts_.size() == 1 && !sharded_) return query::execute(query, *parts_[0].database, options);
  const auto start = std::chrono::steady_clock::now();
  const size_t k = parts_.size();
  const unsigned total_threads = options.threads ? options.threads : std::max(1u, std::thread::hardware_concurrency());
  std::vector<Result> results(k);
  std::vector<std::vector<uint32_t>> within(k);
  if (options.within)
    for (uint32_t id : *options.within)
      for (size_t i = 0; i < k; ++i)
        if (id >= parts_[i].first_id && id < parts_[i].first_id + parts_[i].games)
          within[i].push_back(id - parts_[i].first_id + 1);
  std::vector<std::atomic<uint64_t>> searched(k), total(k), found(k);
  std::exception_ptr error;
  std::mutex mutex;
  std::atomic<size_t> done{0};
  std::condition_variable all_done;  // notified (under `mutex`) as each part ends
  auto run = [&](size_t i) {
    try {
      ExecuteOptions o = options;
      // A sort orders every part's matches together after the run (issue 40: the first N
      // of the merged sorted answer), so each part finds all of its matches, in id order.
      if (options.sort) {
        o.sort.reset();
        o.limit = 0;
      }
      // parts share the threads: each gets its share, at least one
      o.threads = std::max<unsigned>(1, unsigned(total_threads / k + (i < total_threads % k ? 1 : 0)));
      o.within = options.within ? &within[i] : nullptr;
      o.progress = nullptr;
      if (options.progress)
        o.progress = [&, i](uint64_t s, uint64_t t, uint64_t m) {
          searched[i] = s;
          total[i] = t;
          found[i] = m;
        };
      results[i] = query::execute(query, *parts_[i].database, o);
    } catch (...) {
      std::lock_guard lock(mutex);
      if (!error) error = std::current_exception();
    }
    {
      std::lock_guard lock(mutex);
      ++done;
    }
    all_done.notify_all();
  };
  std::vector<std::thread> pool;
  for (size_t i = 0; i < k; ++i) pool.emplace_back(run, i);
  if (options.progress) {
    // every 100 ms, and not a moment longer once the last part has ended
    std::unique_lock lock(mutex);
    while (!all_done.wait_for(lock, std::chrono::milliseconds(100), [&] { return done.load() == k; })) {
      lock.unlock();
      uint64_t s = 0, t = 0, m = 0;
      for (size_t i = 0; i < k; ++i) s += searched[i], t += total[i], m += found[i];
      options.progress(s, t, m);
      lock.lock();
    }
  }
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
  Result merged;
  for (size_t i = 0; i < k; ++i) {
    for (eval::GameMatch& m : results[i].matches) {
      m.id += parts_[i].first_id - 1;
      merged.matches.push_back(std::move(m));
    }
    add_stats(merged.stats, results[i].stats, parts_[i].first_id, i == 0);
  }
  // query::execute's rules over the merged answer: with a sort, the whole answer ordered and
  // then cut; without, the lowest ids (each part stopped at the limit: its matches_found and
  // search_complete say so)
  merged.stats.matches_found = std::max<uint64_t>(merged.stats.matches_found, merged.matches.size());
  if (options.sort) {
    merged.stats.matches_found = merged.matches.size();
    merged.stats.search_complete = !merged.stats.cancelled;
    sort(merged.matches, *options.sort);
  } else if (const int order = query.program().cql6_sort()) {
    // CQL 6 sort (issue 37), as query::execute orders one part: by sort value, stable
    std::stable_sort(merged.matches.begin(), merged.matches.end(), [order](const eval::GameMatch& a, const eval::GameMatch& b) {
      if (a.sort_value.has_value() != b.sort_value.has_value()) return a.sort_value.has_value();
      if (!a.sort_value) return false;
      return order == 2 ? *a.sort_value < *b.sort_value : *a.sort_value > *b.sort_value;
    });
  }
  if (options.limit && merged.matches.size() > options.limit) merged.matches.resize(options.limit);
  merged.stats.matches = merged.matches.size();
  merged.stats.seconds = since(start);
  return merged;
}

void Store::sort(std::vector<eval::GameMatch>& matches, headers::SortOrder order) const {
  std::vector<headers::SortEntry> entries;
  entries.reserve(matches.size());
  size_t i = 0;
  for (const Part& part : parts_) {
    std::vector<uint32_t> local;
    const uint32_t last = part.first_id + part.games - 1;
    size_t j = i;
    while (j < matches.size() && matches[j].id <= last) local.push_back(matches[j++].id - part.first_id + 1);
    if (!local.empty()) {
      std::vector<headers::SortEntry> part_entries = headers::HeaderStore(part.dir).sort_entries(local, order);
      for (headers::SortEntry& e : part_entries) {
        e.id += part.first_id - 1;
        if (order.key == headers::SortKey::kId) e.number = e.id;  // the value is the id itself
        entries.push_back(std::move(e));
      }
    }
    i = j;
  }
  if (i != matches.size()) throw std::out_of_range("no game " + std::to_string(matches[i].id));
  headers::sort_entries(entries, order);
  std::vector<eval::GameMatch> sorted;
  sorted.reserve(matches.size());
  // matches are in ascending id order: find each entry's match by binary search
  for (const headers::SortEntry& e : entries) {
    auto it = std::lower_bound(matches.begin(), matches.end(), e.id,
                               [](const eval::GameMatch& m, uint32_t id) { return m.id < id; });
    sorted.push_back(std::move(*it));
  }
  matches.swap(sorted);
}

void merge_tree(posindex::Tree& into, const posindex::Tree& part, size_t top_games) {
  add_tree_stats(into.total, part.total);
  into.ended += part.ended;
  into.index_hits += part.index_hits;
  into.replayed += part.replayed;
  for (const posindex::TreeMove& m : part.moves) {
    auto it = std::find_if(into.moves.begin(), into.moves.end(),
                           [&](const posindex::TreeMove& n) { return n.move == m.move; });
    if (it == into.moves.end()) into.moves.push_back(m);
    else add_tree_stats(it->stats, m.stats);
  }
  into.top_games.insert(into.top_games.end(), part.top_games.begin(), part.top_games.end());
  // the orders of posindex::build_tree: moves by games then move value; top games by rating
  // then id
  std::sort(into.moves.begin(), into.moves.end(), [](const posindex::TreeMove& a, const posindex::TreeMove& b) {
    return a.stats.games != b.stats.games ? a.stats.games > b.stats.games : a.move.raw() < b.move.raw();
  });
  std::sort(into.top_games.begin(), into.top_games.end(), [](const posindex::TreeGame& a, const posindex::TreeGame& b) {
    return a.rating() != b.rating() ? a.rating() > b.rating() : a.id < b.id;
  });
  if (into.top_games.size() > top_games) into.top_games.resize(top_games);
}

namespace {

nlohmann::json game_to_json(const posindex::TreeGame& g) {
  return {g.id, g.white_elo, g.black_elo, g.year, g.result};
}

posindex::TreeGame game_from_json(const nlohmann::json& j) {
  return {j.at(0).get<uint32_t>(), j.at(1).get<uint16_t>(), j.at(2).get<uint16_t>(), j.at(3).get<uint16_t>(),
          j.at(4).get<uint8_t>()};
}

nlohmann::json stats_to_json(const posindex::TreeStats& s) {
  return {{"games", s.games}, {"white", s.white}, {"draws", s.draws}, {"black", s.black},
          {"rating_sum", s.rating_sum}, {"rated", s.rated}, {"opponent_sum", s.opponent_sum},
          {"opponents", s.opponents}, {"mover_points", s.mover_points}, {"first_year", s.first_year},
          {"last_year", s.last_year}, {"best", game_to_json(s.best)}};
}

posindex::TreeStats stats_from_json(const nlohmann::json& j) {
  posindex::TreeStats s;
  s.games = j.at("games");
  s.white = j.at("white");
  s.draws = j.at("draws");
  s.black = j.at("black");
  s.rating_sum = j.at("rating_sum");
  s.rated = j.at("rated");
  s.opponent_sum = j.at("opponent_sum");
  s.opponents = j.at("opponents");
  s.mover_points = j.at("mover_points");
  s.first_year = j.at("first_year");
  s.last_year = j.at("last_year");
  s.best = game_from_json(j.at("best"));
  return s;
}

}  // namespace

std::string tree_part_json(const posindex::Tree& tree, const posindex::HeaderLookup& headers) {
  nlohmann::json j;
  j["total"] = stats_to_json(tree.total);
  j["ended"] = tree.ended;
  j["index_hits"] = tree.index_hits;
  j["replayed"] = tree.replayed;
  nlohmann::json moves = nlohmann::json::array(), top = nlohmann::json::array(), players = nlohmann::json::object();
  auto name = [&](const posindex::TreeGame& g) {
    db::GameHeader h;
    if (g.id && headers(g.id, h)) players[std::to_string(g.id)] = {h.white, h.black};
  };
  name(tree.total.best);
  for (const posindex::TreeMove& m : tree.moves) {
    moves.push_back({{"move", m.move.raw()}, {"stats", stats_to_json(m.stats)}});
    name(m.stats.best);
  }
  for (const posindex::TreeGame& g : tree.top_games) {
    top.push_back(game_to_json(g));
    name(g);
  }
  j["moves"] = moves;
  j["top_games"] = top;
  j["players"] = players;
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

posindex::Tree tree_from_part_json(const std::string& text,
                                   std::unordered_map<uint32_t, std::pair<std::string, std::string>>& players) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    posindex::Tree t;
    t.total = stats_from_json(j.at("total"));
    t.ended = j.at("ended");
    t.index_hits = j.at("index_hits");
    t.replayed = j.at("replayed");
    for (const nlohmann::json& m : j.at("moves"))
      t.moves.push_back({chess::Move(m.at("move").get<uint16_t>()), stats_from_json(m.at("stats"))});
    for (const nlohmann::json& g : j.at("top_games")) t.top_games.push_back(game_from_json(g));
    for (const auto& [id, names] : j.at("players").items())
      players[uint32_t(std::stoul(id))] = {names.at(0).get<std::string>(), names.at(1).get<std::string>()};
    return t;
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("malformed tree part: ") + e.what());
  }
}

std::vector<uint32_t> Store::candidates(const headers::HeaderFilter& filter) const {
  std::vector<uint32_t> ids;
  for (const Part& part : parts_) {
    const std::vector<uint32_t> local = headers::HeaderStore(part.dir).candidates(filter, part.games);
    for (uint32_t id : local) ids.push_back(id + part.first_id - 1);
  }
  return ids;
}

const Store::Part* Store::part_of(uint32_t id, uint32_t& local) const {
  auto it = std::upper_bound(parts_.begin(), parts_.end(), id, [](uint32_t v, const Part& p) { return v < p.first_id; });
  if (it == parts_.begin() || id == 0) return nullptr;
  --it;
  if (id >= it->first_id + it->games) return nullptr;
  local = id - it->first_id + 1;
  return &*it;
}

posindex::Tree Store::tree(const chess::Position& pos, const std::vector<uint32_t>* within, size_t top_games) const {
  posindex::Tree merged;
  for (const Part& part : parts_) {
    std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(part.dir);
    if (!index)
      throw NoPositionIndex(part.dir.string() + " has no current position index: run `cqldb reindex --db " +
                               part.dir.string() + " --positions-only`");
    std::vector<uint32_t> local;
    if (within)
      for (uint32_t id : *within)
        if (id >= part.first_id && id < part.first_id + part.games) local.push_back(id - part.first_id + 1);
    db::GameReader reader = part.database->reader();
    posindex::Tree t = posindex::build_tree(*index, reader, pos, within ? &local : nullptr, top_games);
    if (parts_.size() == 1) return t;
    globalize(t.total.best, part.first_id);
    for (posindex::TreeMove& m : t.moves) globalize(m.stats.best, part.first_id);
    for (posindex::TreeGame& g : t.top_games) globalize(g, part.first_id);
    merge_tree(merged, t, top_games);
  }
  return merged;
}

std::string Store::tree_json(const chess::Position& pos, const std::vector<uint32_t>* within) const {
  const posindex::Tree t = tree(pos, within);
  Reader reader(*this);
  return json_text(posindex::tree_json(t, pos, reader));
}

std::string Store::explain(const Query& query) const {
  return explain_plan(query, true) + explain_bound_values(query) + explain_estimates(query);
}

std::string Store::explain_estimates(const Query& query) const {
  std::string out;
  for (const Part& part : parts_) {
    if (sharded_)
      out += "shard " + part.name + " (ids " + std::to_string(part.first_id) + ".." +
             std::to_string(part.first_id + part.games - 1) + "):\n";
    out += query::explain_estimates(query, *part.database);
  }
  return out;
}

db::DatabaseInfo Store::info(std::vector<ShardInfo>* shards) const {
  db::DatabaseInfo sum;
  for (const Part& part : parts_) {
    const db::DatabaseInfo i = part.database->info();
    sum.games += i.games;
    sum.rejected += i.rejected;
    sum.warnings += i.warnings;
    sum.files += i.files;
    sum.uncommitted_records += i.uncommitted_records;
    sum.games_bytes += i.games_bytes;
    sum.headers_bytes += i.headers_bytes;
    sum.format_version = i.format_version;
    sum.record_format_version = i.record_format_version;
    sum.games_with_clocks += i.games_with_clocks;
    sum.games_with_evals += i.games_with_evals;
    sum.move_record_bytes += i.move_record_bytes;
    sum.annotation_bytes += i.annotation_bytes;
  }
  sum.bytes_per_game = sum.games ? double(sum.games_bytes + sum.headers_bytes) / sum.games : 0;
  if (shards) *shards = this->shards();
  return sum;
}

Store::Reader::Reader(const Store& store) : store_(store), readers_(store.parts_.size()) {}

db::GameReader* Store::Reader::locate(uint32_t id, uint32_t& local) const {
  const Part* part = store_.part_of(id, local);
  if (!part) return nullptr;
  const size_t i = size_t(part - store_.parts_.data());
  if (!readers_[i]) readers_[i] = std::make_unique<db::GameReader>(part->database->reader());
  return readers_[i].get();
}

bool Store::Reader::read_header(uint32_t id, db::GameHeader& header) {
  uint32_t local = 0;
  db::GameReader* r = locate(id, local);
  if (!r || !r->read_header(local, header)) return false;
  header.id = id;
  return true;
}

bool Store::Reader::record_view(uint32_t id, db::RecordView& record, bool with_annotations) const {
  uint32_t local = 0;
  db::GameReader* r = locate(id, local);
  return r && r->record_view(local, record, with_annotations);
}

bool Store::Reader::record(uint32_t id, std::string_view& bytes) const {
  uint32_t local = 0;
  db::GameReader* r = locate(id, local);
  return r && r->record(local, bytes);
}

}  // namespace query
