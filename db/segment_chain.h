// A chain of immutable segment files, each for the games first..last of a database (the
// posting index, index/postings.h, and the header bitmaps, db/header_bitmaps.h): how an
// import or a reindex brings such a chain up to the committed games. One segment for the
// games above the chain, then the chain's last two segments merged while the earlier holds
// at most as many games as the later and together at most a limit (a binary counter: a game
// is rewritten O(log n) times over a database's life); a missing, outdated or damaged chain
// is rebuilt as one base segment. The files themselves belong to the caller's callbacks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace db {

/// The games first..last of one segment of a chain.
struct ChainSpan {
  uint32_t first = 0;
  uint32_t last = 0;
  /// Number of games (0 for an empty base segment, last = first - 1).
  uint64_t games() const { return uint64_t(last) + 1 - first; }
};

/// The files of one chain, as callbacks.
struct SegmentChain {
  /// The chain's segments in order, from game 1 (nullopt: missing, of another version or
  /// damaged, to be rebuilt).
  std::function<std::optional<std::vector<ChainSpan>>()> open;
  /// Writes the segment of games first..last (last = first - 1 for an empty base segment at
  /// first = 1); true when it came from what the import built, false when read back from
  /// the database.
  std::function<bool(uint32_t first, uint32_t last)> write;
  /// Replaces the adjacent segments `a` and `b` with one segment a.first..b.last (the file
  /// of a.first), removing b's file.
  std::function<void(const ChainSpan& a, const ChainSpan& b)> merge;
  /// Removes every segment file but the base, and temporary files left by a writer.
  std::function<void()> remove_segments;
  /// Two segments are merged only while together they hold at most this many games.
  uint64_t max_merged_games = 0;
};

/// What update_segment_chain() did.
struct ChainUpdate {
  uint32_t added = 0;         ///< games in the new segment
  bool rebuilt = false;       ///< the chain was missing, outdated or damaged, or `rebuild` was set
  bool from_import = false;   ///< the new segment came from the import (SegmentChain::write)
  uint32_t merges = 0;        ///< segments merged after the append
  uint64_t merged_games = 0;  ///< games the merges rewrote
  size_t segments = 0;        ///< segments in the chain afterwards
};

/// Brings `chain` up to the games 1..`count`: nothing when it covers them; with `rebuild`,
/// or when it is missing or covers more games than `count` (not this database's), one base
/// segment 1..count and no other segment file; else a segment for the games above it, then
/// the merges. Throws what the callbacks throw.
ChainUpdate update_segment_chain(const SegmentChain& chain, uint32_t count, bool rebuild);

}  // namespace db
