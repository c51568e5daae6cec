// Helpers for evaluation tests: run a CQL script on one game given as PGN text, or on a
// single position given as FEN, without a database.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/san.h"
#include "cql/parser.h"
#include "db/record_view.h"
#include "analysis/session.h"
#include "eval/game_matcher.h"
#include "eval/program.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "temp_dir.h"

namespace cqltest {

/// The result of running a script on one game.
struct GameResult {
  bool matched = false;          ///< the game matches
  std::vector<uint32_t> plies;   ///< matched plies (0 = start position)
};

/// Compiles `script` (a whole `(match ...)` script). Throws cql::ParseError / CompileError.
/// The position after the SAN moves `sans` from the standard start (a failed move is a test
/// failure).
inline chess::Position position_after(const std::vector<std::string>& sans) {
  chess::Position pos;
  EXPECT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok());
  for (const std::string& san : sans) {
    const chess::Move m = chess::parse_san(pos, san);
    EXPECT_TRUE(bool(m)) << san;
    chess::UndoInfo undo;
    pos.do_move(m, undo);
  }
  return pos;
}

inline eval::Program compile(const std::string& script) {
  return eval::Program::compile(cql::parse_or_throw(script, "test.cql"));
}

/// Runs `script` on the game `pgn` (tags optional; movetext with result). Game information
/// (result, Elo) comes from `info`; `analysis`, when given, is the engine context of
/// :evaluation / :moveevaluation. Header conditions of the match list are not evaluated.
inline GameResult run_game(const std::string& script, const std::string& pgn,
                           eval::GameInfo info = {}, analysis::AnalysisContext* analysis = nullptr) {
  eval::Program program = compile(script);
  import::RawGame raw;
  raw.text = pgn;
  raw.ordinal = 1;
  raw.first_line = 1;
  import::GameBuilder builder;
  import::BuiltGame built;
  builder.build(raw, "test.pgn", built);
  if (!built.stored) throw std::runtime_error("test game rejected: " + built.reason);
  db::RecordView rec = db::RecordView::parse(built.record);
  eval::GameMatcher matcher(program);
  if (analysis) matcher.set_analysis(analysis);
  GameResult r;
  uint64_t positions = 0;
  unsigned all = (1u << program.alternatives().size()) - 1;
  r.matched = matcher.match(rec, all, &info, r.plies, positions) != program.negated();
  return r;
}

/// Runs `script` on a one-position game starting from `fen` (no moves).
inline bool run_fen(const std::string& script, const std::string& fen) {
  return run_game(script, "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n*\n").matched;
}

/// Calls `on_position(pos)` at every main-line position (ply 0 to the final position) of the
/// first `limit` games of ../shared/corpus/`file` that import. `on_position` may change `pos`
/// (e.g. a null move) but must restore it. Stops at the first fatal failure (ASSERT_*) in it.
inline void for_each_corpus_position(const std::string& file, int limit,
                                     const std::function<void(chess::Position&)>& on_position) {
  import::PgnSplitter games(import::InputStream(std::string(CQLDB_CORPUS_DIR) + "/" + file));
  import::RawGame raw;
  import::GameBuilder builder;
  import::BuiltGame built;
  for (int n = 0; n < limit && games.next(raw); ++n) {
    builder.build(raw, file, built);
    if (!built.stored) continue;
    const db::RecordView rec = db::RecordView::parse(built.record);
    chess::Position pos;
    if (!rec.start_fen().empty()) pos.set_fen(rec.start_fen(), rec.chess960());
    for (uint32_t i = 0;; ++i) {
      on_position(pos);
      if (::testing::Test::HasFatalFailure() || i == rec.main_line_size()) break;
      const chess::Move m = rec.main_move(i);
      chess::UndoInfo u;
      if (m == chess::Move::null()) pos.do_null_move(u);
      else pos.do_move(m, u);
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
}

/// Wraps position-list items into a script: "(match (position ITEMS))".
inline std::string pos(const std::string& items) { return "(match (position " + items + "))"; }

/// True if the position list with `items` matches the single position `fen`.
inline bool on(const std::string& items, const std::string& fen) {
  return run_fen(pos(items), fen);
}

/// Matched plies (0 = start position), ascending.
using Plies = std::vector<uint32_t>;

/// The matched plies of the position list with `items` in the game `movetext` (played from
/// `fen` when given, else from the standard start), with game information `info`.
inline Plies plies(const std::string& items, const std::string& movetext,
                   const std::string& fen = "", eval::GameInfo info = {}) {
  const std::string tags = fen.empty() ? "" : "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n";
  return run_game(pos(items), tags + movetext + "\n", info).plies;
}

/// A Scotch game with a run of captures. Positions (before the move): 0 e4, 1 e5, 2 Nf3,
/// 3 Nc6, 4 d4, 5 exd4, 6 Nxd4, 7 Nxd4, 8 Qxd4, 9 Nf6, 10 e5, 11 Nd5, 12 Qxd5, 13 end.
/// Captures at plies 5 6 7 8 (one run of four, all on d4) and 12 (a run of one).
inline constexpr const char* kScotch =
    "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. Nxd4 Nxd4 5. Qxd4 Nf6 6. e5 Nd5 7. Qxd5 *";

}  // namespace cqltest
