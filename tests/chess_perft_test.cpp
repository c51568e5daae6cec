// Move generation pinned down by published perft node counts (chessprogramming wiki
// "Perft Results" and "Chess960 Perft Results", and the well-known edge-case positions for
// en passant, castling and promotion), plus make/unmake invariants on the same trees.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "chess/bitboard.h"
#include "chess/movegen.h"
#include "chess/perft.h"
#include "chess/position.h"

namespace chess {
namespace {

struct PerftCase {
  const char* name;
  const char* fen;
  int depth;
  uint64_t nodes;
};

void PrintTo(const PerftCase& c, std::ostream* os) {
  *os << c.name;
}

class PerftTest : public ::testing::TestWithParam<PerftCase> {};

TEST_P(PerftTest, MatchesPublishedNodeCount) {
  const PerftCase& c = GetParam();
  Position pos;
  FenError err = pos.set_fen(c.fen);
  ASSERT_TRUE(err.ok()) << err.message;
  std::string before = pos.fen();
  Key key = pos.key();
  EXPECT_EQ(perft(pos, c.depth), c.nodes) << c.fen << " depth " << c.depth;
  EXPECT_EQ(pos.fen(), before) << "perft must restore the position";
  EXPECT_EQ(pos.key(), key);
}

// Depths keep the whole suite to a few seconds in a RelWithDebInfo build.
const PerftCase PERFT_CASES[] = {
    // chessprogramming wiki, Perft Results.
    {"start_d5", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 5, 4865609},
    {"kiwipete_d4", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", 4, 4085603},
    {"position3_d5", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 5, 674624},
    {"position3_d6", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", 6, 11030083},
    {"position4_d4", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 4, 422333},
    {"position4_d5", "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5,
     15833292},
    {"position4_mirrored_d4", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 4,
     422333},
    {"position4_mirrored_d5", "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1", 5,
     15833292},
    {"position5_d4", "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 4, 2103487},
    {"position6_d4", "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10", 4,
     3894594},
    // Chess960 Perft Results (Shredder-FEN castling).
    {"c960_bqnb1rkr_d4", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 4,
     326672},
    {"c960_bqnb1rkr_d5", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", 5,
     8146062},
    {"c960_2nnrbkr_d4", "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9", 4,
     667366},
    {"c960_b1q1rrkb_d4", "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9", 4, 273318},
    {"c960_qbbnnrkr_d4", "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9", 4,
     382958},
    // Edge cases: illegal en passant (horizontal and diagonal pins), en passant giving
    // check, castling giving check, promotions giving check, self stalemate, under-promotion.
    {"ep_rank_pin", "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 6, 1134888},
    {"ep_diagonal_pin", "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1", 6, 1015133},
    {"ep_gives_check", "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", 6, 1440467},
    {"short_castle_check", "5k2/8/8/8/8/8/8/4K2R w K - 0 1", 6, 661072},
    {"long_castle_check", "3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", 6, 803711},
    {"castling_rights_lost", "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1", 4, 1274206},
    {"castling_prevented", "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1", 4, 1720476},
    {"promote_out_of_check", "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1", 6, 3821001},
    {"discovered_check", "8/8/1P2K3/8/2n5/1q6/8/5k2 b - - 0 1", 5, 1004658},
    {"promote_to_check", "4k3/1P6/8/8/8/8/K7/8 w - - 0 1", 6, 217342},
    {"underpromote_to_check", "8/P1k5/K7/8/8/8/8/8 w - - 0 1", 6, 92683},
    {"self_stalemate", "K1k5/8/P7/8/8/8/8/8 w - - 0 1", 6, 2217},
    {"stalemate_and_checkmate", "8/k1P5/8/1K6/8/8/8/8 w - - 0 1", 7, 567584},
    {"double_check", "8/8/2k5/5q2/5n2/8/5K2/8 b - - 0 1", 4, 23527},
};

INSTANTIATE_TEST_SUITE_P(Published, PerftTest, ::testing::ValuesIn(PERFT_CASES),
                         [](const ::testing::TestParamInfo<PerftCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

// Walks the tree and checks after every do_move/undo_move pair that the incremental key
// equals a recomputation and that undo restores the FEN exactly.
void check_make_unmake(Position& pos, int depth) {
  ASSERT_EQ(pos.key(), pos.compute_key()) << pos.fen();
  ASSERT_EQ(pos.checkers(),
            pos.attackers_to(pos.king_square(pos.side_to_move())) & pos.pieces(~pos.side_to_move()))
      << pos.fen();
  if (depth == 0) return;
  MoveList list;
  generate_legal(pos, list);
  EXPECT_EQ(has_legal_move(pos), !list.empty()) << pos.fen();
  std::string before = pos.fen();
  for (Move m : list) {
    ASSERT_TRUE(pos.is_legal(m)) << pos.fen();
    UndoInfo u;
    pos.do_move(m, u);
    // A FEN round trip of the new position gives the same key.
    Position copy;
    ASSERT_TRUE(copy.set_fen(pos.fen(), pos.is_chess960()).ok()) << pos.fen();
    ASSERT_EQ(copy.key(), pos.key()) << pos.fen();
    check_make_unmake(pos, depth - 1);
    pos.undo_move(m, u);
    ASSERT_EQ(pos.fen(), before);
  }
}

TEST(MakeUnmake, KeysAndFenRestoredAlongTrees) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
           "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
       }) {
    Position pos;
    ASSERT_TRUE(pos.set_fen(fen).ok()) << fen;
    check_make_unmake(pos, 3);
  }
}

TEST(MakeUnmake, NullMoveFlipsSideAndClearsEnPassant) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3").ok());
  ASSERT_EQ(pos.ep_square(), SQ_E3);
  std::string before = pos.fen();
  Key key = pos.key();
  UndoInfo u;
  pos.do_null_move(u);
  EXPECT_EQ(pos.side_to_move(), WHITE);
  EXPECT_EQ(pos.ep_square(), SQ_NONE);
  EXPECT_EQ(pos.key(), pos.compute_key());
  EXPECT_EQ(pos.fen(), "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 4");
  pos.undo_null_move(u);
  EXPECT_EQ(pos.fen(), before);
  EXPECT_EQ(pos.key(), key);
}

TEST(MoveGen, CheckmateAndStalemateHaveNoLegalMoves) {
  Position pos;
  // Fool's mate.
  ASSERT_TRUE(pos.set_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").ok());
  EXPECT_TRUE(pos.in_check());
  EXPECT_FALSE(has_legal_move(pos));
  // Stalemate.
  ASSERT_TRUE(pos.set_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").ok());
  EXPECT_FALSE(pos.in_check());
  EXPECT_FALSE(has_legal_move(pos));
  MoveList list;
  generate_legal(pos, list);
  EXPECT_TRUE(list.empty());
}

TEST(MoveGen, Chess960CastlingWithRookShieldingTheKingDestination) {
  Position pos;
  // White king c1, castling rook b1 (queen side): the king stays on c1 and the rook goes to
  // d1, uncovering the black queen on a1, so O-O-O is illegal although c1 is not attacked now.
  ASSERT_TRUE(pos.set_fen("7k/8/8/8/8/8/8/qRK5 w B - 0 1").ok());
  EXPECT_TRUE(pos.is_chess960());
  EXPECT_FALSE(pos.in_check());
  EXPECT_FALSE(pos.is_legal(Move::make(SQ_C1, SQ_B1, Move::CASTLING)));
  // Without the black queen it is legal.
  ASSERT_TRUE(pos.set_fen("7k/8/8/8/8/8/8/1RK5 w B - 0 1").ok());
  Move m = Move::make(SQ_C1, SQ_B1, Move::CASTLING);
  ASSERT_TRUE(pos.is_legal(m));
  UndoInfo u;
  pos.do_move(m, u);
  EXPECT_EQ(pos.fen(), "7k/8/8/8/8/8/8/2KR4 b - - 1 1");
}

TEST(MoveGen, Chess960CastlingWhereTheKingDoesNotMove) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/R5KR w HA - 0 1").ok());
  Move m = Move::make(SQ_G1, SQ_H1, Move::CASTLING);
  MoveList list;
  generate_legal(pos, list);
  ASSERT_TRUE(list.contains(m));
  UndoInfo u;
  pos.do_move(m, u);
  EXPECT_EQ(pos.piece_on(SQ_G1), W_KING);
  EXPECT_EQ(pos.piece_on(SQ_F1), W_ROOK);
  EXPECT_EQ(pos.key(), pos.compute_key());
  pos.undo_move(m, u);
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/R5KR w KQ - 0 1");
}

TEST(Bitboard, BetweenAndLine) {
  init();
  EXPECT_EQ(between_bb(SQ_A1, SQ_D1), square_bb(SQ_B1) | square_bb(SQ_C1));
  EXPECT_EQ(between_bb(SQ_A1, SQ_C3), square_bb(SQ_B2));
  EXPECT_EQ(between_bb(SQ_A1, SQ_B3), 0u);
  EXPECT_EQ(between_bb(SQ_E4, SQ_E5), 0u);
  EXPECT_EQ(line_bb(SQ_C3, SQ_E5), line_bb(SQ_A1, SQ_H8));
  EXPECT_EQ(popcount(line_bb(SQ_A1, SQ_H8)), 8);
  EXPECT_EQ(line_bb(SQ_A1, SQ_B3), 0u);
  EXPECT_EQ(line_bb(SQ_D2, SQ_D7), file_bb(FILE_D));
  EXPECT_EQ(attacks_bb(ROOK, SQ_A1, square_bb(SQ_A3) | square_bb(SQ_C1)),
            square_bb(SQ_A2) | square_bb(SQ_A3) | square_bb(SQ_B1) | square_bb(SQ_C1));
  EXPECT_EQ(popcount(attacks_bb(QUEEN, SQ_D4, 0)), 27);
  EXPECT_EQ(popcount(attacks_bb(KNIGHT, SQ_A1, 0)), 2);
  EXPECT_EQ(pawn_attacks_bb(WHITE, SQ_A2), square_bb(SQ_B3));
  EXPECT_EQ(pawn_attacks_bb(BLACK, SQ_E5), square_bb(SQ_D4) | square_bb(SQ_F4));
}

}  // namespace
}  // namespace chess
