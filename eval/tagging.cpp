#include "eval/tagging.h"

#include "chess/bitboard.h"
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

}  // namespace eval
