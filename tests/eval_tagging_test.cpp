// Tags (CQL-Tagging, CQL-Examples "Examples for tagging"): `match:forany`, `:tagmatch` and
// `$tag[squares]` designators. The reference examples on constructed games, and brute-force
// cross-checks on the real corpus (studies.pgn, mates.pgn) with piece marks followed here
// directly on chess::Position, without evaluator code.
#include <gtest/gtest.h>

#include <algorithm>
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

/// Runs `script` on the game `moves` played from `fen`.
cqltest::GameResult run(const std::string& script, const std::string& moves, const std::string& fen = "") {
  const std::string tags = fen.empty() ? "" : "[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n";
  return cqltest::run_game(script, tags + moves + "\n");
}

// ---- reference examples

// "recognizing all games in which the same rook visits all four corners of the board"
const std::string kCorners =
    "(match match:forany rook [rR] (position $rook[a1]) (position $rook[h1]) (position $rook[h8])"
    " (position $rook[a8]))";

TEST(EvalTagging, SameRookVisitsAllFourCorners) {
  auto r = run(kCorners, "1. Rh1 Kd5 2. Rh8 Kd6 3. Ra8 *", "8/8/3k4/8/8/8/4K3/R7 w - - 0 1");
  EXPECT_TRUE(r.matched);
  // a1 (ply 0), h1 (1-2), h8 (3-4), a8 (5): the union of the four lists' plies
  EXPECT_EQ(r.plies, (Plies{0, 1, 2, 3, 4, 5}));
}

TEST(EvalTagging, TwoRooksSharingTheCornersDoNotMatch) {
  // the a1 rook stays, the h1 rook visits h1, h8 and a8: no single rook saw all four
  auto r = run(kCorners, "1. Rh8 Kd5 2. Rha8 *", "8/8/3k4/8/8/8/4K3/R6R w - - 0 1");
  EXPECT_FALSE(r.matched);
  // without the tag the four corners are all visited by some rook
  EXPECT_TRUE(run("(match (position R[a1]) (position R[h1]) (position R[h8]) (position R[a8]))",
                  "1. Rh8 Kd5 2. Rha8 *", "8/8/3k4/8/8/8/4K3/R6R w - - 0 1")
                  .matched);
}

TEST(EvalTagging, PawnThatPromotesToARookKeepsItsMark) {
  // "... or over pawns that eventually promote to one of those"
  auto r = run(kCorners, "1. a8=R Kd6 2. Rh8 Kd5 3. Rh1 Kd6 4. Ra1 *", "8/P7/8/3k4/8/8/4K3/8 w - - 0 1");
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (Plies{1, 2, 3, 4, 5, 6, 7}));
  // promoted to a queen it never is a rook: the mark does not qualify
  EXPECT_FALSE(run(kCorners, "1. a8=Q Kd6 2. Qh8 Kd5 3. Qh1 Kd6 4. Qa1 *", "8/P7/8/3k4/8/8/4K3/8 w - - 0 1").matched);
}

// The excelsior theme: "a pawn starts at the second rank and then promotes".
TEST(EvalTagging, Excelsior) {
  const std::string moves = "1. a4 Kg7 2. a5 Kf7 3. a6 Ke7 4. a7 Kd7 5. a8=Q *";
  const std::string from_a2 = "7k/8/8/8/8/8/P7/K7 w - - 0 1";
  const std::string from_a3 = "7k/8/8/8/8/P7/8/K7 w - - 0 1";
  // As written on the page: the :gappedsequence element may match after a leading gap
  // (SPEC "Game traversal"), so the theme is found at the initial position.
  const std::string literal =
      "(match match:forany pawn [Pp] (position position:initial position:tagmatch pawn [Pp]?[27]"
      " position:gappedsequence ((position position:movefrom $pawn position:promote U))))";
  EXPECT_EQ(run(literal, moves, from_a2).plies, (Plies{0}));
  EXPECT_FALSE(run(literal, moves, from_a3).matched);  // the pawn started on the third rank
  // An explicit leading element changes nothing.
  const std::string gap =
      "(match :forany pawn [Pp] (position :initial :tagmatch pawn [Pp]?[27]"
      " :gappedsequence ((position) (position :movefrom $pawn :promote U))))";
  auto r = run(gap, moves, from_a2);
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (Plies{0}));
  EXPECT_FALSE(run(gap, moves, from_a3).matched);  // the pawn started on the third rank
  // :tagmatch checks the piece too: the tagged pawn is no knight
  EXPECT_FALSE(run("(match :forany pawn [Pp] (position :initial :tagmatch pawn N))", moves, from_a2).matched);
  EXPECT_TRUE(run("(match :forany pawn [Pp] (position :initial :tagmatch pawn P[a2]))", moves, from_a2).matched);
}

// "Fourth example: knight gives mate with its first move."
const std::string kKnightMate =
    "(match match:forany knight N (position position:movefrom $knight position:matchcount 1)"
    " (position position:mate position:attackcount $knight k 1))";

TEST(EvalTagging, KnightMatesWithItsFirstMove) {
  auto r = run(kKnightMate, "1. Nf7# 1-0", "6rk/6pp/8/6N1/8/8/8/6K1 w - - 0 1");
  EXPECT_TRUE(r.matched);
  EXPECT_EQ(r.plies, (Plies{0, 1}));
  // the knight needs three moves to mate: its move count is 3, not 1
  EXPECT_FALSE(run(kKnightMate, "1. Nf5 Rf8 2. Nh6 Rg8 3. Nf7# 1-0", "6rk/6pp/7N/8/8/8/8/6K1 w - - 0 1").matched);
}

TEST(EvalTagging, TagsFollowCastlingAndEnPassant) {
  // the king's rook castles to f1; the e-pawn is taken en passant and disappears
  const std::string fen = "4k3/8/8/8/3p4/8/4P3/4K2R w K - 0 1";
  const std::string moves = "1. O-O Kd7 2. e4 dxe3 *";
  const std::string rook = "(match :forany r R (position $r[h1]) (position $r[f1]))";
  EXPECT_TRUE(run(rook, moves, fen).matched);
  const std::string pawn = "(match :forany p P (position $p[e4]) (position :terminal $p))";
  EXPECT_FALSE(run(pawn, moves, fen).matched);  // captured: not on the board at the end
  const std::string black = "(match :forany p p (position $p[d4]) (position :terminal $p[e3]))";
  EXPECT_EQ(run(black, moves, fen).plies, (Plies{0, 1, 2, 3, 4}));
}

TEST(EvalTagging, TwoTagsAreDistinctPieces) {
  // two white rooks on the first rank at the same time: needs two different rooks
  const std::string fen = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
  const std::string two = "(match :forany x R :forany y R (position $x[a-h1] $y[a-h1]))";
  EXPECT_FALSE(run(two, "1. Ra2 *", fen).matched);
  EXPECT_TRUE(run(two, "1. Ra2 *", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1").matched);
  const std::string one = "(match :forany x R (position $x[a-h1]))";
  EXPECT_EQ(run(one, "1. Ra2 Kd7 2. Ra1 *", fen).plies, (Plies{0, 3}));
}

TEST(EvalTagging, Errors) {
  EXPECT_THROW(cqltest::compile("(match :forany a R :forany b R :forany c R (position $a))"), eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match :forany a R (position :relation ()))"), eval::CompileError);
  EXPECT_THROW(cqltest::compile("(match (position $a[a1]))"), std::exception);
  EXPECT_THROW(cqltest::compile("(match :forany a R (position :variations $a[a1]))"), eval::CompileError);
}

// ---- brute force on the real corpus

/// A position with the square of every mark (64 = captured).
struct Marked {
  chess::Position pos;
  std::vector<int> square_of;
};

using cqltest::Hits;

class EvalTaggingCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb(
        "eval-tagging", {cqltest::corpus_file("studies.pgn"), cqltest::corpus_file("mates.pgn")});
    games_ = new std::map<uint32_t, std::vector<Marked>>;
    db_->for_each_line([](uint32_t id, std::span<const chess::Position> positions,
                          std::span<const chess::Move> moves) {
      std::vector<Marked>& line = (*games_)[id];
      std::vector<int> square_of;
      for (int s = 0; s < 64; ++s)
        if (positions[0].piece_on(chess::Square(s)) != chess::NO_PIECE) square_of.push_back(s);
      for (size_t ply = 0;; ++ply) {
        line.push_back(Marked{positions[ply], square_of});
        if (ply == moves.size()) break;
        const chess::Move m = moves[ply];
        const int from = int(m.from_sq()), to = int(m.to_sq());
        auto mark_at = [&](int s) {
          return std::find(square_of.begin(), square_of.end(), s) - square_of.begin();
        };
        if (m.kind() == chess::Move::CASTLING) {
          const bool king_side = to > from;
          const int rank = from / 8 * 8;
          const auto k = mark_at(from), r = mark_at(to);
          square_of[size_t(k)] = rank + (king_side ? 6 : 2);
          square_of[size_t(r)] = rank + (king_side ? 5 : 3);
        } else if (m != chess::Move::null()) {
          const int victim = m.kind() == chess::Move::EN_PASSANT ? (to / 8 == 5 ? to - 8 : to + 8) : to;
          const auto v = mark_at(victim);
          if (size_t(v) < square_of.size()) square_of[size_t(v)] = 64;
          square_of[size_t(mark_at(from))] = to;
        }
      }
    });
  }

  static void TearDownTestSuite() {
    delete db_;
    delete games_;
  }

  /// Runs `script` over the database (with the planner's signature filter when `planned`).
  static Hits query(const std::string& script, bool planned = false) { return db_->query(script, planned); }

  /// A list of the brute force: at position `p` with tag squares `a`, `b` (64 = captured),
  /// true where it matches; `min_count`: the list needs at least that many positions.
  struct List {
    std::function<bool(const chess::Position& p, int a, int b)> match;
    size_t min_count = 1;
  };

  /// Every binding of one or two tags (marks whose piece is in `q1` / `q2` at some ply of
  /// the main line); a game matches under a binding when every list matches; plies = union.
  static Hits brute(const std::function<bool(chess::Piece)>& q1,
                    const std::function<bool(chess::Piece)>& q2, const std::vector<List>& lists) {
    Hits hits;
    for (const auto& [id, line] : *games_) {
      const size_t marks = line[0].square_of.size();
      auto qualifies = [&](size_t mark, const std::function<bool(chess::Piece)>& q) {
        for (const Marked& m : line)
          if (m.square_of[mark] < 64 && q(m.pos.piece_on(chess::Square(m.square_of[mark])))) return true;
        return false;
      };
      std::vector<uint32_t> out;
      for (size_t a = 0; a < marks; ++a) {
        if (!qualifies(a, q1)) continue;
        for (size_t b = 0; b < (q2 ? marks : 1); ++b) {
          if (q2 && (b == a || !qualifies(b, q2))) continue;
          std::vector<uint32_t> plies;
          bool all = true;
          for (const List& l : lists) {
            size_t count = 0;
            for (size_t p = 0; p < line.size(); ++p)
              if (l.match(line[p].pos, line[p].square_of[a], q2 ? line[p].square_of[b] : 64)) {
                ++count;
                plies.push_back(uint32_t(p));
              }
            all &= count >= l.min_count;
          }
          if (all) out.insert(out.end(), plies.begin(), plies.end());
        }
      }
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      if (!out.empty()) hits[id] = out;
    }
    return hits;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline std::map<uint32_t, std::vector<Marked>>* games_ = nullptr;
};

bool white(chess::Piece pc) { return pc != chess::NO_PIECE && chess::color_of(pc) == chess::WHITE; }
bool on(int s, uint64_t squares) { return s < 64 && (squares >> s & 1); }

// "Third example: the same piece delivers at least 30 checks in the game", with a lower
// threshold for the corpus. Under :flipcolor the tag keeps its piece: the flipped list counts
// White-to-move positions where that white piece attacks (guards) its own king.
TEST_F(EvalTaggingCorpus, SamePieceChecksRepeatedly) {
  ASSERT_GT(games_->size(), 1000u);
  for (int n : {3, 6}) {
    List checks;
    checks.match = [](const chess::Position& p, int a, int) {
      if (a >= 64) return false;
      const chess::Color target = p.side_to_move();
      return (p.attackers_to(p.king_square(target)) >> a & 1) != 0;
    };
    checks.min_count = size_t(n);
    Hits expected = brute(white, nullptr, {checks});
    EXPECT_FALSE(expected.empty());
    EXPECT_EQ(query("(match match:forany checker A (position position:btm position:attackcount $checker k 1"
                    " position:matchcount >=" + std::to_string(n) + " position:flipcolor))"),
              expected)
        << n;
  }
}

TEST_F(EvalTaggingCorpus, OneRookOnTwoCorners) {
  List a1{[](const chess::Position&, int a, int) { return a == 0; }};
  List h8{[](const chess::Position&, int a, int) { return a == 63; }};
  auto rook = [](chess::Piece pc) { return pc == chess::W_ROOK || pc == chess::B_ROOK; };
  Hits expected = brute(rook, nullptr, {a1, h8});
  EXPECT_EQ(query("(match :forany rook [rR] (position $rook[a1]) (position $rook[h8]))"), expected);
}

TEST_F(EvalTaggingCorpus, TwoKnightsInTheCentre) {
  const uint64_t centre = 0x0000001818000000ull;
  List both{[&](const chess::Position&, int a, int b) { return on(a, centre) && on(b, centre); }};
  List rim{[](const chess::Position&, int a, int) { return a < 64 && (a % 8 == 0 || a % 8 == 7); }};
  auto knight = [](chess::Piece pc) { return pc == chess::W_KNIGHT || pc == chess::B_KNIGHT; };
  Hits expected = brute(knight, knight, {both, rim});
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query("(match :forany x [Nn] :forany y [Nn] (position $x[d4,e4,d5,e5] $y[d4,e4,d5,e5])"
                  " (position $x[a?,h?]))"),
            expected);
}

TEST_F(EvalTaggingCorpus, TagMatchAgainstDesignator) {
  // the tagged piece (any black piece, pawns that promote included) is a queen on the 1st rank
  List q1{[](const chess::Position& p, int a, int) {
    return a < 64 && a < 8 && p.piece_on(chess::Square(a)) == chess::B_QUEEN;
  }};
  auto black = [](chess::Piece pc) { return pc != chess::NO_PIECE && chess::color_of(pc) == chess::BLACK; };
  Hits expected = brute(black, nullptr, {q1});
  EXPECT_FALSE(expected.empty());
  EXPECT_EQ(query("(match :forany t a (position :tagmatch t q[a-h1]))"), expected);
}

}  // namespace

namespace {

// The planner derives no unsound condition from tagged designators (a `$x` stands for one
// piece, not for every piece its mask names): the answers with and without it are equal.
TEST_F(EvalTaggingCorpus, PlannerStaysSound) {
  for (const std::string script : {
           "(match :forany x [Rr] (position :piececount $x 1) (position $x[a1]))",
           "(match :forany x A (position :power $x 9 :btm))",
           "(match :forany x [Nn] (position :attackcount $x [kK] 1 :mate))",
           "(match :forany x a :forany y a (position :piececountdifference $x $y 0 $x[a-h1-4]))",
           "(match :forany x [Pp] (position :tagmatch x [Qq] :terminal))",
       }) {
    Hits off = query(script), on = query(script, true);
    EXPECT_EQ(on, off) << script;
  }
}

// CQL-Examples' excelsior example as written (issue 14): a pawn standing on its second or
// seventh rank in the start position promotes later. Brute force: a mark on rank 2 or 7 with
// a pawn at ply 0 that is a pawn before some move and a piece other than a pawn after it.
TEST_F(EvalTaggingCorpus, ExcelsiorAsWritten) {
  Hits expected;
  for (const auto& [id, line] : *games_) {
    bool found = false;
    for (size_t a = 0; a < line[0].square_of.size() && !found; ++a) {
      const int s0 = line[0].square_of[a];
      const chess::Piece pc0 = line[0].pos.piece_on(chess::Square(s0));
      if ((pc0 != chess::W_PAWN && pc0 != chess::B_PAWN) || (s0 / 8 != 1 && s0 / 8 != 6)) continue;
      for (size_t q = 0; q + 1 < line.size() && !found; ++q) {
        const int before = line[q].square_of[a], after = line[q + 1].square_of[a];
        if (before >= 64 || after >= 64) continue;
        const chess::Piece was = line[q].pos.piece_on(chess::Square(before));
        const chess::Piece now = line[q + 1].pos.piece_on(chess::Square(after));
        found = (was == chess::W_PAWN || was == chess::B_PAWN) && now != chess::W_PAWN && now != chess::B_PAWN;
      }
    }
    if (found) expected[id] = {0};
  }
  ASSERT_GE(expected.size(), 20u);
  const std::string excelsior =
      "(match\n"
      "  match:forany pawn [Pp]\n"
      "  (position\n"
      "    position:initial\n"
      "    position:tagmatch pawn [Pp]?[27]\n"
      "    position:gappedsequence ((position position:movefrom $pawn position:promote U))))";
  EXPECT_EQ(query(excelsior), expected);
  EXPECT_EQ(query(excelsior, true), expected);
}

}  // namespace
