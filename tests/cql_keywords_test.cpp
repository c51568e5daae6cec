// The keyword table: consistency, and every keyword parses in at least one example.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "cql/keywords.h"
#include "cql/parser.h"
#include "keyword_examples.h"

namespace {

using K = cql::Keyword;

TEST(CqlKeywords, TableIsConsistent) {
  std::set<std::string_view> names;
  size_t i = 0;
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    EXPECT_EQ(static_cast<size_t>(info.keyword), i++) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate " << info.name;
    EXPECT_NE(info.lists, 0) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(cql::find_keyword(info.name), &info);
    EXPECT_EQ(&cql::keyword_info(info.keyword), &info);
    if (info.same_as) {
      EXPECT_FALSE(cql::keyword_info(*info.same_as).same_as) << info.name;
    }
    if (info.negation_of) {
      EXPECT_EQ(info.signature, cql::Signature::None) << info.name;
    }
  }
  EXPECT_EQ(cql::find_keyword("foo"), nullptr);
  EXPECT_EQ(cql::keyword_spelling(K::LineStar), ":line*");
}

TEST(CqlKeywords, NegatableKeywordsAreTheDocumentedOnes) {
  for (K k : {K::Check, K::Mate, K::Stalemate, K::Initial, K::Terminal, K::EnPassant, K::IsCheck,
              K::IsChess960, K::GoodGame, K::WhiteIsComputer, K::Opposition, K::ThreeChecks})
    EXPECT_TRUE(cql::keyword_info(k).negatable) << cql::keyword_info(k).name;
  for (K k : {K::IsCastling, K::Not, K::PieceCount, K::Wtm, K::Flip, K::Sequence, K::Result})
    EXPECT_FALSE(cql::keyword_info(k).negatable) << cql::keyword_info(k).name;
}

using cqltest::Usage;
using cqltest::usages;
using cqltest::script_for;


TEST(CqlKeywords, EveryKeywordParsesInAnExample) {
  size_t covered = 0;
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    auto it = usages().find(info.keyword);
    if (it == usages().end()) {
      ADD_FAILURE() << "no example for :" << info.name;
      continue;
    }
    std::string text = script_for(it->second);
    cql::ParseResult r = cql::parse(text, "kw.cql");
    if (!r.ok()) {
      ADD_FAILURE() << ":" << info.name << ": " << r.error->what();
      continue;
    }
    bool found = false;
    cql::walk(r.script->match,
              [&](const cql::KeywordItem& k) { found = found || k.keyword == info.keyword; });
    EXPECT_TRUE(found) << ":" << info.name << " not in the AST of " << text;
    if (found) ++covered;
  }
  EXPECT_EQ(covered, cql::all_keywords().size());
}

TEST(CqlKeywords, EveryKeywordIsRejectedInListsThatDoNotAcceptIt) {
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    auto it = usages().find(info.keyword);
    if (it == usages().end()) continue;
    for (char list : {'M', 'P', 'R'}) {
      uint8_t bit = list == 'M' ? cql::kInMatch : list == 'P' ? cql::kInPosition : cql::kInRelation;
      if (info.lists & bit) continue;
      std::string text = script_for(Usage{list, (":" + std::string(info.name)).c_str()});
      cql::ParseResult r = cql::parse(text, "kw.cql");
      ASSERT_FALSE(r.ok()) << text;
      EXPECT_NE(std::string(r.error->what()).find("is not allowed in a"), std::string::npos)
          << r.error->what();
    }
  }
}

TEST(CqlKeywords, TableSize) {
  // 75 keywords allowed in match lists, 139 in position lists, 12 in relation lists; a name
  // shared by several lists (e.g. :and, :result, :shift) is one keyword.
  EXPECT_EQ(cql::all_keywords().size(), 207u);
}

}  // namespace
