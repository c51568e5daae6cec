// Position index v3 (issue 18, index size): the bit coder and group codec of segment blocks
// round-trip and reject damaged bits; positions reached once in a segment are stored without
// exact key and move ("unknown" entries) and the tree replays their games; a segment merge
// mixes known and unknown entries of one position, and trees and `cqldb check` stay exact.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "chess/position.h"
#include "chess/position_key.h"
#include "chess/san.h"
#include "db/database.h"
#include "eval_corpus_db.h"
#include "index/position_index.h"
#include "index/position_index_format.h"
#include "index/position_segment.h"
#include "index/position_tree.h"
#include "temp_dir.h"

namespace {

using posindex::format::BitIn;
using posindex::format::BitOut;
using posindex::format::Group;
using posindex::format::GroupEntry;
using posindex::format::SegmentCoding;

using cqltest::position_after;

std::string san_of(const chess::Position& pos, chess::Move m) {
  return chess::to_san(pos, m);
}

/// Random groups as a build or merge writes them: singletons, groups with every move known,
/// groups mixing known and unknown entries, groups of unknown entries only.
std::vector<Group> random_groups(std::mt19937_64& rng, const SegmentCoding& c, size_t count) {
  std::vector<Group> out;
  uint64_t top = 0;
  for (size_t i = 0; i < count; ++i) {
    Group g;
    // Deltas scaled to the top's width, so that 500 groups stay below 2^kTopKeyBits.
    top += rng() % 3 == 0 ? 0 : rng() % (uint64_t(1) << (posindex::kTopKeyBits - 14));
    if (i % 50 == 7) top += uint64_t(1) << (posindex::kTopKeyBits - 8);  // a delta needing the Rice escape
    g.top = top;
    const int kind = int(rng() % 4);
    const size_t n = kind == 0 ? 1 : 2 + rng() % (i % 40 == 3 ? 3000 : 20);
    uint32_t game = c.first + uint32_t(rng() % 100);
    for (size_t j = 0; j < n; ++j) {
      if (rng() % 4) game += uint32_t(rng() % 50);
      if (game > c.last) game = c.last;
      GroupEntry e;
      e.game = game;
      e.known = kind == 1 || (kind == 2 && (j == 0 || rng() % 2));
      e.move = e.known ? uint16_t(rng() % (kind == 1 ? 3 : 70)) : 0;
      g.entries.push_back(e);
    }
    g.has_low = kind == 1 || kind == 2;
    g.low = g.has_low ? rng() & ((uint64_t(1) << posindex::format::kLowKeyBits) - 1) : 0;
    if (n == 1) g.entries[0].known = g.has_low = false, g.low = 0;
    out.push_back(std::move(g));
  }
  return out;
}

}  // namespace

TEST(PositionIndexCodec, BitsGammaRiceRoundTrip) {
  std::string bytes;
  BitOut out(bytes);
  std::mt19937_64 rng(7);
  std::vector<std::pair<uint64_t, unsigned>> values;
  for (int i = 0; i < 2000; ++i) values.emplace_back(rng() >> (rng() % 64), unsigned(rng() % 20));
  for (const auto& [v, k] : values) {
    out.bits(v, 64);
    out.gamma(v | 1);
    out.rice(v >> 20, k);  // large quotients take the escape
  }
  out.flush();
  BitIn in(bytes.data(), bytes.data() + bytes.size());
  for (const auto& [v, k] : values) {
    EXPECT_EQ(in.bits(64), v);
    EXPECT_EQ(in.gamma(), v | 1);
    EXPECT_EQ(in.rice(k), v >> 20);
  }
  EXPECT_TRUE(in.at_clean_end());
  // Past the end: no crash, failed() set, zeros.
  EXPECT_EQ(in.bits(9), 0u);  // more than the padding
  EXPECT_TRUE(in.failed());
}

TEST(PositionIndexCodec, GroupsRoundTripAndDamageIsReported) {
  const SegmentCoding c{1001, 263144, posindex::format::key_rice_for(40000)};
  std::mt19937_64 rng(11);
  const std::vector<Group> groups = random_groups(rng, c, 500);
  std::string bytes;
  BitOut out(bytes);
  uint64_t prev = groups[0].top;
  for (const Group& g : groups) {
    posindex::format::encode_group(out, g, prev, c);
    prev = g.top;
  }
  out.flush();
  BitIn in(bytes.data(), bytes.data() + bytes.size());
  prev = groups[0].top;
  Group g;
  for (const Group& expected : groups) {
    ASSERT_TRUE(posindex::format::decode_group(in, g, prev, c));
    prev = g.top;
    EXPECT_EQ(g.top, expected.top);
    EXPECT_EQ(g.has_low, expected.has_low);
    EXPECT_EQ(g.low, expected.low);
    ASSERT_EQ(g.entries.size(), expected.entries.size());
    for (size_t j = 0; j < g.entries.size(); ++j) {
      EXPECT_EQ(g.entries[j].game, expected.entries[j].game);
      EXPECT_EQ(g.entries[j].known, expected.entries[j].known);
      if (expected.entries[j].known) {
        EXPECT_EQ(g.entries[j].move, expected.entries[j].move);
      }
    }
  }
  EXPECT_TRUE(in.at_clean_end());
  // Truncated or flipped bits: every decode ends (true or false), none reads out of bounds.
  for (size_t cut : {size_t(1), bytes.size() / 3, bytes.size() - 1}) {
    BitIn short_in(bytes.data(), bytes.data() + cut);
    uint64_t p = groups[0].top;
    size_t decoded = 0;
    while (decoded < groups.size() && posindex::format::decode_group(short_in, g, p, c)) p = g.top, ++decoded;
    EXPECT_LT(decoded, groups.size());
  }
  std::string flipped = bytes;
  for (size_t i = 0; i < flipped.size(); i += 17) flipped[i] = char(~flipped[i]);
  BitIn bad(flipped.data(), flipped.data() + flipped.size());
  uint64_t p = groups[0].top;
  for (size_t i = 0; i < groups.size() && posindex::format::decode_group(bad, g, p, c); ++i) p = g.top;
}

// Positions reached by a single game of a segment are singletons: the lookup returns them as
// unknown, the tree replays their games and equals the replay of every game.
TEST(PositionIndexV3, SingletonPositionsAreReplayedByTheTree) {
  cqltest::CorpusDb db("pidx3-single", {cqltest::corpus_file("annotated.pgn")});
  const auto index = posindex::PositionIndex::open(db.dir() / "db");
  ASSERT_TRUE(index.has_value());
  const db::GameReader reader = db.database().reader();
  std::vector<uint32_t> all(reader.game_count());
  std::iota(all.begin(), all.end(), 1u);
  size_t singletons = 0;
  for (uint32_t id = 5; id <= reader.game_count() && singletons < 8; id += 211) {
    std::vector<chess::Position> line;
    if (!db.replay(id, line) || line.size() <= 36) continue;
    const chess::Position& pos = line[36];
    std::vector<posindex::PositionHit> hits;
    index->lookup(chess::identity_key(pos), hits);
    // Reached by several games: known. Else unknown entries only: this game's, and with 16
    // top bits (version 5) maybe other games' positions of the same top.
    if (hits.empty() || std::any_of(hits.begin(), hits.end(), [](const auto& h) { return h.known; })) continue;
    EXPECT_TRUE(std::any_of(hits.begin(), hits.end(), [&](const auto& h) { return h.game == id; })) << pos.fen();
    ++singletons;
    const posindex::Tree tree = posindex::build_tree(*index, reader, pos);
    const posindex::Tree replayed = posindex::replay_tree(*index, reader, pos, all);
    EXPECT_GE(tree.total.games, 1u) << pos.fen();
    EXPECT_EQ(tree.total.games, replayed.total.games) << pos.fen();
    EXPECT_EQ(tree.index_hits, 0u) << pos.fen();
    EXPECT_GE(tree.replayed, 1u) << pos.fen();
    ASSERT_EQ(tree.moves.size(), replayed.moves.size()) << pos.fen();
    for (size_t i = 0; i < tree.moves.size(); ++i) {
      EXPECT_EQ(tree.moves[i].move, replayed.moves[i].move) << pos.fen();
      EXPECT_EQ(tree.moves[i].stats.games, replayed.moves[i].stats.games) << pos.fen();
    }
    EXPECT_EQ(tree.ended, replayed.ended) << pos.fen();
  }
  EXPECT_GE(singletons, 4u);
}

// Segment A (games 1-2) reaches P and Q once each: singletons. Segment B (games 3-5) reaches P
// twice (by transposition, with two different next moves) and Q once. The merge gives P one
// group mixing game 1's unknown entry with the known entries of games 3 and 4, and Q a group of
// two unknown entries; lookups, trees and `cqldb check` agree with the games.
TEST(PositionIndexV3, MergeMixesKnownAndUnknownEntries) {
  cqltest::TempDir dir("pidx3-merge");
  const std::string a = (dir.path / "a.pgn").string(), b = (dir.path / "b.pgn").string();
  {
    std::ofstream out(a);
    out << "[Event \"a1\"]\n[Result \"1-0\"]\n\n1. a3 a6 2. h3 h6 3. e4 e5 1-0\n\n"
        << "[Event \"a2\"]\n[Result \"0-1\"]\n\n1. b3 b6 2. g3 g6 3. c4 0-1\n\n";
    std::ofstream out_b(b);
    out_b << "[Event \"b3\"]\n[Result \"1/2-1/2\"]\n\n1. h3 h6 2. a3 a6 3. d4 1/2-1/2\n\n"
          << "[Event \"b4\"]\n[Result \"1-0\"]\n\n1. h3 a6 2. a3 h6 3. c4 1-0\n\n"
          << "[Event \"b5\"]\n[Result \"1-0\"]\n\n1. g3 g6 2. b3 b6 3. e4 1-0\n\n";
  }
  cqltest::CorpusDb db("pidx3-merge-db", {a});
  const import::ImportSummary second = db.add_files({b});
  ASSERT_EQ(db.game_count(), 5u);
  EXPECT_EQ(second.positions.merges, 0u);  // 2 <= 3 is due: left to the next import
  EXPECT_EQ(second.positions.segments, 2u);
  // The next import merges them while it reads (a game reaching neither position below).
  const std::string c = (dir.path / "c.pgn").string();
  std::ofstream(c) << "[Event \"c6\"]\n[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n";
  const import::ImportSummary third = db.add_files({c});
  ASSERT_EQ(db.game_count(), 6u);
  EXPECT_EQ(third.positions.merges, 1u);
  EXPECT_EQ(third.positions.segments, 2u);  // 1..5 and 6
  const auto index = posindex::PositionIndex::open(db.dir() / "db");
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->verify(), "");
  const db::GameReader reader = db.database().reader();
  const std::vector<uint32_t> all = {1, 2, 3, 4, 5};

  const chess::Position p = position_after({"a3", "a6", "h3", "h6"});
  std::vector<posindex::PositionHit> hits;
  index->lookup(chess::identity_key(p), hits);
  ASSERT_EQ(hits.size(), 3u);
  EXPECT_EQ(hits[0].game, 1u);
  EXPECT_FALSE(hits[0].known);
  EXPECT_EQ(hits[1].game, 3u);
  EXPECT_TRUE(hits[1].known);
  EXPECT_EQ(san_of(p, hits[1].next), "d4");
  EXPECT_EQ(hits[2].game, 4u);
  EXPECT_TRUE(hits[2].known);
  EXPECT_EQ(san_of(p, hits[2].next), "c4");
  posindex::Tree tree = posindex::build_tree(*index, reader, p);
  posindex::Tree replayed = posindex::replay_tree(*index, reader, p, all);
  EXPECT_EQ(tree.total.games, 3u);
  EXPECT_EQ(tree.index_hits, 2u);
  EXPECT_EQ(tree.replayed, 1u);
  EXPECT_EQ(tree.total.white, 2u);
  EXPECT_EQ(tree.total.draws, 1u);
  ASSERT_EQ(tree.moves.size(), 3u);
  ASSERT_EQ(replayed.moves.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(tree.moves[i].move, replayed.moves[i].move);
    EXPECT_EQ(tree.moves[i].stats.games, 1u);
  }

  const chess::Position q = position_after({"b3", "b6", "g3", "g6"});
  hits.clear();
  index->lookup(chess::identity_key(q), hits);
  ASSERT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits[0].game, 2u);
  EXPECT_EQ(hits[1].game, 5u);
  EXPECT_FALSE(hits[0].known || hits[1].known);
  tree = posindex::build_tree(*index, reader, q);
  replayed = posindex::replay_tree(*index, reader, q, all);
  EXPECT_EQ(tree.total.games, 2u);
  EXPECT_EQ(tree.replayed, 2u);
  ASSERT_EQ(tree.moves.size(), 2u);
  EXPECT_EQ(tree.total.black, 1u);
  for (size_t i = 0; i < 2; ++i) EXPECT_EQ(tree.moves[i].move, replayed.moves[i].move);

  // A position of no game: nothing (no false unknown hit among six games).
  hits.clear();
  index->lookup(chess::identity_key(position_after({"a4", "a5"})), hits);
  EXPECT_TRUE(hits.empty());
  // Queries with the planner equal the replay.
  for (const chess::Position& pos : {p, q}) {
    const std::string script = "(match (position :fen \"" + pos.fen() + "\"))";
    EXPECT_EQ(db.query(script, true), db.query(script, false)) << pos.fen();
  }
}

// Damaged bits inside a segment block are reported by verify() (`cqldb check`), naming the
// segment; the rest of the index is still opened.
TEST(PositionIndexV3, VerifyReportsDamagedBlocks) {
  cqltest::CorpusDb db("pidx3-damage", {cqltest::corpus_file("mates.pgn")});
  const std::filesystem::path dir = db.dir() / "db";
  std::filesystem::path segment;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".seg" && e.path().filename().string().rfind("positions-", 0) == 0) segment = e.path();
  ASSERT_FALSE(segment.empty());
  EXPECT_EQ(posindex::PositionIndex::open(dir)->verify(), "");
  std::string bytes;
  {
    std::ifstream in(segment, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  uint32_t directory;
  std::memcpy(&directory, bytes.data() + 24, 4);  // the header's directory offset
  ASSERT_GT(directory, 200u);
  for (size_t i = directory / 2; i < directory / 2 + 40; ++i) bytes[i] = char(0xFF);
  {
    std::ofstream out(segment, std::ios::binary | std::ios::trunc);
    out << bytes;
  }
  const auto index = posindex::PositionIndex::open(dir);
  ASSERT_TRUE(index.has_value());
  const std::string problem = index->verify();
  EXPECT_NE(problem.find(segment.filename().string()), std::string::npos) << problem;
}

// Facts pack into 12 bytes (version 4): every field of a real game round-trips; a count too
// large for its bits reads back as "any number"; the candidates' packed test agrees with
// GameFacts::may_reach_later() for every pair of random facts and targets.
TEST(PositionIndexCodec, FactsPackIntoTwelveBytesAndThePackedTestAgrees) {
  using posindex::GameFacts;
  namespace fmt = posindex::format;
  std::mt19937_64 rng(5);
  auto random_frontier = [&](bool wide) {
    chess::Frontier t;
    t.castling = uint8_t(rng() % 16);
    t.white_home = uint8_t(rng());
    t.black_home = uint8_t(rng());
    t.white_men = uint8_t(rng() % (wide ? 40 : 17));
    t.black_men = uint8_t(rng() % (wide ? 40 : 17));
    t.white_pawns = uint8_t(rng() % (wide ? 20 : 9));
    t.black_pawns = uint8_t(rng() % (wide ? 20 : 9));
    return t;
  };
  for (int i = 0; i < 20000; ++i) {
    GameFacts f;
    f.white_elo = uint16_t(rng());
    f.black_elo = uint16_t(rng());
    f.year = uint16_t(rng());
    f.result = uint8_t(rng() % 4);
    f.flags = uint8_t(rng() % 4);
    f.frontier = random_frontier(i % 4 == 0);
    char packed[fmt::kFactsBytes];
    fmt::encode_facts(f, packed);
    const GameFacts back = fmt::decode_facts(packed);
    EXPECT_EQ(back.white_elo, f.white_elo);
    EXPECT_EQ(back.black_elo, f.black_elo);
    EXPECT_EQ(back.year, f.year);
    EXPECT_EQ(back.result, f.result);
    EXPECT_EQ(back.flags, f.flags);
    EXPECT_EQ(back.frontier.castling, f.frontier.castling);
    EXPECT_EQ(back.frontier.white_home, f.frontier.white_home);
    EXPECT_EQ(back.frontier.black_home, f.frontier.black_home);
    auto count = [](uint8_t stored, uint8_t real, unsigned bits) {
      return real >= (1u << bits) - 1 ? stored == 255 : stored == real;
    };
    EXPECT_TRUE(count(back.frontier.white_men, f.frontier.white_men, 5));
    EXPECT_TRUE(count(back.frontier.black_men, f.frontier.black_men, 5));
    EXPECT_TRUE(count(back.frontier.white_pawns, f.frontier.white_pawns, 4));
    EXPECT_TRUE(count(back.frontier.black_pawns, f.frontier.black_pawns, 4));
    // Subsets are likely with a target made of the facts' own frontier, minus some bits.
    chess::Frontier target = i % 2 ? random_frontier(i % 8 == 1) : f.frontier;
    if (i % 2 == 0) {
      target.castling &= uint8_t(rng());
      target.white_home &= uint8_t(rng());
      target.black_home &= uint8_t(rng());
      target.white_men = uint8_t(target.white_men - (target.white_men ? rng() % 2 : 0));
    }
    EXPECT_EQ(fmt::packed_may_reach_later(packed, fmt::saturated_target(target)), back.may_reach_later(target)) << i;
    // A saturated count only ever widens what may follow (a superset of the exact rule).
    if (f.may_reach_later(target)) {
      EXPECT_TRUE(back.may_reach_later(target)) << i;
    }
  }
}

// Several groups under the wanted top (common with 24 top bits, the rule with 16): lookup()
// returns the exact group's hits and the other groups' unknown entries, those of the top's
// group without low bits (version 5: its keys reached once) included, in the order a stable
// sort by game, known first, gives (it merges the groups' runs instead of sorting them all).
TEST(PositionIndexV3, HitsOfSeveralGroupsOfOneTopAreMergedInOrder) {
  namespace fmt = posindex::format;
  cqltest::TempDir dir("pidx4-runs");
  const uint32_t games = 300;
  const uint64_t top = 0xABCD, wanted_low = 0x5555;
  static_assert(0xABCD < (uint64_t(1) << posindex::kTopKeyBits));
  std::vector<Group> groups(5);
  groups[0].top = top - 7;  // another top: none of its entries is a hit
  groups[0].has_low = true;
  groups[0].low = 1;
  for (uint32_t g : {2u, 9u}) groups[0].entries.push_back({g, 12, true});
  groups[1].top = top;  // another position of the top: its unknown entries are hits
  groups[1].has_low = true;
  groups[1].low = wanted_low - 1;
  for (uint32_t g = 3; g <= games; g += 37) groups[1].entries.push_back({g, uint16_t(g % 5 ? 77 : 0), g % 5 != 0});
  groups[2].top = top;  // the wanted position: every game, a few twice
  groups[2].has_low = true;
  groups[2].low = wanted_low;
  for (uint32_t g = 1; g <= games; ++g) {
    groups[2].entries.push_back({g, 100, true});
    if (g % 50 == 0) groups[2].entries.push_back({g, 200, true});
  }
  groups[3].top = top;  // a third position with unknown entries
  groups[3].has_low = true;
  groups[3].low = wanted_low + 1;
  for (uint32_t g = 40; g <= games; g += 41) groups[3].entries.push_back({g, uint16_t(g % 3 ? 5 : 0), g % 3 != 0});
  groups[4].top = top;  // the top's keys reached once: unknown entries, no low bits
  for (uint32_t g = 5; g <= games; g += 29) groups[4].entries.push_back({g, 0, false});
  {
    fmt::SegmentWriter writer(dir.path / fmt::segment_name(1, games), 1, games, 1000);
    for (const Group& g : groups) writer.add(g);
    writer.finish();
    std::string manifest(fmt::kManifestMagic, 8);
    for (uint32_t v : {posindex::kPositionIndexVersion, posindex::kIndexedPlies, games, 1u, 1u, games})
      fmt::append_le<uint32_t>(manifest, v);
    std::ofstream(dir.path / posindex::kManifestFile, std::ios::binary) << manifest;
    std::string facts(fmt::kFactsMagic, 8);
    fmt::append_le<uint32_t>(facts, posindex::kPositionIndexVersion);
    fmt::append_le<uint32_t>(facts, 0);
    facts.append(size_t(games) * fmt::kFactsBytes, '\0');
    std::ofstream(dir.path / posindex::kFactsFile, std::ios::binary) << facts;
  }
  const auto index = posindex::PositionIndex::open(dir.path);
  ASSERT_TRUE(index.has_value());
  EXPECT_EQ(index->verify(), "");
  std::vector<posindex::PositionHit> expected;
  for (const Group* g : {&groups[1], &groups[2], &groups[3], &groups[4]})
    for (const GroupEntry& e : g->entries) {
      if (g == &groups[2]) expected.push_back({e.game, chess::Move(e.move), true});
      else if (!e.known) expected.push_back({e.game, chess::Move::none(), false});
    }
  std::stable_sort(expected.begin(), expected.end(), [](const auto& x, const auto& y) {
    return x.game != y.game ? x.game < y.game : x.known > y.known;
  });
  std::vector<posindex::PositionHit> hits;
  index->lookup(top << posindex::format::kLowKeyBits | wanted_low, hits);
  ASSERT_EQ(hits.size(), expected.size());
  for (size_t i = 0; i < hits.size(); ++i) {
    EXPECT_EQ(hits[i].game, expected[i].game) << i;
    EXPECT_EQ(hits[i].known, expected[i].known) << i;
    EXPECT_EQ(hits[i].next, expected[i].next) << i;
  }
}
