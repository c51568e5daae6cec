// Move lines of :line and :line* (seed 000 "Zugfolge"; CQL-Position-List :line).
#include <gtest/gtest.h>

#include <string>

#include "chess/types.h"
#include "cql/ast_print.h"
#include "cql/parser.h"

namespace {

namespace pm = cql::piece_mask;
using Move = cql::LineMove;

chess::Bitboard sq(const char* n) {
  return chess::Bitboard(1) << ((n[1] - '1') * 8 + (n[0] - 'a'));
}

cql::LineArgs line(const std::string& args, const char* kw = ":line") {
  cql::List l =
      cql::parse_position_list("(position " + std::string(kw) + " " + args + ")", "l.cql");
  return l.keywords().at(0)->as<cql::LineArgs>();
}
Move move(const std::string& m) {
  return line("(" + m + ")").moves.at(0);
}

std::string error_of(const std::string& script) {
  cql::ParseResult r = cql::parse(script, "l.cql");
  return r.ok() ? std::string("<no error>") : std::string(r.error->what());
}

TEST(CqlLine, PlainMoves) {
  Move m = move("Pe2-e4");
  EXPECT_EQ(m.kind, Move::Kind::Normal);
  EXPECT_EQ(m.from.pieces, pm::kWhitePawn);
  EXPECT_EQ(m.from.squares.squares, sq("e2"));
  EXPECT_EQ(m.target, Move::Target::Empty);
  EXPECT_EQ(m.to.pieces, pm::kEmpty);  // '-': the destination is empty
  EXPECT_EQ(m.to.squares.squares, sq("e4"));
  Move any = move("e2-e4");  // piece not given: any piece from e2
  EXPECT_FALSE(any.from.piece_part_written);
  EXPECT_EQ(any.from.pieces, pm::kAnyPiece);
  Move cap = move("Pd5xpe6");
  EXPECT_EQ(cap.target, Move::Target::Capture);
  EXPECT_EQ(cap.to.pieces, pm::kBlackPawn);
  Move capture_any = move("Nxe4");
  EXPECT_EQ(capture_any.to.pieces, pm::kAnyPiece);
  Move either = move("Nf3:ne5");
  EXPECT_EQ(either.target, Move::Target::Either);
  EXPECT_EQ(either.to.pieces, pm::kBlackKnight);
}

TEST(CqlLine, Shorthands) {
  Move ne5 = move("Ne5");  // = N??-e5
  EXPECT_EQ(ne5.from.pieces, pm::kWhiteKnight);
  EXPECT_EQ(ne5.from.squares.squares, ~chess::Bitboard(0));
  EXPECT_EQ(ne5.to.squares.squares, sq("e5"));
  EXPECT_EQ(ne5.to.pieces, pm::kEmpty);
  Move n = move("N");  // any knight move to an empty square
  EXPECT_EQ(n.to.pieces, pm::kEmpty);
  EXPECT_EQ(move("Nx").to.pieces, pm::kAnyPiece);
  EXPECT_EQ(move("N:").to.pieces, pm::kAll);
  Move xm = move("xm");  // some piece captures a black major piece
  EXPECT_FALSE(xm.from_written);
  EXPECT_EQ(xm.to.pieces, pm::kBlackMajor);
}

TEST(CqlLine, DesignatorsInMoves) {
  Move m = move("Nb1-[ac]3");
  EXPECT_EQ(m.to.squares.squares, sq("a3") | sq("c3"));
  Move b = move("b[bg]7xI?1");
  EXPECT_EQ(b.from.pieces, pm::kBlackBishop);
  EXPECT_EQ(b.from.squares.squares, sq("b7") | sq("g7"));
  EXPECT_EQ(b.to.pieces, pm::kWhiteMinor);
  EXPECT_EQ(b.to.squares.squares, 0xFFull);
  Move major = move("M?[1-7]-?8+");
  EXPECT_EQ(major.from.squares.squares, 0x00FFFFFFFFFFFFFFull);
  EXPECT_EQ(major.to.squares.squares, 0xFF00000000000000ull);
  EXPECT_EQ(major.checks, cql::kMarkCheck);
  Move promoted = move("Ux[Q~q~]");
  EXPECT_EQ(promoted.to.promoted, pm::kWhiteQueen | pm::kBlackQueen);
}

TEST(CqlLine, SuffixesAndSpecialMoves) {
  EXPECT_EQ(move("Bg5++").checks, cql::kMarkDoubleCheck);
  EXPECT_EQ(move("Q+++").checks, cql::kMarkContactCheck);
  EXPECT_EQ(move("N:f7#").checks, cql::kMarkMate);
  EXPECT_EQ(move("Q+*").checks, cql::kMarkCheck | cql::kMarkNoMate);
  EXPECT_EQ(move("M?[1-7]-?8-").checks, cql::kMarkNoCheck);
  EXPECT_TRUE(move("K!").forced);
  Move promo = move("P=A#");
  ASSERT_TRUE(promo.promotion.has_value());
  EXPECT_EQ(promo.promotion->pieces, pm::kWhite);
  EXPECT_EQ(promo.checks, cql::kMarkMate);
  Move ep = line("(Pd5xe6 ep)").moves.at(0);
  EXPECT_TRUE(ep.en_passant);
  EXPECT_TRUE(line("\"d5xe6 e.p.\"").moves.at(0).en_passant);
  EXPECT_EQ(move("O-O").castling, chess::WHITE_OO | chess::BLACK_OO);
  EXPECT_EQ(move("O-O-O").castling, chess::WHITE_OOO | chess::BLACK_OOO);
  EXPECT_EQ(move("O-O-O-O").castling, chess::ANY_CASTLING);
  EXPECT_EQ(move("K-Q").castling, chess::WHITE_OOO);
  EXPECT_EQ(move("k-kq").castling, chess::BLACK_OO | chess::BLACK_OOO);
  EXPECT_EQ(move("--").kind, Move::Kind::AnyMove);
  EXPECT_EQ(move("null").kind, Move::Kind::NullMove);
  Move drop = move("P@?7");
  EXPECT_EQ(drop.kind, Move::Kind::Drop);
  EXPECT_TRUE(drop.from.squares.reserve);
  EXPECT_EQ(drop.to.squares.squares, 0x00FF000000000000ull);
}

TEST(CqlLine, MoveNumbersAndPotentialContinuation) {
  cql::LineArgs a = line("(1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)");
  EXPECT_TRUE(a.numbered);
  EXPECT_EQ(*a.moves[0].move_number, 1);
  EXPECT_EQ(*a.moves[2].move_number, 2);
  cql::LineArgs black = line("(2...Pe7-e6)");
  EXPECT_TRUE(black.moves[0].black_move_number);
  cql::LineArgs pot = line("(R:+ k R:+ k R:+ k R:+ | k)");
  EXPECT_EQ(*pot.potential_from, 7u);
  cql::LineArgs str = line("\"e2-e4 e7-e6 d2-d4 d7-d5 *\"");
  EXPECT_TRUE(str.quoted);
  EXPECT_TRUE(str.transposition);
  EXPECT_EQ(str.moves.size(), 4u);
  EXPECT_EQ(cql::to_string(str), "(e2-e4 e7-e6 d2-d4 d7-d5 *)");
}

TEST(CqlLine, TranspositionInvariantLines) {
  EXPECT_EQ(line("(1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)", ":line*").moves.size(), 4u);
  EXPECT_EQ(line("(Pe2-e4 pd7-d5 Pe4xPd5)", ":line*").moves.size(), 3u);
  EXPECT_EQ(line("(Pe2-e4 Pf7-f6 Qd1-h5+)", ":line*").moves.size(), 3u);
  EXPECT_NE(
      error_of("(match (position :line* (e2-e4 d7-d5)))").find("the moving piece is not given"),
      std::string::npos);
  EXPECT_NE(error_of("(match (position :line* (Pe2-e4 pd7-d5 Pe4xd5)))")
                .find("the captured piece is not given"),
            std::string::npos);
  EXPECT_NE(
      error_of("(match (position :line* (Pe2-e?)))").find("the destination square is not unique"),
      std::string::npos);
  EXPECT_NE(error_of("(match (position :line* (Pe2-e4 Pf7-f6 Qd1-h5+ Pg7-g6)))")
                .find("check marks only on the last move"),
            std::string::npos);
  EXPECT_NE(error_of("(match (position :line* (Pe2-e4 | pe7-e5)))")
                .find("does not allow a potential continuation"),
            std::string::npos);
}

TEST(CqlLine, Errors) {
  EXPECT_EQ(error_of("(match (position :line (e2-Ne4)))"),
            "l.cql:1:28: invalid move 'e2-Ne4': a move with '-' goes to an empty square; write 'x' "
            "or ':' to capture (expected a square after '-')");
  EXPECT_EQ(error_of("(match (position :line (Pe2-e4 Ng8-f6)))"),
            "l.cql:1:32: the colours of the moving pieces must alternate in a line without move "
            "numbers (expected a black piece here, or move numbers)");
  EXPECT_EQ(error_of("(match (position :line (1.Pe2-e4 Pe7-e5 3.Ng1-f3)))"),
            "l.cql:1:41: move number does not follow the previous moves (expected '2.' here)");
  EXPECT_EQ(
      error_of("(match (position :line (Pe2-e4 2.Pd2-d4)))"),
      "l.cql:1:25: a line with move numbers must start with one (expected a move like 1.Pe2-e4)");
  EXPECT_EQ(error_of("(match (position :line (| k)))"),
            "l.cql:1:25: '|' needs at least one move before it (expected a move)");
  EXPECT_EQ(error_of("(match (position :line (Pe2-e4 ep)))"),
            "l.cql:1:32: 'ep' must follow a pawn capture (expected a move like Pd5xe6)");
  EXPECT_EQ(error_of("(match (position :line (P=)))"),
            "l.cql:1:27: invalid move 'P=': missing promotion piece after '=' (expected a piece "
            "designator like Q or [RBN])");
  EXPECT_EQ(
      error_of("(match (position :line (Pe2-e4 \"x\")))"),
      "l.cql:1:32: unexpected string \"x\" in a move line (expected a move like Nb1-c3 or ')')");
  EXPECT_EQ(error_of("(match (position :line \"e2-e4 e7-e5 Qz9\"))"),
            "l.cql:1:38: invalid move 'Qz9': unexpected 'z' in designator (expected a move like "
            "Nb1-c3, Pe4xd5, O-O or --)");
}

TEST(CqlLine, PrintingRoundTrips) {
  for (const char* args :
       {"(1.Pe2-e4 Ng8-f6)", "(Nxe5 bxQ Bxf7+ | ke7! Nd5#)", "(Qd8+ | kxd8! B:g5++ k [RB]d8#)",
        "(Qa2-b2+ -- Qb2-b3+ -- Qb3-c3+ -- Qc3-c4+)", "(Pc4xPd5 nf6xPd5 Nc3xNd5 pe6xNd5)",
        "([Qq]x[Rr])", "(P@?7 k A@+)", "(O-O k-q K-KQ)", "(null -- Pd5xe6 ep)"}) {
    std::string text = "(match (position :line " + std::string(args) + "))";
    std::string printed = cql::to_string(cql::parse_or_throw(text, "l.cql"));
    EXPECT_EQ(printed, cql::to_string(cql::parse_or_throw(printed, "printed"))) << text;
  }
  EXPECT_EQ(cql::to_string(line("(1.Pe2-e4 Ng8-f6)")), "(1.Pe2-e4 Ng8-f6)");
  EXPECT_EQ(cql::to_string(line("(N?\?-f7++ nb8-[ac]6)")), "(Nf7++ nb8-[a6,c6])");
}

}  // namespace
