#include "cli/options.h"

#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/conventions.h"

namespace cli {

namespace po = boost::program_options;

ParseOutcome parse_options(const std::string& command_name, po::options_description& options,
                           const po::positional_options_description& positional,
                           const std::vector<std::string>& args, po::variables_map& vm) {
  options.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(args).options(options).positional(positional).run(), vm);
    if (vm.count("help")) {
      const Command* c = find_command(command_name);
      std::cout << wrap_text("Usage: cqldb " + command_name + ' ' + std::string(c ? c->usage : ""), 0, 80)
                << '\n';
      if (c) std::cout << wrap_text(c->help, 0, 80) << '\n';
      std::cout << options << '\n';
      return ParseOutcome::kExit;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "cqldb %s: %s (see `cqldb %s --help`)\n", command_name.c_str(), e.what(),
                 command_name.c_str());
    return ParseOutcome::kFail;
  }
  return ParseOutcome::kRun;
}

std::string with_commas(uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  int count = 0;
  for (auto it = digits.rbegin(); it != digits.rend(); ++it) {
    if (count && count % 3 == 0) out.push_back(',');
    out.push_back(*it);
    ++count;
  }
  return std::string(out.rbegin(), out.rend());
}

}  // namespace cli
