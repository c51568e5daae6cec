// The shell's file commands: `export FILE.pgn` (the current result as PGN with {MATCH}
// comments) and `import FILE...` (PGN into the session's database, with a progress bar).
#include <cstdio>
#include <fstream>

#include "cli/options.h"
#include "cli/progress_bar.h"
#include "cli/shell_commands.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "import/importer.h"

namespace cli {

CommandStatus shell_export(ShellState& state, const CommandInput& input) {
  if (input.words.size() != 1) {
    state.err() << "usage: export FILE.pgn\n";
    return CommandStatus::kFailed;
  }
  const std::string& path = input.words[0];
  std::ofstream file(path, std::ios::binary);
  if (!file) {
    state.err() << "export: cannot write " << path << '\n';
    return CommandStatus::kFailed;
  }
  state.refresh_game_count();
  const std::vector<uint32_t> ids = state.result_ids();
  uint64_t written = 0;
  {
    db::GameReader reader = state.database().reader();
    db::GameHeader header;
    std::string text;
    for (uint32_t id : ids) {
      if (state.cancel()) break;
      db::RecordView record;
      if (!reader.read_header(id, header) || !reader.record_view(id, record))
        throw std::out_of_range("no game " + std::to_string(id));
      db::PgnWriteOptions options;
      if (const eval::GameMatch* m = state.find_match(id)) {
        options.match_plies = m->plies;
        options.match_variation_plies = m->variation_plies;
      }
      text.clear();
      db::write_pgn(header, record, text, options);
      file.write(text.data(), std::streamsize(text.size()));
      ++written;
    }
  }
  file.flush();
  if (!file) {
    state.err() << "export: writing " << path << " failed\n";
    return CommandStatus::kFailed;
  }
  if (state.cancel()) {
    state.err() << "export interrupted: " << with_commas(written) << " of "
                << with_commas(ids.size()) << " games written to " << path << '\n';
    return CommandStatus::kInterrupted;
  }
  state.out() << "exported " << with_commas(written) << " game" << (written == 1 ? "" : "s")
              << " to " << path << '\n';
  return CommandStatus::kOk;
}

CommandStatus shell_import(ShellState& state, const CommandInput& input) {
  if (input.words.empty()) {
    state.err() << "usage: import FILE...\n";
    return CommandStatus::kFailed;
  }
  if (state.database().read_only()) {
    state.err() << "import: the database is open read-only\n";
    return CommandStatus::kFailed;
  }
  import::ImportOptions options;
  options.cancel = &state.cancel();
  ProgressBar bar(true);
  import::ImportSummary s;
  try {
    s = import::import_files(state.database(), input.words, options,
                             [&](const import::ImportProgress& p) { bar.update(p); });
  } catch (...) {
    bar.finish();
    state.refresh_game_count();
    throw;
  }
  bar.finish();
  state.refresh_game_count();  // readers opened from now on see the new games
  char line[160];
  std::snprintf(line, sizeof line, "%s %s games in %.2f s: imported %s, rejected %s",
                s.interrupted ? "interrupted after reading" : "read",
                with_commas(s.games_read).c_str(), s.seconds, with_commas(s.imported).c_str(),
                with_commas(s.rejected).c_str());
  std::ostream& out = state.out();
  out << line;
  if (s.imported) out << " (ids " << s.first_id << ".." << s.last_id << ")";
  out << '\n';
  for (const auto& [reason, count] : s.reasons)
    out << "  rejected: " << with_commas(count) << " x " << reason << '\n';
  for (const import::Rejection& r : s.first_rejections)
    out << "  " << r.file << " game " << r.ordinal << " line " << r.line << ": " << r.reason
        << '\n';
  out << "the database now has " << with_commas(state.game_count()) << " games";
  if (!state.result().all) out << "; the current result is unchanged (`reset` to search them all)";
  out << '\n';
  return s.interrupted ? CommandStatus::kInterrupted : CommandStatus::kOk;
}

}  // namespace cli
