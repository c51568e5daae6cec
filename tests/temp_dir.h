// cqltest::TempDir: the one temporary-directory helper of the tests (issue 15). Each
// instance is a fresh, empty directory under the system temp directory, unique across
// processes and instances (mkdtemp, so parallel ctest runs never share one), removed with
// everything in it when the instance is destroyed.
#pragma once

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cqltest {

/// A unique temporary directory, created by the constructor and removed (recursively) by
/// the destructor. Not copyable; for a directory shared by a test suite hold it in a
/// static std::optional or pointer and reset it in TearDownTestSuite.
class TempDir {
 public:
  /// Creates `<temp>/cqldb-<name>-XXXXXX`. Throws std::runtime_error when the directory
  /// cannot be created.
  explicit TempDir(std::string_view name = "test") : path(make(name)) {}
  ~TempDir() {
    std::error_code ec;  // never throws from a destructor; a leftover directory is harmless
    std::filesystem::remove_all(path, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  /// `path / name`: a file or directory inside (not created).
  std::filesystem::path operator/(std::string_view name) const { return path / name; }
  /// `path / "db"`: the conventional database directory inside (not created).
  std::filesystem::path db() const { return path / "db"; }

  const std::filesystem::path path;  ///< the directory (exists while the object lives)

 private:
  static std::filesystem::path make(std::string_view name) {
    std::string pattern =
        (std::filesystem::temp_directory_path() / ("cqldb-" + std::string(name) + "-XXXXXX")).string();
    if (!mkdtemp(pattern.data()))
      throw std::runtime_error("cannot create a temporary directory " + pattern + ": " + std::strerror(errno));
    return pattern;
  }
};

}  // namespace cqltest
