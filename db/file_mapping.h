// FileMapping: a read-only memory map of a whole file, for the index files read by queries
// (postings.bin, the position index's segments, manifest and facts): only the pages a query
// touches are read.
#pragma once

#include <cstddef>
#include <filesystem>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace db {

/// Maps `path` read-only. data() is null when the file is missing, empty or cannot be
/// mapped (callers treat that as "no such index"); size() is in bytes.
class FileMapping {
 public:
  explicit FileMapping(const std::filesystem::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = ::mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_SHARED, fd, 0);
      if (p != MAP_FAILED) {
        data_ = static_cast<const char*>(p);
        size_ = size_t(st.st_size);
      }
    }
    ::close(fd);
  }
  ~FileMapping() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  FileMapping(const FileMapping&) = delete;
  FileMapping& operator=(const FileMapping&) = delete;
  const char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace db
