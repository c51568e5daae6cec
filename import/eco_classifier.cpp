#include "import/eco_classifier.h"

#include <stdexcept>

#include "chess/bitboard.h"
#include "chess/san.h"

namespace import {

/// The embedded opening table: data/chess-openings/{a..e}.tsv concatenated (generated
/// source, CMakeLists.txt).
extern const char* const kEmbeddedOpeningTable;

namespace {

/// The SAN tokens of a table move sequence ("1. e4 e5 2. Nf3"): move numbers dropped.
std::vector<std::string> san_tokens(std::string_view pgn) {
  std::vector<std::string> out;
  size_t i = 0;
  while (i < pgn.size()) {
    while (i < pgn.size() && pgn[i] == ' ') ++i;
    size_t j = i;
    while (j < pgn.size() && pgn[j] != ' ') ++j;
    std::string_view token = pgn.substr(i, j - i);
    if (!token.empty() && !(token[0] >= '0' && token[0] <= '9')) out.emplace_back(token);
    i = j;
  }
  return out;
}

}  // namespace

EcoClassifier::Key EcoClassifier::key_of(const chess::Position& pos) {
  Key k{};
  k.occupied = pos.pieces();
  chess::Bitboard b = k.occupied;
  for (int n = 0; b; ++n) {
    const chess::Square s = chess::pop_lsb(b);
    const uint64_t code = uint64_t(pos.piece_on(s)) & 15;
    if (n < 16) k.low |= code << (4 * n);
    else k.high |= code << (4 * (n - 16));
  }
  k.state = uint32_t(pos.side_to_move()) | uint32_t(pos.castling_rights()) << 1 |
            uint32_t(pos.ep_square()) << 5;
  return k;
}

EcoClassifier::EcoClassifier(std::string_view tsv) {
  std::vector<uint64_t> zobrists;  // Zobrist key of each row's position
  size_t line_no = 0;
  size_t at = 0;
  while (at < tsv.size()) {
    size_t end = tsv.find('\n', at);
    if (end == std::string_view::npos) end = tsv.size();
    std::string_view line = tsv.substr(at, end - at);
    at = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.starts_with("eco\t")) continue;  // header of each file
    const size_t tab1 = line.find('\t');
    const size_t tab2 = tab1 == std::string_view::npos ? tab1 : line.find('\t', tab1 + 1);
    if (tab2 == std::string_view::npos)
      throw std::runtime_error("opening table line " + std::to_string(line_no) + ": expected eco, name, pgn");
    NamedOpening row{std::string(line.substr(0, tab1)), std::string(line.substr(tab1 + 1, tab2 - tab1 - 1)), 0};
    chess::Position pos;
    for (const std::string& san : san_tokens(line.substr(tab2 + 1))) {
      const chess::Move m = chess::parse_san(pos, san);
      if (m == chess::Move::none() || m == chess::Move::null())
        throw std::runtime_error("opening table line " + std::to_string(line_no) + ": bad move '" + san + "'");
      chess::UndoInfo undo;
      pos.do_move(m, undo);
      ++row.plies;
    }
    if (row.plies > max_plies_) max_plies_ = row.plies;
    zobrists.push_back(pos.key());
    row_keys_.push_back(key_of(pos));
    openings_.push_back(std::move(row));
  }
  size_t size = 16;
  while (size < 2 * openings_.size()) size *= 2;
  slots_.assign(size, Slot{});
  mask_ = size - 1;
  filter_.assign((size_t(1) << 16) / 64, 0);
  for (size_t row = 0; row < openings_.size(); ++row) {
    filter_[filter_bit(zobrists[row]) / 64] |= uint64_t(1) << (filter_bit(zobrists[row]) % 64);
    for (size_t i = slot_of(zobrists[row]);; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.row < 0) {
        slot = {zobrists[row], int(row)};
        break;
      }
      if (slot.zobrist == zobrists[row] && row_keys_[size_t(slot.row)] == row_keys_[row]) {
        slot.row = int(row);  // the same position named again: the later row wins
        break;
      }
    }
  }
}

const EcoClassifier& EcoClassifier::instance() {
  static const EcoClassifier table(kEmbeddedOpeningTable);
  return table;
}

int EcoClassifier::find(const chess::Position& pos) const {
  const uint64_t z = pos.key();
  if (!(filter_[filter_bit(z) / 64] >> (filter_bit(z) % 64) & 1)) return -1;
  for (size_t i = slot_of(z);; i = (i + 1) & mask_) {
    const Slot& slot = slots_[i];
    if (slot.row < 0) return -1;
    if (slot.zobrist == z && row_keys_[size_t(slot.row)] == key_of(pos)) return slot.row;
  }
}

int EcoClassifier::classify_san(const std::vector<std::string>& san_moves) const {
  chess::Position pos;
  int found = -1;
  uint32_t ply = 0;
  for (const std::string& san : san_moves) {
    if (++ply > max_plies_) break;
    const chess::Move m = chess::parse_san(pos, san);
    if (m == chess::Move::none() || m == chess::Move::null()) break;
    chess::UndoInfo undo;
    pos.do_move(m, undo);
    if (int i = find(pos); i >= 0) found = i;
  }
  return found;
}

}  // namespace import
