// Sequential PGN reading: PgnSplitter + PgnParser on one thread (tests, export round trips,
// small files). The importer runs the two stages on different threads instead.
#pragma once

#include <string>

#include "import/input_stream.h"
#include "import/pgn_parser.h"
#include "import/pgn_splitter.h"
#include "import/pgn_visitor.h"

namespace import {

/// Reads the games of one PGN file (plain, .gz or .zst) one by one into a visitor.
class PgnReader {
 public:
  /// Opens `path`; throws std::runtime_error if it cannot be opened (see InputStream).
  explicit PgnReader(const std::string& path);
  /// Reads from an already opened stream.
  explicit PgnReader(InputStream input);

  /// Parses the next game into `visitor` and returns true, with the outcome in `status`;
  /// returns false at the end of the input. Bad games are returned like good ones (with
  /// status.rejected set), so every game of the file is seen.
  bool read_game(PgnVisitor& visitor, ParseStatus& status);

  /// The raw text and position (ordinal, first line, byte offset) of the last game read.
  const RawGame& raw_game() const { return raw_; }

  /// The splitter, for progress and stream warnings.
  const PgnSplitter& splitter() const { return splitter_; }

 private:
  PgnSplitter splitter_;
  PgnParser parser_;
  RawGame raw_;
};

}  // namespace import
