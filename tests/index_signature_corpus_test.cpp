// Signatures of real games (../shared/corpus and the bundled sample), checked against an
// independent replay of every position: a signature must describe the main line exactly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "db/database.h"
#include "db/record_view.h"
#include "import/importer.h"
#include "index/material_key.h"
#include "index/signature.h"
#include "temp_dir.h"

namespace {

namespace fs = std::filesystem;
using namespace chess;

const std::string kCorpus = CQLDB_CORPUS_DIR;
const std::string kSample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";

using cqltest::TempDir;

constexpr Piece kPieces[12] = {W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
                               B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING};

using Boards = sig::Signature::Boards;

/// Games check_game() saw with a double check / a castling (so a corpus test can tell that
/// these fields were really exercised).
struct Seen {
  uint32_t double_checks = 0;
  uint32_t castlings = 0;
} g_seen;

/// Replays `rec`, checking every position against `s` as it goes (material in the run of
/// its ply, occupancy within ever and containing always, home pawns), then that every field
/// equals what the replay found (timeline, ever, always, final, flags, counts).
void check_game(uint32_t id, const db::RecordView& rec, const sig::Signature& s) {
  SCOPED_TRACE("game " + std::to_string(id));
  Position pos;
  if (rec.flags() & db::kHasStartFen) {
    ASSERT_TRUE(pos.set_fen(rec.start_fen(), rec.chess960()).ok());
  }
  Boards start{}, ever{}, always{};
  for (Piece pc : kPieces)
    start[pc] = ever[pc] = always[pc] = pos.pieces(color_of(pc), type_of(pc));
  EXPECT_EQ(s.start, start);
  EXPECT_EQ(s.start_side, pos.side_to_move());
  EXPECT_EQ(s.start_game_ply, uint32_t(pos.game_ply()));
  EXPECT_EQ(s.start_fen, (rec.flags() & db::kHasStartFen) != 0);
  EXPECT_EQ(s.chess960, rec.chess960());
  EXPECT_EQ(s.has_variations, rec.has_variations());
  ASSERT_EQ(s.plies, rec.main_line_size());

  std::vector<sig::MaterialRun> runs;
  uint32_t checks[2] = {0, 0};
  uint8_t castlings = 0, promotions = 0, double_checks = 0;
  std::array<uint32_t, 4> castling_plies{};
  bool en_passant = false, null_moves = false;
  UndoInfo undo;
  for (uint32_t ply = 0;; ++ply) {
    const sig::MaterialKey key = sig::MaterialKey::of(pos);
    if (runs.empty() || runs.back().key != key) runs.push_back({key, ply, ply});
    runs.back().last_ply = ply;
    EXPECT_EQ(s.run_at(ply).key, key) << "ply " << ply;
    for (Piece pc : kPieces) {
      const Bitboard now = pos.pieces(color_of(pc), type_of(pc));
      EXPECT_EQ(now & ~s.ever[pc], 0u) << "ply " << ply << " piece " << int(pc);
      EXPECT_EQ(s.always[pc] & ~now, 0u) << "ply " << ply << " piece " << int(pc);
      ever[pc] |= now;
      always[pc] &= now;
    }
    for (Color c : {WHITE, BLACK})
      for (int f = 0; f < 8; ++f) {
        const bool home =
            pos.piece_on(relative_square(c, make_square(File(f), RANK_2))) == make_piece(c, PAWN);
        EXPECT_EQ(home, ply < s.home_pawn_until[c][f]) << "ply " << ply << " file " << f;
      }
    if (pos.in_check()) ++checks[pos.side_to_move()];
    if (popcount(pos.checkers()) >= 2) double_checks |= uint8_t(1u << pos.side_to_move());
    if (ply == rec.main_line_size()) break;
    const Move m = rec.main_move(ply);
    if (m == Move::null()) {
      null_moves = true;
      pos.do_null_move(undo);
      continue;
    }
    if (m.kind() == Move::EN_PASSANT) en_passant = true;
    if (m.kind() == Move::CASTLING) {
      const CastlingRight right = castling_right(pos.side_to_move(), m.to_sq() > m.from_sq());
      EXPECT_FALSE(castlings & right) << "ply " << ply << ": castled twice with one right";
      castlings |= right;
      for (int bit = 0; bit < 4; ++bit)
        if (right >> bit & 1) castling_plies[bit] = ply;
    }
    if (m.kind() == Move::PROMOTION)
      promotions |= uint8_t(1u << (4 * pos.side_to_move() + m.promotion_type() - KNIGHT));
    pos.do_move(m, undo);
  }
  EXPECT_EQ(s.material, runs);
  EXPECT_EQ(s.ever, ever);
  EXPECT_EQ(s.always, always);
  for (Piece pc : kPieces) EXPECT_EQ(s.final[pc], pos.pieces(color_of(pc), type_of(pc)));
  EXPECT_EQ(s.checks[WHITE], std::min<uint32_t>(checks[WHITE], sig::kMaxChecks));
  EXPECT_EQ(s.checks[BLACK], std::min<uint32_t>(checks[BLACK], sig::kMaxChecks));
  EXPECT_EQ(s.castlings, castlings);
  EXPECT_EQ(s.castling_plies, castling_plies);
  EXPECT_EQ(s.double_checks, double_checks);
  g_seen.double_checks += double_checks != 0;
  g_seen.castlings += castlings != 0;
  EXPECT_EQ(s.promotions, promotions);
  EXPECT_EQ(s.en_passant, en_passant);
  EXPECT_EQ(s.null_moves, null_moves);
  EXPECT_EQ(s.final_check, pos.in_check());
  EXPECT_EQ(s.final_no_moves, !has_legal_move(pos));
}

/// The Summary (the fixed-place bytes the planner tests first) must agree with the decoded
/// signature, which check_game() compared with a replay: same flags, plies and checks,
/// the promoted types, and least counts that are lower bounds of every run, exact up to
/// their caps (3 pawns, rooks, bishops; 1 queen, knight).
void check_summary(uint32_t id, std::string_view bytes, const sig::Signature& s) {
  sig::Summary sm;
  ASSERT_TRUE(sig::read_summary(bytes, sm)) << "game " << id;
  EXPECT_EQ(sm, sig::summarize(s)) << "game " << id;
  EXPECT_EQ(sm.plies, s.plies);
  EXPECT_EQ(sm.start_game_ply, s.start_game_ply);
  EXPECT_EQ(sm.final_mate(), s.final_mate());
  EXPECT_EQ(sm.final_stalemate(), s.final_stalemate());
  EXPECT_EQ(sm.final_side(), s.final_side());
  EXPECT_EQ(sm.null_moves(), s.null_moves);
  EXPECT_EQ(sm.castlings, s.castlings);
  EXPECT_EQ(sm.castling_plies, s.castling_plies);
  EXPECT_EQ(sm.double_checks, s.double_checks);
  EXPECT_EQ(sm.checks, s.checks);
  for (int pt = KNIGHT; pt <= QUEEN; ++pt)
    EXPECT_EQ(bool(sm.promoted_types >> (pt - KNIGHT) & 1),
              s.promoted(WHITE, PieceType(pt)) || s.promoted(BLACK, PieceType(pt)));
  for (Color c : {WHITE, BLACK}) {
    for (int pt = PAWN; pt <= QUEEN; ++pt) {
      int least = 99;
      for (const sig::MaterialRun& run : s.material) least = std::min(least, run.key.count(c, PieceType(pt)));
      const int cap = pt == QUEEN || pt == KNIGHT ? 1 : 3;
      EXPECT_EQ(sm.min_material.count(c, PieceType(pt)), std::min(least, cap))
          << "game " << id << " colour " << c << " type " << pt;
    }
  }
}

/// Imports `files` and checks the signature of every game (at most `limit`); returns the
/// number of games checked.
uint32_t check_corpus(const std::vector<std::string>& files, uint32_t limit = UINT32_MAX) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.path);
    import::import_files(database, files, import::ImportOptions{}, nullptr);
  }
  db::Database database = db::Database::open_readonly(dir.path);
  db::GameReader reader = database.reader();
  auto scan = reader.scan(1, limit);
  uint32_t id, checked = 0;
  std::string_view record, bytes;
  sig::Signature s;
  while (scan.next(id, record)) {
    if (!reader.signature(id, bytes)) {
      ADD_FAILURE() << "game " << id << " has no signature";
      continue;
    }
    sig::decode(bytes, s);
    check_game(id, db::RecordView::parse(record), s);
    check_summary(id, bytes, s);
    if (::testing::Test::HasFailure()) return checked;  // one broken game is enough to see
    ++checked;
  }
  return checked;
}

TEST(SignatureCorpusTest, StudiesMatchEveryPosition) {
  EXPECT_EQ(check_corpus({kCorpus + "/studies.pgn"}), 253u);
}

TEST(SignatureCorpusTest, AnnotatedGamesMatchEveryPosition) {
  EXPECT_GT(check_corpus({kCorpus + "/annotated.pgn"}), 2500u);
}

TEST(SignatureCorpusTest, PlayersSampleMatchesEveryPosition) {
  g_seen = Seen{};
  EXPECT_EQ(check_corpus({kSample + "/players-3000.pgn.zst"}), 3000u);
  EXPECT_GT(g_seen.double_checks, 10u);
  EXPECT_GT(g_seen.castlings, 2000u);
}

TEST(SignatureCorpusTest, EveryMatesGameEndsInMate) {
  TempDir dir;
  {
    db::Database database = db::Database::create_or_open(dir.path);
    auto s =
        import::import_files(database, {kCorpus + "/mates.pgn"}, import::ImportOptions{}, nullptr);
    EXPECT_EQ(s.imported, 914u);
  }
  db::Database database = db::Database::open_readonly(dir.path);
  db::GameReader reader = database.reader();
  auto scan = reader.scan_signatures();
  uint32_t id, games = 0, mates = 0;
  std::string_view bytes;
  sig::Signature s;
  while (scan.next(id, bytes)) {
    ASSERT_FALSE(bytes.empty()) << id;
    sig::decode(bytes, s, sig::DecodeScope::kHeader);  // the final-position flags
    ++games;
    if (s.final_mate()) ++mates;
    EXPECT_TRUE(s.final_mate()) << "game " << id;
    EXPECT_TRUE(s.start_fen) << "game " << id;
  }
  EXPECT_EQ(games, reader.game_count());
  EXPECT_EQ(mates, 914u);
}

}  // namespace
