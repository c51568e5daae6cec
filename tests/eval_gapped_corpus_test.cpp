// :gappedsequence with its leading gap (SPEC "Game traversal", seeds 000/001/004: a
// refinement may insert `(position)` before the first element too) on real games: the first
// 6,000 games of players-344k plus mates.pgn. `(position :initial :gappedsequence (...))`
// finds the same games as the list without `:initial` (issue 14), and the marked plies are
// those of a brute-force reading of the definition written directly on chess::Position.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "eval_corpus_db.h"

namespace {

using cqltest::Hits;

/// What the brute force needs of one main-line position.
struct Fact {
  bool mate = false;          ///< the side to move is mated
  bool castles = false;       ///< the next move castles
  bool white_promotes = false;  ///< the next move is a white promotion
  bool black_promotes = false;  ///< the next move is a black promotion
  bool queen_moves = false;   ///< the next move is made by a queen (either colour)
  bool check = false;         ///< the side to move is in check
};

class EvalGappedCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    db_ = new cqltest::CorpusDb("eval-gapped");
    db_->add_players(6000);
    db_->add_files({cqltest::corpus_file("mates.pgn")});
    facts_ = new std::map<uint32_t, std::vector<Fact>>;
    db_->for_each_line([](uint32_t id, std::span<const chess::Position> positions,
                          std::span<const chess::Move> moves) {
      std::vector<Fact>& line = (*facts_)[id];
      for (size_t ply = 0; ply < positions.size(); ++ply) {
        const chess::Position& p = positions[ply];
        Fact f;
        f.check = p.in_check();
        f.mate = f.check && !chess::has_legal_move(p);
        if (ply < moves.size() && moves[ply] != chess::Move::null()) {
          const chess::Move m = moves[ply];
          f.castles = m.kind() == chess::Move::CASTLING;
          const bool promotes = m.kind() == chess::Move::PROMOTION;
          f.white_promotes = promotes && p.side_to_move() == chess::WHITE;
          f.black_promotes = promotes && p.side_to_move() == chess::BLACK;
          const chess::Piece mover = p.piece_on(m.from_sq());
          f.queen_moves = mover == chess::W_QUEEN || mover == chess::B_QUEEN;
        }
        line.push_back(f);
      }
    });
  }

  static void TearDownTestSuite() {
    delete db_;
    delete facts_;
  }

  using Element = std::function<bool(const Fact&)>;

  /// The definition, brute force: the gapped sequence of `elements` starts at ply p when
  /// plies p <= q0 < q1 < ... exist with element i matching at qi. Returns every such p,
  /// or only ply 0 (when it is one) for `initial_only`.
  static Hits brute(const std::vector<Element>& elements, bool initial_only) {
    Hits hits;
    for (const auto& [id, line] : *facts_) {
      // latest[i] = the latest ply where elements i.. can be placed in increasing plies
      // starting there; computed from the last element backwards.
      long next = long(line.size());  // elements after the current one start before `next`
      long start = -1;
      for (size_t i = elements.size(); i-- > 0;) {
        long found = -1;
        for (long q = next - 1; q >= 0 && found < 0; --q)
          if (elements[i](line[size_t(q)])) found = q;
        if (found < 0) {
          start = -1;
          break;
        }
        start = next = found;
      }
      if (start < 0) continue;
      std::vector<uint32_t>& plies = hits[id];
      for (long p = 0; p <= (initial_only ? 0 : start); ++p) plies.push_back(uint32_t(p));
    }
    return hits;
  }

  /// The game ids of `hits`.
  static std::vector<uint32_t> games(const Hits& hits) {
    std::vector<uint32_t> ids;
    for (const auto& [id, plies] : hits) ids.push_back(id);
    return ids;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
  static inline std::map<uint32_t, std::vector<Fact>>* facts_ = nullptr;
};

// The first query: two castlings, then a mate.
TEST_F(EvalGappedCorpus, TwoCastlingsThenMateWithAndWithoutInitial) {
  const std::string seq = ":gappedsequence ((position :iscastling) (position :iscastling) (position :mate))";
  const Element castles = [](const Fact& f) { return f.castles; };
  const Element mate = [](const Fact& f) { return f.mate; };
  const Hits expected = brute({castles, castles, mate}, false);
  ASSERT_GE(expected.size(), 5u);
  for (bool planned : {false, true}) {
    const Hits without = db_->query("(match (position " + seq + "))", planned);
    const Hits with = db_->query("(match (position :initial " + seq + "))", planned);
    EXPECT_EQ(without, expected) << "planned " << planned;
    EXPECT_EQ(games(with), games(without)) << "planned " << planned;
    EXPECT_EQ(with, brute({castles, castles, mate}, true)) << "planned " << planned;  // ply 0 only
  }
}

// The second query: two promotions (a white one, later a black one).
TEST_F(EvalGappedCorpus, TwoPromotionsWithAndWithoutInitial) {
  const std::string seq = ":gappedsequence ((position :promote A) (position :promote a))";
  const Element white = [](const Fact& f) { return f.white_promotes; };
  const Element black = [](const Fact& f) { return f.black_promotes; };
  const Hits expected = brute({white, black}, false);
  ASSERT_GE(expected.size(), 3u);
  for (bool planned : {false, true}) {
    const Hits without = db_->query("(match (position " + seq + "))", planned);
    const Hits with = db_->query("(match (position :initial " + seq + "))", planned);
    EXPECT_EQ(without, expected) << "planned " << planned;
    EXPECT_EQ(games(with), games(without)) << "planned " << planned;
    EXPECT_EQ(with, brute({white, black}, true)) << "planned " << planned;
  }
}

// A queen move followed later by a check and a mate: plies and games against the brute force,
// and the old reading (no leading gap) is the list with the first element at the marked ply.
TEST_F(EvalGappedCorpus, MarkedPliesRunFromTheStartToTheLastStart) {
  const Element queen = [](const Fact& f) { return f.queen_moves; };
  const Element check = [](const Fact& f) { return f.check; };
  const Element mate = [](const Fact& f) { return f.mate; };
  const std::string seq = ":gappedsequence ((position :movefrom [Qq]) (position :check) (position :mate))";
  const Hits expected = brute({queen, check, mate}, false);
  ASSERT_GE(expected.size(), 50u);
  EXPECT_EQ(db_->query("(match (position " + seq + "))"), expected);
  EXPECT_EQ(db_->query("(match (position " + seq + "))", true), expected);
  EXPECT_EQ(db_->query("(match (position :initial " + seq + "))"), brute({queen, check, mate}, true));
  // A match count counts the marked plies: the game's last start + 1.
  size_t some = 0;
  for (const auto& [id, plies] : expected)
    if (plies.size() >= 20 && ++some == 3) break;
  ASSERT_EQ(some, 3u);
  const Hits at_least_20 = db_->query("(match (position :matchcount 20 1000 " + seq + "))");
  for (const auto& [id, plies] : expected) EXPECT_EQ(at_least_20.count(id), plies.size() >= 20 ? 1u : 0u) << id;
}

}  // namespace
