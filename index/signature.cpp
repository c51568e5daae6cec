#include "index/signature.h"

#include <algorithm>
#include <cassert>

#include "chess/bitboard.h"
#include "db/schema.h"

namespace sig {

static_assert(kSignatureFormatVersion == db::schema::kSignatureFormatVersion,
              "bump db::schema::kSignatureFormatVersion together with the signature encoding");

const MaterialRun& Signature::run_at(uint32_t p) const {
  assert(!material.empty() && p <= plies);
  auto it =
      std::upper_bound(material.begin(), material.end(), p,
                       [](uint32_t ply, const MaterialRun& run) { return ply < run.first_ply; });
  return *(it - 1);
}

chess::Rank Signature::most_advanced_rank(chess::Color c, chess::File f) const {
  const chess::Bitboard pawns = ever[chess::make_piece(c, chess::PAWN)] & chess::file_bb(f);
  if (!pawns) return chess::RANK_1;
  return chess::relative_rank(
      c, chess::rank_of(c == chess::WHITE ? chess::msb(pawns) : chess::lsb(pawns)));
}

void Signature::clear() {
  std::vector<MaterialRun> runs = std::move(material);
  runs.clear();
  *this = Signature();
  material = std::move(runs);
}

}  // namespace sig
