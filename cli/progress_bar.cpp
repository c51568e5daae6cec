#include "cli/progress_bar.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/options.h"

namespace cli {

namespace {

/// `n` bytes as "12.3 MB" (decimal units, like the PGN MB/s of the benchmarks).
std::string bytes_text(uint64_t n) {
  char buf[32];
  if (n >= 1000000000) std::snprintf(buf, sizeof buf, "%.2f GB", double(n) / 1e9);
  else if (n >= 1000000) std::snprintf(buf, sizeof buf, "%.1f MB", double(n) / 1e6);
  else std::snprintf(buf, sizeof buf, "%.1f kB", double(n) / 1e3);
  return buf;
}

}  // namespace

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0) {
  if (!tty_) last_print_ = 0;  // the first plain line after 5 s
}

void ProgressBar::update(const import::ImportProgress& p) {
  if (!enabled_) return;
  double interval = tty_ ? 0.1 : 5.0;
  if (last_print_ >= 0 && p.seconds - last_print_ < interval) return;
  last_print_ = p.seconds;
  double fraction =
      p.file_bytes_total ? double(p.file_bytes_done) / double(p.file_bytes_total) : 0.0;
  if (fraction > 1) fraction = 1;
  double rate = p.seconds > 0 ? double(p.games_read) / p.seconds : 0;
  std::string name = p.file;
  if (auto slash = name.rfind('/'); slash != std::string::npos) name = name.substr(slash + 1);
  if (name == "-") name = "standard input";
  const bool sized = p.file_bytes_total != 0;
  if (tty_ && !sized) {
    std::fprintf(stderr, "\r\033[K%s %s read  %s games  %s games/s", name.c_str(),
                 bytes_text(p.file_bytes_done).c_str(), with_commas(p.games_read).c_str(),
                 with_commas(uint64_t(rate)).c_str());
    drawn_ = true;
  } else if (tty_) {
    const int width = 24;
    int filled = int(fraction * width);
    std::string bar(filled, '#');
    bar.append(width - filled, '.');
    double eta = fraction > 0.01 ? p.seconds * (1 - fraction) / fraction : 0;
    std::fprintf(stderr, "\r\033[K%s [%s] %3d%%  %s games  %s games/s  ETA %d:%02d", name.c_str(),
                 bar.c_str(), int(fraction * 100), with_commas(p.games_read).c_str(),
                 with_commas(uint64_t(rate)).c_str(), int(eta) / 60, int(eta) % 60);
    drawn_ = true;
  } else {
    const std::string done = sized ? std::to_string(int(fraction * 100)) + "%"
                                   : bytes_text(p.file_bytes_done) + " read";
    std::fprintf(stderr, "import: %s %s, %s game%s read, %s rejected, %s games/s\n",
                 name.c_str(), done.c_str(), with_commas(p.games_read).c_str(),
                 p.games_read == 1 ? "" : "s", with_commas(p.rejected).c_str(),
                 with_commas(uint64_t(rate)).c_str());
  }
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (enabled_ && tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace cli
