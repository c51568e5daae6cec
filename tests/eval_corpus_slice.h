// A slice of the real corpus for evaluation tests: the first games of
// ../shared/corpus/players-344k.pgn.zst imported once per test process into a temporary
// database (a cqltest::CorpusDb), with helpers to run a script (planner on or off) and to
// replay every stored game for brute-force checks written directly on the board.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "eval_corpus_db.h"

namespace cqltest {

/// The slice size the tests share (one slice per process).
inline constexpr size_t kSliceGames = 10000;

/// The first `games` games of players-344k in a temporary database (created on first use,
/// removed at exit). One slice per process: the first call fixes its size.
class CorpusSlice {
 public:
  static CorpusSlice& get(size_t games = kSliceGames) {
    static CorpusSlice slice(games);
    return slice;
  }

  /// Runs `script` over the slice; `planned` = with the planner's filter.
  Hits query(const std::string& script, bool planned = false) { return db_.query(script, planned); }

  /// Calls `on_game(id, positions)` for every game with its main-line positions by ply.
  void for_each_game(const std::function<void(uint32_t, const std::vector<chess::Position>&)>& on_game) {
    const db::GameReader reader = db_.database().reader();
    std::vector<chess::Position> line;
    for (uint32_t id = 1; id <= reader.game_count(); ++id)
      if (CorpusDb::replay(reader, id, line)) on_game(id, line);
  }

  /// The database holding the slice.
  const CorpusDb& db() const { return db_; }

 private:
  explicit CorpusSlice(size_t games) : db_("slice") {
    db_.threads = 1;
    db_.add_players(games);
  }

  CorpusDb db_;
};

}  // namespace cqltest
