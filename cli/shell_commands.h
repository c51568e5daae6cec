// The commands of the `cqldb shell`: a table with one row per command (name, how its
// arguments are read, handler, usage, help), the generated `help`, and the dispatcher that
// runs one command line. The same dispatcher serves `cqldb -c "A; B"`, commands piped on
// stdin and the interactive prompt (cli/shell.cpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "cli/shell_state.h"

namespace cli {

/// What a shell command did.
enum class CommandStatus {
  kOk,           ///< done
  kFailed,       ///< an error was printed; the session goes on
  kInterrupted,  ///< stopped by Ctrl-C; an interactive session goes on, a script stops
  kQuit,         ///< `quit`: end the session
};

/// How the dispatcher hands a command its arguments.
enum class ArgsKind {
  kNone,   ///< no arguments allowed
  kWords,  ///< blank-separated words; "double quotes" group blanks (cli/shell_input.h)
  kText,   ///< the rest of the line verbatim (a CQL query may span lines)
};

/// The arguments of one command: the text after the command name, and (kWords) its words.
struct CommandInput {
  std::string text;                ///< after the name, blanks trimmed
  std::vector<std::string> words;  ///< kWords only: text split into words, quotes removed
};

/// A command's handler.
using ShellHandler = CommandStatus (*)(ShellState& state, const CommandInput& input);

/// One row of the shell's command table.
struct ShellCommand {
  std::string_view name;   ///< as typed
  ArgsKind args;           ///< how the arguments are read
  ShellHandler run;        ///< the handler
  std::string_view usage;  ///< argument synopsis, e.g. "[N] [sort by date|elo|id]"
  std::string_view help;   ///< one paragraph for `help`
};

/// All shell commands, in the order `help` lists them.
const std::vector<ShellCommand>& shell_command_table();

/// Runs one command: `text` is a whole command ("list 10", "(match ...)", possibly several
/// lines). A text starting with '(' is a query, run as `find`. Errors are printed and
/// reported as kFailed; exceptions never escape. Prints the wall time when `timer` is on.
CommandStatus dispatch(ShellState& state, std::string_view text);

// Handlers, grouped by the file that holds them.
// shell_commands.cpp
CommandStatus shell_help(ShellState&, const CommandInput&);
CommandStatus shell_count(ShellState&, const CommandInput&);
CommandStatus shell_reset(ShellState&, const CommandInput&);
CommandStatus shell_info(ShellState&, const CommandInput&);
CommandStatus shell_timer(ShellState&, const CommandInput&);
CommandStatus shell_quit(ShellState&, const CommandInput&);
// shell_query.cpp
CommandStatus shell_find(ShellState&, const CommandInput&);
CommandStatus shell_refine(ShellState&, const CommandInput&);
CommandStatus shell_explain(ShellState&, const CommandInput&);
// shell_filter.cpp
CommandStatus shell_filter(ShellState&, const CommandInput&);
// shell_list.cpp
CommandStatus shell_list(ShellState&, const CommandInput&);
CommandStatus shell_stats(ShellState&, const CommandInput&);
// shell_show.cpp
CommandStatus shell_show(ShellState&, const CommandInput&);
// shell_files.cpp
CommandStatus shell_export(ShellState&, const CommandInput&);
CommandStatus shell_import(ShellState&, const CommandInput&);
CommandStatus shell_mark(ShellState&, const CommandInput&);
// shell_tree.cpp
CommandStatus shell_tree(ShellState&, const CommandInput&);

}  // namespace cli
