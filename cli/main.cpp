// `cqldb`: the command-line entry point. Dispatches to the command table (cli/command.h).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "cli/command.h"

int main(int argc, char** argv) {
  if (argc < 2) {
    cli::print_help();
    return 2;
  }
  std::string name = argv[1];
  if (name == "help" || name == "--help" || name == "-h")
    return cli::run_help(std::vector<std::string>(argv + 2, argv + argc));
  if (name == "--version" || name == "version") {
    cli::print_version();
    return 0;
  }
  // `cqldb --db DIR` and `cqldb -c "COMMAND; COMMAND" --db DIR` run the shell; its
  // arguments then start at argv[1].
  int first_arg = 2;
  if (name == "--db" || name.rfind("--db=", 0) == 0 || name == "-c" || name == "--command") {
    name = "shell";
    first_arg = 1;
  }
  const cli::Command* command = cli::find_command(name);
  if (!command) {
    std::fprintf(stderr, "cqldb: unknown command '%s' (try `cqldb help`)\n", name.c_str());
    if (!name.empty() && (name[0] == ':' || name[0] == '(' || name.rfind("cql", 0) == 0))
      std::fprintf(stderr, "a query runs as `cqldb query --db DIR -e '(match ...)'`; "
                           "`cqldb help keywords` lists the CQL keywords\n");
    return 2;
  }
  std::vector<std::string> args(argv + first_arg, argv + argc);
  try {
    return command->run(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cqldb %s: error: %s\n", name.c_str(), e.what());
    return 1;
  }
}
