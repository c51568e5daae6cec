// Internal: the byte layout shared by the posting index's reader (postings.cpp) and writer
// (postings_build.cpp); the format itself is described in postings.h.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>

#include "index/postings.h"

namespace sig::format {

inline constexpr char kMagic[8] = {'C', 'Q', 'L', 'P', 'O', 'S', 'T', '1'};
/// magic, then format version, signature version, last, entry count, first (uint32 each).
inline constexpr size_t kHeaderBytes = 8 + 5 * 4;
/// Bytes of one table entry (key, offset, length).
inline constexpr size_t kEntryBytes = 12;
inline constexpr uint32_t kKeySpace = kPostingKeySpace;
/// The offset of a dense posting (not stored).
inline constexpr uint32_t kDenseOffset = 0xFFFFFFFFu;

/// Piece-square and material-class postings held by more than 1/16 of a segment's `games`
/// (and more than 4096) are dense (not stored).
inline bool is_dense(uint32_t key, uint64_t cardinality, uint32_t games) {
  return (key < 1024 || key >= material_class_key(0)) && cardinality * 16 > games && cardinality > 4096;
}

inline uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian hosts only (x86-64, arm64), as the LMDB integer keys
}

inline void append_u32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

}  // namespace sig::format
