// PgnSplitter: game boundaries, positions and byte normalisation, one fixture per edge case,
// plus the game counts of the real corpus.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "import/pgn_splitter.h"

namespace import {
namespace {

std::string fixture(const std::string& name) {
  return std::string(CQLDB_FIXTURES_DIR) + "/pgn/" + name;
}

std::string corpus(const std::string& name) {
  return std::string(CQLDB_CORPUS_DIR) + "/" + name;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<RawGame> split(InputStream input) {
  PgnSplitter splitter(std::move(input));
  std::vector<RawGame> games;
  RawGame game;
  while (splitter.next(game)) games.push_back(game);
  return games;
}

std::vector<RawGame> split_file(const std::string& name) {
  return split(InputStream(fixture(name)));
}

uint64_t count_games(const std::string& path) {
  PgnSplitter splitter{InputStream(path)};
  RawGame game;
  while (splitter.next(game)) {
  }
  return splitter.games();
}

bool starts_with(const std::string& s, std::string_view prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

TEST(PgnSplitter, TwoGamesWithPositions) {
  const std::vector<RawGame> games = split_file("two_games.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].ordinal, 1u);
  EXPECT_EQ(games[0].first_line, 1u);
  EXPECT_EQ(games[0].byte_offset, 0u);
  EXPECT_EQ(games[1].ordinal, 2u);
  EXPECT_EQ(games[1].first_line, 9u);
  const std::string bytes = file_bytes(fixture("two_games.pgn"));
  EXPECT_EQ(games[1].byte_offset, bytes.find("[Event", 1));
  EXPECT_EQ(games[0].text + games[1].text, bytes);
}

TEST(PgnSplitter, ByteOrderMarkIsDropped) {
  const std::vector<RawGame> games = split_file("bom.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(starts_with(games[0].text, "[Event \"Casual\"]"));
  EXPECT_EQ(games[0].byte_offset, 3u);
  EXPECT_EQ(games[0].first_line, 1u);
}

TEST(PgnSplitter, CrlfLineEndsAreKept) {
  const std::vector<RawGame> games = split_file("crlf.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].first_line, 9u);
  EXPECT_TRUE(starts_with(games[1].text, "[Event \"CRLF\"]\r\n"));
  EXPECT_EQ(games[0].text + games[1].text, file_bytes(fixture("crlf.pgn")));
}

TEST(PgnSplitter, LoneCrLineEndsBecomeNewlines) {
  const std::vector<RawGame> games = split_file("lone_cr.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].first_line, 9u);
  EXPECT_EQ(games[0].text.find('\r'), std::string::npos);
  EXPECT_EQ(std::count(games[0].text.begin(), games[0].text.end(), '\n'), 8);
}

TEST(PgnSplitter, NulBytesAreDroppedWithAWarning) {
  const std::vector<RawGame> games = split_file("nul_bytes.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].text.find('\0'), std::string::npos);
  ASSERT_EQ(games[0].warnings.size(), 1u);
  EXPECT_EQ(games[0].warnings[0].issue, PgnIssue::kControlBytes);
  EXPECT_EQ(games[0].warnings[0].severity, PgnSeverity::kWarning);
  EXPECT_EQ(games[0].warnings[0].line, 7u);
  EXPECT_EQ(games[0].warnings[0].message, "skipped 2 control bytes (first 0x00)");
  EXPECT_TRUE(games[1].warnings.empty());
}

TEST(PgnSplitter, ControlBytesAreDroppedWithAWarningPerLine) {
  const std::vector<RawGame> games = split_file("control_bytes.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_NE(games[0].text.find("1. e4 e5 2. Nf3 Nc6 1-0"), std::string::npos);
  ASSERT_EQ(games[0].warnings.size(), 1u);
  EXPECT_EQ(games[0].warnings[0].line, 4u);
  EXPECT_EQ(games[0].warnings[0].message, "skipped 2 control bytes (first 0x07)");
  ASSERT_EQ(games[1].warnings.size(), 1u);  // the final DOS end-of-file byte
  EXPECT_EQ(games[1].warnings[0].message, "skipped 1 control byte (first 0x1a)");
}

TEST(PgnSplitter, ControlBytesBeforeTheFirstGameBelongToNoGame) {
  PgnSplitter splitter{InputStream(fixture("control_bytes_before_game.pgn"))};
  RawGame game;
  ASSERT_TRUE(splitter.next(game));
  EXPECT_EQ(game.first_line, 3u);
  EXPECT_TRUE(game.warnings.empty());
  EXPECT_FALSE(splitter.next(game));
  ASSERT_EQ(splitter.orphan_warnings().size(), 2u);
  EXPECT_EQ(splitter.orphan_warnings()[0].line, 1u);
  EXPECT_EQ(splitter.orphan_warnings()[1].line, 2u);
  EXPECT_EQ(splitter.orphan_warnings()[1].message, "skipped 1 control byte (first 0x00) (before game 1)");
}

TEST(PgnSplitter, EscapeLinesKeepOnlyTheirLineEnd) {
  const std::vector<RawGame> games = split_file("escape_lines.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].first_line, 3u);
  EXPECT_EQ(games[0].text.find('%'), std::string::npos);
  EXPECT_NE(games[0].text.find("[Site \"?\"]\n\n[White"), std::string::npos);
}

TEST(PgnSplitter, SemicolonCommentHidesABracket) {
  const std::vector<RawGame> games = split_file("semicolon_comments.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_NE(games[0].text.find(";[Event \"not a tag\"]\n2... Nc6 1-0"), std::string::npos);
}

TEST(PgnSplitter, BraceCommentHidesEventLine) {
  const std::vector<RawGame> games = split_file("comment_with_event.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_NE(games[0].text.find("[Event \"Other game\"]"), std::string::npos);
  EXPECT_TRUE(starts_with(games[1].text, "[Event \"Casual\"]"));
}

TEST(PgnSplitter, UnterminatedCommentStopsAtNextEvent) {
  const std::vector<RawGame> games = split_file("unterminated_comment.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_TRUE(starts_with(games[0].text, "[Event \"Open comment\"]"));
  EXPECT_TRUE(starts_with(games[1].text, "[Event \"Casual\"]"));
  EXPECT_EQ(games[1].first_line, 7u);
}

TEST(PgnSplitter, TagsOnlyGamesAreGamesOfTheirOwn) {
  const std::vector<RawGame> games = split_file("tags_only.pgn");
  ASSERT_EQ(games.size(), 3u);
  EXPECT_TRUE(starts_with(games[0].text, "[Event \"Tags only\"]"));
  EXPECT_TRUE(starts_with(games[1].text, "[Event \"Second\"]"));
  EXPECT_TRUE(starts_with(games[2].text, "[Event \"Tags only at the end\"]"));
  EXPECT_EQ(games[2].first_line, 11u);
}

TEST(PgnSplitter, TruncatedLastGameIsYieldedAsIs) {
  const std::vector<RawGame> games = split_file("truncated_last_game.pgn");
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[1].text, "[Event \"Cut\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Nf3 Nc");
}

TEST(PgnSplitter, LeadingWhitespaceIsIgnored) {
  const std::vector<RawGame> games = split_file("leading_whitespace.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].first_line, 4u);
  EXPECT_EQ(games[0].byte_offset, 6u);
  EXPECT_TRUE(starts_with(games[0].text, "[Event"));
}

TEST(PgnSplitter, GameWithoutTags) {
  const std::vector<RawGame> games = split_file("no_tags.pgn");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(games[0].text, "1. e4 e5 2. Nf3 1-0\n");
}

TEST(PgnSplitter, EmptyFileHasNoGames) {
  EXPECT_TRUE(split_file("empty.pgn").empty());
}

TEST(PgnSplitter, CompressedInputSplitsLikePlain) {
  for (const char* name : {"two_games.pgn.gz", "two_games.pgn.zst", "concatenated_frames.pgn.zst",
                           "concatenated_members.pgn.gz"}) {
    const std::vector<RawGame> games = split_file(name);
    ASSERT_EQ(games.size(), 2u) << name;
    EXPECT_EQ(games[0].text + games[1].text, file_bytes(fixture("two_games.pgn"))) << name;
  }
}

TEST(PgnSplitter, GamesAcrossBufferBoundariesAreIntact) {
  // ~3 MiB of CRLF games of varying length, so that CR/LF pairs, tag strings, comments and
  // line starts fall on the 1 MiB read boundaries.
  std::string input;
  std::vector<std::string> expected;
  for (int i = 0; expected.size() < 12000; ++i) {
    std::string game = "[Event \"Game " + std::to_string(i) + "\"]\r\n[White \"A\\\"B\"]\r\n\r\n";
    for (int m = 0; m < i % 17; ++m) game += std::to_string(m + 1) + ". e4 {c\r\n[x} e5 ";
    game += "*\r\n\r\n";
    expected.push_back(game);
    input += game;
  }
  const std::vector<RawGame> games = split(InputStream::from_memory(input));
  ASSERT_EQ(games.size(), expected.size());
  uint32_t line = 1;
  for (size_t i = 0; i < games.size(); ++i) {
    ASSERT_EQ(games[i].text, expected[i]) << i;
    ASSERT_EQ(games[i].first_line, line) << i;
    line += uint32_t(std::count(expected[i].begin(), expected[i].end(), '\n'));
  }
}

TEST(PgnSplitter, ArbitraryBytesNeverCrash) {
  std::mt19937 rng(12345);
  std::string input;
  const char pieces[] =
      "[]{}();%\"\\\r\n\t \x00\x01\xEF\xBB\xBF"
      "e4 1-0 [Event \"";
  for (int i = 0; i < 400000; ++i) input.push_back(pieces[rng() % (sizeof pieces - 1)]);
  const std::vector<RawGame> games = split(InputStream::from_memory(input));
  uint64_t last_line = 0;
  for (const RawGame& game : games) {
    EXPECT_FALSE(game.text.empty());
    EXPECT_GE(game.first_line, last_line);
    last_line = game.first_line;
  }
}

TEST(PgnSplitter, CorpusTextIsPreservedExceptControlBytes) {
  for (const char* name : {"annotated.pgn", "studies.pgn", "mates.pgn"}) {
    std::string bytes = file_bytes(corpus(name));
    std::erase_if(bytes,
                  [](char c) { return uint8_t(c) < 0x20 && c != '\t' && c != '\n' && c != '\r'; });
    std::string joined;
    for (const RawGame& game : split(InputStream(corpus(name)))) joined += game.text;
    EXPECT_TRUE(joined == bytes) << name;
  }
}

TEST(PgnSplitter, CorpusAnnotatedHas2578Games) {
  EXPECT_EQ(count_games(corpus("annotated.pgn")), 2578u);
}

TEST(PgnSplitter, CorpusStudiesHas253Games) {
  EXPECT_EQ(count_games(corpus("studies.pgn")), 253u);
}

TEST(PgnSplitter, CorpusMatesHas914Games) {
  EXPECT_EQ(count_games(corpus("mates.pgn")), 914u);
}

TEST(PgnSplitter, CorpusPlayersZstdHas344248GamesAndTwoNulWarnings) {
  PgnSplitter splitter{InputStream(corpus("players-344k.pgn.zst"))};
  RawGame game;
  std::vector<uint64_t> warned;
  while (splitter.next(game)) {
    if (!game.warnings.empty()) warned.push_back(game.ordinal);
  }
  EXPECT_EQ(splitter.games(), 344248u);
  EXPECT_EQ(warned, (std::vector<uint64_t>{197793, 288820}));
  EXPECT_TRUE(splitter.input().warnings().empty());
  EXPECT_EQ(splitter.input().compressed_bytes_read(), splitter.input().file_size());
}

}  // namespace
}  // namespace import
