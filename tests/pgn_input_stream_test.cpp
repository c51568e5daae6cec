// InputStream: compression detection, concatenated frames/members, truncation, corruption.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "import/input_stream.h"

namespace import {
namespace {

std::string fixture(const std::string& name) {
  return std::string(CQLDB_FIXTURES_DIR) + "/pgn/" + name;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// All bytes of the stream, read `chunk` bytes at a time.
std::string read_all(InputStream& in, size_t chunk = 4096) {
  std::string out, buf(chunk, '\0');
  while (size_t n = in.read(buf.data(), chunk)) out.append(buf, 0, n);
  return out;
}

/// The message of the std::runtime_error thrown by reading all of `path`, or "".
std::string read_error(const std::string& path) {
  try {
    InputStream in(path);
    read_all(in);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(PgnInputStream, PlainFileIsReadAsIs) {
  InputStream in(fixture("two_games.pgn"));
  EXPECT_EQ(in.compression(), Compression::kNone);
  EXPECT_EQ(read_all(in), file_bytes(fixture("two_games.pgn")));
  EXPECT_EQ(in.compressed_bytes_read(), in.file_size());
  EXPECT_EQ(in.bytes_read(), in.file_size());
  EXPECT_TRUE(in.warnings().empty());
}

TEST(PgnInputStream, GzipIsDetectedByMagicBytes) {
  InputStream in(fixture("two_games.pgn.gz"));
  EXPECT_EQ(in.compression(), Compression::kGzip);
  EXPECT_EQ(read_all(in), file_bytes(fixture("two_games.pgn")));
  EXPECT_EQ(in.compressed_bytes_read(), in.file_size());
  EXPECT_TRUE(in.warnings().empty());
}

TEST(PgnInputStream, ZstdIsDetectedByMagicBytes) {
  InputStream in(fixture("two_games.pgn.zst"));
  EXPECT_EQ(in.compression(), Compression::kZstd);
  EXPECT_EQ(read_all(in), file_bytes(fixture("two_games.pgn")));
  EXPECT_EQ(in.compressed_bytes_read(), in.file_size());
  EXPECT_TRUE(in.warnings().empty());
}

TEST(PgnInputStream, ConcatenatedZstdFramesAreAllRead) {
  InputStream in(fixture("concatenated_frames.pgn.zst"));
  EXPECT_EQ(read_all(in, 7), file_bytes(fixture("two_games.pgn")));
  EXPECT_TRUE(in.warnings().empty());
}

TEST(PgnInputStream, ConcatenatedGzipMembersAreAllRead) {
  InputStream in(fixture("concatenated_members.pgn.gz"));
  EXPECT_EQ(read_all(in, 7), file_bytes(fixture("two_games.pgn")));
  EXPECT_TRUE(in.warnings().empty());
}

TEST(PgnInputStream, TruncatedZstdEndsWithAWarning) {
  InputStream in(fixture("truncated.pgn.zst"));
  const std::string text = read_all(in);
  EXPECT_EQ(file_bytes(fixture("two_games.pgn")).compare(0, text.size(), text), 0);
  ASSERT_EQ(in.warnings().size(), 1u);
  EXPECT_NE(in.warnings()[0].find("truncated zstd"), std::string::npos);
  EXPECT_NE(in.warnings()[0].find("truncated.pgn.zst"), std::string::npos);
}

TEST(PgnInputStream, TruncatedGzipEndsWithAWarning) {
  InputStream in(fixture("truncated.pgn.gz"));
  const std::string text = read_all(in);
  EXPECT_EQ(file_bytes(fixture("two_games.pgn")).compare(0, text.size(), text), 0);
  ASSERT_EQ(in.warnings().size(), 1u);
  EXPECT_NE(in.warnings()[0].find("truncated gzip"), std::string::npos);
}

TEST(PgnInputStream, CorruptZstdThrowsWithPathAndZstdMessage) {
  const std::string message = read_error(fixture("corrupt.pgn.zst"));
  EXPECT_NE(message.find("corrupt.pgn.zst"), std::string::npos) << message;
  EXPECT_NE(message.find("zstd: "), std::string::npos) << message;
}

TEST(PgnInputStream, CorruptGzipThrowsWithPathAndZlibMessage) {
  const std::string message = read_error(fixture("corrupt.pgn.gz"));
  EXPECT_NE(message.find("corrupt.pgn.gz"), std::string::npos) << message;
  EXPECT_NE(message.find("zlib: "), std::string::npos) << message;
}

TEST(PgnInputStream, MissingFileThrowsWithPath) {
  const std::string path = fixture("no_such_file.pgn");
  try {
    InputStream in(path);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).find("cannot open " + path), 0u) << e.what();
  }
}

TEST(PgnInputStream, DirectoryThrows) {
  EXPECT_THROW(InputStream in(fixture("")), std::runtime_error);
}

TEST(PgnInputStream, EmptyFileEndsAtOnce) {
  InputStream in(fixture("empty.pgn"));
  char c;
  EXPECT_EQ(in.read(&c, 1), 0u);
  EXPECT_EQ(in.compression(), Compression::kNone);
}

TEST(PgnInputStream, GzipTrailingGarbageIsIgnoredWithAWarning) {
  const std::string bytes = file_bytes(fixture("two_games.pgn.gz")) + "garbage";
  InputStream in = InputStream::from_memory(bytes, "mem.gz");
  EXPECT_EQ(read_all(in), file_bytes(fixture("two_games.pgn")));
  ASSERT_EQ(in.warnings().size(), 1u);
  EXPECT_NE(in.warnings()[0].find("trailing bytes"), std::string::npos);
}

TEST(PgnInputStream, MemoryStreamReadOneByteAtATime) {
  const std::string bytes = file_bytes(fixture("concatenated_frames.pgn.zst"));
  InputStream in = InputStream::from_memory(bytes);
  EXPECT_EQ(read_all(in, 1), file_bytes(fixture("two_games.pgn")));
  EXPECT_EQ(in.compressed_bytes_read(), bytes.size());
}

}  // namespace
}  // namespace import
