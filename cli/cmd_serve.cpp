// `cqldb serve --db DIR [--host H] [--port P] [--max-queries N] [--allow-write] [--no-engine]`: the web
// interface and JSON API of web/server.h. Ctrl-C (SIGINT) or SIGTERM stops it.
//
// Exit codes: 0 stopped by a signal, 1 the address cannot be bound or the database cannot be
// opened, 2 usage error; built without the web libraries, 1 with a note.
#include <csignal>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"

#ifdef CQLDB_HAVE_WEB
#include <pthread.h>

#include "web/server.h"
#endif

namespace cli {

int run_serve(const std::vector<std::string>& args) {
#ifndef CQLDB_HAVE_WEB
  (void)args;
  std::fprintf(stderr,
               "cqldb serve: this cqldb was built without the web interface (install libcpp-httplib-dev and "
               "nlohmann-json3-dev, then rebuild)\n");
  return 1;
#else
  namespace po = boost::program_options;
  web::ServeOptions serve;
  std::string db_dir;
  unsigned threads = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir), "database directory")(
      "host", po::value(&serve.host)->default_value("127.0.0.1"),
      "address to listen on (127.0.0.1: this machine only; 0.0.0.0 exposes the database to the network)")(
      "port", po::value(&serve.port)->default_value(8080), "port to listen on (0 = any free port)")(
      "max-queries", po::value(&serve.max_queries)->default_value(4),
      "queries running at once; more are refused with HTTP 429")(
      "threads", po::value(&threads)->default_value(0), "search threads per query (0 = all cores)")(
      "allow-write", "allow writes through the web (game markers); read-only without it")(
      "no-engine", "turn the page's engine line off (GET /api/engine answers 403)")(
      "engine", po::value(&serve.engine_name), "engine of the engine line: a name or path (default $CQLDB_ENGINE or stockfish)")(
      "engine-time", po::value(&serve.engine_movetime_ms)->default_value(1000),
      "milliseconds one engine-line search runs (100..10000)");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("serve", options, positional, args, vm)) return *exit;
  if (!require_database("serve", db_dir)) return kUsageError;
  if (serve.max_queries == 0 || serve.port < 0 || serve.port > 65535) {
    std::fprintf(stderr, "cqldb serve: --max-queries must be at least 1 and --port 0..65535\n");
    return kUsageError;
  }
  serve.db_dir = db_dir;
  serve.allow_write = vm.count("allow-write") != 0;
  serve.engine = vm.count("no-engine") == 0;
  if (serve.engine_movetime_ms < 100 || serve.engine_movetime_ms > 10000) {
    std::fprintf(stderr, "cqldb serve: --engine-time must be 100..10000 milliseconds\n");
    return kUsageError;
  }
  serve.query_threads = threads;
  // Signals are taken by sigwait below, not by a handler: stop() is not async-signal-safe.
  sigset_t signals;
  sigemptyset(&signals);
  sigaddset(&signals, SIGINT);
  sigaddset(&signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &signals, nullptr);
  web::Server server(serve);
  const int port = server.bind();
  if (port < 0) {
    std::fprintf(stderr, "cqldb serve: cannot listen on %s:%d (in use? try --port)\n", serve.host.c_str(), serve.port);
    return 1;
  }
  const std::string shown = serve.host.find(':') != std::string::npos ? "[" + serve.host + "]" : serve.host;
  std::printf("cqldb serve: %s on http://%s:%d/ (%s; Ctrl-C stops)\n", db_dir.c_str(), shown.c_str(), port,
              serve.allow_write ? "writes allowed" : "read-only");
  std::fflush(stdout);
  std::thread listener([&server] { server.serve(); });
  int received = 0;
  sigwait(&signals, &received);
  std::fprintf(stderr, "cqldb serve: stopping\n");
  server.stop();
  listener.join();
  return 0;
#endif
}

}  // namespace cli
