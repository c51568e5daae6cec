// Arithmetic shared by the planner's condition tests (condition.cpp, condition_summary.cpp,
// ply_windows.cpp): cql::PieceMask bits 0..11 (K Q R B N P k q r b n p, cql/pieces.h) against a
// signature's material key, ply-interval tests, and the tests that need only the fields a
// decoded sig::Signature and its sig::Summary share.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>

#include "chess/types.h"
#include "eval/board_predicates.h"
#include "index/signature.h"
#include "planner/condition.h"

namespace planner {

/// The piece type of PieceMask bit i is kPieceTypeOfBit[i % 6]; its colour is i / 6.
inline constexpr chess::PieceType kPieceTypeOfBit[6] = {chess::KING, chess::QUEEN, chess::ROOK,
                                                        chess::BISHOP, chess::KNIGHT, chess::PAWN};

/// The chess::Piece of PieceMask bit i (0..11).
inline chess::Piece piece_of_bit(int i) {
  return chess::make_piece(chess::Color(i / 6), kPieceTypeOfBit[i % 6]);
}

/// Count (or power in pawn units with `power`, SPEC values) of the kinds in `mask` in the
/// material `key`; kings count 1. `colour_sign` = 1: Black's kinds count negatively
/// (White minus Black).
inline int64_t material_of(const sig::MaterialKey& key, uint32_t mask, bool power, int colour_sign = 0) {
  if (!power && colour_sign == 0) {
    // A plain count: the sum of the key's nibbles of the kinds in `mask`, plus the kings.
    struct Nibbles {
      uint64_t of[2][64] = {};  // by colour, then the colour's six mask bits
      constexpr Nibbles() {
        for (int c = 0; c < 2; ++c)
          for (unsigned bits = 0; bits < 64; ++bits)
            for (int i = 1; i < 6; ++i)  // bit 0 is the king: no nibble
              if (bits >> i & 1)
                of[c][bits] |= uint64_t(15) << sig::MaterialKey::shift(chess::Color(c), kPieceTypeOfBit[i]);
      }
    };
    static constexpr Nibbles kNibbles;
    uint64_t x = key.bits() & (kNibbles.of[0][mask & 63] | kNibbles.of[1][(mask >> 6) & 63]);
    x = (x & 0x0F0F0F0F0F0F0F0Full) + ((x >> 4) & 0x0F0F0F0F0F0F0F0Full);  // byte sums
    return int64_t((x * 0x0101010101010101ull) >> 56) + (mask & 1) + (mask >> 6 & 1);
  }
  int64_t total = 0;
  for (int i = 0; i < 12; ++i) {
    if (!(mask >> i & 1)) continue;
    const chess::Color c = chess::Color(i / 6);
    const chess::PieceType pt = kPieceTypeOfBit[i % 6];
    const int64_t n = pt == chess::KING ? 1 : key.count(c, pt);
    const int64_t v = power ? n * eval::piece_power(chess::make_piece(c, pt)) : n;
    total += colour_sign == 0 || c == chess::WHITE ? v : -v;
  }
  return total;
}

/// True when some value of [first, last] lies in the range [lo, hi], a bound written `end-N`
/// (lo_end / hi_end) being end - N.
inline bool in_window(int64_t lo, int64_t hi, bool lo_end, bool hi_end, int64_t first, int64_t last,
                      int64_t end) {
  const int64_t l = lo_end ? end - lo : lo, h = hi_end ? end - hi : hi;
  return std::max(l, first) <= std::min(h, last);
}

/// The tests of `c` that read only plies, start_game_ply, castlings, checks and the header
/// values, which sig::Signature and sig::Summary (`S`) both have; nullopt for every other op.
/// Condition::holds and Condition::holds_summary ask it first, so both answer these the same
/// way.
template <class S>
std::optional<bool> shared_field_test(const Condition& c, const S& s, const eval::GameInfo* info) {
  switch (c.op) {
    case CondOp::kCastled: return (s.castlings & c.as<cond::Castling>().rights) != 0;
    case CondOp::kCastledAt: {
      const cond::Castling& castling = c.as<cond::Castling>();
      const eval::IntRange& r = castling.moves;
      const int64_t last = sig::full_move_number(s.start_game_ply, s.plies);
      for (int bit = 0; bit < 4; ++bit) {
        if (!((s.castlings & castling.rights) >> bit & 1)) continue;
        const int64_t move = sig::full_move_number(s.start_game_ply, s.castling_plies[bit]);
        if (in_window(r.lo, r.hi, r.lo_from_end, r.hi_from_end, move, move, last)) return true;
      }
      return false;
    }
    case CondOp::kHasMove: return s.plies > 0;
    case CondOp::kAnyCheck: {
      const cond::Checks* count = std::get_if<cond::Checks>(&c.payload);
      const int64_t white = s.checks[chess::WHITE], black = s.checks[chess::BLACK];
      if (!count) return white + black > 0;
      return white + black >= count->at_least || white >= sig::kMaxChecks || black >= sig::kMaxChecks;
    }
    case CondOp::kDoubleCheck: return s.double_checks != 0;
    case CondOp::kPlyWindow: {
      const eval::IntRange& r = c.as<cond::Window>().range;
      return in_window(r.lo, r.hi, r.lo_from_end, r.hi_from_end, 0, s.plies, s.plies);
    }
    case CondOp::kMoveWindow: {
      const eval::IntRange& r = c.as<cond::Window>().range;
      const int64_t first = sig::full_move_number(s.start_game_ply, 0);
      const int64_t last = sig::full_move_number(s.start_game_ply, s.plies);
      return in_window(r.lo, r.hi, r.lo_from_end, r.hi_from_end, first, last, last);
    }
    case CondOp::kResult: return !info || ((c.as<cond::Results>().codes >> info->result) & 1);
    case CondOp::kElo: {
      if (!info) return true;
      const cond::Elo& elo = c.as<cond::Elo>();
      auto in = [&](int64_t v) { return v >= elo.range.lo && v <= elo.range.hi; };
      if (elo.which == 1) return in(info->white_elo);
      if (elo.which == 2) return in(info->black_elo);
      return in(info->white_elo) || in(info->black_elo);
    }
    default: return std::nullopt;
  }
}

}  // namespace planner
