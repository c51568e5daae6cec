// libFuzzer target for the posting reader: any bytes are a postings.bin. The bytes are
// written to a scratch directory (sig::Postings reads its file through a memory map) and
// opened: sig::Postings::open gives an index or nullopt, never a crash; every posting of a
// valid table of entries reads (sig::Postings::find: a game set, null for a dense one, or
// std::runtime_error for a damaged bitmap), and a game set answers its size, members and
// ids consistently and intersects (found: CRoaring 0.2 deserializes damaged
// containers; Postings::find now validates and rebuilds each set, tests/fuzz/regress). Built with -DCQLDB_FUZZ=ON; run by .ci/fuzz.
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>

#include "fuzz_check.h"
#include "index/postings.h"

namespace {

/// The scratch directory of this process (in /dev/shm when there is one: no disk writes).
const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    const std::filesystem::path base =
        std::filesystem::is_directory("/dev/shm") ? "/dev/shm" : std::filesystem::temp_directory_path();
    std::filesystem::path d = base / ("cqldb-postings-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

uint32_t read_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  {
    std::ofstream out(scratch_dir() / sig::kPostingsFile, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
  }
  const std::optional<sig::Postings> postings = sig::Postings::open(scratch_dir());
  if (!postings) return 0;
  FUZZ_CHECK(size >= 28);  // format 5: a 28-byte header (index/postings.h)
  // The keys of the table of entries (index/postings.h): 12 bytes each after the header.
  const uint32_t entries = read_u32(data + 20);
  FUZZ_CHECK(size >= 28 + size_t(entries) * 12);
  for (uint32_t i = 0; i < entries && i < 64; ++i) {
    const uint32_t key = read_u32(data + 28 + 12 * size_t(i));
    FUZZ_CHECK(key < sig::kPostingKeySpace);
    try {
      const sig::GameSet* set = postings->find(key);
      FUZZ_CHECK(postings->find(key) == set);  // cached
      if (!set || set->size() > (1u << 20)) continue;  // ids() of a huge run: no memory
      const std::vector<uint32_t> ids = set->ids();
      FUZZ_CHECK(ids.size() == set->size());
      for (size_t j = 0; j < ids.size() && j < 16; ++j) FUZZ_CHECK(set->contains(ids[j]));
      sig::GameSet copy = *set;
      copy &= *set;
      FUZZ_CHECK(copy.size() == set->size());
    } catch (const std::runtime_error&) {  // a damaged bitmap
    }
  }
  for (uint32_t key : {0u, sig::kPostingKeySpace - 1}) {
    try {
      postings->find(key);
    } catch (const std::runtime_error&) {  // a damaged bitmap
    }
  }
  return 0;
}
