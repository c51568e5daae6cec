// query::Query and query::execute (query/): located errors of both kinds, the stage figures
// and switching stages off by name, and a damaged game record skipped and counted instead of
// failing the query (issue 14), on real games of the bundled sample.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/game_writer.h"
#include "db/record_builder.h"
#include "import/game_builder.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace {

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

/// A database of the sample's annotated and study games, imported once for the suite.
class QueryExecutor : public testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = new cqltest::TempDir("query");
    db::Database database = db::Database::create_or_open(dir_->db());
    import::import_files(database, {kSample + "/annotated-40.pgn", kSample + "/studies-30.pgn"}, {}, nullptr);
  }
  static void TearDownTestSuite() {
    delete dir_;
    dir_ = nullptr;
  }
  static cqltest::TempDir* dir_;
};

cqltest::TempDir* QueryExecutor::dir_ = nullptr;

TEST(Query, ParseAndCompileErrorsAreLocated) {
  try {
    query::Query::compile("(match\n  (position :mat))", "q.cql");
    ADD_FAILURE() << "parsed";
  } catch (const query::QueryError& e) {
    EXPECT_EQ(e.source_name(), "q.cql");
    EXPECT_EQ(e.line(), 2u);
    EXPECT_EQ(e.column(), 13u);
    EXPECT_EQ(std::string(e.what()).rfind("q.cql:2:13: ", 0), 0u) << e.what();
  }
  // A keyword that parses but does not compile: the same located form.
  try {
    query::Query::compile("(match :eithercolor (position :flipcolor Ka1))", "x.cql");
  } catch (const query::QueryError& e) {
    EXPECT_EQ(std::string(e.what()).rfind("x.cql:1:", 0), 0u) << e.what();
  }
}

TEST_F(QueryExecutor, StagesReportAndSwitchOffByName) {
  db::Database database = db::Database::open_readonly(dir_->db());
  const query::Query q = query::Query::compile("(match :result 1-0 (position :mate))", "q.cql");
  const query::Result on = query::execute(q, database, {});
  ASSERT_EQ(on.stats.stages.size(), 6u);  // positions, postings, headers, signatures, windows, replay
  EXPECT_GT(on.stats.matches, 0u);
  for (const char* stage : query::kPruningStages) {
    query::ExecuteOptions options;
    options.disabled.insert(stage);
    const query::Result off = query::execute(q, database, options);
    ASSERT_EQ(off.matches.size(), on.matches.size()) << stage;
    for (size_t i = 0; i < on.matches.size(); ++i) {
      EXPECT_EQ(off.matches[i].id, on.matches[i].id) << stage;
      EXPECT_EQ(off.matches[i].plies, on.matches[i].plies) << stage;
    }
  }
  query::ExecuteOptions none;
  none.planner_off();
  const query::Result all_off = query::execute(q, database, none);
  EXPECT_EQ(all_off.stats.games_replayed, all_off.stats.games_total);  // nothing pruned
  EXPECT_LT(on.stats.games_replayed, all_off.stats.games_replayed);
  EXPECT_EQ(all_off.matches.size(), on.matches.size());
  EXPECT_NE(query::explain_stats(on.stats).find("after header filter"), std::string::npos);
}

TEST(QueryDamaged, ADamagedRecordIsSkippedAndCounted) {
  const cqltest::TempDir dir("damaged");
  auto build = [](const std::string& movetext) {
    import::RawGame raw;
    raw.text = "[White \"A\"]\n[Black \"B\"]\n\n" + movetext;
    raw.ordinal = 1;
    raw.first_line = 1;
    import::GameBuilder builder;
    import::BuiltGame built;
    builder.build(raw, "games.pgn", built);
    EXPECT_TRUE(built.stored) << built.reason;
    return built;
  };
  const import::BuiltGame mate = build("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0");
  db::RecordBuilder record;
  record.reset();
  record.add_move(chess::Move(chess::SQ_E2, chess::SQ_E4));
  record.add_move(chess::Move(chess::SQ_E3, chess::SQ_E4));  // no piece on e3: damaged
  const std::string bad(record.finish());
  {
    db::Database database = db::Database::create_or_open(dir.db());
    db::GameWriter writer = database.writer();
    writer.add_game(mate.header, mate.record, mate.signature);
    db::GameHeader header = mate.header;
    header.plies = 2;
    writer.add_game(header, bad, mate.signature);
    writer.add_game(mate.header, mate.record, mate.signature);
    writer.finish();
  }
  db::Database database = db::Database::open_readonly(dir.db());
  const query::Query q = query::Query::compile("(match (position :check))", "q.cql");
  for (bool planner : {true, false}) {
    query::ExecuteOptions options;
    if (!planner) options.planner_off();
    const query::Result r = query::execute(q, database, options);
    ASSERT_EQ(r.matches.size(), 2u) << planner;
    EXPECT_EQ(r.matches[0].id, 1u);
    EXPECT_EQ(r.matches[1].id, 3u);
    EXPECT_EQ(r.stats.damaged, std::vector<uint32_t>{2}) << planner;
    EXPECT_NE(query::explain_stats(r.stats).find("damaged games skipped"), std::string::npos);
  }
}

}  // namespace
