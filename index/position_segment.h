// Writing and streaming the segment files of the position index (layout in
// position_index.h): a writer that cuts groups into blocks, a reader that streams a
// segment's groups in order, and the streaming merge of two consecutive segments. Internal
// to index/position_index*.cpp.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "db/file_mapping.h"
#include "index/position_index_format.h"

namespace posindex::format {

/// Writes the segment of games first..last group by group to `<path>.tmp`; finish() writes
/// the directory and header, fsyncs and renames it to `path`. Throws std::runtime_error on
/// I/O errors (the temporary file is then removed).
class SegmentWriter {
 public:
  /// `groups_hint`: about how many groups will be added (chooses the key Rice parameter).
  SegmentWriter(std::filesystem::path path, uint32_t first, uint32_t last, uint64_t groups_hint);
  ~SegmentWriter();
  SegmentWriter(const SegmentWriter&) = delete;
  SegmentWriter& operator=(const SegmentWriter&) = delete;

  /// Appends group `g` (tops ascending; within a top, groups with low bits by low bits).
  void add(const Group& g);
  /// Completes the file; returns the entries written.
  uint64_t finish();

 private:
  void end_block();
  void put(const std::string& bytes);
  [[noreturn]] void fail(const std::string& why);

  std::filesystem::path path_, tmp_;
  FILE* file_ = nullptr;
  SegmentHeader header_;
  std::string block_, directory_;
  BitOut bits_{block_};
  uint64_t block_top_ = 0, prev_top_ = 0, offset_ = kSegmentHeaderBytes;
  uint32_t block_groups_ = 0, block_entries_ = 0;
};

/// The groups of one segment file in order (for a merge).
class GroupStream {
 public:
  /// Opens the segment of games first..last in `dir`. Throws std::runtime_error when it is
  /// missing or damaged.
  GroupStream(const std::filesystem::path& dir, uint32_t first, uint32_t last);
  const SegmentHeader& header() const { return header_; }
  /// The next group; false past the last. Throws std::runtime_error on a damaged block.
  bool next(Group& g);

 private:
  [[noreturn]] void damaged() const;
  std::filesystem::path path_;
  db::FileMapping map_;
  SegmentHeader header_;
  uint32_t block_ = 0, left_ = 0;
  uint64_t prev_top_ = 0;
  BitIn in_{nullptr, nullptr};
};

/// Merges the consecutive segments a (games fa..la) and b (la+1..lb) of `dir` into the
/// segment fa..lb, streaming both (memory: the groups of one top). Groups of one top from
/// both inputs are combined (position_index.h); no game is read. Writes it atomically; the
/// inputs stay. Throws std::runtime_error on I/O errors or damaged inputs.
void merge_segments(const std::filesystem::path& dir, uint32_t fa, uint32_t la, uint32_t fb, uint32_t lb);

}  // namespace posindex::format
