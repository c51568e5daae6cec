// InputStream: plain, gzip and zstd decoding over a file descriptor or a memory buffer.
#include "import/input_stream.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace import {
namespace {

constexpr size_t kInputBufferSize = 256 * 1024;  // compressed bytes read per system call

}  // namespace

struct InputStream::Impl {
  std::string name;
  int fd = -1;               // the file, or -1 for a memory stream
  std::string_view memory;   // the memory stream's bytes
  uint64_t size = 0;         // file size in bytes (0 when unknown)
  bool size_known = true;    // a regular file or memory: `size` is the size
  bool owns_fd = true;       // close fd at the end (not standard input)
  uint64_t source_read = 0;  // bytes taken from the file / memory so far
  uint64_t produced = 0;     // decompressed bytes returned by read()
  bool source_eof = false;   // the file / memory has no more bytes
  Compression compression = Compression::kNone;
  std::unique_ptr<char[]> in;     // compressed input buffer
  size_t in_capacity = kInputBufferSize;  // bytes of `in`: smaller for a small known size
  size_t in_pos = 0, in_end = 0;  // unread input is in[in_pos, in_end)
  z_stream zs{};                  // gzip state (when compression == kGzip)
  bool zs_ready = false;          // inflateInit2 succeeded
  ZSTD_DCtx* zd = nullptr;        // zstd state (when compression == kZstd)
  size_t zstd_hint = 0;           // last useful ZSTD_decompressStream result; 0 = frame end
  bool done = false;              // read() returns 0 from now on
  std::vector<std::string> warnings;

  ~Impl() {
    if (zs_ready) inflateEnd(&zs);
    ZSTD_freeDCtx(zd);
    if (fd >= 0 && owns_fd) ::close(fd);
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw std::runtime_error(name + ": " + what);
  }

  /// Copies up to n bytes from the file / memory to dst; 0 = end.
  size_t read_source(char* dst, size_t n) {
    if (source_eof) return 0;
    size_t got = 0;
    if (fd < 0) {
      got = std::min(n, memory.size() - size_t(source_read));
      std::memcpy(dst, memory.data() + source_read, got);
    } else {
      for (;;) {
        const ssize_t r = ::read(fd, dst, n);
        if (r >= 0) {
          got = size_t(r);
          break;
        }
        if (errno != EINTR) fail(std::string("read error: ") + std::strerror(errno));
      }
    }
    if (got == 0) source_eof = true;
    source_read += got;
    return got;
  }

  /// Makes at least `k` unread input bytes available unless the source ends first; returns
  /// how many are available.
  size_t ensure_input(size_t k) {
    if (in_end - in_pos >= k) return in_end - in_pos;
    if (in_pos > 0) {
      std::memmove(in.get(), in.get() + in_pos, in_end - in_pos);
      in_end -= in_pos;
      in_pos = 0;
    }
    while (in_end < k && !source_eof)
      in_end += read_source(in.get() + in_end, in_capacity - in_end);
    return in_end - in_pos;
  }

  void detect() {
    // A small file or memory input needs no full-size buffer (a fuzzer or a test opens
    // thousands of them); 64 bytes are enough for the magic numbers of ensure_input.
    if (size_known && size < kInputBufferSize) in_capacity = std::max<size_t>(size_t(size), 64);
    in.reset(new char[in_capacity]);
    const size_t n = ensure_input(4);
    const auto* m = reinterpret_cast<const unsigned char*>(in.get());
    if (n >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
      compression = Compression::kGzip;
      if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) fail("zlib: inflateInit2 failed");
      zs_ready = true;
    } else if (n >= 4 && m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) {
      compression = Compression::kZstd;
      zd = ZSTD_createDCtx();
      if (zd == nullptr) fail("zstd: ZSTD_createDCtx failed");
    }
  }

  size_t read_plain(char* buf, size_t n) {
    if (in_pos < in_end) {
      const size_t k = std::min(n, in_end - in_pos);
      std::memcpy(buf, in.get() + in_pos, k);
      in_pos += k;
      return k;
    }
    return read_source(buf, n);
  }

  size_t read_gzip(char* buf, size_t n) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = uInt(std::min<size_t>(n, UINT_MAX));
    const uInt requested = zs.avail_out;
    while (zs.avail_out > 0 && !done) {
      if (in_pos == in_end) ensure_input(1);
      zs.next_in = reinterpret_cast<Bytef*>(in.get() + in_pos);
      zs.avail_in = uInt(in_end - in_pos);
      const int r = inflate(&zs, Z_NO_FLUSH);
      in_pos = in_end - zs.avail_in;
      if (r == Z_STREAM_END) {
        // Another member may follow; anything that is not a gzip header is ignored.
        const size_t k = ensure_input(2);
        const auto* m = reinterpret_cast<const unsigned char*>(in.get() + in_pos);
        if (k == 0) {
          done = true;
        } else if (k >= 2 && m[0] == 0x1f && m[1] == 0x8b) {
          inflateReset(&zs);
        } else {
          warnings.push_back(name + ": trailing bytes after the last gzip member ignored");
          done = true;
        }
      } else if (r == Z_BUF_ERROR) {
        if (in_pos == in_end && source_eof) {
          warnings.push_back(name + ": truncated gzip data: the last member is incomplete");
          done = true;
        }
      } else if (r != Z_OK) {
        fail(std::string("zlib: ") + (zs.msg != nullptr ? zs.msg : zError(r)));
      }
    }
    return requested - zs.avail_out;
  }

  size_t read_zstd(char* buf, size_t n) {
    ZSTD_outBuffer out{buf, n, 0};
    while (out.pos < out.size && !done) {
      if (in_pos == in_end) ensure_input(1);
      ZSTD_inBuffer input{in.get() + in_pos, in_end - in_pos, 0};
      const size_t before = out.pos;
      const size_t r = ZSTD_decompressStream(zd, &out, &input);
      if (ZSTD_isError(r)) fail(std::string("zstd: ") + ZSTD_getErrorName(r));
      in_pos += input.pos;
      if (out.pos != before || input.pos != 0) {
        zstd_hint = r;  // only a call that made progress tells whether the frame is complete
      } else if (in_pos < in_end) {
        fail("zstd: decoder made no progress");  // cannot happen with output room left
      } else {
        // No input left: clean end only at a frame boundary.
        if (zstd_hint != 0) {
          warnings.push_back(name + ": truncated zstd data: the last frame is incomplete");
        }
        done = true;
      }
    }
    return out.pos;
  }
};

InputStream::InputStream(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

InputStream::InputStream(const std::string& path) : impl_(std::make_unique<Impl>()) {
  impl_->name = path;
  if (path == "-") {
    impl_->fd = STDIN_FILENO;
    impl_->owns_fd = false;
  } else {
    impl_->fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  }
  if (impl_->fd < 0) {
    throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  }
  struct stat st {};
  if (::fstat(impl_->fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    throw std::runtime_error("cannot open " + path + ": " +
                             (S_ISDIR(st.st_mode) ? "is a directory" : std::strerror(errno)));
  }
  // Only a regular file has a size worth showing; a pipe's st_size is what is buffered.
  impl_->size_known = S_ISREG(st.st_mode);
  impl_->size = impl_->size_known ? uint64_t(st.st_size) : 0;
  if (impl_->size_known) ::posix_fadvise(impl_->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  impl_->detect();
}

InputStream InputStream::from_memory(std::string_view bytes, std::string name) {
  auto impl = std::make_unique<Impl>();
  impl->name = std::move(name);
  impl->memory = bytes;
  impl->size = bytes.size();
  impl->detect();
  return InputStream(std::move(impl));
}

InputStream::InputStream(InputStream&&) noexcept = default;
InputStream& InputStream::operator=(InputStream&&) noexcept = default;
InputStream::~InputStream() = default;

size_t InputStream::read(char* buf, size_t n) {
  Impl& s = *impl_;
  if (s.done || n == 0) return 0;
  size_t got = 0;
  switch (s.compression) {
    case Compression::kNone:
      got = s.read_plain(buf, n);
      break;
    case Compression::kGzip:
      got = s.read_gzip(buf, n);
      break;
    case Compression::kZstd:
      got = s.read_zstd(buf, n);
      break;
  }
  if (got == 0) s.done = true;
  s.produced += got;
  return got;
}

uint64_t InputStream::compressed_bytes_read() const {
  return impl_->source_read;
}
uint64_t InputStream::file_size() const {
  return impl_->size;
}
bool InputStream::size_known() const {
  return impl_->size_known;
}
uint64_t InputStream::bytes_read() const {
  return impl_->produced;
}
Compression InputStream::compression() const {
  return impl_->compression;
}
const std::string& InputStream::name() const {
  return impl_->name;
}
const std::vector<std::string>& InputStream::warnings() const {
  return impl_->warnings;
}

}  // namespace import
