// The routes of `cqldb serve` (web/server.h), split by subject: the query routes
// (routes_query.cpp: POST/GET/DELETE /api/query...) and the others (routes_game.cpp:
// /api/info, /api/game/ID, /api/game/ID.pgn, /api/board.svg, /api/tree, /api/examples,
// /api/keywords, the page's files). README "The web interface" lists them with examples.
#pragma once

#include <httplib.h>

#include <functional>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/session.h"
#include "query/sharded.h"
#include "web/engine_line.h"
#include "web/query_registry.h"
#include "web/tree_cache.h"
#include "web/server.h"

namespace web {

/// What every route reads.
struct Context {
  ServeOptions options;
  /// The database or sharded database (query/sharded.h): every game id the routes take and
  /// give is global, so a sharded directory answers as the unsharded database would.
  std::unique_ptr<query::Store> store;
  QueryRegistry registry;
  std::unique_ptr<EngineService> engine;  ///< null with --no-engine
  TreeCache tree_cache;                   ///< the last trees the tree routes built
  /// The ids passing the last header filters asked for by a tree route (terms joined by
  /// '\n'), so stepping through positions under one filter reads the headers once.
  std::mutex filter_cache_mutex;
  std::string filter_cache_key;
  std::shared_ptr<const std::vector<uint32_t>> filter_cache_ids;
  Context(ServeOptions o, std::unique_ptr<query::Store> s)
      : options(std::move(o)),
        store(std::move(s)),
        registry(*store,
                 RegistryOptions{options.max_queries, 256, options.idle_cancel_seconds, options.query_threads,
                                 options.allow_write}) {
    if (options.engine)
      engine = std::make_unique<EngineService>(
          options.engine_name.empty() ? analysis::default_engine_name() : options.engine_name,
          options.engine_movetime_ms);
  }
};

/// Registers the query routes.
void install_query_routes(httplib::Server& http, Context& context);
/// Registers the game, board, tree, info, examples, keywords and page routes.
void install_game_routes(httplib::Server& http, Context& context);

/// Sets `json` as the response body with `status`.
void send_json(httplib::Response& res, const nlohmann::json& json, int status = 200);
/// send_json for an object whose keys keep their order (the opening tree, index/tree_json.h).
void send_ordered_json(httplib::Response& res, const nlohmann::ordered_json& json, int status = 200);

/// Runs `handler`, answering a thrown exception as a JSON error (400 for
/// std::invalid_argument, 404 for std::out_of_range, 500 otherwise).
void guarded(httplib::Response& res, const std::function<void()>& handler);

/// The filter fields of the page ({player, white, black, event, site, eco, result,
/// year_min, year_max, elo_min, elo_max, terms}) as header filter terms
/// (headers/filter_terms.h), the same terms the shell's `filter` and `cqldb tree --filter`
/// take. Throws std::invalid_argument naming a field that is unknown or not a string/number.
std::vector<std::string> filter_terms(const nlohmann::json& filters);

/// The unsigned number of query parameter `name` of `req`, `fallback` when absent. Throws
/// std::invalid_argument naming the parameter when it is not a number.
uint64_t number_param(const httplib::Request& req, const char* name, uint64_t fallback);

}  // namespace web
