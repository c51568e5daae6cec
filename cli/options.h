// Shared option parsing for the commands (Boost.Program_options).
#pragma once

#include <boost/program_options.hpp>
#include <string>
#include <vector>

namespace cli {

/// What option parsing decided.
enum class ParseOutcome {
  kRun,   ///< options are valid: run the command
  kExit,  ///< --help was printed: exit 0
  kFail,  ///< a usage error was printed: exit 2
};

/// Parses `args` against `options` (and `positional`), storing into `vm`. Adds `--help`.
/// Prints the command's usage for --help and "cqldb NAME: MESSAGE" for errors.
ParseOutcome parse_options(const std::string& command_name,
                           boost::program_options::options_description& options,
                           const boost::program_options::positional_options_description& positional,
                           const std::vector<std::string>& args,
                           boost::program_options::variables_map& vm);

/// Formats n with thousands separators: 344248 -> "344,248".
std::string with_commas(uint64_t n);

}  // namespace cli
