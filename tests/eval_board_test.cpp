// Per-position board predicates (eval/board_predicates.h), rays (eval/ray.h) and piece
// masks (eval/piece_mask.h) on positions built from FENs: each predicate true and false,
// and the examples of seed 004 / CQL-Position-List that state a result.
#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "chess/bitboard.h"
#include "chess/position.h"
#include "eval/board_predicates.h"
#include "eval/piece_mask.h"
#include "eval/ray.h"

namespace eval {
namespace {

using chess::Bitboard;
namespace pm = cql::piece_mask;

constexpr Bitboard kAll = ~Bitboard(0);

chess::Position P(std::string_view fen) {
  chess::Position pos;
  const chess::FenError e = pos.set_fen(fen);
  EXPECT_TRUE(e.ok()) << fen << ": " << e.message;
  return pos;
}

Bitboard sq(std::string_view name) {
  return chess::square_bb(
      chess::make_square(chess::File(name[0] - 'a'), chess::Rank(name[1] - '1')));
}

// ---- Piece masks ----------------------------------------------------------------------------

TEST(PieceMask, BitsFollowTheDesignatorLayout) {
  EXPECT_EQ(piece_bit(chess::W_KING), pm::kWhiteKing);
  EXPECT_EQ(piece_bit(chess::W_QUEEN), pm::kWhiteQueen);
  EXPECT_EQ(piece_bit(chess::W_PAWN), pm::kWhitePawn);
  EXPECT_EQ(piece_bit(chess::B_KNIGHT), pm::kBlackKnight);
  EXPECT_EQ(piece_bit(chess::B_KING), pm::kBlackKing);
  EXPECT_EQ(piece_bit(chess::NO_PIECE), pm::kEmpty);
  EXPECT_EQ(piece_bit(chess::BLACK, chess::ROOK), pm::kBlackRook);
}

TEST(PieceMask, SquaresOf) {
  const chess::Position start;
  EXPECT_EQ(squares_of(start, pm::kWhiteRook), sq("a1") | sq("h1"));
  EXPECT_EQ(squares_of(start, pm::kWhite), chess::RANK_1_BB | chess::rank_bb(chess::RANK_2));
  EXPECT_EQ(squares_of(start, pm::kEmpty), 0x0000FFFFFFFF0000ull);
  EXPECT_EQ(squares_of(start, pm::kAll), kAll);
  EXPECT_EQ(squares_of(start, pm::kWhiteMinor | pm::kBlackKing),
            sq("b1") | sq("c1") | sq("f1") | sq("g1") | sq("e8"));
  EXPECT_EQ(squares_of(start, 0), 0u);
  EXPECT_TRUE(square_matches(start, chess::SQ_E4, pm::kEmpty));
  EXPECT_FALSE(square_matches(start, chess::SQ_E1, pm::kBlackKing));
}

// ---- Check, mate, stalemate -----------------------------------------------------------------

TEST(BoardCheck, CheckAndItsDesignator) {
  const chess::Position start;
  EXPECT_FALSE(is_check(start));
  const chess::Position rook_check = P("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
  EXPECT_TRUE(is_check(rook_check));
  EXPECT_TRUE(is_check(rook_check, squares_of(rook_check, pm::kWhiteRook)));
  EXPECT_FALSE(is_check(rook_check, squares_of(rook_check, pm::kWhiteQueen)));
  // CQL-S: (position :check [Q]?8) - a white queen on the back rank gives check.
  const chess::Position back_rank = P("Q3k3/8/8/8/8/8/8/6K1 b - - 0 1");
  EXPECT_TRUE(is_check(back_rank, matching_squares(back_rank, pm::kWhiteQueen, chess::RANK_8_BB)));
  EXPECT_FALSE(is_check(back_rank, matching_squares(back_rank, pm::kWhiteQueen, chess::RANK_1_BB)));
}

TEST(BoardCheck, DoubleCheck) {
  const chess::Position knight_rook = P("4k3/8/3N4/8/8/8/8/4R1K1 b - - 0 1");
  const chess::Position bishop_rook = P("4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1");
  const chess::Position single = P("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
  EXPECT_TRUE(is_double_check(knight_rook));
  EXPECT_TRUE(is_double_check(bishop_rook));
  EXPECT_FALSE(is_double_check(single));
  EXPECT_FALSE(is_double_check(chess::Position()));
  // CQL-S: (position :doublecheck [RB]) - a white rook and a white bishop check together.
  const PieceMask rb = pm::kWhiteRook | pm::kWhiteBishop;
  EXPECT_TRUE(is_double_check(bishop_rook, squares_of(bishop_rook, rb)));
  EXPECT_FALSE(is_double_check(knight_rook, squares_of(knight_rook, rb)));
  // :attackcount A k 2 says the same.
  EXPECT_EQ(attack_count(bishop_rook, squares_of(bishop_rook, pm::kWhite),
                         squares_of(bishop_rook, pm::kBlackKing)),
            2);
}

TEST(BoardCheck, ContactCheck) {
  EXPECT_TRUE(is_contact_check(P("4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1")));    // adjacent queen
  EXPECT_TRUE(is_contact_check(P("4k3/3B4/8/8/8/8/8/4K3 b - - 0 1")));    // adjacent bishop
  EXPECT_TRUE(is_contact_check(P("4k3/3P4/8/8/8/8/8/4K3 b - - 0 1")));    // pawn
  EXPECT_TRUE(is_contact_check(P("4k3/8/3N4/8/8/8/8/6K1 b - - 0 1")));    // knight
  EXPECT_TRUE(is_contact_check(P("4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1")));  // double check
  EXPECT_FALSE(is_contact_check(P("4k3/8/8/8/8/8/8/4Q1K1 b - - 0 1")));   // distant queen
  EXPECT_FALSE(is_contact_check(P("4k3/8/2B5/8/8/8/8/4K3 b - - 0 1")));   // bishop two away
  EXPECT_FALSE(is_contact_check(chess::Position()));
  // White king checked by an adjacent black rook.
  EXPECT_TRUE(is_contact_check(P("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1")));
  // CQL-S: (position :contactcheck Q) - a white queen adjacent to the opposing king.
  const chess::Position queen = P("4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_TRUE(is_contact_check(queen, squares_of(queen, pm::kWhiteQueen)));
  EXPECT_FALSE(is_contact_check(queen, squares_of(queen, pm::kWhiteRook)));
}

TEST(BoardCheck, MateAndStalemate) {
  const chess::Position fools_mate =
      P("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
  EXPECT_TRUE(is_mate(fools_mate));
  EXPECT_FALSE(is_stalemate(fools_mate));
  const chess::Position stalemate = P("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  EXPECT_TRUE(is_stalemate(stalemate));
  EXPECT_FALSE(is_mate(stalemate));
  const chess::Position check_not_mate = P("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1");
  EXPECT_FALSE(is_mate(check_not_mate));
  EXPECT_FALSE(is_stalemate(check_not_mate));
  EXPECT_FALSE(is_mate(chess::Position()));
  EXPECT_FALSE(is_stalemate(chess::Position()));
}

// ---- Material -------------------------------------------------------------------------------

TEST(BoardMaterial, NoMatingMaterial) {
  EXPECT_TRUE(no_mating_material(P("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));       // K v K
  EXPECT_TRUE(no_mating_material(P("4k3/8/8/8/8/8/8/3NK3 w - - 0 1")));      // KN v K
  EXPECT_TRUE(no_mating_material(P("4kb2/8/8/8/8/8/8/4K3 w - - 0 1")));      // K v KB
  EXPECT_TRUE(no_mating_material(P("4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1")));    // c1, f8: dark
  EXPECT_TRUE(no_mating_material(P("4k3/8/8/8/8/8/8/B1B1K3 w - - 0 1")));    // a1, c1: dark
  EXPECT_FALSE(no_mating_material(P("2b1k3/8/8/8/8/8/8/2B1K3 w - - 0 1")));  // c1 dark, c8 light
  EXPECT_FALSE(no_mating_material(P("4k3/8/8/8/8/8/8/3RK3 w - - 0 1")));     // KR v K
  EXPECT_FALSE(no_mating_material(P("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")));    // KP v K
  EXPECT_FALSE(no_mating_material(P("4kn2/8/8/8/8/8/8/3NK3 w - - 0 1")));    // KN v KN
  EXPECT_FALSE(no_mating_material(chess::Position()));
  EXPECT_TRUE(has_mating_material(chess::Position()));
  EXPECT_FALSE(has_mating_material(P("4k3/8/8/8/8/8/8/4K3 w - - 0 1")));
}

TEST(BoardMaterial, CannotWin) {
  const chess::Position bare_white = P("r3k3/8/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_TRUE(cannot_win(bare_white, chess::WHITE));
  EXPECT_FALSE(cannot_win(bare_white, chess::BLACK));
  const chess::Position minor_each = P("4kn2/8/8/8/8/8/8/3BK3 w - - 0 1");
  EXPECT_TRUE(cannot_win(minor_each, chess::WHITE));
  EXPECT_TRUE(cannot_win(minor_each, chess::BLACK));
  EXPECT_FALSE(cannot_win(P("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), chess::WHITE));  // pawn
  EXPECT_FALSE(cannot_win(P("4k3/8/8/8/8/8/8/2NNK3 w - - 0 1"), chess::WHITE));  // two knights
  EXPECT_FALSE(cannot_win(chess::Position(), chess::BLACK));
}

TEST(BoardMaterial, Endgame) {
  EXPECT_FALSE(is_endgame(chess::Position()));
  // (a) no queens, at most three rooks and minor pieces a side, pawns unlimited.
  EXPECT_TRUE(is_endgame(P("2r1k3/pp3ppp/2n5/8/8/2N5/PPB2PPP/3R2K1 w - - 0 1")));
  EXPECT_FALSE(is_endgame(P("2r1k3/pp3ppp/2n5/8/8/2N5/PPBB1PPP/3R2K1 w - - 0 1")));  // 4 white
  // (b) a queen each, no rooks, at most one minor piece a side.
  EXPECT_TRUE(is_endgame(P("3qk3/pp3ppp/2n5/8/8/8/PP3PPP/3QK1B1 w - - 0 1")));
  EXPECT_FALSE(is_endgame(P("3qk3/pp3ppp/2n5/8/8/8/PP3PPP/R2QK1B1 w - - 0 1")));  // a rook
  // (c) queen (and at most one minor) against rooks and minors of power <= 16, no queen.
  EXPECT_TRUE(is_endgame(P("r2rk3/pp3ppp/2b5/8/8/8/PP3PPP/3QK1N1 w - - 0 1")));     // 13
  EXPECT_TRUE(is_endgame(P("3qk1n1/pp3ppp/8/8/8/2B5/PP3PPP/R2RK3 w - - 0 1")));     // 13, flipped
  EXPECT_TRUE(is_endgame(P("r2rk3/pp3ppp/2bb4/8/8/8/PP3PPP/3QK1N1 w - - 0 1")));    // 16
  EXPECT_FALSE(is_endgame(P("r2rk3/pp3ppp/2bbn3/8/8/8/PP3PPP/3QK1N1 w - - 0 1")));  // 19
}

TEST(BoardMaterial, Power) {
  const chess::Position start;
  // Q 9 + 2 R 10 + 2 B 6 + 2 N 6 + 8 P 8 + K 0 = 39.
  EXPECT_EQ(power(start, squares_of(start, pm::kWhite)), 39);
  EXPECT_EQ(power(start, squares_of(start, pm::kBlack)), 39);
  EXPECT_EQ(power(start, squares_of(start, pm::kWhiteKing | pm::kEmpty)), 0);
  // (position :power a 6): black has power 6.
  const chess::Position six = P("4k3/2p1p3/8/5n2/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(power(six, squares_of(six, pm::kBlack)), 5);
  const chess::Position six2 = P("4k3/2ppp3/8/5n2/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(power(six2, squares_of(six2, pm::kBlack)), 6);
  // (position :power A[a-h1-4] 10 25): white power on ranks 1-4.
  const Bitboard white_half = 0x00000000FFFFFFFFull;
  EXPECT_EQ(power(start, matching_squares(start, pm::kWhite, white_half)), 39);
  EXPECT_EQ(power(start, matching_squares(start, pm::kBlack, white_half)), 0);
  EXPECT_EQ(power_difference(start, kAll), 0);
  const chess::Position knight_up = P("r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_EQ(power_difference(knight_up, squares_of(knight_up, pm::kAnyPiece)), 3);
  // (position :powerdifference [Rr] ...): rooks only.
  const chess::Position rooks = P("4k3/8/8/8/8/8/8/R2RK3 w - - 0 1");
  EXPECT_EQ(power_difference(rooks, squares_of(rooks, pm::kWhiteRook | pm::kBlackRook)), 10);
  EXPECT_EQ(power_difference(rooks, squares_of(rooks, pm::kBlackRook)), 0);
  EXPECT_EQ(piece_power(chess::W_QUEEN), 9);
  EXPECT_EQ(piece_power(chess::B_ROOK), 5);
  EXPECT_EQ(piece_power(chess::B_BISHOP), 3);
  EXPECT_EQ(piece_power(chess::W_KNIGHT), 3);
  EXPECT_EQ(piece_power(chess::B_PAWN), 1);
  EXPECT_EQ(piece_power(chess::W_KING), 0);
  EXPECT_EQ(piece_power(chess::NO_PIECE), 0);
}

// ---- Attacks --------------------------------------------------------------------------------

TEST(BoardAttack, AttackCountInTheStartPosition) {
  const chess::Position start;
  // Pawns 14, knights 6, bishops 4, rooks 4, queen 5, king 5: own pieces count too.
  EXPECT_EQ(attack_count(start, squares_of(start, pm::kWhite), kAll), 38);
  EXPECT_EQ(attack_count(start, squares_of(start, pm::kBlack), kAll), 38);
  // Attacks by the (empty) centre squares: none.
  EXPECT_EQ(attack_count(start, squares_of(start, pm::kEmpty), kAll), 0);
}

TEST(BoardAttack, SeedExamples) {
  // (position :attackcount A .h3 1): exactly one white piece attacks the empty h3.
  const chess::Position h3 = P("4k3/8/8/8/8/8/6P1/4K3 w - - 0 1");
  EXPECT_EQ(attack_count(h3, squares_of(h3, pm::kWhite), squares_of(h3, pm::kEmpty) & sq("h3")), 1);
  const chess::Position h3_twice = P("4k3/8/8/8/8/8/6P1/4K1N1 w - - 0 1");
  EXPECT_EQ(attack_count(h3_twice, squares_of(h3_twice, pm::kWhite),
                         squares_of(h3_twice, pm::kEmpty) & sq("h3")),
            2);
  // (position :attackcount n [KRQ] >=3): a black knight forking king, rook and queen.
  const chess::Position fork = P("4k3/8/8/8/8/2n5/R7/1Q1K4 w - - 0 1");
  EXPECT_EQ(attack_count(fork, squares_of(fork, pm::kBlackKnight),
                         squares_of(fork, pm::kWhiteKing | pm::kWhiteRook | pm::kWhiteQueen)),
            3);
  // (position :attackcount [Kk] . 0): neither king attacks an empty square.
  const chess::Position boxed = P("6rk/6pp/8/8/8/8/PP6/KR6 w - - 0 1");
  EXPECT_EQ(attack_count(boxed, squares_of(boxed, pm::kKings), squares_of(boxed, pm::kEmpty)), 0);
  const chess::Position start;
  EXPECT_EQ(attack_count(start, squares_of(start, pm::kKings), squares_of(start, pm::kEmpty)), 0);
  const chess::Position open = P("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
  EXPECT_EQ(attack_count(open, squares_of(open, pm::kKings), squares_of(open, pm::kEmpty)), 10);
  // (position :attackcount [RB][a-c8] ??1 5 9): sliders on a8-c8 attacking the first rank.
  const chess::Position files = P("RR6/4k3/8/8/8/8/8/7K w - - 0 1");
  EXPECT_EQ(attack_count(files,
                         matching_squares(files, pm::kWhiteRook | pm::kWhiteBishop,
                                          sq("a8") | sq("b8") | sq("c8")),
                         chess::RANK_1_BB),
            2);
}

TEST(BoardAttack, PinnedPiecesStillAttackAndPawnsAttackDiagonally) {
  // The d2 knight is pinned to the king by the b4 bishop but still attacks (no check rules).
  const chess::Position pinned = P("4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1");
  EXPECT_EQ(attacks_from(pinned, chess::SQ_D2),
            sq("b1") | sq("f1") | sq("b3") | sq("f3") | sq("c4") | sq("e4"));
  const chess::Position start;
  EXPECT_EQ(attacks_from(start, chess::SQ_E2), sq("d3") | sq("f3"));
  EXPECT_EQ(attacks_from(start, chess::SQ_E7), sq("d6") | sq("f6"));
  EXPECT_EQ(attacks_from(start, chess::SQ_E4), 0u);
  EXPECT_EQ(attacks_from(start, chess::SQ_A1), sq("a2") | sq("b1"));
}

// ---- Rays -----------------------------------------------------------------------------------

RayStep G(PieceMask pieces, Bitboard squares = kAll) {
  return RayStep{pieces, squares};
}

int rays(const chess::Position& pos, std::vector<RayStep> steps, RayFilter f = ray_filter::kRay) {
  return ray_count(pos, steps, f);
}

const Bitboard kFileA = chess::FILE_A_BB;
const Bitboard kFileC = chess::file_bb(chess::FILE_C);
const Bitboard kFileE = chess::file_bb(chess::FILE_E);
const Bitboard kFileG = chess::file_bb(chess::FILE_G);

TEST(Ray, QueenAttacksKing) {
  // (position :ray (k Q)): a white queen attacks the black king.
  const chess::Position open = P("4k3/8/8/8/Q7/8/8/4K3 b - - 0 1");
  EXPECT_EQ(rays(open, {G(pm::kBlackKing), G(pm::kWhiteQueen)}), 1);
  EXPECT_EQ(rays(open, {G(pm::kWhiteQueen), G(pm::kBlackKing)}), 1);
  EXPECT_EQ(rays(open, {G(pm::kBlackKing), G(pm::kWhiteQueen)}, ray_filter::kRayDiagonal), 1);
  EXPECT_EQ(rays(open, {G(pm::kBlackKing), G(pm::kWhiteQueen)}, ray_filter::kRayOrthogonal), 0);
  const chess::Position blocked = P("4k3/3p4/8/8/Q7/8/8/4K3 w - - 0 1");
  EXPECT_EQ(rays(blocked, {G(pm::kBlackKing), G(pm::kWhiteQueen)}), 0);
  const chess::Position adjacent = P("4k3/4Q3/8/8/8/8/8/4K3 b - - 0 1");
  EXPECT_EQ(rays(adjacent, {G(pm::kBlackKing), G(pm::kWhiteQueen)}), 1);
}

TEST(Ray, QueenOnAFilePinsKnight) {
  // (position :ray (Qa? n k[?4-8]))
  const Bitboard upper = 0xFFFFFFFF00000000ull;
  const std::vector<RayStep> spec = {G(pm::kWhiteQueen, kFileA), G(pm::kBlackKnight),
                                     G(pm::kBlackKing, upper)};
  EXPECT_EQ(rays(P("3k4/2n5/8/Q7/8/8/8/4K3 w - - 0 1"), spec), 1);
  EXPECT_EQ(rays(P("3k4/2n5/1Q6/8/8/8/8/4K3 w - - 0 1"), spec), 0);  // queen on b6
  EXPECT_EQ(rays(P("8/8/8/8/8/k7/1n6/2Q1K3 w - - 0 1"), spec), 0);   // Qc1: not the a file
  EXPECT_EQ(rays(P("8/8/8/8/Q7/8/2n5/3k1K2 w - - 0 1"), spec), 0);   // king on d1
}

TEST(Ray, ThreeQueensAndKingOneSquareApart) {
  // (position :ray (Qa? Qc? Qe? kg?)): on a rank or on a diagonal.
  const std::vector<RayStep> spec = {G(pm::kWhiteQueen, kFileA), G(pm::kWhiteQueen, kFileC),
                                     G(pm::kWhiteQueen, kFileE), G(pm::kBlackKing, kFileG)};
  EXPECT_EQ(rays(P("8/8/8/8/Q1Q1Q1k1/8/8/K7 b - - 0 1"), spec), 1);
  EXPECT_EQ(rays(P("8/6k1/8/4Q3/8/2Q5/8/Q3K3 b - - 0 1"), spec), 1);
  EXPECT_EQ(rays(P("8/8/8/8/QPQ1Q1k1/8/8/K7 b - - 0 1"), spec), 0);  // b4 not empty
  EXPECT_EQ(rays(P("8/8/8/8/Q1Q1Q1k1/8/8/K7 b - - 0 1"), spec, ray_filter::kRayHorizontal), 1);
  EXPECT_EQ(rays(P("8/8/8/8/Q1Q1Q1k1/8/8/K7 b - - 0 1"), spec, ray_filter::kRayDiagonal), 0);
}

TEST(Ray, TwoPinnedKnights) {
  // (position :ray (Q n k) 2 4): between two and four black knights are pinned.
  const std::vector<RayStep> spec = {G(pm::kWhiteQueen), G(pm::kBlackKnight), G(pm::kBlackKing)};
  EXPECT_EQ(rays(P("4k3/8/2n5/4n3/Q7/8/8/4Q1K1 w - - 0 1"), spec), 2);
  EXPECT_EQ(rays(P("4k3/8/2n5/4n3/8/8/8/4Q1K1 w - - 0 1"), spec), 1);
}

TEST(Ray, OrthogonalDiagonalVerticalHorizontal) {
  // (position :rayorthogonal (R b k)): a black bishop pinned by a white rook.
  const chess::Position rook_pin = P("4k3/8/8/4b3/8/8/8/4R1K1 w - - 0 1");
  const std::vector<RayStep> rbk = {G(pm::kWhiteRook), G(pm::kBlackBishop), G(pm::kBlackKing)};
  EXPECT_EQ(rays(rook_pin, rbk, ray_filter::kRayOrthogonal), 1);
  EXPECT_EQ(rays(rook_pin, rbk, ray_filter::kRayVertical), 1);
  EXPECT_EQ(rays(rook_pin, rbk, ray_filter::kRayHorizontal), 0);
  EXPECT_EQ(rays(rook_pin, rbk, ray_filter::kRayDiagonal), 0);

  // (position :raydiagonal (Q B n k)): a queen-bishop battery pins a knight.
  const chess::Position battery = P("8/8/5k2/8/3n4/8/1B6/Q3K3 w - - 0 1");
  const std::vector<RayStep> qbnk = {G(pm::kWhiteQueen), G(pm::kWhiteBishop), G(pm::kBlackKnight),
                                     G(pm::kBlackKing)};
  EXPECT_EQ(rays(battery, qbnk, ray_filter::kRayDiagonal), 1);
  EXPECT_EQ(rays(battery, qbnk, ray_filter::kRayOrthogonal), 0);

  // (position :rayvertical (R[a1-8] b k)): the pin on the a file.
  const std::vector<RayStep> rabk = {G(pm::kWhiteRook, kFileA), G(pm::kBlackBishop),
                                     G(pm::kBlackKing)};
  EXPECT_EQ(rays(P("k7/8/8/8/b7/8/8/R3K3 w - - 0 1"), rabk, ray_filter::kRayVertical), 1);
  EXPECT_EQ(rays(P("1k6/8/8/8/1b6/8/8/1R2K3 w - - 0 1"), rabk, ray_filter::kRayVertical), 0);

  // (position :rayhorizontal (K . . k)): kings on a rank, at least two empty squares apart.
  const std::vector<RayStep> kk = {G(pm::kWhiteKing), G(pm::kEmpty), G(pm::kEmpty),
                                   G(pm::kBlackKing)};
  EXPECT_EQ(rays(P("8/8/8/8/1K3k2/8/8/8 w - - 0 1"), kk, ray_filter::kRayHorizontal), 1);
  EXPECT_EQ(rays(P("8/8/8/8/1K2k3/8/8/8 w - - 0 1"), kk, ray_filter::kRayHorizontal), 1);
  EXPECT_EQ(rays(P("8/8/8/8/1K1k4/8/8/8 w - - 0 1"), kk, ray_filter::kRayHorizontal), 0);
  EXPECT_EQ(rays(P("8/8/8/8/1K1P1k2/8/8/8 w - - 0 1"), kk, ray_filter::kRayHorizontal), 0);
  EXPECT_EQ(rays(P("8/5k2/8/8/1K6/8/8/8 w - - 0 1"), kk, ray_filter::kRayHorizontal), 0);
}

TEST(Ray, RayAttackNeedsASliderAtTheStart) {
  // (position :rayattack (A a k)): a black piece pinned to the black king.
  const std::vector<RayStep> aak = {G(pm::kWhite), G(pm::kBlack), G(pm::kBlackKing)};
  const chess::Position rook = P("k7/8/8/8/n7/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(rays(rook, aak, ray_filter::kRayAttack), 1);
  const chess::Position bishop_on_file = P("k7/8/8/8/n7/8/8/B3K3 w - - 0 1");
  EXPECT_EQ(rays(bishop_on_file, aak), 1);  // a ray, but the bishop does not move along it
  EXPECT_EQ(rays(bishop_on_file, aak, ray_filter::kRayAttack), 0);
  const chess::Position king_start = P("k7/8/8/8/n7/8/8/K7 w - - 0 1");
  EXPECT_EQ(rays(king_start, aak), 1);
  EXPECT_EQ(rays(king_start, aak, ray_filter::kRayAttack), 0);
  const chess::Position bishop_pin = P("8/8/8/8/8/2k5/1n6/B3K3 w - - 0 1");
  EXPECT_EQ(rays(bishop_pin, aak, ray_filter::kRayAttack), 1);
}

TEST(Ray, RayAttackThreePinsFromD5) {
  // (position :rayattack (Ad5 a [rk][a-h1-4]) 3)
  const chess::Position pos = P("7K/8/8/3Q4/2npp3/1k1r1r2/8/8 w - - 0 1");
  const std::vector<RayStep> spec = {G(pm::kWhite, sq("d5")), G(pm::kBlack),
                                     G(pm::kBlackRook | pm::kBlackKing, 0x00000000FFFFFFFFull)};
  EXPECT_EQ(rays(pos, spec, ray_filter::kRayAttack), 3);
}

TEST(Ray, SymmetricRaysCountOnce) {
  const chess::Position queens = P("7k/8/8/8/Q3Q3/8/8/4K3 w - - 0 1");
  EXPECT_EQ(rays(queens, {G(pm::kWhiteQueen), G(pm::kWhiteQueen)}), 1);
  EXPECT_EQ(rays(queens, {G(pm::kWhiteQueen), G(pm::kEmpty), G(pm::kWhiteQueen)}), 1);
  EXPECT_EQ(rays(queens, {G(pm::kWhiteQueen), G(pm::kEmpty), G(pm::kEmpty), G(pm::kEmpty),
                          G(pm::kWhiteQueen)}),
            1);
  EXPECT_EQ(rays(queens, {G(pm::kWhiteQueen), G(pm::kEmpty), G(pm::kEmpty), G(pm::kEmpty),
                          G(pm::kEmpty), G(pm::kWhiteQueen)}),
            0);
}

TEST(Ray, EmptyDesignatorsAndDegenerateSpecifiers) {
  const chess::Position start;
  // From each white rook upward: a2 is a pawn, so (R . ) needs the adjacent square empty.
  EXPECT_EQ(rays(start, {G(pm::kWhiteRook), G(pm::kEmpty)}), 0);
  // (. .) horizontally: any two squares of an empty rank (the squares between are empty and
  // unpaired), counted once per pair: 28 on each of ranks 3-6.
  EXPECT_EQ(rays(start, {G(pm::kEmpty), G(pm::kEmpty)}, ray_filter::kRayHorizontal),
            4 * (7 + 6 + 5 + 4 + 3 + 2 + 1));
  EXPECT_EQ(rays(start, {G(pm::kWhiteKing)}), 0);
  EXPECT_EQ(rays(start, {}), 0);
  std::vector<RayStep> nine(9, G(pm::kAll));
  EXPECT_EQ(rays(start, nine), 0);
  EXPECT_TRUE(ray_matches(start, std::vector<RayStep>{G(pm::kWhiteKing), G(pm::kWhiteQueen)},
                          ray_filter::kRay));
}

}  // namespace
}  // namespace eval
