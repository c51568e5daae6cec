// `cqldb serve` (issue 19): one process serving the single page (web/assets, embedded at
// build time) and the JSON API over the one query pipeline. Safe by default: it binds
// 127.0.0.1, answers only requests whose Host header names this machine (no DNS
// rebinding), reads no file-system path from any request, limits request bodies, result
// pages and concurrent queries, and writes nothing (game markers) unless allow_write.
// The routes are in web/routes.cpp, their JSON shapes in web/json_shape.h, the queries in
// web/query_registry.h; README "The web interface" documents the API.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>

namespace web {

/// How the server runs.
struct ServeOptions {
  std::filesystem::path db_dir;     ///< the database directory, or a sharded database's
  std::string host = "127.0.0.1";   ///< address to bind
  int port = 8080;                  ///< port to bind; 0 = any free port (bind() returns it)
  size_t max_queries = 4;           ///< queries running at once; more get HTTP 429
  bool allow_write = false;         ///< allow writes: game markers (POST /api/game/ID/marker) and
                                    ///< the engine's analysis cache in the database directory
  size_t max_body_bytes = 64 * 1024;///< request bodies above this get HTTP 413
  size_t max_page_rows = 500;       ///< rows per result page at most
  int idle_cancel_seconds = 20;     ///< a running query nobody polls for this long is cancelled
  unsigned query_threads = 0;       ///< search threads per query (0 = all cores)
  size_t http_threads = 32;         ///< connections served at once
  bool engine = true;               ///< GET /api/engine (the page's engine line); --no-engine: off
  std::string engine_name;          ///< engine name or path; "" = $CQLDB_ENGINE or stockfish
  int64_t engine_movetime_ms = 1000;///< how long one engine-line search runs
};

/// The HTTP server over one database (or sharded database).
class Server {
 public:
  /// Opens the database or sharded database (query/sharded.h) read-only
  /// (query::Store::open). Throws query::NoDatabase (no database in the directory),
  /// db::FormatError (another format version), std::runtime_error for a bad manifest and
  /// the storage errors of opening it.
  explicit Server(ServeOptions options);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  /// Binds host:port (port 0: a free port). Returns the bound port, or -1 when the address
  /// cannot be bound.
  int bind();
  /// Serves requests until stop() (blocks the calling thread). Requires bind().
  void serve();
  /// Stops serve() and cancels the running queries; callable from any thread.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// True when `host_header` (a request's Host: "localhost:8080", "[::1]", ...) names the
/// loopback address or `bound_host`, without a port or with `port`.
bool host_allowed(const std::string& host_header, const std::string& bound_host, int port);

}  // namespace web
