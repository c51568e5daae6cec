#include "cli/options.h"

#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "cli/conventions.h"
#include "analysis/tablebase.h"

namespace cli {

namespace po = boost::program_options;

std::optional<int> parse_options(const std::string& command_name, po::options_description& options,
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
      return 0;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "cqldb %s: %s (see `cqldb %s --help`)\n", command_name.c_str(), e.what(),
                 command_name.c_str());
    return kUsageError;
  }
  return std::nullopt;
}

void add_analysis_options(po::options_description& options, std::string& engine) {
  options.add_options()("engine", po::value(&engine),
                        "UCI engine for :evaluation / :moveevaluation (default: $CQLDB_ENGINE, else stockfish)")(
      "tablebases", po::value<std::string>(),
      "Gaviota tablebase directories DIR[:DIR] for :endgameevaluation (default: "
      "$CQLDB_TABLEBASES, else /usr/share/gaviotatb/gtb4)");
}

void apply_analysis_options(const po::variables_map& vm) {
  if (vm.count("tablebases")) analysis::tablebase::configure(vm["tablebases"].as<std::string>());
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
