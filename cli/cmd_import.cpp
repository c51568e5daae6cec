// `cqldb import --db DIR FILE...`
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/options.h"
#include "query/sharded.h"
#include "cli/progress_bar.h"
#include "db/database.h"
#include "import/importer.h"

namespace cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void on_sigint(int) { g_cancel.store(true); }

void print_summary(const import::ImportSummary& s, size_t files) {
  for (const import::ResumedFile& r : s.resumed)
    std::printf("continued %s after game %s: an earlier import of it stopped there (%s games stored); "
                "--restart imports the file again as new games\n",
                r.path.c_str(), with_commas(r.after_game).c_str(), with_commas(r.games_before).c_str());
  double rate = s.seconds > 0 ? double(s.games_read) / s.seconds : 0;
  std::printf("%s %s game%s from %zu file%s in %.2f s (%s games/s)%s\n",
              s.interrupted ? "interrupted after reading" : "read",
              with_commas(s.games_read).c_str(), s.games_read == 1 ? "" : "s", files,
              files == 1 ? "" : "s", s.seconds,
              with_commas(uint64_t(rate)).c_str(), s.interrupted ? " (Ctrl-C)" : "");
  std::printf("  imported %s, rejected %s, warnings %s\n", with_commas(s.imported).c_str(),
              with_commas(s.rejected).c_str(), with_commas(s.warnings).c_str());
  if (s.skipped_duplicates)
    std::printf("  skipped duplicates %s\n", with_commas(s.skipped_duplicates).c_str());
  if (s.imported)
    std::printf("  game ids %u..%u, %s plies\n", s.first_id, s.last_id,
                with_commas(s.plies).c_str());
  if (s.positions.added)
    std::printf("  position index: %s games added in %.2f s (%s entries)\n",
                with_commas(s.positions.added).c_str(), s.positions.seconds,
                with_commas(s.positions.entries).c_str());
  const import::AnnotationCounts& a = s.annotations;
  if (a.clocks || a.evals)
    std::printf("  clocks %s (%s games), evaluations %s (%s games)\n",
                with_commas(a.clocks).c_str(), with_commas(s.games_with_clocks).c_str(),
                with_commas(a.evals).c_str(), with_commas(s.games_with_evals).c_str());
  std::string dropped;
  auto drop = [&](uint64_t n, const char* what) {
    if (!n) return;
    dropped += (dropped.empty() ? "" : ", ") + with_commas(n) + " " + what;
  };
  drop(a.dropped_comments, "comments");
  drop(a.dropped_clocks, "clocks");
  drop(a.dropped_evals, "evaluations");
  drop(a.dropped_variations, "variations");
  drop(a.dropped_nags, "NAGs");
  if (!dropped.empty()) std::printf("  dropped: %s\n", dropped.c_str());
  for (const auto& [reason, count] : s.reasons)
    std::printf("  rejected: %s x %s\n", with_commas(count).c_str(), reason.c_str());
  for (const auto& [reason, count] : s.repairs)
    std::printf("  repaired: %s x %s\n", with_commas(count).c_str(), reason.c_str());
  for (const auto& [reason, count] : s.warning_reasons) {
    if (!s.repairs.count(reason))
      std::printf("  warning: %s x %s\n", with_commas(count).c_str(), reason.c_str());
  }
  for (const import::Rejection& r : s.first_rejections)
    std::printf("  %s game %u line %u: %s\n", r.file == "-" ? "standard input" : r.file.c_str(),
                r.ordinal, r.line, r.reason.c_str());
  if (s.rejected > s.first_rejections.size())
    std::printf("  (all rejections are listed by `cqldb info --db DIR --log N`)\n");
}

}  // namespace

int run_import(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir;
  std::vector<std::string> files;
  unsigned workers = 0;
  uint64_t shard_size = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "file", po::value(&files)->required(), "PGN files (plain, .gz, .zst)")(
      "workers", po::value(&workers)->default_value(0), "parsing threads (0 = all cores)")(
      "shard-size", po::value(&shard_size)->default_value(0),
      "make DIR a sharded database (or append to one) whose shards hold N games each; the "
      "files are imported into a staging database first, then spread over the shards")(
      "quiet,q", "no progress display")(
      "no-comments", "drop comments (with their clocks and evaluations)")(
      "no-clocks", "drop [%clk] and [%emt] clock times")(
      "no-evals", "drop [%eval] engine evaluations")(
      "no-variations", "drop variations")(
      "no-nags", "drop NAGs ($1, !?, ...)")(
      "restart",
      "import every file from its first game, even one whose earlier import stopped before "
      "its end (by default such an import is continued after its last committed game)")(
      "skip-duplicates",
      "skip games whose moves, White, Black, Date and Result equal a stored game's")(
      "no-position-index",
      "leave the position index as it is (`cqldb reindex --positions-only` or the next import "
      "brings it up to date; until then --fen and :fen replay the games it lacks)");
  po::positional_options_description positional;
  positional.add("file", -1);
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("import", options, positional, args, vm)) return *exit;

  import::ImportOptions opts;
  opts.workers = workers;
  opts.filter.comments = !vm.count("no-comments");
  opts.filter.clocks = !vm.count("no-clocks");
  opts.filter.evals = !vm.count("no-evals");
  opts.filter.variations = !vm.count("no-variations");
  opts.filter.nags = !vm.count("no-nags");
  opts.skip_duplicates = vm.count("skip-duplicates") > 0;
  opts.position_index = !vm.count("no-position-index");
  opts.restart = vm.count("restart") > 0;
  opts.cancel = &g_cancel;
  g_cancel = false;
  auto previous = std::signal(SIGINT, on_sigint);
  ProgressBar bar(!vm.count("quiet"));
  import::ImportSummary summary;
  try {
    summary = query::import_into(db_dir, files, opts, [&](const import::ImportProgress& p) { bar.update(p); },
                                 shard_size);
  } catch (...) {
    bar.finish();
    std::signal(SIGINT, previous);
    throw;
  }
  bar.finish();
  std::signal(SIGINT, previous);
  std::fflush(stderr);
  print_summary(summary, files.size());
  if (!opts.position_index)
    std::printf("  position index: not updated (--no-position-index); `cqldb reindex --db %s "
                "--positions-only` brings it up to date\n", db_dir.c_str());
  return summary.interrupted ? 130 : 0;
}

}  // namespace cli
