// The JSON API of `cqldb serve` (issue 19; web/server.h, README "The web interface"), against
// a server on an ephemeral loopback port in this process, over the sample database of the
// README: the ids a query returns over HTTP equal `cqldb query --format ids` for every bundled
// example query; errors come back as JSON with line and column; DELETE and a client that goes
// away cancel a long query; the Host check; read-only refusal; limits.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <functional>
#include <set>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli_test_util.h"
#include "db/database.h"
#include "import/importer.h"
#include "temp_dir.h"
#include "web/server.h"
#include "test_dependency.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSampleDir = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
/// A query that runs for minutes: an engine search at every position (cancellable while the
/// engine thinks, query/stages.cpp).
const char* kLongQuery = "(match (position :evaluation depth 14 >=20 sidetomove))";

/// A server on a free loopback port, serving on its own thread.
class RunningServer {
 public:
  explicit RunningServer(web::ServeOptions options) : server_(std::move(options)) {
    port_ = server_.bind();
    thread_ = std::thread([this] { server_.serve(); });
  }
  ~RunningServer() {
    server_.stop();
    thread_.join();
  }
  int port() const { return port_; }

 private:
  web::Server server_;
  int port_ = -1;
  std::thread thread_;
};

class WebApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("web-api");
    {
      db::Database database = db::Database::create_or_open(tmp_->path / "sample-db");
      import::import_files(database,
                           {kSampleDir + "/players-3000.pgn.zst", kSampleDir + "/annotated-40.pgn",
                            kSampleDir + "/studies-30.pgn", kSampleDir + "/mates-30.pgn"},
                           import::ImportOptions{}, nullptr);
    }
    web::ServeOptions options;
    options.db_dir = db_dir();
    options.port = 0;
    options.max_queries = 2;
    options.idle_cancel_seconds = 2;
    options.query_threads = 2;
    server_ = new RunningServer(options);
    ASSERT_GT(server_->port(), 0);
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    delete tmp_;
    tmp_ = nullptr;
  }
  static fs::path db_dir() { return tmp_->path / "sample-db"; }

  static httplib::Client client() {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(120, 0);
    return c;
  }
  /// POSTs `body` to /api/query with "wait": the finished state.
  static json run(json body, int expect_status = 200) {
    body["wait"] = true;
    auto r = client().Post("/api/query", body.dump(), "application/json");
    EXPECT_TRUE(r);
    if (!r) return json();
    EXPECT_EQ(r->status, expect_status) << r->body;
    return json::parse(r->body);
  }
  /// GET `path` as JSON.
  static json get(const std::string& path, int expect_status = 200) {
    auto r = client().Get(path.c_str());
    EXPECT_TRUE(r);
    if (!r) return json();
    EXPECT_EQ(r->status, expect_status) << path << ": " << r->body;
    return json::parse(r->body);
  }
  /// Every id of finished query `id`, page by page (500 rows at most per page).
  static std::vector<uint64_t> all_ids(const std::string& id, const std::string& sort = "") {
    std::vector<uint64_t> ids;
    for (uint64_t offset = 0;; offset += 500) {
      json page = get("/api/query/" + id + "?limit=500&offset=" + std::to_string(offset) + "&sort=" + sort);
      for (const json& row : page["rows"]) ids.push_back(row["id"]);
      if (page["rows"].size() < 500) break;
    }
    return ids;
  }

  static cqltest::TempDir* tmp_;
  static RunningServer* server_;
  friend int WebApiTestPort();
};

cqltest::TempDir* WebApiTest::tmp_ = nullptr;
RunningServer* WebApiTest::server_ = nullptr;

/// The port of the suite's server.
int WebApiTestPort();

TEST_F(WebApiTest, ExampleQueriesGiveTheIdsOfTheCommandLine) {
  size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(fs::path(CQLDB_SOURCE_DIR) / "examples" / "queries")) {
    const std::string script = cqltest::read_file(entry.path());
    const cqltest::Outcome cli =
        cqltest::run_cqldb({"query", "--db", db_dir().string(), entry.path().string(), "--format", "ids", "--quiet"}, tmp_->path);
    ASSERT_EQ(cli.code, 0) << entry.path() << ": " << cli.err;
    std::vector<uint64_t> expected;
    std::istringstream lines(cli.out);
    for (uint64_t id; lines >> id;) expected.push_back(id);
    const json state = run({{"cql", script}, {"limit", 500}});
    ASSERT_EQ(state["state"], "done") << entry.path() << ": " << state.dump();
    EXPECT_EQ(state["count"], expected.size()) << entry.path();
    EXPECT_EQ(all_ids(state["id"]), expected) << entry.path();
    EXPECT_FALSE(state["stats"]["stages"].empty());
    ++checked;
  }
  EXPECT_GE(checked, 9u);
}

TEST_F(WebApiTest, ParseErrorsComeBackWithLineAndColumn) {
  const json e = run({{"cql", "(match\n  (position :matte))"}}, 400);
  EXPECT_EQ(e["line"], 2);
  EXPECT_EQ(e["column"], 13);
  EXPECT_NE(e["error"].get<std::string>().find(":matte"), std::string::npos) << e.dump();
  const json unclosed = run({{"cql", "(match (position :mate)"}}, 400);
  EXPECT_EQ(unclosed["line"], 1) << unclosed.dump();
  EXPECT_TRUE(unclosed.contains("column"));
  // not JSON, no cql, a bad filter, a file keyword: 400 with a message
  auto r = client().Post("/api/query", "{not json", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 400);
  EXPECT_TRUE(json::parse(r->body).contains("error"));
  EXPECT_EQ(run({{"cql", "(match (position :mate))"}, {"filters", {{"elo_min", "strong"}}}}, 400).count("error"), 1u);
  const json file = run({{"cql", "(match :pgn games.pgn (position :mate))"}}, 400);
  EXPECT_NE(file["error"].get<std::string>().find("no files"), std::string::npos) << file.dump();
}

TEST_F(WebApiTest, FiltersNarrowLikeTheShellFilter) {
  const json all = run({{"cql", "(match (position :mate))"}, {"limit", 500}});
  const json filtered = run({{"cql", "(match (position :mate))"},
                             {"filters", {{"player", "Alekhine"}, {"year_min", 1920}, {"year_max", 1935}}},
                             {"limit", 500}});
  ASSERT_EQ(filtered["state"], "done");
  EXPECT_GT(filtered["count"].get<int>(), 0);
  EXPECT_LT(filtered["count"].get<int>(), all["count"].get<int>());
  for (const json& row : filtered["rows"]) {
    const std::string players = row["white"].get<std::string>() + row["black"].get<std::string>();
    EXPECT_NE(players.find("Alekhine"), std::string::npos) << row.dump();
    const int year = std::stoi(row["date"].get<std::string>().substr(0, 4));
    EXPECT_TRUE(year >= 1920 && year <= 1935) << row.dump();
  }
}

TEST_F(WebApiTest, SortAndPages) {
  const json state = run({{"cql", "(match (position :check))"}, {"limit", 10}});
  ASSERT_EQ(state["state"], "done");
  ASSERT_GT(state["count"].get<int>(), 1000);  // many pages
  EXPECT_EQ(state["rows"].size(), 10u);
  const std::string id = state["id"];
  const json big = get("/api/query/" + id + "?limit=100000");
  EXPECT_EQ(big["rows"].size(), 500u);  // the page size limit
  const json strongest = get("/api/query/" + id + "?limit=50&sort=elo");
  int previous = 9999;
  for (const json& row : strongest["rows"]) {
    ASSERT_FALSE(row["white_elo"].is_null());
    const int elo = (row["white_elo"].get<int>() + (row["black_elo"].is_null() ? row["white_elo"].get<int>()
                                                                                : row["black_elo"].get<int>())) / 2;
    EXPECT_LE(elo, previous + 1);
    previous = elo;
  }
  const std::vector<uint64_t> by_id = all_ids(id), by_date = all_ids(id, "-date");
  EXPECT_EQ(by_date.size(), by_id.size());
  EXPECT_NE(by_date, by_id);
  get("/api/query/" + id + "?sort=colour", 400);
  get("/api/query/" + id + "?offset=abc", 400);
}

// Issue 40: max_matches with a sort keeps the first N of the sorted answer ("3 of 76"), and
// /api/tree takes a FEN as people paste it (no en-passant and clock fields).
TEST_F(WebApiTest, MaxMatchesKeepsTheFirstOfTheSortAndTreeTakesAShortFen) {
  const json all = run({{"cql", "(match (position :mate))"}, {"sort", "-date"}, {"limit", 500}});
  ASSERT_EQ(all["state"], "done");
  const json three = run({{"cql", "(match (position :mate))"}, {"sort", "-date"}, {"max_matches", 3}, {"limit", 10}});
  ASSERT_EQ(three["state"], "done");
  EXPECT_EQ(three["count"], 3);
  EXPECT_EQ(three["stats"]["found"], all["count"]);
  EXPECT_EQ(three["stats"]["summary"], "3 of " + std::to_string(all["count"].get<int>()) + " matches");
  ASSERT_EQ(three["rows"].size(), 3u);
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(three["rows"][i]["id"], all["rows"][i]["id"]) << i;
  const json pasted = get("/api/tree?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq");
  const json full = get("/api/tree?fen=rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR%20b%20KQkq%20-%200%201");
  EXPECT_GT(pasted["moves"].size(), 3u);
  EXPECT_EQ(pasted["moves"], full["moves"]);
}

TEST_F(WebApiTest, GameWithFensMatchesAndPgn) {
  const json state = run({{"cql", "(match (position :promote [RBNrbn]))"}, {"limit", 1}});
  ASSERT_EQ(state["state"], "done");
  const json row = state["rows"][0];
  const std::string id = std::to_string(row["id"].get<int>());
  const json game = get("/api/game/" + id + "?query=" + state["id"].get<std::string>());
  EXPECT_EQ(game["fens"].size(), game["game_plies"].get<size_t>() + 1);
  EXPECT_EQ(game["moves"].size(), game["game_plies"].get<size_t>());
  EXPECT_EQ(game["matched"]["plies"], row["plies"]);
  const int ply = row["plies"][0];
  EXPECT_EQ(game["moves"][ply - 1]["fen"], game["fens"][ply]);
  auto pgn = client().Get(("/api/game/" + id + ".pgn?query=" + state["id"].get<std::string>()).c_str());
  ASSERT_TRUE(pgn);
  EXPECT_EQ(pgn->status, 200);
  EXPECT_NE(pgn->body.find("{MATCH}"), std::string::npos);
  // an annotated game with checks inside variations: each matched path is a move of the walk
  const json checks = run({{"cql", "(match (position :variationsonly :check))"}, {"limit", 1}});
  ASSERT_EQ(checks["state"], "done");
  const std::string annotated_id = std::to_string(checks["rows"][0]["id"].get<int>());
  const json annotated = get("/api/game/" + annotated_id + "?query=" + checks["id"].get<std::string>());
  std::set<std::string> paths;
  std::function<void(const json&)> collect = [&](const json& moves) {
    for (const json& m : moves) {
      paths.insert(m["path"].get<std::string>());
      if (m.contains("variations"))
        for (const json& v : m["variations"]) collect(v["moves"]);
    }
  };
  collect(annotated["moves"]);
  ASSERT_FALSE(annotated["matched"]["variation_plies"].empty());
  for (const json& p : annotated["matched"]["variation_plies"]) EXPECT_TRUE(paths.count(p.get<std::string>())) << p;
  get("/api/game/999999", 404);
  get("/api/game/0", 404);
}

TEST_F(WebApiTest, BoardSvg) {
  auto r = client().Get("/api/board.svg?fen=8/8/8/4k3/8/8/8/4K2R%20w%20K%20-%200%201&flip=1&marks=e5,h1&move=e2e1");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  EXPECT_EQ(r->get_header_value("Content-Type"), "image/svg+xml");
  EXPECT_NE(r->body.find("data-fen='8/8/8/4k3/8/8/8/4K2R w K - 0 1'"), std::string::npos) << r->body.substr(0, 300);
  EXPECT_NE(r->body.find("class='marked'"), std::string::npos);
  EXPECT_NE(r->body.find("data-flipped='1'"), std::string::npos);
  const json bad = get("/api/board.svg?fen=nonsense", 400);
  EXPECT_NE(bad["error"].get<std::string>().find("fen"), std::string::npos);
  get("/api/board.svg?marks=z9", 400);
}

/// GET /api/tree answers the same JSON as `cqldb tree --format jsonl` (index/tree_json.h, the
/// lichess explorer shape: `game` and `topGames` entries are objects, with `score`).
TEST_F(WebApiTest, TreeIsTheCommandLinesTree) {
  for (const std::string moves : {"", "1.e4 c5", "1.d4 Nf6 2.c4 e6"}) {
    const auto cli = cqltest::run_cqldb({"tree", "--db", db_dir().string(), "--moves", moves, "--format", "jsonl"},
                                        tmp_->path);
    ASSERT_EQ(cli.code, 0) << cli.err;
    const json expected = json::parse(cli.out);
    std::string fen;  // a FEN's only character to escape in a query string is the blank
    for (char c : expected["fen"].get<std::string>()) fen += c == ' ' ? std::string("%20") : std::string(1, c);
    auto r = client().Get("/api/tree?fen=" + fen);
    ASSERT_TRUE(r);
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->body + "\n", cli.out) << moves;  // byte for byte, keys in the same order
    ASSERT_FALSE(expected["moves"].empty());
    EXPECT_TRUE(expected["moves"][0]["game"].is_object()) << moves;
    EXPECT_TRUE(expected["moves"][0].contains("score")) << moves;
  }
}

TEST_F(WebApiTest, InfoExamplesKeywordsTreeAndPage) {
  const json info = get("/api/info");
  EXPECT_EQ(info["games"], 3099);
  EXPECT_EQ(info["allow_write"], false);
  EXPECT_GE(get("/api/examples").size(), 9u);
  const json keywords = get("/api/keywords");
  EXPECT_GT(keywords.size(), 100u);
  const json tree = get("/api/tree");
  EXPECT_GE(tree["games"].get<int>(), tree["white"].get<int>() + tree["draws"].get<int>() + tree["black"].get<int>());
  EXPECT_GT(tree["games"].get<int>(), 3000);
  EXPECT_GT(tree["moves"].size(), 5u);
  auto page = client().Get("/");
  ASSERT_TRUE(page);
  EXPECT_NE(page->body.find("app.js"), std::string::npos);
  auto js = client().Get("/assets/app.js");
  ASSERT_TRUE(js);
  EXPECT_EQ(js->status, 200);
  // no file-system path is ever read: only embedded names
  EXPECT_EQ(client().Get("/assets/../../etc/passwd")->status, 404);
  EXPECT_EQ(client().Get("/assets/%2e%2e%2fserver.cpp")->status, 404);
}

TEST_F(WebApiTest, HostHeaderIsChecked) {
  httplib::Headers evil = {{"Host", "evil.example:" + std::to_string(server_->port())}};
  auto r = client().Get("/api/info", evil);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_TRUE(json::parse(r->body).contains("error"));
  for (const std::string host : {"localhost", "127.0.0.1", "[::1]"}) {
    auto ok = client().Get("/api/info", {{"Host", host + ":" + std::to_string(server_->port())}});
    ASSERT_TRUE(ok);
    EXPECT_EQ(ok->status, 200) << host;
  }
  EXPECT_EQ(client().Get("/api/info", {{"Host", "localhost:1"}})->status, 403);  // another port
  EXPECT_TRUE(web::host_allowed("LOCALHOST", "127.0.0.1", 80));
  EXPECT_FALSE(web::host_allowed("127.0.0.1.evil.example", "127.0.0.1", 80));
  EXPECT_FALSE(web::host_allowed("example.com", "0.0.0.0", 80));
  EXPECT_TRUE(web::host_allowed("192.168.1.5:80", "192.168.1.5", 80));
}

TEST_F(WebApiTest, ReadOnlyUnlessAllowed) {
  auto r = client().Post("/api/game/5/marker", R"({"marker":"!"})", "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_NE(r->body.find("--allow-write"), std::string::npos);
  web::ServeOptions options;
  options.db_dir = db_dir();
  options.port = 0;
  options.allow_write = true;
  RunningServer writable(options);
  httplib::Client c("127.0.0.1", writable.port());
  auto w = c.Post("/api/game/5/marker", R"({"marker":"!"})", "application/json");
  ASSERT_TRUE(w);
  EXPECT_EQ(w->status, 200) << w->body;
  EXPECT_EQ(json::parse(w->body)["markers"], "!");
  auto clear = c.Post("/api/game/5/marker", R"({"clear":true})", "application/json");
  ASSERT_TRUE(clear);
  EXPECT_EQ(json::parse(clear->body)["markers"], "");
}

TEST_F(WebApiTest, RequestBodyLimit) {
  const std::string huge = json({{"cql", std::string(100 * 1024, ' ') + "(match (position :mate))"}}).dump();
  auto r = client().Post("/api/query", huge, "application/json");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 413);
}

int WebApiTestPort() {
  return WebApiTest::server_->port();
}

bool have_stockfish() {
  return std::system("command -v stockfish >/dev/null 2>&1 || test -x /usr/games/stockfish") == 0;
}

// The explorer's routes (issue 39): the tree over the header filters counts the games a
// :fen query finds under the same filters; its game list pages through them highest rated
// first; a poll with wait= returns as soon as the query has finished.
TEST_F(WebApiTest, TreeFiltersAndItsGames) {
  const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
  const std::string e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
  const json filters = {{"player", "Alekhine"}, {"year_min", 1920}};
  const std::string encoded = httplib::detail::encode_query_param(filters.dump());
  const json all = get("/api/tree?fen=" + httplib::detail::encode_query_param(e4));
  const json tree = get("/api/tree?fen=" + httplib::detail::encode_query_param(e4) + "&filters=" + encoded);
  const json query = run({{"cql", "(match (position :fen \"" + e4 + "\"))"}, {"filters", filters}, {"limit", 500}});
  ASSERT_EQ(query["state"], "done");
  EXPECT_GT(tree["games"].get<int>(), 0);
  EXPECT_LT(tree["games"].get<int>(), all["games"].get<int>());
  EXPECT_EQ(tree["games"], query["count"]);
  // the same filters again (cached ids) and with a result: the tree of the result's games
  EXPECT_EQ(get("/api/tree?fen=" + httplib::detail::encode_query_param(e4) + "&filters=" + encoded)["games"], tree["games"]);
  const json within = get("/api/tree?fen=" + httplib::detail::encode_query_param(start) + "&query=" + query["id"].get<std::string>());
  EXPECT_EQ(within["games"], query["count"]);
  get("/api/tree?filters=" + httplib::detail::encode_query_param(R"({"colour":"white"})"), 400);

  const json page1 = get("/api/tree/games?fen=" + httplib::detail::encode_query_param(e4) + "&limit=5");
  const json page2 = get("/api/tree/games?fen=" + httplib::detail::encode_query_param(e4) + "&offset=5&limit=5");
  EXPECT_EQ(page1["count"], all["games"]);
  ASSERT_EQ(page1["rows"].size(), 5u);
  ASSERT_EQ(page2["rows"].size(), 5u);
  auto rating = [](const json& r) {
    const int w = r["white_elo"].is_null() ? 0 : r["white_elo"].get<int>();
    const int b = r["black_elo"].is_null() ? 0 : r["black_elo"].get<int>();
    return w && b ? (w + b) / 2 : w + b;
  };
  for (size_t i = 1; i < 5; ++i) EXPECT_GE(rating(page1["rows"][i - 1]), rating(page1["rows"][i]));
  EXPECT_GE(rating(page1["rows"][4]), rating(page2["rows"][0]));
  EXPECT_EQ(page1["rows"][0]["id"], all["topGames"][0]);

  auto started = client().Post("/api/query", R"j({"cql": "(match (position :mate))"})j", "application/json");
  ASSERT_TRUE(started);
  const std::string id = json::parse(started->body)["id"];
  const json done = get("/api/query/" + id + "?wait=5000");
  EXPECT_EQ(done["state"], "done");
}

TEST_F(WebApiTest, EngineLineAndNoEngine) {
  get("/api/engine?fen=bad", 400);
  if (have_stockfish()) {
    const json line = get("/api/engine?fen=" + httplib::detail::encode_query_param(
                                                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    EXPECT_EQ(line["kind"], "cp") << line.dump();
    EXPECT_FALSE(line["pv"].get<std::string>().empty());
    EXPECT_GT(line["depth"].get<int>(), 0);
  }
  web::ServeOptions options;
  options.db_dir = db_dir();
  options.port = 0;
  options.engine = false;
  RunningServer quiet(options);
  httplib::Client c("127.0.0.1", quiet.port());
  auto r = c.Get("/api/engine?fen=8/8/8/8/8/8/8/K6k%20w%20-%20-%200%201");
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 403);
  EXPECT_EQ(json::parse(c.Get("/api/info")->body)["engine"], false);
}

TEST_F(WebApiTest, DeleteCancelsALongQueryAndTheLimitHolds) {
  CQLDB_REQUIRE_DEPENDENCY(have_stockfish(), "no stockfish (the long query searches with the engine)");
  auto r = client().Post("/api/query", json({{"cql", kLongQuery}}).dump(), "application/json");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->status, 202) << r->body;
  const std::string id = json::parse(r->body)["id"];
  auto second = client().Post("/api/query", json({{"cql", kLongQuery}}).dump(), "application/json");
  ASSERT_TRUE(second);
  ASSERT_EQ(second->status, 202);
  // max_queries is 2: a third is refused
  auto third = client().Post("/api/query", json({{"cql", kLongQuery}}).dump(), "application/json");
  ASSERT_TRUE(third);
  EXPECT_EQ(third->status, 429) << third->body;
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(get("/api/query/" + id)["state"], "running");
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& q : {id, json::parse(second->body)["id"].get<std::string>()}) {
    auto d = client().Delete(("/api/query/" + q).c_str());
    ASSERT_TRUE(d);
    EXPECT_EQ(d->status, 200);
  }
  json state;
  do {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    state = get("/api/query/" + id);
  } while (state["state"] == "running" && std::chrono::steady_clock::now() - start < std::chrono::seconds(20));
  EXPECT_EQ(state["state"], "cancelled") << state.dump();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  EXPECT_EQ(state["stats"]["cancelled"], true);
  get("/api/query/q999999", 404);
}

/// Sends `request` on a new loopback connection to `port`, reads the response head and closes
/// the connection (a client that goes away). False when it cannot connect.
bool send_and_leave(int port, const std::string& request) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(uint16_t(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (fd < 0 || ::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) return false;
  if (::write(fd, request.data(), request.size()) != ssize_t(request.size())) return false;
  std::string head;
  char buffer[256];
  while (head.find("\r\n\r\n") == std::string::npos) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n <= 0) break;
    head.append(buffer, size_t(n));
  }
  ::close(fd);
  return head.rfind("HTTP/1.1 200", 0) == 0;
}

/// Polls /api/info until no query runs; false after `seconds`.
bool none_running(int seconds) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(seconds)) {
    httplib::Client c("127.0.0.1", WebApiTestPort());
    auto r = c.Get("/api/info");
    if (r && json::parse(r->body)["running_queries"] == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST_F(WebApiTest, AQueryIsCancelledWhenItsClientGoesAway) {
  CQLDB_REQUIRE_DEPENDENCY(have_stockfish(), "no stockfish (the long query searches with the engine)");
  ASSERT_TRUE(none_running(20));
  // a client waiting for the answer leaves: the server's next blank fails to go out
  const std::string body = json({{"cql", kLongQuery}, {"wait", true}}).dump();
  const std::string request = "POST /api/query HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                              "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
  ASSERT_TRUE(send_and_leave(server_->port(), request));
  EXPECT_TRUE(none_running(10)) << "the waiting query was not cancelled";
  // a client that started a query and never asks again: cancelled after idle_cancel_seconds
  auto started = client().Post("/api/query", json({{"cql", kLongQuery}}).dump(), "application/json");
  ASSERT_TRUE(started);
  ASSERT_EQ(started->status, 202) << started->body;
  const std::string id = json::parse(started->body)["id"];
  httplib::Client c("127.0.0.1", server_->port());
  auto info = c.Get("/api/info");
  ASSERT_TRUE(info);
  EXPECT_EQ(json::parse(info->body)["running_queries"], 1);
  EXPECT_TRUE(none_running(10)) << "the idle query was not cancelled";
  EXPECT_EQ(get("/api/query/" + id)["state"], "cancelled");
}

}  // namespace
