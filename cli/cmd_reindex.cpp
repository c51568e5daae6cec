// `cqldb reindex --db DIR [--threads N]`
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "db/game_writer.h"
#include "index/postings.h"
#include "index/reindex.h"

namespace cli {

namespace {

std::atomic<bool> g_cancel{false};

extern "C" void on_reindex_sigint(int) {
  g_cancel.store(true);
}

/// Progress on stderr: redrawn in place on a terminal, a line every 5 s otherwise.
class ReindexProgressLine {
 public:
  explicit ReindexProgressLine(bool enabled) : enabled_(enabled), tty_(isatty(STDERR_FILENO)) {}

  void update(const sig::ReindexProgress& p) {
    if (!enabled_ || (!tty_ && p.seconds - last_print_ < 5)) return;
    last_print_ = p.seconds;
    const double percent = p.total ? 100.0 * p.done / p.total : 100.0;
    std::fprintf(stderr, "%sreindex: %s / %s games (%.0f%%), %.1f s%s", tty_ ? "\r" : "",
                 with_commas(p.done).c_str(), with_commas(p.total).c_str(), percent, p.seconds,
                 tty_ ? "   " : "\n");
    drawn_ = tty_;
  }
  void finish() {
    if (drawn_) std::fprintf(stderr, "\r\033[K");
    drawn_ = false;
  }

 private:
  bool enabled_;
  bool tty_;
  bool drawn_ = false;
  double last_print_ = 0;  // not on a terminal: the first line after 5 s
};

void print_summary(const sig::ReindexSummary& s) {
  const uint32_t done = s.rewritten + s.failed;
  std::printf("%s %s of %s games in %.2f s (%s games/s)%s\n",
              s.interrupted ? "interrupted after reindexing" : "reindexed",
              with_commas(done).c_str(), with_commas(s.games).c_str(), s.seconds,
              with_commas(uint64_t(s.seconds > 0 ? done / s.seconds : 0)).c_str(),
              s.interrupted ? " (Ctrl-C)" : "");
  std::printf("  signatures %s, %.1f bytes per game, %s plies replayed\n",
              with_commas(s.rewritten).c_str(), s.rewritten ? double(s.bytes) / s.rewritten : 0.0,
              with_commas(s.plies).c_str());
  if (!s.interrupted) {
    std::printf("  posting index: %s games, %.1f MB, %.2f s\n", with_commas(s.postings.covered).c_str(),
                double(s.postings.file_bytes) / 1e6, s.postings.seconds);
    std::printf("  position index: %s games, %s entries (plies 0..%u), %.1f MB, %.2f s\n",
                with_commas(s.positions.covered).c_str(), with_commas(s.positions.entries).c_str(),
                posindex::kIndexedPlies, double(s.positions.file_bytes) / 1e6, s.positions.seconds);
  }
  if (s.upgraded)
    std::printf(s.interrupted ? "  the database still needs a complete reindex to be usable\n"
                              : "  upgraded the database to the current format\n");
  if (s.failed)
    std::printf("  %s games could not be replayed and have no signature:\n",
                with_commas(s.failed).c_str());
  for (const std::string& failure : s.first_failures) std::printf("    %s\n", failure.c_str());
}

}  // namespace

int run_reindex(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir;
  unsigned threads = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "threads", po::value(&threads)->default_value(0), "replaying threads (0 = all cores)")(
      "quiet,q", "no progress display")(
      "postings-only", "rebuild only the posting index (postings.bin) from the stored signatures")(
      "positions-only", "rebuild only the position index (positions*.bin/.seg) from the stored games");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("reindex", options, positional, args, vm)) return *exit;
  if (!require_database("reindex", db_dir)) return kUsageError;

  if (vm.count("postings-only")) {
    db::Database database = db::Database::create_or_open(db_dir);
    db::GameWriter writer = database.writer();  // the single-writer lock while the file is replaced
    const sig::PostingsUpdate u = sig::update_postings(database, /*rebuild=*/true);
    std::printf("posting index rebuilt: %s games, %.1f MB, %.2f s\n", with_commas(u.covered).c_str(),
                double(u.file_bytes) / 1e6, u.seconds);
    return 0;
  }

  if (vm.count("positions-only")) {
    db::Database database = db::Database::create_or_open(db_dir);
    db::GameWriter writer = database.writer();  // the single-writer lock while the files are replaced
    const posindex::PositionIndexUpdate u = posindex::update_position_index(database, /*rebuild=*/true, threads);
    std::printf("position index rebuilt: %s games, %s entries (plies 0..%u), %zu segment%s, %.1f MB, %.2f s\n",
                with_commas(u.covered).c_str(), with_commas(u.entries).c_str(), posindex::kIndexedPlies,
                u.segments, u.segments == 1 ? "" : "s", double(u.file_bytes) / 1e6, u.seconds);
    return 0;
  }

  sig::ReindexOptions opts;
  opts.threads = threads;
  opts.cancel = &g_cancel;
  g_cancel = false;
  auto previous = std::signal(SIGINT, on_reindex_sigint);
  ReindexProgressLine progress(!vm.count("quiet"));
  sig::ReindexSummary summary;
  try {
    summary =
        sig::reindex(db_dir, opts, [&](const sig::ReindexProgress& p) { progress.update(p); });
  } catch (...) {
    progress.finish();
    std::signal(SIGINT, previous);
    throw;
  }
  progress.finish();
  std::signal(SIGINT, previous);
  std::fflush(stderr);
  print_summary(summary);
  return summary.interrupted ? 130 : 0;
}

}  // namespace cli
