// Transformations of designators (eval/transform.h): every example of seed 003 and
// CQL-Transformations that states a result, the edge rule of the shifts, the size of each
// keyword's transformation set, composition of several keywords, and the colour flip of
// piece masks.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "chess/bitboard.h"
#include "eval/transform.h"

namespace eval {
namespace {

using chess::Bitboard;
namespace pm = cql::piece_mask;

// Squares from a list like "a2 c2 h2" (spaces or commas).
Bitboard S(std::string_view list) {
  Bitboard b = 0;
  for (size_t i = 0; i < list.size();) {
    if (list[i] == ' ' || list[i] == ',') {
      ++i;
      continue;
    }
    const int f = list[i] - 'a', r = list[i + 1] - '1';
    EXPECT_TRUE(f >= 0 && f < 8 && r >= 0 && r < 8) << list;
    b |= chess::square_bb(chess::make_square(chess::File(f), chess::Rank(r)));
    i += 2;
  }
  return b;
}

std::string names(Bitboard b) {
  std::string s;
  for (; b;) {
    const chess::Square sq = chess::pop_lsb(b);
    if (!s.empty()) s += ' ';
    s += chess::file_char(chess::file_of(sq));
    s += chess::rank_char(chess::rank_of(sq));
  }
  return "{" + s + "}";
}

#define EXPECT_SQUARES(actual, expected) EXPECT_EQ(names(actual), names(expected))

const Transform kIdentity;
const Transform kHorizontal = Transform::dihedral(Dihedral::kFlipHorizontal);
const Transform kVertical = Transform::dihedral(Dihedral::kFlipVertical);
const Transform kDiagonal = Transform::dihedral(Dihedral::kFlipDiagonal);
const Transform kOffDiagonal = Transform::dihedral(Dihedral::kFlipOffDiagonal);
const Transform kRight = Transform::shift(1, 0);
const Transform kLeft = Transform::shift(-1, 0);
const Transform kUp = Transform::shift(0, 1);
const Transform kDown = Transform::shift(0, -1);

// ---- Flips (seed 003 "Spiegelungstransformation") ----------------------------------------

TEST(TransformFlip, HorizontalFlipF6IsF3) {
  EXPECT_SQUARES(kHorizontal.apply(S("f6")), S("f3"));
}

TEST(TransformFlip, VerticalFlipF6IsC6) {
  EXPECT_SQUARES(kVertical.apply(S("f6")), S("c6"));
}

TEST(TransformFlip, DiagonalFlipOfA8IsH1) {
  EXPECT_SQUARES(kDiagonal.apply(S("a8")), S("h1"));
}

TEST(TransformFlip, DiagonalFlipOfTwoRanksF6H7) {
  // [Aa][a-h1-2,f6,h7] -> [Aa][a-b1-8,f6,g8]
  const Bitboard before = chess::RANK_1_BB | chess::rank_bb(chess::RANK_2) | S("f6 h7");
  const Bitboard after = chess::FILE_A_BB | chess::file_bb(chess::FILE_B) | S("f6 g8");
  EXPECT_SQUARES(kDiagonal.apply(before), after);
  EXPECT_SQUARES(kDiagonal.apply(S("h7")), S("g8"));
}

TEST(TransformFlip, OffDiagonalFlip) {
  EXPECT_SQUARES(kOffDiagonal.apply(S("a8")), S("a8"));                    // Ra8 -> Ra8
  EXPECT_SQUARES(kOffDiagonal.apply(chess::FILE_A_BB), chess::RANK_8_BB);  // [a1-8] -> [a-h8]
  EXPECT_SQUARES(kOffDiagonal.apply(S("b2")), S("g7"));                    // the picture's Bb2
}

TEST(TransformFlip, DihedralImagesOfQc2) {
  std::set<std::string> images;
  for (const Transform& t : transform_set(TransformKeyword::kFlip))
    images.insert(names(t.apply(S("c2"))));
  const std::set<std::string> expected = {names(S("c2")), names(S("b3")), names(S("b6")),
                                          names(S("c7")), names(S("f7")), names(S("g6")),
                                          names(S("g3")), names(S("f2"))};
  EXPECT_EQ(images, expected);
}

TEST(TransformFlip, DihedralCaptionCompositionsOfQc2) {
  EXPECT_SQUARES(kDiagonal.then(kDiagonal).apply(S("c2")), S("c2"));
  EXPECT_SQUARES(kDiagonal.then(kIdentity).apply(S("c2")), S("b3"));
  EXPECT_SQUARES(kDiagonal.then(kHorizontal).apply(S("c2")), S("b6"));
  EXPECT_SQUARES(kHorizontal.apply(S("c2")), S("c7"));
  EXPECT_SQUARES(kHorizontal.then(kVertical).apply(S("c2")), S("f7"));
  EXPECT_SQUARES(kOffDiagonal.apply(S("c2")), S("g6"));
  EXPECT_SQUARES(kOffDiagonal.then(kHorizontal).apply(S("c2")), S("g3"));
  EXPECT_SQUARES(kVertical.apply(S("c2")), S("f2"));
}

TEST(TransformFlip, RotationsAndTheirNames) {
  EXPECT_SQUARES(Transform::dihedral(Dihedral::kRotateLeft).apply(S("a1")), S("h1"));
  EXPECT_SQUARES(Transform::dihedral(Dihedral::kRotateRight).apply(S("a1")), S("a8"));
  EXPECT_SQUARES(Transform::dihedral(Dihedral::kRotate180).apply(S("f6")), S("c3"));
  for (unsigned a = 0; a < 8; ++a)
    for (unsigned b = 0; b < 8; ++b)
      for (chess::Square s : {chess::SQ_A1, chess::SQ_B3, chess::SQ_G2, chess::SQ_E8})
        EXPECT_EQ(apply(compose(Dihedral(a), Dihedral(b)), s),
                  apply(Dihedral(b), apply(Dihedral(a), s)));
}

// ---- Shifts and the edge rule (seed 003 "einschrittige ... Transformation") -------------

TEST(TransformShift, UnitRightShift) {
  EXPECT_SQUARES(kRight.apply(S("d4")), S("e4"));
  EXPECT_SQUARES(kRight.apply(S("c2 h2")), S("d2"));           // h2 leaves the board
  EXPECT_SQUARES(kRight.apply(S("a2 c2 h2")), S("a2 b2 d2"));  // a2 stays and moves
}

TEST(TransformShift, ThreeRightShifts) {
  const Transform right3 = Transform::shift(3, 0);
  EXPECT_SQUARES(right3.apply(S("a4")), S("a4 b4 c4 d4"));
  EXPECT_SQUARES(right3.apply(S("d4")), S("g4"));
  EXPECT_EQ(right3, kRight.then(kRight).then(kRight));
}

TEST(TransformShift, UnitUpShiftOfCorners) {
  // The page writes R[a1,a8,h1,a8]; its result R[a1,a2,h1,h2] shows h8 is meant (SPEC).
  EXPECT_SQUARES(kUp.apply(S("a1 a8 h1 h8")), S("a1 a2 h1 h2"));
}

TEST(TransformShift, LeftAndDownMutatisMutandis) {
  EXPECT_SQUARES(kLeft.apply(S("a2 c2 h2")), S("b2 g2 h2"));
  EXPECT_SQUARES(kDown.apply(S("a1 a8 h1 h8")), S("a7 a8 h7 h8"));
  EXPECT_SQUARES(Transform::shift(-3, 0).apply(S("h4")), S("e4 f4 g4 h4"));
}

TEST(TransformShift, PositionListUnitLeftShift) {
  // The page: (position Rc2 Bh8 :wtm) -> (position Rb2 Bg8 :wtm). The rook follows it; the
  // page's Bg8 overlooks its own edge rule: h8 is on the trailing edge of a left shift, so it
  // stays and moves (like a2 in the right shift of [a2,c2,h2]). SPEC's edge rule decides.
  EXPECT_SQUARES(kLeft.apply(S("c2")), S("b2"));
  EXPECT_SQUARES(kLeft.apply(S("h8")), S("g8 h8"));
  EXPECT_SQUARES(kLeft.apply(S("g8")), S("f8"));
}

TEST(TransformShift, LeavingTheBoardGivesTheEmptySet) {
  EXPECT_EQ(Transform::shift(1, 0).apply(S("h4")), 0u);
  EXPECT_EQ(Transform::shift(0, -2).apply(S("c2")), 0u);
  EXPECT_EQ(Transform::shift(6, 0).apply(S("c3 d5")), 0u);  // i3, j5
  EXPECT_SQUARES(Transform::shift(5, 0).apply(S("c3 d5")), S("h3"));
}

TEST(TransformShift, AllSquaresAreInvariantUnderEveryShift) {
  // A designator without squares (all 64) stays all 64: the point of the edge rule.
  for (const Transform& t : transform_set(TransformKeyword::kShift))
    EXPECT_EQ(t.apply(chess::ALL_SQUARES), chess::ALL_SQUARES) << t.to_string();
}

TEST(TransformShift, HorizontalAndVerticalShiftsCommute) {
  EXPECT_EQ(Transform::shift(2, 0).then(Transform::shift(0, 3)), Transform::shift(2, 3));
  EXPECT_EQ(Transform::shift(0, 3).then(Transform::shift(2, 0)), Transform::shift(2, 3));
  EXPECT_EQ(kRight.then(kUp), kUp.then(kRight));
  // Opposite unit shifts do not cancel: h4 is lost, a4 survives.
  EXPECT_SQUARES(kRight.then(kLeft).apply(S("a4 d4 h4")), S("a4 d4"));
  EXPECT_NE(kRight.then(kLeft), kIdentity);
}

TEST(TransformShift, ShiftOfB3C4ReachesD4E5) {
  bool found = false;
  for (const Transform& t : transform_set(TransformKeyword::kShift))
    found |= t.apply(S("b3")) == S("d4") && t.apply(S("c4")) == S("e5");
  EXPECT_TRUE(found);
  EXPECT_SQUARES(Transform::shift(2, 1).apply(S("b3 c4")), S("d4 e5"));
}

// ---- Colour flip ----------------------------------------------------------------------------

TEST(TransformColorFlip, RbpOnA2C2BecomesRBPOnA7C7) {
  const Transform t = Transform::color_flip();
  EXPECT_TRUE(t.swaps_colors());
  EXPECT_EQ(t.apply(PieceMask(pm::kWhiteRook | pm::kBlackBishop | pm::kBlackPawn)),
            PieceMask(pm::kBlackRook | pm::kWhiteBishop | pm::kWhitePawn));
  EXPECT_SQUARES(t.apply(S("a2 c2")), S("a7 c7"));
}

TEST(TransformColorFlip, PositionListExample) {
  // Colour flip of (position Rb2 Bg8 :wtm): black rook and black bishop, squares mirrored in
  // the horizontal bisector. (The page prints "Rb8 Bg1"; b2 mirrors to b7 as f6 does to f3.)
  const Transform t = Transform::color_flip();
  EXPECT_EQ(t.apply(PieceMask(pm::kWhiteRook)), pm::kBlackRook);
  EXPECT_SQUARES(t.apply(S("b2")), S("b7"));
  EXPECT_SQUARES(t.apply(S("g8")), S("g1"));
  EXPECT_SQUARES(kHorizontal.apply(S("g8")), S("g1"));
}

TEST(TransformColorFlip, PieceMaskLetters) {
  const Transform t = Transform::color_flip();
  EXPECT_EQ(t.apply(pm::kWhite), pm::kBlack);            // A -> a
  EXPECT_EQ(t.apply(pm::kBlack), pm::kWhite);            // a -> A
  EXPECT_EQ(t.apply(pm::kWhiteMajor), pm::kBlackMajor);  // M -> m
  EXPECT_EQ(t.apply(pm::kBlackMinor), pm::kWhiteMinor);  // i -> I
  EXPECT_EQ(t.apply(pm::kAnyPiece), pm::kAnyPiece);      // U
  EXPECT_EQ(t.apply(pm::kEmpty), pm::kEmpty);            // .
  EXPECT_EQ(t.apply(pm::kAll), pm::kAll);                // ?
  EXPECT_EQ(t.then(t).apply(pm::kWhiteKing), pm::kWhiteKing);
  EXPECT_EQ(t.then(t), kIdentity);
  // Geometric transformations leave the piece mask alone.
  EXPECT_EQ(kDiagonal.apply(pm::kWhiteKing), pm::kWhiteKing);
  EXPECT_EQ(Transform::shift(3, 3).apply(pm::kBlack), pm::kBlack);
}

// ---- Keyword sets ---------------------------------------------------------------------------

TEST(TransformSet, SizesIdentityFirstAndDistinct) {
  const std::pair<TransformKeyword, size_t> expected[] = {
      {TransformKeyword::kFlip, 8},
      {TransformKeyword::kFlipHorizontal, 2},
      {TransformKeyword::kFlipVertical, 2},
      {TransformKeyword::kFlipDiagonal, 3},
      {TransformKeyword::kFlipColor, 2},
      {TransformKeyword::kShift, 225},
      {TransformKeyword::kShiftHorizontal, 15},
      {TransformKeyword::kShiftVertical, 15},
      {TransformKeyword::kShiftMainDiagonal, 15},
      {TransformKeyword::kShiftOffDiagonal, 15},
      {TransformKeyword::kShiftDiagonal, 29},
  };
  for (auto [keyword, size] : expected) {
    const std::vector<Transform> set = transform_set(keyword);
    EXPECT_EQ(set.size(), size) << keyword_name(keyword);
    ASSERT_FALSE(set.empty());
    EXPECT_TRUE(set.front().is_identity()) << keyword_name(keyword);
    std::set<std::string> distinct;
    for (const Transform& t : set) distinct.insert(t.to_string());
    EXPECT_EQ(distinct.size(), size) << keyword_name(keyword);
  }
}

// Transformed (R, q) square pairs of a two-designator list, keeping only lists in which
// neither designator left the board.
std::set<std::pair<std::string, std::string>> transformed_pairs(std::span<const Transform> set,
                                                                Bitboard first, Bitboard second) {
  std::set<std::pair<std::string, std::string>> out;
  for (const Transform& t : set) {
    const Bitboard a = t.apply(first), b = t.apply(second);
    if (a && b) out.insert({names(a), names(b)});
  }
  return out;
}

std::pair<std::string, std::string> P(std::string_view a, std::string_view b) {
  return {names(S(a)), names(S(b))};
}

TEST(TransformSet, ShiftHorizontalOfRc3Qg3) {
  // The page lists exactly four transformed lists; the others lose a designator.
  const auto set = transform_set(TransformKeyword::kShiftHorizontal);
  const std::set<std::pair<std::string, std::string>> expected = {P("c3", "g3"), P("b3", "f3"),
                                                                  P("a3", "e3"), P("d3", "h3")};
  EXPECT_EQ(transformed_pairs(set, S("c3"), S("g3")), expected);
}

TEST(TransformSet, ShiftVerticalOfRc3Qg3) {
  // Rook on the c file and queen on the g file of one rank, on every rank.
  const auto pairs =
      transformed_pairs(transform_set(TransformKeyword::kShiftVertical), S("c3"), S("g3"));
  EXPECT_EQ(pairs.size(), 8u);
  for (char r = '1'; r <= '8'; ++r)
    EXPECT_TRUE(pairs.count(P(std::string{'c', r}, std::string{'g', r}))) << r;
}

TEST(TransformSet, ShiftOfRc3Qg3) {
  // Same rank, rook four squares left of the queen: files a-d, ranks 1-8.
  const auto pairs = transformed_pairs(transform_set(TransformKeyword::kShift), S("c3"), S("g3"));
  EXPECT_EQ(pairs.size(), 32u);
  for (char f = 'a'; f <= 'd'; ++f)
    for (char r = '1'; r <= '8'; ++r)
      EXPECT_TRUE(pairs.count(P(std::string{f, r}, std::string{char(f + 4), r})));
}

TEST(TransformSet, FlipHorizontalOfRc3Qg3) {
  const std::set<std::pair<std::string, std::string>> expected = {P("c3", "g3"), P("c6", "g6")};
  EXPECT_EQ(transformed_pairs(transform_set(TransformKeyword::kFlipHorizontal), S("c3"), S("g3")),
            expected);
}

TEST(TransformSet, FlipDiagonalOfRc3Qg3) {
  // The page: Rc3 qg3 or Rc3 qc7; SPEC adds the off-diagonal twin: Rf6 qf2.
  const std::set<std::pair<std::string, std::string>> expected = {P("c3", "g3"), P("c3", "c7"),
                                                                  P("f6", "f2")};
  EXPECT_EQ(transformed_pairs(transform_set(TransformKeyword::kFlipDiagonal), S("c3"), S("g3")),
            expected);
}

TEST(TransformSet, PawnC2RookC1ShiftVerticalEdgeEffect) {
  // (position Pc2 Rc1 :shiftvertical) matches, because of the edge rule, a rook on c2 with
  // the pawn on c7: five up shifts keep c1 and drag it along.
  bool found = false;
  for (const Transform& t : transform_set(TransformKeyword::kShiftVertical)) {
    const Bitboard pawn = t.apply(S("c2")), rook = t.apply(S("c1"));
    if (!pawn || !rook) continue;
    EXPECT_EQ(chess::popcount(pawn), 1);
    EXPECT_EQ(rook & ~chess::file_bb(chess::FILE_C), 0u);     // the rook stays on the c file
    EXPECT_LT(chess::lsb(rook) >> 3, chess::lsb(pawn) >> 3);  // below the pawn
    found |= pawn == S("c7") && (rook & S("c2"));
  }
  EXPECT_TRUE(found);
}

TEST(TransformSet, PawnC2RookC1ShiftKeepsRookBehindPawnOnItsFile) {
  for (const Transform& t : transform_set(TransformKeyword::kShift)) {
    const Bitboard pawn = t.apply(S("c2")), rook = t.apply(S("c1"));
    if (!pawn || !rook) continue;
    ASSERT_EQ(chess::popcount(pawn), 1) << t.to_string();
    const chess::Square p = chess::lsb(pawn);
    for (Bitboard b = rook; b;) {
      const chess::Square r = chess::pop_lsb(b);
      EXPECT_EQ(chess::file_of(r), chess::file_of(p)) << t.to_string();
      EXPECT_LT(chess::rank_of(r), chess::rank_of(p)) << t.to_string();
    }
  }
}

// ---- Several keywords -----------------------------------------------------------------------

size_t composed(std::initializer_list<TransformKeyword> keywords) {
  const std::vector<TransformKeyword> k(keywords);
  return compose(k).size();
}

TEST(TransformCompose, Counts) {
  using K = TransformKeyword;
  EXPECT_EQ(composed({}), 1u);
  EXPECT_EQ(composed({K::kFlip}), 8u);
  EXPECT_EQ(composed({K::kFlipHorizontal, K::kFlipVertical}), 4u);
  // Both orders: H after D and D after H are the two quarter turns.
  EXPECT_EQ(composed({K::kFlipHorizontal, K::kFlipDiagonal}), 6u);
  EXPECT_EQ(composed({K::kFlipDiagonal, K::kFlipHorizontal}), 6u);
  EXPECT_EQ(composed({K::kFlip, K::kFlipColor}), 16u);
  EXPECT_EQ(composed({K::kShiftHorizontal, K::kShiftVertical}), 225u);
  EXPECT_EQ(composed({K::kShiftMainDiagonal, K::kShiftOffDiagonal}),
            composed({K::kShiftOffDiagonal, K::kShiftMainDiagonal}));
  EXPECT_EQ(composed({K::kShift, K::kFlip}), 1800u);
  EXPECT_EQ(composed({K::kShift, K::kFlip, K::kFlipColor}), 3600u);
}

TEST(TransformCompose, IdentityFirstAndShiftHorizontalThenVerticalIsShift) {
  const std::vector<TransformKeyword> hv = {TransformKeyword::kShiftHorizontal,
                                            TransformKeyword::kShiftVertical};
  const std::vector<Transform> composed_set = compose(hv);
  ASSERT_FALSE(composed_set.empty());
  EXPECT_TRUE(composed_set.front().is_identity());
  std::set<std::string> a, b;
  for (const Transform& t : composed_set) a.insert(t.to_string());
  for (const Transform& t : transform_set(TransformKeyword::kShift)) b.insert(t.to_string());
  EXPECT_EQ(a, b);
}

TEST(TransformCompose, ThenAgreesWithApplyingInTurn) {
  // Composition is exact: (a then b)(S) = b(a(S)) for any set S.
  std::vector<Transform> samples = {kIdentity,
                                    kHorizontal,
                                    kDiagonal,
                                    kOffDiagonal,
                                    Transform::dihedral(Dihedral::kRotateLeft),
                                    Transform::color_flip(),
                                    Transform::shift(3, -2),
                                    Transform::shift(-7, 1),
                                    kRight.then(kLeft),
                                    Transform::shift(2, 2).then(kVertical)};
  const Bitboard sets[] = {S("a1"),           S("a4 d4 h4"),         S("a1 a8 h1 h8 e4"),
                           chess::FILE_A_BB,  0x00FF00FF00F0F00Full, 0x8142241818244281ull,
                           chess::ALL_SQUARES};
  for (const Transform& a : samples)
    for (const Transform& b : samples)
      for (Bitboard s : sets)
        EXPECT_EQ(a.then(b).apply(s), b.apply(a.apply(s)))
            << a.to_string() << " then " << b.to_string();
}

TEST(TransformCompose, KnightAttacksKingAnywhere) {
  // (position Nd4 kf3 :shift :flip): a white knight attacks the black king, every such
  // placement on the board, and nothing else.
  const std::vector<TransformKeyword> k = {TransformKeyword::kShift, TransformKeyword::kFlip};
  std::set<std::pair<int, int>> placements;
  for (const Transform& t : compose(k)) {
    const Bitboard knight = t.apply(S("d4")), king = t.apply(S("f3"));
    if (!knight || !king) continue;
    ASSERT_EQ(chess::popcount(knight), 1) << t.to_string();
    ASSERT_EQ(chess::popcount(king), 1) << t.to_string();
    const int df = std::abs(chess::file_of(chess::lsb(knight)) - chess::file_of(chess::lsb(king)));
    const int dr = std::abs(chess::rank_of(chess::lsb(knight)) - chess::rank_of(chess::lsb(king)));
    EXPECT_TRUE((df == 1 && dr == 2) || (df == 2 && dr == 1)) << t.to_string();
    placements.insert({chess::lsb(knight), chess::lsb(king)});
  }
  EXPECT_EQ(placements.size(), 336u);  // knight moves on an empty board
}

TEST(TransformCompose, KnightAttacksKingEitherColour) {
  const std::vector<TransformKeyword> k = {TransformKeyword::kShift, TransformKeyword::kFlip,
                                           TransformKeyword::kFlipColor};
  std::set<std::pair<PieceMask, PieceMask>> pieces;
  for (const Transform& t : compose(k))
    pieces.insert({t.apply(PieceMask(pm::kWhiteKnight)), t.apply(PieceMask(pm::kBlackKing))});
  const std::set<std::pair<PieceMask, PieceMask>> expected = {{pm::kWhiteKnight, pm::kBlackKing},
                                                              {pm::kBlackKnight, pm::kWhiteKing}};
  EXPECT_EQ(pieces, expected);
}

TEST(TransformCompose, UniqueByContent) {
  // A designator without squares is unchanged by every flip: one transformed list.
  const std::vector<Transform> flips = transform_set(TransformKeyword::kFlip);
  const auto all_squares =
      unique_by_content(std::span<const Transform>(flips),
                        [](const Transform& t) { return t.apply(chess::ALL_SQUARES); });
  EXPECT_EQ(all_squares.size(), 1u);
  const auto on_c2 = unique_by_content(std::span<const Transform>(flips),
                                       [](const Transform& t) { return t.apply(S("c2")); });
  EXPECT_EQ(on_c2.size(), 8u);
  const auto on_d4_e5 =
      unique_by_content(std::span<const Transform>(flips), [](const Transform& t) {
        return t.apply(S("d4 e5"));  // fixed by both diagonal flips and the half turn
      });
  EXPECT_EQ(on_d4_e5.size(), 2u);  // {d4,e5} and {e4,d5}
}

TEST(TransformMisc, ToStringAndIdentity) {
  EXPECT_EQ(kIdentity.to_string(), "identity");
  EXPECT_TRUE(kIdentity.is_identity());
  EXPECT_EQ(kVertical.to_string(), "flipvertical");
  EXPECT_EQ(Transform::shift(2, -1).to_string(), "shift(+2,-1)");
  EXPECT_EQ(Transform::color_flip().to_string(), "fliphorizontal+swapcolors");
  EXPECT_TRUE(kDiagonal.is_bijective());
  EXPECT_FALSE(kRight.is_bijective());
  EXPECT_EQ(keyword_name(TransformKeyword::kShiftOffDiagonal), ":shiftoffdiagonal");
}

}  // namespace
}  // namespace eval
