// The shell's `filter KEY=VALUE...` command: narrows the current result by header fields.
// The terms are compiled by headers/filter_terms.h and run by the header store.
#include <algorithm>
#include <cctype>

#include "cli/options.h"
#include "cli/shell_commands.h"
#include "cli/shell_input.h"
#include "headers/filter_terms.h"
#include "headers/header_store.h"

namespace cli {

CommandStatus shell_filter(ShellState& state, const CommandInput& input) {
  if (input.words.empty()) {
    state.out() << "usage: filter KEY=VALUE...\n" << headers::filter_key_help();
    return CommandStatus::kOk;
  }
  // Glue `elo >= 2500` and `elo>= 2500` back into one term.
  std::vector<std::string> terms;
  for (const std::string& word : input.words) {
    bool glue = false;
    if (!terms.empty() && !terms.back().empty() && !word.empty()) {
      const std::string& last = terms.back();
      bool key_only =
          std::all_of(last.begin(), last.end(), [](unsigned char ch) { return std::isalpha(ch); });
      bool ends_in_op = std::string_view("=~<>").find(last.back()) != std::string_view::npos;
      bool starts_with_op = std::string_view("=~<>").find(word.front()) != std::string_view::npos;
      glue = (key_only && starts_with_op) || ends_in_op;
    }
    if (glue)
      terms.back() += word;
    else
      terms.push_back(word);
  }
  std::string error;
  std::optional<headers::HeaderFilter> filter = headers::compile_filter_terms(terms, error);
  if (!filter) {
    state.err() << "filter: " << error << '\n';
    return CommandStatus::kFailed;
  }
  state.refresh_game_count();
  std::vector<uint32_t> passing = state.header_store().candidates(*filter, state.game_count());
  const uint64_t before = state.result_size();
  std::vector<eval::GameMatch> kept;
  if (state.result().all) {
    kept.reserve(passing.size());
    for (uint32_t id : passing) kept.push_back({id, {}, {}});
  } else {
    for (const eval::GameMatch& m : state.result().games)
      if (std::binary_search(passing.begin(), passing.end(), m.id)) kept.push_back(m);
  }
  state.set_result(std::move(kept), "filter " + one_line(input.text), true);
  state.out() << with_commas(state.result_size()) << " of " << with_commas(before)
              << " games pass the filter\n";
  return CommandStatus::kOk;
}

}  // namespace cli
