#include "cli/command.h"

#include <cstdio>

namespace cli {

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"import", "--db DIR FILE...",
       "Reads PGN files (plain, .gz or .zst) into the database directory DIR, creating it if "
       "needed. Games are appended with ids continuing from the last import; games with "
       "illegal or unreadable moves are rejected and recorded in the import log.",
       run_import},
      {"info", "--db DIR [--log N]",
       "Prints the number of games, rejected games, size on disk, bytes per game and format "
       "version of a database; --log N also lists the first N import-log entries.",
       run_info},
      {"export", "--db DIR [--id N | --from N --to M] [-o FILE]",
       "Writes games as PGN (with their variations, comments and NAGs) to FILE or stdout.",
       run_export},
  };
  return table;
}

const Command* find_command(std::string_view name) {
  for (const Command& c : command_table())
    if (c.name == name) return &c;
  return nullptr;
}

void print_help() {
  std::printf("cqldb - a chess game database that answers CQL queries\n\nUsage: cqldb COMMAND [OPTIONS]\n\n");
  for (const Command& c : command_table()) {
    std::printf("  cqldb %.*s %.*s\n      %.*s\n\n", int(c.name.size()), c.name.data(),
                int(c.usage.size()), c.usage.data(), int(c.help.size()), c.help.data());
  }
  std::printf("Run `cqldb COMMAND --help` for the options of one command.\n");
}

}  // namespace cli
