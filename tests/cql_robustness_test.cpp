// Malformed input never escapes as anything but cql::ParseError: mutated versions of every
// fixture example and random token soup are parsed; success or ParseError are the only outcomes.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cql/ast_print.h"
#include "cql/parser.h"

namespace {

struct Rng {
  uint64_t s = 0x2545F4914F6CDD1Dull;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
};

std::vector<std::string> example_texts() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(CQLDB_FIXTURES_DIR "/cql")) {
    if (e.path().extension() != ".cql") continue;
    std::ifstream in(e.path());
    std::string line, cur;
    while (std::getline(in, line)) {
      if (line.rfind(";;; @", 0) == 0) {
        if (!cur.empty()) out.push_back(cur);
        cur.clear();
      } else if (line.rfind(";;; ", 0) != 0) {
        cur += line + "\n";
      }
    }
    if (!cur.empty()) out.push_back(cur);
  }
  return out;
}

// Parses as a script and as a position list; fails the test on any other exception.
void parse_all_ways(const std::string& text) {
  for (int mode = 0; mode < 3; ++mode) {
    try {
      if (mode == 0) {
        cql::ParseResult r = cql::parse(text, "fuzz.cql");
        if (r.ok()) {
          std::string printed = cql::to_string(*r.script);
          cql::ParseResult again = cql::parse(printed, "printed");
          ASSERT_TRUE(again.ok()) << "printed text does not parse:\n"
                                  << printed << "\nfrom:\n"
                                  << text << "\n"
                                  << again.error->what();
        }
      } else if (mode == 1) {
        cql::parse_position_list(text, "fuzz.cql");
      } else {
        cql::parse_or_throw("(match (position " + text + "))", "fuzz.cql");
      }
    } catch (const cql::ParseError& e) {
      ASSERT_GT(e.line(), 0u) << e.what();
      ASSERT_GT(e.column(), 0u) << e.what();
    } catch (const std::exception& e) {
      FAIL() << "unexpected exception " << e.what() << " for:\n" << text;
    }
  }
}

TEST(CqlRobustness, MutatedExamplesFailCleanly) {
  static const std::string kChars = "()[]:;!\"-?*+x@~$.,|<>=% \n0123456789abcdehKQRBNPkqrbnpLDU";
  std::vector<std::string> texts = example_texts();
  ASSERT_FALSE(texts.empty());
  Rng rng;
  for (const std::string& base : texts) {
    for (int round = 0; round < 12; ++round) {
      std::string t = base;
      int edits = 1 + int(rng.below(3));
      for (int i = 0; i < edits && !t.empty(); ++i) {
        size_t p = rng.below(t.size());
        switch (rng.below(3)) {
          case 0:
            t.erase(p, 1);
            break;
          case 1:
            t.insert(p, 1, kChars[rng.below(kChars.size())]);
            break;
          default:
            t[p] = kChars[rng.below(kChars.size())];
            break;
        }
      }
      parse_all_ways(t);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(CqlRobustness, TokenSoup) {
  static const std::vector<std::string> kTokens = {
      "(",           ")",           "(match",
      "(position",   "(relation",   ":not",
      "!:check",     ":line",       ":line*",
      ":and",        ":cond",       ":relation",
      ":piececount", ":pawncount",  ":checkcount",
      ":date",       ":eco",        ":evaluation",
      ":ray",        ":fen",        ":forany",
      ":tagmatch",   ":goodbishop", "R",
      "[Bb]L?",      "$t",          "$t[a1]",
      "e2-e4",       "1.Pe2-e4",    "|",
      "ep",          "5",           "-3",
      ">=2",         "<",           "50%",
      ":",           "unlimited",   "end-2",
      "*",           "-",           "\"x\"",
      "depth",       "mate",        "A00-99",
      "2010-10-01",  "..",          "passed-islands",
      "+0+3",        "O-O",         "99999999999999999999"};
  Rng rng;
  for (int i = 0; i < 4000; ++i) {
    std::string t;
    size_t n = 1 + rng.below(14);
    for (size_t k = 0; k < n; ++k) t += kTokens[rng.below(kTokens.size())] + " ";
    parse_all_ways(t);
    if (HasFatalFailure()) return;
  }
}

}  // namespace
