// Benchmark of the PGN reader: decompression alone, decompression + splitting, and
// splitting + parsing with a counting visitor, on one thread each.
//
//   bench_pgn [file]   (default: <project>/../shared/corpus/players-344k.pgn.zst)
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "import/input_stream.h"
#include "import/pgn_parser.h"
#include "import/pgn_splitter.h"
#include "import/pgn_visitor.h"

namespace {

using Clock = std::chrono::steady_clock;

/// Counts callbacks; does nothing else.
class CountingVisitor : public import::PgnVisitor {
 public:
  uint64_t moves = 0, tags = 0, comments = 0, nags = 0;
  void tag(std::string_view, std::string_view) override { ++tags; }
  void move(std::string_view, uint32_t) override { ++moves; }
  void comment(std::string_view) override { ++comments; }
  void nag(uint8_t) override { ++nags; }
};

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void print(const char* phase, double s, uint64_t bytes, uint64_t games, uint64_t moves) {
  std::printf("%-26s %7.3f s  %8.1f MB/s", phase, s, double(bytes) / 1e6 / s);
  if (games != 0) std::printf("  %9.0f games/s", double(games) / s);
  if (moves != 0) std::printf("  %11.0f moves/s", double(moves) / s);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  // Default: the corpus next to the project, found from this file's (absolute) path.
  std::string here = __FILE__;
  here.resize(here.rfind("bench/"));
  const std::string path = argc > 1 ? argv[1] : here + "../shared/corpus/players-344k.pgn.zst";
  try {
    {
      import::InputStream in(path);
      std::unique_ptr<char[]> buf(new char[1 << 20]);
      const auto start = Clock::now();
      uint64_t bytes = 0;
      while (size_t n = in.read(buf.get(), 1 << 20)) bytes += n;
      print("decompress", seconds_since(start), bytes, 0, 0);
    }
    {
      import::PgnSplitter splitter{import::InputStream(path)};
      import::RawGame game;
      const auto start = Clock::now();
      while (splitter.next(game)) {
      }
      print("decompress+split", seconds_since(start), splitter.input().bytes_read(),
            splitter.games(), 0);
    }
    import::PgnSplitter splitter{import::InputStream(path)};
    import::PgnParser parser;
    import::RawGame game;
    CountingVisitor visitor;
    uint64_t rejected = 0, warnings = 0;
    const auto start = Clock::now();
    while (splitter.next(game)) {
      const import::ParseStatus status = parser.parse(game, visitor);
      rejected += status.rejected;
      warnings += status.diagnostics.size() - status.rejected;
    }
    const double s = seconds_since(start);
    print("decompress+split+parse", s, splitter.input().bytes_read(), splitter.games(),
          visitor.moves);
    std::printf(
        "%s: %llu games (%llu rejected, %llu warnings), %llu moves, %llu tags, "
        "%llu comments, %llu NAGs, %.1f MB decompressed, wall %.3f s\n",
        path.c_str(), (unsigned long long)splitter.games(), (unsigned long long)rejected,
        (unsigned long long)warnings, (unsigned long long)visitor.moves,
        (unsigned long long)visitor.tags, (unsigned long long)visitor.comments,
        (unsigned long long)visitor.nags, double(splitter.input().bytes_read()) / 1e6, s);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_pgn: %s\n", e.what());
    return 1;
  }
  return 0;
}
