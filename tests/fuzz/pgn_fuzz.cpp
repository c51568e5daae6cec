// libFuzzer target for the PGN reader and the game builder: any bytes (plain, gzip or
// zstd) go through InputStream -> PgnSplitter -> PgnParser and text_encoding, checking the
// promises the headers make; each game then goes through import::GameBuilder, and a stored
// game's record must decode (db::RecordView), replay with the queries' replay rule (issue
// 14: import must reject what replay refuses) and give the signature the builder stored.
// Built with -DCQLDB_FUZZ=ON (tests/fuzz/CMakeLists.txt); run by .ci/fuzz.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "fuzz_check.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_parser.h"
#include "import/pgn_splitter.h"
#include "import/text_encoding.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace {


/// Builds `game` as the importer does; a stored game must decode, replay and carry the
/// signature its record gives.
void build_and_replay(const import::RawGame& game) {
  static import::GameBuilder builder;
  static sig::SignatureBuilder signatures;
  import::BuiltGame built;
  builder.build(game, "fuzz.pgn", built);
  if (!built.stored) {
    FUZZ_CHECK(!built.reason.empty());
    return;
  }
  const db::RecordView view = db::RecordView::parse(built.record, built.annotations);  // must not throw
  FUZZ_CHECK(view.main_line_size() == built.header.plies);
  FUZZ_CHECK(fuzz::replay_all(view));
  sig::compute_signature(view, signatures);
  std::string expected;
  sig::encode(signatures.signature(), expected);
  FUZZ_CHECK(expected == built.signature);
  sig::decode(built.signature);  // must not throw
}

/// Checks the visitor contract of pgn_visitor.h on every callback.
class CheckingVisitor : public import::PgnVisitor {
 public:
  int depth = 0;
  bool in_game = false;

  void begin_game() override {
    FUZZ_CHECK(!in_game);
    in_game = true;
    depth = 0;
  }
  void tag(std::string_view name, std::string_view value) override {
    FUZZ_CHECK(in_game && !name.empty() && import::is_valid_utf8(value));
  }
  void move(std::string_view san, uint32_t) override { FUZZ_CHECK(in_game && !san.empty()); }
  void comment(std::string_view text) override {
    FUZZ_CHECK(in_game && !text.empty() && import::is_valid_utf8(text));
    FUZZ_CHECK(text.find("\r\n") == std::string_view::npos);  // CRLF comes as '\n'
  }
  void begin_variation() override { ++depth; }
  void end_variation() override { FUZZ_CHECK(--depth >= 0); }
  void result(std::string_view r) override {
    FUZZ_CHECK(r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*");
  }
  void end_game() override {
    FUZZ_CHECK(in_game);
    in_game = false;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  std::string utf8;
  import::to_utf8(bytes, utf8);
  FUZZ_CHECK(import::is_valid_utf8(utf8));
  FUZZ_CHECK(import::is_valid_utf8(bytes) == (utf8 == bytes));

  import::InputStream input = import::InputStream::from_memory(bytes, "fuzz");
  const bool compressed = input.compression() != import::Compression::kNone;
  try {
    import::PgnSplitter splitter(std::move(input));
    import::PgnParser parser;
    CheckingVisitor visitor;
    import::RawGame game;
    uint64_t ordinal = 0;
    while (splitter.next(game)) {
      FUZZ_CHECK(game.ordinal == ++ordinal && !game.text.empty());
      const import::ParseStatus status = parser.parse(game, visitor);
      FUZZ_CHECK(!visitor.in_game);
      FUZZ_CHECK(!status.rejected || status.error()->severity == import::PgnSeverity::kError);
      build_and_replay(game);
      for (const import::PgnDiagnostic& d : status.diagnostics) {
        FUZZ_CHECK(d.line >= game.first_line && import::is_valid_utf8(d.message));
      }
    }
  } catch (const std::runtime_error&) {
    FUZZ_CHECK(compressed);  // only corrupt compressed data may throw
  }
  return 0;
}
