// FileLock: an exclusive advisory lock (flock) on a file, held while the object lives.
#pragma once

#include <filesystem>
#include <optional>

namespace db {

/// An exclusive flock() on a lock file. Move-only; released by the destructor or when the
/// process dies (so a killed writer never leaves the database locked). flock locks belong
/// to the open file, so a second FileLock on the same file fails even in the same process.
class FileLock {
 public:
  /// Creates `file` if needed and locks it without waiting. Returns std::nullopt when
  /// another FileLock holds it; throws db::Error when the file cannot be opened.
  static std::optional<FileLock> try_lock(const std::filesystem::path& file);

  FileLock(FileLock&& other) noexcept;
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
  ~FileLock();

 private:
  explicit FileLock(int fd) : fd_(fd) {}

  int fd_ = -1;  // open descriptor holding the lock; -1 after a move
};

}  // namespace db
