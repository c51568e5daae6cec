// Move lines as players write them (issue 20): `:line` and `:line*` in standard algebraic
// notation, with or without move numbers, parse and find the same games as the seed's long
// notation on the bundled sample (examples/sample/players-3000.pgn.zst).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cql/ast_print.h"
#include "cql/error.h"
#include "cql/line.h"
#include "cql/parser.h"
#include "db/database.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "temp_dir.h"

namespace {

std::vector<uint32_t> ids(db::Database& database, const std::string& text) {
  query::Query q = query::Query::compile(text, "-e");
  query::ExecuteOptions options;
  std::vector<uint32_t> out;
  for (const eval::GameMatch& m : query::execute(q, database, options).matches) out.push_back(m.id);
  return out;
}

class LineSanTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new cqltest::TempDir("line-san");
    database_ = new db::Database(db::Database::create_or_open(tmp_->path / "db"));
    import::import_files(*database_,
                         {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"},
                         import::ImportOptions{}, nullptr);
  }
  static void TearDownTestSuite() {
    delete database_;
    delete tmp_;
  }
  static cqltest::TempDir* tmp_;
  static db::Database* database_;
};
cqltest::TempDir* LineSanTest::tmp_ = nullptr;
db::Database* LineSanTest::database_ = nullptr;

TEST(LineSan, MovesParse) {
  auto m = cql::parse_san_move("dxc4");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->target, cql::LineMove::Target::Either);  // a pawn capture includes e.p.
  EXPECT_EQ(m->to.squares.squares, chess::Bitboard(1) << 26);
  EXPECT_TRUE(cql::parse_san_move("1.e4"));
  EXPECT_EQ(cql::parse_san_move("12...Nbd7+")->move_number, 12);
  EXPECT_TRUE(cql::parse_san_move("12...Nbd7+")->black_move_number);
  EXPECT_TRUE(cql::parse_san_move("exd8=Q#"));
  EXPECT_TRUE(cql::parse_san_move("e8Q"));
  EXPECT_TRUE(cql::parse_san_move("R1xe2"));
  EXPECT_TRUE(cql::parse_san_move("Qh4xe1"));
  EXPECT_EQ(cql::parse_san_move("O-O-O")->kind, cql::LineMove::Kind::Castling);
  for (const char* bad : {"Pe2-e4", "e9", "Zf3", "Nf", "exd", "e8=K", "0.e4", "O-O-O-O", "N@f3", "Nf3?"})
    EXPECT_FALSE(cql::parse_san_move(bad)) << bad;
}

TEST(LineSan, LinesOfPlayersParseAndPrintAsWritten) {
  for (const std::string line : {"(1.d4 d5 2.c4 dxc4)", "(e4 e5 Nf3 Nc6 Bb5)", "(1. e4 c5 2. Nf3 d6)",
                                 "(12...Nbd7 13.Qe2)", "(e4 c5 | Nf3)"}) {
    const std::string text = "(match (position :line " + line + "))";
    cql::Script s = cql::parse_or_throw(text, "-e");
    const std::string printed = cql::to_string(s);
    EXPECT_EQ(cql::to_string(cql::parse_or_throw(printed, "printed")), printed) << printed;
  }
  // The seed's notation keeps its meaning where it is valid: absolute colours without numbers.
  cql::Script seed = cql::parse_or_throw("(match (position :line (Pe2-e4 pe7-e5)))", "-e");
  EXPECT_NE(cql::to_string(seed).find("Pe2-e4 pe7-e5"), std::string::npos);
}

TEST(LineSan, ErrorsStayLocated) {
  // Neither notation: the seed notation's error is reported.
  try {
    cql::parse_or_throw("(match (position :line (e4 e5 Nf3 Nc6 zz9)))", "-e");
    FAIL();
  } catch (const cql::ParseError& e) {
    EXPECT_GE(e.column(), 39u) << e.what();
    EXPECT_LE(e.column(), 41u) << e.what();
  }
  try {
    cql::parse_or_throw("(match (position :line (1.d4 d5 3.c4 dxc4)))", "-e");
    FAIL();
  } catch (const cql::ParseError& e) {
    EXPECT_NE(std::string(e.what()).find("move number does not follow"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cql::parse_or_throw("(match (position :line* (e4 e5+ Nf3)))", "-e"), cql::ParseError);
}

TEST_F(LineSanTest, FindsWhatTheLongNotationFinds) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {":line (1.d4 d5 2.c4 dxc4)", ":line (1.Pd2-d4 Pd7-d5 2.Pc2-c4 Pd5xPc4)"},
      {":line (e4 e5 Nf3 Nc6 Bb5)", ":line (Pe2-e4 pe7-e5 Ng1-f3 nb8-c6 Bf1-b5)"},
      {":line (e4 c5 Nf3 d6 d4 cxd4 Nxd4)", ":line (Pe2-e4 pc7-c5 Ng1-f3 pd7-d6 Pd2-d4 pc5xPd4 Nf3xpd4)"},
      {":line (1.e4 e6 2.d4 d5)", ":line (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)"},
      {":line* (d4 Nf6 c4 e6 Nc3 Bb4)", ":line* (Pd2-d4 Ng8-f6 Pc2-c4 Pe7-e6 Nb1-c3 Bf8-b4)"},
      {":line (e4 e5 Nf3 Nc6 Bc4 Bc5 O-O Nf6)",
       ":line (Pe2-e4 pe7-e5 Ng1-f3 nb8-c6 Bf1-c4 bf8-c5 K-K ng8-f6)"},
  };
  for (const auto& [san, seed] : pairs) {
    const std::vector<uint32_t> a = ids(*database_, "(match (position " + san + "))");
    const std::vector<uint32_t> b = ids(*database_, "(match (position " + seed + "))");
    EXPECT_EQ(a, b) << san;
    EXPECT_FALSE(a.empty()) << san;
  }
  // The colour flip of a line without numbers: Black plays what White played.
  EXPECT_FALSE(ids(*database_, "(match (position :line (e4 e5 Nf3) :flipcolor))").empty());
}

}  // namespace
