#include "import/game_builder.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "chess/position_key.h"
#include "chess/san.h"
#include "db/stored_move.h"
#include "import/pgn_lenient.h"
#include "index/postings.h"

namespace import {

namespace {

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

/// An Elo tag value as a number; 0 for "", "?", "-" and anything unreadable.
int parse_elo(std::string_view value) {
  int elo = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), elo);
  if (ec != std::errc() || elo < 0 || elo > 4000) return 0;
  return elo;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// Resets every field of `h` to its default (= db::GameHeader{}), keeping the strings'
/// memory, so a header reused game after game allocates nothing once its strings are long
/// enough (issue 42). A field added to db::GameHeader must be reset here too.
void clear_keeping_memory(db::GameHeader& h) {
  h.id = 0;
  h.ordinal = 0;
  for (std::string* s : {&h.source_file, &h.white, &h.black, &h.event, &h.site, &h.date, &h.round, &h.result,
                         &h.eco, &h.start_fen, &h.variant, &h.eco_class, &h.opening})
    s->clear();
  h.white_elo = h.black_elo = 0;
  h.plies = 0;
  h.other_tags.clear();
}

const char* san_category(chess::SanError::Code code) {
  switch (code) {
    case chess::SanError::SYNTAX: return "unreadable move";
    case chess::SanError::NO_SUCH_MOVE: return "impossible move";
    case chess::SanError::ILLEGAL: return "illegal move";
    case chess::SanError::AMBIGUOUS: return "ambiguous move";
    case chess::SanError::NONE: break;
  }
  return "bad move";
}

}  // namespace

GameBuilder::GameBuilder(const MovetextFilter& filter) : filter_(filter) { lines_.resize(8); }

void GameBuilder::build(const RawGame& raw, const std::string& source_file, BuiltGame& out) {
  out.stored = false;
  // Emptied in place: a BuiltGame reused from an earlier batch keeps its strings' memory
  // (issue 42: no allocation per game on the worker path).
  clear_keeping_memory(out.header);
  out.header.source_file.assign(source_file);
  out.header.ordinal = uint32_t(raw.ordinal);
  out.record.clear();
  out.annotations.clear();
  out.counts = AnnotationCounts{};
  out.signature.clear();
  out.posting_keys.clear();
  out.positions.entries.clear();
  if (!sink_) out.positions.entries.reserve(posindex::kIndexedPlies + 1);  // one allocation
  out.positions.frontier = chess::Frontier{};
  out.positions.flags = 0;
  out.position_count = 0;
  sink_mark_ = sink_ ? sink_->size() : 0;
  out.line = 0;
  out.move.clear();
  out.category.clear();
  out.reason.clear();
  out.warnings.clear();
  out_ = &out;
  tag_line_ = raw.first_line;
  // Timed: the parse stage gets the game's time that no other stage took.
  uint64_t begin_ticks = 0, staged_before = 0;
  if (times_) {
    begin_ticks = db::stage_ticks();
    for (uint64_t t : times_->ticks) staged_before += t;
  }
  struct ParseRest {
    db::StageTimes* times;
    uint64_t begin, staged_before;
    ~ParseRest() {
      if (!times) return;
      uint64_t staged = 0;
      for (uint64_t t : times->ticks) staged += t;
      times->ticks[size_t(db::Stage::kParse)] += (db::stage_ticks() - begin) - (staged - staged_before);
    }
  } parse_rest{times_, begin_ticks, staged_before};

  ParseStatus status = parser_.parse(raw, *this);
  for (const PgnDiagnostic& d : status.diagnostics) {
    if (d.severity == PgnSeverity::kWarning)
      out.warnings.emplace_back(d.line, std::string(issue_name(d.issue)) + ": " + d.message);
  }
  if (!rejected_ && status.rejected) {
    const PgnDiagnostic* e = status.error();
    reject(e->line, "", issue_name(e->issue), e->message);
  }
  if (rejected_) return;
  db::StageLap lap(times_);
  try {
    std::string_view bytes = record_.finish();
    out.record.assign(bytes.data(), bytes.size());
    out.annotations.assign(record_.annotations());
  } catch (const std::exception& e) {
    reject(raw.first_line, "", "malformed movetext", e.what());
    return;
  }
  out.header.plies = record_.main_line_size();
  lap.lap(db::Stage::kRecord);
  settle_result(raw.first_line);
  lap.lap(db::Stage::kParse);
  signature_.finish(lines_[0].pos, has_variations_);
  sig::encode(signature_.signature(), out.signature);
  lap.lap(db::Stage::kSignature);
  classify_opening(out.header);
  lap.lap(db::Stage::kEco);
  // The keys of the signature as stored: the encoding round-trips every field exactly
  // (SignatureCodecTest.RoundTripKeepsEveryField; Postings.ImportBuildsThemAndEveryStored
  // PostingEqualsTheSignatures compares them with the stored bytes' keys), so no decode.
  sig::PostingsBuilder::keys_of(signature_.signature(), out.posting_keys);
  lap.lap(db::Stage::kPostings);
  // The position index entries of the record as stored (as a reindex derives them).
  if (capture_positions_) {
    posindex::FreshGame& positions = out.positions;
    positions.flags = 0;
    if (main_plies_ <= posindex::kIndexedPlies) {  // the game ends within the indexed plies
      const chess::Position& end = lines_[0].pos;
      position_entries().push_back({chess::identity_key(end), 0, uint8_t(main_plies_)});
      positions.frontier = chess::Frontier::of(end);
      positions.flags = posindex::GameFacts::kComplete;
    }
  } else {
    posindex::index_record(out.record, out.positions);
    if (sink_) {
      sink_->insert(sink_->end(), out.positions.entries.begin(), out.positions.entries.end());
      out.positions.entries.clear();
    }
  }
  out.position_count = uint32_t(sink_ ? sink_->size() - sink_mark_ : out.positions.entries.size());
  lap.lap(db::Stage::kPositions);
  out.stored = true;
}

void GameBuilder::classify_opening(db::GameHeader& h) const {
  if (eco_.found() >= 0) {
    const NamedOpening& o = EcoClassifier::instance().opening(eco_.found());
    h.eco_class = o.eco;
    h.opening = o.name;
    return;
  }
  // Not classified (no named position, a FEN start, Chess960): the tag's code, if any.
  const std::string_view tag = h.eco;
  if (tag.size() >= 3 && tag[0] >= 'A' && tag[0] <= 'E' && tag[1] >= '0' && tag[1] <= '9' &&
      tag[2] >= '0' && tag[2] <= '9')
    h.eco_class.assign(tag.substr(0, 3));
}

void GameBuilder::warn(uint32_t line, PgnIssue issue, const std::string& details) {
  out_->warnings.emplace_back(line, std::string(issue_name(issue)) + ": " + details);
}

void GameBuilder::settle_result(uint32_t line) {
  std::string& result = out_->header.result;
  const std::string tag = result;
  const std::string_view tag_result = canonical_result(tag);
  const bool tag_decided = !tag_result.empty() && tag_result != "*";
  if (tag_decided) {
    if (tag_result != tag) {
      warn(line, PgnIssue::kNonstandardToken,
           "Result tag '" + tag + "' read as '" + std::string(tag_result) + "'");
    }
    if (!movetext_result_.empty() && movetext_result_ != tag_result) {
      warn(line, PgnIssue::kResultTagKept,
           "Result tag '" + tag + "' kept; the movetext ends with '" + movetext_result_ + "'");
    }
    result.assign(tag_result);
  } else if (!movetext_result_.empty() && movetext_result_ != "*") {
    if (!tag.empty()) {
      warn(line, PgnIssue::kResultFromMovetext,
           "result '" + movetext_result_ + "' taken from the movetext; the Result tag says '" +
               tag + "'");
    }
    result = movetext_result_;
  } else {
    if (!tag.empty() && tag != "*") {
      warn(line, PgnIssue::kResultFromMovetext,
           "Result tag '" + tag + "' is no result; stored as '*'");
    }
    result = "*";
  }
}

std::string GameBuilder::drop_unfit_castling(const std::string& fen) {
  // Fields: board, side, castling, then the rest. Each castling letter is kept if the FEN
  // reads with it and the letters kept before it.
  std::vector<std::string_view> fields;
  std::string_view rest = fen;
  for (int i = 0; i < 3; ++i) {
    rest = trim(rest);
    const size_t blank = rest.find_first_of(" \t");
    fields.push_back(rest.substr(0, blank));
    rest = blank == std::string_view::npos ? std::string_view() : rest.substr(blank);
  }
  if (fields[2].empty() || fields[2] == "-") return {};
  const std::string head = std::string(fields[0]) + " " + std::string(fields[1]) + " ";
  const std::string tail = std::string(rest);
  std::string kept;
  chess::Position probe;
  for (char c : fields[2]) {
    const std::string trial = head + kept + c + tail;
    if (probe.set_fen(trial, chess960_).code != chess::FenError::CASTLING) kept += c;
  }
  return head + (kept.empty() ? "-" : kept) + tail;
}

void GameBuilder::reject(uint32_t line, std::string_view move, std::string category,
                         std::string reason) {
  if (rejected_) return;
  rejected_ = true;
  out_->line = line;
  out_->move.assign(move);
  out_->category = std::move(category);
  out_->reason = std::move(reason);
  skip_rest_of_game();
}

void GameBuilder::begin_game() {
  rejected_ = false;
  chess960_ = false;
  movetext_result_.clear();
  has_variations_ = false;
  capture_positions_ = false;
  main_plies_ = 0;
  depth_ = 0;
  skipped_depth_ = 0;
  record_.reset();
  eco_.begin(false);  // begin_movetext() switches it on for a standard start
}

void GameBuilder::tag(std::string_view name, std::string_view value) {
  db::GameHeader& h = out_->header;
  if (name == "White") h.white.assign(value);
  else if (name == "Black") h.black.assign(value);
  else if (name == "Event") h.event.assign(value);
  else if (name == "Site") h.site.assign(value);
  else if (name == "Date") h.date.assign(value);
  else if (name == "Round") h.round.assign(value);
  else if (name == "Result") h.result.assign(value);
  else if (name == "WhiteElo") h.white_elo = parse_elo(value);
  else if (name == "BlackElo") h.black_elo = parse_elo(value);
  else if (name == "ECO") h.eco.assign(value);
  else if (name == "FEN") h.start_fen.assign(trim(value));
  else if (name == "Variant") h.variant.assign(trim(value));
  else h.other_tags.emplace_back(name, value);
}

void GameBuilder::begin_movetext() {
  db::GameHeader& h = out_->header;
  // lichess and other servers: [UTCDate] is the game's date when [Date] says nothing (the
  // UTCDate tag itself is kept among the other tags; issue 23)
  if (h.date.empty() || h.date == "????.??.??") {
    for (const auto& [name, value] : h.other_tags)
      if (name == "UTCDate" && !value.empty()) h.date = value;
  }
  std::string_view variant = h.variant;
  if (variant.empty() || iequals(variant, "standard") || iequals(variant, "normal") ||
      iequals(variant, "from position")) {  // lichess: standard chess from a set-up FEN
    h.variant.clear();
  } else if (iequals(variant, "chess960") || iequals(variant, "chess 960") ||
             iequals(variant, "fischerandom") || iequals(variant, "fischer random") ||
             iequals(variant, "960")) {
    h.variant = "chess960";
    chess960_ = true;
  } else {
    reject(tag_line_, "", "unsupported variant", "unsupported variant '" + h.variant + "'");
    return;
  }
  Line& main = lines_[0];
  main.last_move = chess::Move::none();
  if (h.start_fen.empty()) {
    static const chess::Position kStart;  // the standard start position
    main.pos = kStart;
    if (chess960_) record_.set_start_fen("", true);
  } else {
    chess::FenError err = main.pos.set_fen(h.start_fen, chess960_);
    if (err.code == chess::FenError::CASTLING) {
      // Castling rights that do not fit the board are dropped, like an impossible
      // en-passant square (chess/position.h); the stored FEN is the repaired one.
      const std::string repaired = drop_unfit_castling(h.start_fen);
      if (!repaired.empty() && main.pos.set_fen(repaired, chess960_).ok()) {
        warn(tag_line_, PgnIssue::kCastlingDropped,
             "FEN '" + h.start_fen + "' read as '" + repaired + "': " + err.message);
        h.start_fen = repaired;
        err = chess::FenError{};
      } else {
        main.pos.set_fen(h.start_fen, chess960_);  // the original error
      }
    }
    if (!err.ok()) {
      reject(tag_line_, "", "bad FEN", "bad FEN '" + h.start_fen + "': " + err.message);
      return;
    }
    // A FEN whose castling rights only make sense in Chess960 makes the game Chess960.
    if (main.pos.is_chess960() && !chess960_) {
      chess960_ = true;
      h.variant = "chess960";
    }
    record_.set_start_fen(h.start_fen, chess960_);
  }
  signature_.begin(main.pos, !h.start_fen.empty(), chess960_);
  eco_.begin(h.start_fen.empty() && !chess960_);
  capture_positions_ = h.start_fen.empty() && !chess960_;
}

void GameBuilder::move(std::string_view san, uint32_t line) {
  if (skipped_depth_) return;
  db::StageLap lap(times_);
  Line& l = lines_[depth_];
  chess::SanError err;
  chess::Move m = chess::parse_san(l.pos, san, &err);
  if (m == chess::Move::none()) {
    reject(line, san, san_category(err.code), err.message);
    return;
  }
  // What replay accepts (the stored-move rule, db/stored_move.h): a null move only when not in
  // check (else the side that passed could have its king taken), and a move the board can
  // take (never a king capture). parse_san returns only legal moves from a legal position,
  // so the second test guards against the first's consequences, e.g. `4.Qxf7+ -- 5.Qxe8`.
  if (!db::is_playable_stored(l.pos, m)) {
    reject(line, san, "illegal move",
           m == chess::Move::null() ? "null move '" + std::string(san) + "' while in check"
                                    : "'" + std::string(san) + "' cannot be played on its board");
    return;
  }
  lap.lap(db::Stage::kPlay);
  if (depth_ == 0 && capture_positions_ && main_plies_ <= posindex::kIndexedPlies) {
    // What index_record derives from the stored record: the position before the move and
    // the move; at the last indexed ply also the frontier.
    if (main_plies_ == posindex::kIndexedPlies) out_->positions.frontier = chess::Frontier::of(l.pos);
    position_entries().push_back({chess::identity_key(l.pos), m.raw(), uint8_t(main_plies_)});
    lap.lap(db::Stage::kPositions);
  }
  if (m == chess::Move::null()) {
    l.pos.do_null_move(l.last_undo);
  } else {
    l.pos.do_move(m, l.last_undo);
  }
  l.last_move = m;
  lap.lap(db::Stage::kPlay);
  record_.add_move(m);
  lap.lap(db::Stage::kRecord);
  if (depth_ == 0) {
    ++main_plies_;
    signature_.add_move(l.pos, m, l.last_undo);
    lap.lap(db::Stage::kSignature);
    eco_.add(l.pos);
    lap.lap(db::Stage::kEco);
  }
}

void GameBuilder::nag(uint8_t nag) {
  if (skipped_depth_) return;
  if (!filter_.nags) {
    ++out_->counts.dropped_nags;
    return;
  }
  record_.add_nag(nag);
}

void GameBuilder::comment(std::string_view text) {
  if (skipped_depth_) return;
  AnnotationCounts& counts = out_->counts;
  if (!filter_.comments) {
    ++counts.dropped_comments;
    return;
  }
  CommentCounts found;
  const CommentOutcome outcome =
      read_ply_annotation(text, {filter_.clocks, filter_.evals}, record_.can_add_typed(),
                          ply_annotation_, kept_comment_, found);
  counts.clocks += found.clocks;
  counts.evals += found.evals;
  counts.dropped_clocks += found.dropped_clocks;
  counts.dropped_evals += found.dropped_evals;
  switch (outcome) {
    case CommentOutcome::kTyped:
      record_.add_typed_comment(ply_annotation_);
      break;
    case CommentOutcome::kText:
      record_.add_comment(kept_comment_);
      break;
    case CommentOutcome::kDropped:
      ++counts.dropped_comments;
      break;
  }
}

void GameBuilder::begin_variation() {
  if (skipped_depth_ || !filter_.variations) {
    if (!skipped_depth_) ++out_->counts.dropped_variations;
    ++skipped_depth_;
    return;
  }
  const Line& parent = lines_[depth_];
  if (parent.last_move == chess::Move::none()) {
    reject(tag_line_, "", "malformed movetext", "a variation before any move of its line");
    return;
  }
  if (depth_ + 1 == lines_.size()) lines_.resize(lines_.size() * 2);
  Line& child = lines_[depth_ + 1];
  const Line& p = lines_[depth_];  // re-read: resize may have moved it
  child.pos = p.pos;
  if (p.last_move == chess::Move::null()) {
    child.pos.undo_null_move(p.last_undo);
  } else {
    child.pos.undo_move(p.last_move, p.last_undo);
  }
  child.last_move = chess::Move::none();
  ++depth_;
  has_variations_ = true;
  record_.begin_variation();
}

void GameBuilder::end_variation() {
  if (skipped_depth_) {
    --skipped_depth_;
    return;
  }
  if (depth_ == 0) return;  // the parser rejects unbalanced parentheses
  --depth_;
  record_.end_variation();
}

void GameBuilder::result(std::string_view result) { movetext_result_.assign(result); }

}  // namespace import
