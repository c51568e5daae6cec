#include "web/server.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <condition_variable>
#include <thread>

#include "db/errors.h"
#include "query/sharded.h"
#include "web/json_shape.h"
#include "web/routes.h"

namespace web {

void send_json(httplib::Response& res, const nlohmann::json& json, int status) {
  res.status = status;
  // "; charset=utf-8": httplib compresses an "application/json" answer (exactly that type)
  // for each request, with brotli at its slowest setting, which costs more than it saves.
  res.set_content(json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace), "application/json; charset=utf-8");
}

void send_ordered_json(httplib::Response& res, const nlohmann::ordered_json& json, int status) {
  res.status = status;
  res.set_content(json.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace), "application/json");
}

void guarded(httplib::Response& res, const std::function<void()>& handler) {
  try {
    handler();
  } catch (const std::invalid_argument& e) {
    send_json(res, error_json(e.what()), 400);
  } catch (const std::out_of_range& e) {
    send_json(res, error_json(e.what()), 404);
  } catch (const std::exception& e) {
    send_json(res, error_json(e.what()), 500);
  }
}

uint64_t number_param(const httplib::Request& req, const char* name, uint64_t fallback) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  if (text.empty() || text.size() > 18 || !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw std::invalid_argument(std::string(name) + ": expected a number, got '" + text + "'");
  return std::stoull(text);
}

bool host_allowed(const std::string& host_header, const std::string& bound_host, int port) {
  std::string host = host_header, port_text;
  // "[::1]:8080", "localhost:8080", "localhost"
  const size_t close = host.rfind(']');
  const size_t colon = host.rfind(':');
  if (colon != std::string::npos && (close == std::string::npos || colon > close)) {
    port_text = host.substr(colon + 1);
    host.resize(colon);
  }
  if (!port_text.empty() && port_text != std::to_string(port)) return false;
  std::transform(host.begin(), host.end(), host.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (host == "localhost" || host == "127.0.0.1" || host == "[::1]") return true;
  const bool wildcard = bound_host == "0.0.0.0" || bound_host == "::" || bound_host.empty();
  return !wildcard && (host == bound_host || host == "[" + bound_host + "]");
}

struct Server::Impl {
  Context context;
  httplib::Server http;
  int port = -1;
  std::atomic<bool> stopping{false};
  std::mutex sweep_mutex;
  std::condition_variable sweep_wake;
  std::thread sweeper;

  explicit Impl(ServeOptions options)
      : context(options, query::Store::open(options.db_dir, true)) {}
};

Server::Server(ServeOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& impl = *impl_;
  httplib::Server& http = impl.http;
  const size_t threads = impl.context.options.http_threads;
  http.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
  http.set_payload_max_length(impl.context.options.max_body_bytes);
  // An answer is written as headers then body: without TCP_NODELAY, Nagle's algorithm holds
  // the body until the client acknowledges the headers, which a delayed ACK postpones ~40 ms.
  http.set_tcp_nodelay(true);
  http.set_pre_routing_handler([&impl](const httplib::Request& req, httplib::Response& res) {
    // DNS rebinding: a page of another site that resolves its name to 127.0.0.1 sends its
    // own name as Host; only this machine's names pass.
    if (!host_allowed(req.get_header_value("Host"), impl.context.options.host, impl.port)) {
      send_json(res, error_json("forbidden: the Host header must name this machine (localhost, 127.0.0.1, [::1])"), 403);
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  http.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      send_json(res, error_json(res.status == 404 ? "no such route (see README: The web interface)"
                                                  : "HTTP error " + std::to_string(res.status)),
                res.status);
  });
  install_query_routes(http, impl.context);
  install_game_routes(http, impl.context);
}

Server::~Server() {
  stop();
  if (impl_->sweeper.joinable()) impl_->sweeper.join();
}

int Server::bind() {
  Impl& impl = *impl_;
  if (impl.context.options.port == 0) {
    impl.port = impl.http.bind_to_any_port(impl.context.options.host);
  } else {
    impl.port = impl.http.bind_to_port(impl.context.options.host, impl.context.options.port)
                    ? impl.context.options.port
                    : -1;
  }
  if (impl.port < 0) return -1;
  impl.sweeper = std::thread([&impl] {
    std::unique_lock lock(impl.sweep_mutex);
    while (!impl.stopping) {
      impl.sweep_wake.wait_for(lock, std::chrono::milliseconds(500));
      impl.context.registry.sweep();
    }
  });
  return impl.port;
}

void Server::serve() {
  impl_->http.listen_after_bind();
}

void Server::stop() {
  Impl& impl = *impl_;
  {
    std::lock_guard lock(impl.sweep_mutex);
    impl.stopping = true;
  }
  impl.sweep_wake.notify_all();
  impl.http.stop();
}

}  // namespace web
