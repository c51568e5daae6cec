// Import progress on stderr: a redrawn bar on a terminal, plain lines otherwise.
#pragma once

#include <chrono>

#include "import/importer.h"

namespace cli {

/// Renders ImportProgress snapshots. On a terminal: one line redrawn in place with a bar,
/// games, games/s, % of the current file's bytes and the ETA; for an input of unknown size
/// (standard input, a pipe) the bytes read instead of the bar, % and ETA. Not on a
/// terminal: a plain line every 5 seconds, the first after 5 seconds (a short import
/// prints none: its summary follows at once).
class ProgressBar {
 public:
  /// `enabled` = false prints nothing at all (--quiet).
  explicit ProgressBar(bool enabled);
  /// Draws `p` (rate-limited).
  void update(const import::ImportProgress& p);
  /// Clears the bar from the terminal before the summary is printed.
  void finish();

 private:
  bool enabled_;
  bool tty_;
  bool drawn_ = false;
  double last_print_ = -1;
};

}  // namespace cli
