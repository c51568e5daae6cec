// The interactive `cqldb shell` in a real pseudo-terminal, driven through tmux (send-keys /
// capture-pane) as a person would: the prompt, a multi-line query, Ctrl-C at the prompt and
// during a running query (with its progress line), and the history after a restart.
// Skipped when tmux is not installed.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "db/database.h"
#include "import/importer.h"
#include "temp_dir.h"
#include "test_dependency.h"

namespace fs = std::filesystem;

namespace {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// Runs a shell command and returns its standard output.
std::string capture(const std::string& command) {
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  return out;
}

/// A private tmux server (its own socket) with one session running the shell.
class Tmux {
 public:
  explicit Tmux(std::string socket) : socket_(std::move(socket)) {}
  ~Tmux() { std::system((base() + " kill-server >/dev/null 2>&1").c_str()); }

  /// Starts session `name` running `command` in a 120x50 terminal.
  void start(const std::string& name, const std::string& command) {
    session_ = name;
    std::string cmd =
        base() + " new-session -d -s " + name + " -x 120 -y 50 " + shell_quote(command);
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
  /// tmux send-keys: literal text (-l) or key names such as Enter, C-c, Up.
  void type(const std::string& text) { send("-l " + shell_quote(text)); }
  void key(const std::string& names) { send(names); }
  /// The screen (with the scrollback), wrapped lines joined, without trailing blanks on
  /// each line and without trailing empty lines: `$` in a pattern is where the cursor is.
  std::string screen() const {
    std::string raw = capture(base() + " capture-pane -p -J -S -200 -t " + session_);
    std::string out, line;
    for (char c : raw + "\n") {
      if (c != '\n') {
        line += c;
        continue;
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + '\n';
      line.clear();
    }
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }
  /// Waits until the screen matches `pattern` (ECMAScript regex); false after `seconds`.
  bool wait_for(const std::string& pattern, double seconds = 15) const {
    std::regex re(pattern);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::regex_search(screen(), re)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

 private:
  std::string base() const { return "tmux -L " + socket_; }
  void send(const std::string& args) {
    std::system((base() + " send-keys -t " + session_ + " " + args).c_str());
  }

  std::string socket_;
  std::string session_;
};

/// Occurrences of `what` in `text`.
size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(ShellTerminalTest, PromptMultiLineCtrlCAndHistory) {
  CQLDB_REQUIRE_DEPENDENCY(std::system("tmux -V >/dev/null 2>&1") == 0, "tmux is not installed");
  const cqltest::TempDir tmp("shell-tty");
  const fs::path& dir = tmp.path;
  {
    db::Database database = db::Database::create_or_open(dir / "players");
    import::import_files(database,
                         {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"},
                         import::ImportOptions{}, nullptr);
  }
  const std::string history = (dir / "history").string();
  const std::string shell =
      "env CQLDB_HISTORY=" + shell_quote(history) + " " + shell_quote(CQLDB_BINARY) +
      " shell --db " + shell_quote((dir / "players").string()) + "; echo shell-exit-$?; sleep 600";
  Tmux tmux("cqldb-test-" + std::to_string(getpid()));

  tmux.start("first", shell);
  ASSERT_TRUE(tmux.wait_for("players\\[3,000\\]>$")) << tmux.screen();

  // A query over two lines: the continuation prompt, then the result size in the prompt.
  tmux.type("(match");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("\\n +\\.\\.\\.>$")) << tmux.screen();
  tmux.type("  (position :mate))");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("(\\d+) of 3,000 games match")) << tmux.screen();
  std::smatch m;
  std::string screen = tmux.screen();
  ASSERT_TRUE(std::regex_search(screen, m, std::regex("(\\d+) of 3,000 games match")));
  const std::string mates = m[1];
  const std::string prompt = "players\\[" + mates + "\\]>";
  ASSERT_TRUE(tmux.wait_for(prompt + "$")) << tmux.screen();

  // Ctrl-C at the prompt abandons the line; the next command runs normally.
  tmux.type("garbage typed here");
  ASSERT_TRUE(tmux.wait_for("garbage typed here$")) << tmux.screen();
  tmux.key("C-c");
  ASSERT_TRUE(tmux.wait_for("garbage typed here\\^C\\n" + prompt + "$")) << tmux.screen();
  tmux.type("count");
  tmux.key("Enter");
  ASSERT_TRUE(
      tmux.wait_for(mates + " games in the current result \\(of 3,000\\)\\n" + prompt + "$"))
      << tmux.screen();
  EXPECT_EQ(tmux.screen().find("unknown command 'garbage'"), std::string::npos);

  // Ctrl-C during a slow query: the progress line, then back at the prompt with the result
  // unchanged.
  tmux.type(
      "(match :eithercolor (position :flip :shift :shiftdiagonal :shifthorizontal "
      ":attackcount U k 9 Pa2))");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("searching: [0-9,]+ / 3,000 games, \\d+ matches")) << tmux.screen();
  tmux.key("C-c");
  ASSERT_TRUE(
      tmux.wait_for("interrupted: [0-9,]+ of 3,000 candidate games searched.*\\n" + prompt + "$"))
      << tmux.screen();

  tmux.type("quit");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("shell-exit-0")) << tmux.screen();

  // A new session finds the history: Up shows the last command, and the multi-line query
  // comes back whole and runs again.
  std::ifstream in(history);
  std::string saved((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(saved.find("(match"), std::string::npos) << saved;
  EXPECT_EQ(saved.find("garbage"), std::string::npos) << saved;  // abandoned lines are not kept
  tmux.start("second", shell);
  ASSERT_TRUE(tmux.wait_for("players\\[3,000\\]>$")) << tmux.screen();
  tmux.key("Up");
  ASSERT_TRUE(tmux.wait_for("players\\[3,000\\]> quit$")) << tmux.screen();
  // History, newest first: quit, the slow query, count, the multi-line query.
  tmux.key("Up Up Up");
  ASSERT_TRUE(tmux.wait_for("players\\[3,000\\]> \\(match\\n  \\(position :mate\\)\\)$"))
      << tmux.screen();
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for(mates + " of 3,000 games match")) << tmux.screen();
  ASSERT_TRUE(tmux.wait_for(prompt + "$")) << tmux.screen();
  EXPECT_EQ(count_of(tmux.screen(), "of 3,000 games match"), 1u);
}

}  // namespace

namespace {

// Issue 20: `help :mate` explains the keyword, `:stal<TAB>` completes to `:stalemate`, and
// `explain` plans without running the query (well under 100 ms on the sample).
TEST(ShellTerminalTest, KeywordHelpCompletionAndExplainWithoutRunning) {
  CQLDB_REQUIRE_DEPENDENCY(std::system("tmux -V >/dev/null 2>&1") == 0, "tmux is not installed");
  const cqltest::TempDir tmp("shell-tty-help");
  const fs::path& dir = tmp.path;
  {
    db::Database database = db::Database::create_or_open(dir / "players");
    import::import_files(database,
                         {std::string(CQLDB_SOURCE_DIR) + "/examples/sample/players-3000.pgn.zst"},
                         import::ImportOptions{}, nullptr);
  }
  const std::string shell = "env CQLDB_HISTORY=" + shell_quote((dir / "history").string()) + " " +
                            shell_quote(CQLDB_BINARY) + " shell --db " +
                            shell_quote((dir / "players").string()) + "; sleep 600";
  Tmux tmux("cqldb-test-help-" + std::to_string(getpid()));
  tmux.start("help", shell);
  ASSERT_TRUE(tmux.wait_for("players\\[3,000\\]>$")) << tmux.screen();

  tmux.type("help :mate");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("meaning: +the position is checkmate")) << tmux.screen();
  ASSERT_TRUE(tmux.wait_for("example: +\\(match \\(position :mate\\)\\)\\n.*players\\[3,000\\]>$")) << tmux.screen();

  tmux.type("(match (position :stal");
  tmux.key("Tab");
  ASSERT_TRUE(tmux.wait_for("\\(match \\(position :stalemate$")) << tmux.screen();
  tmux.type("))");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("of 3,000 games match")) << tmux.screen();
  ASSERT_TRUE(tmux.wait_for("players\\[\\d+\\]>$")) << tmux.screen();

  // A relation query: slow to run, instant to explain.
  tmux.type("timer on");
  tmux.key("Enter");
  tmux.type("explain (match (position :relation (:missingpiececount A 1 unlimited :originaldifferentcount 0 3)))");
  tmux.key("Enter");
  ASSERT_TRUE(tmux.wait_for("estimates \\(before reading any game\\)")) << tmux.screen();
  ASSERT_TRUE(tmux.wait_for("time: \\d+\\.\\d{3} s")) << tmux.screen();
  std::smatch m;
  const std::string screen = tmux.screen();
  ASSERT_TRUE(std::regex_search(screen, m, std::regex("time: (\\d+\\.\\d{3}) s")));
  EXPECT_LT(std::stod(m[1]), 0.1) << screen;
  EXPECT_EQ(screen.find("games replayed"), std::string::npos) << screen;
}

}  // namespace
