#include "cli/progress_bar.h"

#include <unistd.h>

#include <cstdio>
#include <string>

#include "cli/options.h"

namespace cli {

ProgressBar::ProgressBar(bool enabled) : enabled_(enabled), tty_(isatty(STDERR_FILENO) != 0) {}

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
  if (tty_) {
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
    std::fprintf(stderr, "import: %s %d%%, %s games read, %s rejected, %s games/s\n",
                 name.c_str(), int(fraction * 100), with_commas(p.games_read).c_str(),
                 with_commas(p.rejected).c_str(), with_commas(uint64_t(rate)).c_str());
  }
  std::fflush(stderr);
}

void ProgressBar::finish() {
  if (enabled_ && tty_ && drawn_) std::fprintf(stderr, "\r\033[K");
  drawn_ = false;
}

}  // namespace cli
