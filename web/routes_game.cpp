// GET /api/info, /api/game/ID, /api/game/ID.pgn, /api/board.svg, /api/tree, /api/examples,
// /api/keywords; POST /api/game/ID/marker (only with --allow-write); the page's files.
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <map>
#include <mutex>

#include "chess/position.h"
#include "chess/san.h"
#include "cql/keyword_help.h"
#include "cql/keywords.h"
#include "db/game_markers.h"
#include "db/pgn_writer.h"
#include "chess/movegen.h"
#include "headers/filter_terms.h"
#include "headers/game_order.h"
#include "index/position_tree.h"
#include "index/tree_json.h"
#include "render/board_svg.h"
#include "render/game_walk.h"
#include "web/assets.h"
#include "web/json_shape.h"
#include "web/routes.h"

namespace web {

namespace {

using nlohmann::json;

/// The match of game `id` in query `query_id` (a query parameter), nullptr when none was
/// asked, the query is unknown or unfinished, or the game is not in its result.
const eval::GameMatch* match_of(Context& context, const httplib::Request& req, uint32_t id,
                                std::shared_ptr<QueryRun>& keep) {
  if (!req.has_param("query")) return nullptr;
  keep = context.registry.find(req.get_param_value("query"));
  if (!keep || !keep->finished) return nullptr;
  const std::vector<eval::GameMatch>& matches = keep->result.matches;
  auto it = std::lower_bound(matches.begin(), matches.end(), id,
                             [](const eval::GameMatch& m, uint32_t value) { return m.id < value; });
  return it != matches.end() && it->id == id ? &*it : nullptr;
}

/// Game id `text` of the database; throws std::out_of_range when there is none.
uint32_t game_id(Context& context, const std::string& text) {
  const uint64_t id = std::stoull(text);
  const uint32_t count = context.store->game_count();
  if (id == 0 || id > count)
    throw std::out_of_range("no game " + text + " (ids are 1.." + std::to_string(count) + ")");
  return uint32_t(id);
}

/// The gzip encoding of `asset`, made on first use and kept.
const std::string& gzipped_asset(const Asset& asset) {
  static std::mutex mutex;
  static std::map<std::string_view, std::string> done;
  std::lock_guard lock(mutex);
  auto [it, added] = done.try_emplace(asset.name);
  if (!added) return it->second;
  z_stream stream{};
  if (deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16 /* gzip */, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib: deflateInit2 failed");
  std::string& out = it->second;
  out.resize(deflateBound(&stream, uLong(asset.content.size())));
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(asset.content.data()));
  stream.avail_in = uInt(asset.content.size());
  stream.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.avail_out = uInt(out.size());
  const int status = deflate(&stream, Z_FINISH);
  out.resize(stream.total_out);
  deflateEnd(&stream);
  if (status != Z_STREAM_END) {
    done.erase(it);
    throw std::runtime_error("zlib: deflate failed");
  }
  return out;
}

/// CPU time of the calling thread in milliseconds.
double thread_cpu_ms() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

/// What a tree route reads: the position and the games it is restricted to.
struct TreeScope {
  chess::Position pos;
  bool restricted = false;       ///< only the games in `within`
  std::vector<uint32_t> within;  ///< ascending ids
  std::string key;               ///< position, query, filter terms and game count (TreeCache)
};

/// The tree of `scope` with at least `top_games` top games (web/tree_cache.h), summed over
/// the parts of a sharded database (query::Store::tree). Answers 409 and returns null when
/// the database (a part) has no current position index.
std::shared_ptr<const posindex::Tree> scope_tree(Context& context, const TreeScope& scope, size_t top_games,
                                                 httplib::Response& res) {
  try {
    return context.tree_cache.get(scope.key, top_games, [&](size_t top) {
      return context.store->tree(scope.pos, scope.restricted ? &scope.within : nullptr, top);
    });
  } catch (const query::NoPositionIndex& e) {
    send_json(res, error_json(e.what()), 409);
    return nullptr;
  }
}

/// Fills `scope` from the request's fen, query and filters parameters. Throws
/// std::invalid_argument for a bad FEN or filter, std::out_of_range for an unknown query.
void tree_scope(Context& context, const httplib::Request& req, TreeScope& scope) {
  const std::string fen = req.has_param("fen") ? req.get_param_value("fen")
                                               : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  if (const chess::FenError err = scope.pos.set_fen(fen); !err.ok()) throw std::invalid_argument("fen: " + err.message);
  scope.key = scope.pos.fen() + "|" + std::to_string(context.store->game_count()) + "|";
  if (req.has_param("query")) {
    scope.key += req.get_param_value("query");
    std::shared_ptr<QueryRun> run = context.registry.find(req.get_param_value("query"));
    if (!run || !run->finished) throw std::out_of_range("no finished query " + req.get_param_value("query"));
    for (const eval::GameMatch& m : run->result.matches) scope.within.push_back(m.id);
    scope.restricted = true;
  }
  if (req.has_param("filters")) {
    const json filters = json::parse(req.get_param_value("filters"), nullptr, false);
    if (filters.is_discarded()) throw std::invalid_argument("filters: expected a JSON object");
    const std::vector<std::string> terms = filter_terms(filters);
    if (!terms.empty()) {
      std::string key;
      for (const std::string& t : terms) key += t + "\n";
      scope.key += "|" + key;
      std::shared_ptr<const std::vector<uint32_t>> ids;
      {
        std::lock_guard lock(context.filter_cache_mutex);
        if (context.filter_cache_key == key) ids = context.filter_cache_ids;
      }
      if (!ids) {
        std::string error;
        const std::optional<headers::HeaderFilter> filter = headers::compile_filter_terms(terms, error);
        if (!filter) throw std::invalid_argument(error);
        ids = std::make_shared<const std::vector<uint32_t>>(context.store->candidates(*filter));
        std::lock_guard lock(context.filter_cache_mutex);
        context.filter_cache_key = key;
        context.filter_cache_ids = ids;
      }
      if (scope.restricted) {
        std::vector<uint32_t> both;
        std::set_intersection(scope.within.begin(), scope.within.end(), ids->begin(), ids->end(), std::back_inserter(both));
        scope.within = std::move(both);
      } else {
        scope.within = *ids;
      }
      scope.restricted = true;
    }
  }
}

/// The directory of the database (or shard) holding game `id` and its id there: game
/// markers are kept in that database's header store (db/game_markers.h).
std::filesystem::path marker_dir(Context& context, uint32_t id, uint32_t& local) {
  const query::Store::Part* part = context.store->part_of(id, local);
  if (!part) throw std::out_of_range("no game " + std::to_string(id));
  return part->dir;
}

}  // namespace

void install_game_routes(httplib::Server& http, Context& context) {
  http.Get("/api/info", [&context](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] {
      send_json(res, {{"games", context.store->game_count()},
                      {"database", context.options.db_dir.filename().string()},
                      {"allow_write", context.options.allow_write},
                      {"max_queries", context.options.max_queries},
                      {"running_queries", context.registry.running()},
                      {"max_page_rows", context.options.max_page_rows},
                      {"engine", context.engine != nullptr},
                      {"sorts", std::string(headers::sort_order_names()) + ", plies"},
                      {"filters", {"player", "white", "black", "year_min", "year_max", "elo_min", "elo_max", "eco",
                                   "result", "event", "site", "terms"}}});
    });
  });

  http.Get(R"(/api/game/([0-9]{1,10}))", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const uint32_t id = game_id(context, req.matches[1]);
      query::Store::Reader reader = context.store->reader();
      db::GameHeader header;
      db::RecordView record;
      if (!reader.read_header(id, header) || !reader.record_view(id, record))
        throw std::out_of_range("no game " + std::to_string(id));
      json j = game_json(header, render::walk_game(record));
      std::shared_ptr<QueryRun> keep;
      if (const eval::GameMatch* m = match_of(context, req, id, keep)) {
        json paths = json::array();
        for (const eval::VariationPly& p : m->variation_plies) paths.push_back(render::path_text(p));
        j["matched"] = {{"plies", m->plies}, {"variation_plies", paths}};
      }
      uint32_t local = 0;
      const std::filesystem::path dir = marker_dir(context, id, local);
      j["markers"] = db::game_markers(dir, local);
      send_json(res, j);
    });
  });

  http.Get(R"(/api/game/([0-9]{1,10})\.pgn)", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const uint32_t id = game_id(context, req.matches[1]);
      query::Store::Reader reader = context.store->reader();
      db::GameHeader header;
      db::RecordView record;  // with its annotations (comments, NAGs, clocks, evaluations)
      if (!reader.read_header(id, header) || !reader.record_view(id, record))
        throw std::out_of_range("no game " + std::to_string(id));
      db::PgnWriteOptions options;
      std::shared_ptr<QueryRun> keep;
      if (const eval::GameMatch* m = match_of(context, req, id, keep)) {
        options.match_plies = m->plies;
        options.match_variation_plies = m->variation_plies;
      }
      std::string text;
      db::write_pgn(header, record, text, options);
      res.set_content(text, "application/x-chess-pgn; charset=utf-8");
    });
  });

  http.Get("/api/board.svg", [](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      render::BoardSvgOptions options;
      options.flipped = req.get_param_value("flip") == "1";
      options.coordinates = req.get_param_value("coords") != "0";
      std::string error;
      if (req.has_param("marks")) {
        const auto marks = render::parse_square_list(req.get_param_value("marks"), error);
        if (!marks) throw std::invalid_argument("marks: " + error);
        options.marked = *marks;
      }
      if (req.has_param("size")) options.size = unsigned(std::clamp<uint64_t>(number_param(req, "size", 360), 64, 2048));
      if (req.has_param("move")) {  // the last move, "e2e4", highlighted
        const std::string move = req.get_param_value("move");
        const auto squares = render::parse_square_list(move.size() == 4 ? move.substr(0, 2) + "," + move.substr(2) : move, error);
        if (!squares || move.size() != 4) throw std::invalid_argument("move: expected two squares such as e2e4");
        options.from = chess::make_square(chess::File(move[0] - 'a'), chess::Rank(move[1] - '1'));
        options.to = chess::make_square(chess::File(move[2] - 'a'), chess::Rank(move[3] - '1'));
      }
      const std::string fen = req.has_param("fen") ? req.get_param_value("fen")
                                                   : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
      const auto svg = render::board_svg_from_fen(fen, options, error);
      if (!svg) throw std::invalid_argument("fen: " + error);
      res.set_content(*svg, "image/svg+xml");
    });
  });

  // The opening tree of a position (index/position_tree.h, as `cqldb tree --format jsonl`),
  // over every game, the result of query `query`, the games passing `filters` (the page's
  // filter fields as JSON, as POST /api/query takes them), or both.
  http.Get("/api/tree", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const auto started = std::chrono::steady_clock::now();
      const double cpu_started = thread_cpu_ms();
      TreeScope scope;
      tree_scope(context, req, scope);
      const std::shared_ptr<const posindex::Tree> kept = scope_tree(context, scope, posindex::Tree::kTopGames, res);
      if (!kept) return;
      const posindex::Tree& tree = *kept;
      const chess::Position& pos = scope.pos;
      // the shape of `cqldb tree --format jsonl`: its kTopGames top games, though the kept
      // tree may hold more for /api/tree/games
      posindex::Tree trimmed;
      const posindex::Tree* shown = &tree;
      if (tree.top_games.size() > posindex::Tree::kTopGames) {
        trimmed = tree;
        trimmed.top_games.resize(posindex::Tree::kTopGames);
        shown = &trimmed;
      }
      query::Store::Reader reader = context.store->reader();
      send_ordered_json(res, posindex::tree_json(*shown, pos, reader));
      // the server's time for the tree, wall and this thread's CPU (web/test/bench_web.mjs's
      // figures; the CPU time does not depend on what else the machine runs)
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
      res.set_header("Server-Timing", "tree;dur=" + std::to_string(ms) + ", cpu;dur=" + std::to_string(thread_cpu_ms() - cpu_started));
    });
  });

  // The games reaching a position (the tree's games, same scope as /api/tree), highest
  // rated first, a page at a time: {count, offset, rows} with rows as the query routes'.
  http.Get("/api/tree/games", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      TreeScope scope;
      tree_scope(context, req, scope);
      const uint64_t offset = std::min<uint64_t>(number_param(req, "offset", 0), 100000);
      const uint64_t limit = std::min<uint64_t>(number_param(req, "limit", 10), context.options.max_page_rows);
      const std::shared_ptr<const posindex::Tree> kept = scope_tree(context, scope, offset + limit, res);
      if (!kept) return;
      const posindex::Tree& tree = *kept;
      json rows = json::array();
      db::GameHeader header;
      query::Store::Reader reader = context.store->reader();
      for (size_t i = offset; i < tree.top_games.size() && i < offset + limit; ++i) {
        if (!reader.read_header(tree.top_games[i].id, header)) continue;
        rows.push_back(row_json(header, eval::GameMatch{tree.top_games[i].id, {}, {}}));
      }
      send_json(res, {{"count", tree.total.games}, {"offset", offset}, {"rows", std::move(rows)}});
    });
  });

  // The engine line of a position (web/engine_line.h): {kind, value, depth, pv, san,
  // engine} or {cancelled: true} when a newer request took the engine.
  http.Get("/api/engine", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      if (!context.engine) {
        send_json(res, error_json("the engine is off (cqldb serve --no-engine)"), 403);
        return;
      }
      chess::Position pos;
      if (const chess::FenError err = pos.set_fen(req.get_param_value("fen")); !err.ok())
        throw std::invalid_argument("fen: " + err.message);
      chess::MoveList legal;
      chess::generate_legal(pos, legal);
      if (legal.empty())
        throw std::invalid_argument("fen: the side to move has no legal move");
      const EngineLine line = context.engine->evaluate(pos.fen());
      if (line.cancelled) {
        send_json(res, {{"cancelled", true}});
        return;
      }
      send_json(res, {{"kind", line.kind}, {"value", line.value}, {"depth", line.depth}, {"pv", line.pv},
                      {"engine", line.engine}});
    });
  });

  http.Get("/api/examples", [](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const Asset& a : all_assets()) {
      if (a.name.substr(0, 8) != "queries/") continue;
      std::string title;  // the first comment line of the script
      const std::string_view text = a.content;
      for (size_t i = 0; i < text.size();) {
        size_t end = text.find('\n', i);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(i, end - i);
        if (!line.empty() && line[0] == ';') {
          title = std::string(line.substr(line.find_first_not_of("; ")));
          break;
        }
        i = end + 1;
      }
      list.push_back({{"name", std::string(a.name.substr(8))}, {"title", title}, {"cql", std::string(a.content)}});
    }
    send_json(res, list);
  });

  http.Get("/api/keywords", [](const httplib::Request&, httplib::Response& res) {
    json list = json::array();
    for (const cql::KeywordInfo& k : cql::all_keywords()) {
      json row = {{"name", std::string(k.name)}, {"usage", std::string(k.usage)},
                  {"description", std::string(k.description)}};
      if (const cql::KeywordHelp* help = cql::find_keyword_help(k.keyword)) {
        row["family"] = std::string(help->family);
        row["example"] = cql::example_script(*help);
      }
      list.push_back(std::move(row));
    }
    send_json(res, list);
  });

  http.Post(R"(/api/game/([0-9]{1,10})/marker)", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      if (!context.options.allow_write) {
        send_json(res, error_json("read-only: start `cqldb serve` with --allow-write to set markers"), 403);
        return;
      }
      const uint32_t id = game_id(context, req.matches[1]);
      const json body = json::parse(req.body, nullptr, false);
      if (!body.is_object()) throw std::invalid_argument("expected {\"marker\": \"!\", \"clear\": false}");
      uint32_t local = 0;
      const std::filesystem::path dir = marker_dir(context, id, local);
      db::set_game_marker(dir, local, body.value("marker", std::string()), body.value("clear", false));
      send_json(res, {{"id", id}, {"markers", db::game_markers(dir, local)}});
    });
  });

  auto page = [](const httplib::Request& req, const std::string& name, httplib::Response& res) {
    const Asset* asset = find_asset("assets/" + name);
    if (!asset) {
      send_json(res, error_json("no file " + name), 404);
      return;
    }
    // httplib compresses a text answer for each request, with brotli at its slowest setting
    // when the client takes it (about 1 s for app.js on a busy machine): the page's files are
    // gzipped once (gzipped_asset) and sent as they are, with the client's Accept-Encoding
    // taken off the request so httplib does not compress them again.
    const bool gzip = req.get_header_value("Accept-Encoding").find("gzip") != std::string::npos;
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
    if (gzip) {
      res.set_content(gzipped_asset(*asset), content_type_of(asset->name));
      res.set_header("Content-Encoding", "gzip");
    } else {
      res.set_content(std::string(asset->content), content_type_of(asset->name));
    }
    res.set_header("Vary", "Accept-Encoding");
    res.set_header("Cache-Control", "no-cache");
  };
  http.Get("/", [page](const httplib::Request& req, httplib::Response& res) { page(req, "index.html", res); });
  http.Get(R"(/assets/([a-z0-9_-]{1,40}\.(js|css|html|svg)))",
           [page](const httplib::Request& req, httplib::Response& res) { page(req, req.matches[1], res); });
}

}  // namespace web
