// Issue 21 fast paths compared with the slow paths they replace, on real games (the first
// games of players-344k, tests/eval_corpus_slice.h):
//  - the variant index of transformed position lists (eval/variant_index.h) offers every
//    variant that matches, so list matching and :accumulate counting through it equal
//    trying every variant;
//  - relations decided through position keys (eval/relation.h exact_image) equal comparing
//    P1 with every later position by relates().
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "eval/accumulator.h"
#include "eval/node.h"
#include "eval/relation.h"
#include "eval_corpus_slice.h"
#include "eval_test_util.h"

namespace {

/// Games of the slice the comparisons replay (every pair of positions for relations).
constexpr uint32_t kGames = 1500;

/// True if every node of `variant` matches at `c` (the slow path: no index).
bool all_match(const std::vector<eval::Node>& variant, const eval::PosCtx& c) {
  return std::all_of(variant.begin(), variant.end(), [&](const eval::Node& n) { return n.match(c); });
}

/// Calls `on_position(c)` for every main-line position of the first kGames slice games.
template <class F>
void each_position(F&& on_position) {
  cqltest::CorpusSlice::get().for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
    if (id > kGames) return;
    for (size_t p = 0; p < line.size(); ++p) {
      eval::PosCtx c;
      c.pos = &line[p];
      c.ply = uint32_t(p);
      c.last_ply = uint32_t(line.size() - 1);
      on_position(c);
    }
  });
}

TEST(HeavyQueries, VariantIndexOffersEveryMatchingVariant) {
  for (const std::string list : {
           "Nd4 kf3 :shift :flip :flipcolor",  // the query: two single-square keys
           "Ke4 ke6 :shift :flip :wtm",
           "K[a-h1] k[a-h8] Ra3 :flip",
           "R?7 k?8 :flipcolor :shiftvertical",
           "Qh7 kg8 Bd3 :flip :flipcolor",
           "Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 :shift :flipcolor",
       }) {
    const eval::Program program = cqltest::compile("(match (position " + list + "))");
    const eval::PositionList& compiled = *program.alternatives().at(0).lists.at(0);
    ASSERT_TRUE(compiled.index.active()) << list;
    uint64_t positions = 0, matches = 0, offered = 0, matching_variants = 0;
    std::vector<uint32_t> scratch, via_index;
    each_position([&](const eval::PosCtx& c) {
      ++positions;
      via_index.clear();
      compiled.index.for_each(*c.pos, scratch, [&](uint32_t v) { via_index.push_back(v); });
      offered += via_index.size();
      std::sort(via_index.begin(), via_index.end());  // for_each offers each variant once, in any order
      EXPECT_TRUE(std::adjacent_find(via_index.begin(), via_index.end()) == via_index.end())
          << list << ": a variant offered twice";
      bool any = false;
      for (uint32_t v = 0; v < compiled.variants.size(); ++v) {
        if (!all_match(compiled.variants[v], c)) continue;
        any = true;
        ++matching_variants;
        EXPECT_TRUE(std::binary_search(via_index.begin(), via_index.end(), v))
            << list << ": variant " << v << " matches but is not offered";
      }
      matches += any;
      EXPECT_EQ(compiled.match(c), any) << list;
    });
    EXPECT_GT(matches, 0u) << list;
    // two single-square keys: on average less than one variant is tried per position
    if (list.starts_with("Nd4 kf3")) {
      EXPECT_LT(offered, positions) << list;
    }
    std::printf("%s: %zu variants, %llu positions, %llu match (%llu variants), %.2f variants tried per position\n",
                list.c_str(), compiled.variants.size(), (unsigned long long)positions, (unsigned long long)matches,
                (unsigned long long)matching_variants, double(offered) / double(positions));
  }
}

TEST(HeavyQueries, AccumulateCountsEqualEveryVariantTried) {
  const eval::Program program = cqltest::compile(
      "(match (position :sumrange counter 3 8 Pd2 :piececount [pP][d3-7] 0 :piececount p[c3-7,e3-7] 0 "
      ":shift :flipcolor :accumulate* counter))");
  const auto& lists = program.alternatives().at(0).accumulating;
  ASSERT_EQ(lists.size(), 1u);
  ASSERT_TRUE(lists[0]->index.active());
  eval::Accumulators fast, slow;
  fast.counts.assign(program.accumulator_counters(), 0);
  uint64_t counted = 0;
  each_position([&](eval::PosCtx c) {
    c.accumulators = &fast;
    eval::accumulate(lists, c, fast);
    slow.counts.assign(program.accumulator_counters(), 0);
    slow.counting = true;
    c.accumulators = &slow;
    for (const auto& variant : lists[0]->variants) {
      if (!all_match(variant, c)) continue;
      for (const eval::Node& n : variant)
        if (n.op == eval::Op::kAccumulate) ++slow.counts[n.as<eval::payload::Counter>().index];
    }
    ASSERT_EQ(fast.counts, slow.counts) << c.pos->fen();
    for (int64_t n : fast.counts) counted += uint64_t(n);
  });
  EXPECT_GT(counted, 1000u);  // passed pawns are counted
}

TEST(HeavyQueries, RelationKeysEqualComparingEveryLaterPosition) {
  for (const std::string list : {
           "K[a-h1] k[a-h8] :relation (:pattern :flip :ignoresidetomove :originaldifferentcount >=2)",
           "K[a-h1] k[a-h8] :relation (:pattern :flip :ignoresidetomove)",
           ":relation (:changesidetomove)",
           ":relation ()",
           ":relation (:flip :ignoresidetomove)",
           "R[a-h1] :relation (:pattern :originalsamecount 1 3 :changesidetomove)",
       }) {
    const eval::Program program = cqltest::compile("(match (position " + list + "))");
    ASSERT_EQ(program.relations().size(), 1u) << list;
    const eval::RelationSpec& spec = *program.relations()[0];
    ASSERT_TRUE(eval::exact_image(spec)) << list;
    uint64_t pairs_related = 0;
    eval::RelationLine fast;
    std::vector<eval::PosCtx> contexts;
    std::vector<eval::RelationBoard> boards;
    cqltest::CorpusSlice::get().for_each_game([&](uint32_t id, const std::vector<chess::Position>& line) {
      if (id > kGames) return;
      contexts.assign(line.size(), {});
      boards.clear();
      for (size_t p = 0; p < line.size(); ++p) {
        contexts[p].pos = &line[p];
        contexts[p].ply = uint32_t(p);
        boards.push_back(eval::relation_board(line[p], 0, uint32_t(p)));
      }
      fast.reset(program.relations(), contexts, {});
      for (size_t p = 0; p < line.size(); ++p) {
        bool slow = false;
        for (size_t q = p + 1; q < line.size() && !slow; ++q) slow = eval::relates(spec, boards[p], boards[q]);
        pairs_related += slow;
        ASSERT_EQ(fast.at(0, p), slow) << list << ": game " << id << " ply " << p;
      }
    });
    EXPECT_GT(pairs_related, 0u) << list;
  }
}

}  // namespace
