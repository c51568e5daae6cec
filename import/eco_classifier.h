// ECO classification at import (issue 17 A): the ECO code and opening name of a game from
// the positions of its main line, using lichess's CC0 opening table (data/chess-openings/,
// 3,807 named positions; compiled into the binary at build time, see CMakeLists.txt).
//
// Rule (the table's own advice): classify by position, so transpositions count; the
// deepest position of the main line (the last one, in ply order) that is a named position
// of the table wins. Only games from the standard start position (no FEN, not Chess960)
// are classified. Positions are compared by an exact key of our own (occupied squares,
// the piece on each, side to move, castling rights, en-passant square when a capture is
// possible there), not by a hash.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "chess/position.h"

namespace import {

/// One named opening position of the table.
struct NamedOpening {
  std::string eco;   ///< "B90"
  std::string name;  ///< "Sicilian Defense: Najdorf Variation"
  uint16_t plies;    ///< length of the table's move sequence in plies
};

/// The opening table, indexed by position. Built once (thread-safe) from the embedded data.
class EcoClassifier {
 public:
  /// The classifier of the embedded table. Throws std::runtime_error if the embedded table
  /// does not replay (a build defect, tested).
  static const EcoClassifier& instance();

  /// Builds a classifier from TSV text with the header "eco\tname\tpgn" (one table file or
  /// several concatenated). Throws std::runtime_error naming the line of a bad row.
  explicit EcoClassifier(std::string_view tsv);

  /// Index of the named position equal to `pos`, or -1.
  int find(const chess::Position& pos) const;
  /// The named opening at `index` (0 .. size()-1).
  const NamedOpening& opening(int index) const { return openings_[size_t(index)]; }
  /// Number of table rows.
  size_t size() const { return openings_.size(); }
  /// Plies of the longest move sequence: positions after this many plies of a game are
  /// never named, so a caller may stop looking there.
  uint16_t max_plies() const { return max_plies_; }

  /// The classification of a whole main line given as SAN moves from the standard start
  /// (tests and tools): the index of the deepest named position, or -1.
  int classify_san(const std::vector<std::string>& san_moves) const;

 private:
  struct Key {
    uint64_t occupied;  // bit s set = a piece on square s (0 = a1)
    uint64_t low;       // 4-bit piece codes of the first 16 occupied squares (a1 upwards)
    uint64_t high;      // and of the next 16
    uint32_t state;     // side to move | castling rights << 1 | en-passant square << 5
    bool operator==(const Key&) const = default;
  };
  static Key key_of(const chess::Position& pos);
  /// Slot of the open-addressing table for Zobrist key `z` (linear probing).
  size_t slot_of(uint64_t z) const { return size_t(z ^ (z >> 29)) & mask_; }

  std::vector<NamedOpening> openings_;
  // The named positions by Zobrist key (chess::Position::key()), an open-addressing table
  // of at least twice their number: a game's position is one probe, nearly always a miss;
  // a hit is confirmed on the whole Key (the later row of a table wins a tie).
  struct Slot {
    uint64_t zobrist = 0;
    int row = -1;  // -1 = empty
  };
  std::vector<Slot> slots_;
  // A one-bit-per-value filter on the Zobrist key's top 16 bits, set for every named
  // position: 8 KiB that stay in the cache, so the usual miss (a game's position after the
  // opening) costs no probe of slots_ (about 5% of misses still probe).
  std::vector<uint64_t> filter_;
  static size_t filter_bit(uint64_t z) { return size_t(z >> 48); }
  std::vector<Key> row_keys_;  // Key of each row's position
  size_t mask_ = 0;
  uint16_t max_plies_ = 0;
};

/// Follows one main line and remembers its deepest named position (GameBuilder).
class EcoTracker {
 public:
  /// Starts a game; `standard_start` false (a FEN or Chess960) switches classification off.
  void begin(bool standard_start) {
    active_ = standard_start;
    ply_ = 0;
    found_ = -1;
  }
  /// The position after the next main-line move.
  void add(const chess::Position& pos) {
    if (!active_) return;
    const EcoClassifier& table = EcoClassifier::instance();
    if (++ply_ > table.max_plies()) {
      active_ = false;
      return;
    }
    const int i = table.find(pos);
    if (i >= 0) found_ = i;
  }
  /// The index of the deepest named position so far, or -1.
  int found() const { return found_; }

 private:
  bool active_ = false;
  uint32_t ply_ = 0;
  int found_ = -1;
};

}  // namespace import
