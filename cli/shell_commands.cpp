// The shell's command table, its generated help, the dispatcher, and the small commands
// (count, reset, info, timer, help, quit).
#include "cli/shell_commands.h"

#include <chrono>
#include <cstdio>
#include <exception>

#include "cli/conventions.h"
#include "cli/keyword_help_text.h"
#include "cli/options.h"
#include "cql/keyword_help.h"
#include "headers/filter_terms.h"
#include "cli/shell_input.h"

namespace cli {

const std::vector<ShellCommand>& shell_command_table() {
  static const std::vector<ShellCommand> table = {
      {"find", ArgsKind::kText, shell_find, "(match ...) | SCRIPT.cql",
       "Runs a CQL query over all games; the matching games become the current result. A "
       "line that starts with '(' is run as `find`, and may continue over several lines "
       "until its parentheses balance. Ctrl-C cancels the search."},
      {"refine", ArgsKind::kText, shell_refine, "(match ...) | SCRIPT.cql",
       "Runs a CQL query on the games of the current result only; the matches become the "
       "new current result."},
      {"filter", ArgsKind::kWords, shell_filter, "KEY=VALUE...",
       "Keeps the games of the current result whose headers satisfy every condition (see "
       "`help filter` for the keys). Values are bound as SQL parameters; quote values with "
       "blanks: player=\"van Wely\"."},
      {"reset", ArgsKind::kNone, shell_reset, "",
       "Forgets the current result: every game is in scope again."},
      {"count", ArgsKind::kNone, shell_count, "", "Prints the number of games in scope."},
      {"list", ArgsKind::kWords, shell_list, "[N|all] [sort by date|elo|white|black|event|id]",
       "Lists the first N (default 20) games of the current result: id, White, Black, Elo "
       "(white/black), result, date, event and the first matched ply. `sort by date` is "
       "oldest first, `sort by elo` strongest first (average of both Elos), names A-Z; a "
       "leading - reverses (`sort by -date`: newest first), as `cqldb query --sort`."},
      {"show", ArgsKind::kWords, shell_show, "ID [PLY | PLYPATH] [--svg FILE [--flip]]",
       "Shows game ID: its header, its main-line moves with the matched positions in "
       "[brackets], and a board diagram after PLY plies (default: the first matched "
       "position, else the final one; 0 = the start position), or at PLYPATH inside a "
       "variation as jsonl prints it (31.1.2 = the 1st variation of the main-line move from "
       "ply 31, after its 2nd move). --svg FILE also writes that "
       "board as an SVG picture (--flip: Black at the bottom)."},
      {"tree", ArgsKind::kWords, shell_tree, "[MOVE...|back|start|fen FEN]",
       "The opening tree of the games in scope: each move played from the tree position with "
       "its games, White/draw/Black %, White's score, average Elo and performance of the "
       "movers, years and best game. `tree e4 c5` steps in by SAN moves, `tree back` takes "
       "the last move back, `tree start` returns to the start position. Transpositions count."},
      {"stats", ArgsKind::kNone, shell_stats, "",
       "Summarizes the current result: results, Elo and years (by decade)."},
      {"export", ArgsKind::kWords, shell_export, "FILE.pgn",
       "Writes the current result as PGN, with a {MATCH} comment at each matched position."},
      {"explain", ArgsKind::kText, shell_explain, "[analyze] (match ...) | SCRIPT.cql",
       "Shows how a query would run without running it: the query as parsed (canonical "
       "form), the SQL of its header conditions with the bound values, the planner's "
       "conditions and the candidate games the posting index and the headers leave. "
       "`explain analyze` also runs it and prints the figures of each stage."},
      {"mark", ArgsKind::kWords, shell_mark, "ID MARKER | ID -MARKER | ID clear",
       "Sets a Scid-style marker on game ID (w b m e n p t k q ! ? u 1-6), removes one "
       "(-MARKER) or all (clear); match:hasmarker finds marked games (as `cqldb mark`)."},
      {"import", ArgsKind::kWords, shell_import, "FILE...",
       "Reads PGN files (plain, .gz or .zst) into the database, with a progress bar. Ctrl-C "
       "stops after the current batch; the games read so far are kept."},
      {"info", ArgsKind::kNone, shell_info, "",
       "Prints the database's figures and how the current result was made."},
      {"timer", ArgsKind::kWords, shell_timer, "on|off",
       "Prints the wall time of each command (on) or not (off)."},
      {"help", ArgsKind::kWords, shell_help, "[COMMAND | :KEYWORD | keywords]",
       "Lists the commands, or explains one command or CQL keyword; `help keywords` lists the "
       "keywords by family."},
      {"quit", ArgsKind::kNone, shell_quit, "", "Ends the session (also `exit` or Ctrl-D)."},
  };
  return table;
}

namespace {

const ShellCommand* find_shell_command(std::string_view name) {
  if (name == "exit") name = "quit";
  for (const ShellCommand& c : shell_command_table())
    if (c.name == name) return &c;
  return nullptr;
}

void print_usage(std::ostream& out, const ShellCommand& c) {
  out << "usage: " << c.name << (c.usage.empty() ? "" : " ") << c.usage << '\n';
}

/// `text` wrapped at `width` columns, each line starting with `indent` blanks.
std::string wrap(std::string_view text, size_t indent, size_t width = 78) {
  std::string out, line(indent, ' ');
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find(' ', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view word = text.substr(pos, end - pos);
    if (line.size() > indent && line.size() + 1 + word.size() > width) {
      out += line + '\n';
      line.assign(indent, ' ');
    }
    if (line.size() > indent) line += ' ';
    line += word;
    pos = end + 1;
  }
  return out + line + '\n';
}

CommandStatus run_command(ShellState& state, const ShellCommand& command, std::string_view rest) {
  CommandInput input;
  input.text = std::string(trim(rest));
  switch (command.args) {
    case ArgsKind::kNone:
      if (!input.text.empty()) {
        state.err() << command.name << ": takes no arguments\n";
        print_usage(state.err(), command);
        return CommandStatus::kFailed;
      }
      break;
    case ArgsKind::kWords: {
      std::string error;
      if (!split_words(input.text, input.words, error)) {
        state.err() << command.name << ": " << error << '\n';
        return CommandStatus::kFailed;
      }
      break;
    }
    case ArgsKind::kText:
      break;
  }
  return command.run(state, input);
}

}  // namespace

CommandStatus dispatch(ShellState& state, std::string_view text) {
  text = trim(text);
  if (text.empty()) return CommandStatus::kOk;
  const auto start = std::chrono::steady_clock::now();
  state.cancel() = false;          // from here on a Ctrl-C stops this command
  const bool timed = state.timer;  // `timer on` itself is not timed
  CommandStatus status = CommandStatus::kFailed;
  try {
    if (text.front() == '(') {
      status = run_command(state, *find_shell_command("find"), text);
    } else {
      size_t end = 0;
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\n') ++end;
      std::string_view name = text.substr(0, end);
      const ShellCommand* command = find_shell_command(name);
      if (!command) {
        state.err() << "unknown command '" << name << "' (type `help` for the commands";
        if (name.front() == ':') state.err() << "; a query is written (match ...)";
        state.err() << ")\n";
        return CommandStatus::kFailed;
      }
      status = run_command(state, *command, text.substr(end));
    }
  } catch (const std::exception& e) {
    state.err() << "error: " << e.what() << '\n';
    status = CommandStatus::kFailed;
  }
  state.out().flush();  // a program driving the shell through a pipe sees each answer
  if (timed && state.timer && status != CommandStatus::kQuit) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    char buf[64];
    std::snprintf(buf, sizeof buf, "time: %.3f s\n", seconds);
    state.err() << buf;
  }
  return status;
}

CommandStatus shell_help(ShellState& state, const CommandInput& input) {
  std::ostream& out = state.out();
  if (input.words.size() > 1) {
    state.err() << "help: give at most one command name\n";
    return CommandStatus::kFailed;
  }
  if (input.words.size() == 1) {
    const std::string& topic = input.words[0];
    const ShellCommand* c = find_shell_command(topic);
    if (!c && topic == "keywords") {
      out << keyword_list_text(80);
      return CommandStatus::kOk;
    }
    if (!c && (topic[0] == ':' || topic[0] == '!' || cql::find_keyword(topic))) {
      std::string text, error;
      if (!keyword_help_text(topic, 80, false, text, error)) {
        state.err() << "help: " << error << '\n';
        return CommandStatus::kFailed;
      }
      out << text;
      return CommandStatus::kOk;
    }
    if (!c) {
      state.err() << "help: no command '" << topic << "'" << cql::did_you_mean(topic)
                  << " (`help` lists the commands, `help keywords` the CQL keywords)\n";
      return CommandStatus::kFailed;
    }
    print_usage(out, *c);
    out << wrap(c->help, 2);
    if (c->name == "filter") out << headers::filter_key_help();
    return CommandStatus::kOk;
  }
  out << "Commands (a line starting with '(' runs a query; `;` separates commands):\n";
  for (const ShellCommand& c : shell_command_table()) {
    std::string head =
        "  " + std::string(c.name) + (c.usage.empty() ? "" : " ") + std::string(c.usage);
    out << head << '\n' << wrap(c.help, 6);
  }
  out << "Ctrl-C cancels a running command or clears the input line; Ctrl-D ends the\n"
         "session. `help :KEYWORD` explains a CQL keyword, `help keywords` lists them.\n";
  return CommandStatus::kOk;
}

CommandStatus shell_count(ShellState& state, const CommandInput&) {
  state.refresh_game_count();
  state.out() << with_commas(state.result_size()) << " game"
              << (state.result_size() == 1 ? "" : "s");
  if (!state.result().all)
    state.out() << " in the current result (of " << with_commas(state.game_count()) << ")";
  state.out() << '\n';
  return CommandStatus::kOk;
}

CommandStatus shell_reset(ShellState& state, const CommandInput&) {
  state.reset_result();
  state.refresh_game_count();
  state.out() << "current result cleared: all " << with_commas(state.game_count())
              << " games are in scope\n";
  return CommandStatus::kOk;
}

CommandStatus shell_info(ShellState& state, const CommandInput&) {
  db::DatabaseInfo info = state.database().info();
  state.refresh_game_count();
  std::ostream& out = state.out();
  const DatabaseSize disk = database_size(state.database().path(), info.games_bytes, info.headers_bytes);
  char size[64];
  std::snprintf(size, sizeof size, "%s (%.1f bytes per game)", human_bytes(disk.total()).c_str(),
                info.games ? double(disk.total()) / info.games : 0.0);
  out << "database:   " << state.database().path().string()
      << (state.database().read_only() ? " (read-only)" : "") << '\n'
      << "games:      " << with_commas(info.games) << " (" << with_commas(info.rejected)
      << " rejected at import; " << with_commas(info.files) << " file"
      << (info.files == 1 ? "" : "s") << " imported)\n"
      << "size:       " << size << '\n';
  if (state.result().all) {
    out << "in scope:   all games\n";
  } else {
    out << "in scope:   " << with_commas(state.result_size()) << " games, from\n";
    for (const std::string& step : state.result().steps) out << "              " << step << '\n';
  }
  out << "timer:      " << (state.timer ? "on" : "off") << '\n';
  return CommandStatus::kOk;
}

CommandStatus shell_timer(ShellState& state, const CommandInput& input) {
  if (input.words.size() == 1 && (input.words[0] == "on" || input.words[0] == "off")) {
    state.timer = input.words[0] == "on";
    state.out() << "timer " << input.words[0] << '\n';
    return CommandStatus::kOk;
  }
  if (input.words.empty()) {
    state.out() << "timer " << (state.timer ? "on" : "off") << '\n';
    return CommandStatus::kOk;
  }
  print_usage(state.err(), *find_shell_command("timer"));
  return CommandStatus::kFailed;
}

CommandStatus shell_quit(ShellState&, const CommandInput&) {
  return CommandStatus::kQuit;
}

}  // namespace cli
