// FEN reading and writing: round trips, X-FEN / Shredder-FEN castling, Chess960 detection,
// the en-passant policy, tolerated omissions, and the message of every error.
#include <gtest/gtest.h>

#include <string>

#include "chess/position.h"

namespace chess {
namespace {

constexpr const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

TEST(Fen, StartPosition) {
  Position pos;
  EXPECT_EQ(pos.fen(), START);
  EXPECT_EQ(pos.side_to_move(), WHITE);
  EXPECT_EQ(pos.castling_rights(), ANY_CASTLING);
  EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_H1);
  EXPECT_EQ(pos.castling_rook_square(BLACK_OOO), SQ_A8);
  EXPECT_EQ(pos.king_square(BLACK), SQ_E8);
  EXPECT_EQ(pos.piece_on(SQ_D1), W_QUEEN);
  EXPECT_EQ(pos.pieces(BLACK, PAWN), RANK_8_BB >> 8);
  EXPECT_FALSE(pos.is_chess960());
  EXPECT_EQ(pos.game_ply(), 0);
  EXPECT_EQ(pos.fullmove_number(), 1);
}

TEST(Fen, RoundTrips) {
  for (const char* fen : {
           START,
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
           "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
           "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
           "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
           "r3k3/8/8/8/8/8/8/4K3 b q - 7 40",
           "8/8/8/8/8/8/8/k6K b - - 99 120",
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9",
       }) {
    Position pos;
    FenError err = pos.set_fen(fen);
    ASSERT_TRUE(err.ok()) << fen << ": " << err.message;
    EXPECT_EQ(pos.fen(), fen);
    EXPECT_EQ(pos.key(), pos.compute_key());
  }
}

TEST(Fen, ClocksMayBeMissing) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 b - -").ok());
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_EQ(pos.game_ply(), 1);
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 w - - 12").ok());
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 12 1");
  // Blanks around and between fields are tolerated; full-move 0 reads as 1.
  ASSERT_TRUE(pos.set_fen("  4k3/8/8/8/8/8/8/4K3\tw  -  -  3 0 ").ok());
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 3 1");
}

// Issue 40: a FEN as people paste it from lichess or python-chess ends after the castling
// field; the en-passant square is then none and the clocks 0 and 1.
TEST(Fen, EnPassantAndClocksMayBeMissing) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq").ok());
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 w -").ok());
  EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

TEST(Fen, ClocksAreKept) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 b - - 17 33").ok());
  EXPECT_EQ(pos.rule50_count(), 17);
  EXPECT_EQ(pos.fullmove_number(), 33);
  EXPECT_EQ(pos.game_ply(), 65);
}

TEST(Fen, EnPassantSquareOnlyWhenACaptureIsPossible) {
  Position pos;
  // After 1.e4 no black pawn can take on e3: the square is validated, then dropped.
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1").ok());
  EXPECT_EQ(pos.ep_square(), SQ_NONE);
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  Position same;
  ASSERT_TRUE(same.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").ok());
  EXPECT_EQ(pos.key(), same.key());

  // A black pawn on d4 can take: the square is kept.
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3").ok());
  EXPECT_EQ(pos.ep_square(), SQ_E3);

  // The same after do_move: 1.e4 sets nothing, a double push next to an enemy pawn does.
  pos.set_start();
  UndoInfo u;
  pos.do_move(Move(SQ_E2, SQ_E4), u);
  EXPECT_EQ(pos.ep_square(), SQ_NONE);
  EXPECT_EQ(pos.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3").ok());
  pos.do_move(Move(SQ_E2, SQ_E4), u);
  EXPECT_EQ(pos.ep_square(), SQ_E3);
  EXPECT_EQ(pos.fen(), "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
}

TEST(Fen, ShredderAndXFenCastling) {
  Position pos;
  // Shredder letters for the standard start: standard chess, written back as KQkq.
  ASSERT_TRUE(pos.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1").ok());
  EXPECT_FALSE(pos.is_chess960());
  EXPECT_EQ(pos.fen(), START);

  // Chess960 start with Shredder letters: detected as Chess960, written as X-FEN.
  ASSERT_TRUE(
      pos.set_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9").ok());
  EXPECT_TRUE(pos.is_chess960());
  EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_H1);
  EXPECT_EQ(pos.castling_rook_square(WHITE_OOO), SQ_F1);
  EXPECT_EQ(pos.castling_rook_square(BLACK_OOO), SQ_F8);
  EXPECT_EQ(pos.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");

  // X-FEN "K" means the outermost rook: here h1, not g1.
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K1RR w K - 0 1").ok());
  EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_H1);
  EXPECT_FALSE(pos.is_chess960());

  // An inner rook needs its file letter, on input and on output.
  ASSERT_TRUE(pos.set_fen("1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBgb - 0 1").ok());
  EXPECT_TRUE(pos.is_chess960());
  EXPECT_EQ(pos.castling_rook_square(WHITE_OO), SQ_G1);
  EXPECT_EQ(pos.castling_rook_square(WHITE_OOO), SQ_B1);
  EXPECT_EQ(pos.fen(), "1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1");

  // A king off the e-file makes it Chess960 even with KQkq.
  ASSERT_TRUE(pos.set_fen("r5kr/8/8/8/8/8/8/R5KR w KQkq - 0 1").ok());
  EXPECT_TRUE(pos.is_chess960());
  // The caller may force Chess960 for a standard-looking setup.
  ASSERT_TRUE(pos.set_fen(START, true).ok());
  EXPECT_TRUE(pos.is_chess960());
}

TEST(Fen, CastlingRightsLostByMoves) {
  Position pos;
  ASSERT_TRUE(pos.set_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").ok());
  UndoInfo u;
  pos.do_move(Move(SQ_H1, SQ_H8), u);  // rook takes rook: both king-side rights go
  EXPECT_EQ(pos.fen(), "r3k2R/8/8/8/8/8/8/R3K3 b Qq - 0 1");
  EXPECT_EQ(pos.key(), pos.compute_key());
  UndoInfo u2;
  pos.do_move(Move(SQ_E8, SQ_D7), u2);
  EXPECT_EQ(pos.fen(), "r6R/3k4/8/8/8/8/8/R3K3 w Q - 1 2");
}

// Sets `fen`, expects failure with `code` and exactly `message`, and the start position.
void expect_error(const std::string& fen, FenError::Code code, const std::string& message) {
  Position pos;
  FenError err = pos.set_fen(fen);
  EXPECT_EQ(err.code, code) << fen;
  EXPECT_EQ(err.message, message) << fen;
  EXPECT_FALSE(err.ok());
  EXPECT_EQ(pos.fen(), START) << "a failed set_fen leaves the start position";
}

TEST(FenErrors, Board) {
  expect_error("", FenError::BOARD, "FEN is empty");
  expect_error("   ", FenError::BOARD, "FEN is empty");
  expect_error("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", FenError::BOARD,
               "FEN board, character 43 'X': expected a piece letter (PNBRQK/pnbrqk), a digit "
               "1-8 or '/'");
  expect_error("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::BOARD,
               "FEN board, character 17 '/': rank 7 has 7 squares, expected 8");
  expect_error("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::BOARD,
               "FEN board, character 19 '9': expected a piece letter (PNBRQK/pnbrqk), a digit "
               "1-8 or '/'");
  expect_error("rnbqkbnrr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::BOARD,
               "FEN board, character 9 'r': rank 8 has more than 8 squares");
  expect_error("rnbqkbnr/pppppppp/7p1/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenError::BOARD,
               "FEN board, character 21 '1': rank 6 has more than 8 squares");
  expect_error("8/8/8 w - -", FenError::BOARD, "FEN board: 3 ranks, expected 8 separated by '/'");
  expect_error("8/8/8/8/8/8/8/7 w - -", FenError::BOARD,
               "FEN board: rank 1 has 7 squares, expected 8");
  expect_error("8/8/8/8/8/8/8/8/8 w - -", FenError::BOARD,
               "FEN board, character 16 '/': more than 8 ranks");
  expect_error(std::string("4k3/8/8/8/8/8/8/4K2\x01 w - -"), FenError::BOARD,
               "FEN board, character 20 '\\x01': expected a piece letter (PNBRQK/pnbrqk), a "
               "digit 1-8 or '/'");
}

TEST(FenErrors, SideToMove) {
  expect_error("4k3/8/8/8/8/8/8/4K3", FenError::SIDE,
               "FEN side to move: missing (expected 'w' or 'b' after the board)");
  expect_error("4k3/8/8/8/8/8/8/4K3 x - -", FenError::SIDE,
               "FEN side to move: expected 'w' or 'b', found 'x'");
  expect_error("4k3/8/8/8/8/8/8/4K3 white - -", FenError::SIDE,
               "FEN side to move: expected 'w' or 'b', found 'white'");
}

TEST(FenErrors, Castling) {
  expect_error("4k3/8/8/8/8/8/8/4K3 w", FenError::CASTLING,
               "FEN castling: missing (expected '-' or letters KQkq/A-H/a-h)");
  expect_error("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", FenError::CASTLING,
               "FEN castling, character 2 'X': expected '-' or letters KQkq or A-H/a-h");
  expect_error("4k3/8/8/8/8/8/8/4K3 w K - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'K': no white rook on the king side of rank 1");
  expect_error("4k2r/8/8/8/8/8/8/4K3 w q - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'q': no black rook on the queen side of rank 8");
  expect_error("4k3/8/8/8/8/8/4K3/7R w K - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'K': the white king is not on rank 1");
  expect_error("4k3/8/8/8/8/8/8/4K2R w G - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'G': no white rook on g1");
  expect_error("4k3/8/8/8/8/8/8/4K2R w E - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'E': names the king's own file");
  expect_error("4k3/8/8/8/8/8/8/4KRRR w KG - 0 1", FenError::CASTLING,
               "FEN castling, character 2 'G': a second white castling right on the king side");
  expect_error("4k3/8/8/8/8/8/8/R3K3 w KQ - 0 1", FenError::CASTLING,
               "FEN castling, character 1 'K': no white rook on the king side of rank 1");
}

TEST(FenErrors, EnPassant) {
  expect_error("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", FenError::EN_PASSANT,
               "FEN en passant: expected '-' or a square, found 'e9'");
  expect_error("4k3/8/8/8/8/8/8/4K3 w - x 0 1", FenError::EN_PASSANT,
               "FEN en passant: expected '-' or a square, found 'x'");
  expect_error("4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1", FenError::EN_PASSANT,
               "FEN en passant: e3 is not on rank 6 (white to move)");
}

TEST(Fen, ImpossibleEnPassantSquareIsDropped) {
  Position pos;
  // No black pawn on e5.
  ASSERT_TRUE(pos.set_fen("4k3/8/8/8/8/8/8/4K3 w - e6 0 1").ok());
  EXPECT_EQ(pos.ep_square(), SQ_NONE);
  // From a published study: g7 is occupied, so g7-g5 cannot have been played.
  ASSERT_TRUE(pos.set_fen("3n4/1P3ppp/3q3k/4p1pP/4PpP1/8/4P1BP/4QK2 w - g6 0 1").ok());
  EXPECT_EQ(pos.ep_square(), SQ_NONE);
  EXPECT_EQ(pos.fen(), "3n4/1P3ppp/3q3k/4p1pP/4PpP1/8/4P1BP/4QK2 w - - 0 1");
}

TEST(FenErrors, Clocks) {
  expect_error("4k3/8/8/8/8/8/8/4K3 w - - x 1", FenError::HALFMOVE,
               "FEN half-move clock: expected a non-negative integer, found 'x'");
  expect_error("4k3/8/8/8/8/8/8/4K3 w - - -1 1", FenError::HALFMOVE,
               "FEN half-move clock: expected a non-negative integer, found '-1'");
  expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", FenError::FULLMOVE,
               "FEN full-move number: expected a non-negative integer, found '1.5'");
  expect_error("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", FenError::EXTRA,
               "FEN: unexpected text after the full-move number: 'extra'");
}

TEST(FenErrors, IllegalPositions) {
  expect_error("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: white has 2 kings, expected exactly 1");
  expect_error("8/8/8/8/8/8/8/4K3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: black has 0 kings, expected exactly 1");
  expect_error("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: pawn on h8 (rank 1 or 8)");
  expect_error("4k3/8/8/8/8/8/8/p3K3 b - - 0 1", FenError::ILLEGAL,
               "FEN position: pawn on a1 (rank 1 or 8)");
  expect_error("4k3/8/8/8/8/8/8/4K2r b - - 0 1", FenError::ILLEGAL,
               "FEN position: the side not to move (white) is in check");
  expect_error("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: white has 9 pawns, at most 8 possible");
  expect_error("4k3/8/8/8/QQQ5/8/PPPPPPPP/4K3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: white has 2 promoted pieces but 8 pawns");
  expect_error("4k3/8/8/N7/QQQ5/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1", FenError::ILLEGAL,
               "FEN position: white has 21 pieces, at most 16 possible");
}

}  // namespace
}  // namespace chess
