// Transformations of CQL piece designators (seed 003, CQL-Transformations, SPEC
// "Transformations"): the flips, the shifts with their edge rule, the colour flip, the
// transformation set of each keyword and the composition of several keywords' sets.
//
// A transformation acts on the square set of a designator (a Bitboard, bit s = square s,
// a1 = 0, h8 = 63) and, for the colour flip, on its piece mask. Everything here is pure and
// meant to run once per query, when a position list is compiled: the evaluator transforms
// its designators up front and never calls into this file per position.
//
// EDGE RULE (seed 003 "einschrittige rechtsschiebende Transformation"; SPEC): a unit shift
// moves every square of the set one step in its direction; a square on the leading edge
// (the edge the shift moves towards) has nowhere to go and is removed; a square on the
// trailing edge (the opposite edge) is moved AND also kept in the new set. As sets:
//   right(S) = ((S minus file h) moved one file right) union (S intersect file a)
//   left(S)  = ((S minus file a) moved one file left)  union (S intersect file h)
//   up(S)    = ((S minus rank 8) moved one rank up)    union (S intersect rank 1)
//   down(S)  = ((S minus rank 1) moved one rank down)  union (S intersect rank 8)
// A k-step shift is k unit shifts applied one after the other, so a trailing-edge square
// is re-added by every step: three right shifts of {a4} = {a4,b4} -> {a4,b4,c4} ->
// {a4,b4,c4,d4} (the text's example), while {d4} -> {g4}. Right shift of {a2,c2,h2} =
// {a2,b2,d2}; up shift of {a1,a8,h1,h8} = {a1,a2,h1,h2}. (The pages' other example, left
// shift of "Rc2 Bh8" = "Rb2 Bg8", overlooks the rule for h8: by it Bh8 becomes B[g8,h8].)
// Horizontal unit shifts act on files only and vertical ones on ranks only, so every
// composition of shifts acts on a square (f, r) as F(f) x G(r) for a file relation F and a
// rank relation G, and horizontal and vertical shifts commute. This is the representation
// Transform uses; it is closed under composition, which a plain (dx, dy) offset is not
// (left(right({h4})) is empty, not {h4}).
//
// A designator whose square set becomes empty ("leaves the board") designates no square and
// so never matches a position (SPEC); a count over it (:piececount, :attackcount ...) is 0.
#pragma once

#include <stdexcept>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_set>
#include <vector>

#include "chess/types.h"
#include "eval/piece_mask.h"

namespace eval {

/// The 8 symmetries of the board (the dihedral group). Element d maps the square
/// (file f, rank r), files and ranks numbered 0..7: first, if d & 4, swap f and r (reflect in
/// the a1-h8 diagonal); then, if d & 1, f = 7 - f (reflect in the vertical bisector); then,
/// if d & 2, r = 7 - r (reflect in the horizontal bisector).
enum class Dihedral : uint8_t {
  kIdentity = 0,
  kFlipVertical = 1,     ///< about the vertical bisector: f6 -> c6
  kFlipHorizontal = 2,   ///< about the horizontal bisector: f6 -> f3
  kRotate180 = 3,        ///< f6 -> c3
  kFlipDiagonal = 4,     ///< about the a1-h8 diagonal: h7 -> g8, a8 -> h1
  kRotateLeft = 5,       ///< 90 degrees anticlockwise (White's view): a1 -> h1 -> h8
  kRotateRight = 6,      ///< 90 degrees clockwise: a1 -> a8 -> h8
  kFlipOffDiagonal = 7,  ///< about the a8-h1 diagonal: b2 -> g7, a8 -> a8
};

/// The image of square `s` under the symmetry `d`.
chess::Square apply(Dihedral d, chess::Square s);

/// The symmetry "first `first`, then `second`".
Dihedral compose(Dihedral first, Dihedral second);

/// One transformation of designators: a board symmetry, followed by a composition of edge-rule
/// unit shifts (stored as a file relation and a rank relation, see the header comment),
/// together with an optional colour swap. Small (18 bytes), copyable, comparable; equal
/// values transform every designator identically.
class Transform {
 public:
  /// The identity transformation.
  Transform();

  /// The board symmetry `d` alone.
  static Transform dihedral(Dihedral d);

  /// `|dx|` unit shifts right (dx > 0) or left (dx < 0), and `|dy|` unit shifts up (dy > 0,
  /// towards rank 8) or down, all with the edge rule. Precondition: -7 <= dx, dy <= 7 (more
  /// is allowed and follows the same rule). The order of the horizontal and vertical steps
  /// does not matter (they commute).
  static Transform shift(int dx, int dy);

  /// The colour flip transformation (seed 003 "Farbwechseltransformation"; SPEC): white and
  /// black piece kinds swap and every square is reflected in the horizontal bisector
  /// ([Rbp][a2,c2] -> [rBP][a7,c7]). The caller also swaps :wtm/:btm, results, Elo sides...
  static Transform color_flip();

  /// The transformation "first *this, then `next`".
  Transform then(const Transform& next) const;

  /// The image of a designator's square set. An empty result means the designator has left
  /// the board and never matches (see the header comment).
  chess::Bitboard apply(chess::Bitboard squares) const;

  /// The image of a designator's piece mask: white and black kinds swapped when this
  /// transformation swaps colours (A <-> a, M <-> m, I <-> i; U . ? unchanged), else `mask`.
  PieceMask apply(PieceMask mask) const;

  /// True if this transformation swaps the colours (an odd number of colour flips).
  bool swaps_colors() const { return color_flip_; }

  /// True if this transformation changes no designator.
  bool is_identity() const;

  /// The board symmetry applied first.
  Dihedral symmetry() const { return symmetry_; }

  /// True if this is a pure symmetry (plus optional colour swap) with no shift part, i.e. a
  /// bijection of the 64 squares.
  bool is_bijective() const;

  /// Readable form for EXPLAIN and test messages, e.g. "flipvertical", "shift(+2,-1)",
  /// "flipcolor", "rotate180+shift(+1,0)+flipcolor". Shift parts that are not a plain
  /// offset are written as their file/rank relations.
  std::string to_string() const;

  /// Hash consistent with ==.
  size_t hash() const;

  friend bool operator==(const Transform&, const Transform&) = default;

 private:
  // The square (f, r) after the symmetry goes to every square (f', r') with bit f' of
  // file_image_[f] and bit r' of rank_image_[r] set.
  Dihedral symmetry_;
  bool color_flip_;
  std::array<uint8_t, 8> file_image_;  ///< file relation of the shift part (bit = target file)
  std::array<uint8_t, 8> rank_image_;  ///< rank relation of the shift part (bit = target rank)
};

/// Hash functor for unordered containers of Transform.
struct TransformHash {
  size_t operator()(const Transform& t) const { return t.hash(); }
};

/// The transformation keywords of a position list (seed 003; CQL-Position-List
/// "Transformation keywords"). :flip and :flipdihedral are one keyword with two spellings.
enum class TransformKeyword : uint8_t {
  kFlip,               ///< :flip = :flipdihedral: all 8 symmetries
  kFlipHorizontal,     ///< identity, horizontal flip (f6 -> f3)
  kFlipVertical,       ///< identity, vertical flip (f6 -> c6)
  kFlipDiagonal,       ///< identity, a1-h8 flip, a8-h1 flip (SPEC: with its off-diagonal twin)
  kFlipColor,          ///< identity, colour flip
  kShift,              ///< every horizontal shift followed by every vertical shift: 15 x 15
  kShiftHorizontal,    ///< k unit right or k unit left shifts, k = 0..7: 15
  kShiftVertical,      ///< k unit up or k unit down shifts, k = 0..7: 15
  kShiftMainDiagonal,  ///< k x (right then up) or k x (left then down), k = 0..7: 15
  kShiftOffDiagonal,   ///< k x (right then down) or k x (left then up), k = 0..7: 15
  kShiftDiagonal,      ///< main- and off-diagonal shifts together: 29
};

/// The keyword as written, e.g. ":shifthorizontal" (kFlip gives ":flip").
std::string_view keyword_name(TransformKeyword k);

/// The set of transformations a keyword stands for. The identity is always included and
/// always first; no two elements are equal. Sizes: flip 8, fliphorizontal 2, flipvertical 2,
/// flipdiagonal 3, flipcolor 2, shift 225, shifthorizontal/-vertical/-maindiagonal/
/// -offdiagonal 15, shiftdiagonal 29.
std::vector<Transform> transform_set(TransformKeyword k);

/// The transformation set of a position list with several transformation keywords (SPEC
/// "Several transformation keywords"): every composition of one element from each keyword's
/// set, the keywords taken in every order. Equal transformations appear once; the identity
/// is first. With no keyword the result is {identity}. Repeated keywords count as separate
/// sets. Cost grows with 2^keywords.size(); position lists hold a handful at most.
/// Two different transformations may still give identical transformed lists for a given
/// list (a flip of a symmetric designator); use unique_by_content() for that.
std::vector<Transform> compose(std::span<const TransformKeyword> keywords);

/// compose() over explicit sets (each should contain the identity, as keyword sets do).
std::vector<Transform> compose_sets(std::span<const std::vector<Transform>> sets);

/// Bounds on transformation composition (issue 14: a script must not make compilation run for
/// minutes or exhaust memory). A position list may hold at most kMaxTransformKeywords
/// transformation keywords, and composing them may try at most kMaxComposeSteps
/// compositions; compose() and compose_sets() throw TransformLimitError beyond either.
/// `:shift :flip :flipcolor` (3,600 variants) takes about 20,000 steps; the heaviest list the
/// tests use, `:flip :shift :shiftdiagonal :shifthorizontal` (111,712 variants), 2.6M steps
/// (0.5 s). The bound is just above that, so a refused list costs at most ~0.6 s.
inline constexpr size_t kMaxTransformKeywords = 8;
inline constexpr size_t kMaxComposeSteps = 3'000'000;

/// Thrown by compose() / compose_sets() past the bounds above; the compiler turns it into a
/// located CompileError at the list.
class TransformLimitError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Keeps, in order, the first transformation of each group that gives the same transformed
/// position list: `content(t)` must return a value (with == and std::hash, e.g. a
/// std::string or an integer fingerprint) that identifies the list transformed by `t`.
/// SPEC: "identical transformed lists count once" (matters for :accumulate).
template <class ContentFn>
std::vector<Transform> unique_by_content(std::span<const Transform> transforms,
                                         ContentFn&& content) {
  using Key = std::decay_t<decltype(content(transforms[0]))>;
  std::unordered_set<Key> seen;
  std::vector<Transform> out;
  for (const Transform& t : transforms)
    if (seen.insert(content(t)).second) out.push_back(t);
  return out;
}

}  // namespace eval
