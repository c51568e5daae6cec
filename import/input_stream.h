// A forward-only byte stream over a PGN file that may be gzip- or zstd-compressed.
//
// The compression is detected from the magic bytes, never from the file name:
//   1f 8b        gzip (zlib inflate; concatenated members are read one after the other)
//   28 b5 2f fd  zstd (streaming decompression; concatenated and skippable frames work)
//   anything else plain bytes.
// The file is read in 256 KiB pieces; it is never loaded whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace import {

/// How the bytes of an input are stored.
enum class Compression : uint8_t { kNone, kGzip, kZstd };

/// Decompressed bytes of one file (or of a memory buffer, for tests and fuzzing).
///
/// Errors: opening or reading the file, and corrupt compressed data, throw
/// std::runtime_error naming the path and the zlib/zstd message. A compressed input that
/// ends in the middle of a member/frame is *not* an error: the stream ends after the bytes
/// that could be decoded and warnings() records it, so the games read so far are kept.
/// Move-only; not thread-safe (one reader thread).
class InputStream {
 public:
  /// Opens `path` and reads its first bytes to detect the compression. `-` is standard
  /// input. A path that is not a regular file (a pipe, `<(...)`, a FIFO, a terminal) is read
  /// once, front to back, and has no known size (size_known() is false). Throws
  /// std::runtime_error("cannot open <path>: <reason>") if it cannot be opened or read.
  explicit InputStream(const std::string& path);

  /// A stream over `bytes` (which must outlive the stream), decompressed like a file's;
  /// `name` stands for the path in messages.
  static InputStream from_memory(std::string_view bytes, std::string name = "<memory>");

  InputStream(InputStream&&) noexcept;
  InputStream& operator=(InputStream&&) noexcept;
  ~InputStream();

  /// Fills `buf` with up to `n` decompressed bytes; returns how many were written, 0 only at
  /// the end of the data. Throws std::runtime_error on read errors and corrupt data.
  size_t read(char* buf, size_t n);

  /// Bytes of the underlying file consumed so far (compressed bytes), for progress display.
  uint64_t compressed_bytes_read() const;

  /// Size of the underlying file in bytes (compressed size), for progress display; 0 when
  /// !size_known().
  uint64_t file_size() const;

  /// True for a regular file (and a memory stream); false for standard input, pipes and
  /// other inputs whose size is only known once they are read to the end.
  bool size_known() const;

  /// Decompressed bytes returned by read() so far.
  uint64_t bytes_read() const;

  /// The compression detected from the magic bytes.
  Compression compression() const;

  /// The path given to the constructor (or the memory stream's name).
  const std::string& name() const;

  /// Recoverable problems seen so far, e.g. "<path>: truncated zstd data: the last frame is
  /// incomplete" or "<path>: trailing bytes after the last gzip member ignored".
  const std::vector<std::string>& warnings() const;

 private:
  struct Impl;
  explicit InputStream(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace import
