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
      {"check", "--db DIR",
       "Verifies a database: every game record reads, decodes and replays, has its headers "
       "row and a signature equal to the one the record gives; the posting index is current "
       "and readable. Lists each damaged game (id and reason) or file and exits with 1; "
       "exits with 0 after a summary of what was checked when nothing is damaged.",
       run_check},
      {"export", "--db DIR [--id N | --from N --to M] [-o FILE]",
       "Writes games as PGN (with their variations, comments and NAGs) to FILE or stdout.",
       run_export},
      {"reindex", "--db DIR [--threads N] [--postings-only | --positions-only]",
       "Recomputes the signature of every game (the per-game summary the query planner uses "
       "to skip games) and replaces the stored ones, in parallel. Needed after an upgrade of "
       "cqldb that changed the signature format, and to upgrade a database of format version "
       "1; Ctrl-C stops it (run it again to finish). It then rebuilds the posting index "
       "(postings.bin: per piece-square, material and flag fact the games that have it); "
       "--postings-only rebuilds just that. Last it rebuilds the position index (each game's "
       "positions at plies 0..40 with the move played, for --fen, :fen and `tree`); "
       "--positions-only rebuilds just that.",
       run_reindex},
      {"query", "--db DIR (SCRIPT.cql | -e TEXT) [--format ids|table|jsonl|pgn] [-o FILE] "
                "[--limit N] [--threads N] [--explain] [--no-planner] [--engine PATH]",
       "Runs a CQL script (one (match ...) list) over the database and prints the matching "
       "games: their ids, a table, JSON lines (with the matched plies) or PGN with a {MATCH} "
       "comment at each matched position. A script error is reported as FILE:LINE:COLUMN "
       "with exit code 2; Ctrl-C stops the search and prints what was found. :evaluation and "
       ":moveevaluation run a UCI engine (--engine, $CQLDB_ENGINE, default stockfish) and "
       "cache its results in DIR/analysis-cache.sqlite.",
       run_query},
      {"tree", "--db DIR [--fen FEN | --moves \"1.e4 c5 2.Nf3\"] [--format table|jsonl] "
               "[--player NAME] [--year Y[..Y]] [--elo N] [--filter TERM]",
       "The opening tree of a position: each move played from it with its number of games, "
       "White wins / draws / Black wins, White's score, the average Elo and performance of the "
       "players who chose it, first and last year and the highest-rated game; jsonl in the "
       "shape of lichess's opening explorer. Transpositions count. Header filters restrict "
       "the games. Uses the position index (built by import and reindex).",
       run_tree},
      {"shell", "--db DIR [-c \"COMMAND; COMMAND\"] [--engine PATH]",
       "An interactive search session (also `cqldb --db DIR`): queries, refinements and "
       "header filters narrow a current result that can be listed, shown with a board, "
       "summarized and exported; `help` inside lists the commands. With -c (or commands on "
       "stdin) the commands run without a terminal.",
       run_shell},
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
