// SAN reading and writing: every accepted notation, minimal disambiguation (pinned pieces
// do not count), en passant, promotions, standard and Chess960 castling, check marks, the
// error codes and messages, UCI strings, and round trips over whole move trees.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"

namespace chess {
namespace {

Position from_fen(const char* fen) {
  Position pos;
  FenError err = pos.set_fen(fen);
  EXPECT_TRUE(err.ok()) << fen << ": " << err.message;
  return pos;
}

// Parses `san`, expecting success; returns the move.
Move parse_ok(const Position& pos, std::string_view san) {
  SanError err;
  Move m = parse_san(pos, san, &err);
  EXPECT_TRUE(err.ok()) << "'" << san << "' in " << pos.fen() << ": " << err.message;
  EXPECT_NE(m, Move::none()) << san;
  return m;
}

// Parses `san`, expecting failure with `code`; returns the message.
std::string parse_fail(const Position& pos, std::string_view san, SanError::Code code) {
  SanError err;
  Move m = parse_san(pos, san, &err);
  EXPECT_EQ(m, Move::none()) << "'" << san << "' in " << pos.fen();
  EXPECT_EQ(err.code, code) << "'" << san << "': " << err.message;
  EXPECT_FALSE(err.message.empty());
  return err.message;
}

TEST(San, ReplaysAGameAndWritesTheSameSan) {
  const std::vector<std::string> game = {
      "e4",   "e5",   "Nf3",  "Nc6",  "Bb5",  "a6",   "Ba4",   "Nf6",  "O-O",  "Be7",
      "Re1",  "b5",   "Bb3",  "d6",   "c3",   "O-O",  "h3",    "Nb8",  "d4",   "Nbd7",
      "c4",   "c6",   "cxb5", "axb5", "Nc3",  "Bb7",  "Bg5",   "b4",   "Nb1",  "h6",
      "Bh4",  "c5",   "dxe5", "Nxe4", "Bxe7", "Qxe7", "exd6",  "Qf6",  "Nbd2", "Nxd6",
      "Nc4",  "Nxc4", "Bxc4", "Nb6",  "Ne5",  "Rae8", "Bxf7+", "Rxf7", "Nxf7", "Rxe1+",
      "Qxe1", "Kxf7", "Qe3",  "Qg5",  "Qxg5", "hxg5", "b3",    "Ke6",  "a3",   "Kd6"};
  Position pos;
  std::vector<UndoInfo> undo(game.size());
  std::vector<Move> moves;
  for (size_t i = 0; i < game.size(); ++i) {
    Move m = parse_ok(pos, game[i]);
    EXPECT_EQ(to_san(pos, m), game[i]);
    moves.push_back(m);
    pos.do_move(m, undo[i]);
  }
  EXPECT_EQ(pos.fen(), "8/1b4p1/1n1k4/2p3p1/1p6/PP5P/5PP1/R5K1 w - - 1 31");
  for (size_t i = game.size(); i-- > 0;) pos.undo_move(moves[i], undo[i]);
  EXPECT_EQ(pos.fen(), Position().fen());
}

TEST(San, AcceptedSpellingsOfOneMove) {
  Position pos;
  Move nf3 = Move(SQ_G1, SQ_F3);
  for (const char* s : {"Nf3", "Ngf3", "N1f3", "Ng1f3", "Ng1-f3", "g1-f3", "g1f3", "Nf3+", "Nf3#",
                        "Nf3++", "Nf3!", "Nf3?", "Nf3!!", "Nf3??", "Nf3!?", "Nf3?!", "Nf3+!?"})
    EXPECT_EQ(parse_ok(pos, s), nf3) << s;
  Move e4 = Move(SQ_E2, SQ_E4);
  for (const char* s : {"e4", "Pe4", "e2e4", "e2-e4", "Pe2e4", "e4!"})
    EXPECT_EQ(parse_ok(pos, s), e4) << s;
}

TEST(San, CapturesWithOrWithoutX) {
  Position pos = from_fen("rnbqkbnr/ppp2ppp/8/3pp3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3");
  for (const char* s : {"Nxe5", "Ne5", "N:e5", "Nfxe5", "Nf3xe5"})
    EXPECT_EQ(parse_ok(pos, s), Move(SQ_F3, SQ_E5)) << s;
  for (const char* s : {"exd5", "ed5", "e:d5", "e4xd5", "e4d5", "Pexd5", "xd5"})
    EXPECT_EQ(parse_ok(pos, s), Move(SQ_E4, SQ_D5)) << s;
  EXPECT_EQ(to_san(pos, Move(SQ_F3, SQ_E5)), "Nxe5");
  EXPECT_EQ(to_san(pos, Move(SQ_E4, SQ_D5)), "exd5");
}

TEST(San, Disambiguation) {
  // Knights on b1 and f3 both reach d2.
  Position pos = from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
  EXPECT_EQ(parse_fail(pos, "Nd2", SanError::AMBIGUOUS),
            "'Nd2': ambiguous: knights on b1 and f3 can move to d2");
  EXPECT_EQ(parse_ok(pos, "Nbd2"), Move(SQ_B1, SQ_D2));
  EXPECT_EQ(parse_ok(pos, "Nfd2"), Move(SQ_F3, SQ_D2));
  EXPECT_EQ(parse_ok(pos, "N3d2"), Move(SQ_F3, SQ_D2));
  EXPECT_EQ(parse_ok(pos, "Nb1d2"), Move(SQ_B1, SQ_D2));
  EXPECT_EQ(to_san(pos, Move(SQ_B1, SQ_D2)), "Nbd2");
  EXPECT_EQ(to_san(pos, Move(SQ_F3, SQ_D2)), "Nfd2");
  EXPECT_EQ(to_san(pos, Move(SQ_B1, SQ_C3)), "Nc3");  // only one knight reaches c3

  // Same file: the rank disambiguates.
  pos = from_fen("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(to_san(pos, Move(SQ_A1, SQ_A3)), "R1a3");
  EXPECT_EQ(parse_ok(pos, "R5a3"), Move(SQ_A5, SQ_A3));
  parse_fail(pos, "Ra3", SanError::AMBIGUOUS);
  parse_fail(pos, "Raa3", SanError::AMBIGUOUS);

  // Three queens: neither file nor rank alone is enough.
  pos = from_fen("8/7k/8/Q7/8/8/8/Q3Q2K w - - 0 1");
  EXPECT_EQ(to_san(pos, Move(SQ_A1, SQ_E5)), "Qa1e5");
  EXPECT_EQ(to_san(pos, Move(SQ_A5, SQ_E5)), "Q5e5");
  EXPECT_EQ(to_san(pos, Move(SQ_E1, SQ_E5)), "Qee5");
  EXPECT_EQ(parse_ok(pos, "Qa1e5"), Move(SQ_A1, SQ_E5));
  EXPECT_EQ(parse_ok(pos, "Qa1xe5"), Move(SQ_A1, SQ_E5));  // a wrong 'x' is tolerated
  EXPECT_EQ(parse_fail(pos, "Qe5", SanError::AMBIGUOUS),
            "'Qe5': ambiguous: queens on a1, e1 and a5 can move to e5");
  parse_fail(pos, "Qae5", SanError::AMBIGUOUS);
}

TEST(San, PinnedPieceDoesNotCountForDisambiguation) {
  // The knight on e2 is pinned by the rook on e7; only the b1 knight can go to c3.
  Position pos = from_fen("4k3/4r3/8/8/8/8/4N3/1N2K3 w - - 0 1");
  EXPECT_EQ(parse_ok(pos, "Nc3"), Move(SQ_B1, SQ_C3));
  EXPECT_EQ(to_san(pos, Move(SQ_B1, SQ_C3)), "Nc3");
  EXPECT_EQ(parse_ok(pos, "Nbc3"), Move(SQ_B1, SQ_C3));  // superfluous but fine
  EXPECT_EQ(parse_fail(pos, "Nec3", SanError::ILLEGAL),
            "'Nec3': the white knight on e2 cannot move to c3 without leaving the king in check");
}

TEST(San, EnPassant) {
  Position pos = from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
  Move ep = Move::make(SQ_E5, SQ_F6, Move::EN_PASSANT);
  for (const char* s : {"exf6", "exf6 e.p.", "exf6e.p.", "exf6ep", "exf6 ep", "ef6", "exf6+",
                        "e5xf6", "exf6+ e.p."})
    EXPECT_EQ(parse_ok(pos, s), ep) << s;
  EXPECT_EQ(to_san(pos, ep), "exf6");
  EXPECT_EQ(to_uci(ep, pos), "e5f6");
  UndoInfo u;
  pos.do_move(ep, u);
  EXPECT_EQ(pos.piece_on(SQ_F5), NO_PIECE);
  EXPECT_EQ(u.captured, B_PAWN);
  // exd6 is not possible: d5 was not just pushed.
  pos.undo_move(ep, u);
  EXPECT_EQ(parse_fail(pos, "exd6", SanError::NO_SUCH_MOVE), "'exd6': no piece to capture on d6");

  // En passant that would expose the king along the rank is illegal.
  pos = from_fen("8/8/8/KPp4r/8/8/8/4k3 w - c6 0 1");
  parse_fail(pos, "bxc6", SanError::ILLEGAL);
  EXPECT_EQ(parse_ok(pos, "b6"), Move(SQ_B5, SQ_B6));
}

TEST(San, Promotions) {
  Position pos = from_fen("5r2/4P3/8/8/8/8/k7/4K3 w - - 0 1");
  Move q = Move::make(SQ_E7, SQ_E8, Move::PROMOTION, QUEEN);
  for (const char* s : {"e8=Q", "e8Q", "e8=q", "e8q", "e8/Q", "Pe8=Q", "e7e8q", "e8=Q+"})
    EXPECT_EQ(parse_ok(pos, s), q) << s;
  EXPECT_EQ(parse_ok(pos, "e8=b"), Move::make(SQ_E7, SQ_E8, Move::PROMOTION, BISHOP));
  EXPECT_EQ(parse_ok(pos, "e8B"), Move::make(SQ_E7, SQ_E8, Move::PROMOTION, BISHOP));
  EXPECT_EQ(parse_ok(pos, "e8=R"), Move::make(SQ_E7, SQ_E8, Move::PROMOTION, ROOK));
  Move fn = Move::make(SQ_E7, SQ_F8, Move::PROMOTION, KNIGHT);
  for (const char* s : {"exf8=N", "exf8N", "ef8=N", "exf8=n", "ef8n"})
    EXPECT_EQ(parse_ok(pos, s), fn) << s;
  EXPECT_EQ(to_san(pos, q), "e8=Q");
  EXPECT_EQ(to_san(pos, fn), "exf8=N");
  EXPECT_EQ(to_uci(fn, pos), "e7f8n");
  EXPECT_EQ(parse_uci(pos, "e7f8n"), fn);
  EXPECT_EQ(parse_fail(pos, "e8", SanError::NO_SUCH_MOVE),
            "'e8': promotion piece missing (e.g. =Q)");
  parse_fail(pos, "e8=K", SanError::SYNTAX);
  parse_fail(pos, "e8=P", SanError::SYNTAX);
  parse_fail(pos, "Ne8=Q", SanError::SYNTAX);
  pos = from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
  EXPECT_EQ(parse_fail(pos, "e4=Q", SanError::NO_SUCH_MOVE),
            "'e4=Q': promotion is only possible on the last rank");
}

TEST(San, StandardCastling) {
  Position pos = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
  Move oo = Move::make(SQ_E1, SQ_H1, Move::CASTLING);
  Move ooo = Move::make(SQ_E1, SQ_A1, Move::CASTLING);
  for (const char* s : {"O-O", "0-0", "o-o", "O-O+", "O-O!", "Kg1", "Kxh1", "e1g1", "e1-g1"})
    EXPECT_EQ(parse_ok(pos, s), oo) << s;
  for (const char* s : {"O-O-O", "0-0-0", "O-O-O#", "Kc1"}) EXPECT_EQ(parse_ok(pos, s), ooo) << s;
  EXPECT_EQ(to_san(pos, oo), "O-O");
  EXPECT_EQ(to_san(pos, ooo), "O-O-O");
  EXPECT_EQ(to_uci(oo, pos), "e1g1");
  EXPECT_EQ(to_uci(ooo, pos), "e1c1");
  EXPECT_EQ(parse_uci(pos, "e1g1"), oo);
  EXPECT_EQ(parse_uci(pos, "e1h1"), oo);
  UndoInfo u;
  pos.do_move(oo, u);
  EXPECT_EQ(pos.fen(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
  EXPECT_EQ(to_san(pos, Move::make(SQ_E8, SQ_A8, Move::CASTLING)), "O-O-O");

  // The rook on f2 attacks f1: O-O passes through check; O-O-O is fine.
  pos = from_fen("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1");
  EXPECT_EQ(parse_fail(pos, "O-O", SanError::ILLEGAL),
            "'O-O': castling path is occupied, or the king would cross or land on an attacked "
            "square");
  EXPECT_EQ(parse_ok(pos, "O-O-O"), ooo);
  // No right.
  pos = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
  EXPECT_EQ(parse_fail(pos, "O-O", SanError::ILLEGAL),
            "'O-O': white has no king-side castling right");
  // In check.
  pos = from_fen("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
  EXPECT_EQ(parse_fail(pos, "O-O", SanError::ILLEGAL), "'O-O': cannot castle out of check");
  // Blocked.
  pos = Position();
  parse_fail(pos, "O-O", SanError::ILLEGAL);
}

TEST(San, Chess960Castling) {
  // King g1, rooks a1 and h1: O-O leaves the king on g1 and moves the rook to f1.
  Position pos = from_fen("1k6/8/8/8/8/8/8/R5KR w HA - 0 1");
  ASSERT_TRUE(pos.is_chess960());
  Move oo = Move::make(SQ_G1, SQ_H1, Move::CASTLING);
  Move ooo = Move::make(SQ_G1, SQ_A1, Move::CASTLING);
  EXPECT_EQ(parse_ok(pos, "O-O"), oo);
  EXPECT_EQ(parse_ok(pos, "0-0-0"), ooo);
  EXPECT_EQ(parse_ok(pos, "Kxh1"), oo);
  EXPECT_EQ(to_san(pos, oo), "O-O");
  EXPECT_EQ(to_san(pos, ooo), "O-O-O");
  EXPECT_EQ(to_uci(oo, pos), "g1h1");
  EXPECT_EQ(to_uci(ooo, pos), "g1a1");
  EXPECT_EQ(parse_uci(pos, "g1a1"), ooo);
  UndoInfo u;
  pos.do_move(ooo, u);
  EXPECT_EQ(pos.fen(), "1k6/8/8/8/8/8/8/2KR3R b - - 1 1");

  // Rooks on b and g, king on e: "Kg1" moves onto the own rook, so it means castling; the
  // two-square king move is not castling in Chess960 when no rook is there.
  pos = from_fen("1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1");
  EXPECT_EQ(parse_ok(pos, "Kxg1"), Move::make(SQ_E1, SQ_G1, Move::CASTLING));
  EXPECT_EQ(parse_ok(pos, "O-O"), Move::make(SQ_E1, SQ_G1, Move::CASTLING));
  EXPECT_EQ(parse_ok(pos, "O-O-O"), Move::make(SQ_E1, SQ_B1, Move::CASTLING));
  parse_fail(pos, "Kc1", SanError::NO_SUCH_MOVE);
  pos = from_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
  parse_fail(pos, "O-O", SanError::ILLEGAL);  // the f1 rook blocks the h1 rook's destination
}

TEST(San, CheckAndMateMarks) {
  Position pos = from_fen("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
  Move qh4 = Move(SQ_D8, SQ_H4);
  EXPECT_EQ(to_san(pos, qh4), "Qh4#");
  for (const char* s : {"Qh4", "Qh4#", "Qh4+", "Qh4#!!", "Qd8h4"}) EXPECT_EQ(parse_ok(pos, s), qh4);
  pos = from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
  EXPECT_EQ(to_san(pos, Move(SQ_A1, SQ_A8)), "Ra8+");
}

TEST(San, NullMove) {
  Position pos;
  for (const char* s : {"--", "Z0", "null"}) EXPECT_EQ(parse_ok(pos, s), Move::null()) << s;
  EXPECT_EQ(to_san(pos, Move::null()), "--");
  EXPECT_EQ(to_uci(Move::null(), pos), "0000");
  EXPECT_EQ(parse_uci(pos, "0000"), Move::null());
}

TEST(SanErrors, Syntax) {
  Position pos;
  for (const char* s :
       {"",     "+",   "!?",   "Nz9", "e9", "K",  "Qx", "i4",    "Ne4e5e6", "O-O-O-O",
        "N@f3", "e4)", "Nf3 ", "exf", "x",  "=Q", "O-", "Nbcd3", "N11f3",   "nf3"})
    parse_fail(pos, s, SanError::SYNTAX);
  EXPECT_EQ(parse_fail(pos, "Nz9", SanError::SYNTAX),
            "'Nz9': expected a destination square such as e4");
  EXPECT_EQ(parse_fail(pos, "\xff\x01", SanError::SYNTAX),
            "'\\xFF\\x01': expected a destination square such as e4");
  EXPECT_EQ(parse_fail(pos, "Nbcd3", SanError::SYNTAX),
            "'Nbcd3': unexpected character before the destination");
}

TEST(SanErrors, NoSuchMoveAndIllegal) {
  Position pos;
  EXPECT_EQ(parse_fail(pos, "Nf5", SanError::NO_SUCH_MOVE),
            "'Nf5': no white knight can move to f5");
  EXPECT_EQ(parse_fail(pos, "Nbf3", SanError::NO_SUCH_MOVE),
            "'Nbf3': no white knight from the b-file can move to f3");
  EXPECT_EQ(parse_fail(pos, "e5", SanError::NO_SUCH_MOVE), "'e5': no white pawn can move to e5");
  EXPECT_EQ(parse_fail(pos, "exd3", SanError::NO_SUCH_MOVE), "'exd3': no piece to capture on d3");
  EXPECT_EQ(parse_fail(pos, "Ke2", SanError::NO_SUCH_MOVE), "'Ke2': e2 holds a white piece");
  parse_fail(pos, "Bb5", SanError::NO_SUCH_MOVE);  // blocked by the e2 pawn
  parse_fail(pos, "e1", SanError::NO_SUCH_MOVE);
  parse_fail(pos, "a1", SanError::NO_SUCH_MOVE);

  // King moving into check.
  pos = from_fen("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1");
  EXPECT_EQ(parse_fail(pos, "Ke2", SanError::ILLEGAL),
            "'Ke2': the white king on e1 cannot move to e2 without leaving the king in check");
  EXPECT_EQ(parse_ok(pos, "Kxd2"), Move(SQ_E1, SQ_D2));
  // A move that ignores a check.
  pos = from_fen("4k3/8/8/8/8/8/P7/4K2r w - - 0 1");
  parse_fail(pos, "a3", SanError::ILLEGAL);
}

// For every legal move of every node of a small tree: SAN and UCI written then read give
// the same move, and no two moves share a SAN string.
void check_round_trips(Position& pos, int depth) {
  MoveList list;
  generate_legal(pos, list);
  std::vector<std::string> seen;
  for (Move m : list) {
    std::string san = to_san(pos, m);
    SanError err;
    ASSERT_EQ(parse_san(pos, san, &err), m) << san << " in " << pos.fen() << ": " << err.message;
    ASSERT_EQ(parse_uci(pos, to_uci(m, pos)), m) << to_uci(m, pos) << " in " << pos.fen();
    for (const std::string& s : seen) ASSERT_NE(s, san) << pos.fen();
    seen.push_back(san);
    if (depth > 1) {
      UndoInfo u;
      pos.do_move(m, u);
      check_round_trips(pos, depth - 1);
      pos.undo_move(m, u);
    }
  }
}

TEST(San, RoundTripsOverMoveTrees) {
  for (const char* fen : {
           "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
           "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
           "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -",
           "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
           "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
           "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1",
           "8/7k/8/Q7/8/8/8/Q3Q2K w - - 0 1",
       }) {
    Position pos = from_fen(fen);
    check_round_trips(pos, 2);
  }
}

TEST(San, ArbitraryBytesNeverCrashAndOnlyLegalMovesComeBack) {
  std::mt19937 rng(12345);
  const std::string alphabet = "NBRQKPabcdefgh12345678xX=+#!?-O0o:/ .ep\x80\xff";
  const char* fens[] = {
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
      "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
      "5r2/4P3/8/8/8/8/k7/4K3 w - - 0 1",
      "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
  };
  for (const char* fen : fens) {
    Position pos = from_fen(fen);
    MoveList legal;
    generate_legal(pos, legal);
    for (int i = 0; i < 20000; ++i) {
      std::string token;
      int len = int(rng() % 9);
      for (int k = 0; k < len; ++k)
        token += (rng() % 8 == 0) ? char(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
      SanError err;
      Move m = parse_san(pos, token, &err);
      if (m == Move::none()) {
        ASSERT_FALSE(err.ok()) << token;
      } else {
        ASSERT_TRUE(err.ok());
        ASSERT_TRUE(m == Move::null() || legal.contains(m)) << token;
      }
    }
  }
}

}  // namespace
}  // namespace chess
