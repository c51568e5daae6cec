// GET /api/info, /api/game/ID, /api/game/ID.pgn, /api/board.svg, /api/tree, /api/examples,
// /api/keywords; POST /api/game/ID/marker (only with --allow-write); the page's files.
#include <algorithm>

#include "chess/position.h"
#include "chess/san.h"
#include "cql/keyword_help.h"
#include "cql/keywords.h"
#include "db/game_markers.h"
#include "db/game_reader.h"
#include "db/pgn_writer.h"
#include "headers/game_order.h"
#include "index/position_index.h"
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
  const uint32_t count = context.database.reader().game_count();
  if (id == 0 || id > count)
    throw std::out_of_range("no game " + text + " (ids are 1.." + std::to_string(count) + ")");
  return uint32_t(id);
}

}  // namespace

void install_game_routes(httplib::Server& http, Context& context) {
  http.Get("/api/info", [&context](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] {
      send_json(res, {{"games", context.database.reader().game_count()},
                      {"database", context.options.db_dir.filename().string()},
                      {"allow_write", context.options.allow_write},
                      {"max_queries", context.options.max_queries},
                      {"running_queries", context.registry.running()},
                      {"max_page_rows", context.options.max_page_rows},
                      {"sorts", std::string(headers::sort_order_names()) + ", plies"},
                      {"filters", {"player", "white", "black", "year_min", "year_max", "elo_min", "elo_max", "eco",
                                   "result", "event", "site", "terms"}}});
    });
  });

  http.Get(R"(/api/game/([0-9]{1,10}))", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const uint32_t id = game_id(context, req.matches[1]);
      db::GameReader reader = context.database.reader();
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
      j["markers"] = db::game_markers(context.options.db_dir, id);
      send_json(res, j);
    });
  });

  http.Get(R"(/api/game/([0-9]{1,10})\.pgn)", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const uint32_t id = game_id(context, req.matches[1]);
      db::GameReader reader = context.database.reader();
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
  // over every game or over the result of query `query`.
  http.Get("/api/tree", [&context](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      chess::Position pos;
      const std::string fen = req.has_param("fen") ? req.get_param_value("fen")
                                                   : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
      if (const chess::FenError err = pos.set_fen(fen); !err.ok()) throw std::invalid_argument("fen: " + err.message);
      std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(context.options.db_dir);
      if (!index) {
        send_json(res, error_json("the database has no current position index (cqldb reindex --positions-only)"), 409);
        return;
      }
      std::vector<uint32_t> within;
      bool restricted = false;
      if (req.has_param("query")) {
        std::shared_ptr<QueryRun> run = context.registry.find(req.get_param_value("query"));
        if (!run || !run->finished) throw std::out_of_range("no finished query " + req.get_param_value("query"));
        for (const eval::GameMatch& m : run->result.matches) within.push_back(m.id);
        restricted = true;
      }
      db::GameReader reader = context.database.reader();
      const posindex::Tree tree = posindex::build_tree(*index, reader, pos, restricted ? &within : nullptr);
      send_ordered_json(res, posindex::tree_json(tree, pos, reader));  // the shape of `cqldb tree --format jsonl`
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
      db::set_game_marker(context.options.db_dir, id, body.value("marker", std::string()), body.value("clear", false));
      send_json(res, {{"id", id}, {"markers", db::game_markers(context.options.db_dir, id)}});
    });
  });

  auto page = [](const std::string& name, httplib::Response& res) {
    const Asset* asset = find_asset("assets/" + name);
    if (!asset) {
      send_json(res, error_json("no file " + name), 404);
      return;
    }
    res.set_content(std::string(asset->content), content_type_of(asset->name));
    res.set_header("Cache-Control", "no-cache");
  };
  http.Get("/", [page](const httplib::Request&, httplib::Response& res) { page("index.html", res); });
  http.Get(R"(/assets/([a-z0-9_-]{1,40}\.(js|css|html|svg)))",
           [page](const httplib::Request& req, httplib::Response& res) { page(req.matches[1], res); });
}

}  // namespace web
