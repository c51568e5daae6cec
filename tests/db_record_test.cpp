// Game record format: RecordBuilder -> RecordView round trips and rejection of corrupt bytes.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "db/errors.h"
#include "db/game_record.h"

namespace {

using chess::Move;
using db::RecordBuilder;
using db::RecordView;
using db::Token;
using db::TokenKind;

const Move e2e4 = Move(chess::SQ_E2, chess::SQ_E4);
const Move d2d4 = Move(chess::SQ_D2, chess::SQ_D4);
const Move c2c4 = Move(chess::SQ_C2, chess::SQ_C4);
const Move e7e5 = Move(chess::SQ_E7, chess::SQ_E5);
const Move g8f6 = Move(chess::SQ_G8, chess::SQ_F6);
const Move e1h1 = Move::make(chess::SQ_E1, chess::SQ_H1, Move::CASTLING);
const Move a7a8q = Move::make(chess::SQ_A7, chess::SQ_A8, Move::PROMOTION, chess::QUEEN);

/// A token as a comparable tuple-like string, for readable failure output.
std::string describe(const Token& t) {
  std::string depth = "@" + std::to_string(t.depth);
  switch (t.kind) {
    case TokenKind::kMove:
      return "move " + std::to_string(t.move.raw()) + depth;
    case TokenKind::kBeginVariation:
      return "(" + depth;
    case TokenKind::kEndVariation:
      return ")" + depth;
    case TokenKind::kComment:
      return "{" + std::string(t.comment) + "}" + depth;
    case TokenKind::kCommentBefore:
      return "<{" + std::string(t.comment) + "}" + depth;
    case TokenKind::kNag:
      return "$" + std::to_string(t.nag) + depth;
  }
  return "?";
}

std::vector<std::string> tokens_of(const RecordView& view) {
  std::vector<std::string> out;
  for (const Token& t : view.tokens()) out.push_back(describe(t));
  return out;
}

std::string move_token(Move m, int depth) {
  return "move " + std::to_string(m.raw()) + "@" + std::to_string(depth);
}

/// A move record and its annotation record, as RecordBuilder::finish() makes them.
struct Built {
  std::string moves;  // move record
  std::string notes;  // annotation record ("" = none)
  bool operator==(const Built&) const = default;
};

Built finish(RecordBuilder& b) {
  Built out;
  out.moves = std::string(b.finish());
  out.notes = std::string(b.annotations());
  return out;
}

RecordView parse(const Built& built) { return RecordView::parse(built.moves, built.notes); }

/// {Start} 1. e4 $1 ({Instead} 1. d4 {Solid} (1. c4) 1... Nf6) 1... e5 {Über} -- O-O a8=Q
Built build_annotated(RecordBuilder& b, std::string_view fen = {}, bool chess960 = false) {
  b.reset();
  if (!fen.empty() || chess960) b.set_start_fen(fen, chess960);
  b.add_comment("Start");
  b.add_move(e2e4);
  b.add_nag(1);
  b.begin_variation();
  b.add_comment("Instead");
  b.add_move(d2d4);
  b.add_comment("Solid");
  b.begin_variation();
  b.add_move(c2c4);
  b.end_variation();
  b.add_move(g8f6);
  b.end_variation();
  b.add_move(e7e5);
  b.add_comment(
      "\xC3\x9C"
      "ber");
  b.add_move(Move::null());
  b.add_move(e1h1);
  b.add_move(a7a8q);
  return finish(b);
}

TEST(RecordBuilderTest, PlainGameHasOnlyTheMainLine) {
  RecordBuilder b;
  b.reset();
  b.add_move(e2e4);
  b.add_move(e7e5);
  std::string bytes(b.finish());
  EXPECT_EQ(bytes.size(), 1u + 1u + 1u + 3u);  // flags, varint 2, no specials, two 12-bit moves
  RecordView view = RecordView::parse(bytes);
  EXPECT_EQ(view.flags(), db::kPackedMainLine);
  EXPECT_TRUE(view.start_fen().empty());
  EXPECT_FALSE(view.chess960());
  ASSERT_EQ(view.main_line_size(), 2u);
  EXPECT_EQ(view.main_move(0), e2e4);
  EXPECT_EQ(view.main_move(1), e7e5);
  EXPECT_EQ(tokens_of(view), (std::vector<std::string>{move_token(e2e4, 0), move_token(e7e5, 0)}));
}

TEST(RecordBuilderTest, EmptyGame) {
  RecordBuilder b;
  b.reset();
  RecordView view = RecordView::parse(b.finish());
  EXPECT_EQ(view.main_line_size(), 0u);
  EXPECT_TRUE(tokens_of(view).empty());
  EXPECT_TRUE(tokens_of(RecordView()).empty());
}

TEST(RecordBuilderTest, AnnotatedRoundTripWithFenStart) {
  const std::string fen = "4k3/P7/8/8/8/8/8/4K2R w K - 0 1";
  RecordBuilder b;
  Built built = build_annotated(b, fen);
  RecordView view = parse(built);
  EXPECT_EQ(view.start_fen(), fen);
  EXPECT_FALSE(view.chess960());
  EXPECT_TRUE(view.has_variations());
  EXPECT_TRUE(view.has_annotations());
  EXPECT_TRUE(view.annotations_loaded());
  ASSERT_EQ(view.main_line_size(), 5u);
  EXPECT_EQ(view.main_move(0), e2e4);
  EXPECT_EQ(view.main_move(1), e7e5);
  EXPECT_EQ(view.main_move(2), Move::null());
  EXPECT_EQ(view.main_move(3), e1h1);
  EXPECT_EQ(view.main_move(4), a7a8q);
  EXPECT_EQ(view.main_move(4).promotion_type(), chess::QUEEN);
  const std::vector<std::string> expected = {"<{Start}@0",
                                             move_token(e2e4, 0),
                                             "$1@0",
                                             "(@1",
                                             "<{Instead}@1",
                                             move_token(d2d4, 1),
                                             "{Solid}@1",
                                             "(@2",
                                             move_token(c2c4, 2),
                                             ")@2",
                                             move_token(g8f6, 1),
                                             ")@1",
                                             move_token(e7e5, 0),
                                             "{\xC3\x9C"
                                             "ber}@0",
                                             move_token(Move::null(), 0),
                                             move_token(e1h1, 0),
                                             move_token(a7a8q, 0)};
  EXPECT_EQ(tokens_of(view), expected);
  // The move record alone: the same moves and variations, no comments or NAGs.
  RecordView moves_only = RecordView::parse(built.moves);
  EXPECT_TRUE(moves_only.has_annotations());
  EXPECT_FALSE(moves_only.annotations_loaded());
  std::vector<std::string> without_notes;
  for (const std::string& t : expected)
    if (t[0] != '{' && t[0] != '<' && t[0] != '$') without_notes.push_back(t);
  EXPECT_EQ(tokens_of(moves_only), without_notes);
}

TEST(RecordBuilderTest, Chess960FlagWithAndWithoutFen) {
  RecordBuilder b;
  b.reset();
  b.set_start_fen("", true);
  b.add_move(e2e4);
  RecordView plain = RecordView::parse(b.finish());
  EXPECT_TRUE(plain.chess960());
  EXPECT_TRUE(plain.start_fen().empty());

  const std::string fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
  const Built built = build_annotated(b, fen, true);
  RecordView view = parse(built);
  EXPECT_TRUE(view.chess960());
  EXPECT_EQ(view.start_fen(), fen);
}

TEST(RecordBuilderTest, ReuseGivesIdenticalRecords) {
  RecordBuilder b;
  Built first = build_annotated(b);
  b.reset();
  b.add_move(d2d4);
  b.finish();
  EXPECT_EQ(build_annotated(b), first);
}

TEST(RecordBuilderTest, LongCommentAndAllNags) {
  RecordBuilder b;
  b.reset();
  b.add_move(e2e4);
  std::string long_comment(100000, 'x');
  b.add_comment(long_comment);
  for (int nag = 0; nag < 256; ++nag) b.add_nag(uint8_t(nag));
  const Built built = finish(b);
  RecordView view = parse(built);
  int nags = 0;
  for (const Token& t : view.tokens()) {
    if (t.kind == TokenKind::kComment) {
      EXPECT_EQ(t.comment, long_comment);
    } else if (t.kind == TokenKind::kNag) {
      EXPECT_EQ(t.nag, nags++);
    }
  }
  EXPECT_EQ(nags, 256);
  EXPECT_FALSE(view.has_variations());
}

TEST(RecordBuilderTest, MisuseThrows) {
  RecordBuilder b;
  b.reset();
  EXPECT_THROW(b.add_move(Move::none()), std::invalid_argument);
  EXPECT_THROW(b.add_move(Move(chess::SQ_C1, chess::SQ_C1)), std::invalid_argument);
  EXPECT_THROW(b.begin_variation(), std::invalid_argument);  // nothing to branch from
  EXPECT_THROW(b.end_variation(), std::invalid_argument);
  b.add_move(e2e4);
  EXPECT_THROW(b.set_start_fen("8/8/8/8/8/8/8/K6k w - - 0 1", false), std::invalid_argument);
  b.begin_variation();
  EXPECT_THROW(b.begin_variation(), std::invalid_argument);  // variation has no move yet
  EXPECT_THROW(b.finish(), std::invalid_argument);           // open variation
  b.add_move(d2d4);
  b.end_variation();
  EXPECT_NO_THROW(RecordView::parse(b.finish()));
}

TEST(RecordViewTest, EmptyVariationAndConsecutiveVariations) {
  RecordBuilder b;
  b.reset();
  b.add_move(e2e4);
  b.begin_variation();
  b.end_variation();
  b.begin_variation();
  b.add_move(d2d4);
  b.end_variation();
  RecordView view = RecordView::parse(b.finish());
  EXPECT_EQ(tokens_of(view), (std::vector<std::string>{move_token(e2e4, 0), "(@1", ")@1", "(@1",
                                                       move_token(d2d4, 1), ")@1"}));
}

/// Bytes of a record assembled by hand: flags, N, then raw 16-bit words / bytes.
std::string raw_record(uint8_t flags, std::initializer_list<int> rest) {
  std::string out(1, char(flags));
  for (int b : rest) out.push_back(char(uint8_t(b)));
  return out;
}

void expect_corrupt(const std::string& bytes, const char* why) {
  EXPECT_THROW(RecordView::parse(bytes), db::CorruptRecord) << why;
}

void expect_corrupt_notes(const std::string& moves, const std::string& notes, const char* why) {
  EXPECT_THROW(RecordView::parse(moves, notes), db::CorruptRecord) << why;
}

TEST(RecordViewTest, RejectsCorruptRecords) {
  expect_corrupt("", "empty");
  expect_corrupt(raw_record(0x20, {0}), "unknown flag bit");
  expect_corrupt(raw_record(0, {}), "missing ply count");
  expect_corrupt(raw_record(0, {0x80}), "truncated varint");
  expect_corrupt(raw_record(0, {0x80, 0x00}), "overlong varint");
  expect_corrupt(raw_record(0, {0xFF, 0xFF, 0xFF, 0xFF, 0x7F}), "varint above 32 bits");
  expect_corrupt(raw_record(0, {2, 0x1C, 0x03}), "main line truncated");
  expect_corrupt(raw_record(0, {1, 0x00, 0x00}), "Move::none() in the main line");
  expect_corrupt(raw_record(0, {1, 0x82, 0x00}), "marker in the main line");
  expect_corrupt(raw_record(0, {1, 0x1C, 0x03, 0x00}), "trailing byte");
  expect_corrupt(raw_record(db::kHasStartFen, {0, 0}), "empty FEN");
  expect_corrupt(raw_record(db::kHasStartFen, {0, 10, 'k'}), "FEN truncated");
  // e2e4 = 0x031C. Move streams:
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03}), "flag without stream");
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x1C, 0x03, 0x82, 0x00}),
                 "variation not closed");
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x1C, 0x03, 0xC3, 0x00}),
                 "end of variation on the main line");
  expect_corrupt(
      raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x82, 0x00, 0xC3, 0x00, 0x1C, 0x03}),
      "variation before any move");
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x1B, 0x03, 0x82, 0x00, 0xC3, 0x00}),
                 "stream differs from the main line");
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x86, 0x01}),
                 "version-1 NAG marker");
  expect_corrupt(raw_record(db::kHasVariations, {1, 0x1C, 0x03, 0x1C, 0x03, 0x07, 0x01}),
                 "unknown marker from == to");
  // Annotation records of e2e4 (anchor 1 = after the move):
  const std::string one = raw_record(db::kHasAnnotations, {1, 0x1C, 0x03});
  expect_corrupt_notes(raw_record(0, {1, 0x1C, 0x03}), raw_record(0, {0x05, 3}),
                       "annotations without the flag");
  expect_corrupt_notes(one, raw_record(0, {}), "empty annotation record");
  expect_corrupt_notes(one, raw_record(0x04, {0x05, 3}), "unknown annotation flag");
  expect_corrupt_notes(one, raw_record(0, {0x05}), "NAG byte missing");
  expect_corrupt_notes(one, raw_record(0, {0x04, 5, 'a'}), "comment truncated");
  expect_corrupt_notes(one, raw_record(0, {0x09, 3}), "NAG anchored past the move stream");
  expect_corrupt_notes(one, raw_record(0, {0x07}), "unknown note kind");
  expect_corrupt_notes(one, raw_record(0, {0x06}), "place of a typed comment that has none");
  // typed block: 1 run (descriptor kAnnClock, length 1), clock 1800 s in seconds unit
  expect_corrupt_notes(one, raw_record(db::kHasTypedBlock | db::kClockSeconds, {6, 1, 1, 1, 0x90, 0x1C, 0}),
                       "typed block with a trailing byte");
  expect_corrupt_notes(one, raw_record(db::kHasTypedBlock, {3, 1, 1, 2}), "run longer than the main line");
  expect_corrupt_notes(one, raw_record(db::kHasTypedBlock, {4, 1, 0x08, 1, 0}), "rest without a command");
  expect_corrupt_notes(one, raw_record(db::kHasTypedBlock, {5, 1, 0x01 | 0x80, 0x02, 1, 0x10}),
                       "placed typed comment without its place");
}

TEST(RecordViewTest, HandMadeRecordMatchesTheDocumentedLayout) {
  // Move record: no flags but kHasAnnotations, N = 1, e2e4. Annotation record: typed block
  // of 6 bytes (1 run: clock, 1 ply; clock 0:30:00 = 1800 s as zigzag varint 3600 = 0x90 0x1C),
  // then the note list: anchor +1, NAG 3.
  const std::string moves = raw_record(db::kHasAnnotations, {1, 0x1C, 0x03});
  const std::string notes =
      raw_record(db::kHasTypedBlock | db::kClockSeconds, {5, 1, 1, 1, 0x90, 0x1C, 0x05, 3});
  RecordView view = RecordView::parse(moves, notes);
  EXPECT_EQ(view.main_move(0), e2e4);
  EXPECT_EQ(tokens_of(view),
            (std::vector<std::string>{move_token(e2e4, 0), "{[%clk 0:30:00]}@0", "$3@0"}));
  std::vector<db::PlyAnnotation> plies;
  view.ply_annotations(plies);
  ASSERT_EQ(plies.size(), 1u);
  EXPECT_EQ(plies[0].clock, 18000u);
  EXPECT_FALSE(plies[0].has_eval());
}

TEST(RecordBuilderTest, TypedCommentsRoundTripInPlace) {
  RecordBuilder b;
  b.reset();
  db::PlyAnnotation clock_only;
  clock_only.bits = db::kAnnClock;
  clock_only.clock = 1800;  // 0:03:00
  db::PlyAnnotation rich;
  rich.bits = db::kAnnClock | db::kAnnEval | db::kAnnTenths | db::kAnnRest | db::kAnnRestFirst;
  rich.clock = 1795;
  rich.eval = {true, -3};
  rich.rest = "[%csl Gd4] Good";
  b.add_move(e2e4);
  ASSERT_TRUE(b.can_add_typed());
  b.add_typed_comment(clock_only);
  EXPECT_FALSE(b.can_add_typed());  // one per ply
  b.add_move(e7e5);
  b.add_nag(2);
  b.add_typed_comment(rich);  // after a NAG: placed by a marker
  b.begin_variation();
  b.add_move(g8f6);
  EXPECT_FALSE(b.can_add_typed());
  b.end_variation();
  b.add_move(d2d4);  // no typed comment
  const Built built = finish(b);
  EXPECT_TRUE(built.moves.find("[%") == std::string::npos);
  RecordView view = parse(built);
  EXPECT_EQ(tokens_of(view),
            (std::vector<std::string>{move_token(e2e4, 0), "{[%clk 0:03:00]}@0", move_token(e7e5, 0),
                                      "$2@0", "{[%csl Gd4] Good [%eval #-3] [%clk 0:02:59.5]}@0",
                                      "(@1", move_token(g8f6, 1), ")@1", move_token(d2d4, 0)}));
  std::vector<db::PlyAnnotation> plies;
  view.ply_annotations(plies);
  ASSERT_EQ(plies.size(), 3u);
  EXPECT_EQ(plies[0].clock, 1800u);
  EXPECT_EQ(plies[1].clock, 1795u);
  EXPECT_EQ(plies[1].eval, (db::Evaluation{true, -3}));
  EXPECT_EQ(plies[1].rest, "[%csl Gd4] Good");
  EXPECT_EQ(plies[2].bits, 0);
}

TEST(RecordBuilderTest, ClockOnlyGameCostsAboutFiveBitsPerPly) {
  RecordBuilder b;
  b.reset();
  db::PlyAnnotation a;
  a.bits = db::kAnnClock;
  uint32_t clocks[2] = {3000, 3000};  // 0:05:00 each
  const Move moves[2] = {Move(chess::SQ_G1, chess::SQ_F3), Move(chess::SQ_F3, chess::SQ_G1)};
  for (int ply = 0; ply < 80; ++ply) {
    b.add_move(moves[ply % 2 == 0 ? 0 : 1]);
    clocks[ply % 2] -= 10 * uint32_t(1 + (ply * 7) % 12);  // 1-12 s per move
    a.clock = clocks[ply % 2];
    b.add_typed_comment(a);
  }
  const Built built = finish(b);
  // bit-coded: 1-12 s a move is a Rice code of 4-5 bits, plus about 9 bytes of header
  EXPECT_LE(built.notes.size(), 80u * 5 / 8 + 10) << "annotation bytes for 80 clocks";
  std::vector<db::PlyAnnotation> plies;
  parse(built).ply_annotations(plies);
  EXPECT_EQ(plies.back().clock, clocks[1]);
}

/// The bit-coded typed block (record_format.h) as the documentation spells it, by hand: one
/// ply with clock 0:30:00 (1800 s, seconds unit) then one with 0:29:55 and evaluation -0.25.
TEST(RecordViewTest, HandMadeBitCodedTypedBlock) {
  const std::string moves = raw_record(db::kHasAnnotations, {2, e2e4.raw() & 0xFF, e2e4.raw() >> 8,
                                                              e7e5.raw() & 0xFF, e7e5.raw() >> 8});
  // Block: marker 0; R = 2 runs: (kAnnClock, 1), (kAnnClock | kAnnEval, 1); C0 = 1800
  // (0x88 0x0E); D = 0 (deltas 0 and -5); K = clock k 2 | eval k 4 << 4. Bits, least
  // significant first: ply 0 clock D - 0 = 0: q 0 -> "0", low bits "00"; ply 1 clock
  // D - (-5) = 5 = 0b101: q 1 -> "1" "0", low bits 01 -> "1" "0"; evaluation
  // zigzag(-25 - 0) << 1 = 98 = 0b1100010: q 6 -> "111111" "0", low bits 0010 -> "0100".
  // 18 bits: 3 bytes, 6 padding bits.
  const std::vector<bool> bits = {0, 0, 0,                    // clock 0
                                  1, 0, 1, 0,                 // clock 5
                                  1, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0};  // evaluation 98
  auto notes_of = [&](bool padding_bit, bool trailing_byte) {
    std::vector<uint8_t> packed((bits.size() + 7) / 8, 0);
    for (size_t i = 0; i < bits.size(); ++i)
      if (bits[i]) packed[i / 8] |= uint8_t(1 << (i % 8));
    if (padding_bit) packed.back() |= 0x80;
    if (trailing_byte) packed.push_back(0);
    std::vector<uint8_t> block = {0, 2, db::kAnnClock, 1, db::kAnnClock | db::kAnnEval, 1, 0x88, 0x0E, 0, 2 | 4 << 4};
    block.insert(block.end(), packed.begin(), packed.end());
    std::string notes = raw_record(db::kHasTypedBlock | db::kClockSeconds, {int(block.size())});
    notes.append(block.begin(), block.end());
    return notes;
  };
  RecordView view = RecordView::parse(moves, notes_of(false, false));
  std::vector<db::PlyAnnotation> plies;
  view.ply_annotations(plies);
  ASSERT_EQ(plies.size(), 2u);
  EXPECT_EQ(plies[0].clock, 18000u);
  EXPECT_EQ(plies[1].clock, 17950u);
  EXPECT_EQ(plies[1].eval, (db::Evaluation{false, -25}));
  // A padding bit that is not zero, or a byte more in the block, is corrupt.
  EXPECT_THROW(RecordView::parse(moves, notes_of(true, false)), db::CorruptRecord);
  EXPECT_THROW(RecordView::parse(moves, notes_of(false, true)), db::CorruptRecord);
}

TEST(RecordBuilderTest, BitCodedTypedValuesRoundTrip) {
  std::mt19937 rng(23);
  RecordBuilder b;
  for (int game = 0; game < 400; ++game) {
    const bool seconds = game % 3 == 0;
    const uint32_t unit = seconds ? 10 : 1;
    const int ply_count = 1 + int(rng() % 120);
    std::vector<db::PlyAnnotation> expected;
    std::vector<std::string> texts(static_cast<size_t>(ply_count));
    b.reset();
    uint32_t clock = uint32_t(rng() % 20000) * unit;
    int32_t cp = 0;
    for (int ply = 0; ply < ply_count; ++ply) {
      b.add_move(ply % 2 ? e7e5 : e2e4);
      db::PlyAnnotation a;
      switch (rng() % 8) {
        case 0: break;  // no typed comment
        case 1: a.bits = db::kAnnClock | db::kAnnEval | db::kAnnClockFirst; break;
        case 2: a.bits = db::kAnnEval | db::kAnnEvalShort; break;
        case 3: a.bits = db::kAnnClock | db::kAnnEmt | db::kAnnTenths; break;
        case 4: a.bits = db::kAnnClock | db::kAnnRest; break;
        default: a.bits = db::kAnnClock; break;
      }
      if (game % 50 == 7) a.bits = db::kAnnEval;  // evaluation-only games
      const uint32_t r = rng() % 100;
      if (r < 2) clock = (game % 2 ? 0u : uint32_t(UINT32_MAX / 10) * 10);  // the extremes
      else if (r < 5) clock = uint32_t(rng() % 100000) * unit;              // a jump
      else clock = clock >= 120 * unit ? clock - uint32_t(rng() % 120) * unit : clock + 30 * unit;
      a.clock = clock;
      a.emt = uint32_t(rng() % 600) * unit;
      const uint32_t e = rng() % 100;
      if (e < 5) a.eval = {true, int32_t(rng() % 2001) - 1000};
      else if (e < 8) a.eval = {false, (e % 2 ? 1 : -1) * (1 << 28)};
      else a.eval = {false, cp += int32_t(rng() % 201) - 100};
      if (a.bits & db::kAnnRest) {
        texts[size_t(ply)] = "[%csl Gd" + std::to_string(ply) + "]";
        a.rest = texts[size_t(ply)];
      }
      if (a.bits) {
        ASSERT_TRUE(b.can_add_typed());
        b.add_typed_comment(a);
      }
      if (!(a.bits & db::kAnnClock)) a.clock = 0;
      if (!(a.bits & db::kAnnEmt)) a.emt = 0;
      if (!(a.bits & db::kAnnEval)) a.eval = {};
      if (!(a.bits & db::kAnnRest)) a.rest = {};
      expected.push_back(a);
    }
    const Built built = finish(b);
    std::vector<db::PlyAnnotation> plies;
    const RecordView view = parse(built);
    view.ply_annotations(plies);
    ASSERT_EQ(plies.size(), expected.size()) << "game " << game;
    for (size_t i = 0; i < plies.size(); ++i) {
      ASSERT_EQ(plies[i].bits, expected[i].bits) << "game " << game << " ply " << i;
      // a clock or emt with tenths in a seconds game makes the builder use tenths: same values
      EXPECT_EQ(plies[i].clock, expected[i].clock) << "game " << game << " ply " << i;
      EXPECT_EQ(plies[i].emt, expected[i].emt) << "game " << game << " ply " << i;
      EXPECT_EQ(plies[i].eval, expected[i].eval) << "game " << game << " ply " << i;
      EXPECT_EQ(plies[i].rest, expected[i].rest) << "game " << game << " ply " << i;
    }
  }
}

/// Truncations and random byte changes of valid records either parse (and then iterate
/// without error) or throw CorruptRecord — never anything else. Run under the sanitizer
/// build to also catch out-of-bounds reads.
/// The same record with its main line in the 16-bit layout of record formats 2 and 3 (what
/// databases made before format 4 hold): the packed flag cleared, the words written out.
std::string unpacked(const std::string& packed) {
  RecordView view = RecordView::parse(packed);
  std::string out(1, char(view.flags() & ~db::kPackedMainLine));
  db::codec::put_varint(out, view.main_line_size());
  if (!view.start_fen().empty()) {
    db::codec::put_varint(out, uint32_t(view.start_fen().size()));
    out += view.start_fen();
  }
  for (uint32_t i = 0; i < view.main_line_size(); ++i) db::codec::put_u16(out, view.main_move(i).raw());
  // the move stream (with variations) follows the main line unchanged: find where it starts
  size_t stream = packed.size();
  if (view.has_variations()) {
    // the stream is the record's tail: its tokens are whole words, the main line's moves again
    size_t words = 0;
    for (const Token& t : view.tokens()) words += t.kind == TokenKind::kMove || t.kind == TokenKind::kBeginVariation ||
                                                  t.kind == TokenKind::kEndVariation;
    stream = packed.size() - 2 * words;
  }
  out += packed.substr(stream);
  return out;
}

// Format 4's packed main line, byte by byte as record_format.h documents it: 1. e4 e5 2. O-O
// (as the king-takes-rook castling word) 2... a8=Q, 5 plies with specials at plies 2 and 3.
TEST(RecordViewTest, PackedMainLineMatchesTheDocumentedLayout) {
  RecordBuilder b;
  b.reset();
  for (Move m : {e2e4, e7e5, e1h1, a7a8q, g8f6}) b.add_move(m);
  const std::string bytes(b.finish());
  // e2e4 = 12 << 6 | 28 = 0x31C, e7e5 = 52 << 6 | 36 = 0xD24, e1h1 = 4 << 6 | 7 = 0x107
  // (high bits 0xC: castling), a7a8 = 48 << 6 | 56 = 0xC38 (high 0x4: promotion, piece bits
  // 3: queen), g8f6 = 62 << 6 | 45 = 0xFAD; the packed bits set one by one from the rule.
  std::string want(1, char(db::kPackedMainLine));
  want += char(5);
  want += char(2);
  want += char((2 << 4) | (e1h1.raw() >> 12));
  want += char((0 << 4) | (a7a8q.raw() >> 12));
  const uint16_t low[5] = {0x31C, 0xD24, 0x107, 0xC38, 0xFAD};
  std::string packed(db::codec::packed_u12_bytes(5), '\0');
  for (int i = 0; i < 5; ++i) {
    const int bit = 12 * i;
    for (int k = 0; k < 12; ++k)
      if (low[i] >> k & 1) packed[(bit + k) / 8] = char(uint8_t(packed[(bit + k) / 8]) | (1 << ((bit + k) % 8)));
  }
  want += packed;
  EXPECT_EQ(bytes.size(), 1u + 1u + 3u + 8u);
  EXPECT_EQ(bytes, want);
  RecordView view = RecordView::parse(bytes);
  EXPECT_TRUE(view.packed_main_line());
  const std::vector<Move> moves = {e2e4, e7e5, e1h1, a7a8q, g8f6};
  db::MainLineCursor cursor(view);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(view.main_move(i), moves[i]) << i;
    EXPECT_EQ(cursor.next(), moves[i]) << i;
  }
  EXPECT_EQ(view.main_move(2).kind(), Move::CASTLING);
  EXPECT_EQ(view.main_move(3).promotion_type(), chess::QUEEN);
}

// Main lines of every length 0..40 with specials anywhere (none, first ply, last ply, every
// ply, runs): the cursor, main_move() and the tokens give the builder's moves, and the
// unpacked (format 3) form of the same record reads the same.
TEST(RecordViewTest, PackedMainLineRoundTripsEveryShape) {
  RecordBuilder b;
  std::mt19937 rng(7);
  const Move pool[] = {e2e4, d2d4, c2c4, e7e5, g8f6, e1h1, a7a8q, Move::null(),
                       Move::make(chess::SQ_E5, chess::SQ_D6, Move::EN_PASSANT),
                       Move::make(chess::SQ_B2, chess::SQ_A1, Move::PROMOTION, chess::KNIGHT),
                       Move(chess::SQ_H8, chess::SQ_A1), Move(chess::SQ_A1, chess::SQ_H8)};
  for (int n = 0; n <= 40; ++n) {
    for (int round = 0; round < 8; ++round) {
      std::vector<Move> moves;
      for (int i = 0; i < n; ++i) {
        const size_t k = round == 0 ? 0 : round == 1 ? 5 : rng() % std::size(pool);
        moves.push_back(pool[k]);
      }
      b.reset();
      for (Move m : moves) b.add_move(m);
      const bool with_variation = n > 0 && round == 7;
      if (with_variation) {
        b.begin_variation();
        b.add_move(d2d4);
        b.end_variation();
        b.add_move(e7e5);
        moves.push_back(e7e5);
      }
      const std::string bytes(b.finish());
      RecordView view = RecordView::parse(bytes);
      ASSERT_EQ(view.main_line_size(), moves.size());
      EXPECT_EQ(view.packed_main_line(), !moves.empty());
      db::MainLineCursor cursor(view);
      std::vector<std::string> want;
      for (uint32_t i = 0; i < moves.size(); ++i) {
        EXPECT_EQ(view.main_move(i), moves[i]) << "n " << n << " ply " << i;
        EXPECT_EQ(cursor.next(), moves[i]) << "n " << n << " ply " << i;
      }
      const std::string old = unpacked(bytes);
      RecordView old_view = RecordView::parse(old);
      EXPECT_FALSE(old_view.packed_main_line());
      EXPECT_EQ(tokens_of(old_view), tokens_of(view)) << "n " << n;
      db::MainLineCursor old_cursor(old_view);
      for (uint32_t i = 0; i < moves.size(); ++i) EXPECT_EQ(old_cursor.next(), moves[i]);
      if (!with_variation) {
        size_t specials_bytes = 0;
        for (Move m : moves) specials_bytes += (m.raw() >> 12) != 0;
        EXPECT_LE(bytes.size(), 3 + db::codec::packed_u12_bytes(n) + 5 * specials_bytes);
      }
    }
  }
}

TEST(RecordViewTest, RejectsCorruptPackedMainLines) {
  const uint8_t P = db::kPackedMainLine;
  // one move e2e4 (0x31C): 2 bytes, the high nibble of the second is padding
  EXPECT_NO_THROW(RecordView::parse(raw_record(P, {1, 0, 0x1C, 0x03})));
  expect_corrupt(raw_record(P, {1}), "specials count missing");
  expect_corrupt(raw_record(P, {1, 2, 0x1C, 0x03}), "more specials than moves");
  expect_corrupt(raw_record(P, {1, 1, 0x1C, 0x1C, 0x03}), "special past the main line");
  expect_corrupt(raw_record(P, {1, 1, 0x00, 0x1C, 0x03}), "special without high bits");
  expect_corrupt(raw_record(P, {1, 1, 0x8C}), "truncated special");
  expect_corrupt(raw_record(P, {2, 2, 0x1C, 0x0C, 0x1C, 0x03, 0x00}), "second special past the line");
  expect_corrupt(raw_record(P, {1, 0, 0x1C}), "packed main line truncated");
  expect_corrupt(raw_record(P, {1, 0, 0x1C, 0x13}), "padding bits set");
  expect_corrupt(raw_record(P, {1, 0, 0x1C, 0x03, 0x00}), "trailing byte");
  expect_corrupt(raw_record(P, {1, 0, 0x82, 0x00}), "c1c1 marker as a main-line move");
  expect_corrupt(raw_record(P, {1, 0, 0x00, 0x00}), "Move::none() in the main line");
  // a from == to word with high bits (not the null move) is no move either
  expect_corrupt(raw_record(P, {1, 1, 0x04, 0x41, 0x00}), "null-move squares with a kind");
  EXPECT_NO_THROW(RecordView::parse(raw_record(P, {1, 0, 0x41, 0x00})));  // the null move
}

TEST(RecordViewTest, MutatedRecordsNeverMisbehave) {
  RecordBuilder b;
  const Built a = build_annotated(b);
  const Built c = build_annotated(b, "4k3/P7/8/8/8/8/8/4K2R w K - 0 1");
  std::vector<std::string> seeds = {a.moves, c.moves, unpacked(a.moves)};
  {
    b.reset();  // a main line alone (packed, specials, no stream)
    for (Move m : {e2e4, e7e5, e1h1, a7a8q, g8f6, Move::null(), d2d4}) b.add_move(m);
    seeds.push_back(std::string(b.finish()));
  }
  std::mt19937 rng(12345);
  int parsed = 0, rejected = 0;
  std::string notes;  // annotation record of the seed being mutated ("" with a move record)
  auto check = [&](const std::string& bytes) {
    try {
      RecordView view = notes.empty() ? RecordView::parse(bytes) : RecordView::parse(a.moves, bytes);
      db::MainLineCursor cursor(view);
      for (uint32_t i = 0; i < view.main_line_size(); ++i)
        if (view.main_move(i) != cursor.next()) ADD_FAILURE() << "cursor differs at ply " << i;
      size_t n = 0;
      for (const Token& t : view.tokens()) n += t.comment.size() + 1;
      (void)n;
      ++parsed;
    } catch (const db::CorruptRecord&) {
      ++rejected;
    }
  };
  for (const std::string& seed : seeds) {
    for (size_t len = 0; len < seed.size(); ++len) check(seed.substr(0, len));
    for (int round = 0; round < 20000; ++round) {
      std::string bytes = seed;
      int changes = 1 + int(rng() % 3);
      for (int k = 0; k < changes; ++k) bytes[rng() % bytes.size()] = char(rng());
      check(bytes);
    }
  }
  notes = a.notes;  // then the annotation record of the first seed
  for (size_t len = 0; len < notes.size(); ++len) check(notes.substr(0, len));
  for (int round = 0; round < 20000; ++round) {
    std::string bytes = notes;
    int changes = 1 + int(rng() % 3);
    for (int c2 = 0; c2 < changes; ++c2) bytes[rng() % bytes.size()] = char(rng());
    check(bytes);
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(parsed, 0);
}

}  // namespace
