// The opening tree of a position (issue 18): for each move played from it, the games,
// White wins / draws / Black wins, the average Elo of the players who made the move, their
// performance, the first and last year and the highest-rated game, in the shape of lichess's
// opening explorer (STYLE.md): totals, moves, top games.
//
// The games counted are exactly those whose main line reaches the position (identity_key(),
// SPEC "Position identity"; transpositions included), each once, with the move played after
// its *first* arrival there; a game whose main line ends there counts in the totals and in
// `ended`, not under a move. The index gives the games reaching it within the indexed plies
// and their moves; games that may reach it later (GameFacts::may_reach_later) and games whose
// index entry is unknown (PositionHit::known false: a position reached once in its segment,
// stored without exact key and move) are replayed, so the counts equal those of a replay of
// every game.
#pragma once

#include <cstdint>
#include <vector>

#include "chess/position.h"
#include "index/position_index.h"

namespace db {
class GameReader;
}

namespace posindex {

/// One game as the tree shows it.
struct TreeGame {
  uint32_t id = 0;
  uint16_t white_elo = 0;  ///< 0 = none
  uint16_t black_elo = 0;  ///< 0 = none
  uint16_t year = 0;       ///< 0 = unknown
  uint8_t result = 0;      ///< db::ResultCode
  /// (white_elo + black_elo) / 2 when both are known, else the known one, else 0.
  int rating() const;
};

/// Results and ratings of a set of games (the totals, or one move's games).
struct TreeStats {
  uint32_t games = 0;                  ///< games counted
  uint32_t white = 0, draws = 0, black = 0;  ///< by result; games with result "*" in none
  uint64_t rating_sum = 0;             ///< Elo of the side to move at the position (the mover)
  uint32_t rated = 0;                  ///< games where that Elo is known
  uint64_t opponent_sum = 0;           ///< Elo of the other side, over games with a result
  uint32_t opponents = 0;              ///< games with a result and a known opponent Elo
  double mover_points = 0;             ///< points of the mover over those `opponents` games
  uint16_t first_year = 0, last_year = 0;  ///< 0 = no year known
  TreeGame best;                       ///< the highest-rated game (TreeGame::rating), lowest id on ties

  /// Average Elo of the mover, 0 when none is known.
  int average_rating() const { return rated ? int((rating_sum + rated / 2) / rated) : 0; }
  /// White's score in percent over games with a result (a draw is half a point); -1 if none.
  double white_score_percent() const;
  /// Performance of the mover ("algorithm of 400": average opponent Elo + 400 x (wins -
  /// losses) / games, over games with a result and a rated opponent); 0 when none.
  int performance() const;
};

/// One move played from the position.
struct TreeMove {
  chess::Move move;
  TreeStats stats;
};

/// The tree of one position.
struct Tree {
  TreeStats total;               ///< every game reaching the position
  uint32_t ended = 0;            ///< games whose main line ends at the position
  std::vector<TreeMove> moves;   ///< by number of games (most first), then move value
  std::vector<TreeGame> top_games;  ///< up to kTopGames (or build_tree's top_games) highest-rated
                                    ///< games, best first
  uint32_t index_hits = 0;       ///< games found by the index lookup with their move
  uint32_t replayed = 0;         ///< other candidates replayed (unknown index entries, or
                                 ///< may reach it after the indexed plies)
  static constexpr size_t kTopGames = 8;
};

/// The tree of `pos` over the games 1..reader.game_count(), or over `within` (ascending
/// ids) only. Requires an index covering every game (index.covered() >= game count; throws
/// std::runtime_error otherwise, naming `cqldb reindex --positions-only`). Damaged records
/// among the replayed candidates are skipped. `top_games`: how many of the highest-rated
/// games to keep in Tree::top_games (the web's game list pages through them).
Tree build_tree(const PositionIndex& index, const db::GameReader& reader, const chess::Position& pos,
                const std::vector<uint32_t>* within = nullptr, size_t top_games = Tree::kTopGames);

/// The tree of `pos` computed by replaying every game in `ids` (ascending) to its first
/// arrival at `pos`, with facts from `index`: the reference build_tree() is tested against.
Tree replay_tree(const PositionIndex& index, const db::GameReader& reader, const chess::Position& pos,
                 const std::vector<uint32_t>& ids);

}  // namespace posindex
