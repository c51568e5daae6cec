// `cqldb serve` over a sharded database (issue 38; web/server.h, query/sharded.h): the sample
// split into 4 shards by query::shard_database answers every route the page uses exactly as
// the unsharded sample does (the same JSON, byte for byte): the searches of the bundled example
// queries and of filtered, sorted and limited ones with all their pages and sorts, the games
// (JSON and PGN, with a query's matches), the result as PGN, the opening trees over every game,
// a result and header filters, the tree's game list, and the info; a game's markers are
// written into the shard that holds it. `cqldb serve` itself takes a sharded directory.
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "cli_test_util.h"
#include "db/database.h"
#include "db/game_markers.h"
#include "import/importer.h"
#include "query/sharded.h"
#include "temp_dir.h"
#include "web/server.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample/";

/// A server on a free loopback port, serving on its own thread.
class Served {
 public:
  explicit Served(const fs::path& dir, bool allow_write = false) : server_(options(dir, allow_write)) {
    port_ = server_.bind();
    thread_ = std::thread([this] { server_.serve(); });
  }
  ~Served() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

  /// The status and body of GET `path`.
  std::pair<int, std::string> get(const std::string& path) const {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(120, 0);
    auto r = c.Get(path.c_str());
    if (!r) return {0, ""};
    return {r->status, r->body};
  }
  /// POST /api/query with "wait": the finished state as JSON.
  json run(json body) const {
    body["wait"] = true;
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(120, 0);
    auto r = c.Post("/api/query", body.dump(), "application/json");
    if (!r) return json();
    return json::parse(r->body);
  }

 private:
  static web::ServeOptions options(const fs::path& dir, bool allow_write) {
    web::ServeOptions o;
    o.db_dir = dir;
    o.port = 0;
    o.query_threads = 2;
    o.engine = false;
    o.allow_write = allow_write;
    return o;
  }
  web::Server server_;
  int port_ = -1;
  std::thread thread_;
};

class WebShardedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("web-sharded");
    {
      db::Database database = db::Database::create_or_open(tmp_->path / "one");
      import::import_files(database,
                           {kSample + "players-3000.pgn.zst", kSample + "annotated-40.pgn", kSample + "studies-30.pgn",
                            kSample + "mates-30.pgn"},
                           import::ImportOptions{}, nullptr);
    }
    query::shard_database(tmp_->path / "one", 4, tmp_->path / "many");
    one_ = new Served(tmp_->path / "one");
    many_ = new Served(tmp_->path / "many");
  }
  static void TearDownTestSuite() {
    delete one_;
    delete many_;
    delete tmp_;
  }

  /// GET `path` from both servers: the same status (200) and the same body.
  static void expect_same(const std::string& path) {
    const auto [status_one, body_one] = one_->get(path);
    const auto [status_many, body_many] = many_->get(path);
    EXPECT_EQ(status_one, 200) << path << ": " << body_one.substr(0, 300);
    EXPECT_EQ(status_many, status_one) << path << ": " << body_many.substr(0, 300);
    EXPECT_EQ(body_many, body_one) << path;
  }

  /// Runs `body` on both servers and compares the answer and every page of it in each sort
  /// the page offers; returns the unsharded server's run.
  static json expect_same_run(const json& body) {
    const json a = one_->run(body), b = many_->run(body);
    EXPECT_EQ(a["state"], "done") << body.dump() << ": " << a.dump().substr(0, 300);
    EXPECT_EQ(b["state"], "done") << body.dump() << ": " << b.dump().substr(0, 300);
    EXPECT_EQ(b["count"], a["count"]) << body.dump();
    EXPECT_EQ(b["rows"], a["rows"]) << body.dump();
    // max_matches without a sort stops the search early: "found" is then a lower bound that
    // depends on where each part stopped (the matches kept are the same)
    if (!body.contains("max_matches") || body.contains("sort")) {
      EXPECT_EQ(b["stats"]["found"], a["stats"]["found"]) << body.dump();
    }
    EXPECT_EQ(b["stats"]["summary"], a["stats"]["summary"]) << body.dump();
    for (const std::string sort : {"", "-id", "date", "-date", "elo", "-elo", "plies", "white", "eco"}) {
      for (uint64_t offset = 0; offset < a["count"].get<uint64_t>(); offset += 500) {
        const std::string page = "?limit=500&offset=" + std::to_string(offset) + "&sort=" + sort;
        const json pa = json::parse(one_->get("/api/query/" + a["id"].get<std::string>() + page).second);
        const json pb = json::parse(many_->get("/api/query/" + b["id"].get<std::string>() + page).second);
        EXPECT_EQ(pb["rows"], pa["rows"]) << body.dump() << page;
      }
    }
    const auto pgn_a = one_->get("/api/query/" + a["id"].get<std::string>() + "/pgn?sort=-date");
    const auto pgn_b = many_->get("/api/query/" + b["id"].get<std::string>() + "/pgn?sort=-date");
    EXPECT_EQ(pgn_b, pgn_a) << body.dump();
    return a;
  }

  static std::string fen_param(const std::string& fen) { return httplib::detail::encode_query_param(fen); }

  static cqltest::TempDir* tmp_;
  static Served* one_;
  static Served* many_;
};
cqltest::TempDir* WebShardedTest::tmp_ = nullptr;
Served* WebShardedTest::one_ = nullptr;
Served* WebShardedTest::many_ = nullptr;

TEST_F(WebShardedTest, ManifestHasFourShards) {
  EXPECT_EQ(query::read_manifest(tmp_->path / "many").size(), 4u);
  const json a = json::parse(one_->get("/api/info").second), b = json::parse(many_->get("/api/info").second);
  EXPECT_EQ(a["games"], 3099);
  EXPECT_EQ(b["games"], a["games"]);
}

TEST_F(WebShardedTest, ExampleQueriesAnswerAsTheUnshardedDatabase) {
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(CQLDB_SOURCE_DIR) / "examples" / "queries")) {
    expect_same_run({{"cql", cqltest::read_file(entry.path())}, {"limit", 500}});
    ++checked;
  }
  EXPECT_GE(checked, 9u);
}

TEST_F(WebShardedTest, FiltersSortsAndLimitsAnswerAsTheUnshardedDatabase) {
  expect_same_run({{"cql", "(match (position :check))"}, {"limit", 50}});
  expect_same_run({{"cql", "(match (position :mate))"},
                   {"filters", {{"player", "Alekhine"}, {"year_min", 1920}, {"year_max", 1935}}},
                   {"limit", 500}});
  expect_same_run({{"cql", "(match (position :mate))"}, {"filters", {{"elo_min", 2400}}}, {"limit", 20}});
  // max_matches: the first N of the sorted answer over every shard together (issue 40)
  expect_same_run({{"cql", "(match (position :mate))"}, {"sort", "-date"}, {"max_matches", 7}, {"limit", 10}});
  expect_same_run({{"cql", "(match (position :check))"}, {"max_matches", 100}, {"limit", 100}});
  expect_same_run({{"cql", "(match (position :variationsonly :check))"}, {"limit", 100}});
  expect_same_run({{"cql", "cql() check"}, {"dialect", "cql6"}, {"limit", 100}});
}

TEST_F(WebShardedTest, GamesAnswerAsTheUnshardedDatabase) {
  const json state = one_->run({{"cql", "(match (position :check))"}, {"limit", 1}});
  const json sharded = many_->run({{"cql", "(match (position :check))"}, {"limit", 1}});
  ASSERT_EQ(state["state"], "done");
  std::vector<uint32_t> ids = {1, 2, 774, 775, 776, 777, 1550, 1551, 2325, 2326, 3000, 3098, 3099};
  for (const query::ShardInfo& s : query::read_manifest(tmp_->path / "many")) ids.push_back(s.first_id);
  for (uint32_t id : ids) {
    const std::string game = "/api/game/" + std::to_string(id);
    expect_same(game);
    expect_same(game + ".pgn");
    // with a query's matches: the runs' ids differ (one per server), so compare the matched part
    const json a = json::parse(one_->get(game + "?query=" + state["id"].get<std::string>()).second);
    const json b = json::parse(many_->get(game + "?query=" + sharded["id"].get<std::string>()).second);
    EXPECT_EQ(b, a) << id;
  }
  for (const std::string bad : {"/api/game/0", "/api/game/3100", "/api/game/999999"})
    EXPECT_EQ(many_->get(bad).first, 404) << bad;
  expect_same("/api/board.svg?fen=" + fen_param("8/8/8/4k3/8/8/8/4K2R w K - 0 1") + "&marks=e5,h1&move=e2e1");
}

TEST_F(WebShardedTest, TreesAnswerAsTheUnshardedDatabase) {
  const std::vector<std::string> fens = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
      "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
      "rnbqkb1r/pppp1ppp/4pn2/8/2PP4/8/PP2PPPP/RNBQKBNR w KQkq - 0 3",
      "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3",
  };
  const json state = one_->run({{"cql", "(match (position :check))"}, {"limit", 1}});
  const json sharded = many_->run({{"cql", "(match (position :check))"}, {"limit", 1}});
  const std::string filters = fen_param(json({{"player", "Alekhine"}, {"year_min", 1920}}).dump());
  for (const std::string& fen : fens) {
    expect_same("/api/tree?fen=" + fen_param(fen));
    expect_same("/api/tree?fen=" + fen_param(fen) + "&filters=" + filters);
    expect_same("/api/tree/games?fen=" + fen_param(fen) + "&limit=10");
    expect_same("/api/tree/games?fen=" + fen_param(fen) + "&offset=40&limit=30");
    expect_same("/api/tree/games?fen=" + fen_param(fen) + "&filters=" + filters + "&limit=20");
    // over a query's result (the runs' ids differ, the trees must not)
    const auto a = one_->get("/api/tree?fen=" + fen_param(fen) + "&query=" + state["id"].get<std::string>());
    const auto b = many_->get("/api/tree?fen=" + fen_param(fen) + "&query=" + sharded["id"].get<std::string>());
    EXPECT_EQ(a.first, 200);
    EXPECT_EQ(b, a) << fen;
  }
}

TEST_F(WebShardedTest, MarkersGoToTheShardHoldingTheGame) {
  Served writable(tmp_->path / "many", true);
  httplib::Client c("127.0.0.1", writable.port());
  const std::vector<query::ShardInfo> shards = query::read_manifest(tmp_->path / "many");
  const uint32_t id = shards[2].first_id + 4;  // game 5 of shard-002
  auto w = c.Post(("/api/game/" + std::to_string(id) + "/marker").c_str(), R"({"marker":"!"})", "application/json");
  ASSERT_TRUE(w);
  ASSERT_EQ(w->status, 200) << w->body;
  EXPECT_EQ(json::parse(w->body)["markers"], "!");
  EXPECT_EQ(json::parse(writable.get("/api/game/" + std::to_string(id)).second)["markers"], "!");
  EXPECT_EQ(db::game_markers(tmp_->path / "many" / shards[2].path, 5), "!");
  EXPECT_EQ(db::game_markers(tmp_->path / "many" / shards[0].path, 5), "");
  EXPECT_EQ(json::parse(writable.get("/api/game/5").second)["markers"], "");
  auto clear = c.Post(("/api/game/" + std::to_string(id) + "/marker").c_str(), R"({"clear":true})", "application/json");
  ASSERT_TRUE(clear);
  EXPECT_EQ(json::parse(clear->body)["markers"], "");
}

TEST_F(WebShardedTest, ServeTakesAShardedDirectory) {
  // `cqldb serve` accepts the directory (require_database) and binds; a bad port is then the
  // only complaint (usage error, exit 2), so nothing is left running
  const cqltest::Outcome out = cqltest::run_cqldb(
      {"serve", "--db", (tmp_->path / "many").string(), "--port", "70000"}, tmp_->path);
  EXPECT_EQ(out.code, 2) << out.err;
  EXPECT_NE(out.err.find("--port"), std::string::npos) << out.err;
  EXPECT_EQ(out.err.find("sharded"), std::string::npos) << out.err;
}

}  // namespace
