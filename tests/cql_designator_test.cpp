// Piece and square designators (CQL-Piece-Designators, CQL-Square-Designators, seed 002):
// resolved 64-bit square sets (a1 = bit 0, h8 = bit 63), piece sets, corner cases, errors.
#include <gtest/gtest.h>

#include <initializer_list>
#include <string>

#include "cql/designator.h"

namespace {

using chess::Bitboard;
namespace pm = cql::piece_mask;

Bitboard sq(const char* name) {
  return Bitboard(1) << ((name[1] - '1') * 8 + (name[0] - 'a'));
}
Bitboard sqs(std::initializer_list<const char*> names) {
  Bitboard b = 0;
  for (const char* n : names) b |= sq(n);
  return b;
}
Bitboard squares(const std::string& text) {
  return cql::parse_square_designator(text).squares;
}
cql::PieceDesignator piece(const std::string& text) {
  return cql::parse_piece_designator(text);
}

constexpr Bitboard kRank1 = 0xFFull;
constexpr Bitboard kRank8 = 0xFF00000000000000ull;
constexpr Bitboard kFileA = 0x0101010101010101ull;

TEST(CqlSquareDesignator, SimpleSquares) {
  EXPECT_EQ(squares("a1"), Bitboard(1));
  EXPECT_EQ(squares("h8"), Bitboard(1) << 63);
  EXPECT_EQ(squares("e4"), sq("e4"));
  EXPECT_EQ(squares("??"), ~Bitboard(0));
  EXPECT_EQ(squares("?8"), kRank8);
  EXPECT_EQ(squares("a?"), kFileA);
}

TEST(CqlSquareDesignator, CompoundExamplesOfThePage) {
  EXPECT_EQ(squares("[a-c1]"), sqs({"a1", "b1", "c1"}));
  EXPECT_EQ(squares("[b3-5]"), sqs({"b3", "b4", "b5"}));
  EXPECT_EQ(squares("[f-h6-8]"), sqs({"f6", "f7", "f8", "g6", "g7", "g8", "h6", "h7", "h8"}));
  EXPECT_EQ(squares("[a1,c4]"), sqs({"a1", "c4"}));
  EXPECT_EQ(squares("[a-h1-2,a8,h8]"), 0xFFFFull | sqs({"a8", "h8"}));
  EXPECT_EQ(squares("[L?]"), cql::kLightSquares);
  EXPECT_EQ(squares("[D1]"), sqs({"a1", "c1", "e1", "g1"}));
}

TEST(CqlSquareDesignator, UnbracketedRangesAsInTheCql10Manual) {
  EXPECT_EQ(squares("a-c1"), sqs({"a1", "b1", "c1"}));
  EXPECT_EQ(squares("f-h6-8"), squares("[f-h6-8]"));
  EXPECT_EQ(squares("a-h1-4"), 0xFFFFFFFFull);
  EXPECT_EQ(squares("?1-7"), ~kRank8);
}

TEST(CqlSquareDesignator, LightAndDarkInFileOrRankPosition) {
  EXPECT_EQ(squares("L?"), cql::kLightSquares);
  EXPECT_EQ(squares("D?"), cql::kDarkSquares);
  EXPECT_EQ(squares("?L"), cql::kLightSquares);
  EXPECT_EQ(squares("aL"), sqs({"a2", "a4", "a6", "a8"}));
  EXPECT_EQ(squares("L1"), sqs({"b1", "d1", "f1", "h1"}));
  EXPECT_TRUE(cql::kLightSquares & sq("h1"));
  EXPECT_FALSE(cql::kLightSquares & sq("a1"));
}

TEST(CqlSquareDesignator, FileAndRankSets) {
  EXPECT_EQ(squares("[ac]3"), sqs({"a3", "c3"}));
  EXPECT_EQ(squares("[a-h]8"), kRank8);
  EXPECT_EQ(squares("?[27]"), 0xFF00ull | 0x00FF000000000000ull);
  EXPECT_EQ(squares("[bg]7"), sqs({"b7", "g7"}));
  EXPECT_EQ(squares("a[1-3]"), sqs({"a1", "a2", "a3"}));
}

TEST(CqlSquareDesignator, EmptyReserveAndAll) {
  cql::SquareDesignator none = cql::parse_square_designator("[]");
  EXPECT_EQ(none.squares, 0u);
  EXPECT_FALSE(none.reserve);
  cql::SquareDesignator reserve = cql::parse_square_designator("[+]");
  EXPECT_EQ(reserve.squares, 0u);
  EXPECT_TRUE(reserve.reserve);
  cql::SquareDesignator reserve_a1 = cql::parse_square_designator("[+,a1]");
  EXPECT_EQ(reserve_a1.squares, sq("a1"));
  EXPECT_TRUE(reserve_a1.reserve);
  cql::SquareDesignator all = cql::parse_square_designator("[*]");
  EXPECT_EQ(all.squares, ~Bitboard(0));
  EXPECT_TRUE(all.reserve);
  EXPECT_FALSE(cql::parse_square_designator("??").reserve);  // ?? excludes the reserve
}

void expect_square_error(const std::string& text, size_t offset, const std::string& part) {
  try {
    cql::parse_square_designator(text);
    ADD_FAILURE() << text << " parsed";
  } catch (const cql::DesignatorError& e) {
    EXPECT_EQ(e.offset, offset) << text << ": " << e.message;
    EXPECT_NE(e.message.find(part), std::string::npos) << text << ": " << e.message;
  }
}

TEST(CqlSquareDesignator, Errors) {
  expect_square_error("DD", 1, "may not be used for both the file and the rank");
  expect_square_error("LD", 1, "may not be used for both");
  expect_square_error("[LL]", 2, "may not be used for both");
  expect_square_error("h-a1", 0, "reversed file range 'h-a'");
  expect_square_error("a8-1", 1, "reversed rank range '8-1'");
  expect_square_error("[a1,c4", 0, "missing ']'");
  expect_square_error("[a1,]", 4, "missing square after ','");
  expect_square_error("[a-h]", 5, "missing rank");
  expect_square_error("i1", 0, "missing square designator");
  expect_square_error("a9", 1, "'9' is not a rank");
  expect_square_error("e4x", 2, "unexpected 'x'");
}

TEST(CqlPieceDesignator, PieceLetters) {
  EXPECT_EQ(piece("K").pieces, pm::kWhiteKing);
  EXPECT_EQ(piece("p").pieces, pm::kBlackPawn);
  EXPECT_EQ(piece("A").pieces, pm::kWhite);
  EXPECT_EQ(piece("a").pieces, pm::kBlack);
  EXPECT_EQ(piece("M").pieces, pm::kWhiteQueen | pm::kWhiteRook);
  EXPECT_EQ(piece("m").pieces, pm::kBlackQueen | pm::kBlackRook);
  EXPECT_EQ(piece("I").pieces, pm::kWhiteBishop | pm::kWhiteKnight);
  EXPECT_EQ(piece("i").pieces, pm::kBlackBishop | pm::kBlackKnight);
  EXPECT_EQ(piece("U").pieces, pm::kAnyPiece);
  EXPECT_EQ(piece(".").pieces, pm::kEmpty);
  EXPECT_EQ(piece("?").pieces, pm::kAll);
  EXPECT_EQ(piece("[]").pieces, 0);                     // :promote [] never matches a promotion
  EXPECT_EQ(piece("R").squares.squares, ~Bitboard(0));  // omitted squares = all 64
  EXPECT_FALSE(piece("R").squares.written);
}

TEST(CqlPieceDesignator, ExamplesOfThePage) {
  cql::PieceDesignator ra2 = piece("Ra2");
  EXPECT_EQ(ra2.pieces, pm::kWhiteRook);
  EXPECT_EQ(ra2.squares.squares, sq("a2"));
  EXPECT_EQ(piece("[Rb]d1").pieces, pm::kWhiteRook | pm::kBlackBishop);
  cql::PieceDesignator qr = piece("[Qr][d1,h3]");
  EXPECT_EQ(qr.pieces, pm::kWhiteQueen | pm::kBlackRook);
  EXPECT_EQ(qr.squares.squares, sqs({"d1", "h3"}));
  EXPECT_EQ(piece("Ia1").pieces, pm::kWhiteMinor);
  EXPECT_EQ(piece("[Ar][a-h1-2,a8,h8]").pieces, pm::kWhite | pm::kBlackRook);
  EXPECT_EQ(piece("[RBNQP][a1,h1,a8,h8]").squares.squares, sqs({"a1", "h1", "a8", "h8"}));
  EXPECT_EQ(piece("[aQBNPK.]a3").pieces, pm::kAll & ~pm::kWhiteRook);
  EXPECT_EQ(piece("B[]").squares.squares, 0u);
  EXPECT_TRUE(piece("N[+]").squares.reserve);
}

TEST(CqlPieceDesignator, CornerCases) {
  cql::PieceDesignator bl = piece("BL?");
  EXPECT_EQ(bl.pieces, pm::kWhiteBishop);
  EXPECT_EQ(bl.squares.squares, cql::kLightSquares);
  cql::PieceDesignator bbd1 = piece("[Bb][D1]");
  EXPECT_EQ(bbd1.pieces, pm::kBishops);
  EXPECT_EQ(bbd1.squares.squares, sqs({"a1", "c1", "e1", "g1"}));
  EXPECT_EQ(piece("[Bb]L?").squares.squares, cql::kLightSquares);
  EXPECT_EQ(piece("K[a-h1,a8]").squares.squares, kRank1 | sq("a8"));
  cql::PieceDesignator qq1 = piece("[Qq]?1");
  EXPECT_EQ(qq1.pieces, pm::kWhiteQueen | pm::kBlackQueen);
  EXPECT_EQ(qq1.squares.squares, kRank1);
  cql::PieceDesignator empty8 = piece(".[a-h]8");
  EXPECT_EQ(empty8.pieces, pm::kEmpty);
  EXPECT_EQ(empty8.squares.squares, kRank8);
  EXPECT_EQ(piece("??1").pieces, pm::kAll);
  EXPECT_EQ(piece("??1").squares.squares, kRank1);
  EXPECT_EQ(piece("???").squares.squares, ~Bitboard(0));
  EXPECT_EQ(piece("?b?").squares.squares, kFileA << 1);
  EXPECT_EQ(piece("Aa-h1-4").squares.squares, 0xFFFFFFFFull);
  EXPECT_EQ(piece("[Pp]?[27]").squares.squares, 0x00FF00000000FF00ull);
  EXPECT_EQ(piece("Pd[2-7]").squares.squares, squares("d2-7"));
  EXPECT_EQ(piece("k[?4-8]").squares.squares, 0xFFFFFFFFFF000000ull);
  EXPECT_EQ(piece("bb3").pieces, pm::kBlackBishop);  // black bishop on b3
  EXPECT_EQ(piece("bb3").squares.squares, sq("b3"));
}

TEST(CqlPieceDesignator, PromotedPieces) {
  cql::PieceDesignator q = piece("[Q~q~][a1,h1,a8,h8]");
  EXPECT_EQ(q.pieces, pm::kWhiteQueen | pm::kBlackQueen);
  EXPECT_EQ(q.promoted, q.pieces);
  EXPECT_EQ(q.not_promoted, 0);
  cql::PieceDesignator orig = piece("U~~");
  EXPECT_EQ(orig.pieces, pm::kAnyPiece);
  EXPECT_EQ(orig.not_promoted, pm::kAnyPiece);
  cql::PieceDesignator mixed = piece("[Q~q]");
  EXPECT_EQ(mixed.promoted, pm::kWhiteQueen);
  EXPECT_EQ(mixed.not_promoted, 0);
  cql::PieceDesignator both = piece("[Q~Q~~]");  // either status: no restriction
  EXPECT_EQ(both.pieces, pm::kWhiteQueen);
  EXPECT_EQ(both.promoted, 0);
  EXPECT_EQ(both.not_promoted, 0);
  EXPECT_EQ(piece("?~").pieces, pm::kAnyPiece);  // an empty square is never promoted
}

TEST(CqlPieceDesignator, Tags) {
  cql::PieceDesignator t = piece("$rook[a1]");
  EXPECT_EQ(t.tag, "rook");
  EXPECT_EQ(t.pieces, 0);
  EXPECT_EQ(t.squares.squares, sq("a1"));
  EXPECT_EQ(piece("$pawn").squares.squares, ~Bitboard(0));
}

void expect_piece_error(const std::string& text, size_t offset, const std::string& part) {
  try {
    cql::parse_piece_designator(text);
    ADD_FAILURE() << text << " parsed";
  } catch (const cql::DesignatorError& e) {
    EXPECT_EQ(e.offset, offset) << text << ": " << e.message;
    EXPECT_NE(e.message.find(part), std::string::npos) << text << ": " << e.message;
  }
}

TEST(CqlPieceDesignator, Errors) {
  expect_piece_error("BDD", 2, "'L' and 'D' may not be used for both the file and the rank");
  expect_piece_error("[Bb]LL", 5, "may not be used for both");
  expect_piece_error("$foo?1", 4, "must be enclosed in brackets");
  expect_piece_error("$fooa1?", 6, "must be enclosed in brackets");
  expect_piece_error("$", 1, "missing tag name");
  expect_piece_error("Kz9", 1, "unexpected 'z'");
  expect_piece_error("[Bx]", 2, "'x' is not a piece letter");
  expect_piece_error("[Bb", 0, "missing ']'");
  expect_piece_error("e4", 0, "'e' is not a piece letter");
  expect_piece_error(".~", 1, "'~' cannot follow '.'");
  expect_piece_error("[Re8]", 2, "'e' is not a piece letter");  // CQL 1.0 manual's typo
  expect_piece_error("Rh-a1", 1, "reversed file range");
}

TEST(CqlPieceDesignator, LineContextAllowsBareSquares) {
  auto read = [](const std::string& text, size_t& pos) {
    return cql::read_piece_designator(text, pos, true, [](char c) { return c == '-' || c == 'x'; });
  };
  size_t pos = 0;
  cql::PieceDesignator a2 = read("a2-a4", pos);  // square a2, not "black piece" + "2"
  EXPECT_FALSE(a2.piece_part_written);
  EXPECT_EQ(a2.squares.squares, sq("a2"));
  EXPECT_EQ(pos, 2u);
  pos = 0;
  cql::PieceDesignator ab3 = read("[ab]3", pos);  // file set, not piece set
  EXPECT_FALSE(ab3.piece_part_written);
  EXPECT_EQ(ab3.squares.squares, sqs({"a3", "b3"}));
  pos = 0;
  cql::PieceDesignator bb7 = read("b[bg]7xI", pos);
  EXPECT_EQ(bb7.pieces, pm::kBlackBishop);
  EXPECT_EQ(bb7.squares.squares, sqs({"b7", "g7"}));
  EXPECT_EQ(pos, 6u);
}

TEST(CqlDesignatorPrinting, CanonicalSpelling) {
  EXPECT_EQ(cql::to_string(piece("R")), "R");
  EXPECT_EQ(cql::to_string(piece("[Rr][a1-8]")), "[Rr]a?");
  EXPECT_EQ(cql::to_string(piece("[Qq][?8]")), "[Qq]?8");
  EXPECT_EQ(cql::to_string(piece("BL?")), "BL?");
  EXPECT_EQ(cql::to_string(piece("[Bb][D1]")), "[Bb]D1");
  EXPECT_EQ(cql::to_string(piece("Aa-h1-4")), "A[?1-4]");
  EXPECT_EQ(cql::to_string(piece("[RBNQP][a1,h1,a8,h8]")), "[QRBNP][a1,h1,a8,h8]");
  EXPECT_EQ(cql::to_string(piece("[KQRBNP]")), "A");
  EXPECT_EQ(cql::to_string(piece("[KQRBNPkqrbnp.]")), "?");
  EXPECT_EQ(cql::to_string(piece("[Q~q~]")), "[Q~q~]");
  EXPECT_EQ(cql::to_string(piece("U~~")), "U~~");
  EXPECT_EQ(cql::to_string(piece("B[]")), "B[]");
  EXPECT_EQ(cql::to_string(piece("[]")), "[]");
  EXPECT_EQ(cql::to_string(piece("N[+]")), "N[+]");
  EXPECT_EQ(cql::to_string(piece("R[*]")), "R[*]");
  EXPECT_EQ(cql::to_string(piece("$rook[a1]")), "$rook[a1]");
  EXPECT_EQ(cql::to_string(piece(".[a-h]8")), ".?8");
  EXPECT_EQ(cql::to_string(piece("P[b2,c3,d4,e5,f6,g7]")), "P[b2,c3,d4,e5,f6,g7]");
}

TEST(CqlDesignatorPrinting, RoundTripsEverySingleSquareAndManySets) {
  for (int s = 0; s < 64; ++s) {
    cql::SquareDesignator sd;
    sd.squares = Bitboard(1) << s;
    EXPECT_EQ(cql::parse_square_designator(cql::to_string(sd)).squares, sd.squares);
  }
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 500; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    cql::SquareDesignator sd;
    sd.squares = x;
    std::string text = cql::to_string(sd);
    EXPECT_EQ(cql::parse_square_designator(text).squares, x) << text;
  }
}

}  // namespace
