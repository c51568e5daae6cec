// Damaged postings.bin bitmaps (issue 14, found by tests/fuzz/postings_fuzz.cpp): CRoaring
// 0.2's readSafe deserializes containers whose values are out of order or that are empty
// runs; such a set answered contains() wrongly and crashed an intersection (SEGV in
// run_container_intersection). sig::Postings::find now refuses the first (std::runtime_error)
// and rebuilds every set it returns, so each answers consistently and intersects.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "eval_test_util.h"
#include "index/postings.h"

namespace {

namespace fs = std::filesystem;

/// Opens the fuzzer's input `name` (tests/fuzz/regress) as a postings.bin and reads, checks
/// and intersects every posting of its table of entries; returns the postings found damaged.
int read_every_posting(const std::string& name) {
  cqltest::TempDir dir("postings-damage");
  const std::string bytes =
      [&] {
        std::ifstream in(std::string(CQLDB_SOURCE_DIR) + "/tests/fuzz/regress/" + name, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
      }();
  EXPECT_GT(bytes.size(), 24u);
  // The inputs are format-4 files (24-byte header); format 5 adds `first` after the entry
  // count: the same bitmaps, the table 4 bytes later and every stored offset + 4.
  std::string v5 = bytes.substr(0, 24);
  const uint32_t version = sig::kPostingsFormatVersion, first = 1;
  std::memcpy(v5.data() + 8, &version, 4);
  v5.append(reinterpret_cast<const char*>(&first), 4);
  uint32_t table_entries;
  std::memcpy(&table_entries, bytes.data() + 20, 4);
  for (uint32_t i = 0; i < table_entries && 24 + 12 * size_t(i) + 12 <= bytes.size(); ++i) {
    std::string entry = bytes.substr(24 + 12 * size_t(i), 12);
    uint32_t offset;
    std::memcpy(&offset, entry.data() + 4, 4);
    if (offset != 0xFFFFFFFFu) offset += 4;
    std::memcpy(entry.data() + 4, &offset, 4);
    v5 += entry;
  }
  if (24 + 12 * size_t(table_entries) <= bytes.size()) v5 += bytes.substr(24 + 12 * size_t(table_entries));
  std::ofstream(dir.path / sig::kPostingsFile, std::ios::binary) << v5;
  const auto postings = sig::Postings::open(dir.path);
  EXPECT_TRUE(postings.has_value());
  if (!postings) return -1;
  uint32_t entries;
  std::memcpy(&entries, bytes.data() + 20, 4);
  int damaged = 0;
  for (uint32_t i = 0; i < entries; ++i) {
    uint32_t key;
    std::memcpy(&key, v5.data() + 28 + 12 * size_t(i), 4);
    try {
      const sig::GameSet* set = postings->find(key);
      if (!set) continue;
      const std::vector<uint32_t> ids = set->ids();
      EXPECT_EQ(ids.size(), set->size());
      for (uint32_t id : ids) EXPECT_TRUE(set->contains(id)) << key << " " << id;
      sig::GameSet copy = *set;
      copy &= *set;
      EXPECT_EQ(copy.size(), set->size());
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("is damaged"), std::string::npos) << e.what();
      ++damaged;
    }
  }
  return damaged;
}

TEST(DamagedPostings, ValuesOutOfOrderAreRefused) {
  EXPECT_GE(read_every_posting("postings-unsorted-array.bin"), 1);
}

TEST(DamagedPostings, SetThatCrashedAnIntersectionIsRebuilt) {
  EXPECT_GE(read_every_posting("postings-and-inplace-segv.bin"), 0);  // no crash
}

}  // namespace
