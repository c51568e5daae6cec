// Transformations of designators: symmetries, edge-rule shifts, colour flip, keyword sets and
// their composition. See transform.h for the definitions (seed 003, SPEC "Transformations").
#include "eval/transform.h"

#include <string>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <utility>

#include "chess/bitboard.h"

namespace eval {

namespace {

using chess::Bitboard;
using chess::Square;

using Relation = std::array<uint8_t, 8>;  // bit j of rel[i]: coordinate i goes to j

constexpr Relation kIdentityRelation = {1, 2, 4, 8, 16, 32, 64, 128};

// One edge-rule unit step on a coordinate 0..7 towards higher values (right / up): every
// coordinate moves up by one, the top one vanishes, the bottom one also stays.
constexpr Relation kStepUp = {0b00000011, 0b00000100, 0b00001000, 0b00010000,
                              0b00100000, 0b01000000, 0b10000000, 0b00000000};
// The mirror image: towards lower values (left / down).
constexpr Relation kStepDown = {0b00000000, 0b00000001, 0b00000010, 0b00000100,
                                0b00001000, 0b00010000, 0b00100000, 0b11000000};

// The relation "first a, then b".
Relation then_rel(const Relation& a, const Relation& b) {
  Relation out{};
  for (int i = 0; i < 8; ++i)
    for (int j = 0; j < 8; ++j)
      if (a[i] & (1u << j)) out[i] |= b[j];
  return out;
}

// Reverses the bit order of a coordinate mask (coordinate j -> 7 - j).
uint8_t mirror_mask(uint8_t m) {
  uint8_t out = 0;
  for (int j = 0; j < 8; ++j)
    if (m & (1u << j)) out |= uint8_t(1u << (7 - j));
  return out;
}

// The relation conjugated by the mirror c -> 7 - c.
Relation mirrored(const Relation& r) {
  Relation out{};
  for (int i = 0; i < 8; ++i) out[i] = mirror_mask(r[7 - i]);
  return out;
}

// `steps` edge-rule unit steps towards higher (steps > 0) or lower coordinates.
Relation steps(int n) {
  Relation r = kIdentityRelation;
  for (int k = 0; k < std::abs(n); ++k) r = then_rel(r, n > 0 ? kStepUp : kStepDown);
  return r;
}

// True (with `n` set) if the relation is `n` unit steps for some n in -7..7.
bool as_steps(const Relation& r, int& n) {
  for (int k = -7; k <= 7; ++k)
    if (steps(k) == r) {
      n = k;
      return true;
    }
  return false;
}

std::string relation_string(const Relation& r) {
  std::string s = "{";
  for (int i = 0; i < 8; ++i) {
    if (i) s += ',';
    s += char('0' + i);
    s += "->";
    for (int j = 0; j < 8; ++j)
      if (r[i] & (1u << j)) s += char('0' + j);
  }
  return s + "}";
}

constexpr std::string_view kDihedralNames[8] = {"identity",    "flipvertical",   "fliphorizontal",
                                                "rotate180",   "flipdiagonal",   "rotateleft",
                                                "rotateright", "flipoffdiagonal"};

}  // namespace

chess::Square apply(Dihedral d, chess::Square s) {
  int f = chess::file_of(s), r = chess::rank_of(s);
  const unsigned bits = unsigned(d);
  if (bits & 4) std::swap(f, r);
  if (bits & 1) f = 7 - f;
  if (bits & 2) r = 7 - r;
  return chess::make_square(chess::File(f), chess::Rank(r));
}

Dihedral compose(Dihedral first, Dihedral second) {
  // b3 has 8 distinct images under the 8 symmetries, so it identifies the composite.
  const Square target = apply(second, apply(first, chess::SQ_B3));
  for (unsigned e = 0; e < 8; ++e)
    if (apply(Dihedral(e), chess::SQ_B3) == target) return Dihedral(e);
  assert(false && "the dihedral group is closed");
  return Dihedral::kIdentity;
}

Transform::Transform()
    : symmetry_(Dihedral::kIdentity),
      color_flip_(false),
      file_image_(kIdentityRelation),
      rank_image_(kIdentityRelation) {}

Transform Transform::dihedral(Dihedral d) {
  Transform t;
  t.symmetry_ = d;
  return t;
}

Transform Transform::shift(int dx, int dy) {
  Transform t;
  t.file_image_ = steps(dx);
  t.rank_image_ = steps(dy);
  return t;
}

Transform Transform::color_flip() {
  Transform t = dihedral(Dihedral::kFlipHorizontal);
  t.color_flip_ = true;
  return t;
}

Transform Transform::then(const Transform& next) const {
  // next o this = S2 o d2 o S1 o d1 with S = file x rank relation. Move d2 in front of S1:
  // d2 o S1 = S1' o d2, where S1' is S1 conjugated by d2 (transpose first, then mirrors).
  Relation f1 = file_image_, r1 = rank_image_;
  const unsigned d2 = unsigned(next.symmetry_);
  if (d2 & 4) std::swap(f1, r1);
  if (d2 & 1) f1 = mirrored(f1);
  if (d2 & 2) r1 = mirrored(r1);

  Transform out;
  out.symmetry_ = compose(symmetry_, next.symmetry_);
  out.color_flip_ = color_flip_ != next.color_flip_;
  out.file_image_ = then_rel(f1, next.file_image_);
  out.rank_image_ = then_rel(r1, next.rank_image_);
  return out;
}

chess::Bitboard Transform::apply(chess::Bitboard squares) const {
  const bool plain = file_image_ == kIdentityRelation && rank_image_ == kIdentityRelation;
  Bitboard out = 0;
  for (Bitboard b = squares; b;) {
    const Square s = eval::apply(symmetry_, chess::pop_lsb(b));
    if (plain) {
      out |= chess::square_bb(s);
      continue;
    }
    const Bitboard files = file_image_[chess::file_of(s)];
    for (uint8_t ranks = rank_image_[chess::rank_of(s)]; ranks; ranks &= uint8_t(ranks - 1))
      out |= files << (8 * std::countr_zero(unsigned(ranks)));
  }
  return out;
}

PieceMask Transform::apply(PieceMask mask) const {
  return color_flip_ ? cql::swap_colors(mask) : mask;
}

bool Transform::is_identity() const {
  return *this == Transform();
}

bool Transform::is_bijective() const {
  return file_image_ == kIdentityRelation && rank_image_ == kIdentityRelation;
}

std::string Transform::to_string() const {
  std::string out;
  auto add = [&out](std::string_view part) {
    if (!out.empty()) out += '+';
    out += part;
  };
  if (symmetry_ != Dihedral::kIdentity) add(kDihedralNames[unsigned(symmetry_)]);
  if (!is_bijective()) {
    int dx = 0, dy = 0;
    if (as_steps(file_image_, dx) && as_steps(rank_image_, dy)) {
      auto sign = [](int v) { return (v >= 0 ? "+" : "") + std::to_string(v); };
      add("shift(" + sign(dx) + "," + sign(dy) + ")");
    } else {
      add("files" + relation_string(file_image_) + "ranks" + relation_string(rank_image_));
    }
  }
  if (color_flip_) add("swapcolors");
  return out.empty() ? "identity" : out;
}

size_t Transform::hash() const {
  uint64_t h = uint64_t(symmetry_) | (uint64_t(color_flip_) << 3);
  for (int i = 0; i < 8; ++i) h = h * 0x100000001B3ull ^ file_image_[i];
  for (int i = 0; i < 8; ++i) h = h * 0x100000001B3ull ^ rank_image_[i];
  return size_t(h ^ (h >> 29));
}

std::string_view keyword_name(TransformKeyword k) {
  switch (k) {
    case TransformKeyword::kFlip:
      return ":flip";
    case TransformKeyword::kFlipHorizontal:
      return ":fliphorizontal";
    case TransformKeyword::kFlipVertical:
      return ":flipvertical";
    case TransformKeyword::kFlipDiagonal:
      return ":flipdiagonal";
    case TransformKeyword::kFlipColor:
      return ":flipcolor";
    case TransformKeyword::kShift:
      return ":shift";
    case TransformKeyword::kShiftHorizontal:
      return ":shifthorizontal";
    case TransformKeyword::kShiftVertical:
      return ":shiftvertical";
    case TransformKeyword::kShiftMainDiagonal:
      return ":shiftmaindiagonal";
    case TransformKeyword::kShiftOffDiagonal:
      return ":shiftoffdiagonal";
    case TransformKeyword::kShiftDiagonal:
      return ":shiftdiagonal";
  }
  return "?";
}

std::vector<Transform> transform_set(TransformKeyword k) {
  std::vector<Transform> set{Transform()};
  // Adds shift(k*ux, k*uy) and shift(-k*ux, -k*uy) for k = 1..7.
  auto add_line = [&set](int ux, int uy) {
    for (int n = 1; n <= 7; ++n) {
      set.push_back(Transform::shift(n * ux, n * uy));
      set.push_back(Transform::shift(-n * ux, -n * uy));
    }
  };
  switch (k) {
    case TransformKeyword::kFlip:
      for (unsigned d = 1; d < 8; ++d) set.push_back(Transform::dihedral(Dihedral(d)));
      break;
    case TransformKeyword::kFlipHorizontal:
      set.push_back(Transform::dihedral(Dihedral::kFlipHorizontal));
      break;
    case TransformKeyword::kFlipVertical:
      set.push_back(Transform::dihedral(Dihedral::kFlipVertical));
      break;
    case TransformKeyword::kFlipDiagonal:
      set.push_back(Transform::dihedral(Dihedral::kFlipDiagonal));
      set.push_back(Transform::dihedral(Dihedral::kFlipOffDiagonal));
      break;
    case TransformKeyword::kFlipColor:
      set.push_back(Transform::color_flip());
      break;
    case TransformKeyword::kShift:
      for (int dx = -7; dx <= 7; ++dx)
        for (int dy = -7; dy <= 7; ++dy)
          if (dx != 0 || dy != 0) set.push_back(Transform::shift(dx, dy));
      break;
    case TransformKeyword::kShiftHorizontal:
      add_line(1, 0);
      break;
    case TransformKeyword::kShiftVertical:
      add_line(0, 1);
      break;
    case TransformKeyword::kShiftMainDiagonal:
      add_line(1, 1);
      break;
    case TransformKeyword::kShiftOffDiagonal:
      add_line(1, -1);
      break;
    case TransformKeyword::kShiftDiagonal:
      add_line(1, 1);
      add_line(1, -1);
      break;
  }
  return set;
}

std::vector<Transform> compose_sets(std::span<const std::vector<Transform>> sets) {
  const size_t n = sets.size();
  if (n > kMaxTransformKeywords)
    throw TransformLimitError("too many transformation keywords in one position list (" + std::to_string(n) +
                              "; at most " + std::to_string(kMaxTransformKeywords) + ")");
  size_t steps = 0;
  // results[m]: every composition of one element of each set in m, in every order.
  // results[m] = union over i in m of { x then t : x in results[m - i], t in sets[i] }.
  std::vector<std::vector<Transform>> results(size_t(1) << n);
  results[0] = {Transform()};
  for (size_t m = 1; m < results.size(); ++m) {
    std::unordered_set<Transform, TransformHash> seen;
    std::vector<Transform>& out = results[m];
    for (size_t i = 0; i < n; ++i) {
      if (!(m & (size_t(1) << i))) continue;
      for (const Transform& x : results[m & ~(size_t(1) << i)])
        for (const Transform& t : sets[i]) {
          if (++steps > kMaxComposeSteps)
            throw TransformLimitError("the transformation keywords of this position list give too many variants "
                                      "to compose (more than " + std::to_string(kMaxComposeSteps) + " steps)");
          Transform c = x.then(t);
          if (seen.insert(c).second) out.push_back(c);
        }
    }
  }
  std::vector<Transform> all = std::move(results.back());
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].is_identity()) {
      std::rotate(all.begin(), all.begin() + i, all.begin() + i + 1);
      break;
    }
  return all;
}

std::vector<Transform> compose(std::span<const TransformKeyword> keywords) {
  std::vector<std::vector<Transform>> sets;
  sets.reserve(keywords.size());
  for (TransformKeyword k : keywords) sets.push_back(transform_set(k));
  return compose_sets(sets);
}

}  // namespace eval
