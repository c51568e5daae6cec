#include "eval/game_matcher.h"

#include <algorithm>
#include <type_traits>

#include "chess/movegen.h"
#include "chess/position_key.h"
#include "db/errors.h"
#include "eval/accumulator.h"
#include "eval/control.h"
#include "eval/lookahead.h"
#include "eval/match_count.h"
#include "eval/node.h"
#include "eval/relation.h"
#include "eval/sequence.h"
#include "chess/start_position.h"
#include "eval/tagging.h"

namespace eval {


GameMatcher::GameMatcher(const Program& program)
    : program_(program),
      line_counters_(sequences_read_counters(program.sequences())),
      relaxed_tag_lists_(relaxed_tag_lists(program)) {
  // The :fen horizon of the first list (used when the game takes the plain path below):
  // every variant must contain a :fen item, so the list can match only where one of those
  // positions stands; once none of them can occur any more, later positions cannot match.
  const auto& alts = program.alternatives();
  if (alts.empty() || alts[0].lists.empty()) return;
  const PositionList& list = *alts[0].lists[0];
  if (list.negated || list.control || list.variants.empty()) return;
  std::vector<chess::Frontier> targets;
  for (const std::vector<Node>& variant : list.variants) {
    const Node* fen = nullptr;
    for (const Node& n : variant)
      if (n.op == Op::kFen && !n.negate) fen = &n;
    if (!fen) return;
    targets.push_back(chess::Frontier::of(*fen->as<payload::FenPosition>().position));
  }
  fen_horizon_ = std::move(targets);
}

bool GameMatcher::fen_reachable(const chess::Position& pos) const {
  const chess::Frontier now = chess::Frontier::of(pos);
  for (const chess::Frontier& target : fen_horizon_)
    if (now.may_reach(target)) return true;
  return false;
}

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
  const bool check_counts = program_.needs_check_counts();  // else checks stay uncomputed
  if (repetition) keys_.clear();
  const bool line_moves = program_.needs_line_moves();  // :line (eval/line.h)
  db::MainLineCursor moves(record);
  if (line_moves) {  // read up front; the loop below then takes its moves from main_moves_
    main_moves_.resize(last_ply);
    for (uint32_t i = 0; i < last_ply; ++i) main_moves_[i] = moves.next();
  }
  chess::UndoInfo undo;
  for (uint32_t ply = 0;; ++ply) {
    c.ply = ply;
    c.next = ply >= last_ply ? chess::Move::none() : line_moves ? main_moves_[ply] : moves.next();
    // Checked before anything looks at it (lookahead plays it).
    if (ply < last_ply && !is_playable_stored(pos, c.next))
      throw db::CorruptRecord(c.next == chess::Move::null() ? "stored null move while in check"
                                                            : "stored move is illegal on its board");
    if (line_moves) {
      c.line_moves = main_moves_.data() + ply;
      c.line_moves_left = last_ply - ply;
    }
    if (repetition) {
      keys_.push_back(pos.key());
      uint32_t n = 0;
      int back = std::min<int>(pos.rule50_count(), int(ply));
      for (int j = int(ply); j >= int(ply) - back; j -= 2) n += keys_[j] == pos.key();
      c.occurrences = n;
    }
    c.next_facts = lookahead && ply < last_ply ? next_move_facts(pos, c.next) : 0;
    if constexpr (std::is_same_v<decltype(on_position(static_cast<const PosCtx&>(c))), bool>) {
      if (!on_position(static_cast<const PosCtx&>(c))) break;  // nothing later can match
    } else {
      on_position(static_cast<const PosCtx&>(c));
    }
    if (ply == last_ply) break;
    chess::Move m = c.next;
    if (m == chess::Move::null()) {
      pos.do_null_move(undo);
      c.material_new = false;
    } else {
      c.promoted = update_promoted(c.promoted, m);
      c.material_new = m.kind() == chess::Move::PROMOTION || pos.is_capture(m);
      chess::Color mover = pos.side_to_move();
      pos.do_move(m, undo);
      if (check_counts && pos.in_check()) ++c.checks_given[mover];
    }
  }
}

bool GameMatcher::match(const db::RecordView& record, unsigned alternatives, const GameInfo* info,
                        std::vector<uint32_t>& plies, uint64_t& positions) {
  const auto& alts = program_.alternatives();
  plies.clear();
  variation_found_.clear();
  variation_out_.clear();
  chess::Position pos;
  if (!record.start_fen().empty()) {
    chess::FenError err = pos.set_fen(record.start_fen(), record.chess960());
    if (!err.ok()) throw db::CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  const uint32_t last_ply = record.main_line_size();
  PosCtx c;
  static thread_local uint64_t game_serial = 0;
  c.game = ++game_serial;
  c.pos = &pos;
  c.analysis = analysis_;
  c.info = info;
  c.last_ply = last_ply;
  c.last_movenumber = 1 + (pos.game_ply() + int(last_ply)) / 2;
  c.start_position = int16_t(chess::shuffle_chess_number(pos));
  c.chess960 = record.chess960();
  // :cut / :exclude / :skip and accumulators (eval/control.h, eval/accumulator.h)
  const bool control = program_.needs_control();
  if (control) c.control = &control_.flags;
  if (program_.accumulator_counters()) {
    accumulators_.counts.assign(program_.accumulator_counters(), 0);
    c.accumulators = &accumulators_;
  }

  size_t max_lists = 0;
  for (const Alternative& a : alts) max_lists = std::max(max_lists, a.lists.size());
  // Runs of consecutive matches (:repetitioncount) do not continue from one line into another.
  CountRefs refs{list_count_, list_run_, variant_count_, variant_run_, ply_hit_, max_lists, size_t(last_ply) + 1,
                 variation_hit_, 0};
  auto start_line = [&] {
    list_run_.assign(alts.size() * max_lists, 0);
    for (auto& runs : variant_run_) std::fill(runs.begin(), runs.end(), 0);
    if (control) control_.start_line(refs);
  };
  // The counts of one evaluation of the lists (once per game; once per binding with tags).
  auto reset_counts = [&] {
    if (control) control_.start_game(alts.size());
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
    start_line();
    ply_hit_.assign(alts.size() * (size_t(last_ply) + 1), 0);
  };
  reset_counts();

  // Evaluates the alternatives' top-level lists at the position `at`.
  auto evaluate = [&](const PosCtx& at) {
    ++positions;
    for (size_t a = 0; a < alts.size(); ++a) {
      if (!(alternatives >> a & 1)) continue;
      if (control) {
        if (control_.stopped(a)) continue;
        control_.begin_position(a, refs);
      }
      if (!alts[a].accumulating.empty() && at.accumulators == &accumulators_)  // else counted per ply
        accumulate(alts[a].accumulating, at, accumulators_);
      for (const ControlArgument& arg : alts[a].controls) {
        const LineScope scope = alts[a].scopes[arg.top_list];
        if (at.inside_variation ? scope == LineScope::kMainLine : scope == LineScope::kVariationsOnly) continue;
        if (arg.list->match(at)) control_.flags.fire(arg.bits);
      }
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
          if (!at.inside_variation) ply_hit_[a * (size_t(last_ply) + 1) + at.ply] = 1;
          else variation_hit_[a * refs.variation_plies + (at.ply - at.line_first_ply)] = 1;
        }
      }
      if (control) control_.end_position(a, at, refs);
    }
  };

  // :sumrange in line tables: counts the accumulators of every ply of `line` (all alternatives,
  // each on counters of its own) and points the contexts at them.
  auto count_line = [&](std::span<PosCtx> line) {
    line_accumulators_.resize(std::max(line_accumulators_.size(), line.size()));
    for (size_t p = 0; p < line.size(); ++p) {
      Accumulators& acc = line_accumulators_[p];
      acc.counts.assign(program_.accumulator_counters(), 0);
      line[p].accumulators = &acc;
      for (size_t a = 0; a < alts.size(); ++a)
        if (alternatives >> a & 1) add_accumulation(alts[a].accumulating, line[p], acc);
    }
  };

  // True if the counts satisfy some alternative; appends its matched plies to `out`.
  auto tally = [&](std::vector<uint32_t>& out) {
    bool matched = false;
    for (size_t a = 0; a < alts.size(); ++a) {
      if (!(alternatives >> a & 1)) continue;
      if (control && control_.excluded(a)) continue;
      bool all = true;
      for (size_t i = 0; i < alts[a].lists.size(); ++i) all &= satisfied(alts[a].counts[i], a * max_lists + i);
      if (!all) continue;
      matched = true;
      for (uint32_t p = 0; p <= last_ply; ++p)
        if (ply_hit_[a * (size_t(last_ply) + 1) + p]) out.push_back(p);
      for (const auto& [alternative, where] : variation_found_)
        if (alternative == a) variation_out_.push_back(where);
    }
    return matched;
  };

  chess::Position start;  // the start position, kept for the variations
  if (program_.needs_variations() || program_.needs_relation_variations() || program_.needs_line_moves())
    start = pos;
  c.start = &start;  // :line* replays its moves from here
  const bool tagged = !program_.tags().empty();
  bool tag_matched = false;  // with tags: some binding matched (plies = union over them)
  if (program_.needs_relation_variations() && record.has_variations()) {
    // relation:variations: the boards of every variation position, P2 candidates
    relation_variation_boards_.clear();
    walker_.walk(record, start, c, false, false, [&](std::span<const PosCtx> line) {
      for (size_t i = 1; i < line.size(); ++i) {
        relation_variation_boards_.push_back(relation_board(*line[i].pos, line[i].promoted, line[i].ply));
        relation_variation_boards_.back().branch_ply = line[0].ply;
      }
    });
  } else {
    relation_variation_boards_.clear();
  }
  if (program_.sequences().empty() && program_.relations().empty() && !tagged) {
    // The usual shape, one alternative with one plain position list, skips the general
    // bookkeeping of `evaluate` (same counts and plies).
    const bool plain = alts.size() == 1 && (alternatives & 1) && !control && alts[0].accumulating.empty() &&
                       alts[0].controls.empty() && alts[0].lists.size() == 1 && !alts[0].counts[0].consecutive &&
                       !alts[0].counts[0].pretransform;
    const std::vector<uint8_t>* allowed = ply_windows_ && ply_windows_->size() == size_t(last_ply) + 1
                                              ? ply_windows_  // planner ply windows
                                              : nullptr;
    if (plain && alts[0].scopes[0] != LineScope::kVariationsOnly) {
      const PositionList& list = *alts[0].lists[0];
      uint32_t hits = 0;
      uint8_t* hit_at = ply_hit_.data();
      // With a :fen horizon the replay stops once no target position can occur any more
      // (no later position can match; the moves after it are not read).
      const bool horizon = !fen_horizon_.empty();
      replay(record, pos, c, [&](const PosCtx& at) {
        if (!allowed || (*allowed)[at.ply]) {
          ++positions;
          if (list.match(at)) {
            ++hits;
            hit_at[at.ply] = 1;
          }
        }
        return !horizon || fen_reachable(*at.pos);
      });
      list_count_[0] += hits;
    } else if (allowed) {
      replay(record, pos, c, [&](const PosCtx& at) {
        if ((*allowed)[at.ply]) evaluate(at);
      });
    } else {
      replay(record, pos, c, evaluate);
    }
  } else {
    // Sequences and relations look at later positions: keep the whole line, decide every
    // sequence on it (nested sequences first, eval/sequence.h; relations are decided lazily
    // where asked, eval/relation.h), then evaluate the lists position by position. With tags (eval/tagging.h) the marks are followed
    // along the line and the lists are evaluated once per binding of the tags.
    line_positions_.resize(size_t(last_ply) + 1);
    line_.resize(size_t(last_ply) + 1);
    c.sequence_hits = &sequence_hits_;
    if (!program_.relations().empty()) c.relation = &relation_line_;
    const auto& tags = program_.tags();
    tag_qualifying_.assign(tags.size(), 0);
    if (tagged) marks_by_ply_.resize(size_t(last_ply) + 1);
    MarkBoard marks;
    replay(record, pos, c, [&](const PosCtx& at) {
      line_positions_[at.ply] = *at.pos;
      line_[at.ply] = at;
      line_[at.ply].pos = &line_positions_[at.ply];
      if (!tagged) return;
      if (at.ply == 0) marks.reset(*at.pos);
      marks_by_ply_[at.ply] = marks.square_of;
      for (size_t t = 0; t < tags.size(); ++t) tag_qualifying_[t] |= qualifying_marks(tags[t], marks, *at.pos, at.promoted);
      marks.play(*at.pos, at.next);
    });
    if (!program_.relations().empty())
      relation_line_.reset(program_.relations(), line_, relation_variation_boards_);
    const std::vector<uint8_t>* only = nullptr;  // the tag pre-pass: plies worth evaluating
    auto decide_line = [&] {
      if (line_counters_) count_line(line_);
      sequence_hits_.resize(program_.sequences().size());
      for (size_t id = 0; id < program_.sequences().size(); ++id)
        find_sequence(*program_.sequences()[id], line_, sequence_scratch_, sequence_hits_[id]);
      for (const PosCtx& at : line_)
        if (!only || (*only)[at.ply]) evaluate(at);
    };
    bool no_binding = false;  // the tag pre-pass: no binding can match
    if (tagged && !relaxed_tag_lists_.empty() && (alternatives & 1)) {
      // Every tag stands for all its qualifying pieces at once (eval/tagging.h): a binding
      // can match only where a relaxed list matches, and needs each list's lower bound.
      relaxed_hit_.assign(line_.size(), 0);
      std::vector<uint32_t> relaxed_count(relaxed_tag_lists_.size(), 0);
      for (PosCtx& at : line_) {
        for (size_t t = 0; t < tags.size(); ++t) at.tag_squares[t] = marks_squares(tag_qualifying_[t], marks_by_ply_[at.ply]);
        for (size_t i = 0; i < relaxed_tag_lists_.size(); ++i)
          if (relaxed_tag_lists_[i]->match(at)) {
            ++relaxed_count[i];
            relaxed_hit_[at.ply] = 1;
          }
      }
      for (size_t i = 0; i < relaxed_count.size(); ++i) no_binding |= relaxed_count[i] < alts[0].counts[i].lo;
      only = &relaxed_hit_;
    }
    if (!tagged) {
      decide_line();
    } else if (!no_binding) {
      for (const auto& binding : tag_bindings(tag_qualifying_)) {
        reset_counts();
        for (PosCtx& at : line_)
          for (size_t t = 0; t < tags.size(); ++t) {
            const uint8_t sq = binding[t] < marks.marks ? marks_by_ply_[at.ply][binding[t]] : MarkBoard::kGone;
            at.tag_squares[t] = sq < 64 ? chess::Bitboard(1) << sq : 0;
          }
        decide_line();
        tag_matched |= tally(plies);
      }
    }
  }
  if (program_.needs_variations() && record.has_variations()) {
    // Each variation is a line of its own; its sequences and relations are decided on it.
    PosCtx base = c;
    base.sequence_hits = &variation_sequence_hits_;
    if (!program_.relations().empty()) base.relation = &variation_relation_line_;
    variation_sequence_hits_.resize(program_.sequences().size());
    walker_.walk(record, start, base, program_.needs_lookahead(), program_.needs_repetition(),
                 [&](std::span<const PosCtx> walked) {
                   std::span<const PosCtx> line = walked;
                   if (line_counters_) {  // the variation's own counters per ply
                     variation_line_.assign(walked.begin(), walked.end());
                     count_line(variation_line_);
                     line = variation_line_;
                   }
                   start_line();
                   if (!program_.relations().empty())
                     variation_relation_line_.reset(program_.relations(), line, relation_variation_boards_);
                   for (size_t id = 0; id < program_.sequences().size(); ++id)
                     find_sequence(*program_.sequences()[id], line, sequence_scratch_,
                                   variation_sequence_hits_[id]);
                   // each alternative's hits in this line, kept as ply paths
                   refs.variation_plies = line.size();
                   variation_hit_.assign(alts.size() * line.size(), 0);
                   for (const PosCtx& at : line) evaluate(at);
                   for (size_t a = 0; a < alts.size(); ++a)
                     for (size_t i = 0; i < line.size(); ++i)
                       if (variation_hit_[a * line.size() + i]) {
                         VariationPly where = walker_.line_path();
                         where.push_back(uint32_t(i));
                         variation_found_.emplace_back(a, std::move(where));
                       }
                 });
  }

  const bool matched = tagged ? tag_matched : tally(plies);
  if (alts.size() > 1 || tagged) {
    std::sort(plies.begin(), plies.end());
    plies.erase(std::unique(plies.begin(), plies.end()), plies.end());
  }
  // walked in record order, sub-variations before the variation containing them: sort
  std::sort(variation_out_.begin(), variation_out_.end());
  variation_out_.erase(std::unique(variation_out_.begin(), variation_out_.end()), variation_out_.end());
  if (!matched) variation_out_.clear();
  return matched;
}

}  // namespace eval
