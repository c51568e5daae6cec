// :relation (CQL-Relation-List, CQL-Examples "Relation list example", seed 000
// `position:relation`): the reference examples on constructed games, and brute-force
// cross-checks on the real corpus (studies.pgn, mates.pgn) written here directly on
// chess::Position boards, without evaluator code.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "chess/position.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"

namespace {

using cqltest::Plies;
using cqltest::plies;

// ---- reference examples on constructed games

// "To search games in which the same position occurs with white and black to move ... use
// position position:relation (relation:changesidetomove)": the white king triangulates, so
// the start position (White to move) returns after 3.Ke1 with Black to move.
TEST(EvalRelation, ChangeSideToMoveFindsTriangulation) {
  const std::string fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string moves = "1. Kd1 Kd8 2. Kd2 Ke8 3. Ke1 *";
  EXPECT_EQ(plies(":relation (relation:changesidetomove)", moves, fen), (Plies{0}));
  // the same side to move (the default) never returns in this game
  EXPECT_EQ(plies(":relation (:samesidetomove)", moves, fen), (Plies{}));
  EXPECT_EQ(plies(":relation ()", moves, fen), (Plies{}));
  // ignoring the side to move finds the triangulation too
  EXPECT_EQ(plies(":relation (:ignoresidetomove)", moves, fen), (Plies{0}));
}

TEST(EvalRelation, DefaultIsTheSamePositionLater) {
  // 2...Ng8 restores the start position with White to move: ply 0 relates to ply 4; ply 1
  // (after 1.Nf3) relates to ply 5 (after 3.Nf3).
  const std::string moves = "1. Nf3 Nf6 2. Ng1 Ng8 3. Nf3 *";
  EXPECT_EQ(plies(":relation ()", moves), (Plies{0, 1}));
  EXPECT_EQ(plies(":relation (:samesidetomove)", moves), (Plies{0, 1}));
  // the later position is never the position itself (P2 strictly later)
  EXPECT_EQ(plies(":relation ()", "1. e4 *"), (Plies{}));
}

// "(position position:relation (relation:missingpiececount A 1 unlimited)) searches for
// games in which two positions are the same except that the later one is missing one or
// more white pieces": the black rook takes d4 and returns.
TEST(EvalRelation, MissingPieceCountExample) {
  const std::string fen = "4k3/8/8/8/3P4/8/3r4/4K3 b - - 0 1";
  const std::string moves = "1... Rxd4 2. Kf1 Rd2 3. Ke1 *";
  EXPECT_EQ(plies("position:relation (relation:missingpiececount A 1 unlimited)", moves, fen), (Plies{0}));
  // by default no piece may be missing
  EXPECT_EQ(plies(":relation ()", moves, fen), (Plies{}));
  // the missing piece is white: a black designator does not admit it
  EXPECT_EQ(plies(":relation (:missingpiececount a 1 unlimited)", moves, fen), (Plies{}));
  EXPECT_EQ(plies(":relation (:missingpiececount P 1)", moves, fen), (Plies{0}));
  EXPECT_EQ(plies(":relation (:missingpiececount A 2 3)", moves, fen), (Plies{}));
  // the designator's squares are P1's squares
  EXPECT_EQ(plies(":relation (:missingpiececount P[a-c1-8] 1)", moves, fen), (Plies{}));
  // seen from the later position the pawn is new: :newpiececount, in the other direction
  // nothing relates (P2 must be later)
  EXPECT_EQ(plies(":relation (:newpiececount P 1)", moves, fen), (Plies{}));
}

TEST(EvalRelation, NewPieceCount) {
  // The black rook goes d8 -> d2 and the white king returns: ply 0 (and ply 1) relate to
  // ply 3 (and ply 2) with the side to move ignored: d8 empties (a missing piece) and d2
  // fills (a new piece).
  const std::string fen = "3rk3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string moves = "1. Kf1 Rd2 2. Ke1 *";
  const std::string rel = ":relation (:ignoresidetomove ";
  EXPECT_EQ(plies(rel + ":newpiececount r 1 :missingpiececount r 1)", moves, fen), (Plies{0, 1}));
  EXPECT_EQ(plies(rel + ":newpiececount r 1)", moves, fen), (Plies{}));
  EXPECT_EQ(plies(rel + ":newpiececount r[d2] 1 :missingpiececount r[d8] 1)", moves, fen), (Plies{0, 1}));
  EXPECT_EQ(plies(rel + ":newpiececount r[d8] 1 :missingpiececount r[d2] 1)", moves, fen), (Plies{}));
  // with the same side to move: ply 0 (White) has no later White-to-move position with
  // Ke1, ply 1 (Black, Kf1) none with Kf1
  EXPECT_EQ(plies(":relation (:newpiececount r 1 :missingpiececount r 1)", moves, fen), (Plies{}));
}

// CQL-Examples "Relation list example": K e6, b e7, b e4, n d5 occurs shifted (here two
// ranks down after 6...Be5) and no piece of the original stands on a square of the pattern.
TEST(EvalRelation, PatternShiftExample) {
  const std::string fen = "7k/4b3/4K3/3n4/4b3/8/8/R7 w - - 0 1";
  const std::string moves = "1. Ra2 Bf3 2. Kf5 Be2 3. Ke4 Nf4 4. Ra1 Nd3 5. Ra2 Bd6 6. Ra1 Be5 *";
  const std::string example =
      "(match (position Ke6 be7 be4 nd5 position:shift position:flip position:relation ("
      " relation:pattern relation:shift relation:flip relation:originalsamecount 0"
      " relation:samesidetomove relation:variations)))";
  cqltest::GameResult r = cqltest::run_game(
      example, "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n" + moves + "\n");
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (Plies{0}));
  const std::string list = "Ke6 be7 be4 nd5 :shift :flip :relation (:pattern ";
  // "modified ... to 0 3, then it would be allowed to overlap with at most three squares"
  EXPECT_EQ(plies(list + ":shift :flip :originalsamecount 0 3)", moves, fen), (Plies{0}));
  EXPECT_EQ(plies(list + ":shift :flip :originalsamecount 1 4)", moves, fen), (Plies{}));
  // without :shift in the relation list the later position is not compared shifted
  EXPECT_EQ(plies(list + ":flip :originalsamecount 0)", moves, fen), (Plies{}));
  EXPECT_EQ(plies(list + ":shift)", moves, fen), (Plies{0}));
  // :originaldifferentcount: all four pattern squares differ in the untransformed P2
  EXPECT_EQ(plies(list + ":shift :originaldifferentcount 4)", moves, fen), (Plies{0}));
  EXPECT_EQ(plies(list + ":shift :originaldifferentcount 0 3)", moves, fen), (Plies{}));
  // without :pattern every square counts, and the white rook moved off a1 in between but
  // is back on a1 at ply 12: the whole board shifted does not match (the rook, the king h8)
  EXPECT_EQ(plies("Ke6 be7 be4 nd5 :relation (:shift)", moves, fen), (Plies{}));
}

TEST(EvalRelation, FlipComparesMirroredBoards) {
  // the kings mirror about the vertical bisector: Ke1/ke8 -> Kd1/kd8
  const std::string fen = "4k3/8/8/8/8/8/8/4K3 w - - 0 1";
  const std::string moves = "1. Kd1 Kd8 *";
  EXPECT_EQ(plies(":relation ()", moves, fen), (Plies{}));
  EXPECT_EQ(plies(":relation (:flip)", moves, fen), (Plies{0}));
  EXPECT_EQ(plies(":relation (:shift)", moves, fen), (Plies{0}));  // one file left
}

TEST(EvalRelation, Variations) {
  // the start position returns only in the variation 2.Ng1 Ng8
  const std::string moves = "1. Nf3 Nf6 2. Nc3 (2. Ng1 Ng8) 2... Nc6 *";
  EXPECT_EQ(plies(":relation ()", moves), (Plies{}));
  EXPECT_EQ(plies(":relation (:variations)", moves), (Plies{0}));
  EXPECT_EQ(plies(":relation (:variationsonly)", moves), (Plies{0}));
  // P2 in the main line only, with :variationsonly no main-line P2 is looked at
  const std::string main_repeat = "1. Nf3 Nf6 2. Ng1 (2. Nc3 Nc6) 2... Ng8 *";
  EXPECT_EQ(plies(":relation ()", main_repeat), (Plies{0}));
  EXPECT_EQ(plies(":relation (:variationsonly)", main_repeat), (Plies{}));
  // a list searching the variations finds P1 inside the variation too
  const std::string in_variation = "1. e4 (1. Nf3 Nf6 2. Ng1 Ng8) 1... e5 *";
  EXPECT_TRUE(cqltest::run_game("(match (position :variations :relation () :insidevariation))",
                                in_variation + "\n")
                  .matched);
}

TEST(EvalRelation, Errors) {
  EXPECT_THROW(cqltest::compile("(match :forany t R (position :relation ()))"), eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position :relation (:missingpiececount U 1 :missingpiececount U 2)))"),
               std::exception);
}

// ---- brute force on the real corpus

/// A board as the brute force sees it: per square 0 or the chess::Piece, and the side.
struct Board {
  std::array<int, 64> sq{};
  int side = 0;
};

/// Parameters of a brute-force relation (mirrors the reference text directly).
struct BruteRelation {
  int side = 0;  ///< 0 same, 1 change, 2 ignore
  std::function<bool(int piece, int square)> missing_ok = [](int, int) { return true; };
  int missing_lo = 0, missing_hi = 0;
  std::function<bool(int piece, int square)> added_ok = [](int, int) { return true; };
  int added_lo = 0, added_hi = 0;
  uint64_t allowable = ~0ull;
  bool flip = false, shift = false;
};

/// True if b2, some allowed transformation of it, relates to b1.
bool brute_relates(const BruteRelation& r, const Board& b1, const Board& b2) {
  if (r.side == 0 && b1.side != b2.side) return false;
  if (r.side == 1 && b1.side == b2.side) return false;
  if (r.allowable == ~0ull && r.missing_hi == 0 && r.added_hi == 0) {
    // every piece must reappear: the piece kinds of both boards are the same multiset
    std::array<int, 16> kinds{};
    for (int s = 0; s < 64; ++s) ++kinds[size_t(b1.sq[size_t(s)])], --kinds[size_t(b2.sq[size_t(s)])];
    for (int k = 1; k < 16; ++k)
      if (kinds[size_t(k)]) return false;
  }
  for (int d = 0; d < (r.flip ? 8 : 1); ++d)
    for (int dx = r.shift ? -7 : 0; dx <= (r.shift ? 7 : 0); ++dx)
      for (int dy = r.shift ? -7 : 0; dy <= (r.shift ? 7 : 0); ++dy) {
        std::array<int, 64> t{};
        for (int x = 0; x < 64; ++x) {
          if (!b2.sq[x]) continue;
          int f = x % 8, k = x / 8;
          if (d & 4) std::swap(f, k);
          if (d & 1) f = 7 - f;
          if (d & 2) k = 7 - k;
          f += dx;
          k += dy;
          if (f < 0 || f > 7 || k < 0 || k > 7) continue;
          t[k * 8 + f] = b2.sq[x];
        }
        int missing = 0, added = 0;
        bool ok = true;
        for (int s = 0; s < 64 && ok; ++s) {
          if (!(r.allowable >> s & 1)) continue;
          if (b1.sq[s] && t[s]) ok = b1.sq[s] == t[s];
          else if (b1.sq[s]) ok = r.missing_ok(b1.sq[s], s) && ++missing;
          else if (t[s]) ok = r.added_ok(t[s], s) && ++added;
        }
        if (ok && missing >= r.missing_lo && missing <= r.missing_hi && added >= r.added_lo &&
            added <= r.added_hi)
          return true;
      }
  return false;
}

using cqltest::Hits;

class EvalRelationCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb(
        "eval-relation", {cqltest::corpus_file("studies.pgn"), cqltest::corpus_file("mates.pgn")});
    games_ = new std::map<uint32_t, std::vector<Board>>;
    db_->for_each_line([](uint32_t id, std::span<const chess::Position> positions) {
      std::vector<Board>& line = (*games_)[id];
      for (const chess::Position& pos : positions) {
        Board b;
        for (int s = 0; s < 64; ++s) b.sq[size_t(s)] = int(pos.piece_on(chess::Square(s)));
        b.side = int(pos.side_to_move());
        line.push_back(b);
      }
    });
  }

  static void TearDownTestSuite() {
    delete db_;
    delete games_;
  }

  /// Runs `script` over the database (with the planner's signature filter when `planned`).
  static Hits query(const std::string& script, bool planned = false) { return db_->query(script, planned); }

  /// The plies P1 of games with at most `max_plies` plies (0: all) where `p1_ok` holds and
  /// some later main-line position relates by `r`.
  static Hits brute(const BruteRelation& r, const std::function<bool(const Board&)>& p1_ok,
                    size_t max_plies = 0) {
    Hits hits;
    for (const auto& [id, line] : *games_) {
      if (max_plies && line.size() > max_plies + 1) continue;
      for (size_t p = 0; p < line.size(); ++p) {
        if (!p1_ok(line[p])) continue;
        for (size_t q = p + 1; q < line.size(); ++q)
          if (brute_relates(r, line[p], line[q])) {
            hits[id].push_back(uint32_t(p));
            break;
          }
      }
    }
    return hits;
  }

  /// `hits` restricted to games with at most `max_plies` plies.
  static Hits short_games(const Hits& hits, size_t max_plies) {
    Hits out;
    for (const auto& [id, plies] : hits)
      if (games_->at(id).size() <= max_plies + 1) out[id] = plies;
    return out;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline std::map<uint32_t, std::vector<Board>>* games_ = nullptr;
};

const auto kAny = [](const Board&) { return true; };

TEST_F(EvalRelationCorpus, SideToMoveKeywords) {
  ASSERT_GT(games_->size(), 1000u);
  BruteRelation same;
  Hits expected = brute(same, kAny);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query("(match (position :relation ()))"), expected);
  BruteRelation change;
  change.side = 1;
  EXPECT_EQ(query("(match (position :relation (:changesidetomove)))"), brute(change, kAny));
  BruteRelation ignore;
  ignore.side = 2;
  EXPECT_EQ(query("(match (position :relation (:ignoresidetomove)))"), brute(ignore, kAny));
}

TEST_F(EvalRelationCorpus, PieceCounts) {
  BruteRelation white_missing;
  white_missing.missing_ok = [](int pc, int) { return pc >= chess::W_PAWN && pc <= chess::W_KING; };
  white_missing.missing_lo = 1;
  white_missing.missing_hi = 64;
  Hits expected = brute(white_missing, kAny);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query("(match (position :relation (:missingpiececount A 1 unlimited)))"), expected);

  BruteRelation loose;  // up to two pieces missing, up to two new, anywhere
  loose.missing_hi = 2;
  loose.added_hi = 2;
  Hits loose_expected = brute(loose, kAny);
  EXPECT_EQ(query("(match (position :relation (:missingpiececount U 0 2 :newpiececount U 0 2)))"),
            loose_expected);

  BruteRelation pawns;  // one black pawn gone, one new on ranks 1-5: a black pawn moved
  pawns.missing_ok = [](int pc, int) { return pc == chess::B_PAWN; };
  pawns.missing_lo = pawns.missing_hi = 1;
  pawns.added_ok = [](int pc, int s) { return pc == chess::B_PAWN && s < 40; };
  pawns.added_lo = pawns.added_hi = 1;
  Hits pawns_expected = brute(pawns, kAny);
  EXPECT_FALSE(pawns_expected.empty());
  EXPECT_EQ(query("(match (position :relation (:missingpiececount p 1 :newpiececount p[a-h1-5] 1)))"),
            pawns_expected);
}

TEST_F(EvalRelationCorpus, PatternAndFlip) {
  // allowable squares: ranks 1 and 8 (the designators' squares), side ignored, flipped
  BruteRelation r;
  r.side = 2;
  r.allowable = 0xFF000000000000FFull;
  r.flip = true;
  auto kings_home = [](const Board& b) {
    bool white = false, black = false;
    for (int s = 0; s < 8; ++s) white |= b.sq[size_t(s)] == chess::W_KING;
    for (int s = 56; s < 64; ++s) black |= b.sq[size_t(s)] == chess::B_KING;
    return white && black;
  };
  Hits expected = brute(r, kings_home);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query("(match (position K[a-h1] k[a-h8] :relation (:pattern :flip :ignoresidetomove)))"),
            expected);
}

TEST_F(EvalRelationCorpus, Shift) {
  // shifted comparisons on the short games (the brute force tries all 8 x 225 images)
  const size_t kMaxPlies = 24;
  BruteRelation r;
  r.shift = true;
  r.missing_hi = 1;
  r.added_hi = 1;
  Hits expected = brute(r, kAny, kMaxPlies);
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(short_games(query("(match (position :relation (:shift :missingpiececount U 0 1 :newpiececount U 0 1)))"),
                        kMaxPlies),
            expected);
  BruteRelation both = r;
  both.flip = true;
  both.missing_hi = both.added_hi = 0;
  const size_t kFewerPlies = 16;  // 8 x 225 images per pair
  EXPECT_EQ(short_games(query("(match (position :relation (:shift :flip)))"), kFewerPlies),
            brute(both, kAny, kFewerPlies));
}

}  // namespace

namespace {

// The planner adds no condition for :relation: the answers with and without it are equal.
TEST_F(EvalRelationCorpus, PlannerStaysSound) {
  for (const std::string script : {
           "(match (position :relation ()))",
           "(match (position K[a-h1] k[a-h8] :relation (:pattern :flip :ignoresidetomove)))",
           "(match (position :mate :relation ()))",
       }) {
    Hits off = query(script), on = query(script, true);
    EXPECT_FALSE(off.empty() && script.find(":mate") == std::string::npos) << script;
    EXPECT_EQ(on, off) << script;
  }
}

}  // namespace
