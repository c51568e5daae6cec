// Shared by the libFuzzer targets of tests/fuzz: a check that aborts (a crash libFuzzer
// reports with the input) and the replay of a decoded game record with the queries' replay
// rule (db::is_playable_stored), main line and variations.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "chess/position.h"
#include "db/errors.h"
#include "db/record_view.h"
#include "db/stored_move.h"

namespace fuzz {

/// Prints the failed condition and aborts (a crash libFuzzer reports with the input).
[[noreturn]] inline void fail(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: check failed: %s\n", file, line, condition);
  std::abort();
}

}  // namespace fuzz

/// Aborts, naming the condition, when it is false: a promise of a header was broken.
#define FUZZ_CHECK(condition) ((condition) ? void(0) : fuzz::fail(#condition, __FILE__, __LINE__))

namespace fuzz {

/// Replays every move of `view` (main line, then each variation from the position before
/// the move it replaces) with the replay rule. Returns false at the first move that rule
/// refuses, true when all were played. Throws db::CorruptRecord for an invalid start FEN.
inline bool replay_all(const db::RecordView& view) {
  chess::Position start;
  if (!view.start_fen().empty() && !start.set_fen(view.start_fen(), view.chess960()).ok())
    throw db::CorruptRecord("stored start FEN is invalid");
  struct Line {
    chess::Position cur, prev;
  };
  std::vector<Line> lines{{start, start}};
  uint32_t main_moves = 0;
  for (const db::Token& t : view.tokens()) {
    if (t.kind == db::TokenKind::kBeginVariation) {
      FUZZ_CHECK(t.depth == lines.size());
      lines.push_back({lines.back().prev, lines.back().prev});
    } else if (t.kind == db::TokenKind::kEndVariation) {
      FUZZ_CHECK(lines.size() > 1);
      lines.pop_back();
    } else if (t.kind == db::TokenKind::kMove) {
      Line& line = lines.back();
      if (!db::is_playable_stored(line.cur, t.move)) return false;
      line.prev = line.cur;
      chess::UndoInfo undo;
      if (t.move == chess::Move::null()) {
        line.cur.do_null_move(undo);
      } else {
        line.cur.do_move(t.move, undo);
      }
      if (lines.size() == 1) FUZZ_CHECK(t.move == view.main_move(main_moves++));
    }
  }
  FUZZ_CHECK(main_moves == view.main_line_size());  // tokens() holds the main line too
  return true;
}

}  // namespace fuzz
