// The position index (issue 18): identity keys (transpositions, the legal en-passant rule of
// SPEC "Position identity"), the index built by import and reindex, and :fen / --fen answers
// with the planner on equal to a replay of every game.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/position_key.h"
#include "chess/san.h"
#include "db/record_view.h"
#include "db/stored_move.h"
#include "cli_test_util.h"
#include "temp_dir.h"
#include "eval_corpus_db.h"
#include "eval_corpus_slice.h"
#include "import/pgn_splitter.h"
#include "index/position_index.h"
#include "index/position_segment.h"

namespace {

chess::Position from_fen(const std::string& fen) {
  chess::Position pos;
  EXPECT_TRUE(pos.set_fen(fen).ok()) << fen;
  return pos;
}

using cqltest::position_after;

std::string corpus(const char* name) { return std::string(CQLDB_CORPUS_DIR) + "/" + name; }

}  // namespace

TEST(PositionIdentity, TranspositionsShareTheKey) {
  EXPECT_EQ(chess::identity_key(position_after({"Nf3", "Nf6", "c4"})), chess::identity_key(position_after({"c4", "Nf6", "Nf3"})));
  EXPECT_EQ(chess::identity_key(position_after({"e4", "e5", "Nf3", "Nc6"})), chess::identity_key(position_after({"Nf3", "Nc6", "e4", "e5"})));
  EXPECT_NE(chess::identity_key(position_after({"Nf3"})), chess::identity_key(position_after({"Nf3", "Nf6"})));
  // Clocks are ignored; castling rights count.
  EXPECT_EQ(chess::identity_key(from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")),
            chess::identity_key(from_fen("4k3/8/8/8/8/8/8/4K2R w K - 17 60")));
  EXPECT_NE(chess::identity_key(from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")),
            chess::identity_key(from_fen("4k3/8/8/8/8/8/8/4K2R w - - 0 1")));
  // Going Ng1-f3-g1 and back loses nothing: the start position again.
  EXPECT_EQ(chess::identity_key(position_after({"Nf3", "Nf6", "Ng1", "Ng8"})), chess::identity_key(position_after({})));
}

TEST(PositionIdentity, EnPassantCountsOnlyWhenACaptureIsLegal) {
  // No black pawn beside e4: the square is dropped already by set_fen.
  EXPECT_EQ(chess::identity_key(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")),
            chess::identity_key(position_after({"e4"})));
  // A legal capture exd3: the square counts.
  const chess::Position legal = from_fen("8/8/8/8/3Pp2k/8/8/4K3 b - d3 0 1");
  EXPECT_TRUE(chess::has_legal_en_passant(legal));
  EXPECT_NE(chess::identity_key(legal), chess::identity_key(from_fen("8/8/8/8/3Pp2k/8/8/4K3 b - - 0 1")));
  // exd3 would take both pawns off the 4th rank and expose the king on h4 to the rook on a4:
  // no legal capture, the same position as without the square (though key() differs).
  const chess::Position pinned = from_fen("8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1");
  const chess::Position plain = from_fen("8/8/8/8/R2Pp2k/8/8/4K3 b - - 0 1");
  EXPECT_FALSE(chess::has_legal_en_passant(pinned));
  EXPECT_NE(pinned.key(), plain.key());
  EXPECT_EQ(chess::identity_key(pinned), chess::identity_key(plain));
  // The pawn on d4 pinned diagonally (bishop h8, king a1): dxe3 would leave the diagonal.
  const chess::Position diagonal = from_fen("7B/8/8/8/3pP3/8/8/k5K1 b - e3 0 1");
  EXPECT_FALSE(chess::has_legal_en_passant(diagonal));
  EXPECT_EQ(chess::identity_key(diagonal), chess::identity_key(from_fen("7B/8/8/8/3pP3/8/8/k5K1 b - - 0 1")));
}

TEST(PositionIdentity, FenKeywordFollowsTheEnPassantRule) {
  cqltest::TempDir dir("fen-ep");
  const std::string pgn = (dir.path / "ep.pgn").string();
  {
    std::ofstream out(pgn);
    // Games 1 and 2 reach the board after 1.d4 with a legal exd3 e.p.; game 2 reaches the
    // same board again after 3.Ra4 without it. In game 3 the capture exd3 would expose the
    // black king on h4 to the rook on a4: never legal, so the square does not count.
    out << "[Event \"a\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/R3p2K/8/3P4/8 w - - 0 1\"]\n\n1. d4 *\n\n"
        << "[Event \"b\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/R3p2K/8/3P4/8 w - - 0 1\"]\n\n"
        << "1. d4 Kd8 2. Ra3 Ke8 3. Ra4 *\n\n"
        << "[Event \"c\"]\n[SetUp \"1\"]\n[FEN \"8/8/8/8/R3p2k/8/3P4/4K3 w - - 0 1\"]\n\n1. d4 *\n\n";
  }
  cqltest::CorpusDb db("fen-ep-db", {pgn});
  ASSERT_EQ(db.game_count(), 3u);
  const std::string with_ep = "(match (position :fen \"4k3/8/8/8/R2Pp2K/8/8/8 b - d3 0 1\"))";
  const std::string without = "(match (position :fen \"4k3/8/8/8/R2Pp2K/8/8/8 b - - 0 1\"))";
  EXPECT_EQ(db.query(with_ep, false), (cqltest::Hits{{1, {1}}, {2, {1}}}));
  EXPECT_EQ(db.query(with_ep, true), db.query(with_ep, false));
  EXPECT_EQ(db.query(without, false), (cqltest::Hits{{2, {5}}}));
  EXPECT_EQ(db.query(without, true), db.query(without, false));
  const std::string pinned_ep = "(match (position :fen \"8/8/8/8/R2Pp2k/8/8/4K3 b - d3 0 1\"))";
  const std::string pinned = "(match (position :fen \"8/8/8/8/R2Pp2k/8/8/4K3 b - - 0 1\"))";
  EXPECT_EQ(db.query(pinned_ep, false), (cqltest::Hits{{3, {1}}}));
  EXPECT_EQ(db.query(pinned, false), (cqltest::Hits{{3, {1}}}));
  EXPECT_EQ(db.query(pinned_ep, true), db.query(pinned_ep, false));
  EXPECT_EQ(db.query(pinned, true), db.query(pinned, false));
}

TEST(PositionIndex, ImportBuildsItAndFenCandidatesAreExact) {
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  const auto index = posindex::PositionIndex::open(slice.db().dir() / "db");
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->covered(), slice.db().game_count());
  // Positions of real games at plies inside and beyond the indexed 40.
  const uint32_t ids[] = {1, 17, 250, 999, 2024, 4711, 6000, 8191, 9999};
  const uint32_t plies[] = {0, 1, 4, 9, 16, 25, 40, 41, 56, 80};
  int checked = 0;
  for (uint32_t id : ids)
    for (uint32_t ply : plies) {
      std::vector<chess::Position> line;
      ASSERT_TRUE(slice.db().replay(id, line));
      if (ply >= line.size()) continue;
      const std::string fen = line[ply].fen();
      const std::string script = "(match (position :fen \"" + fen + "\"))";
      const cqltest::Hits off = slice.query(script, false);
      const cqltest::Hits on = slice.query(script, true);
      EXPECT_EQ(on, off) << fen;
      EXPECT_TRUE(off.count(id)) << fen;
      // The index lookup: a superset of the matches; within the indexed plies, the first
      // occurrences are exactly the games that reach the position there.
      std::vector<posindex::PositionHit> firsts;
      const std::vector<uint32_t> candidates = index->candidates(line[ply], slice.db().game_count(), &firsts);
      for (const auto& [game, matched_plies] : off)
        EXPECT_TRUE(std::binary_search(candidates.begin(), candidates.end(), game)) << fen << " game " << game;
      if (ply <= 12) {
        // Opening: no false candidate but the unknown entries of the position's top (keys
        // reached once by other positions; about 3 a lookup here with 16 top bits).
        for (uint32_t game : candidates) {
          if (off.count(game)) continue;
          auto hit = std::find_if(firsts.begin(), firsts.end(), [&](const auto& h) { return h.game == game; });
          EXPECT_TRUE(hit != firsts.end() && !hit->known) << fen << " false candidate " << game;
        }
      }
      ++checked;
    }
  EXPECT_GT(checked, 60);
}

/// The hits of `key` in `index` with every unknown hit (PositionHit::known false) replaced
/// by the game's occurrences of `key` at plies 0..kIndexedPlies (none when it has none or
/// known hits already), found by replaying its record.
static std::vector<posindex::PositionHit> resolved_lookup(const posindex::PositionIndex& index,
                                                          const db::GameReader& reader, chess::Key key) {
  std::vector<posindex::PositionHit> hits, out;
  index.lookup(key, hits);
  for (size_t i = 0; i < hits.size(); ++i) {
    const posindex::PositionHit& h = hits[i];
    if (h.known) {
      out.push_back(h);
      continue;
    }
    if (!out.empty() && out.back().game == h.game) continue;  // its known hits came first
    std::string_view bytes;
    EXPECT_TRUE(reader.record(h.game, bytes)) << h.game;
    const db::RecordView view = db::RecordView::parse(bytes);
    db::MainLineReplay replay(view);
    for (;; replay.advance()) {
      if (chess::identity_key(replay.position()) == key)
        out.push_back({h.game, replay.done() ? chess::Move::none() : replay.next_move(), true});
      if (replay.done() || replay.ply() == posindex::kIndexedPlies) break;
    }
  }
  return out;
}

/// The index of `db` (built by its imports: `segments` segments) answers lookups as a
/// rebuild does once unknown entries are resolved by replay (a merge does not read games,
/// so it keeps unknown the entries a rebuild may know), and counts the same entries.
static void expect_equals_rebuild(cqltest::CorpusDb& db, size_t segments) {
  auto appended = posindex::PositionIndex::open(db.dir() / "db");
  ASSERT_TRUE(appended.has_value());
  EXPECT_EQ(appended->segments(), segments);
  EXPECT_EQ(appended->covered(), db.game_count());
  std::vector<std::vector<posindex::PositionHit>> before;
  std::vector<chess::Position> probes;
  for (uint32_t id = 1; id <= db.game_count(); id += 97) {
    std::vector<chess::Position> line;
    if (!db.replay(id, line)) continue;
    for (size_t p = 0; p < line.size() && p <= 40; p += 10) probes.push_back(line[p]);
  }
  const db::GameReader reader = db.database().reader();
  for (const chess::Position& p : probes) before.push_back(resolved_lookup(*appended, reader, chess::identity_key(p)));
  EXPECT_EQ(appended->verify(), "");
  const uint64_t entries = appended->entries();
  appended.reset();
  // The facts the imports wrote (Elos, year, result from the headers as built, frontier and
  // flags) are those a rebuild reads back from headers.sqlite, byte for byte.
  auto read_bytes = [](const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string facts_before = read_bytes(db.dir() / "db" / posindex::kFactsFile);
  const posindex::PositionIndexUpdate u = posindex::update_position_index(db.database(), /*rebuild=*/true);
  EXPECT_EQ(read_bytes(db.dir() / "db" / posindex::kFactsFile), facts_before);
  EXPECT_FALSE(facts_before.empty());
  EXPECT_TRUE(u.rebuilt);
  EXPECT_EQ(u.entries, entries);
  const auto rebuilt = posindex::PositionIndex::open(db.dir() / "db");
  ASSERT_TRUE(rebuilt.has_value());
  EXPECT_EQ(rebuilt->segments(), 1u);
  for (size_t i = 0; i < probes.size(); ++i) {
    const std::vector<posindex::PositionHit> hits = resolved_lookup(*rebuilt, reader, chess::identity_key(probes[i]));
    ASSERT_EQ(hits.size(), before[i].size()) << probes[i].fen();
    for (size_t j = 0; j < hits.size(); ++j) {
      EXPECT_EQ(hits[j].game, before[i][j].game);
      EXPECT_EQ(hits[j].next, before[i][j].next);
    }
    EXPECT_FALSE(hits.empty()) << probes[i].fen();
  }
  for (uint32_t id = 1; id <= db.game_count(); ++id) {
    const posindex::GameFacts f = rebuilt->facts(id);
    EXPECT_EQ(f.flags & posindex::GameFacts::kUnindexed, 0) << id;
  }
}

TEST(PositionIndex, AppendedSegmentsEqualARebuild) {
  cqltest::CorpusDb db("posidx-append");
  // 2,578 > 914 > 253 games: no merge, three segments.
  db.add_files({corpus("annotated.pgn")});
  db.add_files({corpus("mates.pgn")});
  const import::ImportSummary last = db.add_files({corpus("studies.pgn")});
  EXPECT_EQ(last.positions.merges, 0u);
  expect_equals_rebuild(db, 3);
}

// Issue 16: the last two segments merge while the earlier is no larger (streamed block by
// block). The merges an import makes due run at the start of the next import, in the
// background while it reads; the merged index equals a rebuild and the files merged away are
// gone.
TEST(PositionIndex, MergedSegmentsEqualARebuild) {
  cqltest::CorpusDb db("posidx-merge");
  db.add_files({corpus("mates.pgn")});
  db.add_files({corpus("studies.pgn")});  // 914 > 253: two segments
  EXPECT_EQ(posindex::PositionIndex::open(db.dir() / "db")->segments(), 2u);
  // 253 <= 2,578 is due now, but left to the next import.
  const import::ImportSummary third = db.add_files({corpus("annotated.pgn")});
  EXPECT_EQ(third.positions.merges, 0u);
  EXPECT_EQ(third.positions.segments, 3u);
  const uint32_t before = db.game_count();
  // It merges 253 with 2,578, then 914 with 2,831, then adds its own segment.
  const import::ImportSummary fourth = db.add_files({corpus("mates.pgn")});
  EXPECT_EQ(fourth.positions.merges, 2u);
  EXPECT_EQ(fourth.positions.segments, 2u);
  std::vector<std::string> segment_files;
  for (const auto& e : std::filesystem::directory_iterator(db.dir() / "db")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("positions-", 0) == 0 && e.path().extension() == ".seg") segment_files.push_back(name);
  }
  std::sort(segment_files.begin(), segment_files.end());
  const std::vector<std::string> expected{
      "positions-1-" + std::to_string(before) + ".seg",
      "positions-" + std::to_string(before + 1) + "-" + std::to_string(db.game_count()) + ".seg"};
  EXPECT_EQ(segment_files, expected);
  expect_equals_rebuild(db, 2);
}

// Issue 42, version 5: in every segment, built or merged, a top's groups with low bits come
// first in order of low bits, then at most one group without (its unknown entries, by game).
static void expect_one_unknown_group_per_top(const std::filesystem::path& dir) {
  size_t segments = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("positions-", 0) != 0 || e.path().extension() != ".seg") continue;
    const std::string range = name.substr(10, name.size() - 14);
    const size_t dash = range.find('-');
    const uint32_t first = uint32_t(std::stoul(range.substr(0, dash))), last = uint32_t(std::stoul(range.substr(dash + 1)));
    posindex::format::GroupStream stream(dir, first, last);
    posindex::format::Group g;
    bool have = false, unknown_seen = false;
    uint64_t top = 0, unknown_groups = 0, entries = 0;
    while (stream.next(g)) {
      if (!have || g.top != top) unknown_seen = false;
      EXPECT_FALSE(unknown_seen) << name << ": a group after the unknown group of top " << g.top;
      if (!g.has_low) {
        unknown_seen = true;
        ++unknown_groups;
        for (size_t i = 1; i < g.entries.size(); ++i) EXPECT_LE(g.entries[i - 1].game, g.entries[i].game);
      }
      entries += g.entries.size();
      have = true;
      top = g.top;
    }
    EXPECT_EQ(entries, stream.header().entries) << name;
    EXPECT_GT(unknown_groups, 0u) << name;
    ++segments;
  }
  EXPECT_GT(segments, 0u);
}

TEST(PositionIndex, BuiltAndMergedTopsHoldOneUnknownGroupLast) {
  cqltest::CorpusDb db("posidx-v5-layout");
  db.add_files({corpus("mates.pgn")});
  db.add_files({corpus("studies.pgn")});
  db.add_files({corpus("annotated.pgn")});
  expect_one_unknown_group_per_top(db.dir() / "db");  // three built segments
  const import::ImportSummary fourth = db.add_files({corpus("mates.pgn")});
  EXPECT_EQ(fourth.positions.merges, 2u);
  expect_one_unknown_group_per_top(db.dir() / "db");  // two merged, one built
  expect_equals_rebuild(db, 2);
}

// Issue 18: the import builds the index from the entries its workers derived, writing each
// complete segment while it reads and merging the new segments as it goes (small segments
// here so that one import writes and merges several); appends continue it. The result
// equals a rebuild, and no file of the import is left over.
TEST(PositionIndex, SegmentsWrittenDuringTheImportEqualARebuild) {
  cqltest::CorpusDb db("posidx-fresh");
  import::ImportOptions options;
  options.position_segment_games = 500;
  // 2,554 games stored: segments of 500 written in the stream, 1..500 and 501..1000 merged,
  // then 1001..2000 likewise and with 1..1000; 2001..2500; the tail 2501..2554 (500 > 54).
  const import::ImportSummary first =
      import::import_files(db.database(), {corpus("annotated.pgn")}, options, nullptr);
  ASSERT_EQ(db.game_count(), 2554u);
  EXPECT_TRUE(first.positions.rebuilt);
  EXPECT_EQ(first.positions.added, 2554u);
  EXPECT_EQ(first.positions.segments, 3u);
  // 253 more: only a tail, 2555..2807; 2501..2554 with it is due (54 <= 253), left to the
  // next import.
  const import::ImportSummary second = import::import_files(db.database(), {corpus("studies.pgn")}, options, nullptr);
  EXPECT_FALSE(second.positions.rebuilt);
  EXPECT_EQ(second.positions.added, 253u);
  EXPECT_EQ(second.positions.merges, 0u);
  EXPECT_EQ(second.positions.segments, 4u);
  // 914 more: first (in the background) 2501..2554 merges with 2555..2807; 2001..2500 with
  // that is not due (500 > 307). Then 2808..3307 written in the stream, and the tail
  // 3308..3721 (500 > 414); 2501..2807 with 2808..3307 is due, left to the next import.
  const import::ImportSummary third = import::import_files(db.database(), {corpus("mates.pgn")}, options, nullptr);
  EXPECT_EQ(third.positions.added, 914u);
  EXPECT_EQ(third.positions.merges, 1u);
  EXPECT_EQ(third.positions.segments, 5u);
  EXPECT_EQ(first.positions.entries + second.positions.entries + third.positions.entries,
            posindex::PositionIndex::open(db.dir() / "db")->entries());
  std::vector<std::string> segment_files;
  for (const auto& e : std::filesystem::directory_iterator(db.dir() / "db")) {
    const std::string name = e.path().filename().string();
    if (name.rfind("positions-", 0) == 0 && name.find(".seg") != std::string::npos) segment_files.push_back(name);
  }
  std::sort(segment_files.begin(), segment_files.end());
  const std::vector<std::string> expected{"positions-1-2000.seg", "positions-2001-2500.seg",
                                          "positions-2501-2807.seg", "positions-2808-3307.seg",
                                          "positions-3308-3721.seg"};
  EXPECT_EQ(segment_files, expected);
  expect_equals_rebuild(db, 5);
}

// `--skip-duplicates` with the index built in the import: a skipped game's entries, taken
// from the middle of a batch, must not shift the next games' (GameBuilder's batch sink).
TEST(PositionIndex, SkippedDuplicatesInsideBatchesLeaveNoEntries) {
  cqltest::CorpusDb db("posidx-dups");
  import::ImportOptions options;
  options.position_segment_games = 300;
  options.skip_duplicates = true;
  const import::ImportSummary first = import::import_files(db.database(), {corpus("studies.pgn")}, options, nullptr);
  ASSERT_EQ(first.imported, 253u);
  // mates.pgn and studies.pgn game by game, alternately: every batch holds both.
  std::vector<std::string> mates, studies;
  for (auto [file, out] : {std::pair{"mates.pgn", &mates}, std::pair{"studies.pgn", &studies}}) {
    import::PgnSplitter games(import::InputStream(corpus(file)));
    import::RawGame raw;
    while (games.next(raw)) out->push_back(raw.text);
  }
  const std::filesystem::path mixed = db.dir() / "mixed.pgn";
  {
    std::ofstream out(mixed);
    for (size_t i = 0; i < std::max(mates.size(), studies.size()); ++i) {
      if (i < mates.size()) out << mates[i] << "\n\n";
      if (i < studies.size()) out << studies[i] << "\n\n";
    }
  }
  const import::ImportSummary second = import::import_files(db.database(), {mixed.string()}, options, nullptr);
  EXPECT_EQ(second.skipped_duplicates, 253u);
  EXPECT_EQ(second.imported, 914u);
  EXPECT_EQ(second.positions.added, 914u);
  EXPECT_FALSE(second.positions.rebuilt);
  expect_equals_rebuild(db, posindex::PositionIndex::open(db.dir() / "db")->segments());
}

// `cqldb import --no-position-index`: the index is left as it is; :fen answers replay the
// games it lacks, and the next import catches up (here: builds it, there was none).
TEST(PositionIndex, ImportWithoutTheIndexIsCaughtUpByTheNextImport) {
  cqltest::CorpusDb db("posidx-off");
  import::ImportOptions options;
  options.position_index = false;
  const import::ImportSummary off = import::import_files(db.database(), {corpus("mates.pgn")}, options, nullptr);
  EXPECT_EQ(off.positions.added, 0u);
  EXPECT_FALSE(posindex::PositionIndex::open(db.dir() / "db").has_value());
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
  const std::string script = "(match (position :fen \"" + fen + "\"))";
  const cqltest::Hits replayed = db.query(script, false);
  EXPECT_EQ(db.query(script, true), replayed);
  const import::ImportSummary on = db.add_files({corpus("studies.pgn")});
  EXPECT_TRUE(on.positions.rebuilt);
  EXPECT_EQ(on.positions.added, db.game_count());
  expect_equals_rebuild(db, on.positions.segments);
}

TEST(PositionIndex, MissingIndexFallsBackToReplay) {
  cqltest::CorpusDb db("posidx-missing", {corpus("mates.pgn")});
  const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
  const std::string script = "(match (position :fen \"" + fen + "\"))";
  const cqltest::Hits with_index = db.query(script, true);
  posindex::remove_position_index(db.dir() / "db");
  EXPECT_FALSE(posindex::PositionIndex::open(db.dir() / "db").has_value());
  EXPECT_EQ(db.query(script, true), with_index);
  EXPECT_EQ(db.query(script, false), with_index);
}

TEST(PositionIndex, CliFenEqualsTheReplay) {
  cqltest::TempDir dir("posidx-cli");
  const std::string db = (dir.path / "db").string();
  ASSERT_EQ(cqltest::run_cqldb({"import", "--db", db, corpus("annotated.pgn")}, dir.path).code, 0);
  const std::string fen = "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R b KQkq - 2 5";
  const auto on = cqltest::run_cqldb({"query", "--db", db, "--fen", fen, "--format", "ids", "-q"}, dir.path);
  const auto off =
      cqltest::run_cqldb({"query", "--db", db, "--fen", fen, "--format", "ids", "-q", "--no-planner"}, dir.path);
  ASSERT_EQ(on.code, 0) << on.err;
  EXPECT_EQ(on.out, off.out);
  EXPECT_FALSE(on.out.empty());
  const auto bad = cqltest::run_cqldb({"query", "--db", db, "--fen", "rnbqkbnr/pppppppp/8 w"}, dir.path);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("--fen"), std::string::npos) << bad.err;
}

// Replay stops a game once no :fen target can occur any more (chess::Frontier, the horizon of
// eval/game_matcher.cpp). Its answers, matched plies included, must equal a brute-force scan
// of every position of every game, for positions early, late and repeated in their games.
TEST(PositionIndex, FenHorizonEqualsBruteForce) {
  cqltest::CorpusSlice& slice = cqltest::CorpusSlice::get();
  auto same = [](const chess::Position& a, const chess::Position& b) {
    return chess::identity_key(a) == chess::identity_key(b) && a.pieces() == b.pieces() &&
           a.pieces(chess::WHITE) == b.pieces(chess::WHITE) && a.pieces(chess::PAWN) == b.pieces(chess::PAWN) &&
           a.pieces(chess::KNIGHT) == b.pieces(chess::KNIGHT) && a.pieces(chess::BISHOP) == b.pieces(chess::BISHOP) &&
           a.pieces(chess::ROOK) == b.pieces(chess::ROOK) && a.pieces(chess::QUEEN) == b.pieces(chess::QUEEN);
  };
  std::vector<chess::Position> targets = {
      position_after({}), position_after({"e4", "e5", "Nf3", "Nc6", "Bb5", "a6"}), position_after({"d4", "Nf6", "c4", "e6", "Nc3", "Bb4"})};
  // Positions of real games, one of them reached twice in its game (a repetition).
  std::vector<chess::Position> line;
  for (uint32_t id : {42u, 3000u, 7777u}) {
    ASSERT_TRUE(slice.db().replay(id, line));
    targets.push_back(line[std::min<size_t>(line.size() - 1, 60)]);
  }
  bool repeated = false;
  slice.for_each_game([&](uint32_t, const std::vector<chess::Position>& positions) {
    for (size_t p = 20; !repeated && p < positions.size(); ++p)
      for (size_t q = p + 4; q < positions.size(); q += 2)
        if (same(positions[p], positions[q])) {
          targets.push_back(positions[p]);
          repeated = true;
          break;
        }
  });
  EXPECT_TRUE(repeated);
  for (const chess::Position& target : targets) {
    cqltest::Hits expected;
    slice.for_each_game([&](uint32_t id, const std::vector<chess::Position>& positions) {
      for (uint32_t p = 0; p < positions.size(); ++p)
        if (same(positions[p], target)) expected[id].push_back(p);
    });
    const std::string script = "(match (position :fen \"" + target.fen() + "\"))";
    EXPECT_EQ(slice.query(script, false), expected) << target.fen();
    EXPECT_EQ(slice.query(script, true), expected) << target.fen();
    EXPECT_FALSE(expected.empty()) << target.fen();
  }
}
