#include "analysis/engine.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

extern char** environ;

namespace analysis {

namespace {

/// Longest wait inside one poll(), so cancellation is seen within this time.
constexpr int kPollSliceMs = 50;

bool is_executable_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
}

/// The words of `line` separated by blanks.
std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    size_t j = i;
    while (j < line.size() && line[j] != ' ' && line[j] != '\t') ++j;
    if (j > i) out.push_back(line.substr(i, j - i));
    i = j;
  }
  return out;
}

bool starts_with_word(std::string_view line, std::string_view word) {
  return line.substr(0, word.size()) == word && (line.size() == word.size() || line[word.size()] == ' ');
}

/// How a reaped process ended, for messages: "exited with status 1", "killed by signal 9".
std::string describe_status(int status) {
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "killed by signal " + std::to_string(WTERMSIG(status)) + " (" + strsignal(WTERMSIG(status)) + ")";
  return "stopped";
}

}  // namespace

int64_t centipawns(const EngineScore& s) {
  if (s.kind == EngineScore::Kind::kCentipawns) return s.value;
  const int64_t v = kMateCentipawns - s.mate_plies();
  return s.value > 0 ? v : -v;
}

std::string resolve_engine(const std::string& name) {
  if (name.empty()) throw EngineError("no chess engine given (use --engine PATH or CQLDB_ENGINE)");
  if (name.find('/') != std::string::npos) {
    if (!is_executable_file(name))
      throw EngineError("chess engine '" + name + "' not found or not executable (use --engine PATH or CQLDB_ENGINE)");
    return name;
  }
  std::string dirs = std::getenv("PATH") ? std::getenv("PATH") : "";
  dirs += ":/usr/games:/usr/local/games";
  size_t begin = 0;
  while (begin <= dirs.size()) {
    size_t end = dirs.find(':', begin);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(begin, end - begin);
    if (!dir.empty()) {
      std::string candidate = dir + "/" + name;
      if (is_executable_file(candidate)) return candidate;
    }
    begin = end + 1;
  }
  throw EngineError("chess engine '" + name +
                    "' not found on PATH or in /usr/games (install Debian's stockfish, or use --engine PATH or CQLDB_ENGINE)");
}

UciEngine::UciEngine(EngineConfig config) : config_(std::move(config)) {}

UciEngine::~UciEngine() { stop(); }

void UciEngine::stop() noexcept {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  buffer_.clear();
}

void UciEngine::fail(const std::string& what) {
  std::string how;
  if (pid_ > 0) {
    // Give a process that is going away a moment to be reaped, so the message says how.
    int status = 0;
    pid_t r = 0;
    for (int i = 0; i < 20 && (r = ::waitpid(pid_, &status, WNOHANG)) == 0; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (r == pid_) {
      how = " (" + describe_status(status) + ")";
      pid_ = -1;
    }
  }
  stop();
  throw EngineError("chess engine " + config_.path + ": " + what + how);
}

void UciEngine::start() {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
    throw EngineError(std::string("socketpair: ") + std::strerror(errno));
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, sv[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGTERM);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setpgroup(&attr, 0);  // own process group: Ctrl-C is cqldb's to handle
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP);
  char* argv[] = {const_cast<char*>(config_.path.c_str()), nullptr};
  pid_t pid = -1;
  int rc = ::posix_spawn(&pid, config_.path.c_str(), &actions, &attr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  ::close(sv[1]);
  if (rc != 0) {
    ::close(sv[0]);
    throw EngineError("chess engine " + config_.path + ": cannot start: " + std::strerror(rc));
  }
  pid_ = pid;
  fd_ = sv[0];
  buffer_.clear();
  chess960_ = false;
  name_.clear();

  const auto deadline = Clock::now() + std::chrono::milliseconds(config_.start_timeout_ms);
  send("uci\n");
  std::string line;
  for (;;) {
    read_line(line, deadline, "'uciok' after 'uci' in time (is it a UCI engine?)", {});
    if (starts_with_word(line, "uciok")) break;
    if (starts_with_word(line, "id")) {
      auto w = words(line);
      if (w.size() > 2 && w[1] == "name") name_ = line.substr(size_t(w[2].data() - line.data()));
    }
  }
  command_ = "setoption name Threads value 1\nsetoption name Hash value " +
             std::to_string(config_.hash_mb) + "\nisready\n";
  send(command_);
  do read_line(line, deadline, "'readyok' after 'isready' in time", {});
  while (!starts_with_word(line, "readyok"));
}

void UciEngine::send(std::string_view text) {
  while (!text.empty()) {
    ssize_t n = ::send(fd_, text.data(), text.size(), MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EPIPE || errno == ECONNRESET)) fail("the engine stopped unexpectedly");
    if (n < 0) fail(std::string("writing to the engine failed: ") + std::strerror(errno));
    text.remove_prefix(size_t(n));
  }
}

void UciEngine::read_line(std::string& line, Clock::time_point deadline, std::string_view waiting_for,
                          std::string_view fen) {
  for (;;) {
    size_t nl = buffer_.find('\n');
    if (nl != std::string::npos) {
      size_t end = nl > 0 && buffer_[nl - 1] == '\r' ? nl - 1 : nl;
      line.assign(buffer_, 0, end);
      buffer_.erase(0, nl + 1);
      return;
    }
    if ((config_.cancel && config_.cancel->load()) || (config_.abandon && config_.abandon->load())) {
      stop();
      throw EngineCancelled();
    }
    const auto now = Clock::now();
    auto at = [&] { return fen.empty() ? std::string() : " while analysing " + std::string(fen); };
    if (now >= deadline)
      fail("no " + std::string(waiting_for) + at() + "; the engine hangs and was killed");
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count();
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, int(std::min<int64_t>(left + 1, kPollSliceMs)));
    if (r < 0 && errno != EINTR) fail(std::string("poll failed: ") + std::strerror(errno));
    if (r <= 0) continue;
    char chunk[4096];
    ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n <= 0) fail("the engine stopped unexpectedly" + at());
    buffer_.append(chunk, size_t(n));
    if (buffer_.size() > (1u << 20)) fail("the engine wrote a line longer than 1 MiB");
  }
}

EngineScore UciEngine::analyse(std::string_view fen, bool chess960, cql::EngineLimit limit,
                               int64_t value, std::string* pv, int* depth) {
  if (pid_ < 0) start();
  const auto ready_deadline = Clock::now() + std::chrono::milliseconds(config_.start_timeout_ms);
  command_.clear();
  if (chess960 != chess960_) {
    command_ = chess960 ? "setoption name UCI_Chess960 value true\n" : "setoption name UCI_Chess960 value false\n";
    chess960_ = chess960;
  }
  command_ += "ucinewgame\nisready\n";
  send(command_);
  std::string line;
  do read_line(line, ready_deadline, "'readyok' after 'ucinewgame' in time", fen);
  while (!starts_with_word(line, "readyok"));

  command_ = "position fen ";
  command_ += fen;
  command_ += limit == cql::EngineLimit::Depth ? "\ngo depth " : "\ngo movetime ";
  command_ += std::to_string(value);
  command_ += '\n';
  send(command_);
  const int64_t wait_ms = limit == cql::EngineLimit::Depth ? config_.depth_timeout_ms
                                                           : value + config_.movetime_margin_ms;
  const auto deadline = Clock::now() + std::chrono::milliseconds(wait_ms);
  std::optional<EngineScore> exact, bound;
  const std::string waiting_for =
      limit == cql::EngineLimit::Depth
          ? "'bestmove' within " + std::to_string(wait_ms / 1000) + " s (CQLDB_ENGINE_TIMEOUT)"
          : "'bestmove' within the move time + " + std::to_string(config_.movetime_margin_ms) + " ms";
  for (;;) {
    read_line(line, deadline, waiting_for, fen);
    if (starts_with_word(line, "bestmove")) break;
    if (!starts_with_word(line, "info")) continue;
    auto w = words(line);
    for (size_t i = 1; i + 2 < w.size(); ++i) {
      if (w[i] != "score") continue;
      EngineScore s;
      if (w[i + 1] == "cp") s.kind = EngineScore::Kind::kCentipawns;
      else if (w[i + 1] == "mate") s.kind = EngineScore::Kind::kMate;
      else fail("unreadable score in '" + line + "'");
      int32_t v = 0;
      auto [p, ec] = std::from_chars(w[i + 2].data(), w[i + 2].data() + w[i + 2].size(), v);
      if (ec != std::errc() || p != w[i + 2].data() + w[i + 2].size())
        fail("unreadable score in '" + line + "'");
      s.value = v;
      const bool is_bound = i + 3 < w.size() && (w[i + 3] == "lowerbound" || w[i + 3] == "upperbound");
      (is_bound ? bound : exact) = s;
      if (!is_bound && (pv || depth)) {  // the line and depth of this exact score
        std::string line_moves;
        int line_depth = 0;
        for (size_t k = 1; k < w.size(); ++k) {
          if (w[k] == "depth" && k + 1 < w.size()) std::from_chars(w[k + 1].data(), w[k + 1].data() + w[k + 1].size(), line_depth);
          if (w[k] != "pv") continue;
          for (size_t m = k + 1; m < w.size(); ++m) (line_moves += line_moves.empty() ? "" : " ") += w[m];
          break;
        }
        if (pv) *pv = line_moves;
        if (depth) *depth = line_depth;
      }
      break;
    }
  }
  if (exact) return *exact;
  if (bound) return *bound;
  fail("no score before 'bestmove' for " + std::string(fen));
}

}  // namespace analysis
