// Signatures of hand-made games: material timeline, piece occupancy, home pawns, flags,
// the encode/decode round trip and the rejection of corrupt bytes.
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <stdexcept>
#include <string>

#include "db/record_view.h"
#include "import/game_builder.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace {

using namespace chess;

/// A game built by the importer's GameBuilder from PGN text.
struct Built {
  std::string record;  // the game record
  std::string bytes;   // the encoded signature the GameBuilder made
  sig::Signature sig;  // its decoding
};

Built build(const std::string& pgn) {
  import::RawGame raw;
  raw.text = pgn;
  raw.ordinal = 1;
  raw.first_line = 1;
  import::GameBuilder builder;
  import::BuiltGame game;
  builder.build(raw, "test.pgn", game);
  if (!game.stored) throw std::runtime_error("test game rejected: " + game.reason);
  Built b{game.record, game.signature, sig::decode(game.signature)};
  // Replaying the stored record gives the same signature as computing it during the import.
  sig::SignatureBuilder replay;
  sig::compute_signature(db::RecordView::parse(b.record), replay);
  EXPECT_EQ(replay.signature(), b.sig);
  std::string again;
  sig::encode(b.sig, again);
  EXPECT_EQ(again, b.bytes);
  return b;
}

Bitboard bb(std::initializer_list<Square> squares) {
  Bitboard b = 0;
  for (Square s : squares) b |= square_bb(s);
  return b;
}

sig::MaterialKey material(const std::string& fen) {
  Position pos;
  EXPECT_TRUE(pos.set_fen(fen).ok()) << fen;
  return sig::MaterialKey::of(pos);
}

TEST(MaterialKeyTest, PacksCountsPerColourAndType) {
  const sig::MaterialKey start = sig::MaterialKey::standard_start();
  EXPECT_EQ(start, sig::MaterialKey::of(Position()));
  EXPECT_EQ(start.count(WHITE, PAWN), 8);
  EXPECT_EQ(start.count(BLACK, QUEEN), 1);
  EXPECT_EQ(start.pieces(WHITE), 15);
  sig::MaterialKey k = start;
  k.remove(BLACK, KNIGHT);
  k.remove(WHITE, PAWN);
  k.add(WHITE, QUEEN);
  EXPECT_EQ(k.count(BLACK, KNIGHT), 1);
  EXPECT_EQ(k.count(WHITE, PAWN), 7);
  EXPECT_EQ(k.count(WHITE, QUEEN), 2);
  EXPECT_EQ(k.bits() >> sig::MaterialKey::shift(BLACK, KNIGHT) & 15, 1u);
  EXPECT_EQ(material("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").count(WHITE, ROOK), 1);
  EXPECT_EQ(material("4k3/8/8/8/8/8/8/R3K3 w - - 0 1").pieces(BLACK), 0);
}

TEST(SignatureTest, OpeningWithCapturesAndCastling) {
  // Plies: 1 e4, 2 d5, 3 exd5, 4 Qxd5, 5 Nc3, 6 Qd8, 7 Nf3, 8 Nf6, 9 Bc4, 10 Bg4, 11 O-O, 12 e6.
  const Built b = build("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qd8 4. Nf3 Nf6 5. Bc4 Bg4 6. O-O e6 *");
  const sig::Signature& s = b.sig;
  EXPECT_EQ(s.plies, 12u);
  EXPECT_FALSE(s.start_fen);
  EXPECT_EQ(s.start_side, WHITE);
  ASSERT_EQ(s.material.size(), 3u);
  sig::MaterialKey key = sig::MaterialKey::standard_start();
  EXPECT_EQ(s.material[0].key, key);
  EXPECT_EQ(s.material[0].first_ply, 0u);
  EXPECT_EQ(s.material[0].last_ply, 2u);
  key.remove(BLACK, PAWN);
  EXPECT_EQ(s.material[1].key, key);
  EXPECT_EQ(s.material[1].first_ply, 3u);
  EXPECT_EQ(s.material[1].last_ply, 3u);
  key.remove(WHITE, PAWN);
  EXPECT_EQ(s.material[2].key, key);
  EXPECT_EQ(s.material[2].first_ply, 4u);
  EXPECT_EQ(s.material[2].last_ply, 12u);
  EXPECT_EQ(s.run_at(0).first_ply, 0u);
  EXPECT_EQ(s.run_at(3).first_ply, 3u);
  EXPECT_EQ(s.run_at(12).first_ply, 4u);

  EXPECT_EQ(s.castlings, WHITE_OO);
  EXPECT_EQ(s.castling_plies, (std::array<uint32_t, 4>{10, 0, 0, 0}));  // O-O from ply 10
  EXPECT_EQ(s.double_checks, 0);
  EXPECT_EQ(s.promotions, 0);
  EXPECT_FALSE(s.en_passant || s.null_moves || s.has_variations || s.final_check ||
               s.final_no_moves);
  EXPECT_EQ(s.checks[WHITE], 0);
  EXPECT_EQ(s.checks[BLACK], 0);

  EXPECT_EQ(s.ever[W_PAWN], s.start[W_PAWN] | bb({SQ_E4, SQ_D5}));
  EXPECT_EQ(s.always[W_PAWN], s.start[W_PAWN] & ~bb({SQ_E2}));
  EXPECT_EQ(s.final[W_PAWN], s.start[W_PAWN] & ~bb({SQ_E2}));
  EXPECT_EQ(s.ever[W_KING], bb({SQ_E1, SQ_G1}));
  EXPECT_EQ(s.always[W_KING], 0u);
  EXPECT_EQ(s.final[W_KING], bb({SQ_G1}));
  EXPECT_EQ(s.ever[W_ROOK], bb({SQ_A1, SQ_H1, SQ_F1}));
  EXPECT_EQ(s.always[W_ROOK], bb({SQ_A1}));
  EXPECT_EQ(s.ever[B_QUEEN], bb({SQ_D8, SQ_D5}));
  EXPECT_EQ(s.always[B_QUEEN], 0u);  // it came back to d8, but was away at plies 4-5
  EXPECT_EQ(s.final[B_QUEEN], bb({SQ_D8}));
  EXPECT_EQ(s.ever[B_PAWN], s.start[B_PAWN] | bb({SQ_D5, SQ_E6}));
  EXPECT_EQ(s.final[B_PAWN], (s.start[B_PAWN] & ~bb({SQ_D7, SQ_E7})) | bb({SQ_E6}));
  EXPECT_EQ(s.ever[B_BISHOP], bb({SQ_C8, SQ_F8, SQ_G4}));

  EXPECT_EQ(s.home_pawn_until[WHITE][FILE_E], 1u);
  EXPECT_EQ(s.home_pawn_until[WHITE][FILE_D], 13u);  // never left: plies + 1
  EXPECT_EQ(s.home_pawn_until[BLACK][FILE_D], 2u);
  EXPECT_EQ(s.home_pawn_until[BLACK][FILE_E], 12u);
  EXPECT_EQ(s.most_advanced_rank(WHITE, FILE_E), RANK_4);
  EXPECT_EQ(s.most_advanced_rank(WHITE, FILE_D), RANK_5);  // the e-pawn took on d5
  EXPECT_EQ(s.most_advanced_rank(BLACK, FILE_D), RANK_4);  // d5 is Black's 4th rank
  EXPECT_EQ(s.most_advanced_rank(BLACK, FILE_A), RANK_2);
}

TEST(SignatureTest, FoolsMate) {
  const Built b = build("1. f3 e5 2. g4 Qh4# 0-1");
  const sig::Signature& s = b.sig;
  EXPECT_EQ(s.plies, 4u);
  EXPECT_TRUE(s.final_check);
  EXPECT_TRUE(s.final_no_moves);
  EXPECT_TRUE(s.final_mate());
  EXPECT_FALSE(s.final_stalemate());
  EXPECT_EQ(s.final_side(), WHITE);
  EXPECT_EQ(s.checks[WHITE], 1);
  EXPECT_EQ(s.checks[BLACK], 0);
  EXPECT_EQ(s.material.size(), 1u);
  EXPECT_EQ(s.final[B_QUEEN], bb({SQ_H4}));
}

TEST(SignatureTest, StalemateFromFen) {
  const Built b = build("[FEN \"7k/4Q3/6K1/8/8/8/8/8 w - - 0 40\"]\n\n40. Qf7 1/2-1/2");
  const sig::Signature& s = b.sig;
  EXPECT_TRUE(s.start_fen);
  EXPECT_EQ(s.start_side, WHITE);
  EXPECT_EQ(s.start_game_ply, 78u);
  EXPECT_EQ(s.plies, 1u);
  EXPECT_TRUE(s.final_stalemate());
  EXPECT_FALSE(s.final_mate());
  EXPECT_EQ(s.final_side(), BLACK);
  EXPECT_EQ(s.start[W_QUEEN], bb({SQ_E7}));
  EXPECT_EQ(s.start[B_PAWN], 0u);
  EXPECT_EQ(s.ever[W_QUEEN], bb({SQ_E7, SQ_F7}));
  EXPECT_EQ(s.always[W_KING], bb({SQ_G6}));
  ASSERT_EQ(s.material.size(), 1u);
  EXPECT_EQ(s.material[0].key, material("7k/4Q3/6K1/8/8/8/8/8 w - - 0 1"));
  for (Color c : {WHITE, BLACK})
    for (uint32_t until : s.home_pawn_until[c]) EXPECT_EQ(until, 0u);
}

TEST(SignatureTest, EnPassantUnderPromotionCastlingAndNullMove) {
  // Plies: 1 exd6 e.p., 2 Kf7, 3 b8=N, 4 Kg6, 5 O-O, 6 -- (null), 7 Nd7.
  const Built b = build(
      "[FEN \"4k3/1P6/8/3pP3/8/8/8/4K2R w K d6 0 1\"]\n\n"
      "1. exd6 Kf7 2. b8=N Kg6 3. O-O -- 4. Nd7 *");
  const sig::Signature& s = b.sig;
  EXPECT_EQ(s.plies, 7u);
  EXPECT_TRUE(s.en_passant);
  EXPECT_TRUE(s.null_moves);
  EXPECT_EQ(s.castlings, WHITE_OO);
  EXPECT_EQ(s.castling_plies[0], 4u);  // 3. O-O is the move from ply 4 to 5
  EXPECT_TRUE(s.promoted(WHITE, KNIGHT));
  EXPECT_FALSE(s.promoted(WHITE, QUEEN));
  EXPECT_TRUE(s.under_promotion());
  ASSERT_EQ(s.material.size(), 3u);
  EXPECT_EQ(s.material[0].last_ply, 0u);
  EXPECT_EQ(s.material[1].first_ply, 1u);
  EXPECT_EQ(s.material[1].last_ply, 2u);
  EXPECT_EQ(s.material[1].key, material("4k3/1P6/3P4/8/8/8/8/4K2R w K - 0 1"));
  EXPECT_EQ(s.material[2].first_ply, 3u);
  EXPECT_EQ(s.material[2].last_ply, 7u);
  EXPECT_EQ(s.material[2].key, material("1N2k3/8/3P4/8/8/8/8/4K2R w K - 0 1"));
  EXPECT_EQ(s.ever[W_PAWN], bb({SQ_B7, SQ_E5, SQ_D6}));
  EXPECT_EQ(s.ever[B_PAWN], bb({SQ_D5}));
  EXPECT_EQ(s.final[B_PAWN], 0u);
  EXPECT_EQ(s.ever[W_KNIGHT], bb({SQ_B8, SQ_D7}));
  EXPECT_EQ(s.final[W_KNIGHT], bb({SQ_D7}));
  EXPECT_EQ(s.ever[W_ROOK], bb({SQ_H1, SQ_F1}));
  EXPECT_EQ(s.ever[B_KING], bb({SQ_E8, SQ_F7, SQ_G6}));
}

TEST(SignatureTest, VariationsAreFlaggedButNotSummarized) {
  const Built b = build("1. e4 (1. d4 d5 2. c4 dxc4) 1... e5 2. Nf3 *");
  EXPECT_TRUE(b.sig.has_variations);
  EXPECT_EQ(b.sig.material.size(), 1u);  // the capture in the variation is not on the main line
  EXPECT_EQ(b.sig.ever[W_PAWN] & bb({SQ_D4, SQ_C4}), 0u);
  EXPECT_EQ(b.sig.plies, 3u);
}

TEST(SignatureTest, ChecksAreCountedPerSideAndCapped) {
  // 20 moves of a rook chasing the black king: 18 of them give check.
  std::string moves = "[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n";
  const char* const pairs[] = {"Ra8+ Kd7", "Ra7+ Kc6", "Ra6+ Kb5", "Ra8 Kb4",  "Rb8+ Ka3",
                               "Ra8+ Kb2", "Rb8+ Kc2", "Rc8+ Kb3", "Rb8+ Kc4", "Rc8+ Kb5",
                               "Rb8+ Ka6", "Ra8+ Kb7", "Ra1 Kc6",  "Rc1+ Kb5", "Rb1+ Kc4",
                               "Rc1+ Kd5", "Rd1+ Kc4", "Rc1+ Kd4", "Rd1+ Kc4", "Rc1+ Kd4"};
  for (int i = 0; i < 20; ++i) moves += std::to_string(i + 1) + ". " + pairs[i] + " ";
  const Built b = build(moves + "*");
  EXPECT_EQ(b.sig.plies, 40u);
  EXPECT_EQ(b.sig.checks[BLACK], sig::kMaxChecks);  // 18 checks, capped
  EXPECT_EQ(b.sig.checks[WHITE], 0);
}

TEST(SignatureTest, CastlingPliesPerRight) {
  // Plies: 0 e4, 1 e5, 2 Nf3, 3 Nc6, 4 Bc4, 5 Bc5, 6 O-O, 7 Nf6, 8 d3, 9 O-O (from-plies).
  const Built b = build("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O Nf6 5. d3 O-O 6. Nc3 *");
  EXPECT_EQ(b.sig.castlings, WHITE_OO | BLACK_OO);
  EXPECT_EQ(b.sig.castling_plies, (std::array<uint32_t, 4>{6, 0, 9, 0}));
  sig::Summary sm;
  ASSERT_TRUE(sig::read_summary(b.bytes, sm));
  EXPECT_EQ(sm.castling_plies, b.sig.castling_plies);
  EXPECT_EQ(sm, sig::summarize(b.sig));
  // Black to move at ply 0, castling queen side at once.
  const Built black = build("[FEN \"r3k3/8/8/8/8/8/8/4K3 b q - 0 1\"]\n\n1... O-O-O 2. Kf2 *");
  EXPECT_EQ(black.sig.castlings, BLACK_OOO);
  EXPECT_EQ(black.sig.castling_plies, (std::array<uint32_t, 4>{0, 0, 0, 0}));
  ASSERT_TRUE(sig::read_summary(black.bytes, sm));
  EXPECT_EQ(sm.castlings, BLACK_OOO);
  EXPECT_EQ(sm.start_game_ply, 1u);
  EXPECT_EQ(sm, sig::summarize(black.sig));
}

TEST(SignatureTest, DoubleChecksPerSide) {
  // 1. Nf6+ uncovers the rook on e1 and checks with the knight: Black is in double check.
  const Built b = build("[FEN \"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1\"]\n\n1. Nf6+ Kf7 2. Re7+ Kxf6 *");
  EXPECT_EQ(b.sig.checks[BLACK], 2);
  EXPECT_TRUE(b.sig.double_check(BLACK));
  EXPECT_FALSE(b.sig.double_check(WHITE));
  EXPECT_EQ(b.sig.double_checks, 1 << BLACK);
  sig::Summary sm;
  ASSERT_TRUE(sig::read_summary(b.bytes, sm));
  EXPECT_TRUE(sm.double_check(BLACK));
  EXPECT_FALSE(sm.double_check(WHITE));
  // A single check is not a double check.
  const Built single = build("1. e4 e5 2. Bc4 Nc6 3. Bxf7+ Kxf7 *");
  EXPECT_EQ(single.sig.checks[BLACK], 1);
  EXPECT_EQ(single.sig.double_checks, 0);
  // A start position in double check counts (ply 0).
  const Built start = build("[FEN \"4k3/8/5N2/8/8/8/8/4R1K1 b - - 0 1\"]\n\n1... Kf7 *");
  EXPECT_TRUE(start.sig.double_check(BLACK));
}

TEST(SignatureTest, EmptyGameEncoding) {
  const Built b = build("*");
  EXPECT_EQ(b.sig.plies, 0u);
  ASSERT_EQ(b.sig.material.size(), 1u);
  EXPECT_EQ(b.sig.ever, b.sig.start);
  EXPECT_EQ(b.sig.always, b.sig.start);
  EXPECT_EQ(b.sig.final, b.sig.start);
  // header 6 bytes (the least material of both sides: 3+ pawns, a queen, 2 rooks, 2 bishops,
  // a knight = 0xd7; no double check), plies 1 byte; bits: 1 (one run) + 32 (always) + 12 (no
  // extra squares)
  EXPECT_EQ(b.bytes.size(), 7u + 6u);
  EXPECT_EQ(b.bytes, std::string("\0\0\0\xd7\xd7\0\0\xff\xff\xff\xff\xff\x1f", 13));
}

TEST(SignatureCodecTest, RoundTripKeepsEveryField) {
  for (const char* pgn :
       {"1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Bxc6 dxc6 5. O-O f6 6. d4 exd4 7. Nxd4 c5 8. Nb3 "
        "Qxd1 9. Rxd1 Bg4 10. f3 Be6 11. Nc3 Bd6 12. Be3 Ne7 13. a4 O-O 14. a5 Rfd8 *",
        "[FEN \"8/P7/8/8/8/8/7p/K4k2 b - - 3 60\"]\n\n60... h1=R 61. a8=B Rh8 62. Bb7 *",
        "[FEN \"r3k2r/8/8/8/4N3/8/7R/R3K3 b Qkq - 0 1\"]\n\n1... O-O 2. O-O-O Kg7 3. Nf6 *",
        "[FEN \"4k3/8/8/8/4N3/8/8/4R1K1 w - - 0 1\"]\n\n1. Nf6+ Kf7 *",
        "1. d4 -- 2. c4 -- 3. Nc3 *"}) {
    const Built b = build(pgn);
    sig::Signature reused;
    sig::decode(b.bytes, reused);
    EXPECT_EQ(reused, b.sig);
    sig::decode(b.bytes, reused);  // decoding into a used Signature resets it first
    EXPECT_EQ(reused, b.sig);
  }
}

TEST(SignatureCodecTest, NarrowScopesReadOnlyTheirSections) {
  const Built b = build("1. e4 d5 2. exd5 Qxd5 3. Nc3 Qe5+ 4. Be2 Qxc3 5. dxc3 *");
  sig::Signature s;
  sig::decode(b.bytes, s, sig::DecodeScope::kHeader);
  EXPECT_EQ(s.plies, 9u);
  EXPECT_EQ(s.checks[WHITE], 1);
  EXPECT_EQ(s.castling_plies, b.sig.castling_plies);
  EXPECT_TRUE(s.material.empty());
  sig::decode(b.bytes, s, sig::DecodeScope::kMaterial);
  EXPECT_EQ(s.material, b.sig.material);
  EXPECT_EQ(s.ever[W_PAWN], 0u);
}

TEST(SignatureCodecTest, EncodeRefusesAnInconsistentSignature) {
  sig::Signature s = build("1. e4 d5 2. exd5 *").sig;
  std::string out;
  sig::Signature broken = s;
  broken.material[1].first_ply = 2;  // leaves a gap
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.always[W_PAWN] |= bb({SQ_E4});  // not a start square
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.final[B_QUEEN] = 0;  // the final material has a black queen
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.promotions = 1;
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.final[W_KING] = bb({SQ_B1});  // where a white knight stands
  broken.ever[W_KING] |= bb({SQ_B1});
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.double_checks = 1 << WHITE;  // White is never in check
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.castlings = WHITE_OO;
  broken.castling_plies[0] = 1;  // Black moves at ply 1
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken.castling_plies[0] = 4;  // after the last move
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  broken = s;
  broken.castling_plies[2] = 1;  // Black did not castle
  EXPECT_THROW(sig::encode(broken, out), std::invalid_argument);
  EXPECT_TRUE(out.empty());  // nothing written before the check
}

/// Expects decode(bytes) to throw CorruptSignature whose message contains `fragment`.
void expect_corrupt(const std::string& bytes, const std::string& fragment) {
  try {
    sig::decode(bytes);
    ADD_FAILURE() << "no CorruptSignature for " << fragment;
  } catch (const sig::CorruptSignature& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(SignatureCodecTest, CorruptBytesAreRejectedWithAClearError) {
  const std::string empty = build("*").bytes;
  expect_corrupt("", "header: only 0 bytes");
  expect_corrupt(empty + '\0', "end: bytes or bits after the last section");
  expect_corrupt(empty.substr(0, 11), "truncated");
  std::string bad = empty;
  bad[1] = char(0x10);  // a knight promotion that the timeline does not have
  expect_corrupt(bad, "promotion or least-material bytes do not match");
  bad = empty;
  bad[4] = char(0xd6);  // Black's least pawns 2, but Black keeps 8
  expect_corrupt(bad, "promotion or least-material bytes do not match");
  bad = empty;
  bad[0] = char(sig::kByteBlackStarts);
  expect_corrupt(bad, "Black to move in the standard start");
  bad = empty;
  bad[12] = char(0x3f);  // a padding bit set
  expect_corrupt(bad, "bytes or bits after the last section");
  bad = empty;
  bad[5] = char(1 << BLACK);  // Black in double check, but never in check
  expect_corrupt(bad, "bad double-check byte");
  bad = empty;
  bad[1] = char(WHITE_OO);  // White castled, from a ply of a game without moves
  expect_corrupt(bad.substr(0, 7) + '\0' + bad.substr(7), "not a move of the castling side");
  // Two runs in a game of no plies.
  expect_corrupt(std::string("\0\0\0\xd7\xd7\0\0", 7) + char(0b010) + std::string(6, '\xff'),
                 "2 runs in 0 plies");
  // A FEN block with a piece code that is no piece (7).
  std::string fen = build("[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n*").bytes;
  ASSERT_EQ(fen[0] & sig::kByteStartFen, sig::kByteStartFen);
  fen[6 + 1 + 1 + 8] = char(0x77);
  expect_corrupt(fen, "bad piece code 7");

  // A capture of a piece the other side does not have.
  const Built kings = build("[FEN \"4k3/8/8/8/8/8/8/R3K3 w - - 0 1\"]\n\n1. Ra8+ Kd7 *");
  std::string capture = kings.bytes;
  // The bit stream starts after header (6), plies (1), game ply (1), board (8), 3 pieces
  // (2 bytes). Its first bits: gamma(1 run) = "1". Replace by gamma(2) = "010", delta
  // gamma(1) = "1" and the code "1" (a pawn captured): White moves at ply 0 and Black has
  // no pawn.
  const size_t stream = 6 + 1 + 1 + 8 + 2;
  ASSERT_LT(stream, capture.size());
  capture[stream] = char((capture[stream] & ~0x1f) | 0b11010);
  expect_corrupt(capture, "a capture of a black pawn, which is not on the board");
}

TEST(SignatureCodecTest, TruncatedOrMangledBytesNeverCrash) {
  const Built b = build(
      "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6 6. Be3 e5 7. Nb3 Be6 8. f3 Be7 9. "
      "Qd2 O-O 10. O-O-O Nbd7 11. g4 b5 12. g5 b4 13. Ne2 Ne8 14. f4 a5 15. f5 a4 16. Nbd4 "
      "exd4 17. Nxd4 b3 18. Kb1 bxc2+ 19. Nxc2 Bb3 20. axb3 axb3 21. Na3 *");
  for (size_t n = 0; n < b.bytes.size(); ++n)
    EXPECT_THROW(sig::decode(b.bytes.substr(0, n)), sig::CorruptSignature) << n;
  std::mt19937 rng(42);
  sig::Signature s;
  int rejected = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string mangled = b.bytes;
    const int flips = 1 + int(rng() % 3);
    for (int f = 0; f < flips; ++f) mangled[rng() % mangled.size()] ^= char(1 << (rng() % 8));
    try {
      sig::decode(mangled, s);
      // A flip can yield another valid encoding; it must then encode back to itself.
      std::string again;
      sig::encode(s, again);
      EXPECT_EQ(again, mangled);
    } catch (const sig::CorruptSignature&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 10000);
}

}  // namespace
