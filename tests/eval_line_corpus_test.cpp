// :line / :line* (eval/line.h) on a real corpus (mates.pgn, studies.pgn and the 3000-game
// players sample): each seed 000 move notation against the keywords the seed gives as its
// meaning, and line queries against a brute-force scan written on chess::Position with UCI
// and SAN strings.
#include <gtest/gtest.h>

#include <map>
#include <span>
#include <string>
#include <vector>

#include "chess/movegen.h"
#include "chess/position.h"
#include "chess/san.h"
#include "query/executor.h"
#include "query/query.h"
#include "eval_corpus_db.h"
#include "eval_test_util.h"
#include "planner/plan.h"

using cqltest::pos;
using Plies = std::vector<uint32_t>;

namespace {

/// One ply of a main line, as the brute-force scans see it.
struct Ply {
  chess::Position before;  ///< the position the move is played from
  chess::Move move;
  std::string uci;  ///< "e2e4"; "0000" for a null move
  std::string san;  ///< "exd5", "Nf6+"
  chess::Piece mover = chess::NO_PIECE;
  chess::Piece captured = chess::NO_PIECE;  ///< content of the destination before the move
};

class EvalLineCorpus : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const std::string sample = std::string(CQLDB_SOURCE_DIR) + "/examples/sample";
    db_ = new cqltest::CorpusDb("eval-line", {cqltest::corpus_file("mates.pgn"), cqltest::corpus_file("studies.pgn"),
                                              sample + "/players-3000.pgn.zst"});
  }

  static void TearDownTestSuite() { delete db_; }

  using Hits = cqltest::Hits;

  static Hits query(const std::string& script) { return db_->query(script); }

  /// The plies of a main line with what the scans need; the last entry is the final
  /// position (move none).
  static std::vector<Ply> plies_of(std::span<const chess::Position> positions,
                                   std::span<const chess::Move> moves) {
    std::vector<Ply> out;
    for (size_t i = 0;; ++i) {
      Ply ply;
      ply.before = positions[i];
      if (i == moves.size()) {
        out.push_back(ply);
        break;
      }
      const chess::Position& p = positions[i];
      ply.move = moves[i];
      if (ply.move == chess::Move::null()) {
        ply.uci = "0000";
        ply.san = "--";
      } else {
        ply.uci = chess::to_uci(ply.move, p);
        ply.san = chess::to_san(p, ply.move);
        ply.mover = p.piece_on(ply.move.from_sq());
        if (ply.move.kind() != chess::Move::CASTLING) ply.captured = p.piece_on(ply.move.to_sq());
      }
      out.push_back(ply);
    }
    return out;
  }

  /// Runs `scan(plies, p)` at every ply p of every game; the plies where it holds.
  template <class Scan>
  static Hits brute(Scan&& scan) {
    Hits hits;
    db_->for_each_line([&](uint32_t id, std::span<const chess::Position> positions,
                           std::span<const chess::Move> moves) {
      const std::vector<Ply> plies = plies_of(positions, moves);
      for (size_t p = 0; p < plies.size(); ++p)
        if (scan(plies, p)) hits[id].push_back(uint32_t(p));
    });
    return hits;
  }

  static inline cqltest::CorpusDb* db_ = nullptr;
};

/// Total number of matched plies.
size_t total(const std::map<uint32_t, Plies>& hits) {
  size_t n = 0;
  for (const auto& [id, p] : hits) n += p.size();
  return n;
}

TEST_F(EvalLineCorpus, SeedNotationsMeanTheirKeywords) {
  // seed 000 :line table: each move notation and the keywords it stands for. A move
  // without a destination goes to an empty square whatever its suffixes (seed 000: `N` is
  // "any knight move to an empty square"; the table leaves `:moveto .` out for `Q+*`, `K!`,
  // `P=Q` ...; the rook example writes `R:+` to allow captures): SPEC-NOTES.
  struct Case {
    const char* line;
    const char* keywords;
  };
  const Case cases[] = {
      {"(e2-e4)", ":movefrom ?e2 :moveto .e4"},
      {"(Pe2-e4)", ":movefrom Pe2 :moveto .e4"},
      {"(1.e2-e4)", ":movenumber 1 :wtm :movefrom ?e2 :moveto .e4"},
      {"(1...e7-e5)", ":movenumber 1 :btm :movefrom ?e7 :moveto .e5"},
      {"(Pd5xe6 ep)", ":movefrom Pd5 :moveto .e6 :enpassant"},
      {"(Pd5xpe6)", ":movefrom Pd5 :moveto pe6"},
      {"(P=Q)", ":movefrom P :moveto . :promote Q"},
      {"(P=A#)", ":movefrom P :moveto . :promote A :ismate"},
      {"(Q+*)", ":movefrom Q :moveto . :ischeck !:ismate"},
      {"(Q+++)", ":movefrom Q :moveto . :iscontactcheck"},
      {"(Nb1-[ac]3)", ":movefrom Nb1 :moveto .[ac]3"},
      {"(b[bg]7xI?1)", ":movefrom b[bg]7 :moveto I?1"},
      {"(M?[1-7]-?8+)", ":movefrom M?[1-7] :moveto .?8 :ischeck"},
      {"(M?[1-7]-?8-)", ":movefrom M?[1-7] :moveto .?8 !:ischeck"},
      {"(Bg5++)", ":movefrom B :moveto .g5 :isdoublecheck"},
      {"(N:f7#)", ":movefrom N :moveto ?f7 :ismate"},
      {"(nxPe4)", ":movefrom n :moveto Pe4"},
      {"(Nxe4)", ":movefrom N :moveto ae4"},
      {"(N)", ":movefrom N :moveto ."},
      {"(Nx)", ":movefrom N :moveto a"},
      {"(Nxm)", ":movefrom N :moveto m"},
      {"(xm)", ":movefrom A :moveto m"},
      {"(N:)", ":movefrom N"},
      {"(O-O)", ":iscastling [Kk]"},
      {"(O-O-O)", ":iscastling [Qq]"},
      {"(O-O-O-O)", ":iscastling"},
      {"(K-Q)", ":iscastling Q"},
      {"(k-kq)", ":iscastling [kq]"},
      {"(K!)", ":movefrom K :moveto . :forced"},
      {"(Ux[Q~q~])", ":moveto [Q~q~]"},
      {"(Q~~#)", ":movefrom Q~~ :moveto . :ismate"},
      {"(Q~~:#)", ":movefrom Q~~ :ismate"},
      {"(P:=Q)", ":promote Q"},
      {"(Q:+*)", ":movefrom Q :ischeck !:ismate"},
      {"(--)", ":movefrom U"},
      {"(null)", ":isnull"},
      {"([Qq]x[Rr])", ":movefrom [Qq] :moveto [Rr]"},
  };
  for (const Case& c : cases) {
    const Hits want = query(pos(c.keywords));
    EXPECT_EQ(query(pos(":line " + std::string(c.line))), want) << c.line;
    if (std::string(c.line) == "(Q+*)" || std::string(c.line) == "(N)") {
      EXPECT_GT(total(want), 100u);
    }
  }
}

TEST_F(EvalLineCorpus, FrenchMovesAnywhere) {
  // CQL-Position-List: "e2-e4 e7-e6 d2-d4 d7-d5" anywhere (any piece, empty destinations).
  const char* want[] = {"e2e4", "e7e6", "d2d4", "d7d5"};
  const Hits expected = brute([&](const std::vector<Ply>& line, size_t p) {
    if (p + 4 >= line.size()) return false;
    for (size_t i = 0; i < 4; ++i)
      if (line[p + i].uci != want[i] || line[p + i].captured != chess::NO_PIECE) return false;
    return true;
  });
  EXPECT_GT(total(expected), 20u);
  EXPECT_EQ(query(pos(":line \"e2-e4 e7-e6 d2-d4 d7-d5\"")), expected);
}

TEST_F(EvalLineCorpus, AlekhineFromTheFirstMove) {
  // seed 000 (1.Pe2-e4 Ng8-f6): games opening with Alekhine's defence (SAN "e4 Nf6").
  const Hits expected = brute([&](const std::vector<Ply>& line, size_t p) {
    return p + 2 < line.size() && line[p].before.fullmove_number() == 1 &&
           line[p].before.side_to_move() == chess::WHITE && line[p].san == "e4" &&
           line[p].uci == "e2e4" && line[p + 1].san.starts_with("Nf6") && line[p + 1].uci == "g8f6";
  });
  EXPECT_GT(total(expected), 3u);
  EXPECT_EQ(query(pos(":line (1.Pe2-e4 Ng8-f6)")), expected);
}

TEST_F(EvalLineCorpus, ExchangePattern) {
  // seed 000 (Pc4xPd5 nf6xPd5 Nc3xNd5 pe6xNd5), by the moves' squares and pieces.
  struct Step {
    chess::Piece mover;
    const char* uci;
    chess::Piece captured;
  };
  const Step steps[] = {{chess::W_PAWN, "c4d5", chess::B_PAWN},
                        {chess::B_KNIGHT, "f6d5", chess::W_PAWN},
                        {chess::W_KNIGHT, "c3d5", chess::B_KNIGHT},
                        {chess::B_PAWN, "e6d5", chess::W_KNIGHT}};
  const Hits expected = brute([&](const std::vector<Ply>& line, size_t p) {
    if (p + 4 >= line.size()) return false;
    for (size_t i = 0; i < 4; ++i)
      if (line[p + i].mover != steps[i].mover || line[p + i].uci != steps[i].uci ||
          line[p + i].captured != steps[i].captured)
        return false;
    return true;
  });
  EXPECT_GT(total(expected), 3u);
  EXPECT_EQ(query(pos(":line (Pc4xPd5 nf6xPd5 Nc3xNd5 pe6xNd5)")), expected);
}

TEST_F(EvalLineCorpus, FrenchByTransposition) {
  // seed 000 :line* (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5): ply 4 holds the position the line
  // reaches from the game's start (board, side to move, castling rights).
  const char* moves[] = {"e2e4", "e7e6", "d2d4", "d7d5"};
  const Hits expected = brute([&](const std::vector<Ply>& line, size_t p) {
    if (p != 4 || line.size() < 5) return false;
    chess::Position target = line[0].before;
    for (const char* uci : moves) {
      chess::Move m = chess::parse_uci(target, uci);
      if (!m || chess::type_of(target.piece_on(m.from_sq())) != chess::PAWN) return false;
      chess::UndoInfo undo;
      target.do_move(m, undo);
    }
    const chess::Position& at = line[4].before;
    for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
      for (chess::Color c : {chess::WHITE, chess::BLACK})
        if (at.pieces(c, chess::PieceType(pt)) != target.pieces(c, chess::PieceType(pt))) return false;
    return at.side_to_move() == target.side_to_move() && at.castling_rights() == target.castling_rights();
  });
  EXPECT_GT(total(expected), 20u);
  EXPECT_EQ(query(pos(":line* (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)")), expected);
  // in these games (standard starts reach it) the same as the :fen query at ply 4
  EXPECT_EQ(query(pos(":halfmovenumber 4 :fen \"rnbqkbnr/ppp2ppp/4p3/3p4/3PP3/8/PPP2PPP/RNBQKBNR w KQkq - 0 3\"")),
            expected);
}

TEST_F(EvalLineCorpus, RookChecksWithPotentialKingMove) {
  // seed 000 `|` example without the end-of-game condition: four rook checks of one side,
  // each answered by a king move to an empty square, and a fourth king move possible.
  const Hits expected = brute([&](const std::vector<Ply>& line, size_t p) {
    if (p + 7 >= line.size()) return false;
    const chess::Color us = line[p].before.side_to_move();
    for (size_t i = 0; i < 7; ++i) {
      const Ply& x = line[p + i];
      const chess::Position& after = line[p + i + 1].before;
      if (x.move == chess::Move::null() || x.move.kind() == chess::Move::CASTLING) return false;
      if (i % 2 == 0) {
        if (x.mover != chess::make_piece(us, chess::ROOK) || !after.in_check()) return false;
      } else {
        if (x.mover != chess::make_piece(~us, chess::KING) || x.captured != chess::NO_PIECE) return false;
      }
    }
    chess::MoveList moves;
    const chess::Position& end = line[p + 7].before;
    chess::generate_legal(end, moves);
    for (chess::Move m : moves)
      if (m.kind() != chess::Move::CASTLING && end.piece_on(m.from_sq()) == chess::make_piece(~us, chess::KING) &&
          end.empty(m.to_sq()))
        return true;
    return false;
  });
  EXPECT_EQ(query(pos(":flipcolor :line (R:+ k R:+ k R:+ k R:+ | k)")), expected);
  // the played king move is one possibility: requiring it to be played can only lose hits
  const Hits played = query(pos(":flipcolor :line (R:+ k R:+ k R:+ k R:+ k)"));
  for (const auto& [id, p] : played) EXPECT_TRUE(expected.count(id)) << id;
  EXPECT_GT(total(expected), 0u);
}

TEST_F(EvalLineCorpus, PlannerPrunesSoundly) {
  // planner/condition.cpp: a :line's first move is a :movefrom / :moveto; the results with
  // the signature filter equal those without it, and rare first moves prune games.
  uint64_t pruned = 0;
  for (const char* items :
       {":line (Nxm)", ":line (Q~~#)", ":line (Pd5xe6 ep)", ":line (b[bg]7xI?1)", ":line (Ux[Q~q~])",
        ":flipcolor :line (R:+ k R:+ k R:+ k R:+ | k)", ":shift :line (Qa2-b2+ -- Qb2-b3+)",
        ":line (1.Pe2-e4 Ng8-f6)", ":line* (Pe2-e4 pe7-e6 Pd2-d4 pd7-d5)", ":line (O-O-O k-k)",
        ":not (position :line (N))", ":line (null)"}) {
    const query::Query compiled = query::Query::compile(pos(items), "test.cql");
    query::ExecuteOptions planner_off;
    planner_off.planner_off();
    const query::Result off_run = query::execute(compiled, db_->database(), planner_off);
    const query::Result on_run = query::execute(compiled, db_->database(), query::ExecuteOptions{});
    const std::vector<eval::GameMatch>& off = off_run.matches;
    const std::vector<eval::GameMatch>& on = on_run.matches;
    const query::Stats& off_stats = off_run.stats;
    const query::Stats& on_stats = on_run.stats;
    ASSERT_EQ(off.size(), on.size()) << items;
    for (size_t i = 0; i < off.size(); ++i) {
      EXPECT_EQ(off[i].id, on[i].id) << items;
      EXPECT_EQ(off[i].plies, on[i].plies) << items;
    }
    pruned += off_stats.games_replayed - on_stats.games_replayed;
  }
  EXPECT_GT(pruned, 1000u);
}

}  // namespace
