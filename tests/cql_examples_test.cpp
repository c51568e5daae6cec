// Every CQL example of the seeds and reference pages (tests/fixtures/cql/*.cql) parses, and
// printing the AST gives text that parses to the same AST. Examples the pages mark as
// invalid must fail with the documented reason. Format of the fixture files: README.md there.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cql/ast_print.h"
#include "cql/designator.h"
#include "cql/parser.h"

namespace {

struct Example {
  std::string file;
  int source_line = 0;   // line on the source page
  int fixture_line = 0;  // line of the header in the fixture file
  std::string kind;      // script | position | wrap | piece | square | schematic
  std::string wrap;      // template with '%' for kind == wrap
  std::string expect_error;
  bool fixed = false;
  std::string body;
};

std::vector<Example> read_fixture(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::vector<Example> out;
  std::string line;
  int n = 0;
  Example* cur = nullptr;
  bool in_header = false;
  while (std::getline(in, line)) {
    ++n;
    if (line.rfind(";;; @", 0) == 0) {
      out.emplace_back();
      cur = &out.back();
      cur->file = path.filename().string();
      cur->fixture_line = n;
      std::istringstream hs(line.substr(5));
      hs >> cur->source_line;
      std::string kv;
      while (hs >> kv)
        if (kv.rfind("kind=", 0) == 0) cur->kind = kv.substr(5);
      in_header = true;
      continue;
    }
    if (!cur) continue;
    if (in_header && line.rfind(";;; ", 0) == 0) {
      std::string rest = line.substr(4);
      if (rest.rfind("wrap: ", 0) == 0)
        cur->wrap = rest.substr(6);
      else if (rest.rfind("expect-error: ", 0) == 0)
        cur->expect_error = rest.substr(14);
      else if (rest.rfind("fixed: ", 0) == 0)
        cur->fixed = true;
      continue;
    }
    in_header = false;
    cur->body += line + "\n";
  }
  return out;
}

std::vector<std::filesystem::path> fixture_files() {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(CQLDB_FIXTURES_DIR "/cql"))
    if (e.path().extension() == ".cql") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  size_t b = s.find_last_not_of(" \t\r\n");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Parses one example; returns "" on success, else the failure text.
std::string check(const Example& ex) {
  std::string where = ex.file + ":" + std::to_string(ex.fixture_line) + " (page line " +
                      std::to_string(ex.source_line) + ")";
  try {
    if (ex.kind == "piece") {
      cql::PieceDesignator pd = cql::parse_piece_designator(trim(ex.body));
      cql::PieceDesignator again = cql::parse_piece_designator(cql::to_string(pd));
      if (!(pd == again))
        return where + ": designator does not survive printing as " + cql::to_string(pd);
    } else if (ex.kind == "square") {
      cql::SquareDesignator sd = cql::parse_square_designator(trim(ex.body));
      std::string printed = cql::to_string(sd);
      if (printed.empty()) printed = "??";
      if (!(cql::parse_square_designator(printed) == sd))
        return where + ": square set does not survive printing";
    } else {
      std::string printed;
      if (ex.kind == "position") {
        printed = cql::to_string(cql::parse_position_list(ex.body, ex.file));
        if (printed != cql::to_string(cql::parse_position_list(printed, "printed")))
          return where + ": printing is not stable: " + printed;
      } else {
        std::string text = ex.body;
        if (ex.kind == "wrap") {
          std::string t = ex.wrap;
          size_t p = t.find('%');
          text = t.substr(0, p) + "\n" + ex.body + "\n" + t.substr(p + 1);
        } else if (ex.kind != "script") {
          return where + ": unknown kind '" + ex.kind + "'";
        }
        printed = cql::to_string(cql::parse_or_throw(text, ex.file));
        std::string again = cql::to_string(cql::parse_or_throw(printed, "printed"));
        if (printed != again)
          return where + ": printing is not stable:\n  " + printed + "\n  " + again;
      }
    }
  } catch (const cql::ParseError& e) {
    if (!ex.expect_error.empty()) {
      if (std::string(e.what()).find(ex.expect_error) != std::string::npos) return "";
      return where + ": wrong error: " + e.what() + " (expected '" + ex.expect_error + "')";
    }
    return where + ": " + e.what();
  } catch (const cql::DesignatorError& e) {
    if (!ex.expect_error.empty() && e.message.find(ex.expect_error) != std::string::npos) return "";
    return where + ": designator error at offset " + std::to_string(e.offset) + ": " + e.message;
  }
  if (!ex.expect_error.empty())
    return where + ": parsed, but the page says it is invalid (" + ex.expect_error + ")";
  return "";
}

TEST(CqlExamples, FixturesExist) {
  EXPECT_GE(fixture_files().size(), 15u);
}

TEST(CqlExamples, EveryExampleParses) {
  int total = 0, parsed = 0, fixed = 0, rejected = 0, schematic = 0;
  for (const auto& file : fixture_files()) {
    for (const Example& ex : read_fixture(file)) {
      if (ex.kind == "schematic") {
        ++schematic;
        continue;
      }
      ++total;
      std::string failure = check(ex);
      if (!failure.empty()) {
        ADD_FAILURE() << failure;
        continue;
      }
      if (!ex.expect_error.empty())
        ++rejected;
      else
        ++parsed;
      if (ex.fixed) ++fixed;
    }
  }
  std::cout << "[ examples ] " << total << " checked: " << parsed << " parse (" << fixed
            << " after a documented fix), " << rejected << " rejected as the page says, "
            << schematic << " schematic skipped\n";
  EXPECT_GT(total, 900);
}

}  // namespace
