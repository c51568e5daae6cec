// Matches inside variations located as ply paths (eval/match_location.h, issue 14): the
// paths of a constructed game with nested variations, the same paths for every match on the
// annotated corpus checked against an independent replay of the record's token stream, and
// the {MATCH} marks of the PGN writer inside variations.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include <unistd.h>

#include <filesystem>

#include "chess/movegen.h"
#include "chess/position.h"
#include "db/pgn_writer.h"
#include "eval/game_matcher.h"
#include "cli_test_util.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"
#include "import/game_builder.h"
#include "query/executor.h"
#include "query/query.h"

namespace {

using Path = std::vector<uint32_t>;
using Paths = std::vector<Path>;

/// Main-line plies and variation paths of one game.
struct Located {
  bool matched = false;
  std::vector<uint32_t> plies;
  Paths paths;
};

/// The stored record of the PGN game `pgn` (tags optional).
import::BuiltGame built_of(const std::string& pgn) {
  import::RawGame raw;
  raw.text = pgn;
  raw.ordinal = 1;
  raw.first_line = 1;
  import::GameBuilder builder;
  import::BuiltGame built;
  builder.build(raw, "test.pgn", built);
  if (!built.stored) throw std::runtime_error("test game rejected: " + built.reason);
  return built;
}

std::string record_of(const std::string& pgn) { return built_of(pgn).record; }

Located run(const std::string& script, const std::string& record) {
  eval::Program program = cqltest::compile(script);
  db::RecordView rec = db::RecordView::parse(record);
  eval::GameMatcher matcher(program);
  Located r;
  uint64_t positions = 0;
  eval::GameInfo info;
  r.matched = matcher.match(rec, (1u << program.alternatives().size()) - 1, &info, r.plies, positions);
  r.paths = matcher.variation_plies();
  return r;
}

/// Every position inside a variation of `record`, by ply path, replayed here from the token
/// stream on chess::Position (ply 0 of a variation = its branch position).
std::map<Path, chess::Position> variation_positions(const db::RecordView& record) {
  struct Line {
    chess::Position pos, before;  // now, and before the line's last move
    Path path;                    // ply path without the last ply
    uint32_t ply = 0, variations = 0;
  };
  std::map<Path, chess::Position> out;
  std::vector<Line> lines(1);
  if (!record.start_fen().empty()) {
    EXPECT_TRUE(lines[0].pos.set_fen(record.start_fen(), record.chess960()).ok());
  }
  for (const db::Token& t : record.tokens()) {
    if (t.kind == db::TokenKind::kMove) {
      Line& l = lines.back();
      l.before = l.pos;
      chess::UndoInfo undo;
      if (t.move == chess::Move::null()) l.pos.do_null_move(undo);
      else l.pos.do_move(t.move, undo);
      ++l.ply;
      l.variations = 0;
      if (lines.size() > 1) {
        Path p = l.path;
        p.push_back(l.ply);
        out[p] = l.pos;
      }
    } else if (t.kind == db::TokenKind::kBeginVariation) {
      Line& parent = lines.back();
      Line child;
      child.pos = parent.before;
      child.path = parent.path;
      child.path.push_back(parent.ply - 1);
      child.path.push_back(++parent.variations);
      Path p = child.path;
      p.push_back(0);
      out[p] = child.pos;
      lines.push_back(child);
    } else if (t.kind == db::TokenKind::kEndVariation) {
      lines.pop_back();
    }
  }
  return out;
}

bool mate(const chess::Position& p) { return p.in_check() && !chess::has_legal_move(p); }

// Main line: 0 start ... 5 after 3. Qh5, 6 after 3... Nf6, 7 after 4. Qxf7#.
// [5,1,*]: 3... g6 4. Qf3 Nf6 (1 after g6, 2 after Qf3, 3 after Nf6), with the sub-variation
// [5,1,1,1,*]: 4. Qxe5+ Qe7 (1 after Qxe5+, 2 after Qe7); [5,2,*]: 3... Qe7 4. Qxf7+.
const char* kGame =
    "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 (3... g6 4. Qf3 (4. Qxe5+ Qe7) 4... Nf6) (3... Qe7 4. Qxf7+) "
    "4. Qxf7# 1-0\n";

TEST(EvalVariationLocation, PathsOfAConstructedGame) {
  const std::string record = record_of(kGame);
  Located r = run("(match (position :variationsonly :check))", record);
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (std::vector<uint32_t>{}));
  EXPECT_EQ(r.paths, (Paths{{5, 1, 1, 1, 1}, {5, 2, 2}}));
  r = run("(match (position :variations :check))", record);
  EXPECT_EQ(r.plies, (std::vector<uint32_t>{7}));
  EXPECT_EQ(r.paths, (Paths{{5, 1, 1, 1, 1}, {5, 2, 2}}));
  // ply 0 of a variation: its branch position, searched as part of the variation
  r = run("(match (position :variationsonly Qh5 pg7 :btm))", record);
  EXPECT_EQ(r.paths, (Paths{{5, 1, 0}, {5, 2, 0}}));
  r = run("(match (position :variationsonly pg6))", record);  // the g6 pawn in both lines
  EXPECT_EQ(r.paths, (Paths{{5, 1, 1}, {5, 1, 1, 1, 0}, {5, 1, 1, 1, 1}, {5, 1, 1, 1, 2}, {5, 1, 2}, {5, 1, 3}}));
  // the main line alone reports no path; a game that does not match reports none either
  EXPECT_TRUE(run("(match (position :check))", record).paths.empty());
  r = run("(match (position :variationsonly :mate))", record);
  EXPECT_FALSE(r.matched);
  EXPECT_TRUE(r.paths.empty());
  // :skip drops a variation position; :exclude drops the whole variation's positions
  EXPECT_EQ(run("(match (position :variationsonly :check) (position :variationsonly :skip Qe5))", record).paths,
            (Paths{{5, 2, 2}}));
  EXPECT_EQ(run("(match (position :variationsonly :check) (position :variationsonly :exclude Qf7))", record).paths,
            (Paths{{5, 1, 1, 1, 1}}));
}

TEST(EvalVariationLocation, PgnMarksInsideVariations) {
  const std::string record = record_of(kGame);
  Located r = run("(match (position :variations :check))", record);
  db::GameHeader header;
  header.result = "1-0";
  db::PgnWriteOptions options;
  options.match_plies = r.plies;
  options.match_variation_plies = r.paths;
  options.line_width = 1000;
  std::string text;
  db::write_pgn(header, db::RecordView::parse(record), text, options);
  EXPECT_NE(text.find("3... g6 4. Qf3 (4. Qxe5+ {MATCH} 4... Qe7) 4... Nf6) (3... Qe7 4. Qxf7+ {MATCH}) "
                      "4. Qxf7# {MATCH} 1-0"),
            std::string::npos)
      << text;
  // a variation's ply 0 is marked right after its "("
  r = run("(match (position :variationsonly Qh5 pg7 :btm))", record);
  options.match_plies = r.plies;
  options.match_variation_plies = r.paths;
  text.clear();
  db::write_pgn(header, db::RecordView::parse(record), text, options);
  EXPECT_NE(text.find("3. Qh5 Nf6 ({MATCH} 3... g6"), std::string::npos) << text;
  EXPECT_NE(text.find("({MATCH} 3... Qe7 4. Qxf7+)"), std::string::npos) << text;
}

// `cqldb query --format jsonl / pgn` on the constructed game: the documented shapes.
TEST(EvalVariationLocation, CliJsonlAndPgnShapes) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("cqldb-varloc-cli-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "game.pgn") << "[Event \"v\"]\n[Result \"1-0\"]\n\n" << kGame << "\n";
  const std::string db = (dir / "db").string();
  ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db, (dir / "game.pgn").string()}, dir).code, 0);
  cqltest::Outcome r = cqltest::run_cqldb(
      {"query", "--db", db, "-e", "(match (position :variationsonly :check))", "--format", "jsonl"}, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("\"plies\":[[5,1,1,1,1],[5,2,2]]}"), std::string::npos) << r.out;
  r = cqltest::run_cqldb({"query", "--db", db, "-e", "(match (position :variations :check))", "--format", "jsonl"}, dir);
  EXPECT_NE(r.out.find("\"plies\":[[5,1,1,1,1],[5,2,2],7]}"), std::string::npos) << r.out;
  r = cqltest::run_cqldb({"query", "--db", db, "-e", "(match (position :variations :check))", "--format", "pgn"}, dir);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("(4. Qxe5+ {MATCH} 4... Qe7)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4. Qxf7+ {MATCH})"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4. Qxf7# {MATCH} 1-0"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

// ---- the annotated corpus (games with nested variations)

class EvalVariationLocationCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-varloc", {cqltest::corpus_file("annotated.pgn")});
  }
  static void TearDownTestSuite() { delete db_; }

  /// Every match of `script`: id -> (plies, paths).
  static std::map<uint32_t, eval::GameMatch> search(const std::string& script) {
    query::ExecuteOptions options;
    options.planner_off();
    std::vector<eval::GameMatch> matches =
        query::execute(query::Query::compile(script, "test.cql"), db_->database(), options).matches;
    std::map<uint32_t, eval::GameMatch> out;
    for (eval::GameMatch& m : matches) out[m.id] = std::move(m);
    return out;
  }

  /// Checks that the paths of every match of `script` are exactly the variation positions
  /// where `holds` is true (independent replay); returns the number of paths.
  /// With `main_line`, the main-line plies too.
  static size_t check(const std::string& script, bool (*holds)(const chess::Position&), bool main_line = false) {
    const auto matches = search(script);
    const db::GameReader reader = db_->database().reader();
    size_t paths = 0, nested = 0;
    for (uint32_t id = 1; id <= reader.game_count(); ++id) {
      std::string bytes;
      if (!reader.read_record(id, bytes)) continue;
      Paths expected;
      for (const auto& [path, pos] : variation_positions(db::RecordView::parse(bytes)))
        if (holds(pos)) expected.push_back(path);
      const auto it = matches.find(id);
      const Paths got = it == matches.end() ? Paths{} : it->second.variation_plies;
      EXPECT_EQ(got, expected) << script << " game " << id;
      if (main_line) {
        std::vector<chess::Position> positions;
        EXPECT_TRUE(db_->replay(id, positions));
        std::vector<uint32_t> plies;
        for (uint32_t p = 0; p < positions.size(); ++p)
          if (holds(positions[p])) plies.push_back(p);
        EXPECT_EQ(it == matches.end() ? std::vector<uint32_t>{} : it->second.plies, plies) << script << " game " << id;
      }
      paths += got.size();
      for (const Path& p : got) nested += p.size() >= 5;
    }
    EXPECT_GT(nested, 0u) << script;  // sub-variations are located too
    return paths;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
};

TEST_F(EvalVariationLocationCorpus, MatesInVariations) {
  const size_t n = check("(match (position :variationsonly :mate))", mate);
  EXPECT_GT(n, 100u);
  std::printf("annotated.pgn: %zu mates inside variations located\n", n);
}

TEST_F(EvalVariationLocationCorpus, ChecksInVariationsAndTheMainLine) {
  const size_t n = check("(match (position :variations :check))",
                         [](const chess::Position& p) { return p.in_check(); }, /*main_line=*/true);
  EXPECT_GT(n, 1000u);
  std::printf("annotated.pgn: %zu checks inside variations located\n", n);
}

TEST_F(EvalVariationLocationCorpus, PgnOutputMarksEachVariationMateAfterTheMatingMove) {
  const auto matches = search("(match (position :variationsonly :mate))");
  ASSERT_FALSE(matches.empty());
  db::GameReader reader = db_->database().reader();
  size_t marks = 0;
  for (const auto& [id, m] : matches) {
    std::string bytes;
    db::GameHeader header;
    ASSERT_TRUE(reader.read_record(id, bytes));
    ASSERT_TRUE(reader.read_header(id, header));
    db::PgnWriteOptions options;
    options.match_variation_plies = m.variation_plies;
    std::string text;
    db::write_pgn(header, db::RecordView::parse(bytes), text, options);
    // every {MATCH} follows a mating move ("#", then maybe a NAG) inside parentheses
    size_t count = 0;
    for (size_t at = text.find("{MATCH}"); at != std::string::npos; at = text.find("{MATCH}", at + 1)) {
      ++count;
      const std::string before = text.substr(0, at);
      const size_t word = before.find_last_not_of(" \n");
      const size_t start = before.find_last_of(" \n(", word);
      std::string token = before.substr(start + 1, word - start);
      if (!token.empty() && token[0] == '$') {  // a NAG after the move
        const size_t w2 = before.find_last_not_of(" \n", start);
        const size_t s2 = before.find_last_of(" \n(", w2);
        token = before.substr(s2 + 1, w2 - s2);
      }
      EXPECT_EQ(token.back(), '#') << "game " << id << ": " << token;
      int depth = 0;  // parentheses outside comments
      bool comment = false;
      for (char c : before) {
        if (c == '{' || c == '}') comment = c == '{';
        else if (!comment) depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      }
      EXPECT_GT(depth, 0) << "game " << id;
    }
    EXPECT_EQ(count, m.variation_plies.size()) << "game " << id;
    marks += count;
  }
  EXPECT_GT(marks, 100u);
}

}  // namespace

TEST(PgnExport, ACommentWordThatIsABraceKeepsItsBlanks) {
  // A `{` inside a comment is legal PGN; exporting kept it glued to the next word.
  const import::BuiltGame built = built_of("1. e4 { a { b  c } e5 {  lead  } 2. Nf3 *\n");
  db::GameHeader header;
  header.result = "*";
  db::PgnWriteOptions options;
  options.line_width = 1000;
  std::string text;
  db::write_pgn(header, db::RecordView::parse(built.record, built.annotations), text, options);
  EXPECT_NE(text.find("1. e4 {a { b c} 1... e5 {lead} 2. Nf3 *"), std::string::npos) << text;
}
