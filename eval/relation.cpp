#include "eval/relation.h"

#include <algorithm>
#include <cstring>

#include "chess/bitboard.h"
#include "eval/transform.h"

namespace eval {

namespace {

constexpr uint8_t kKind = 0x7F;      // RelationBoard: piece code without the promoted bit
constexpr uint8_t kPromoted = 0x80;  // RelationBoard: the piece is a promoted piece

/// True if the piece `code` on square `s` matches the count designator `d`.
bool designated(const Designator& d, uint8_t code, int s) {
  if (!(d.squares >> s & 1)) return false;
  const PieceMask bit = PieceMask(1u << ((code & kKind) - 1));
  if (!(d.pieces & bit)) return false;
  if (d.promoted & bit) return (code & kPromoted) != 0;
  if (d.not_promoted & bit) return (code & kPromoted) == 0;
  return true;
}

/// P1 against the (transformed) board `p2` on the allowable squares: no square with two
/// different pieces; missing and new pieces designated and counted within range.
/// `image(s)` = the content of square s in the transformed P2.
template <class Image>
bool compare(const RelationSpec& spec, const std::array<uint8_t, 64>& p1, Image&& image) {
  int64_t missing = 0, added = 0;
  for (chess::Bitboard b = spec.allowable; b;) {
    const int s = int(chess::pop_lsb(b));
    const uint8_t x = p1[size_t(s)], y = image(s);
    if (x && y) {
      if ((x ^ y) & kKind) return false;
    } else if (x) {
      if (!designated(spec.missing, x, s) || ++missing > spec.missing_range.hi) return false;
    } else if (y) {
      if (!designated(spec.added, y, s) || ++added > spec.added_range.hi) return false;
    }
  }
  return spec.missing_range.contains(missing) && spec.added_range.contains(added);
}

/// The square a symmetry maps onto s: kPreimage[d][s] with apply(d, kPreimage[d][s]) == s.
const std::array<std::array<uint8_t, 64>, 8>& preimages() {
  static const auto table = [] {
    std::array<std::array<uint8_t, 64>, 8> t{};
    for (int d = 0; d < 8; ++d)
      for (int x = 0; x < 64; ++x) t[size_t(d)][size_t(apply(Dihedral(d), chess::Square(x)))] = uint8_t(x);
    return t;
  }();
  return table;
}

/// kImage[d][x] = apply(d, x).
const std::array<std::array<uint8_t, 64>, 8>& images() {
  static const auto table = [] {
    std::array<std::array<uint8_t, 64>, 8> t{};
    for (int d = 0; d < 8; ++d)
      for (int x = 0; x < 64; ++x) t[size_t(d)][size_t(x)] = uint8_t(apply(Dihedral(d), chess::Square(x)));
    return t;
  }();
  return table;
}

/// Random 64-bit numbers per square and piece code (index 0 unused), then two for the
/// side to move (square 64): the terms of image_key().
const std::array<std::array<uint64_t, 16>, 65>& key_terms() {
  static const auto table = [] {
    std::array<std::array<uint64_t, 16>, 65> t{};
    uint64_t state = 0x2545F4914F6CDD1Dull;
    for (auto& row : t)
      for (uint64_t& v : row) {  // splitmix64
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        v = z ^ (z >> 31);
      }
    return t;
  }();
  return table;
}

}  // namespace

bool exact_image(const RelationSpec& spec) {
  return !spec.shift && spec.missing_range.hi <= 0 && spec.added_range.hi <= 0;
}

namespace {

/// image_key() over the pieces of `b` in `from` (the squares the symmetry maps into the
/// allowable squares).
uint64_t image_key(const RelationSpec& spec, const RelationBoard& b, int d, chess::Color side,
                   chess::Bitboard from) {
  const auto& terms = key_terms();
  const std::array<uint8_t, 64>& to = images()[size_t(d)];
  uint64_t key = spec.side == RelationSpec::Side::kIgnore ? 0 : terms[64][size_t(side)];
  for (chess::Bitboard occ = b.occupied & from; occ;) {
    const size_t x = size_t(chess::pop_lsb(occ));
    key ^= terms[to[x]][b.sq[x] & kKind];
  }
  return key;
}

/// A hash of the placement of `pos` on the squares `region` (its colour and piece-type
/// bitboards masked), the squares `promoted` (0: promotion marks ignored) and `side_term`:
/// equal placements on `region` give equal hashes. Exact-image relations
/// (RelationLine::later_relates) group positions with it instead of a table term per piece.
uint64_t placement_hash(const chess::Position& pos, chess::Bitboard region, chess::Bitboard promoted,
                        uint64_t side_term) {
  uint64_t h = side_term;
  auto mix = [&h](uint64_t v) {
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
  };
  mix(pos.pieces(chess::WHITE) & region);
  for (int t = chess::PAWN; t <= chess::KING; ++t) mix(pos.pieces(chess::PieceType(t)) & region);
  mix(promoted & region);
  return h;
}

/// True if `a` and `b` hold the same pieces on every square of `region` with the same
/// promotion marks (and, with `with_side`, the same side to move): one class of an
/// exact-image relation.
bool same_placement(const PosCtx& a, const PosCtx& b, chess::Bitboard region, bool with_side) {
  const chess::Position& x = *a.pos;
  const chess::Position& y = *b.pos;
  if (with_side && x.side_to_move() != y.side_to_move()) return false;
  if (((x.pieces(chess::WHITE) ^ y.pieces(chess::WHITE)) | (x.pieces() ^ y.pieces())) & region) return false;
  for (int t = chess::PAWN; t <= chess::KING; ++t)
    if ((x.pieces(chess::PieceType(t)) ^ y.pieces(chess::PieceType(t))) & region) return false;
  return ((a.promoted & x.pieces()) ^ (b.promoted & y.pieces())) & region ? false : true;
}

/// image_key() read from the position's bitboards instead of a RelationBoard (the same
/// value: the same terms and piece codes).
uint64_t image_key(const RelationSpec& spec, const chess::Position& pos, int d, chess::Color side,
                   chess::Bitboard from) {
  const auto& terms = key_terms();
  const std::array<uint8_t, 64>& to = images()[size_t(d)];
  // RelationBoard code per chess::Piece: 1 + (KING - type) + 6 x colour
  static constexpr auto kCode = [] {
    std::array<uint8_t, chess::PIECE_NB> t{};
    for (int c = chess::WHITE; c <= chess::BLACK; ++c)
      for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
        t[size_t(chess::make_piece(chess::Color(c), chess::PieceType(pt)))] = uint8_t(1 + (chess::KING - pt) + 6 * c);
    return t;
  }();
  uint64_t key = spec.side == RelationSpec::Side::kIgnore ? 0 : terms[64][size_t(side)];
  for (chess::Bitboard bb = pos.pieces() & from; bb;) {
    const chess::Square x = chess::pop_lsb(bb);
    key ^= terms[to[size_t(x)]][kCode[size_t(pos.piece_on(x))]];
  }
  return key;
}

/// The squares the symmetry `d` maps into `allowable`.
chess::Bitboard preimage(int d, chess::Bitboard allowable) {
  const std::array<uint8_t, 64>& to = images()[size_t(d)];
  chess::Bitboard out = 0;
  for (int x = 0; x < 64; ++x)
    if (allowable >> to[size_t(x)] & 1) out |= chess::Bitboard(1) << x;
  return out;
}

}  // namespace

uint64_t image_key(const RelationSpec& spec, const RelationBoard& b, int d, chess::Color side) {
  return image_key(spec, b, d, side, preimage(d, spec.allowable));
}

RelationSpec compile_relation(const cql::List& rel, chess::Bitboard pattern,
                              IntRange (*range)(const cql::Range&, const cql::KeywordItem& item)) {
  using cql::Keyword;
  RelationSpec spec;
  for (const cql::KeywordItem* k : rel.keywords()) {
    auto count = [&](Designator& d, IntRange& r) {
      const auto& a = k->as<cql::CountArgs>();
      if (!a.pieces.empty()) {
        const cql::PieceDesignator& p = a.pieces[0];
        if (!p.tag.empty()) throw CompileError(p.loc, "a tagged piece designator is not allowed in a relation list");
        d = Designator{p.pieces, p.promoted, p.not_promoted, p.squares.squares};
      }
      if (!a.ranges.empty()) r = range(a.ranges[0], *k);
    };
    switch (k->keyword) {
      case Keyword::SameSideToMove: spec.side = RelationSpec::Side::kSame; break;
      case Keyword::ChangeSideToMove: spec.side = RelationSpec::Side::kChange; break;
      case Keyword::IgnoreSideToMove: spec.side = RelationSpec::Side::kIgnore; break;
      case Keyword::MissingPieceCount: count(spec.missing, spec.missing_range); break;
      case Keyword::NewPieceCount: count(spec.added, spec.added_range); break;
      case Keyword::OriginalDifferentCount:
        spec.original_different = range(k->as<cql::CountArgs>().ranges.at(0), *k);
        break;
      case Keyword::OriginalSameCount: spec.original_same = range(k->as<cql::CountArgs>().ranges.at(0), *k); break;
      case Keyword::Pattern: spec.allowable = pattern; break;
      case Keyword::Flip: spec.flip = true; break;
      case Keyword::Shift: spec.shift = true; break;
      case Keyword::Variations:
        if (spec.scope == LineScope::kMainLine) spec.scope = LineScope::kAll;
        break;
      case Keyword::VariationsOnly: spec.scope = LineScope::kVariationsOnly; break;
      default:
        throw CompileError(k->loc, "not yet supported: " + cql::keyword_spelling(k->keyword) + " in a relation list");
    }
  }
  return spec;
}

RelationBoard relation_board(const chess::Position& pos, chess::Bitboard promoted, uint32_t ply) {
  RelationBoard b;
  b.side = pos.side_to_move();
  b.ply = b.branch_ply = ply;
  b.occupied = pos.pieces();
  // per piece kind: code 1 + its bit index in the cql/pieces.h layout (KING - type + 6 x colour)
  for (int c = chess::WHITE; c <= chess::BLACK; ++c)
    for (int t = chess::PAWN; t <= chess::KING; ++t) {
      const uint8_t code = uint8_t(1 + (chess::KING - t) + 6 * c);
      for (chess::Bitboard bb = pos.pieces(chess::Color(c), chess::PieceType(t)); bb;)
        b.sq[size_t(chess::pop_lsb(bb))] = code;
    }
  for (chess::Bitboard bb = promoted & b.occupied; bb;) b.sq[size_t(chess::pop_lsb(bb))] |= kPromoted;
  return b;
}

bool relates(const RelationSpec& spec, const RelationBoard& p1, const RelationBoard& p2) {
  using Side = RelationSpec::Side;
  if (spec.side == Side::kSame && p1.side != p2.side) return false;
  if (spec.side == Side::kChange && p1.side == p2.side) return false;
  const chess::Bitboard occ1 = p1.occupied & spec.allowable;
  const chess::Bitboard occ2 = p2.occupied;
  if (spec.original_different || spec.original_same) {
    int64_t different = 0, same = 0;
    for (chess::Bitboard b = spec.allowable; b;) {
      const size_t s = size_t(chess::pop_lsb(b));
      if ((p1.sq[s] ^ p2.sq[s]) & kKind) ++different;
      else if (p1.sq[s]) ++same;
    }
    if (spec.original_different && !spec.original_different->contains(different)) return false;
    if (spec.original_same && !spec.original_same->contains(same)) return false;
  }
  if (!spec.flip && !spec.shift) {
    // cheap rejection: the missing / new squares alone exceed the ranges
    const chess::Bitboard a2 = occ2 & spec.allowable;
    if (chess::popcount(occ1 & ~a2) > spec.missing_range.hi) return false;
    if (chess::popcount(a2 & ~occ1) > spec.added_range.hi) return false;
    return compare(spec, p1.sq, [&](int s) { return p2.sq[size_t(s)]; });
  }
  // every transformation of P2 keeps at most its pieces: too few of them for P1 fails; a
  // symmetry keeps all of them: with every square allowable, too many fail
  if (chess::popcount(occ1) - chess::popcount(occ2) > spec.missing_range.hi) return false;
  if (!spec.shift && spec.allowable == ~chess::Bitboard(0) &&
      chess::popcount(occ2) - chess::popcount(occ1) > spec.added_range.hi)
    return false;
  // Anchors: allowable squares of P1 of which at least one keeps its piece in the image of
  // P2 (a piece the missing designator does not admit, or missing_range.hi + 1 pieces when
  // at most missing_range.hi may go missing). An anchor's piece must stand on it in the
  // image, which fixes the translation per symmetry and P2 square of that piece.
  std::array<int, 4> anchors{};
  size_t anchor_count = 0;
  const int64_t may_miss = spec.missing_range.hi;
  for (chess::Bitboard b = occ1; b && anchor_count == 0;) {
    const int s = int(chess::pop_lsb(b));
    if (may_miss < 1 || !designated(spec.missing, p1.sq[size_t(s)], s)) anchors[anchor_count++] = s;
  }
  if (anchor_count == 0 && may_miss < int64_t(anchors.size()) && chess::popcount(occ1) > may_miss)
    for (chess::Bitboard b = occ1; b && int64_t(anchor_count) <= may_miss;) anchors[anchor_count++] = int(chess::pop_lsb(b));
  // anchor_count == 0: no square is sure to keep its piece; every translation is tried
  const int symmetries = spec.flip ? 8 : 1;
  for (int di = 0; di < symmetries; ++di) {
    const Dihedral d = Dihedral(di);
    const std::array<uint8_t, 64>& from = preimages()[size_t(di)];
    if (!spec.shift) {
      if (compare(spec, p1.sq, [&](int s) { return p2.sq[from[size_t(s)]]; })) return true;
      continue;
    }
    // the image of P2 under the symmetry, then the translation (dx, dy), read per square
    auto shifted = [&](int dx, int dy) {
      return [&, dx, dy](int s) -> uint8_t {
        const int f = (s & 7) - dx, r = (s >> 3) - dy;
        return f < 0 || f > 7 || r < 0 || r > 7 ? 0 : p2.sq[from[size_t(r * 8 + f)]];
      };
    };
    if (anchor_count > 0) {
      std::array<uint8_t, 225> tried{};  // translations (dx + 7) * 15 + dy + 7 done
      for (size_t i = 0; i < anchor_count; ++i) {
        const int anchor = anchors[i];
        const uint8_t want = p1.sq[size_t(anchor)] & kKind;
        for (int x = 0; x < 64; ++x) {
          if ((p2.sq[size_t(x)] & kKind) != want) continue;
          const int y = int(apply(d, chess::Square(x)));
          const int dx = (anchor & 7) - (y & 7), dy = (anchor >> 3) - (y >> 3);
          uint8_t& done = tried[size_t((dx + 7) * 15 + dy + 7)];
          if (done) continue;
          done = 1;
          if (compare(spec, p1.sq, shifted(dx, dy))) return true;
        }
      }
      continue;
    }
    for (int dx = -7; dx <= 7; ++dx)
      for (int dy = -7; dy <= 7; ++dy) {
        if (compare(spec, p1.sq, shifted(dx, dy))) return true;
      }
  }
  return false;
}

void RelationLine::reset(const std::vector<std::shared_ptr<const RelationSpec>>& specs,
                         std::span<const PosCtx> line, std::span<const RelationBoard> variation_boards) {
  specs_ = &specs;
  line_ = line;
  boards_.resize(line.size());
  board_built_.assign(line.size(), 0);
  variation_boards_ = variation_boards;
  main_line_ = line.empty() || !line[0].inside_variation;
  memo_.resize(specs.size());
  for (auto& m : memo_) m.assign(line.size(), -1);
  images_built_.assign(specs.size(), 0);
}

bool RelationLine::later_relates(size_t id, size_t index) {
  const RelationSpec& spec = *(*specs_)[id];
  if (!exact_image(spec)) {
    for (size_t q = index + 1; q < line_.size(); ++q)
      if (relates(spec, board(index), board(q))) return true;
    return false;
  }
  if (images_built_[id]) return memo_[id][index] == 1;  // the pass below found every P1
  images_built_[id] = 1;
  // The whole line at once, by classes of positions: relates() reads P1's allowable squares,
  // P2's squares that some symmetry maps onto them (for the original counts: the allowable
  // ones themselves) and, unless the side is ignored, the sides to move. Positions equal on
  // those squares (whole square codes, promotion marks included) and in side form one class
  // and relate alike; a long game repeats few classes on a :pattern's squares. P1 = position
  // i of class A relates when some class B relates to A and occurs after i: i < last(B).
  // Class keys of A (the identity image, with the side a related P2 must have) are sorted;
  // every image of every class B is looked up among them and confirmed by relates() on the
  // classes' first positions. Under the identity an exact image differs from P1 on no
  // allowable square: with an :originaldifferentcount range without 0 only the other
  // symmetries can relate.
  std::vector<int8_t>& memo = memo_[id];
  const size_t n = line_.size();
  const chess::Bitboard all = spec.allowable;
  const int symmetries = spec.flip ? 8 : 1;
  std::array<chess::Bitboard, 8> from{};
  chess::Bitboard region = 0;
  for (int d = 0; d < symmetries; ++d) region |= from[size_t(d)] = d == 0 ? all : preimage(d, all);
  const bool with_side = spec.side != RelationSpec::Side::kIgnore;
  // Classes, in order of first occurrence: an open-addressing table from the hash of the
  // region and side to the classes with that hash, boards compared on a hash hit.
  const auto& terms = key_terms();
  struct Class {
    uint32_t first, last;  // line indices of its first and last position
    uint32_t reach = 0;    // 1 + the last index of a class that relates to it, 0 = none
    uint64_t hash;
  };
  std::vector<Class> classes;
  classes.reserve(n);
  std::vector<uint32_t> class_of(n);
  size_t table_size = 16;
  while (table_size < 2 * n) table_size *= 2;
  std::vector<uint32_t>& table = class_table_;  // class + 1, 0 = empty slot
  table.assign(table_size, 0);
  // A class is a placement on the region (promotion marks included) and side: hashed and
  // compared on the positions' bitboards, no RelationBoard needed.
  for (size_t p = 0; p < n; ++p) {
    const chess::Position& pos = *line_[p].pos;
    const uint64_t h = placement_hash(pos, region, line_[p].promoted & pos.pieces(),
                                      with_side ? terms[64][size_t(pos.side_to_move())] : 0);
    size_t slot = size_t(h) & (table_size - 1);
    for (; table[slot]; slot = (slot + 1) & (table_size - 1)) {
      const Class& c = classes[table[slot] - 1];
      if (c.hash == h && same_placement(line_[c.first], line_[p], region, with_side)) break;
    }
    if (!table[slot]) {
      classes.push_back({uint32_t(p), uint32_t(p), 0, h});
      table[slot] = uint32_t(classes.size());
    }
    classes[table[slot] - 1].last = uint32_t(p);
    class_of[p] = table[slot] - 1;
  }
  // P1 keys of the classes, sorted; a class whose only position is the last has no P2.
  // Without symmetries on the whole board the only image is P2 itself: P1 keys and images
  // are then board_hash()es of the piece kinds, else image_key()s.
  const bool whole_board = symmetries == 1 && all == ~chess::Bitboard(0);
  auto key_of = [&](size_t p, int d, chess::Color side) {
    if (whole_board) return placement_hash(*line_[p].pos, all, 0, with_side ? terms[64][size_t(side)] : 0);
    return image_key(spec, *line_[p].pos, d, side, from[size_t(d)]);
  };
  std::vector<KeyedImage>& keyed = class_keys_;
  keyed.clear();
  for (size_t c = 0; c < classes.size(); ++c) {
    if (classes[c].first + 1 >= n) continue;
    const chess::Color mover = line_[classes[c].first].pos->side_to_move();
    const chess::Color side = spec.side == RelationSpec::Side::kChange ? ~mover : mover;
    keyed.push_back({key_of(classes[c].first, 0, side), uint32_t(c)});
  }
  std::sort(keyed.begin(), keyed.end());
  // Most images match no P1 key: a 1,024-bit filter of the keys' top bits answers those
  // without the binary search.
  std::array<uint64_t, 16> filter{};
  for (const KeyedImage& k : keyed) filter[k.key >> 60] |= uint64_t(1) << (k.key >> 54 & 63);
  const bool identity_can = !spec.original_different || spec.original_different->contains(0);
  for (const Class& q : classes) {
    if (q.last == 0) continue;  // no P1 before it
    const chess::Color q_side = line_[q.first].pos->side_to_move();
    for (int d = identity_can ? 0 : 1; d < symmetries; ++d) {
      const uint64_t key = key_of(q.first, d, q_side);
      if (!(filter[key >> 60] >> (key >> 54 & 63) & 1)) continue;
      for (auto it = std::lower_bound(keyed.begin(), keyed.end(), KeyedImage{key, 0});
           it != keyed.end() && it->key == key; ++it) {
        Class& a = classes[it->index];
        if (a.first >= q.last || a.reach >= q.last + 1) continue;  // nothing new to learn
        if (relates(spec, board(a.first), board(q.first))) a.reach = q.last + 1;
      }
    }
  }
  for (size_t i = 0; i + 1 < n; ++i)
    if (classes[class_of[i]].reach > i + 1) memo[i] = 1;
  return memo[index] == 1;
}

const RelationBoard& RelationLine::board(size_t index) {
  if (!board_built_[index]) {
    const PosCtx& c = line_[index];
    boards_[index] = relation_board(*c.pos, c.promoted, c.ply);
    board_built_[index] = 1;
  }
  return boards_[index];
}

bool RelationLine::at(size_t id, size_t index) {
  int8_t& known = memo_[id][index];
  if (known >= 0) return known != 0;
  const RelationSpec& spec = *(*specs_)[id];
  bool hit = false;
  if (!(main_line_ && spec.scope == LineScope::kVariationsOnly)) hit = later_relates(id, index);
  if (spec.scope != LineScope::kMainLine && !hit && !variation_boards_.empty()) {
    const RelationBoard& p1 = board(index);
    for (size_t v = 0; v < variation_boards_.size() && !hit; ++v) {
      const RelationBoard& b = variation_boards_[v];
      hit = b.branch_ply >= p1.ply && b.ply > p1.ply && relates(spec, p1, b);
    }
  }
  known = hit;
  return hit;
}

}  // namespace eval
