// End-to-end queries on the real corpus: ../shared/corpus/mates.pgn and studies.pgn are
// imported into a temporary database, query::execute runs a query, and its matched games and
// plies are compared with a brute-force computation written here directly on chess::Position
// (no evaluator code), or with an equivalent query written out by hand (a :flipcolor query
// against the union of its two colour variants, a :shift query against its explicit
// translations).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/position.h"
#include "db/game_header.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"

namespace {

using cqltest::Hits;

/// One position of a main line, with the move played from it (none at the end).
struct Visit {
  uint32_t id;                 ///< game id
  uint32_t ply;                ///< 0 = start position
  const chess::Position& pos;  ///< the position
  chess::Move next;            ///< the move played from it, or Move::none() at the end
  bool last;                   ///< the last position of the main line
};

class EvalCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-corpus");
    mates_ = db_->add_files({cqltest::corpus_file("mates.pgn")});
    studies_ = db_->add_files({cqltest::corpus_file("studies.pgn")});
  }

  static void TearDownTestSuite() {
    delete db_;
    db_ = nullptr;
  }

  /// Runs `script` over the whole database.
  static Hits query(const std::string& script) { return db_->query(script); }

  /// Replays every stored game's main line, calling `visit` at each position.
  static void for_each_position(const std::function<void(const Visit&)>& visit) {
    db_->for_each_line([&](uint32_t id, std::span<const chess::Position> positions,
                           std::span<const chess::Move> moves) {
      for (size_t ply = 0; ply < positions.size(); ++ply) {
        const bool last = ply == moves.size();
        visit(Visit{id, uint32_t(ply), positions[ply], last ? chess::Move::none() : moves[ply], last});
      }
    });
  }

  /// The plies where `pred` holds, by game.
  static Hits brute_force(const std::function<bool(const Visit&)>& pred) {
    Hits hits;
    for_each_position([&](const Visit& v) {
      if (pred(v)) hits[v.id].push_back(v.ply);
    });
    return hits;
  }

  /// Union of two results (plies merged, sorted, unique).
  static Hits merge(const Hits& a, const Hits& b) {
    Hits out = a;
    for (const auto& [id, plies] : b) {
      std::vector<uint32_t>& v = out[id];
      v.insert(v.end(), plies.begin(), plies.end());
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
    return out;
  }

  static bool mated(const chess::Position& p) { return p.in_check() && !chess::has_legal_move(p); }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline import::ImportSummary mates_, studies_;
};

TEST_F(EvalCorpus, ImportedBothFiles) {
  EXPECT_EQ(mates_.games_read, 914u);
  EXPECT_EQ(studies_.games_read, 253u);
  EXPECT_GT(mates_.imported, 900u);
  EXPECT_GT(studies_.imported, 240u);
  EXPECT_EQ(mates_.first_id, 1u);
  EXPECT_EQ(studies_.first_id, mates_.last_id + 1);
}

TEST_F(EvalCorpus, MateMatchesEveryGameEndingInMate) {
  const Hits hits = query("(match (position :mate))");
  EXPECT_EQ(hits, brute_force([](const Visit& v) { return mated(v.pos); }));
  // mates.pgn holds mate-in-N puzzles: every stored game ends in mate, at its last ply.
  uint32_t mates_games = 0;
  for (const auto& [id, plies] : hits) {
    if (id > mates_.last_id) continue;
    ++mates_games;
    EXPECT_EQ(plies.size(), 1u) << "game " << id;
  }
  EXPECT_EQ(mates_games, mates_.imported);
  EXPECT_EQ(query("(match (position :mate :terminal))").size(), hits.size());
}

TEST_F(EvalCorpus, StalemateAgainstBruteForce) {
  EXPECT_EQ(query("(match (position :stalemate))"), brute_force([](const Visit& v) {
              return !v.pos.in_check() && !chess::has_legal_move(v.pos);
            }));
}

TEST_F(EvalCorpus, NoQueensInTheFinalPosition) {
  const Hits hits = query("(match (position :piececount [Qq] 0 :terminal))");
  EXPECT_EQ(hits,
            brute_force([](const Visit& v) { return v.last && v.pos.pieces(chess::QUEEN) == 0; }));
  EXPECT_FALSE(hits.empty());
}

TEST_F(EvalCorpus, FlipColorIsTheUnionOfBothColours) {
  const Hits both = query("(match (position :mate :wtm :flipcolor))");
  EXPECT_EQ(both,
            merge(query("(match (position :mate :wtm))"), query("(match (position :mate :btm))")));
  EXPECT_EQ(both, query("(match (position :mate))"));

  const Hits twice = query("(match (position :attackcount A k 2 :flipcolor))");
  EXPECT_EQ(twice, merge(query("(match (position :attackcount A k 2))"),
                         query("(match (position :attackcount a K 2))")));
  EXPECT_EQ(twice,
            brute_force([](const Visit& v) { return chess::popcount(v.pos.checkers()) == 2; }));
  EXPECT_EQ(twice, query("(match (position :doublecheck))"));
}

TEST_F(EvalCorpus, FlipColorOfAPatternWithSquaresAndSideToMove) {
  // A white rook on the seventh rank with White to move, or its colour image.
  const Hits both = query("(match (position R?7 :wtm :check :flipcolor))");
  EXPECT_EQ(both, merge(query("(match (position R?7 :wtm :check))"),
                        query("(match (position r?2 :btm :check))")));
  EXPECT_EQ(both, brute_force([](const Visit& v) {
              const chess::Color us = v.pos.side_to_move();
              const chess::Bitboard rank = us == chess::WHITE ? chess::rank_bb(chess::RANK_7)
                                                              : chess::rank_bb(chess::RANK_2);
              return v.pos.in_check() && (v.pos.pieces(us, chess::ROOK) & rank) != 0;
            }));
}

TEST_F(EvalCorpus, ShiftIsTheUnionOfItsTranslations) {
  // A white pawn directly below a black pawn, anywhere: Pd4 pd5 under :shift, written out as
  // every translation that keeps both squares on the board.
  std::string explicit_union = "(match (position :or (";
  for (char file = 'a'; file <= 'h'; ++file)
    for (char rank = '1'; rank <= '7'; ++rank)
      explicit_union +=
          std::string("(position P") + file + rank + " p" + file + char(rank + 1) + ")";
  explicit_union += ")))";
  const Hits shifted = query("(match (position Pd4 pd5 :shift))");
  EXPECT_EQ(shifted, query(explicit_union));
  EXPECT_EQ(shifted, brute_force([](const Visit& v) {
              const chess::Bitboard white = v.pos.pieces(chess::WHITE, chess::PAWN);
              const chess::Bitboard black = v.pos.pieces(chess::BLACK, chess::PAWN);
              return (chess::shift_north(white) & black) != 0;
            }));
  EXPECT_FALSE(shifted.empty());
}

TEST_F(EvalCorpus, KnightAttacksEnemyKingThreeWays) {
  // Seed 004: (position Nd4 kf3 :shift :flip :flipcolor) "can be written much more
  // efficiently as" (position :attackcount N k 1 100 :flipcolor).
  const Hits pattern = query("(match (position Nd4 kf3 :shift :flip :flipcolor))");
  EXPECT_EQ(pattern, query("(match (position :attackcount N k 1 100 :flipcolor))"));
  EXPECT_EQ(pattern, brute_force([](const Visit& v) {
              for (chess::Color c : {chess::WHITE, chess::BLACK}) {
                const chess::Square king = v.pos.king_square(c);
                if (chess::attacks_bb(chess::KNIGHT, king, 0) & v.pos.pieces(~c, chess::KNIGHT))
                  return true;
              }
              return false;
            }));
  EXPECT_FALSE(pattern.empty());
}

TEST_F(EvalCorpus, PromoteAgainstTheMovesPlayed) {
  auto promotes_to = [](const Visit& v, chess::Color side, chess::PieceType pt) {
    return v.next != chess::Move::none() && v.next.kind() == chess::Move::PROMOTION &&
           v.pos.side_to_move() == side && v.next.promotion_type() == pt;
  };
  EXPECT_EQ(query("(match (position :promote N))"), brute_force([&](const Visit& v) {
              return promotes_to(v, chess::WHITE, chess::KNIGHT);
            }));
  const Hits under = query("(match (position :promote [RBNrbn]))");
  EXPECT_EQ(under, brute_force([&](const Visit& v) {
              for (chess::Color c : {chess::WHITE, chess::BLACK})
                for (chess::PieceType pt : {chess::ROOK, chess::BISHOP, chess::KNIGHT})
                  if (promotes_to(v, c, pt)) return true;
              return false;
            }));
  EXPECT_FALSE(under.empty());  // studies are full of underpromotions
}

TEST_F(EvalCorpus, EnPassantAgainstTheMovesPlayed) {
  EXPECT_EQ(query("(match (position :enpassant))"), brute_force([](const Visit& v) {
              return v.next != chess::Move::none() && v.next.kind() == chess::Move::EN_PASSANT;
            }));
}

TEST_F(EvalCorpus, CastlingMovesAreKingMovesOfTwoSquares) {
  const Hits castles = query("(match (position :iscastling))");
  EXPECT_EQ(castles, query("(match (position :movefrom [Kk]e? :moveto .[c?,g?]))"));
  EXPECT_EQ(castles, brute_force([](const Visit& v) {
              return v.next != chess::Move::none() && v.next.kind() == chess::Move::CASTLING;
            }));
}

TEST_F(EvalCorpus, ResultInAPositionListReadsTheGameHeader) {
  // Position-list :result (seed 004 "game-related keywords") against the stored headers; under
  // :flipcolor 1-0 also means 0-1.
  Hits white_wins, decisive, draws;
  db::GameReader reader = db_->database().reader();
  for (uint32_t id = 1; id <= reader.game_count(); ++id) {
    const std::string r = reader.header(id).result;
    if (r == "1-0") white_wins[id] = {0};
    if (r == "1-0" || r == "0-1") decisive[id] = {0};
    if (r == "1/2-1/2") draws[id] = {0};
  }
  EXPECT_EQ(query("(match (position :result 1-0 :initial))"), white_wins);
  EXPECT_EQ(query("(match (position :result 1-0 :initial :flipcolor))"), decisive);
  EXPECT_EQ(query("(match (position :result 1/2-1/2 :initial))"), draws);
  EXPECT_GT(white_wins.size(), 100u);
  EXPECT_GT(draws.size(), 50u);
}

TEST_F(EvalCorpus, MoveToAnyPieceIsACaptureExceptEnPassant) {
  // SPEC: :moveto sees the destination square before the move, which is empty for an
  // en-passant capture (and for castling, the king's destination).
  const Hits to_piece = query("(match (position :moveto U))");
  EXPECT_EQ(to_piece, brute_force([](const Visit& v) {
              return v.next != chess::Move::none() && v.pos.is_capture(v.next) &&
                     v.next.kind() != chess::Move::EN_PASSANT;
            }));
  EXPECT_EQ(merge(to_piece, query("(match (position :enpassant))")),
            brute_force([](const Visit& v) {
              return v.next != chess::Move::none() && v.pos.is_capture(v.next);
            }));
  EXPECT_EQ(query("(match (position :promote N :flipcolor))"),
            query("(match (position :promote [Nn]))"));
}

}  // namespace
