// :line and :line* (eval/line.h; seed 000 "Zugfolge" / "Transpositionsinvariante Zugfolge",
// CQL-Position-List :line / :line*, CQL-Examples "Examples for move lines"): the seed and
// reference examples on legal games, transformations, variations and errors. Corpus checks
// (against keyword equivalents and a brute-force scan) are in eval_line_corpus_test.cpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "eval_test_util.h"

namespace {

using cqltest::Plies;
using cqltest::plies;
using cqltest::pos;
using cqltest::run_game;

/// The CompileError / ParseError message of `script`, with its location, or "<ok>".
std::string error_of(const std::string& script) {
  try {
    cqltest::compile(script);
  } catch (const eval::CompileError& e) {
    return std::to_string(e.loc.line) + ":" + std::to_string(e.loc.column) + ": " + e.what();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<ok>";
}

const std::string kFrench = "1. e4 e6 2. d4 d5 3. Nc3 *";
const std::string kFrenchTransposed = "1. d4 d5 2. e4 e6 3. Nc3 *";

// ---- seed 000 :line

TEST(EvalLine, SeedFrenchIsInitialSequence) {
  // seed 000: `:line (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)` is identical to the :initial
  // :sequence of :movefrom / :moveto lists.
  const std::string line = ":line (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)";
  const std::string sequence =
      ":initial :sequence ((position :movefrom Pe2 :moveto .e4) (position :movefrom pe7 :moveto "
      ".e6) (position :movefrom Pd2 :moveto .d4) (position :movefrom pd7 :moveto .d5))";
  for (const std::string& game : {kFrench, kFrenchTransposed, std::string("1. e4 e6 2. d4 *"),
                                  std::string("1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e6 4. d4 d5 *")})
    EXPECT_EQ(plies(line, game), plies(sequence, game)) << game;
  EXPECT_EQ(plies(line, kFrench), (Plies{0}));
  EXPECT_EQ(plies(line, kFrenchTransposed), (Plies{}));
}

TEST(EvalLine, ReferenceStringLineIsASequenceAnywhere) {
  // CQL-Position-List :line: "e2-e4 e7-e6 d2-d4 d7-d5" = the :sequence of :movefrom/:moveto
  // lists, at any position (the piece is not given: any piece, seed 000).
  const std::string game = "1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e6 4. d4 d5 5. Nc3 *";
  EXPECT_EQ(plies(":line \"e2-e4 e7-e6 d2-d4 d7-d5\"", game), (Plies{4}));
  EXPECT_EQ(plies(":sequence ((position :movefrom ?e2 :moveto .e4) (position :movefrom ?e7 "
                  ":moveto .e6) (position :movefrom ?d2 :moveto .d4) (position :movefrom ?d7 "
                  ":moveto .d5))",
                  game),
            (Plies{4}));
  // "1.e2-e4 e7-e6 2.d2-d4 d7-d5": only the exact opening line
  EXPECT_EQ(plies(":line \"1.e2-e4 e7-e6 2.d2-d4 d7-d5\"", game), (Plies{}));
  EXPECT_EQ(plies(":line \"1.e2-e4 e7-e6 2.d2-d4 d7-d5\"", kFrench), (Plies{0}));
  // the line must be long enough
  EXPECT_EQ(plies(":line \"e2-e4 e7-e6 d2-d4 d7-d5\"", "1. e4 e6 2. d4 *"), (Plies{}));
}

TEST(EvalLine, MoveNumbersPinTheFenMoveNumber) {
  // seed 000: `1.e2-e4` in the first move, `1...e7-e5` black's first move, `2...Pe7-e6`.
  EXPECT_EQ(plies(":line (1.e2-e4)", "1. e4 e5 2. Nf3 *"), (Plies{0}));
  EXPECT_EQ(plies(":line (1...e7-e5)", "1. e4 e5 2. Nf3 *"), (Plies{1}));
  EXPECT_EQ(plies(":line (1...e7-e5)", "1. d4 d5 2. e4 e5 *"), (Plies{}));
  EXPECT_EQ(plies(":line (2...Pe7-e6)", "1. e4 c5 2. Nf3 e6 *"), (Plies{3}));
  EXPECT_EQ(plies(":line (2...Pe7-e6)", "1. e4 e6 *"), (Plies{}));
  // A FEN start: the numbers are the FEN's full-move numbers.
  const std::string fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
  EXPECT_EQ(plies(":line (2...Pe7-e6 3.Pd2-d4)", "2... e6 3. d4 *", fen), (Plies{0}));
  EXPECT_EQ(plies(":line (2.Pe7-e6)", "2... e6 3. d4 *", fen), (Plies{}));
}

TEST(EvalLine, SeedAlekhineAndColours) {
  // (1.Pe2-e4 Ng8-f6): numbers give the colours (PGN letters allowed) - Alekhine's defence.
  EXPECT_EQ(plies(":line (1.Pe2-e4 Ng8-f6)", "1. e4 Nf6 2. e5 Nd5 *"), (Plies{0}));
  EXPECT_EQ(plies(":line (1.Pe2-e4 Ng8-f6)", "1. d4 Nf6 2. e4 *"), (Plies{}));
  // (Pe2-e4 ng8-f6): a move pattern anywhere in the game
  EXPECT_EQ(plies(":line (Pe2-e4 ng8-f6)", "1. d3 e6 2. e4 Nf6 3. Nf3 *"), (Plies{2}));
  EXPECT_EQ(plies(":line (Pe2-e4 ng8-f6)", "1. e4 Nf6 *"), (Plies{0}));
  // (Pe2-e4 Ng8-f6) is rejected: colours must alternate without move numbers
  EXPECT_NE(error_of(pos(":line (Pe2-e4 Ng8-f6)")).find("must alternate"), std::string::npos);
}

TEST(EvalLine, SeedExchangePattern) {
  // (Pc4xPd5 nf6xPd5 Nc3xNd5 pe6xNd5): a typical exchange pattern. The captured piece is
  // the opponent's whatever its letter's case (SPEC-NOTES): Pc4xPd5 takes the black pawn.
  const std::string items = ":line (Pc4xPd5 nf6xPd5 Nc3xNd5 pe6xNd5)";
  EXPECT_EQ(plies(items, "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. cxd5 Nxd5 5. Nxd5 exd5 *"), (Plies{6}));
  EXPECT_EQ(plies(items, "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. cxd5 exd5 *"), (Plies{}));
  EXPECT_EQ(plies(":line (Pc4xpd5 nf6xPd5 Nc3xnd5 pe6xNd5)",
                  "1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. cxd5 Nxd5 5. Nxd5 exd5 *"),
            (Plies{6}));
}

TEST(EvalLine, SeedQueenTakesRookEitherSide) {
  // ([Qq]x[Rr]): the side to move captures a rook with the queen.
  const std::string fen = "r3k3/8/8/8/8/8/1q6/R3K2Q w - - 0 1";
  const std::string game = "1. Qxa8+ Kf7 2. Kd1 Qxa1+ *";
  EXPECT_EQ(plies(":line ([Qq]x[Rr])", game, fen), (Plies{0, 3}));
  EXPECT_EQ(plies(":line (Qxr)", game, fen), (Plies{0}));
  EXPECT_EQ(plies(":flipcolor :line (Qxr)", game, fen), (Plies{0, 3}));
  EXPECT_EQ(plies(":line (Qxr+)", game, fen), (Plies{0}));
  EXPECT_EQ(plies(":line (Qxr-)", game, fen), (Plies{}));
}

TEST(EvalLine, SeedMoveNotationsOnOneGame) {
  // seed 000 notation table, each with the keywords it stands for, on a game with captures,
  // castling on both wings, checks and an en-passant capture.
  const std::string game =
      "1. e4 Nf6 2. e5 d5 3. exd6 Qxd6 4. Nf3 Bg4 5. Be2 Nc6 6. O-O O-O-O 7. d4 Bxf3 "
      "8. Bxf3 Qxd4 9. Qxd4 Nxd4 10. Bxb7+ Kxb7 *";
  struct Case {
    const char* line;
    const char* keywords;
  };
  const Case cases[] = {
      {"(e2-e4)", ":movefrom ?e2 :moveto .e4"},
      {"(Pe2-e4)", ":movefrom Pe2 :moveto .e4"},
      {"(Pe5xd6 ep)", ":movefrom Pe5 :moveto .d6 :enpassant"},
      {"(Pe5xpd6)", ":movefrom Pe5 :moveto pd6"},
      {"(Pe5:d6)", ":movefrom Pe5 :moveto ?d6"},
      {"(b)", ":movefrom b :moveto ."},
      {"(bx)", ":movefrom b :moveto A"},
      {"(bxN)", ":movefrom b :moveto N"},
      {"(xQ)", ":movefrom a :moveto Q"},
      {"(U:)", ":movefrom U"},
      {"(Bxb7+)", ":movefrom B :moveto ?b7 :ischeck"},
      {"(Q:d4-)", ":movefrom Q :moveto ?d4 !:ischeck"},
      {"(O-O)", ":iscastling [Kk]"},
      {"(O-O-O)", ":iscastling [Qq]"},
      {"(O-O-O-O)", ":iscastling"},
      {"(K-K)", ":iscastling K"},
      {"(k-q)", ":iscastling q"},
      {"(k-kq)", ":iscastling [kq]"},
      {"(K-Q)", ":iscastling Q"},
      {"(k!)", ":movefrom k :forced"},
      {"(--)", ":movefrom U"},
      {"(null)", ":isnull"},
      {"(Nb1-[ac]3)", ":movefrom Nb1 :moveto .[ac]3"},
      {"(b[cg]8x?[1-6])", ":movefrom b[cg]8 :moveto U?[1-6]"},
      {"(Q~~x)", ":movefrom Q~~ :moveto a"},
  };
  for (const Case& c : cases) {
    const Plies want = plies(c.keywords, game);
    EXPECT_EQ(plies(":line " + std::string(c.line), game), want) << c.line;
  }
  EXPECT_EQ(plies(":line (Pe5xd6 ep)", game), (Plies{4}));
  EXPECT_EQ(plies(":line (Pe5xd6)", game), (Plies{}));  // 'x' without ep: e6 is empty
  EXPECT_EQ(plies(":line (O-O k-q)", game), (Plies{10}));
}

TEST(EvalLine, SeedPromotionsAndMate) {
  // P=Q = :promote Q; P=A# = :promote A :ismate; Q+* = check but no mate; Q~~# and Ux[Q~q~].
  const std::string fen = "k7/2P5/1K6/8/8/8/8/8 w - - 0 1";
  EXPECT_EQ(plies(":line (P=Q)", "1. c8=Q# *", fen), (Plies{0}));
  EXPECT_EQ(plies(":line (P=A#)", "1. c8=R# *", fen), (Plies{0}));
  EXPECT_EQ(plies(":line (P=[QR]+*)", "1. c8=R# *", fen), (Plies{}));
  EXPECT_EQ(plies(":line (P=N)", "1. c8=R# *", fen), (Plies{}));
  EXPECT_EQ(plies(":line (Pc7-c8=A)", "1. c8=R# *", fen), (Plies{0}));
  EXPECT_EQ(plies(":promote A :ismate", "1. c8=R# *", fen), (Plies{0}));
  // the promoted piece is the mover's whatever its letter's case; black promotes with `p=Q`
  EXPECT_EQ(plies(":line (P=r)", "1. c8=R# *", fen), (Plies{0}));
  EXPECT_EQ(plies(":line (P=q)", "1. c8=R# *", fen), (Plies{}));
  EXPECT_EQ(plies(":line (p=Q+)", "1... d1=Q+ *", "8/8/8/8/8/k7/3p4/7K b - - 0 1"), (Plies{0}));
  // a promoted queen gives check (not mate), then is taken: Q~+* ... kxQ~
  const std::string fen2 = "8/1P6/8/8/8/8/k7/7K w - - 0 1";
  EXPECT_EQ(plies(":line (P=Q k Q~+* kxQ~)", "1. b8=Q Ka1 2. Qb2+ Kxb2 *", fen2), (Plies{0}));
  EXPECT_EQ(plies(":line (Q~~+)", "1. b8=Q Ka1 2. Qb2+ Kxb2 *", fen2), (Plies{}));
  EXPECT_EQ(plies(":line (Ux[Q~q~])", "1. b8=Q Ka1 2. Qb2+ Kxb2 *", fen2), (Plies{3}));
}

TEST(EvalLine, ReferenceQueenF3ToG2) {
  // CQL-Position-List :sequence: (position Re8 :line (Qf3-g2)) = Re8 :movefrom Qf3 :moveto .g2
  const std::string game =
      "[SetUp \"1\"]\n[FEN \"4R3/7k/8/8/8/5Q2/8/K7 w - - 0 1\"]\n\n1. Qg2 Kh6 2. Qf3 Kh7 3. Qg2 *\n";
  EXPECT_EQ(run_game(pos("Re8 :line (Qf3-g2)"), game).plies, (Plies{0, 4}));
  EXPECT_EQ(run_game(pos("Re8 :line \"Qf3-g2\""), game).plies, (Plies{0, 4}));
  EXPECT_EQ(run_game(pos("Re8 :movefrom Qf3 :moveto .g2"), game).plies, (Plies{0, 4}));
}

TEST(EvalLine, ReferenceQueenStaircaseWithTransformations) {
  // CQL-Position-List :sequence: the queen staircase by either side anywhere on the board,
  // `:shift :flip :flipcolor :line (Qa2-b2+ -- Qb2-b3+ -- Qb3-c3+ -- Qc3-c4+)` (seed 000).
  const std::string line = ":line (Qa2-b2+ -- Qb2-b3+ -- Qb3-c3+ -- Qc3-c4+)";
  const std::string all = ":shift :flip :flipcolor " + line;
  const std::string game = "1. Qb2+ Kg8 2. Qb3+ Kh8 3. Qc3+ Kg8 4. Qc4+ *";
  const std::string fen = "7k/8/8/8/8/8/Q7/K7 w - - 0 1";
  EXPECT_EQ(plies(line, game, fen), (Plies{0}));
  EXPECT_EQ(plies(all, game, fen), (Plies{0}));
  EXPECT_EQ(plies(line, "1. Qb2+ Kg8 2. Qb3+ Kh8 3. Qc3+ *", fen), (Plies{}));  // too short
  // the same one rank lower: only with :shift
  const std::string lower = "1. Qb1+ Kg7 2. Qb2+ Kh7 3. Qc2+ Kg7 4. Qc3+ *";
  const std::string lower_fen = "K7/7k/8/8/8/8/8/Q7 w - - 0 1";
  EXPECT_EQ(plies(line, lower, lower_fen), (Plies{}));
  EXPECT_EQ(plies(":shift " + line, lower, lower_fen), (Plies{0}));
  EXPECT_EQ(plies(all, lower, lower_fen), (Plies{0}));
  // by Black: only with :flipcolor
  const std::string black = "1... Qb7+ 2. Kg1 Qb6+ 3. Kh1 Qc6+ 4. Kg1 Qc5+ *";
  const std::string black_fen = "k7/q7/8/8/8/8/8/7K b - - 0 1";
  EXPECT_EQ(plies(line, black, black_fen), (Plies{}));
  EXPECT_EQ(plies(":flipcolor " + line, black, black_fen), (Plies{0}));
  EXPECT_EQ(plies(all, black, black_fen), (Plies{0}));
}

// ---- CQL-Examples "Examples for move lines": potential continuations

const std::string kLegal =  // Falkbeer - N.N., Vienna 1847
    "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. c3 dxc3 5. Nxc3 d6 6. Bc4 Bg4 7. O-O Ne5 8. Nxe5 Bxd1 "
    "9. Bxf7+ Ke7 10. Nd5# 1-0";
const std::string kLegalResigned =
    "1. e4 e5 2. Nf3 Nc6 3. d4 exd4 4. c3 dxc3 5. Nxc3 d6 6. Bc4 Bg4 7. O-O Ne5 8. Nxe5 Bxd1 "
    "9. Bxf7+ 1-0";
const std::string kReti =  // Reti - Tartakower, Vienna 1910
    "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Nf6 5. Qd3 e5 6. dxe5 Qa5+ 7. Bd2 Qxe5 8. O-O-O Nxe4 "
    "9. Qd8+ Kxd8 10. Bg5+ Kc7 11. Bd8# 1-0";
const std::string kDutchSugden =  // Dutch - Sugden, London 1964
    "1. e4 c5 2. d4 cxd4 3. c3 d5 4. exd5 Qxd5 5. Nf3 Bg4 6. Qa4+ Nc6 7. Nxd4 Bd7 8. Nb5 O-O-O "
    "9. Nxa7+ Nxa7 10. Qxa7 Qd1+ 0-1";

TEST(EvalLine, ExampleLegalMate) {
  const std::string items = ":flipcolor :line (Nxe5 bxQ Bxf7+ | ke7! Nd5#)";
  EXPECT_EQ(plies(items, kLegal), (Plies{14}));
  EXPECT_EQ(plies(items, kLegalResigned), (Plies{14}));  // gave up after the bishop check
  // the mate must be possible: a bishop check the king can answer otherwise does not count
  EXPECT_EQ(plies(":line (Nxe5 bxQ Bxf7+ | ke7! Nd5#)", kLegal), (Plies{14}));
  EXPECT_EQ(plies(":line (Nxe5 bxQ Bxf7+ | kf8)", kLegal), (Plies{}));  // Kf8 is not legal
  EXPECT_EQ(plies(":line (Nxe5 bxQ Bxf7+ | ke7 Nd5+*)", kLegal), (Plies{}));
}

TEST(EvalLine, ExampleRetiMate) {
  const std::string items = ":flipcolor :line (Qd8+ | kxd8! B:g5++ k [RB]d8#)";
  EXPECT_EQ(plies(items, kReti), (Plies{16}));
  const std::string resigned =
      "1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Nf6 5. Qd3 e5 6. dxe5 Qa5+ 7. Bd2 Qxe5 "
      "8. O-O-O Nxe4 9. Qd8+ 1-0";
  EXPECT_EQ(plies(items, resigned), (Plies{16}));
  // "This will also find the following game": Black's queen sacrifice on d1, found by the
  // colour flip; the game ends at the check, the rest is a potential continuation.
  EXPECT_EQ(plies(items, kDutchSugden), (Plies{19}));
  EXPECT_EQ(plies(":line (Qd8+ | kxd8! B:g5++ k [RB]d8#)", kDutchSugden), (Plies{}));
  // the continuation is searched over every matching move: only Ke8 allows Rd8#
  EXPECT_EQ(plies(":line (Qd8+ | kxd8! B:g5++ k Rd1-d8#)", kReti), (Plies{16}));
  EXPECT_EQ(plies(":line (Qd8+ | kxd8! B:g5++ kd8-c7 Rd1-d8#)", kReti), (Plies{}));
  EXPECT_EQ(plies(":line (Qd8+ | kxd8! B:g5++ kd8-e8 Rd1-d8#)", kReti), (Plies{16}));
  // `!`: Kxd8 is the only legal move; after 9.Qd8+ in the game it is
  EXPECT_EQ(plies(":line (Qd8+ kxd8!)", kReti), (Plies{16}));
  EXPECT_EQ(plies(":line (Qd8+ kxd8 B:g5++ k!)", kReti), (Plies{}));
}

TEST(EvalLine, SeedRookChecksPotentialKingMove) {
  // seed 000 `|`: (R:+ k R:+ k R:+ k R:+ | k) at the end of the game: either the last king
  // move is played, or a king move to an empty square is possible after the last check.
  // CQL-Examples uses `:halfmovenumber end-8 end-7` to look at the end of the game.
  const std::string items =
      ":flipcolor :halfmovenumber end-8 end-7 :line (R:+ k R:+ k R:+ k R:+ | k)";
  const std::string fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  EXPECT_EQ(plies(items, "1. Ra8+ Kd7 2. Ra7+ Kc6 3. Ra6+ Kb5 4. Ra5+ Kb4 1/2-1/2", fen),
            (Plies{0}));
  EXPECT_EQ(plies(items, "1. Ra8+ Kd7 2. Ra7+ Kc6 3. Ra6+ Kb5 4. Ra5+ 1/2-1/2", fen), (Plies{0}));
  EXPECT_EQ(plies(items, "1. Ra8+ Kd7 2. Ra7+ Kc6 3. Ra6+ Kb5 4. Ra5+ Kb4 5. Kd2 1/2-1/2", fen),
            (Plies{}));
  // the potential move must be legal: after Ra5+ the king cannot go to a6
  const std::string game = "1. Ra8+ Kd7 2. Ra7+ Kc6 3. Ra6+ Kb5 4. Ra5+ Kb4 *";
  EXPECT_EQ(plies(":line (R:+ k R:+ k R:+ k R:+ | kb5-a6)", game, fen), (Plies{}));
  EXPECT_EQ(plies(":line (R:+ k R:+ k R:+ k R:+ | kb5xa5)", game, fen), (Plies{0}));
  EXPECT_EQ(plies(":line (R:+ k R:+ k R:+ k R:+ | kb5-c4 Ra5-a4+ k-b3)", game, fen), (Plies{0}));
  EXPECT_EQ(plies(":line (R:+ k R:+ | k R:# )", game, fen), (Plies{}));
  // the played part must be played: only 7 plies from ply 2 on
  EXPECT_EQ(plies(":line (R:+ k R:+ k R:+ k R:+ | k)", game, fen), (Plies{0}));
}

TEST(EvalLine, NullAndAnyMovesAndDrops) {
  const std::string game = "1. e4 -- 2. d4 -- 3. Nf3 *";
  EXPECT_EQ(plies(":line (Pe2-e4 null Pd2-d4)", game), (Plies{0}));
  EXPECT_EQ(plies(":line (-- null)", game), (Plies{0, 2}));
  EXPECT_EQ(plies(":line (-- --)", game), (Plies{}));  // `--` is no null move
  EXPECT_EQ(plies(":line (null)", game), plies(":isnull", game));
  EXPECT_EQ(plies(":line (Pe2-e4 | null Pd2-d4 null)", "1. e4 *"), (Plies{0}));
  EXPECT_EQ(plies(":line (Pe2-e4 | pe7-e5 Qd1-h5 null)", "1. e4 *"), (Plies{0}));
  EXPECT_EQ(plies(":line (Pf2-f3 pe7-e5 Pg2-g4 | qd8-h4# null)", "1. f3 e5 2. g4 *"), (Plies{}));
  EXPECT_EQ(plies(":line (Pf2-f3 pe7-e5 Pg2-g4 | qd8-h4#)", "1. f3 e5 2. g4 *"), (Plies{0}));
  // drops never happen in standard chess (SPEC Variants)
  EXPECT_EQ(plies(":line (P@?7 k A@+)", game), (Plies{}));
  EXPECT_EQ(plies(":line (Pe2-e4 | A@+)", game), (Plies{}));
  EXPECT_EQ(plies(":not (position :line (P@e4))", game), (Plies{0, 1, 2, 3, 4, 5}));
}

// ---- :line*

TEST(EvalLine, SeedTranspositionInvariantFrench) {
  // seed 000 :line*: French positions including transpositions like 1.d4 d5 2.e4 e6; in
  // games from the standard start the same as the :fen of the position (at ply 4).
  const std::string star = ":line* (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)";
  const std::string fen = ":fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"";
  for (const std::string& game : {kFrench, kFrenchTransposed, std::string("1. d4 e6 2. e4 d5 *"),
                                  std::string("1. e4 d5 2. d4 e6 *")}) {
    EXPECT_EQ(plies(star, game), (Plies{4})) << game;
    EXPECT_EQ(plies(fen, game), (Plies{4})) << game;
  }
  // the older string form with a trailing '*' (CQL-Position-List :line)
  EXPECT_EQ(plies(":line \"e2-e4 e7-e6 d2-d4 d7-d5 *\"", kFrenchTransposed), (Plies{4}));
  EXPECT_EQ(plies(":line \"Pe2-e4 pe7-e6 Pd2-d4 pd7-d5 *\"", kFrenchTransposed), (Plies{4}));
  // transpositions only: the position reached in more plies is not a transposition
  const std::string longer = "1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e6 4. d4 d5 *";
  EXPECT_EQ(plies(star, longer), (Plies{}));
  EXPECT_EQ(plies(fen, longer), (Plies{8}));
  // the exact line is :line
  EXPECT_EQ(plies(":line (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)", kFrenchTransposed), (Plies{}));
  // Other start positions: the line is played from the game's own start (seed 000: then the
  // :fen equivalence does not hold); where it cannot be played nothing matches.
  EXPECT_EQ(plies(star, "1. d4 d5 2. e4 e6 *", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1"),
            (Plies{4}));
  EXPECT_EQ(plies(fen, "1. d4 d5 2. e4 e6 *", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w Kkq - 0 1"),
            (Plies{}));
  EXPECT_EQ(plies(star, "1... e6 2. d4 d5 3. Nc3 *",
                  "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"),
            (Plies{}));
}

TEST(EvalLine, SeedTranspositionValidity) {
  // seed 000 :line* examples: correct and incorrect lines
  EXPECT_NE(error_of(pos(":line* (e2-e4 d7-d5)")).find("not given"), std::string::npos);
  EXPECT_EQ(error_of(pos(":line* (Pe2-e4 Pd7-d5)")), "<ok>");
  EXPECT_EQ(error_of(pos(":line* (Pe2-e4 pd7-d5)")), "<ok>");
  EXPECT_NE(error_of(pos(":line* (Pe2-e4 pd7-d5 Pe4xd5)")).find("captured piece"), std::string::npos);
  EXPECT_EQ(error_of(pos(":line* (Pe2-e4 pd7-d5 Pe4xPd5)")), "<ok>");
  EXPECT_NE(error_of(pos(":line* (Pe2-e?)")).find("destination"), std::string::npos);
  EXPECT_NE(error_of(pos(":line* (Pe2-e4 Pf7-f6 Qd1-h5+ Pg7-g6)")).find("check marks"),
            std::string::npos);
  EXPECT_EQ(error_of(pos(":line* (Pe2-e4 Pf7-f6 Qd1-h5+)")), "<ok>");
  EXPECT_NE(error_of(pos(":line* (Pe2-e4 | pe7-e5)")).find("potential"), std::string::npos);
  // the valid ones on games
  EXPECT_EQ(plies(":line* (Pe2-e4 Pd7-d5)", "1. e4 d5 2. exd5 *"), (Plies{2}));
  EXPECT_EQ(plies(":line* (Pe2-e4 pd7-d5 Pe4xPd5)", "1. e4 d5 2. exd5 *"), (Plies{3}));
  EXPECT_EQ(plies(":line* (Pe2-e4 Pf7-f6 Qd1-h5+)", "1. e4 f6 2. Qh5+ g6 *"), (Plies{3}));
  EXPECT_EQ(plies(":line* (Pe2-e4 Pf7-f6 Qd1-h5#)", "1. e4 f6 2. Qh5+ g6 *"), (Plies{}));
  // en-passant rights are ignored: 1.e4 f5 2.e5 d5 (e.p. on d6) = e4 d5 e5 f5 (e.p. on f6)
  EXPECT_EQ(plies(":line* (Pe2-e4 Pd7-d5 Pe4-e5 Pf7-f5)", "1. e4 f5 2. e5 d5 *"), (Plies{4}));
}

TEST(EvalLine, TranspositionErrorsCarryTheLocation) {
  // seed 000: transformations are not allowed with :line*; numbers fix the colours, so
  // :flipcolor cannot be used with them; `!` depends on the order of the moves.
  EXPECT_NE(error_of("(match (position :flip :line* (Pe2-e4 Pe7-e5)))")
                .find("test.cql:1:18: transformation keyword ':flip' cannot be combined"),
            std::string::npos);
  EXPECT_EQ(error_of("(match match:eithercolor (position :line* (Pe2-e4 Pe7-e5)))"),
            "1:36: :line* does not allow transformations (:flip, :shift, :flipcolor, "
            "match:eithercolor ...): a transposition-invariant line is searched as written");
  EXPECT_NE(error_of("(match (position :flipcolor\n :line (1.Pe2-e4 Pe7-e5)))")
                .find("':flipcolor' cannot be used with a ':line' that has move numbers"),
            std::string::npos);
  EXPECT_EQ(error_of("(match match:eithercolor (position\n :line (1.Pe2-e4 Pe7-e5)))"),
            "2:2: a move line with move numbers cannot be used with :flipcolor or "
            "match:eithercolor (the numbers fix the colours)");
  EXPECT_EQ(error_of("(match (position :flip :line (1.Pe2-e4 Pe7-e5)))"), "<ok>");
  EXPECT_EQ(error_of("(match (position :line* (Pe2-e4 Pe7-e5!)))"),
            "1:33: ':line*' does not allow '!' (forced move): the order of the moves is open");
  EXPECT_NE(error_of(pos(":line (e2-Ne4)")).find("invalid move 'e2-Ne4'"), std::string::npos);
}

// ---- lines of variations, sequences

TEST(EvalLine, FollowsTheLineBeingSearched) {
  const std::string game = "1. e4 (1. d4 d5 2. c4) 1... e5 (1... c5 2. Nf3) 2. Nf3 Nc6 *";
  auto result = [&](const std::string& items) { return run_game(pos(items), game + "\n"); };
  EXPECT_FALSE(result(":line (Pd2-d4 pd7-d5 Pc2-c4)").matched);
  EXPECT_TRUE(result(":variations :line (Pd2-d4 pd7-d5 Pc2-c4)").matched);
  EXPECT_TRUE(result(":variationsonly :line (pc7-c5 Ng1-f3)").matched);
  // a variation's line ends with the variation: it does not continue in the main line
  EXPECT_FALSE(result(":variationsonly :line (pc7-c5 Ng1-f3 nb8-c6)").matched);
  EXPECT_FALSE(result(":variations :line (Pe2-e4 pc7-c5 Ng1-f3 nb8-c6)").matched);
  // nor does a line of the main line continue into a variation (SPEC-NOTES Variations: a
  // variation is a line of its own from its branch position)
  EXPECT_FALSE(result(":variations :line (Pe2-e4 pc7-c5 Ng1-f3)").matched);
  EXPECT_TRUE(result(":variations :line (pc7-c5 Ng1-f3 | nb8-c6)").matched);
  EXPECT_EQ(result(":variations :line (Pe2-e4 pe7-e5 Ng1-f3 nb8-c6)").plies, (Plies{0}));
  // :line* in a variation: the variation's position at ply n
  EXPECT_TRUE(result(":variationsonly :line* (Pe2-e4 Pc7-c5 Ng1-f3)").matched);
  EXPECT_FALSE(result(":line* (Pe2-e4 Pc7-c5 Ng1-f3)").matched);
}

TEST(EvalLine, InsideSequencesAndLogic) {
  const std::string game = "1. e4 e5 2. Nf3 Nc6 3. Bb5 *";
  EXPECT_EQ(plies(":sequence ((position :line (Pe2-e4)) (position :line (pe7-e5 Ng1-f3)))", game),
            (Plies{0}));
  EXPECT_EQ(plies(":or ((position :line (Ng1-f3)) (position :line (Bf1-b5)))", game), (Plies{2, 4}));
  EXPECT_EQ(plies(":not (position :line (N))", game), (Plies{0, 1, 3, 4, 5}));
  EXPECT_EQ(plies(":btm :line (n)", game), (Plies{3}));
}

}  // namespace
