// Writes the seed corpora of the libFuzzer targets (.ci/fuzz): real games and queries cut
// into one input per file.
//
//   make_seeds OUT_DIR GAMES_PER_FILE CQL_FILE... -- PGN_FILE...
//
// OUT_DIR/pgn      one PGN game per file: the first GAMES_PER_FILE games of each PGN file
// OUT_DIR/record   the record and the signature the importer's GameBuilder makes of each
//                  stored game (db/record_format.h, index/signature.h)
// OUT_DIR/postings postings.bin built from those signatures (games 1..N), and from the
//                  first 10 (index/postings.h)
// OUT_DIR/cql      each query of the CQL files: a fixture file holding several examples
//                  separated by ";;; @" lines (tests/fixtures/cql) gives one file each
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "index/postings.h"
#include "index/signature.h"

namespace {

namespace fs = std::filesystem;

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// Splits a CQL file at its ";;; @" lines; ";;;" comment lines are dropped.
std::vector<std::string> queries_of(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  std::string line, cur;
  while (std::getline(in, line)) {
    if (line.rfind(";;; @", 0) == 0) {
      if (cur.find('(') != std::string::npos) out.push_back(cur);
      cur.clear();
    } else if (line.rfind(";;;", 0) != 0) {
      cur += line + "\n";
    }
  }
  if (cur.find('(') != std::string::npos) out.push_back(cur);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: make_seeds OUT_DIR GAMES_PER_FILE CQL_FILE... -- PGN_FILE...\n");
    return 2;
  }
  const fs::path out = argv[1];
  const long per_file = std::stol(argv[2]);
  for (const char* sub : {"pgn", "record", "postings", "cql"}) fs::create_directories(out / sub);
  int arg = 3;
  size_t queries = 0;
  for (; arg < argc && std::string(argv[arg]) != "--"; ++arg)
    for (const std::string& q : queries_of(argv[arg]))
      write_file(out / "cql" / (std::to_string(++queries) + ".cql"), q);

  import::GameBuilder builder;
  import::BuiltGame built;
  sig::PostingsBuilder postings, first_ten;
  uint32_t games = 0, stored = 0;
  for (++arg; arg < argc; ++arg) {
    import::PgnSplitter splitter{import::InputStream(argv[arg])};
    import::RawGame raw;
    for (long i = 0; i < per_file && splitter.next(raw); ++i) {
      write_file(out / "pgn" / (std::to_string(++games) + ".pgn"), raw.text);
      builder.build(raw, argv[arg], built);
      if (!built.stored) continue;
      ++stored;
      write_file(out / "record" / (std::to_string(stored) + ".rec"), built.record);
      write_file(out / "record" / (std::to_string(stored) + ".sig"), built.signature);
      const sig::Signature s = sig::decode(built.signature);
      postings.add(stored, s);
      if (stored <= 10) first_ten.add(stored, s);
    }
  }
  postings.write(out / "postings", 1, stored);
  fs::rename(out / "postings" / sig::kPostingsFile, out / "postings" / "all.bin");
  first_ten.write(out / "postings", 1, std::min(stored, 10u));
  fs::rename(out / "postings" / sig::kPostingsFile, out / "postings" / "first-10.bin");
  std::printf("seeds in %s: %u games (%u stored), %zu queries\n", out.c_str(), games, stored, queries);
  return 0;
}
