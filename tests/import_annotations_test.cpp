// Clock and evaluation comments of online-chess PGN (issue 23): recognised at import,
// stored typed apart from the moves, written back by export in lichess's spelling.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "import/annotation_parser.h"
#include "import/importer.h"
#include "temp_dir.h"
#include "test_dependency.h"

namespace {

using cqltest::TempDir;
using import::CommentOutcome;

const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
const std::string kCorpus = CQLDB_CORPUS_DIR;

struct Read {
  CommentOutcome outcome;
  db::PlyAnnotation value;
  std::string kept;
  import::CommentCounts counts;
};

Read read(std::string_view text, import::AnnotationFilter filter = {}, bool typed = true) {
  Read r;
  r.outcome = import::read_ply_annotation(text, filter, typed, r.value, r.kept, r.counts);
  return r;
}

TEST(AnnotationParser, ClockSpellings) {
  uint32_t t = 0;
  bool tenths = false;
  EXPECT_TRUE(import::parse_clock("0:02:58", t, tenths));
  EXPECT_EQ(t, 1780u);
  EXPECT_FALSE(tenths);
  EXPECT_TRUE(import::parse_clock("0:02:58.7", t, tenths));
  EXPECT_EQ(t, 1787u);
  EXPECT_TRUE(tenths);
  EXPECT_TRUE(import::parse_clock("12:00:00", t, tenths));
  EXPECT_EQ(t, 432000u);
  for (const char* bad : {"0:2:58", "00:02:58", "0:02:60", "0:60:00", "0:02:58.", "0:02:58.70",
                          "2:58", "", "a:02:58", "0:02:5x"})
    EXPECT_FALSE(import::parse_clock(bad, t, tenths)) << bad;
  // Every clock append_clock writes is read back as itself (parse_clock checks the
  // canonical spelling without writing it).
  for (uint32_t v = 0; v < 400000; v += 7) {
    for (bool with_tenths : {false, true}) {
      const uint32_t value = with_tenths ? v : v / 10 * 10;
      std::string text;
      db::append_clock(value, with_tenths, text);
      ASSERT_TRUE(import::parse_clock(text, t, tenths)) << text;
      EXPECT_EQ(t, value) << text;
      EXPECT_EQ(tenths, with_tenths) << text;
    }
  }
  for (const char* bad : {"010:00:00", "0:00:59.10", "1:5:00", "0:00:099"})
    EXPECT_FALSE(import::parse_clock(bad, t, tenths)) << bad;
}

TEST(AnnotationParser, EvaluationSpellings) {
  db::Evaluation e;
  bool short_form = false;
  EXPECT_TRUE(import::parse_evaluation("0.17", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{false, 17}));
  EXPECT_FALSE(short_form);
  EXPECT_TRUE(import::parse_evaluation("-1.50", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{false, -150}));
  EXPECT_TRUE(import::parse_evaluation("-1.5", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{false, -150}));
  EXPECT_TRUE(short_form);
  EXPECT_TRUE(import::parse_evaluation("3", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{false, 300}));
  EXPECT_TRUE(import::parse_evaluation("#-3", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{true, -3}));
  EXPECT_TRUE(import::parse_evaluation("0.00", e, short_form));
  EXPECT_EQ(e, (db::Evaluation{false, 0}));  // present and zero, not absent
  for (const char* bad : {"+0.17", "0.170", "-0.00", "#+3", "#-0", ".5", "1.", "x", "", "#"})
    EXPECT_FALSE(import::parse_evaluation(bad, e, short_form)) << bad;
}

TEST(AnnotationParser, CommandsInAnyOrderWithTextAround) {
  Read r = read("[%clk 0:00:30]");
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_EQ(r.value.bits, db::kAnnClock);
  EXPECT_EQ(r.value.clock, 300u);

  r = read("[%eval 0.17] [%clk 0:00:30]");
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_EQ(r.value.bits, db::kAnnClock | db::kAnnEval);
  EXPECT_EQ(r.value.eval.value, 17);

  r = read("[%clk 0:00:30] [%eval #4]");
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_TRUE(r.value.bits & db::kAnnClockFirst);
  EXPECT_EQ(r.value.eval, (db::Evaluation{true, 4}));

  r = read("Good move [%csl Gd4][%cal Gd1d4] [%eval -0.5] [%clk 1:29:58.5] [%emt 0:00:12.0]");
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_EQ(r.value.rest, "Good move [%csl Gd4][%cal Gd1d4]");
  EXPECT_EQ(r.value.clock, 53985u);
  EXPECT_EQ(r.value.emt, 120u);
  EXPECT_TRUE(r.value.bits & db::kAnnEvalShort);
  std::string back;
  db::append_annotation_text(r.value, back);
  EXPECT_EQ(back, "Good move [%csl Gd4][%cal Gd1d4] [%eval -0.5] [%clk 1:29:58.5] [%emt 0:00:12.0]");

  r = read("[%clk 0:00:30]\nWhite is lost");
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_EQ(r.value.rest, "White is lost");
  EXPECT_FALSE(r.value.bits & db::kAnnRestFirst);
}

TEST(AnnotationParser, WhatCannotBeRebuiltStaysText) {
  for (const char* text : {"[%clk 0:2:58]", "[%clk 0:00:30] [%clk 0:00:29]", "a [%clk 0:00:30] b",
                           "[%clk 0:00:30] x [%eval 0.1]", "[%emt 0:00:01] [%clk 0:00:30]",
                           "[%eval +0.17]", "no commands", "[%clk 0:00:30.5] [%emt 0:00:02]"}) {
    Read r = read(text);
    EXPECT_EQ(r.outcome, CommentOutcome::kText) << text;
    EXPECT_EQ(r.kept, text);
  }
  Read r = read("[%clk 0:00:30]", {}, /*typed=*/false);  // e.g. inside a variation
  EXPECT_EQ(r.outcome, CommentOutcome::kText);
}

TEST(AnnotationParser, FilterDropsCommands) {
  Read r = read("[%eval 0.17] [%clk 0:00:30]", {false, true});
  ASSERT_EQ(r.outcome, CommentOutcome::kTyped);
  EXPECT_EQ(r.value.bits, db::kAnnEval);
  EXPECT_EQ(r.counts.dropped_clocks, 1u);
  r = read("[%clk 0:00:30]", {false, true});
  EXPECT_EQ(r.outcome, CommentOutcome::kDropped);
  r = read("Zeitnot [%clk 0:00:30]", {false, false});
  EXPECT_EQ(r.outcome, CommentOutcome::kText);
  EXPECT_EQ(r.kept, "Zeitnot");
  r = read("[%clk 0:2:58] odd", {false, true}, true);  // text fallback, command still removed
  EXPECT_EQ(r.outcome, CommentOutcome::kText);
  EXPECT_EQ(r.kept, "odd");
}

// ---- import / export round trips -------------------------------------------------------

/// Movetext tokens of a PGN text for comparison: comments as their blank-separated words in
/// braces, SAN without check marks (their !/? glyphs as NAGs), move numbers left out.
std::vector<std::string> movetext_tokens(const std::string& pgn) {
  std::vector<std::string> out;
  std::istringstream lines(pgn);
  std::string line, text;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] == '[') continue;
    text += line + '\n';
  }
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\n' || c == '\t') {
      ++i;
    } else if (c == '{') {
      const size_t close = text.find('}', i);
      std::istringstream words(text.substr(i + 1, close - i - 1));
      std::string w, joined = "{";
      while (words >> w) joined += " " + w;
      out.push_back(joined + " }");
      i = close + 1;
    } else if (c == '(' || c == ')') {
      out.push_back(std::string(1, c));
      ++i;
    } else {
      size_t end = i;
      while (end < text.size() && !std::strchr(" \n\t{}()", text[end])) ++end;
      std::string tok = text.substr(i, end - i);
      i = end;
      size_t dots = tok.find_first_not_of("0123456789");
      if (dots != std::string::npos && dots > 0 && tok[dots] == '.') {
        const size_t san = tok.find_first_not_of('.', dots);
        if (san == std::string::npos) continue;
        tok = tok.substr(san);
      }
      std::string glyph;
      while (!tok.empty() && std::strchr("+#!?", tok.back())) {
        if (tok.back() == '!' || tok.back() == '?') glyph.insert(glyph.begin(), tok.back());
        tok.pop_back();
      }
      if (tok.empty() && glyph.empty()) continue;
      if (!tok.empty()) out.push_back(tok);
      static const std::pair<const char*, const char*> kGlyphs[] = {
          {"!", "$1"}, {"?", "$2"}, {"!!", "$3"}, {"??", "$4"}, {"!?", "$5"}, {"?!", "$6"}};
      for (const auto& [g, nag] : kGlyphs)
        if (glyph == g) out.push_back(nag);
    }
  }
  return out;
}

size_t count_of(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The tag lines (`[Name "value"]`) of every game of a PGN text, in file order.
std::vector<std::vector<std::string>> tag_lines(const std::string& pgn) {
  std::vector<std::vector<std::string>> games;
  std::istringstream lines(pgn);
  std::string line;
  bool in_tags = false;
  while (std::getline(lines, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const bool tag = !line.empty() && line[0] == '[';
    if (tag && !in_tags) games.emplace_back();
    if (tag) games.back().push_back(line);
    in_tags = tag;
  }
  return games;
}

/// Every tag of every input game comes back from export with its spelling and in its order
/// (issue 23: the other tags are stored with their names as ids of tag_names). Left out of
/// the comparison is what export has always written from header columns instead of the
/// tag: a WhiteElo/BlackElo that is no number (lichess writes "" or "?"),
/// Variant "Standard" (standard chess is no variant) and "?" for an empty roster tag.
void expect_same_tags(const std::string& input, const std::string& exported) {
  const auto in = tag_lines(input), out = tag_lines(exported);
  ASSERT_EQ(in.size(), out.size());
  size_t compared = 0;
  for (size_t g = 0; g < in.size(); ++g) {
    std::vector<std::string> expected;
    for (std::string t : in[g]) {
      const bool elo = t.starts_with("[WhiteElo ") || t.starts_with("[BlackElo ");
      const bool empty = t.ends_with(" \"\"]");
      if (elo && (empty || t.ends_with(" \"?\"]"))) continue;
      if (t == "[Variant \"Standard\"]") continue;
      for (const char* roster : {"[Event ", "[Site ", "[Round ", "[White ", "[Black "})
        if (empty && t.starts_with(roster)) t.insert(t.size() - 2, "?");
      expected.push_back(t);
    }
    ASSERT_EQ(expected, out[g]) << "game " << g + 1;
    compared += expected.size();
  }
  EXPECT_GT(compared, in.size() * 12);  // the seven roster tags and lichess's five
}

/// Imports `pgn` (written to a file) into a new database and exports every game.
struct RoundTrip {
  import::ImportSummary summary;
  std::string exported;
  uint64_t annotation_bytes = 0;  // sum of the annotation records
  uint64_t clock_only_plies = 0;  // plies of games whose typed block has only clocks
  uint64_t clock_only_bytes = 0;  // and their annotation record bytes
};

RoundTrip round_trip(const TempDir& dir, const std::filesystem::path& pgn_file,
                     const import::MovetextFilter& filter = {}) {
  RoundTrip r;
  {
    db::Database database = db::Database::create_or_open(dir / "db");
    import::ImportOptions options;
    options.filter = filter;
    r.summary = import::import_files(database, {pgn_file.string()}, options, nullptr);
  }
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  db::GameHeader header;
  std::vector<db::PlyAnnotation> plies;
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    db::RecordView view;
    reader.read_header(id, header);
    reader.record_view(id, view);
    db::write_pgn(header, view, r.exported);
    std::string_view notes;
    reader.annotations(id, notes);
    r.annotation_bytes += notes.size();
    view.ply_annotations(plies);
    bool clock_only = !plies.empty();
    for (const db::PlyAnnotation& a : plies) clock_only &= a.bits == db::kAnnClock;
    if (clock_only) {
      r.clock_only_plies += plies.size();
      r.clock_only_bytes += notes.size();
    }
  }
  return r;
}

void expect_same_movetext(const std::string& in, const std::string& out) {
  const std::vector<std::string> a = movetext_tokens(in), b = movetext_tokens(out);
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) ASSERT_EQ(a[i], b[i]) << "token " << i;
}

const char* const kBroadcast = R"([Event "Broadcast"]
[Site "?"]
[Date "2024.05.01"]
[Round "1"]
[White "A"]
[Black "B"]
[Result "1-0"]

{ [%clk 1:30:00] start } 1. e4 { [%clk 1:29:58.7] [%emt 0:00:01.3] } 1... e5 {[%clk 1:29:50.1]}
2. Nf3 $1 { [%eval 0.35] [%clk 1:29:40.0] } ( 2. f4 { [%clk 1:29:00.0] } 2... exf4 ) 2... Nc6
{ [%clk 1:20:00.9] Zeitnot [%csl Gd4] } { second comment } 3. Bb5 { Spanish [%clk 1:29:30.2] }
3... a6 { [%clk 1:19:00.0] [%eval -0.1] } 4. Ba4 { [%clk 0:2:58] odd spelling } 4... Nf6
{ [%clk 1:18:00.0] [%clk 1:17:00.0] } 5. O-O { [%eval #7] } 1-0

[Event "Chess.com"]
[Site "?"]
[Date "2024.05.02"]
[Round "-"]
[White "C"]
[Black "D"]
[Result "0-1"]

1. d4 {[%clk 0:09:59.9]} 1... d5 {[%clk 0:09:58.1]} 2. c4 {[%clk 0:09:57]} 2... e6
{[%clk 0:09:55.5]} 0-1
)";

TEST(AnnotationRoundTrip, BroadcastStyleTokenByToken) {
  TempDir dir("ann-broadcast");
  const auto file = dir / "broadcast.pgn";
  std::ofstream(file) << kBroadcast;
  const RoundTrip r = round_trip(dir, file);
  ASSERT_EQ(r.summary.imported, 2u);
  expect_same_movetext(kBroadcast, r.exported);
  EXPECT_EQ(count_of(r.exported, "[%clk"), count_of(kBroadcast, "[%clk"));
  EXPECT_EQ(count_of(r.exported, "[%eval"), count_of(kBroadcast, "[%eval"));
  EXPECT_EQ(count_of(r.exported, "[%emt"), count_of(kBroadcast, "[%emt"));
  // typed: 1.e4, 1...e5, 2.Nf3, 2...Nc6, 3.Bb5, 3...a6, 5.O-O and the four of game 2
  // (the comment before move 1, the variation's, 0:2:58 and the doubled clock stay text)
  EXPECT_EQ(r.summary.games_with_clocks, 2u);
  EXPECT_EQ(r.summary.annotations.clocks, 6u + 1u + 4u);  // six clocks and one emt in game 1
  EXPECT_EQ(r.summary.annotations.evals, 3u);
  std::string flat = r.exported;
  for (char& c : flat) c = c == '\n' ? ' ' : c;
  EXPECT_NE(flat.find("1. e4 { [%clk 1:29:58.7] [%emt 0:00:01.3] } 1... e5 { [%clk 1:29:50.1] }"),
            std::string::npos)
      << r.exported;
}

TEST(AnnotationRoundTrip, ImportFiltersDropAndCount) {
  TempDir dir("ann-filter");
  const auto file = dir / "broadcast.pgn";
  std::ofstream(file) << kBroadcast;
  import::MovetextFilter filter;
  filter.clocks = false;
  filter.nags = false;
  filter.variations = false;
  RoundTrip r = round_trip(dir, file, filter);
  EXPECT_EQ(count_of(r.exported, "[%clk"), 0u);
  EXPECT_EQ(count_of(r.exported, "[%emt"), 0u);
  EXPECT_EQ(count_of(r.exported, "[%eval"), 3u);
  EXPECT_EQ(count_of(r.exported, "$1"), 0u);
  EXPECT_EQ(count_of(r.exported, "("), 0u);
  // every clock but the one in the dropped variation, and the emt
  EXPECT_EQ(r.summary.annotations.dropped_clocks, count_of(kBroadcast, "[%clk") - 1 + 1);
  EXPECT_EQ(r.summary.annotations.dropped_nags, 1u);
  EXPECT_EQ(r.summary.annotations.dropped_variations, 1u);
  EXPECT_NE(r.exported.find("Zeitnot"), std::string::npos);

  TempDir dir2("ann-filter2");
  const auto file2 = dir2 / "broadcast.pgn";
  std::ofstream(file2) << kBroadcast;
  filter = {};
  filter.comments = false;
  r = round_trip(dir2, file2, filter);
  EXPECT_EQ(r.exported.find('{'), std::string::npos);
  EXPECT_EQ(r.summary.annotations.dropped_comments, count_of(kBroadcast, "{"));
}

/// players-3000 rewritten in lichess's shape by the shared script (30% with evaluations).
TEST(AnnotationRoundTrip, LichessStyleEveryClockAndEvaluationComesBack) {
  TempDir dir("ann-lichess");
  const auto file = dir / "lichess.pgn";
  const std::string command = "zstd -dc " + kSample + "/players-3000.pgn.zst | python3 " + kCorpus +
                              "/lichess-style.py --evals 0.3 > " + file.string();
  CQLDB_REQUIRE_DEPENDENCY(std::system(command.c_str()) == 0, "needs zstd and python3: " << command);
  const std::string input = read_file(file);
  ASSERT_GT(input.size(), 1000000u);
  const RoundTrip r = round_trip(dir, file);
  EXPECT_EQ(r.summary.games_read, 3000u);
  EXPECT_EQ(r.summary.imported + r.summary.rejected, r.summary.games_read);
  EXPECT_EQ(count_of(r.exported, "[%clk"), count_of(input, "[%clk"));
  EXPECT_EQ(count_of(r.exported, "[%eval"), count_of(input, "[%eval"));
  // nearly all of them typed (a "-0.00" evaluation keeps its comment as text)
  EXPECT_GT(r.summary.annotations.clocks, count_of(input, "[%clk") * 99 / 100);
  EXPECT_GT(r.summary.annotations.evals, count_of(input, "[%eval") * 99 / 100);
  expect_same_movetext(input, r.exported);
  // issue 23 target: <= 2.5 bytes per ply for a clock-only game (LMDB overhead aside)
  ASSERT_GT(r.clock_only_plies, 100000u);
  EXPECT_LE(double(r.clock_only_bytes) / double(r.clock_only_plies), 2.5);
  // bit-coded typed block (issue 23's size target): about 0.6 bytes a ply
  EXPECT_LE(double(r.clock_only_bytes) / double(r.clock_only_plies), 0.8);
  expect_same_tags(input, r.exported);
}

}  // namespace

namespace {

TEST(AnnotationTags, LichessTagsAsHeaderData) {
  TempDir dir("ann-tags");
  const auto file = dir / "tags.pgn";
  std::ofstream(file) << R"([Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[Date "????.??.??"]
[White "a"]
[Black "b"]
[Result "1-0"]
[UTCDate "2024.01.31"]
[UTCTime "23:59:01"]
[WhiteRatingDiff "+5"]
[BlackRatingDiff "-5"]
[WhiteTitle "BOT"]
[Variant "Standard"]
[TimeControl "180+2"]

1. e4 { [%clk 0:03:00] } 1-0

[Event "Rated Crazyhouse game"]
[Date "2024.01.31"]
[White "a"]
[Black "b"]
[Result "1-0"]
[Variant "Crazyhouse"]

1. e4 1-0

[Event "From position"]
[White "a"]
[Black "b"]
[Result "*"]
[Variant "From Position"]
[FEN "4k3/8/8/8/8/8/8/4K2R w K - 0 1"]
[SetUp "1"]

1. O-O *
)";
  import::ImportSummary s;
  {
    db::Database database = db::Database::create_or_open(dir / "db");
    s = import::import_files(database, {file.string()}, {}, nullptr);
  }
  EXPECT_EQ(s.games_read, 3u);
  EXPECT_EQ(s.imported, 2u);
  EXPECT_EQ(s.rejected, 1u);
  EXPECT_EQ(s.reasons["unsupported variant"], 1u);
  ASSERT_FALSE(s.first_rejections.empty());
  EXPECT_NE(s.first_rejections[0].reason.find("Crazyhouse"), std::string::npos);
  db::Database database = db::Database::open_readonly(dir / "db");
  db::GameReader reader = database.reader();
  const db::GameHeader h = reader.header(1);
  EXPECT_EQ(h.date, "2024.01.31");
  auto tag = [&](const char* name) {
    for (const auto& [n, v] : h.other_tags)
      if (n == name) return v;
    return std::string("(none)");
  };
  EXPECT_EQ(tag("WhiteRatingDiff"), "+5");
  EXPECT_EQ(tag("BlackRatingDiff"), "-5");
  EXPECT_EQ(tag("UTCTime"), "23:59:01");
  EXPECT_EQ(tag("TimeControl"), "180+2");
  EXPECT_EQ(reader.header(2).variant, "");  // "From Position" is standard chess from a FEN
}

/// The other tags of game `id` as "Name=value" strings, in order.
std::vector<std::string> other_tags(db::GameReader& reader, uint32_t id) {
  std::vector<std::string> out;
  for (const auto& [n, v] : reader.header(id).other_tags) out.push_back(n + "=" + v);
  return out;
}

/// Type of the schema object `name` of headers.sqlite ("table", "view"; "" when none).
std::string object_type(const std::filesystem::path& db_dir, const char* name) {
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement q(sql, "SELECT type FROM sqlite_master WHERE name = ?1");
  q.bind(1, std::string_view(name));
  return q.step() ? std::string(q.column_text(0)) : std::string();
}

/// The SQL that turns the packed tags of a new database back into an older layout.
/// `issue23_rows`: tag_names + game_tags rows behind a view (issue 23 before its size
/// target); else the `tags` table of before issue 23.
std::string older_tags_layout(bool issue23_rows) {
  std::string sql =
      "CREATE TABLE old_tags(game_id INTEGER NOT NULL, seq INTEGER NOT NULL, name TEXT NOT NULL, "
      "value TEXT NOT NULL, PRIMARY KEY(game_id, seq)) WITHOUT ROWID;"
      "INSERT INTO old_tags SELECT game_id, seq, name, value FROM tags;"
      "DROP VIEW tags; DROP TABLE game_tag_lists; DROP TABLE tag_values; DROP TABLE tag_names;";
  if (!issue23_rows) return sql + "ALTER TABLE old_tags RENAME TO tags;";
  return sql +
         "CREATE TABLE tag_names(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);"
         "INSERT INTO tag_names(name) SELECT DISTINCT name FROM old_tags ORDER BY name;"
         "CREATE TABLE game_tags(game_id INTEGER NOT NULL, seq INTEGER NOT NULL, name_id INTEGER NOT NULL, "
         "value TEXT NOT NULL, PRIMARY KEY(game_id, seq)) WITHOUT ROWID;"
         "INSERT INTO game_tags SELECT t.game_id, t.seq, n.id, t.value FROM old_tags t "
         "JOIN tag_names n ON n.name = t.name;"
         "DROP TABLE old_tags;"
         "CREATE VIEW tags(game_id, seq, name, value) AS SELECT t.game_id, t.seq, n.name, t.value "
         "FROM game_tags t JOIN tag_names n ON n.id = t.name_id;";
}

/// A database whose other tags are in an older layout (the `tags` table of before issue 23,
/// or issue 23's game_tags rows) is read as before, and its next writer moves them into
/// game_tag_lists behind the `tags` view.
void expect_older_tags_migrated(bool issue23_rows) {
  TempDir dir(issue23_rows ? "ann-tags-migrate-rows" : "ann-tags-migrate");
  const auto first = dir / "first.pgn", second = dir / "second.pgn";
  std::ofstream(first) << R"([Event "Rated Blitz game"]
[Site "https://lichess.org/abcdefgh"]
[White "a"]
[Black "b"]
[Result "1-0"]
[UTCTime "23:59:01"]
[WhiteRatingDiff "+5"]
[termination "lower-case name"]
[Annotator ""]

1. e4 1-0
)";
  std::ofstream(second) << R"([Event "e"]
[White "c"]
[Black "d"]
[Result "0-1"]
[Termination "Normal"]
[UTCTime "00:00:01"]

1. d4 0-1
)";
  const auto db_dir = dir / "db";
  {
    db::Database database = db::Database::create_or_open(db_dir);
    import::import_files(database, {first.string()}, {}, nullptr);
  }
  EXPECT_EQ(object_type(db_dir, "tags"), "view");
  const std::vector<std::string> game1 = {"UTCTime=23:59:01", "WhiteRatingDiff=+5",
                                          "termination=lower-case name", "Annotator="};
  {
    db::Database database = db::Database::open_readonly(db_dir);
    db::GameReader reader = database.reader();
    EXPECT_EQ(other_tags(reader, 1), game1);
  }
  {  // back to an older layout
    db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
    sql.exec(older_tags_layout(issue23_rows).c_str());
  }
  EXPECT_EQ(object_type(db_dir, "tags"), issue23_rows ? "view" : "table");
  EXPECT_EQ(object_type(db_dir, "game_tags"), issue23_rows ? "table" : "");
  {
    db::Database database = db::Database::open_readonly(db_dir);
    db::GameReader reader = database.reader();
    EXPECT_EQ(other_tags(reader, 1), game1);
  }
  {
    db::Database database = db::Database::create_or_open(db_dir);
    const import::ImportSummary s = import::import_files(database, {second.string()}, {}, nullptr);
    EXPECT_EQ(s.imported, 1u);
  }
  EXPECT_EQ(object_type(db_dir, "tags"), "view");
  EXPECT_EQ(object_type(db_dir, "game_tags"), "");
  EXPECT_EQ(object_type(db_dir, "game_tag_lists"), "table");
  db::Database database = db::Database::open_readonly(db_dir);
  db::GameReader reader = database.reader();
  EXPECT_EQ(other_tags(reader, 1), game1);
  EXPECT_EQ(other_tags(reader, 2), (std::vector<std::string>{"Termination=Normal", "UTCTime=00:00:01"}));
  db::sqlite::Connection sql(db_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadOnly);
  db::sqlite::Statement names(sql, "SELECT COUNT(*) FROM tag_names");
  ASSERT_TRUE(names.step());
  EXPECT_EQ(names.column_int64(0), 5);  // UTCTime, WhiteRatingDiff, termination, Annotator, Termination
  db::sqlite::Statement lists(sql, "SELECT COUNT(*) FROM game_tag_lists");
  ASSERT_TRUE(lists.step());
  EXPECT_EQ(lists.column_int64(0), 2);
}

TEST(AnnotationTags, TagsTableOfOlderDatabasesMigratedByTheNextWriter) { expect_older_tags_migrated(false); }

TEST(AnnotationTags, TagRowsOfIssue23MigratedByTheNextWriter) { expect_older_tags_migrated(true); }

}  // namespace
