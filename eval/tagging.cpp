#include "eval/tagging.h"

#include <bit>
#include <cstdint>

#include "chess/bitboard.h"
#include "eval/node.h"
#include "eval/piece_mask.h"

namespace eval {

void MarkBoard::reset(const chess::Position& pos) {
  mark_on.fill(kNone);
  square_of.fill(kGone);
  marks = 0;
  for (chess::Bitboard occ = pos.pieces(); occ && marks < kMaxMarks;) {
    const chess::Square s = chess::pop_lsb(occ);
    mark_on[size_t(s)] = marks;
    square_of[marks++] = uint8_t(s);
  }
}

void MarkBoard::play(const chess::Position& before, chess::Move m) {
  if (m == chess::Move::null() || m == chess::Move::none()) return;
  auto take = [&](int s) {  // the piece on s leaves the board
    if (mark_on[size_t(s)] != kNone) square_of[mark_on[size_t(s)]] = kGone;
    mark_on[size_t(s)] = kNone;
  };
  auto move = [&](int from, int to) {  // `to` is empty
    const uint8_t mark = mark_on[size_t(from)];
    mark_on[size_t(from)] = kNone;
    mark_on[size_t(to)] = mark;
    if (mark != kNone) square_of[mark] = uint8_t(to);
  };
  const int from = int(m.from_sq()), to = int(m.to_sq());
  if (m.kind() == chess::Move::CASTLING) {  // king takes own rook (Chess960 encoding)
    const chess::CastlingRight cr = chess::castling_right(before.side_to_move(), to > from);
    const uint8_t king = mark_on[size_t(from)], rook = mark_on[size_t(to)];
    mark_on[size_t(from)] = mark_on[size_t(to)] = kNone;
    const int king_to = int(chess::Position::castling_king_to(cr));
    const int rook_to = int(chess::Position::castling_rook_to(cr));
    mark_on[size_t(king_to)] = king;
    mark_on[size_t(rook_to)] = rook;
    if (king != kNone) square_of[king] = uint8_t(king_to);
    if (rook != kNone) square_of[rook] = uint8_t(rook_to);
    return;
  }
  if (m.kind() == chess::Move::EN_PASSANT) take(before.side_to_move() == chess::WHITE ? to - 8 : to + 8);
  else take(to);
  move(from, to);
}

uint32_t qualifying_marks(const TagSpec& tag, const MarkBoard& marks, const chess::Position& pos,
                          chess::Bitboard promoted) {
  const PieceMask plain = PieceMask(tag.pieces & ~(tag.promoted | tag.not_promoted));
  uint32_t out = 0;
  for (size_t i = 0; i < marks.marks; ++i) {
    const chess::Bitboard b = marks.square_bb(i);
    if (!b) continue;
    const chess::Square s = chess::lsb(b);
    const PieceMask bit = piece_bit(pos.piece_on(s));
    const bool is_promoted = (promoted & b) != 0;
    if ((plain & bit) || ((tag.promoted & bit) && is_promoted) || ((tag.not_promoted & bit) && !is_promoted))
      out |= uint32_t(1) << i;
  }
  return out;
}

std::vector<std::array<uint8_t, 2>> tag_bindings(const std::vector<uint32_t>& qualifying) {
  std::vector<std::array<uint8_t, 2>> out;
  if (qualifying.empty()) return out;
  for (uint8_t a = 0; a < 32; ++a) {
    if (!(qualifying[0] >> a & 1)) continue;
    if (qualifying.size() == 1) {
      out.push_back({a, 0});
      continue;
    }
    for (uint8_t b = 0; b < 32; ++b)
      if (b != a && (qualifying[1] >> b & 1)) out.push_back({a, b});
  }
  return out;
}

namespace {

/// True if `n` (with the upper bound of a tagged :attackcount removed) holds at least
/// wherever it holds with smaller tag squares.
bool monotone_in_tags(const Node& n) {
  if (!n.lists.empty()) return false;
  bool tagged = false;
  for (const Designator& d : n.d) tagged |= d.tag >= 0;
  if (!tagged) return true;  // the same for every binding
  if (n.negate) return false;
  return n.op == Op::kDesignator || n.op == Op::kCheck || n.op == Op::kAttackCount;
}

}  // namespace

std::vector<std::shared_ptr<const PositionList>> relaxed_tag_lists(const Program& program) {
  if (program.tags().empty() || program.alternatives().size() != 1 || !program.sequences().empty() ||
      !program.relations().empty() || program.needs_control() || program.accumulator_counters() ||
      program.needs_variations())
    return {};
  const Alternative& alt = program.alternatives()[0];
  if (!alt.accumulating.empty() || !alt.controls.empty()) return {};
  std::vector<std::shared_ptr<const PositionList>> out;
  for (size_t i = 0; i < alt.lists.size(); ++i) {
    const PositionList& list = *alt.lists[i];
    if (list.negated || list.control || alt.counts[i].pretransform || alt.counts[i].consecutive ||
        alt.scopes[i] != LineScope::kMainLine)
      return {};
    auto relaxed = std::make_shared<PositionList>(list);
    for (auto& variant : relaxed->variants)
      for (Node& n : variant) {
        if (!monotone_in_tags(n)) return {};
        if (n.op == Op::kAttackCount && (n.d[0].tag >= 0 || n.d[1].tag >= 0)) {
          n.range.hi = INT64_MAX;
          n.range.hi_from_end = false;
        }
      }
    out.push_back(std::move(relaxed));
  }
  return out;
}

chess::Bitboard marks_squares(uint32_t marks, const std::array<uint8_t, MarkBoard::kMaxMarks>& square_of) {
  chess::Bitboard out = 0;
  while (marks) {
    const uint8_t sq = square_of[size_t(std::countr_zero(marks))];
    marks &= marks - 1;
    if (sq < 64) out |= chess::Bitboard(1) << sq;
  }
  return out;
}

}  // namespace eval
