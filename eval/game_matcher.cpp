#include "eval/game_matcher.h"

#include <algorithm>
#include <type_traits>

#include "chess/movegen.h"
#include "chess/position_key.h"
#include "db/errors.h"
#include "eval/accumulator.h"
#include "eval/control.h"
#include "eval/cql6_values.h"
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
  cql6_values::begin_search();  // CQL 6 variables (issue 37): each search starts unbound
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

namespace {

/// The lists of the program's longest alternative: the row length of the count slots.
size_t max_lists_of(const Program& program) {
  size_t n = 0;
  for (const Alternative& a : program.alternatives()) n = std::max(n, a.lists.size());
  return n;
}

/// True if a list of scope `scope` is evaluated at `at` (main line, variations, or both).
bool in_scope(LineScope scope, const PosCtx& at) {
  return at.inside_variation ? scope != LineScope::kMainLine : scope != LineScope::kVariationsOnly;
}

}  // namespace

GameMatcher::GameState::GameState(GameMatcher& m, const db::RecordView& game, unsigned alternatives_in,
                                  uint64_t& positions_out)
    : record(game),
      alternatives(alternatives_in),
      positions(positions_out),
      last_ply(game.main_line_size()),
      max_lists(max_lists_of(m.program_)),
      control(m.program_.needs_control()),
      refs{m.list_count_, m.list_run_, m.variant_count_, m.variant_run_, m.ply_hit_, max_lists,
           size_t(last_ply) + 1, m.variation_hit_, 0} {}

void GameMatcher::begin_game(GameState& g, const GameInfo* info) {
  if (!g.record.start_fen().empty()) {
    chess::FenError err = g.pos.set_fen(g.record.start_fen(), g.record.chess960());
    if (!err.ok()) throw db::CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  PosCtx& c = g.c;
  static thread_local uint64_t game_serial = 0;
  c.game = ++game_serial;
  c.record = &g.record;
  c.pos = &g.pos;
  c.analysis = analysis_;
  c.info = info;
  c.last_ply = g.last_ply;
  c.last_movenumber = 1 + (g.pos.game_ply() + int(g.last_ply)) / 2;
  c.start_position = int16_t(chess::shuffle_chess_number(g.pos));
  c.chess960 = g.record.chess960();
  // :cut / :exclude / :skip and accumulators (eval/control.h, eval/accumulator.h)
  if (g.control) c.control = &control_.flags;
  if (program_.accumulator_counters()) {
    accumulators_.counts.assign(program_.accumulator_counters(), 0);
    c.accumulators = &accumulators_;
  }
  reset_counts(g);
  if (program_.needs_variations() || program_.needs_relation_variations() || program_.needs_line_moves())
    g.start = g.pos;
  c.start = &g.start;  // :line* replays its moves from here
}

void GameMatcher::start_line(GameState& g) {
  list_run_.assign(program_.alternatives().size() * g.max_lists, 0);
  for (auto& runs : variant_run_) std::fill(runs.begin(), runs.end(), 0);
  if (g.control) control_.start_line(g.refs);
}

void GameMatcher::reset_counts(GameState& g) {
  const auto& alts = program_.alternatives();
  if (g.control) control_.start_game(alts.size());
  list_count_.assign(alts.size() * g.max_lists, 0);
  variant_count_.resize(alts.size() * g.max_lists);
  variant_run_.resize(alts.size() * g.max_lists);
  for (size_t a = 0; a < alts.size(); ++a)
    for (size_t i = 0; i < alts[a].lists.size(); ++i)
      if (alts[a].counts[i].pretransform) {
        const size_t n = std::max<size_t>(1, alts[a].lists[i]->variants.size());
        variant_count_[a * g.max_lists + i].assign(n, 0);
        variant_run_[a * g.max_lists + i].assign(n, 0);
      }
  start_line(g);
  ply_hit_.assign(alts.size() * g.row(), 0);
}

void GameMatcher::evaluate(GameState& g, const PosCtx& at, bool count) {
  const auto& alts = program_.alternatives();
  ++g.positions;
  for (size_t a = 0; a < alts.size(); ++a) {
    if (!(g.alternatives >> a & 1)) continue;
    if (g.control) {
      if (control_.stopped(a)) continue;
      control_.begin_position(a, g.refs);
    }
    if (!alts[a].accumulating.empty() && at.accumulators == &accumulators_)  // else counted per ply
      accumulate(alts[a].accumulating, at, accumulators_);
    for (const ControlArgument& arg : alts[a].controls)
      if (in_scope(alts[a].scopes[arg.top_list], at) && arg.list->match(at)) control_.flags.fire(arg.bits);
    const auto& lists = alts[a].lists;
    for (size_t i = 0; i < lists.size(); ++i) {
      if (!in_scope(alts[a].scopes[i], at)) continue;
      const MatchCount& rule = alts[a].counts[i];
      const size_t slot = a * g.max_lists + i;
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
        hit = rule.pretransform ? count_variant_matches(*lists[i], at, variant_count_[slot]) : lists[i]->match(at);
        if (hit && count) ++list_count_[slot];
      }
      if (hit) {
        if (!at.inside_variation) ply_hit_[a * g.row() + at.ply] = 1;
        else variation_hit_[a * g.refs.variation_plies + (at.ply - at.line_first_ply)] = 1;
      }
    }
    if (g.control) control_.end_position(a, at, g.refs);
  }
}

void GameMatcher::count_line(GameState& g, std::span<PosCtx> line) {
  const auto& alts = program_.alternatives();
  line_accumulators_.resize(std::max(line_accumulators_.size(), line.size()));
  for (size_t p = 0; p < line.size(); ++p) {
    Accumulators& acc = line_accumulators_[p];
    acc.counts.assign(program_.accumulator_counters(), 0);
    line[p].accumulators = &acc;
    for (size_t a = 0; a < alts.size(); ++a)
      if (g.alternatives >> a & 1) add_accumulation(alts[a].accumulating, line[p], acc);
  }
}

bool GameMatcher::tally(GameState& g, std::vector<uint32_t>& out) {
  const auto& alts = program_.alternatives();
  bool matched = false;
  for (size_t a = 0; a < alts.size(); ++a) {
    if (!(g.alternatives >> a & 1)) continue;
    if (g.control && control_.excluded(a)) continue;
    bool all = true;
    for (size_t i = 0; i < alts[a].lists.size(); ++i) all &= satisfied(alts[a].counts[i], a * g.max_lists + i);
    if (!all) continue;
    matched = true;
    for (uint32_t p = 0; p <= g.last_ply; ++p)
      if (ply_hit_[a * g.row() + p]) out.push_back(p);
    for (const auto& [alternative, where] : variation_found_)
      if (alternative == a) variation_out_.push_back(where);
  }
  return matched;
}

void GameMatcher::collect_relation_variation_boards(GameState& g) {
  relation_variation_boards_.clear();
  if (!program_.needs_relation_variations() || !g.record.has_variations()) return;
  walker_.walk(g.record, g.start, g.c, false, false, [&](std::span<const PosCtx> line) {
    for (size_t i = 1; i < line.size(); ++i) {
      relation_variation_boards_.push_back(relation_board(*line[i].pos, line[i].promoted, line[i].ply));
      relation_variation_boards_.back().branch_ply = line[0].ply;
    }
  });
}

void GameMatcher::match_main_line(GameState& g) {
  const auto& alts = program_.alternatives();
  // The usual shape, one alternative with one plain position list, skips the general
  // bookkeeping of evaluate() (same counts and plies).
  const bool plain = alts.size() == 1 && (g.alternatives & 1) && !g.control && alts[0].accumulating.empty() &&
                     alts[0].controls.empty() && alts[0].lists.size() == 1 && !alts[0].counts[0].consecutive &&
                     !alts[0].counts[0].pretransform;
  const std::vector<uint8_t>* allowed = ply_windows_ && ply_windows_->size() == g.row()
                                            ? ply_windows_  // planner ply windows
                                            : nullptr;
  if (plain && alts[0].scopes[0] != LineScope::kVariationsOnly) {
    const PositionList& list = *alts[0].lists[0];
    uint32_t hits = 0;
    uint64_t& positions = g.positions;
    uint8_t* hit_at = ply_hit_.data();
    // With a :fen horizon the replay stops once no target position can occur any more
    // (no later position can match; the moves after it are not read).
    const bool horizon = !fen_horizon_.empty();
    replay(g.record, g.pos, g.c, [&](const PosCtx& at) {
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
    replay(g.record, g.pos, g.c, [&](const PosCtx& at) {
      if ((*allowed)[at.ply]) evaluate(g, at);
    });
  } else {
    replay(g.record, g.pos, g.c, [&](const PosCtx& at) { evaluate(g, at); });
  }
}

bool GameMatcher::match_kept_line(GameState& g, std::vector<uint32_t>& plies) {
  // Sequences and relations look at later positions: keep the whole line, decide every
  // sequence on it (nested sequences first, eval/sequence.h; relations are decided lazily
  // where asked, eval/relation.h), then evaluate the lists position by position. With tags
  // (eval/tagging.h) the marks are followed along the line and the lists are evaluated once
  // per binding of the tags.
  line_positions_.resize(g.row());
  line_.resize(g.row());
  g.c.sequence_hits = &sequence_hits_;
  if (!program_.relations().empty()) g.c.relation = &relation_line_;
  const auto& tags = program_.tags();
  const bool tagged = !tags.empty();
  tag_qualifying_.assign(tags.size(), 0);
  if (tagged) marks_by_ply_.resize(g.row());
  MarkBoard marks;
  replay(g.record, g.pos, g.c, [&](const PosCtx& at) {
    line_positions_[at.ply] = *at.pos;
    line_[at.ply] = at;
    line_[at.ply].pos = &line_positions_[at.ply];
    if (!tagged) return;
    if (at.ply == 0) marks.reset(*at.pos);
    marks_by_ply_[at.ply] = marks.square_of;
    for (size_t t = 0; t < tags.size(); ++t) tag_qualifying_[t] |= qualifying_marks(tags[t], marks, *at.pos, at.promoted);
    marks.play(*at.pos, at.next);
  });
  if (!program_.relations().empty()) relation_line_.reset(program_.relations(), line_, relation_variation_boards_);
  if (!tagged) {
    decide_kept_line(g, nullptr);
    return false;
  }
  const bool prepass = !relaxed_tag_lists_.empty() && (g.alternatives & 1);
  if (prepass && !tag_prepass()) return false;  // no binding can match
  bool matched = false;  // some binding matched (plies = union over them)
  for (const auto& binding : tag_bindings(tag_qualifying_)) {
    reset_counts(g);
    for (PosCtx& at : line_)
      for (size_t t = 0; t < tags.size(); ++t) {
        const uint8_t sq = binding[t] < marks.marks ? marks_by_ply_[at.ply][binding[t]] : MarkBoard::kGone;
        at.tag_squares[t] = sq < 64 ? chess::Bitboard(1) << sq : 0;
      }
    decide_kept_line(g, prepass ? &relaxed_hit_ : nullptr);
    matched |= tally(g, plies);
  }
  return matched;
}

void GameMatcher::decide_kept_line(GameState& g, const std::vector<uint8_t>* only) {
  if (line_counters_) count_line(g, line_);
  sequence_hits_.resize(program_.sequences().size());
  for (size_t id = 0; id < program_.sequences().size(); ++id)
    find_sequence(*program_.sequences()[id], line_, sequence_scratch_, sequence_hits_[id]);
  for (const PosCtx& at : line_)
    if (!only || (*only)[at.ply]) evaluate(g, at);
}

bool GameMatcher::tag_prepass() {
  // Every tag stands for all its qualifying pieces at once (eval/tagging.h): a binding can
  // match only where a relaxed list matches, and needs each list's lower bound.
  const auto& tags = program_.tags();
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
  const Alternative& first = program_.alternatives()[0];
  for (size_t i = 0; i < relaxed_count.size(); ++i)
    if (relaxed_count[i] < first.counts[i].lo) return false;
  return true;
}

void GameMatcher::evaluate_tree_node(GameState& g, const PosCtx& at, size_t i) {
  // CQL 6 has one alternative (compile_cql6). The main line was evaluated first, so a
  // main-line node's hit is ply_hit_; a variation's nodes may be met first as the branch
  // position of a sub-variation (reported before the variation containing it).
  const bool main_line = tree_node_.size() == 1;
  const bool counted = main_line ? ply_hit_[tree_node_[0]] != 0 : counted_nodes_.count(tree_node_) > 0;
  evaluate(g, at, !counted);
  if (!variation_hit_[i]) return;
  if (counted || main_line) variation_hit_[i] = 0;  // reported where it was counted / as the main-line ply
  if (counted) return;
  if (main_line) ply_hit_[tree_node_[0]] = 1;
  else counted_nodes_.insert(tree_node_);
}

void GameMatcher::match_variations(GameState& g) {
  counted_nodes_.clear();
  const size_t alternatives = program_.alternatives().size();
  // Each variation is a line of its own; its sequences and relations are decided on it.
  PosCtx base = g.c;
  base.sequence_hits = &variation_sequence_hits_;
  if (!program_.relations().empty()) base.relation = &variation_relation_line_;
  variation_sequence_hits_.resize(program_.sequences().size());
  walker_.walk(g.record, g.start, base, program_.needs_lookahead(), program_.needs_repetition(),
               [&](std::span<const PosCtx> walked) {
                 std::span<const PosCtx> line = walked;
                 if (line_counters_) {  // the variation's own counters per ply
                   variation_line_.assign(walked.begin(), walked.end());
                   count_line(g, variation_line_);
                   line = variation_line_;
                 }
                 start_line(g);
                 if (!program_.relations().empty())
                   variation_relation_line_.reset(program_.relations(), line, relation_variation_boards_);
                 for (size_t id = 0; id < program_.sequences().size(); ++id)
                   find_sequence(*program_.sequences()[id], line, sequence_scratch_, variation_sequence_hits_[id]);
                 // each alternative's hits in this line, kept as ply paths
                 g.refs.variation_plies = line.size();
                 if (!line.empty())  // CQL 6 `comment` inside the variation (issue 37)
                   cql6_values::begin_variation_line(line[0].variation_serial, walker_.line_path(), line[0].ply);
                 variation_hit_.assign(alternatives * line.size(), 0);
                 for (size_t i = 0; i < line.size(); ++i) {
                   if (!program_.tree_positions_once()) {
                     evaluate(g, line[i]);
                     continue;
                   }
                   tree_node_ = walker_.line_path();  // line[0]: the parent line's node
                   if (i == 0) tree_node_.pop_back();
                   else tree_node_.push_back(uint32_t(i));
                   evaluate_tree_node(g, line[i], i);
                 }
                 for (size_t a = 0; a < alternatives; ++a)
                   for (size_t i = 0; i < line.size(); ++i)
                     if (variation_hit_[a * line.size() + i]) {
                       VariationPly where = walker_.line_path();
                       where.push_back(uint32_t(i));
                       variation_found_.emplace_back(a, std::move(where));
                     }
               });
}

bool GameMatcher::match(const db::RecordView& record, unsigned alternatives, const GameInfo* info,
                        std::vector<uint32_t>& plies, uint64_t& positions) {
  cql6_values::begin_game();  // CQL 6 variables (issue 37): a new game unbinds the non-persistent ones
  plies.clear();
  variation_found_.clear();
  variation_out_.clear();
  GameState g(*this, record, alternatives, positions);
  begin_game(g, info);
  collect_relation_variation_boards(g);
  const bool tagged = !program_.tags().empty();
  const bool kept = !program_.sequences().empty() || !program_.relations().empty() || tagged;
  bool tag_matched = false;
  if (kept) tag_matched = match_kept_line(g, plies);
  else match_main_line(g);
  if (program_.needs_variations() && record.has_variations()) match_variations(g);

  const bool matched = tagged ? tag_matched : tally(g, plies);
  if (program_.alternatives().size() > 1 || tagged) {
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
