// BoardMemo: the result of a transformed position list whose every node reads only the
// placement of a few piece kinds (designators, :piececount, :power, :powerdifference,
// :piececountdifference), optionally the side to move and accumulator counters, is a function
// of those inputs. Most plies leave them unchanged (a pawn-structure list changes its value
// only when a pawn moves or is captured), so each worker thread remembers, per list, the
// inputs and result of the last evaluation and answers an equal input from it (issue 21:
// "incremental per-ply state instead of re-scanning"; e.g. `:shift :flipcolor` passed-pawn
// accumulators). Exact: a result is reused only for identical inputs.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "eval/piece_mask.h"

namespace eval {

struct Node;
struct PosCtx;

/// The inputs a memoised list reads at one position: the bitboards of its piece kinds (one
/// per kind, empty squares as the occupancy), then the side to move, then the counter
/// state (see BoardMemo::key()).
struct MemoKey {
  static constexpr size_t kMaxWords = 24;
  std::array<uint64_t, kMaxWords> words{};
  uint32_t size = 0;
  bool operator==(const MemoKey& o) const {
    if (size != o.size) return false;
    for (uint32_t i = 0; i < size; ++i)
      if (words[i] != o.words[i]) return false;
    return true;
  }
  /// True if `prefix` equals the first prefix.size words (a key without the counter state
  /// is a prefix of the same position's key with it, BoardMemo::key()).
  bool starts_with(const MemoKey& prefix) const {
    if (prefix.size > size) return false;
    for (uint32_t i = 0; i < prefix.size; ++i)
      if (words[i] != prefix.words[i]) return false;
    return true;
  }
};

/// What a list's memo decides from (built by the list compiler, eval/list_compiler.h).
class BoardMemo {
 public:
  /// Most :sumrange counters a memoised list may read.
  static constexpr size_t kMaxCounters = 8;

  /// Makes the memo active when the list has at least two variants and every node of
  /// every variant is one of the ops named in the file comment (plain designators: no tag,
  /// no promotion restriction), :sumrange, :accumulate, :wtm / :btm, true / false, and at
  /// most kMaxCounters counters are read.
  void build(const std::vector<std::vector<Node>>& variants);
  bool active() const { return active_; }
  /// Process-wide number of this compiled list (0 when inactive).
  uint32_t id() const { return id_; }
  /// The counters the list's :accumulate nodes add to.
  const std::vector<uint32_t>& accumulate_counters() const { return accumulate_counters_; }
  /// The inputs at `c`: piece bitboards, side to move (if read) and, with `counters`, the
  /// accumulator state (none / counting / the values of the counters :sumrange reads); the
  /// key without counters is a prefix of the key with them.
  void key(const PosCtx& c, bool counters, MemoKey& out) const;

  /// Turns memoisation off (false) or on process-wide, for tests comparing both.
  static void set_enabled(bool on);
  static bool enabled();

 private:
  bool active_ = false;
  uint32_t id_ = 0;
  PieceMask kinds_ = 0;
  bool reads_side_ = false;
  std::vector<uint32_t> sumrange_counters_;
  std::vector<uint32_t> accumulate_counters_;
};

/// One remembered evaluation of a list, per worker thread (direct-mapped by list id and
/// kind of result: 0 = PositionList::match, 1 = the accumulator deltas of phase 1).
struct MemoSlot {
  uint32_t id = 0;
  MemoKey key;
  bool any = false;                                     ///< kind 0: some variant matched
  std::vector<std::pair<uint32_t, int64_t>> deltas;     ///< kind 1: counter, added count
  /// kind 1: the variants whose nodes all matched while counting (:sumrange taken as true).
  /// PositionList::match reuses them at the same position: with the real counters exactly
  /// those of them whose :sumrange nodes hold match, the others fail on a node the counting
  /// did not change.
  std::vector<uint32_t> matched;
};

/// The calling thread's slot for list `id` and result `kind` (0 or 1).
MemoSlot& memo_slot(uint32_t id, int kind);

}  // namespace eval
