#include "cli/command.h"

#include <cstdio>
#include <string>

#include "cli/conventions.h"

namespace cli {

const std::vector<Command>& command_table() {
  static const std::vector<Command> table = {
      {"import", "--db DIR FILE...",
       "Reads PGN files (plain, .gz or .zst) into the database directory DIR, creating it if "
       "needed. Games are appended with ids continuing from the last import; games with "
       "illegal or unreadable moves are rejected and recorded in the import log. "
       "--skip-duplicates skips a game whose main-line moves, White, Black, Date and Result "
       "equal a stored game's (or an earlier one of the same import) and counts it. "
       "--no-position-index leaves the position index to `cqldb reindex --positions-only` "
       "or the next import. An import that stopped before a file's end (killed, Ctrl-C, disk "
       "full) is continued by running it again: the same file (path, size and start) goes on "
       "after its last committed game; --restart imports it again as new games.",
       run_import},
      {"shard", "--db DIR --shards K --out SHARDED",
       "Splits a database into K shards of equal id ranges: SHARDED holds a manifest "
       "(shards.json) and K ordinary databases. query, tree, export, info and check take "
       "SHARDED and answer as DIR does (ids stay global), running the shards in parallel; "
       "`import --db SHARDED` appends to the last shard and starts new ones (--shard-size N "
       "games each). The Python module reads it too, and cqldb.dask runs a shard per task.",
       run_shard},
      {"duplicates", "--db DIR [--format table|jsonl]",
       "Lists the groups of duplicate games (same main-line moves and start position, White, "
       "Black, Date and Result) by game id.",
       run_duplicates},
      {"info", "--db DIR [--log N]",
       "Prints the number of games, rejected games, size on disk, bytes per game and format "
       "version of a database; --log N also lists the first N import-log entries.",
       run_info},
      {"check", "--db DIR [--repair]",
       "Verifies a database: every game record reads, decodes and replays, has its headers "
       "row and a signature equal to the one the record gives; the posting index is current "
       "and readable. Lists each damaged game (id and reason) or file and exits with 1; "
       "exits with 0 after a summary of what was checked when nothing is damaged. An index "
       "behind the games (an import killed before it caught up) is a warning with the command "
       "to run; --repair first brings the indexes up to date, as the next import would.",
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
      {"query", "(--db DIR | --pgn FILE) (SCRIPT.cql | -e TEXT | --fen FEN) [--format ids|table|jsonl|pgn|html] "
                "[-o FILE] [--sort [-]date|elo|white|black|event|id] [--limit N] [--threads N] "
                "[--explain | --explain-analyze] [--no-planner] [--engine PATH]",
       "Runs a CQL script (one (match ...) list) over the database and prints the matching "
       "games: their ids, a table, JSON lines (with the matched plies) or PGN with a {MATCH} "
       "comment at each matched position, or an HTML page with a board diagram of each matched position. "
       "--fen FEN finds the games that reach that exact position (the en-passant and clock "
       "fields may be left out). --sort orders the matches (a leading - reverses: -date is "
       "newest first); --limit N keeps the first N of that order, and the summary says "
       "\"N of M matches\". A script error is reported as FILE:LINE:COLUMN "
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
      {"shell", "--db DIR [--create] [-c \"COMMAND; COMMAND\"] [--engine PATH]",
       "An interactive search session (also `cqldb --db DIR`): queries, refinements and "
       "header filters narrow a current result that can be listed, shown with a board, "
       "summarized and exported; `help` inside lists the commands. With -c (or commands on "
       "stdin) the commands run without a terminal.",
       run_shell},
      {"mark", "--db DIR --id N (--marker M [--clear] | --clear)",
       "Sets a Scid-style marker on game N (w b m e n p t k q ! ? u 1-6: white/black opening, "
       "middlegame, endgame, novelty, pawn structure, tactics, kingside, queenside, "
       "brilliancy, blunder, user, custom) or clears it (--clear without --marker clears all "
       "of the game's markers); CQL's match:hasmarker finds marked games.",
       run_mark},
      {"players", "--db DIR [PATTERN] [--limit N] | players import --db DIR FILE",
       "Lists the players of a database, merged by player key (\"Kasparov, Gary\", "
       "\"Kasparov,G\" and \"Kasparov, G.\" are one player), with game count, Elo range, "
       "first and last year and every spelling; PATTERN is a substring of a name, or with * "
       "or ? a pattern on the name or the key (\"Kasparov, G*\"). `players import` reads a "
       "player list (FIDE's TXT rating list or CSV name,fide_id,country,sex,title,birth,death) "
       "and links games to it by FIDE id tag, else by name, for :country :gender :birthyear "
       ":deathyear :title.",
       run_players},
      {"serve", "--db DIR [--host 127.0.0.1] [--port 8080] [--max-queries N] [--allow-write] [--no-engine]",
       "Serves a web page and a JSON API over the database: the opening explorer "
       "(a board to play on, the tree of its position, the games reaching it), a board that "
       "writes the query (this position, this pattern), a CQL editor with the examples and "
       "keyword help, header filters, the result list, a game viewer with the matched positions "
       "marked, an engine line (off with --no-engine), PGN export. Listens on 127.0.0.1 only "
       "unless --host says otherwise, answers only requests naming this machine, and writes "
       "nothing unless --allow-write (game markers). README \"The web interface\" lists the API.",
       run_serve},
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
    const std::string usage = "cqldb " + std::string(c.name) + " " + std::string(c.usage);
    std::fputs(wrap_text(usage, 2, 80).c_str(), stdout);
    std::fputs(wrap_text(c.help, 6, 80).c_str(), stdout);
    std::fputs("\n", stdout);
  }
  std::fputs(wrap_text("Run `cqldb COMMAND --help` for the options of one command, `cqldb help "
                       ":KEYWORD` for a CQL keyword (`cqldb help keywords` lists them), "
                       "`cqldb --version` for the version.", 0, 80).c_str(), stdout);
  std::fputs(wrap_text("The query language is CQL 1.0 with Scidb's CQL-S extensions: a script is "
                       "one (match ...) list, e.g. (match (position :mate)); docs/cql.md is the guide. "
                       "CQL 6 scripts (cql(...) mate) are read too (part of CQL 6; docs/cql6.md).", 0, 80).c_str(),
             stdout);
}

}  // namespace cli
