// filter_pawns computes most pawn attributes for the whole set at once (bitboard spans and
// file/rank counts): on every main-line position of the studies and the first 150 annotated
// games, for every structure attribute in every written form, it keeps exactly the pawns
// that pass the attribute judged pawn by pawn (pawn_has_attribute).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "chess/position.h"
#include "cql/pawn_attributes.h"
#include "db/record_view.h"
#include "eval/pawn_structure.h"
#include "eval_test_util.h"
#include "import/game_builder.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"

namespace {

using chess::Bitboard;
using cql::PawnAttr;
using cql::PawnAttribute;

/// Every structure attribute (no counting modifiers) plain, negated, exact, and with counts.
std::vector<PawnAttribute> all_forms() {
  std::vector<PawnAttribute> forms;
  for (int x = int(PawnAttr::Single); x <= int(PawnAttr::Rear); ++x) {
    for (int negated = 0; negated < 2; ++negated)
      for (int exact = 0; exact < 2; ++exact)
        for (int count : {0, 2, 3}) {
          PawnAttribute a;
          a.attr = PawnAttr(x);
          a.negated = negated;
          a.exact = exact;
          if (count) a.count = count;
          forms.push_back(a);
        }
  }
  return forms;
}

TEST(PawnFilterCorpus, WholeSetAttributesEqualPawnByPawn) {
  const std::vector<PawnAttribute> forms = all_forms();
  size_t checked = 0;
  uint64_t mix = 0x9E3779B97F4A7C15ull;  // subsets of the pawns, varied per position
  for (const auto& [file, limit] : {std::pair{"studies.pgn", 1000}, {"annotated.pgn", 150}}) {
    cqltest::for_each_corpus_position(file, limit, [&](chess::Position& pos) {
      for (chess::Color c : {chess::WHITE, chess::BLACK}) {
        const Bitboard pawns = pos.pieces(c, chess::PAWN);
        mix = mix * 6364136223846793005ull + 1442695040888963407ull;
        for (Bitboard set : {pawns, pawns & mix, pawns & ~(mix >> 7)}) {
          for (const PawnAttribute& a : forms) {
            Bitboard expected = 0;
            for (Bitboard b = set; b;) {
              const chess::Square s = chess::pop_lsb(b);
              if (eval::pawn_has_attribute(pos, c, set, s, a)) expected |= chess::square_bb(s);
            }
            const PawnAttribute one[] = {a};
            ++checked;
            ASSERT_EQ(eval::filter_pawns(pos, c, set, one), expected)
                << pos.fen() << " attribute " << int(a.attr) << (a.negated ? " negated" : "")
                << (a.exact ? " exact" : "") << " count " << a.count.value_or(0);
          }
        }
      }
    });
  }
  EXPECT_GT(checked, 500000u);
}

}  // namespace
