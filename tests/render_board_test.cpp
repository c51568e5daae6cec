// The SVG board renderer, the game walk and the HTML report (render/, issue 19): what a
// board picture holds, square lists, the ply paths of a walked game against the matcher's
// (eval/match_location.h), and the report's diagrams on the sample.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "chess/position.h"
#include "db/database.h"
#include "eval/game_matcher.h"
#include "eval_test_util.h"
#include "import/game_builder.h"
#include "import/importer.h"
#include "query/executor.h"
#include "query/query.h"
#include "render/board_svg.h"
#include "render/game_walk.h"
#include "render/html_report.h"
#include "temp_dir.h"

namespace {

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t i = text.find(what); i != std::string::npos; i = text.find(what, i + 1)) ++n;
  return n;
}

TEST(RenderBoardSvg, StartPositionHasEveryPieceAndTheCoordinates) {
  chess::Position pos;
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  const std::string svg = render::board_svg(pos);
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count(svg, "<g transform="), 32u);  // one group per piece
  EXPECT_EQ(count(svg, "width='45' height='45'"), 64u);  // squares (no marks)
  EXPECT_NE(svg.find("data-fen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'"), std::string::npos);
  EXPECT_EQ(count(svg, "<text"), 16u);
  // file a is on the left unflipped, on the right flipped
  const auto a_x = [](const std::string& s) { return s.substr(s.find(">a</text>") - 120, 120); };
  render::BoardSvgOptions flipped;
  flipped.flipped = true;
  const std::string f = render::board_svg(pos, flipped);
  EXPECT_NE(a_x(svg).find("x='37'"), std::string::npos) << a_x(svg);
  EXPECT_NE(a_x(f).find("x='352'"), std::string::npos) << a_x(f);
  render::BoardSvgOptions bare;
  bare.coordinates = false;
  EXPECT_EQ(count(render::board_svg(pos, bare), "<text"), 0u);
}

TEST(RenderBoardSvg, MarksLastMoveAndFen) {
  std::string error;
  render::BoardSvgOptions options;
  options.marked = *render::parse_square_list("e4, D5 h8", error);
  options.from = chess::SQ_E2;
  options.to = chess::SQ_E4;
  const auto svg = render::board_svg_from_fen("8/8/8/8/4P3/8/8/4K2k", options, error);  // placement only
  ASSERT_TRUE(svg) << error;
  EXPECT_EQ(count(*svg, "class='marked'"), 3u);
  EXPECT_EQ(count(*svg, "class='last-move'"), 2u);
  EXPECT_NE(svg->find("data-fen='8/8/8/8/4P3/8/8/4K2k w - - 0 1'"), std::string::npos);
  EXPECT_FALSE(render::board_svg_from_fen("8/8/9/8 w - - 0 1", options, error));
  EXPECT_FALSE(error.empty());
  EXPECT_FALSE(render::parse_square_list("e4,i9", error));
  EXPECT_NE(error.find("'i9'"), std::string::npos);
  EXPECT_EQ(render::xml_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

/// The move record and the annotation record (record format 2) of the PGN game `pgn`.
std::pair<std::string, std::string> record_of(const std::string& pgn) {
  import::RawGame raw;
  raw.text = pgn;
  raw.ordinal = 1;
  raw.first_line = 1;
  import::GameBuilder builder;
  import::BuiltGame built;
  builder.build(raw, "test.pgn", built);
  if (!built.stored) throw std::runtime_error("test game rejected: " + built.reason);
  return {built.record, built.annotations};
}

TEST(RenderGameWalk, PathsAreTheMatchersPaths) {
  const auto [record, annotations] =
      record_of("1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 (3... g6 {solid} 4. Qf3 (4. Qxe5+ Qe7) 4... Nf6) (3... Qe7 4. Qxf7+) "
                "4. Qxf7# $1 1-0\n");
  const db::RecordView view = db::RecordView::parse(record, annotations);
  const render::GameWalk walk = render::walk_game(view);
  ASSERT_EQ(walk.fens.size(), 8u);
  ASSERT_EQ(walk.main.moves.size(), 7u);
  EXPECT_EQ(walk.main.moves[6].san, "Qxf7#");
  EXPECT_EQ(walk.main.moves[6].nags, std::vector<uint8_t>{1});
  EXPECT_EQ(walk.main.moves[6].fen, walk.fens[7]);
  ASSERT_EQ(walk.main.moves[5].variations.size(), 2u);
  const render::WalkLine& g6 = walk.main.moves[5].variations[0];
  EXPECT_EQ(g6.moves[0].comment, "solid");
  EXPECT_EQ(render::path_text(g6.moves[1].variations[0].moves[0].path), "5.1.1.1.1");
  // every checking position inside a variation the matcher finds is a walked move with that path
  eval::Program program = cqltest::compile("(match (position :variationsonly :check))");
  eval::GameMatcher matcher(program);
  std::vector<uint32_t> plies;
  uint64_t positions = 0;
  eval::GameInfo info;
  ASSERT_TRUE(matcher.match(view, 1, &info, plies, positions));
  std::map<std::vector<uint32_t>, std::string> walked;
  std::function<void(const render::WalkLine&)> collect = [&](const render::WalkLine& line) {
    for (const render::WalkMove& m : line.moves) {
      walked[m.path] = m.fen;
      for (const render::WalkLine& v : m.variations) collect(v);
    }
  };
  collect(walk.main);
  ASSERT_FALSE(matcher.variation_plies().empty());
  for (const eval::VariationPly& path : matcher.variation_plies()) {
    ASSERT_TRUE(walked.count(path)) << render::path_text(path);
    chess::Position pos;
    ASSERT_TRUE(pos.set_fen(walked[path]).ok());
    EXPECT_TRUE(pos.in_check()) << render::path_text(path);
  }
}

TEST(RenderHtmlReport, ADiagramPerMatchedPositionOnTheSample) {
  cqltest::TempDir tmp("render-report");
  const std::string sample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
  db::Database database = db::Database::create_or_open(tmp.db());
  import::import_files(database, {sample + "/players-3000.pgn.zst", sample + "/annotated-40.pgn"},
                       import::ImportOptions{}, nullptr);
  const query::Query q = query::Query::compile("(match (position :promote [RBNrbn]))", "test");
  const query::Result result = query::execute(q, database, {});
  ASSERT_GT(result.matches.size(), 3u);
  size_t positions = 0;
  for (const eval::GameMatch& m : result.matches) positions += m.plies.size() + m.variation_plies.size();
  std::ostringstream out;
  db::GameReader reader = database.reader();
  render::HtmlReportOptions options;
  options.query_text = "(match (position :promote [RBNrbn]))";
  render::write_html_report(out, reader, result.matches, options);
  const std::string html = out.str();
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<section id='game-"), result.matches.size());
  EXPECT_EQ(count(html, "<figure>"), positions);
  EXPECT_EQ(count(html, "class='match'"), positions);
  EXPECT_NE(html.find("<pre class='query'>(match (position :promote [RBNrbn]))</pre>"), std::string::npos);
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

}  // namespace
