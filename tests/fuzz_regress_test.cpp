// Inputs the fuzzers of tests/fuzz found (tests/fuzz/regress), replayed in the normal suite:
// a record with a well-formed but illegal move gets no signature (it is a damaged record, not
// an inconsistent signature), and a bracket line with control and invalid bytes is reported
// as UTF-8 text.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "db/errors.h"
#include "db/record_view.h"
#include "import/input_stream.h"
#include "import/pgn_parser.h"
#include "import/pgn_splitter.h"
#include "import/pgn_visitor.h"
#include "import/text_encoding.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace {

std::string regress_input(const std::string& name) {
  std::ifstream in(std::string(CQLDB_SOURCE_DIR) + "/tests/fuzz/regress/" + name, std::ios::binary);
  EXPECT_TRUE(in) << name;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(FuzzRegress, IllegalStoredMoveGetsNoSignature) {
  const std::string bytes = regress_input("record-illegal-move.bin");
  const db::RecordView view = db::RecordView::parse(bytes);
  sig::SignatureBuilder builder;
  EXPECT_THROW(sig::compute_signature(view, builder), db::CorruptRecord);
}

TEST(FuzzRegress, BracketLineWithBinaryBytesIsReportedAsText) {
  import::PgnSplitter splitter(import::InputStream::from_memory(regress_input("pgn-diagnostic-line.bin"), "fuzz"));
  import::RawGame game;
  size_t games = 0, warnings = 0;
  while (splitter.next(game)) {
    ++games;
    for (const import::PgnDiagnostic& d : game.warnings) {
      ++warnings;
      EXPECT_TRUE(import::is_valid_utf8(d.message)) << d.message;
      EXPECT_GE(d.line, game.first_line);
    }
  }
  EXPECT_EQ(games, 1u);
  EXPECT_GE(warnings, 1u);
}

TEST(FuzzRegress, ARejectedGameNamesItsError) {
  // A lenient token reported after the error that rejects the game: error() is the error.
  import::PgnSplitter splitter(
      import::InputStream::from_memory(regress_input("pgn-warning-after-error.bin"), "fuzz"));
  import::PgnParser parser;
  struct Visitor : import::PgnVisitor {} visitor;
  import::RawGame game;
  size_t rejected = 0;
  while (splitter.next(game)) {
    const import::ParseStatus status = parser.parse(game, visitor);
    if (!status.rejected) continue;
    ++rejected;
    EXPECT_EQ(status.error()->severity, import::PgnSeverity::kError) << status.error()->message;
  }
  EXPECT_EQ(rejected, 1u);
}

}  // namespace
