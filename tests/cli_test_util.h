// Running the `cqldb` binary (CQLDB_BINARY) from tests: shared by the CLI, shell and engine
// tests.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace cqltest {

/// Exit code (-1 when not exited normally), standard output and standard error of one run.
struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

/// The whole content of `path` ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// `s` as one single-quoted shell word.
inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs `cqldb ARGS...` (each argument one word) with `input` on stdin; the streams pass
/// through files `stdin`, `stdout`, `stderr` in `work_dir`.
inline Outcome run_cqldb(const std::vector<std::string>& args, const std::filesystem::path& work_dir,
                         const std::string& input = "") {
  std::string cmd = shell_quote(CQLDB_BINARY);
  for (const std::string& a : args) cmd += " " + shell_quote(a);
  const std::filesystem::path in = work_dir / "stdin", out = work_dir / "stdout", err = work_dir / "stderr";
  std::ofstream(in, std::ios::binary) << input;
  cmd += " <" + shell_quote(in.string()) + " >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(cmd.c_str());
  Outcome r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out);
  r.err = read_file(err);
  return r;
}

}  // namespace cqltest
