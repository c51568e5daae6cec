// libFuzzer target for the PGN reader: any bytes (plain, gzip or zstd) go through
// InputStream -> PgnSplitter -> PgnParser and text_encoding, checking the promises the
// headers make. Not part of the default build:
//
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -I. tests/fuzz/pgn_fuzz.cpp \
//     import/input_stream.cpp import/text_encoding.cpp import/pgn_diagnostic.cpp \
//     import/pgn_splitter.cpp import/pgn_parser.cpp -lz -lzstd -o pgn_fuzz
//   ./pgn_fuzz -max_total_time=300 <corpus dir> tests/fixtures/pgn
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "import/input_stream.h"
#include "import/pgn_parser.h"
#include "import/pgn_splitter.h"
#include "import/text_encoding.h"

namespace {

void check(bool condition) {
  if (!condition) std::abort();
}

/// Checks the visitor contract of pgn_visitor.h on every callback.
class CheckingVisitor : public import::PgnVisitor {
 public:
  int depth = 0;
  bool in_game = false;

  void begin_game() override {
    check(!in_game);
    in_game = true;
    depth = 0;
  }
  void tag(std::string_view name, std::string_view value) override {
    check(in_game && !name.empty() && import::is_valid_utf8(value));
  }
  void move(std::string_view san, uint32_t) override { check(in_game && !san.empty()); }
  void comment(std::string_view text) override {
    check(in_game && !text.empty() && import::is_valid_utf8(text));
    check(text.find("\r\n") == std::string_view::npos);  // CRLF comes as '\n'
  }
  void begin_variation() override { ++depth; }
  void end_variation() override { check(--depth >= 0); }
  void result(std::string_view r) override {
    check(r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*");
  }
  void end_game() override {
    check(in_game);
    in_game = false;
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);

  std::string utf8;
  import::to_utf8(bytes, utf8);
  check(import::is_valid_utf8(utf8));
  check(import::is_valid_utf8(bytes) == (utf8 == bytes));

  import::InputStream input = import::InputStream::from_memory(bytes, "fuzz");
  const bool compressed = input.compression() != import::Compression::kNone;
  try {
    import::PgnSplitter splitter(std::move(input));
    import::PgnParser parser;
    CheckingVisitor visitor;
    import::RawGame game;
    uint64_t ordinal = 0;
    while (splitter.next(game)) {
      check(game.ordinal == ++ordinal && !game.text.empty());
      const import::ParseStatus status = parser.parse(game, visitor);
      check(!visitor.in_game);
      check(!status.rejected || status.error()->severity == import::PgnSeverity::kError);
      for (const import::PgnDiagnostic& d : status.diagnostics) {
        check(d.line >= game.first_line && import::is_valid_utf8(d.message));
      }
    }
  } catch (const std::runtime_error&) {
    check(compressed);  // only corrupt compressed data may throw
  }
  return 0;
}
