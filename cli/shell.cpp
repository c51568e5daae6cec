// `cqldb shell --db DIR [-c "COMMAND; COMMAND"] [--engine PATH] [--tablebases DIR[:DIR]]`
// (also `cqldb --db DIR` and `cqldb -c "..." --db DIR`): an interactive search session over
// one database.
//
// Where commands come from:
//   -c TEXT            the commands in TEXT, separated by `;` (no terminal needed)
//   stdin a terminal   the interactive prompt (cli/line_editor.h)
//   otherwise          the lines of stdin, e.g. `cqldb --db DIR < session.txt`
// All three run each command through cli::dispatch (cli/shell_commands.h).
//
// Exit codes: 0 every command succeeded, 1 some command failed (the session went on),
// 2 usage error or the database cannot be opened, 130 a script was stopped by Ctrl-C.
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/conventions.h"
#include "cli/command.h"
#include "cli/line_editor.h"
#include "cli/options.h"
#include "cli/shell_commands.h"
#include "cli/shell_input.h"
#include "cli/shell_state.h"
#include "cql/keywords.h"
#include "db/errors.h"
#include "db/schema.h"
#include "query/open_database.h"

namespace cli {

namespace {

extern "C" void on_shell_sigint(int) {
  ShellState::cancel_flag().store(true);
}

/// Installs the SIGINT handler (Ctrl-C sets the cancel flag) for the object's lifetime.
class SigintGuard {
 public:
  SigintGuard() {
    struct sigaction sa {};
    sa.sa_handler = on_shell_sigint;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &previous_);
  }
  ~SigintGuard() { sigaction(SIGINT, &previous_, nullptr); }
  SigintGuard(const SigintGuard&) = delete;
  SigintGuard& operator=(const SigintGuard&) = delete;

 private:
  struct sigaction previous_ {};
};

/// The short name shown in the prompt: the directory's last component.
std::string database_name(const std::filesystem::path& dir) {
  std::filesystem::path p = dir.lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  std::string name = p.filename().string();
  return name.empty() || name == "." ? std::filesystem::absolute(p).filename().string() : name;
}

/// Opens `dir` for reading and importing; read-only when it cannot be written. A directory
/// without a database gets a new, empty one.
db::Database open_for_shell(const std::filesystem::path& dir) {
  const bool existed = query::holds_database(dir);
  try {
    db::Database database = db::Database::create_or_open(dir);
    if (!existed) std::cerr << "created an empty database in " << dir.string() << '\n';
    return database;
  } catch (const db::FormatError&) {
    throw;
  } catch (const std::exception& e) {
    if (!existed) throw;
    std::cerr << "note: " << e.what() << "; opening " << dir.string() << " read-only\n";
    return query::open_database(dir);
  }
}

/// Runs commands that are not typed at a terminal (-c or stdin); see the exit codes above.
int run_script(ShellState& state, const std::vector<std::string>& commands, bool& failed) {
  for (const std::string& command : commands) {
    if (state.cancel()) return 130;  // Ctrl-C between two commands
    switch (dispatch(state, command)) {
      case CommandStatus::kOk:
        break;
      case CommandStatus::kFailed:
        failed = true;
        break;
      case CommandStatus::kQuit:
        return failed ? 1 : 0;
      case CommandStatus::kInterrupted:
        return 130;
    }
  }
  return -1;  // go on
}

int run_stdin(ShellState& state) {
  CommandAssembler assembler;
  bool failed = false;
  std::string line;
  for (;;) {
    const bool more = static_cast<bool>(std::getline(std::cin, line));
    if (more) assembler.add_line(line);
    if (more && assembler.needs_more()) continue;
    if (int code = run_script(state, assembler.take_commands(), failed); code >= 0) return code;
    if (!more) return failed ? 1 : 0;
  }
}

/// The prompt: "players[1,234]> " (the number of games in scope), or the continuation
/// prompt of the same width while a query is open.
std::string prompt_for(const ShellState& state, bool continuation) {
  std::string prompt = state.name() + "[" + with_commas(state.result_size()) + "]> ";
  if (!continuation) return prompt;
  size_t width = 0;
  for (char c : prompt) width += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return std::string(width > 5 ? width - 5 : 0, ' ') + "...> ";
}

/// Tab completion: CQL keywords for a word starting with ':' or '!:' (anywhere, also after
/// `help`); command names for the first word; file names after the commands that take files
/// (find, refine, explain, import, export) unless a query is being typed.
std::vector<std::string> complete(std::string_view before_cursor) {
  std::vector<std::string> out;
  const size_t blank = before_cursor.find_last_of(" \t\n(");
  const std::string word(before_cursor.substr(blank == std::string_view::npos ? 0 : blank + 1));
  if (word.rfind(":", 0) == 0 || word.rfind("!:", 0) == 0) {
    const size_t colon = word.find(':');
    const std::string_view prefix = std::string_view(word).substr(colon + 1);
    for (const cql::KeywordInfo& k : cql::all_keywords())
      if (k.name.substr(0, prefix.size()) == prefix)
        out.push_back(word.substr(0, colon + 1) + std::string(k.name));
    std::sort(out.begin(), out.end());
    return out;
  }
  if (blank == std::string_view::npos) {
    for (const ShellCommand& c : shell_command_table())
      if (c.name.substr(0, word.size()) == word) out.emplace_back(c.name);
    return out;
  }
  const std::string_view first = before_cursor.substr(0, before_cursor.find_first_of(" \t"));
  const bool takes_files = first == "find" || first == "refine" || first == "explain" ||
                           first == "import" || first == "export";
  if (!takes_files || before_cursor.find('(') != std::string_view::npos) return out;
  const size_t slash = word.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : word.substr(0, slash + 1);
  const std::string prefix = word.substr(dir.size());
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir.empty() ? "." : dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    if (name.front() == '.' && (prefix.empty() || prefix.front() != '.')) continue;
    out.push_back(dir + name + (entry.is_directory(ec) ? "/" : ""));
  }
  std::sort(out.begin(), out.end());
  return out;
}

int run_interactive(ShellState& state) {
  LineEditor editor("cqldb", LineEditor::default_history_file());
  editor.set_completer(complete);
  CommandAssembler assembler;
  std::string entry, line;
  state.out() << "cqldb shell on " << state.database().path().string() << " ("
              << with_commas(state.game_count()) << " games). Type `help` for the commands, "
              << "`quit` or Ctrl-D to leave.\n";
  for (;;) {
    state.out().flush();
    switch (editor.read_line(prompt_for(state, !assembler.empty()), line)) {
      case LineEditor::Status::kEof:
        state.out() << '\n';
        return 0;
      case LineEditor::Status::kInterrupted:
        assembler.clear();
        entry.clear();
        continue;
      case LineEditor::Status::kLine:
        break;
    }
    assembler.add_line(line);
    entry += (entry.empty() ? "" : "\n") + line;
    if (assembler.needs_more()) continue;
    if (!trim(entry).empty()) editor.add_history(entry);
    entry.clear();
    for (const std::string& command : assembler.take_commands()) {
      CommandStatus status = dispatch(state, command);
      if (status == CommandStatus::kQuit) return 0;
      // Ctrl-C skips the rest of the line, also when the command itself could not stop.
      if (status == CommandStatus::kInterrupted || state.cancel()) break;
    }
    state.cancel() = false;  // a Ctrl-C that came after the command finished
  }
}

}  // namespace

int run_shell(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, commands, engine;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "command,c", po::value(&commands), "run these `;`-separated commands and exit")(
      "create", "create an empty database in DIR when it holds none (then `import FILE`)");
  add_analysis_options(options, engine);
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("shell", options, positional, args, vm)) return *exit;
  const bool terminal = !vm.count("command") && isatty(STDIN_FILENO);
  if (!vm.count("create") && !require_database("shell", db_dir)) return kUsageError;
  std::optional<db::Database> database;
  try {
    database.emplace(open_for_shell(db_dir));
  } catch (const std::exception& e) {
    std::cerr << "cqldb shell: cannot open " << db_dir << ": " << e.what() << '\n';
    return 2;
  }
  ShellState state(std::move(*database), database_name(db_dir), terminal, std::cout, std::cerr);
  state.engine = engine;
  apply_analysis_options(vm);
  SigintGuard sigint;
  if (vm.count("command")) {
    bool failed = false;
    int code = run_script(state, split_commands(commands), failed);
    return code >= 0 ? code : failed ? 1 : 0;
  }
  return terminal ? run_interactive(state) : run_stdin(state);
}

}  // namespace cli
