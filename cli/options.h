// Shared option parsing for the commands (Boost.Program_options).
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

namespace cli {

/// Parses `args` against `options` (and `positional`), storing into `vm`. Adds `--help`.
/// Prints the command's usage for --help and "cqldb NAME: MESSAGE" for errors. Returns the
/// exit code when the command is done (0 after --help, 2 = kUsageError after an error),
/// nullopt when it should run: `if (auto exit = parse_options(...)) return *exit;`.
std::optional<int> parse_options(const std::string& command_name,
                                 boost::program_options::options_description& options,
                                 const boost::program_options::positional_options_description& positional,
                                 const std::vector<std::string>& args,
                                 boost::program_options::variables_map& vm);

/// Adds the options of the commands that evaluate with an engine or tablebases (query,
/// shell): --engine PATH (stored in `engine`) and --tablebases DIR[:DIR].
void add_analysis_options(boost::program_options::options_description& options, std::string& engine);

/// Configures the Gaviota tablebases (analysis/tablebase.h) from --tablebases when it was given.
void apply_analysis_options(const boost::program_options::variables_map& vm);

/// Formats n with thousands separators: 344248 -> "344,248".
std::string with_commas(uint64_t n);

}  // namespace cli
