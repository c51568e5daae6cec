// PgnReader: splitter and parser chained on the calling thread.
#include "import/pgn_reader.h"

namespace import {

PgnReader::PgnReader(const std::string& path) : splitter_(InputStream(path)) {}

PgnReader::PgnReader(InputStream input) : splitter_(std::move(input)) {}

bool PgnReader::read_game(PgnVisitor& visitor, ParseStatus& status) {
  if (!splitter_.next(raw_)) return false;
  status = parser_.parse(raw_, visitor);
  return true;
}

}  // namespace import
