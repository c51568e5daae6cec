#include "eval/game_matcher.h"

#include <algorithm>

#include "chess/movegen.h"
#include "db/errors.h"
#include "eval/lookahead.h"
#include "eval/match_count.h"
#include "eval/node.h"
#include "eval/sequence.h"
#include "eval/start_position.h"

namespace eval {

namespace {

/// Moves the promoted-piece marks along with move `m` (played in `pos`, before the move).
chess::Bitboard update_promoted(chess::Bitboard promoted, chess::Move m) {
  if (m == chess::Move::null() || m.kind() == chess::Move::CASTLING) return promoted;
  chess::Bitboard from = chess::square_bb(m.from_sq()), to = chess::square_bb(m.to_sq());
  bool was_promoted = promoted & from;
  promoted &= ~(from | to);
  if (was_promoted || m.kind() == chess::Move::PROMOTION) promoted |= to;
  return promoted;
}

}  // namespace

GameMatcher::GameMatcher(const Program& program) : program_(program) {}

bool GameMatcher::satisfied(const MatchCount& rule, size_t slot) const {
  if (!rule.pretransform) return rule.contains(list_count_[slot]);
  for (uint32_t n : variant_count_[slot])
    if (rule.contains(n)) return true;
  return false;
}

template <class OnPosition>
void GameMatcher::replay(const db::RecordView& record, chess::Position& pos, PosCtx& c,
                         OnPosition&& on_position) {
  const uint32_t last_ply = c.last_ply;
  const bool lookahead = program_.needs_lookahead();
  const bool repetition = program_.needs_repetition();
  if (repetition) keys_.clear();
  chess::UndoInfo undo;
  for (uint32_t ply = 0;; ++ply) {
    c.ply = ply;
    c.next = ply < last_ply ? record.main_move(ply) : chess::Move::none();
    if (repetition) {
      keys_.push_back(pos.key());
      uint32_t n = 0;
      int back = std::min<int>(pos.rule50_count(), int(ply));
      for (int j = int(ply); j >= int(ply) - back; j -= 2) n += keys_[j] == pos.key();
      c.occurrences = n;
    }
    c.next_facts = lookahead && ply < last_ply ? next_move_facts(pos, c.next) : 0;
    on_position(static_cast<const PosCtx&>(c));
    if (ply == last_ply) break;
    chess::Move m = c.next;
    if (m == chess::Move::null()) {
      if (pos.in_check()) throw db::CorruptRecord("stored null move while in check");
      pos.do_null_move(undo);
    } else {
      if (!m.is_ok() || pos.piece_on(m.from_sq()) == chess::NO_PIECE ||
          chess::color_of(pos.piece_on(m.from_sq())) != pos.side_to_move() || !pos.is_legal(m))
        throw db::CorruptRecord("stored move is illegal on its board");
      c.promoted = update_promoted(c.promoted, m);
      chess::Color mover = pos.side_to_move();
      pos.do_move(m, undo);
      if (pos.in_check()) ++c.checks_given[mover];
    }
  }
}

bool GameMatcher::match(const db::RecordView& record, unsigned alternatives, const GameInfo* info,
                        std::vector<uint32_t>& plies, uint64_t& positions) {
  const auto& alts = program_.alternatives();
  plies.clear();
  chess::Position pos;
  if (!record.start_fen().empty()) {
    chess::FenError err = pos.set_fen(record.start_fen(), record.chess960());
    if (!err.ok()) throw db::CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  const uint32_t last_ply = record.main_line_size();
  PosCtx c;
  c.pos = &pos;
  c.info = info;
  c.last_ply = last_ply;
  c.last_movenumber = 1 + (pos.game_ply() + int(last_ply)) / 2;
  c.start_position = int16_t(shuffle_chess_number(pos));
  c.chess960 = record.chess960();

  size_t max_lists = 0;
  for (const Alternative& a : alts) max_lists = std::max(max_lists, a.lists.size());
  list_count_.assign(alts.size() * max_lists, 0);
  variant_count_.resize(alts.size() * max_lists);
  variant_run_.resize(alts.size() * max_lists);
  for (size_t a = 0; a < alts.size(); ++a)
    for (size_t i = 0; i < alts[a].lists.size(); ++i)
      if (alts[a].counts[i].pretransform) {
        const size_t n = std::max<size_t>(1, alts[a].lists[i]->variants.size());
        variant_count_[a * max_lists + i].assign(n, 0);
        variant_run_[a * max_lists + i].assign(n, 0);
      }
  // Runs of consecutive matches (:repetitioncount) do not continue from one line into another.
  auto start_line = [&] {
    list_run_.assign(alts.size() * max_lists, 0);
    for (auto& runs : variant_run_) std::fill(runs.begin(), runs.end(), 0);
  };
  start_line();
  ply_hit_.assign(alts.size() * (size_t(last_ply) + 1), 0);

  // Evaluates the alternatives' top-level lists at the position `at`.
  auto evaluate = [&](const PosCtx& at) {
    ++positions;
    for (size_t a = 0; a < alts.size(); ++a) {
      if (!(alternatives >> a & 1)) continue;
      const auto& lists = alts[a].lists;
      for (size_t i = 0; i < lists.size(); ++i) {
        const LineScope scope = alts[a].scopes[i];
        if (at.inside_variation ? scope == LineScope::kMainLine : scope == LineScope::kVariationsOnly)
          continue;
        const MatchCount& rule = alts[a].counts[i];
        const size_t slot = a * max_lists + i;
        bool hit;
        if (rule.consecutive) {
          if (rule.pretransform) {
            hit = track_variant_runs(*lists[i], at, variant_run_[slot], variant_count_[slot]);
          } else {
            hit = lists[i]->match(at);
            list_run_[slot] = hit ? list_run_[slot] + 1 : 0;
            list_count_[slot] = std::max(list_count_[slot], list_run_[slot]);
          }
        } else {
          hit = rule.pretransform ? count_variant_matches(*lists[i], at, variant_count_[slot])
                                  : lists[i]->match(at);
          if (hit) ++list_count_[slot];
        }
        if (hit) {
          // reported plies are main-line plies; variation positions count for the game only
          if (!at.inside_variation) ply_hit_[a * (size_t(last_ply) + 1) + at.ply] = 1;
        }
      }
    }
  };

  chess::Position start;  // the start position, kept for the variations
  if (program_.needs_variations()) start = pos;
  if (program_.sequences().empty()) {
    replay(record, pos, c, evaluate);
  } else {
    // Sequences look at later positions: keep the whole line, decide every sequence on it
    // (nested ones first, eval/sequence.h), then evaluate the lists position by position.
    line_positions_.resize(size_t(last_ply) + 1);
    line_.resize(size_t(last_ply) + 1);
    c.sequence_hits = &sequence_hits_;
    replay(record, pos, c, [&](const PosCtx& at) {
      line_positions_[at.ply] = *at.pos;
      line_[at.ply] = at;
      line_[at.ply].pos = &line_positions_[at.ply];
    });
    sequence_hits_.resize(program_.sequences().size());
    for (size_t id = 0; id < program_.sequences().size(); ++id)
      find_sequence(*program_.sequences()[id], line_, sequence_scratch_, sequence_hits_[id]);
    for (const PosCtx& at : line_) evaluate(at);
  }
  if (program_.needs_variations() && record.has_variations()) {
    // Each variation is a line of its own; its sequences are decided on it.
    PosCtx base = c;
    base.sequence_hits = &variation_sequence_hits_;
    variation_sequence_hits_.resize(program_.sequences().size());
    walker_.walk(record, start, base, program_.needs_lookahead(), program_.needs_repetition(),
                 [&](std::span<const PosCtx> line) {
                   start_line();
                   for (size_t id = 0; id < program_.sequences().size(); ++id)
                     find_sequence(*program_.sequences()[id], line, sequence_scratch_,
                                   variation_sequence_hits_[id]);
                   for (const PosCtx& at : line) evaluate(at);
                 });
  }

  bool matched = false;
  for (size_t a = 0; a < alts.size(); ++a) {
    if (!(alternatives >> a & 1)) continue;
    bool all = true;
    for (size_t i = 0; i < alts[a].lists.size(); ++i) all &= satisfied(alts[a].counts[i], a * max_lists + i);
    if (!all) continue;
    matched = true;
    for (uint32_t p = 0; p <= last_ply; ++p)
      if (ply_hit_[a * (size_t(last_ply) + 1) + p]) plies.push_back(p);
  }
  if (alts.size() > 1) {
    std::sort(plies.begin(), plies.end());
    plies.erase(std::unique(plies.begin(), plies.end()), plies.end());
  }
  return matched;
}

}  // namespace eval
