// POST /api/query, GET /api/query/ID, DELETE /api/query/ID, GET /api/query/ID/pgn.
#include <algorithm>
#include <chrono>

#include "db/pgn_writer.h"
#include "query/query.h"
#include "web/json_shape.h"
#include "web/routes.h"

namespace web {

namespace {

using nlohmann::json;

}  // namespace

std::vector<std::string> filter_terms(const json& filters) {
  std::vector<std::string> terms;
  if (!filters.is_object()) {
    if (!filters.is_null()) throw std::invalid_argument("filters: expected an object");
    return terms;
  }
  auto text = [&](const char* key) -> std::string {
    if (!filters.contains(key) || filters[key].is_null()) return {};
    if (filters[key].is_string()) return filters[key].get<std::string>();
    if (filters[key].is_number_integer()) return std::to_string(filters[key].get<int64_t>());
    throw std::invalid_argument(std::string("filters.") + key + ": expected a string or a number");
  };
  for (const char* key : {"player", "white", "black", "event", "site", "eco", "result"})
    if (std::string v = text(key); !v.empty()) terms.push_back(std::string(key) + "=" + v);
  for (const char* key : {"year", "elo"}) {
    const std::string low = text((std::string(key) + "_min").c_str());
    const std::string high = text((std::string(key) + "_max").c_str());
    for (const std::string& v : {low, high})
      if (v.find_first_not_of("0123456789") != std::string::npos)
        throw std::invalid_argument(std::string("filters.") + key + "_min/_max: '" + v + "' is not a number");
    if (!low.empty() && !high.empty()) terms.push_back(std::string(key) + "=" + low + ".." + high);
    else if (!low.empty()) terms.push_back(std::string(key) + ">=" + low);
    else if (!high.empty()) terms.push_back(std::string(key) + "<=" + high);
  }
  for (const auto& [key, value] : filters.items()) {
    static const char* known[] = {"player", "white", "black", "event", "site", "eco", "result",
                                  "year_min", "year_max", "elo_min", "elo_max", "terms"};
    if (std::find_if(std::begin(known), std::end(known), [&](const char* k) { return key == k; }) == std::end(known))
      throw std::invalid_argument("filters: unknown field '" + key + "'");
  }
  if (filters.contains("terms")) {
    if (!filters["terms"].is_array()) throw std::invalid_argument("filters.terms: expected an array of strings");
    for (const json& t : filters["terms"]) {
      if (!t.is_string()) throw std::invalid_argument("filters.terms: expected an array of strings");
      terms.push_back(t.get<std::string>());
    }
  }
  return terms;
}

namespace {

/// The state of `run` as JSON; when finished, its figures and the rows `offset`..`offset +
/// limit` in order `sort`.
json run_json(Context& context, QueryRun& run, uint64_t offset, uint64_t limit, const std::string& sort) {
  json j = {{"id", run.id}};
  const bool finished = run.finished;
  {
    std::lock_guard lock(run.mutex);
    j["state"] = run_state_name(run.state);
    j["progress"] = {{"searched", run.searched.load()}, {"total", run.total.load()}, {"matches", run.found.load()}};
    j["plan"] = run.plan;
    if (!finished) return j;
    if (run.state == RunState::kFailed) {
      j["error"] = run.error;
      return j;
    }
    j["stats"] = stats_json(run.result.stats);
    j["count"] = run.result.matches.size();
  }
  const std::vector<uint32_t> order = context.registry.order(run, sort);
  limit = std::min<uint64_t>(limit, context.options.max_page_rows);
  json rows = json::array();
  query::Store::Reader reader = context.store->reader();
  db::GameHeader header;
  for (uint64_t i = offset; i < order.size() && i < offset + limit; ++i) {
    const eval::GameMatch& m = run.result.matches[order[i]];  // matches never change once finished
    if (!reader.read_header(m.id, header)) continue;
    rows.push_back(row_json(header, m));
  }
  j["offset"] = offset;
  j["sort"] = sort;
  j["rows"] = std::move(rows);
  return j;
}

}  // namespace

void install_query_routes(httplib::Server& http, Context& context) {
  http.Post("/api/query", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const json body = json::parse(req.body, nullptr, false);
      if (!body.is_object() || !body.contains("cql") || !body["cql"].is_string()) {
        send_json(res, error_json("expected a JSON object with \"cql\": the query text"), 400);
        return;
      }
      QueryRequest request;
      request.cql = body["cql"].get<std::string>();
      request.filter_terms = filter_terms(body.value("filters", json()));
      request.limit = body.value("max_matches", uint64_t(0));
      request.dialect = body.value("dialect", std::string("auto"));  // issue 36: "auto", "cqls", "cql6"
      const uint64_t offset = body.value("offset", uint64_t(0));
      const uint64_t limit = body.value("limit", uint64_t(50));
      const std::string sort = body.value("sort", std::string());
      request.sort = sort;
      std::shared_ptr<QueryRun> run;
      try {
        run = context.registry.start(request);
      } catch (const query::QueryError& e) {
        send_json(res, error_json(e.message(), e.line(), e.column(), e.expected()), 400);
        return;
      }
      if (!run) {
        send_json(res, error_json("too many queries are running (at most " + std::to_string(context.options.max_queries) +
                                  "); try again when one has finished"),
                  429);
        return;
      }
      if (!body.value("wait", false)) {
        send_json(res, {{"id", run->id}, {"state", "running"}}, 202);
        return;
      }
      // wait: the answer comes as soon as the query has finished (woken by the run's thread,
      // no polling interval). While it runs a blank is sent every 200 ms (JSON allows leading
      // whitespace): a failed write means the client went away, and the query is cancelled.
      res.status = 200;
      res.set_chunked_content_provider(
          "application/json; charset=utf-8", [&context, run, offset, limit, sort](size_t, httplib::DataSink& sink) {
            while (!run->wait_finished(std::chrono::milliseconds(200))) {
              run->last_seen_ms = steady_ms();
              if (!sink.write(" ", 1)) {
                run->cancel = true;
                return false;
              }
            }
            std::string text;
            try {
              text = run_json(context, *run, offset, limit, sort).dump();
            } catch (const std::exception& e) {
              text = error_json(e.what()).dump();
            }
            sink.write(text.data(), text.size());
            sink.done();
            return true;
          },
          [run](bool success) {
            if (!success) run->cancel = true;
          });
    });
  });

  http.Get(R"(/api/query/(q[0-9]+))", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      std::shared_ptr<QueryRun> run = context.registry.find(req.matches[1]);
      if (!run) {
        send_json(res, error_json("no query " + std::string(req.matches[1]) + " (finished queries are kept a while)"), 404);
        return;
      }
      // wait=MS: a long poll; the answer comes when the run finishes or after MS (at most 5 s).
      if (const uint64_t wait_ms = std::min<uint64_t>(number_param(req, "wait", 0), 5000); wait_ms > 0)
        run->wait_finished(std::chrono::milliseconds(wait_ms));
      const std::string sort = req.has_param("sort") ? req.get_param_value("sort") : "";
      send_json(res, run_json(context, *run, number_param(req, "offset", 0), number_param(req, "limit", 50), sort));
    });
  });

  http.Delete(R"(/api/query/(q[0-9]+))", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      if (!context.registry.cancel(req.matches[1])) {
        send_json(res, error_json("no query " + std::string(req.matches[1])), 404);
        return;
      }
      send_json(res, {{"id", std::string(req.matches[1])}, {"cancelled", true}});
    });
  });

  // The whole result as PGN with {MATCH} comments (db::write_pgn, as `cqldb query --format
  // pgn`), in the order asked, streamed a game at a time.
  http.Get(R"(/api/query/(q[0-9]+)/pgn)", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      std::shared_ptr<QueryRun> run = context.registry.find(req.matches[1]);
      if (!run || !run->finished) {
        send_json(res, error_json(run ? "the query is still running" : "no query " + std::string(req.matches[1])),
                  run ? 409 : 404);
        return;
      }
      const std::string sort = req.has_param("sort") ? req.get_param_value("sort") : "";
      auto order = std::make_shared<std::vector<uint32_t>>(context.registry.order(*run, sort));
      res.set_header("Content-Disposition", "attachment; filename=\"cqldb-" + run->id + ".pgn\"");
      auto next = std::make_shared<size_t>(0);
      res.set_chunked_content_provider(
          "application/x-chess-pgn", [&context, run, order, next](size_t, httplib::DataSink& sink) {
            query::Store::Reader reader = context.store->reader();
            std::string text;
            db::GameHeader header;
            for (size_t n = 0; *next < order->size() && n < 200; ++*next, ++n) {
              const eval::GameMatch& m = run->result.matches[(*order)[*next]];
              db::RecordView record;
              if (!reader.read_header(m.id, header)) continue;
              db::PgnWriteOptions options;
              options.match_plies = m.plies;
              options.match_variation_plies = m.variation_plies;
              try {
                if (!reader.record_view(m.id, record)) continue;  // with its annotations
                db::write_pgn(header, record, text, options);
              } catch (const std::exception&) {  // a damaged record: skipped, as the query skipped it
              }
            }
            if (!text.empty() && !sink.write(text.data(), text.size())) return false;
            if (*next >= order->size()) sink.done();
            return true;
          });
    });
  });
}

}  // namespace web
