// PgnParser: the callbacks and diagnostics for each edge-case fixture.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "import/pgn_parser.h"
#include "import/pgn_reader.h"
#include "import/text_encoding.h"

namespace import {
namespace {

std::string fixture(const std::string& name) {
  return std::string(CQLDB_FIXTURES_DIR) + "/pgn/" + name;
}

/// Writes every callback as one short string: "tag White=Kasparov", "e4@7", "nag 1",
/// "{text}", "(", ")", "result 1-0"; begin/end of game and movetext as "<", "|", ">".
class RecordingVisitor : public PgnVisitor {
 public:
  std::vector<std::string> events;

  void begin_game() override { events.push_back("<"); }
  void tag(std::string_view name, std::string_view value) override {
    events.push_back("tag " + std::string(name) + "=" + std::string(value));
  }
  void begin_movetext() override { events.push_back("|"); }
  void move(std::string_view san, uint32_t line) override {
    events.push_back(std::string(san) + "@" + std::to_string(line));
  }
  void nag(uint8_t value) override { events.push_back("nag " + std::to_string(value)); }
  void comment(std::string_view text) override { events.push_back("{" + std::string(text) + "}"); }
  void begin_variation() override { events.push_back("("); }
  void end_variation() override { events.push_back(")"); }
  void result(std::string_view r) override { events.push_back("result " + std::string(r)); }
  void end_game() override { events.push_back(">"); }

  /// The events that are moves, without their line.
  std::vector<std::string> moves() const {
    std::vector<std::string> out;
    for (const std::string& e : events) {
      const size_t at = e.find('@');
      if (at != std::string::npos) out.push_back(e.substr(0, at));
    }
    return out;
  }
  /// The events that start with `prefix`.
  std::vector<std::string> starting_with(const std::string& prefix) const {
    std::vector<std::string> out;
    for (const std::string& e : events) {
      if (e.compare(0, prefix.size(), prefix) == 0) out.push_back(e);
    }
    return out;
  }
};

/// One parsed game of a fixture.
struct Parsed {
  std::vector<std::string> events;
  ParseStatus status;
  RecordingVisitor visitor;
};

std::vector<Parsed> parse_file(const std::string& name) {
  PgnReader reader(fixture(name));
  std::vector<Parsed> games;
  for (;;) {
    Parsed p;
    if (!reader.read_game(p.visitor, p.status)) break;
    p.events = p.visitor.events;
    games.push_back(std::move(p));
  }
  return games;
}

using Events = std::vector<std::string>;

const PgnDiagnostic* find_issue(const ParseStatus& status, PgnIssue issue) {
  for (const PgnDiagnostic& d : status.diagnostics) {
    if (d.issue == issue) return &d;
  }
  return nullptr;
}

TEST(PgnParser, TwoGamesCallbacksInOrder) {
  const std::vector<Parsed> games = parse_file("two_games.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].events, (Events{"<", "tag Event=Casual", "tag Site=?", "tag White=Anderssen",
                                     "tag Black=Kieseritzky", "tag Result=1-0", "|", "e4@7", "e5@7",
                                     "f4@7", "exf4@7", "Bc4@7", "Qh4+@7", "result 1-0", ">"}));
  EXPECT_FALSE(games[0].status.rejected);
  EXPECT_TRUE(games[0].status.diagnostics.empty());
  EXPECT_EQ(games[0].status.moves, 6u);
  EXPECT_EQ(games[1].visitor.moves().size(), 6u);
  EXPECT_EQ(games[1].visitor.starting_with("e4@"), Events{"e4@14"});
}

TEST(PgnParser, ByteOrderMarkDoesNotReachTheFirstTag) {
  const std::vector<Parsed> games = parse_file("bom.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].events[1], "tag Event=Casual");
}

TEST(PgnParser, CrlfCommentHasPlainNewlines) {
  const std::vector<Parsed> games = parse_file("crlf.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].visitor.starting_with("{"), Events{"{a comment\nover two lines}"});
  EXPECT_EQ(games[1].visitor.moves(), (Events{"d4", "d5"}));
  EXPECT_EQ(games[1].visitor.starting_with("d5@"), Events{"d5@13"});
  EXPECT_EQ(games[1].visitor.starting_with("tag Result"), Events{"tag Result=*"});
}

TEST(PgnParser, LoneCrLinesAreCounted) {
  const std::vector<Parsed> games = parse_file("lone_cr.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].visitor.starting_with("e4@"), Events{"e4@14"});
  EXPECT_TRUE(games[1].status.diagnostics.empty());
}

TEST(PgnParser, Latin1NamesAreConvertedToUtf8) {
  const std::vector<Parsed> games = parse_file("latin1_names.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(
      games[0].visitor.starting_with("tag "),
      (Events{"tag Event=Championnat de Gen\xC3\xA8ve", "tag White=M\xC3\xBCller, J\xC3\xBCrgen",
              "tag Black=W\xC3\xA4lbers, W.", "tag Result=1/2-1/2"}));
  EXPECT_EQ(games[0].visitor.starting_with("{"), Events{"{D\xC3\xA9"
                                                        "but ouvert}"});
}

TEST(PgnParser, Cp437NamesAreConvertedToUtf8) {
  const std::vector<Parsed> games = parse_file("cp437_names.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].visitor.starting_with("tag White"),
            Events{"tag White=M\xC3\xBCller, J\xC3\xBCrgen"});
  EXPECT_EQ(games[0].visitor.starting_with("tag Black"), Events{"tag Black=Quadros,Andr\xC3\xA9"});
  EXPECT_EQ(games[0].visitor.starting_with("{"), Events{"{Sch\xC3\xB6n}"});
}

TEST(PgnParser, Utf8CommentsAreKept) {
  const std::vector<Parsed> games = parse_file("utf8_comments.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].visitor.starting_with("{"),
            Events{"{Tr\xC3\xA8s bien \xE2\x80\x93 \xC2\xBD point \xE2\x99\x94}"});
  EXPECT_EQ(games[0].visitor.starting_with("tag Black"),
            Events{"tag Black=Nepomniachtchi, J\xC3\xA1n"});
}

TEST(PgnParser, NulBytesGiveAWarningNotARejection) {
  const std::vector<Parsed> games = parse_file("nul_bytes.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].status.rejected);
  const PgnDiagnostic* d = find_issue(games[0].status, PgnIssue::kControlBytes);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->line, 7u);
  EXPECT_EQ(games[0].visitor.starting_with("result"), Events{"result 1-0"});
}

TEST(PgnParser, ControlBytesInMovetextAreSkipped) {
  const std::vector<Parsed> games = parse_file("control_bytes.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].status.rejected);
  EXPECT_EQ(games[0].visitor.moves(), (Events{"e4", "e5", "Nf3", "Nc6"}));
  EXPECT_NE(find_issue(games[0].status, PgnIssue::kControlBytes), nullptr);
}

TEST(PgnParser, EscapeLinesAreSkippedAndCounted) {
  const std::vector<Parsed> games = parse_file("escape_lines.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_TRUE(games[0].status.diagnostics.empty());
  EXPECT_EQ(games[0].visitor.starting_with("e4@"), Events{"e4@10"});
  EXPECT_EQ(games[0].visitor.starting_with("f4@"), Events{"f4@12"});
  EXPECT_EQ(games[0].visitor.starting_with("tag White="), Events{"tag White=Anderssen"});
}

TEST(PgnParser, NestedVariations) {
  const std::vector<Parsed> games = parse_file("nested_variations.pgn");
  ASSERT_EQ(games.size(), 1u);
  Events structure;
  for (const std::string& e : games[0].events) {
    if (e.compare(0, 4, "tag ") != 0) structure.push_back(e.substr(0, e.find('@')));
  }
  EXPECT_EQ(structure, (Events{"<",   "|",  "e4", "(",   "d4", "d5",  "(",        "Nf6", "c4", "(",
                               "Nf3", "g6", "(",  "e6",  ")",  ")",   "e6",       ")",   "c4", ")",
                               "e5",  "(",  "c5", "Nf3", ")",  "Nf3", "result *", ">"}));
  EXPECT_FALSE(games[0].status.rejected);
}

TEST(PgnParser, SemicolonComments) {
  const std::vector<Parsed> games = parse_file("semicolon_comments.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].visitor.starting_with("{"),
            (Events{"{a comment before the moves}", "{best by test { not a brace comment}",
                    "{[Event \"not a tag\"]}"}));
  EXPECT_EQ(games[0].visitor.moves(), (Events{"e4", "e5", "Nf3", "Nc6"}));
  EXPECT_FALSE(games[0].status.rejected);
}

TEST(PgnParser, CommentContainingEventLine) {
  const std::vector<Parsed> games = parse_file("comment_with_event.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].visitor.starting_with("{"),
            Events{"{Compare the game\n[Event \"Other game\"]\n[White \"Nobody\"]\nwhere White "
                   "played 1. d4}"});
  EXPECT_EQ(games[0].visitor.starting_with("e5@"), Events{"e5@7"});
}

TEST(PgnParser, NagsAndGlyphs) {
  const std::vector<Parsed> games = parse_file("nags_and_glyphs.pgn");
  ASSERT_EQ(games.size(), 1u);
  Events movetext(games[0].events.begin() + 4, games[0].events.end());
  EXPECT_EQ(movetext,
            (Events{"e4@4",  "nag 1", "e5@4",  "nag 2",   "Nf3@4",    "nag 3", "Nc6@4", "nag 4",
                    "Bb5@4", "nag 5", "a6@4",  "nag 6",   "Ba4@4",    "nag 1", "Nf6@4", "nag 14",
                    "O-O@4", "nag 5", "Be7@4", "nag 255", "result *", ">"}));
  EXPECT_TRUE(games[0].status.diagnostics.empty());
}

TEST(PgnParser, TagsOnlyGamesHaveNoMovesAndOnlyWarnings) {
  const std::vector<Parsed> games = parse_file("tags_only.pgn");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(games[0].events, (Events{"<", "tag Event=Tags only", "tag White=A", "tag Black=B",
                                     "tag Result=*", "|", ">"}));
  for (int i : {0, 2}) {
    EXPECT_FALSE(games[i].status.rejected);
    const PgnDiagnostic* d = find_issue(games[i].status, PgnIssue::kMissingResult);
    ASSERT_NE(d, nullptr);
    EXPECT_EQ(d->severity, PgnSeverity::kWarning);
  }
  EXPECT_EQ(games[1].visitor.moves(), Events{"e4"});
}

TEST(PgnParser, LastGameWithoutResultOrNewlineIsAWarning) {
  // Issue 24: a last game without result or final newline is kept with a warning; the cut
  // inside "Nc" (the move "Nc6" truncated) is the game builder's business: an unreadable move.
  const std::vector<Parsed> games = parse_file("truncated_last_game.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].status.rejected);
  EXPECT_FALSE(games[1].status.rejected);
  const PgnDiagnostic* d = find_issue(games[1].status, PgnIssue::kMissingResult);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->to_string(), "line 12: warning: missing result (1-0, 0-1, 1/2-1/2 or *)");
  EXPECT_EQ(games[1].visitor.moves(), (Events{"e4", "e5", "Nf3", "Nc"}));
  EXPECT_EQ(games[1].events.back(), ">");
}

TEST(PgnParser, MissingResultBeforeNextGameIsAWarning) {
  const std::vector<Parsed> games = parse_file("missing_result.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_FALSE(games[0].status.rejected);
  ASSERT_EQ(games[0].status.diagnostics.size(), 1u);
  EXPECT_EQ(games[0].status.diagnostics[0].issue, PgnIssue::kMissingResult);
  EXPECT_EQ(games[0].status.diagnostics[0].line, 4u);
  EXPECT_EQ(games[0].visitor.moves(), (Events{"e4", "e5", "Nf3"}));
}

TEST(PgnParser, UnterminatedCommentRejectsOnlyItsGame) {
  const std::vector<Parsed> games = parse_file("unterminated_comment.pgn");
  ASSERT_EQ(games.size(), 2u);
  ASSERT_TRUE(games[0].status.rejected);
  EXPECT_EQ(games[0].status.error()->issue, PgnIssue::kUnterminatedComment);
  EXPECT_EQ(games[0].status.error()->line, 4u);
  EXPECT_FALSE(games[1].status.rejected);
  EXPECT_EQ(games[1].visitor.moves().size(), 6u);
}

TEST(PgnParser, UnclosedParenthesisIsAnError) {
  const std::vector<Parsed> games = parse_file("unbalanced_open_parenthesis.pgn");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].status.rejected);
  EXPECT_EQ(games[0].status.error()->issue, PgnIssue::kUnbalancedParenthesis);
  EXPECT_EQ(games[0].status.error()->line, 4u);
}

TEST(PgnParser, StrayCloseParenthesisIsAnError) {
  const std::vector<Parsed> games = parse_file("unbalanced_close_parenthesis.pgn");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].status.rejected);
  EXPECT_EQ(games[0].status.error()->issue, PgnIssue::kUnbalancedParenthesis);
  EXPECT_EQ(games[0].status.error()->message, "')' without a matching '('");
}

TEST(PgnParser, UnexpectedCharacterIsAnErrorNamingIt) {
  const std::vector<Parsed> games = parse_file("unexpected_character.pgn");
  ASSERT_EQ(games.size(), 1u);
  ASSERT_TRUE(games[0].status.rejected);
  EXPECT_EQ(games[0].status.error()->issue, PgnIssue::kUnexpectedCharacter);
  EXPECT_EQ(games[0].status.error()->line, 5u);
  EXPECT_EQ(games[0].status.error()->message, "unexpected character '@' in movetext");
  EXPECT_EQ(games[0].visitor.moves(), (Events{"e4", "e5", "Nf3"}));
  EXPECT_EQ(games[0].events.back(), ">");
}

TEST(PgnParser, TextAfterResultIsIgnoredWithAWarning) {
  const std::vector<Parsed> games = parse_file("text_after_result.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].status.rejected);
  const PgnDiagnostic* d = find_issue(games[0].status, PgnIssue::kTextAfterResult);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->message, "text after the result ignored: '{late'");
  EXPECT_EQ(games[0].visitor.starting_with("result"), Events{"result 1-0"});
  EXPECT_TRUE(games[0].visitor.starting_with("{").empty());
}

TEST(PgnParser, TagSyntaxIsLenient) {
  const std::vector<Parsed> games = parse_file("tag_syntax.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].status.rejected);
  EXPECT_EQ(
      games[0].visitor.starting_with("tag "),
      (Events{"tag Event=Lenient tags", "tag Annotator=Krush, I",
              "tag Black=Lopez \"Battle Royale\"", "tag Site=Foo", "tag White=Say \"hi\" \\o/",
              "tag Round=1", "tag Date=2001.01.01", "tag Result=1-0"}));
  std::vector<std::string> warnings;
  for (const PgnDiagnostic& d : games[0].status.diagnostics) warnings.push_back(d.to_string());
  // `[C54]` alone on its line is no tag (issue 24): the splitter drops the line, and its
  // warnings come before the parser's.
  EXPECT_EQ(warnings, (Events{"line 5: warning: line '[C54]' is no tag; ignored",
                              "line 2: warning: tag 'Annotator' value has no closing quote",
                              "line 3: warning: tag 'Black' value has unescaped quotes",
                              "line 4: warning: tag 'Site' value is not quoted"}));
}

TEST(PgnParser, MoveNumbersInAllForms) {
  const std::vector<Parsed> games = parse_file("move_numbers.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].visitor.moves(),
            (Events{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6"}));
  EXPECT_TRUE(games[0].status.diagnostics.empty());
}

TEST(PgnParser, SanTokensAreHandedOverAsWritten) {
  const std::vector<Parsed> games = parse_file("san_tokens.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].visitor.moves(),
            (Events{"O-O", "0-0-0", "exd8=Q+", "Nbxd7#", "--", "Z0", "e8Q", "R1a3"}));
  EXPECT_FALSE(games[0].status.rejected);
}

TEST(PgnParser, OneHalfIsReadAsDraw) {
  const std::vector<Parsed> games = parse_file("one_half_result.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_FALSE(games[0].status.rejected);
  EXPECT_EQ(games[0].visitor.starting_with("result"), Events{"result 1/2-1/2"});
  ASSERT_NE(find_issue(games[0].status, PgnIssue::kNonstandardToken), nullptr);
}

TEST(PgnParser, GameWithoutTags) {
  const std::vector<Parsed> games = parse_file("no_tags.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].events, (Events{"<", "|", "e4@1", "e5@1", "Nf3@1", "result 1-0", ">"}));
}

TEST(PgnParser, EmptyTextIsRejectedWithoutCallbacks) {
  RecordingVisitor visitor;
  PgnParser parser;
  const ParseStatus status = parser.parse(" \n\t\n", 10, visitor);
  ASSERT_TRUE(status.rejected);
  EXPECT_EQ(status.error()->issue, PgnIssue::kEmptyGame);
  EXPECT_TRUE(visitor.events.empty());
}

TEST(PgnParser, StrayBraceAndCommasAreWarnings) {
  RecordingVisitor visitor;
  const ParseStatus status = PgnParser().parse("1. e4 } e5, 2. Nf3 *", 1, visitor);
  EXPECT_FALSE(status.rejected);
  EXPECT_EQ(visitor.moves(), (Events{"e4", "e5", "Nf3"}));
  ASSERT_EQ(status.diagnostics.size(), 2u);
  EXPECT_EQ(status.diagnostics[0].message, "stray '}' ignored");
  EXPECT_EQ(status.diagnostics[1].message, "stray ',' ignored");
}

TEST(PgnParser, BadNagsAndUnknownGlyphsAreWarnings) {
  RecordingVisitor visitor;
  const ParseStatus status = PgnParser().parse("1. e4 $ e5 $300 2. Nf3 ??? *", 1, visitor);
  EXPECT_FALSE(status.rejected);
  EXPECT_EQ(visitor.moves(), (Events{"e4", "e5", "Nf3"}));
  EXPECT_TRUE(visitor.starting_with("nag").empty());
  ASSERT_EQ(status.diagnostics.size(), 3u);
  for (const PgnDiagnostic& d : status.diagnostics) EXPECT_EQ(d.issue, PgnIssue::kBadNag);
}

/// Skips the game at its second move.
class SkippingVisitor : public RecordingVisitor {
 public:
  void move(std::string_view san, uint32_t line) override {
    RecordingVisitor::move(san, line);
    if (moves().size() == 2) skip_rest_of_game();
  }
};

TEST(PgnParser, VisitorCanSkipTheRestOfTheGame) {
  SkippingVisitor visitor;
  PgnParser parser;
  ParseStatus status = parser.parse("1. e4 e5 2. Nf3 {c} Nc6 @@@ 1-0", 1, visitor);
  EXPECT_TRUE(status.skipped);
  EXPECT_FALSE(status.rejected);
  EXPECT_EQ(visitor.events, (Events{"<", "|", "e4@1", "e5@1", ">"}));
  // The flag is cleared for the next game.
  visitor.events.clear();
  status = parser.parse("1. d4 *", 1, visitor);
  EXPECT_FALSE(status.skipped);
  EXPECT_EQ(visitor.events, (Events{"<", "|", "d4@1", "result *", ">"}));
}

TEST(PgnParser, KnownGameMoveCount) {
  // Savrov - Alekhine, Earl 1906, the first game of players-344k: 45.Kh1 0-1 = 89 plies.
  RecordingVisitor visitor;
  PgnReader reader(std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst");
  ParseStatus status;
  ASSERT_TRUE(reader.read_game(visitor, status));
  EXPECT_FALSE(status.rejected);
  EXPECT_EQ(status.moves, 89u);
  EXPECT_EQ(visitor.moves().size(), 89u);
  EXPECT_EQ(visitor.moves().back(), "Kh1");
  EXPECT_EQ(visitor.starting_with("tag Black="), Events{"tag Black=Alekhine, Alexander"});
  EXPECT_EQ(visitor.starting_with("result"), Events{"result 0-1"});
}

TEST(PgnParser, ArbitraryBytesNeverCrashAndStayUtf8) {
  std::mt19937 rng(2024);
  const char pieces[] = "[]{}()$!?;%\"\\\n\r\t .1-0/2*eNxO=+#\x80\xC3\xA9\xFF\x00";
  PgnParser parser;
  RecordingVisitor visitor;
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const size_t n = rng() % 200;
    for (size_t i = 0; i < n; ++i) text.push_back(pieces[rng() % (sizeof pieces - 1)]);
    visitor.events.clear();
    const ParseStatus status = parser.parse(text, 1, visitor);
    for (const std::string& e : visitor.events) {
      if (e[0] == '{' || e.compare(0, 4, "tag ") == 0) {
        ASSERT_TRUE(is_valid_utf8(e)) << e;
      }
    }
    for (const PgnDiagnostic& d : status.diagnostics) ASSERT_TRUE(is_valid_utf8(d.message));
  }
}

}  // namespace
}  // namespace import
