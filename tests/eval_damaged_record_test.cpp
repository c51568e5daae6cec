// Replay of damaged game records (Position::is_well_formed, SPEC-NOTES "Replay trusts the
// import"): stored moves were proven legal at import, so replay only checks that each one
// can be played without breaking the board. A record whose bytes were damaged into another
// well-formed but illegal move (a king left in check) must never make the evaluator take a
// king off the board or crash: every query either runs or throws db::CorruptRecord.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"
#include "db/errors.h"
#include "db/record_builder.h"
#include "db/record_view.h"
#include "eval/game_matcher.h"
#include "eval_test_util.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"

namespace {

using chess::Move;
using chess::Position;

/// Every raw 16-bit move value that is well-formed on `pos` but not legal there.
std::vector<Move> well_formed_illegal(const Position& pos) {
  std::vector<Move> out;
  for (uint32_t raw = 0; raw < 65536; ++raw) {
    const Move m(static_cast<uint16_t>(raw));
    if (pos.is_well_formed(m) && !pos.is_legal(m)) out.push_back(m);
  }
  return out;
}

TEST(WellFormedMove, EveryLegalMoveIsWellFormedAndNoKingIsEverTaken) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
       }) {
    Position pos;
    ASSERT_TRUE(pos.set_fen(fen).ok()) << fen;
    chess::MoveList legal;
    chess::generate_legal(pos, legal);
    for (Move m : legal) EXPECT_TRUE(pos.is_well_formed(m)) << fen << " " << chess::to_uci(m, pos);
    // Every well-formed move keeps both kings and the incremental key, and undoes exactly.
    size_t well_formed = 0;
    for (uint32_t raw = 0; raw < 65536; ++raw) {
      const Move m(static_cast<uint16_t>(raw));
      if (!pos.is_well_formed(m)) continue;
      ++well_formed;
      Position after = pos;
      chess::UndoInfo u;
      after.do_move(m, u);
      EXPECT_EQ(chess::popcount(after.pieces(chess::WHITE, chess::KING)), 1) << fen << " " << raw;
      EXPECT_EQ(chess::popcount(after.pieces(chess::BLACK, chess::KING)), 1) << fen << " " << raw;
      EXPECT_EQ(after.key(), after.compute_key()) << fen << " " << raw;
      after.undo_move(m, u);
      EXPECT_EQ(after.fen(), pos.fen()) << fen << " " << raw;
    }
    EXPECT_GT(well_formed, legal.size()) << fen;  // some illegal moves are well-formed
  }
}

TEST(WellFormedMove, RejectsWhatWouldBreakTheBoard) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("r3k2r/1P6/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1").ok());
  EXPECT_TRUE(pos.is_well_formed(Move::make(chess::SQ_E5, chess::SQ_D6, Move::EN_PASSANT)));
  EXPECT_FALSE(pos.is_well_formed(Move::make(chess::SQ_E5, chess::SQ_F6, Move::EN_PASSANT)));
  EXPECT_TRUE(pos.is_well_formed(Move::make(chess::SQ_B7, chess::SQ_A8, Move::PROMOTION, chess::QUEEN)));
  EXPECT_FALSE(pos.is_well_formed(Move(chess::SQ_B7, chess::SQ_B8)));  // a pawn onto its last rank
  EXPECT_FALSE(pos.is_well_formed(Move::make(chess::SQ_E5, chess::SQ_E6, Move::PROMOTION)));
  EXPECT_TRUE(pos.is_well_formed(Move::make(chess::SQ_E1, chess::SQ_H1, Move::CASTLING)));
  EXPECT_FALSE(pos.is_well_formed(Move::make(chess::SQ_E1, chess::SQ_H8, Move::CASTLING)));
  EXPECT_FALSE(pos.is_well_formed(Move(chess::SQ_A1, chess::SQ_E1)));  // onto our own king
  EXPECT_FALSE(pos.is_well_formed(Move(chess::SQ_G2, chess::SQ_G1)));  // not the side to move
  EXPECT_FALSE(pos.is_well_formed(Move::null()));
  EXPECT_FALSE(pos.is_well_formed(Move::none()));
  // White king e1 left in check by a well-formed move: Black may not take it, and no
  // generated move does.
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/4r3/3K4 w - - 0 1").ok());
  chess::UndoInfo u;
  ASSERT_TRUE(pos.is_well_formed(Move(chess::SQ_D1, chess::SQ_E1)));
  ASSERT_FALSE(pos.is_legal(Move(chess::SQ_D1, chess::SQ_E1)));
  pos.do_move(Move(chess::SQ_D1, chess::SQ_E1), u);
  EXPECT_FALSE(pos.is_well_formed(Move(chess::SQ_E2, chess::SQ_E1)));
  chess::MoveList moves;
  chess::generate_legal(pos, moves);
  EXPECT_FALSE(moves.empty());
  for (Move m : moves) EXPECT_NE(m.to_sq(), chess::SQ_E1) << chess::to_uci(m, pos);
  // Kings side by side after a damaged king move: neither may be taken.
  ASSERT_TRUE(pos.set_fen("8/8/8/8/8/3k4/8/3K4 b - - 0 1").ok());
  ASSERT_TRUE(pos.is_well_formed(Move(chess::SQ_D3, chess::SQ_D2)));
  pos.do_move(Move(chess::SQ_D3, chess::SQ_D2), u);
  EXPECT_FALSE(pos.is_well_formed(Move(chess::SQ_D1, chess::SQ_D2)));
  moves.clear();
  chess::generate_legal(pos, moves);
  for (Move m : moves) EXPECT_NE(m.to_sq(), chess::SQ_D2) << chess::to_uci(m, pos);
}

/// Queries that look at checks, mates, the next move (lookahead plays it), legal moves,
/// exchanges, lines and variations.
const char* const kQueries[] = {
    "(match (position :mate))",
    "(match (position :stalemate :flipcolor))",
    "(match (position :check :moveto A))",
    "(match (position :doublecheck))",
    "(match (position :forced))",
    "(match (position :exchangeevaluation * <=-3))",
    "(match (position :maxswapevaluation A a >=3))",
    "(match (position :line* (Pe2-e4 Pe7-e5)))",
    "(match (position :sequence ((position :check) (position :mate))))",
    "(match (position :variations :mate))",
    "(match (position :repetitioncount >=3 :attackcount A k 1))",
};

TEST(DamagedRecord, IllegalButWellFormedMovesNeverBreakTheEvaluator) {
  std::vector<eval::Program> programs;
  for (const char* q : kQueries) programs.push_back(cqltest::compile(q));
  import::PgnSplitter splitter(import::InputStream(std::string(CQLDB_CORPUS_DIR) + "/annotated.pgn"));
  import::GameBuilder builder;
  import::RawGame raw;
  import::BuiltGame built;
  std::mt19937 rng(20261124);
  int damaged = 0, rejected = 0, ran = 0;
  for (int game = 0; game < 150 && splitter.next(raw); ++game) {
    builder.build(raw, "annotated.pgn", built);
    if (!built.stored) continue;
    const db::RecordView original = db::RecordView::parse(built.record);
    const uint32_t n = original.main_line_size();
    if (n < 4 || !original.start_fen().empty()) continue;
    // Replace main-line move k by an illegal well-formed one; keep the rest (tokens too).
    Position pos;
    const uint32_t k = 1 + uint32_t(rng() % (n - 2));
    chess::UndoInfo u;
    for (uint32_t i = 0; i < k; ++i) pos.do_move(original.main_move(i), u);
    const std::vector<Move> bad = well_formed_illegal(pos);
    if (bad.empty()) continue;
    const Move replacement = bad[rng() % bad.size()];
    db::RecordBuilder b;
    b.reset();
    uint32_t main_index = 0;
    for (const db::Token& t : original.tokens()) {
      switch (t.kind) {
        case db::TokenKind::kMove:
          b.add_move(t.depth == 0 && main_index++ == k ? replacement : t.move);
          break;
        case db::TokenKind::kBeginVariation: b.begin_variation(); break;
        case db::TokenKind::kEndVariation: b.end_variation(); break;
        case db::TokenKind::kComment: b.add_comment(t.comment); break;
        case db::TokenKind::kCommentBefore: b.add_comment(t.comment); break;
        case db::TokenKind::kNag: b.add_nag(t.nag); break;
      }
    }
    const std::string bytes(b.finish());
    db::RecordView record;
    try {
      record = db::RecordView::parse(bytes);
    } catch (const db::CorruptRecord&) {
      continue;  // the builder's own checks; not what this test is about
    }
    ++damaged;
    for (const eval::Program& program : programs) {
      eval::GameMatcher matcher(program);
      std::vector<uint32_t> plies;
      uint64_t positions = 0;
      eval::GameInfo info;
      try {
        matcher.match(record, 1, &info, plies, positions);
        ++ran;
      } catch (const db::CorruptRecord&) {
        ++rejected;
      }
    }
  }
  EXPECT_GT(damaged, 50);
  EXPECT_GT(ran, 0);       // some damaged games replay to the end
  EXPECT_GT(rejected, 0);  // others reach a move that no longer fits the board
}

}  // namespace
