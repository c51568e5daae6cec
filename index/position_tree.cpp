// The opening tree (see position_tree.h).
#include "index/position_tree.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "chess/position_key.h"
#include "db/errors.h"
#include "db/game_reader.h"
#include "db/record_view.h"
#include "db/stored_move.h"

namespace posindex {

namespace {

constexpr uint8_t kWhiteWins = 1, kBlackWins = 2, kDraw = 3;  // db::ResultCode

/// Adds game `g` to `s` for mover `mover`.
void add_game(TreeStats& s, const TreeGame& g, chess::Color mover) {
  ++s.games;
  s.white += g.result == kWhiteWins;
  s.black += g.result == kBlackWins;
  s.draws += g.result == kDraw;
  const uint16_t own = mover == chess::WHITE ? g.white_elo : g.black_elo;
  const uint16_t other = mover == chess::WHITE ? g.black_elo : g.white_elo;
  if (own) {
    s.rating_sum += own;
    ++s.rated;
  }
  if (other && g.result != 0) {
    s.opponent_sum += other;
    ++s.opponents;
    const bool mover_won = (g.result == kWhiteWins) == (mover == chess::WHITE);
    s.mover_points += g.result == kDraw ? 0.5 : mover_won ? 1.0 : 0.0;
  }
  if (g.year) {
    if (!s.first_year || g.year < s.first_year) s.first_year = g.year;
    if (g.year > s.last_year) s.last_year = g.year;
  }
  if (!s.best.id || g.rating() > s.best.rating()) s.best = g;
}

TreeGame game_of(const PositionIndex& index, uint32_t id) {
  const GameFacts f = index.facts(id);
  return {id, f.white_elo, f.black_elo, f.year, f.result};
}

/// The move after the first arrival of game `id`'s main line at `key`; false when it never
/// arrives (or the record is damaged). `next` is none() when the line ends there.
bool replay_to(const db::GameReader& reader, uint32_t id, chess::Key key, chess::Move& next) {
  std::string_view bytes;
  if (!reader.record(id, bytes)) return false;
  try {
    const db::RecordView view = db::RecordView::parse(bytes);
    db::MainLineReplay replay(view);
    for (;;) {
      if (chess::identity_key(replay.position()) == key) {
        next = replay.done() ? chess::Move::none() : replay.next_move();
        return true;
      }
      if (replay.done()) return false;
      replay.advance();
    }
  } catch (const db::CorruptRecord&) {
    return false;
  }
}

/// Builds a Tree from (game, move) pairs in ascending game order.
Tree assemble(const PositionIndex& index, const chess::Position& pos,
              const std::vector<PositionHit>& games, size_t top_games) {
  Tree tree;
  const chess::Color mover = pos.side_to_move();
  std::vector<TreeGame> all;
  all.reserve(games.size());
  for (const PositionHit& h : games) {
    const TreeGame g = game_of(index, h.game);
    add_game(tree.total, g, mover);
    all.push_back(g);
    if (!h.next) {
      ++tree.ended;
      continue;
    }
    auto it = std::find_if(tree.moves.begin(), tree.moves.end(), [&](const TreeMove& m) { return m.move == h.next; });
    if (it == tree.moves.end()) {
      tree.moves.push_back({h.next, {}});
      it = tree.moves.end() - 1;
    }
    add_game(it->stats, g, mover);
  }
  std::sort(tree.moves.begin(), tree.moves.end(), [](const TreeMove& a, const TreeMove& b) {
    return a.stats.games != b.stats.games ? a.stats.games > b.stats.games : a.move.raw() < b.move.raw();
  });
  const size_t top = std::min(top_games, all.size());
  std::partial_sort(all.begin(), all.begin() + std::ptrdiff_t(top), all.end(), [](const TreeGame& a, const TreeGame& b) {
    return a.rating() != b.rating() ? a.rating() > b.rating() : a.id < b.id;
  });
  all.resize(top);
  tree.top_games = std::move(all);
  return tree;
}

}  // namespace

int TreeGame::rating() const {
  if (white_elo && black_elo) return (white_elo + black_elo) / 2;
  return white_elo ? white_elo : black_elo;
}

double TreeStats::white_score_percent() const {
  const uint32_t decided = white + draws + black;
  return decided ? 100.0 * (white + 0.5 * draws) / decided : -1.0;
}

int TreeStats::performance() const {
  if (!opponents) return 0;
  const double wins_minus_losses = 2.0 * mover_points - opponents;
  return int(double(opponent_sum) / opponents + 400.0 * wins_minus_losses / opponents + 0.5);
}

Tree build_tree(const PositionIndex& index, const db::GameReader& reader, const chess::Position& pos,
                const std::vector<uint32_t>* within, size_t top_games) {
  const uint32_t count = reader.game_count();
  if (index.covered() < count)
    throw std::runtime_error("the position index covers " + std::to_string(index.covered()) + " of " +
                             std::to_string(count) + " games: run `cqldb reindex --positions-only`");
  std::vector<PositionHit> firsts;
  const std::vector<uint32_t> candidates = index.candidates(pos, count, &firsts);
  std::vector<uint8_t> allowed;
  if (within) {
    allowed.assign(size_t(count) + 1, 0);
    for (uint32_t id : *within)
      if (id <= count) allowed[id] = 1;
  }
  const chess::Key key = chess::identity_key(pos);
  std::vector<PositionHit> games;
  games.reserve(candidates.size());
  size_t next = 0;
  uint32_t hits = 0, replayed = 0;
  for (uint32_t id : candidates) {
    const bool hit = next < firsts.size() && firsts[next].game == id;
    if (within && !allowed[id]) {
      next += hit;
      continue;
    }
    if (hit && firsts[next].known) {
      games.push_back(firsts[next++]);
      ++hits;
      continue;
    }
    // A game that may reach the position after the indexed plies, or whose index entry is
    // unknown (a position reached once in its segment: neither exact key nor move stored):
    // its replay finds the first arrival and the move, or drops it.
    next += hit;
    chess::Move move;
    ++replayed;
    if (replay_to(reader, id, key, move)) games.push_back({id, move});
  }
  Tree tree = assemble(index, pos, games, top_games);
  tree.index_hits = hits;
  tree.replayed = replayed;
  return tree;
}

Tree replay_tree(const PositionIndex& index, const db::GameReader& reader, const chess::Position& pos,
                 const std::vector<uint32_t>& ids) {
  const chess::Key key = chess::identity_key(pos);
  std::vector<PositionHit> games;
  for (uint32_t id : ids) {
    chess::Move move;
    if (replay_to(reader, id, key, move)) games.push_back({id, move});
  }
  Tree tree = assemble(index, pos, games, Tree::kTopGames);
  tree.replayed = uint32_t(ids.size());
  return tree;
}

}  // namespace posindex
