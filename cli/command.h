// The table of `cqldb` commands. Each command is a row: name, one-line usage, help text and
// a handler; `cqldb help` and `cqldb COMMAND --help` are generated from the table.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace cli {

/// A command's handler: receives the arguments after the command name and returns the
/// process exit code (0 success, 1 failure, 2 usage error).
using CommandHandler = int (*)(const std::vector<std::string>& args);

/// One row of the command table.
struct Command {
  std::string_view name;   ///< as typed after `cqldb`
  std::string_view usage;  ///< argument synopsis, e.g. "--db DIR FILE..."
  std::string_view help;   ///< one paragraph shown by `cqldb help`
  CommandHandler run;      ///< the handler
};

/// All commands, in the order help lists them.
const std::vector<Command>& command_table();

/// Finds a command by name; nullptr when there is none.
const Command* find_command(std::string_view name);

/// Prints the generated overview of all commands to stdout, wrapped at 80 columns.
void print_help();

/// `cqldb help [TOPIC]`: no topic = print_help(); a command name = its usage and help; a
/// CQL keyword (`:mate`, or `mate`) = its usage, meaning, lists and example
/// (cli/cmd_help.cpp); `keywords` = all keywords by family. Returns the exit code (2 for an
/// unknown topic, with a "did you mean" suggestion).
int run_help(const std::vector<std::string>& topics);

/// `cqldb --version`: the program version and the database format versions it reads.
void print_version();

int run_import(const std::vector<std::string>& args);
/// `cqldb duplicates`: lists groups of duplicate games (issue 16, cli/cmd_duplicates.cpp).
int run_duplicates(const std::vector<std::string>& args);
int run_info(const std::vector<std::string>& args);
int run_check(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);
int run_reindex(const std::vector<std::string>& args);
int run_query(const std::vector<std::string>& args);
int run_shell(const std::vector<std::string>& args);
int run_mark(const std::vector<std::string>& args);
int run_players(const std::vector<std::string>& args);
int run_tree(const std::vector<std::string>& args);
int run_shard(const std::vector<std::string>& args);  // cli/cmd_shard.cpp (issue 38)
int run_serve(const std::vector<std::string>& args);  // cli/cmd_serve.cpp (issue 19)

}  // namespace cli
