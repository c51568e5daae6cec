// PgnReader over the real corpus: every game is read, and which games the parser rejects.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "import/pgn_reader.h"

namespace import {
namespace {

std::string corpus(const std::string& name) {
  return std::string(CQLDB_CORPUS_DIR) + "/" + name;
}

/// Counts callbacks.
class CountingVisitor : public PgnVisitor {
 public:
  uint64_t games = 0, moves = 0, results = 0;
  void begin_game() override { ++games; }
  void move(std::string_view, uint32_t) override { ++moves; }
  void result(std::string_view) override { ++results; }
};

struct CorpusStats {
  uint64_t games = 0;
  std::vector<uint64_t> rejected;         // ordinals of rejected games
  std::map<PgnIssue, uint64_t> warnings;  // warnings by kind
  uint64_t moves = 0;
};

CorpusStats read_corpus(const std::string& name) {
  PgnReader reader(corpus(name));
  CountingVisitor visitor;
  ParseStatus status;
  CorpusStats stats;
  while (reader.read_game(visitor, status)) {
    ++stats.games;
    if (status.rejected) stats.rejected.push_back(reader.raw_game().ordinal);
    for (const PgnDiagnostic& d : status.diagnostics) {
      if (d.severity == PgnSeverity::kWarning) ++stats.warnings[d.issue];
    }
  }
  EXPECT_EQ(visitor.games, stats.games);
  stats.moves = visitor.moves;
  return stats;
}

TEST(PgnReader, PlayersZstdStreamsAllGamesWithoutRejections) {
  const CorpusStats stats = read_corpus("players-344k.pgn.zst");
  EXPECT_EQ(stats.games, 344248u);
  EXPECT_TRUE(stats.rejected.empty());
  EXPECT_EQ(stats.warnings, (std::map<PgnIssue, uint64_t>{{PgnIssue::kControlBytes, 2}}));
  EXPECT_EQ(stats.moves, 28290010u);
}

TEST(PgnReader, StudiesParseCleanly) {
  const CorpusStats stats = read_corpus("studies.pgn");
  EXPECT_EQ(stats.games, 253u);
  EXPECT_TRUE(stats.rejected.empty());
  EXPECT_TRUE(stats.warnings.empty());
}

TEST(PgnReader, MatesKeepGamesWithQuotedQuotesInTags) {
  // Five games have tags like [White ""Socrates Expert""]: repaired with a warning.
  const CorpusStats stats = read_corpus("mates.pgn");
  EXPECT_EQ(stats.games, 914u);
  EXPECT_TRUE(stats.rejected.empty());
  EXPECT_EQ(stats.warnings, (std::map<PgnIssue, uint64_t>{{PgnIssue::kTagSyntax, 8}}));
}

TEST(PgnReader, AnnotatedRejectsOnlyBrokenMovetext) {
  // 84: "(keep them doggies rollin')"; 223: a '{' never closed; 1062 and 2524: a ')' too
  // many; 2062: "Bb4 +" with a detached check sign.
  const CorpusStats stats = read_corpus("annotated.pgn");
  EXPECT_EQ(stats.games, 2578u);
  EXPECT_EQ(stats.rejected, (std::vector<uint64_t>{84, 223, 1062, 2062, 2524}));
  EXPECT_EQ(stats.warnings.at(PgnIssue::kMissingResult), 13u);
  EXPECT_EQ(stats.warnings.at(PgnIssue::kControlBytes), 1u);
  EXPECT_EQ(stats.warnings.at(PgnIssue::kTextAfterResult), 1u);
}

}  // namespace
}  // namespace import
