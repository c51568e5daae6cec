// GameBuilder: the PgnVisitor that turns one parsed PGN game into what the database stores:
// SAN moves are resolved against the board (chess::parse_san), the movetext is encoded as a
// game record (db::RecordBuilder), the main line's signature (index/signature.h) is
// computed while its moves are played, and the tags become a db::GameHeader.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/position.h"
#include "db/game_header.h"
#include "db/record_builder.h"
#include "db/stage_times.h"
#include "import/annotation_parser.h"
#include "import/pgn_parser.h"
#include "import/eco_classifier.h"
#include "import/pgn_visitor.h"
#include "index/position_index_build.h"
#include "index/signature_builder.h"

namespace import {

/// What an import leaves out of the movetext (cqldb import --no-comments ...; pgn-extract's
/// options). Dropping a comment drops the clocks and evaluations in it.
struct MovetextFilter {
  bool comments = true;    ///< keep comments (text, clocks, evaluations)
  bool clocks = true;      ///< keep [%clk] and [%emt]
  bool evals = true;       ///< keep [%eval]
  bool variations = true;  ///< keep variations (a dropped one is not checked for legality)
  bool nags = true;        ///< keep NAGs
};

/// What one game carried and what of it was dropped by the MovetextFilter.
struct AnnotationCounts {
  uint64_t clocks = 0;               ///< [%clk] / [%emt] stored as typed values
  uint64_t evals = 0;                ///< [%eval] stored as typed values
  uint64_t dropped_comments = 0;     ///< comments left out (--no-comments, or nothing left)
  uint64_t dropped_clocks = 0;       ///< clocks left out (--no-clocks)
  uint64_t dropped_evals = 0;        ///< evaluations left out (--no-evals)
  uint64_t dropped_variations = 0;   ///< variations left out (--no-variations)
  uint64_t dropped_nags = 0;         ///< NAGs left out (--no-nags)
};

/// One game after parsing: either stored (header + record) or rejected (line, move, reason).
struct BuiltGame {
  bool stored = false;     ///< true: `header` and `record` are to be written
  db::GameHeader header;   ///< tags, ordinal, plies (header.id is assigned by the writer)
  std::string record;      ///< the encoded move record (db/record_format.h)
  std::string annotations; ///< the encoded annotation record; empty = none
  AnnotationCounts counts; ///< typed values stored and what the filter dropped
  std::string signature;   ///< the encoded signature of the main line (index/signature.h)
  /// Its posting keys (sig::PostingsBuilder::keys_of of the decoded signature): the import
  /// adds them to the new posting segment without reading the signature back (issue 16).
  std::vector<uint32_t> posting_keys;
  /// Its position index entries, equal to posindex::index_record of `record`: the import
  /// adds them to the new position index segment without replaying the record again (issue
  /// 18). A game from the standard start takes them from the builder's own play of the main
  /// line; a game from a FEN (or Chess960) from index_record. With a position sink
  /// (GameBuilder::set_position_sink) the entries go there instead and `positions.entries`
  /// stays empty; `position_count` is their number either way.
  posindex::FreshGame positions;
  uint32_t position_count = 0;
  uint32_t line = 0;       ///< rejected: 1-based file line of the problem
  std::string move;        ///< rejected: the offending move token, if any
  std::string category;    ///< rejected: short reason used for counting, e.g. "illegal move"
  std::string reason;      ///< rejected: the full reason
  /// Recoverable problems (the game is kept): line and "kind: details".
  std::vector<std::pair<uint32_t, std::string>> warnings;
};

/// Builds BuiltGames from raw PGN games. One per worker thread; reuses its buffers.
///
/// Rejection rules: an unreadable, illegal or ambiguous move anywhere (main line or
/// variation), a null move while in check (replay refuses it: eval/node.h
/// is_playable_stored; a king capture could follow), a bad FEN (castling rights that do
/// not fit the board are only dropped, with a warning), an unsupported [Variant] (anything
/// but standard, chess960 and fischerandom; lichess's "From Position" is standard) and
/// every PGN error of pgn_diagnostic.h reject the game. The stored result follows
/// settle_result().
class GameBuilder : private PgnVisitor {
 public:
  /// A builder keeping what `filter` says (default: everything).
  explicit GameBuilder(const MovetextFilter& filter = {});

  /// Parses `raw` from file `source_file` into `out` (overwriting it).
  void build(const RawGame& raw, const std::string& source_file, BuiltGame& out);
  /// Appends the position index entries of each game built from now on to `sink` (nullptr:
  /// to BuiltGame::positions.entries). The import gives each batch of games one vector, so
  /// no game allocates its own. A rejected game may leave entries there: the caller drops
  /// them (BuiltGame::stored).
  void set_position_sink(std::vector<posindex::GameEntry>* sink) { sink_ = sink; }
  /// Adds the time of each stage of every game built from now on to `times` (nullptr: not
  /// timed; ImportOptions::stage_times). The parse stage is a game's time outside the others.
  void set_stage_times(db::StageTimes* times) { times_ = times; }

 private:
  /// The board of one line (main line at index 0, then open variations).
  struct Line {
    chess::Position pos;        ///< position after the last move of this line
    chess::Move last_move;      ///< last move played on this line (none before the first)
    chess::UndoInfo last_undo;  ///< what undoing last_move needs
  };

  void begin_game() override;
  void tag(std::string_view name, std::string_view value) override;
  void begin_movetext() override;
  void move(std::string_view san, uint32_t line) override;
  void nag(uint8_t nag) override;
  void comment(std::string_view text) override;
  void begin_variation() override;
  void end_variation() override;
  void result(std::string_view result) override;

  /// Sets h.eco_class and h.opening from the tracked main line (import/eco_classifier.h),
  /// falling back to the [ECO] tag's code.
  void classify_opening(db::GameHeader& h) const;
  /// Adds a warning "<issue name>: <details>" to the game being built.
  void warn(uint32_t line, PgnIssue issue, const std::string& details);
  /// Sets header.result from the Result tag and the movetext's termination marker: a
  /// decided tag (1-0, 0-1, 1/2-1/2, also spelled as canonical_result() reads) is kept,
  /// else the movetext's decided result, else "*"; a disagreement is a warning naming both.
  void settle_result(uint32_t line);
  /// `fen` with the castling letters that make it unreadable removed; "" if it has none.
  std::string drop_unfit_castling(const std::string& fen);
  /// Marks the current game rejected and stops the parse.
  void reject(uint32_t line, std::string_view move, std::string category, std::string reason);

  MovetextFilter filter_;     // what to keep
  uint32_t skipped_depth_ = 0;  // > 0: inside a variation being dropped
  db::PlyAnnotation ply_annotation_;  // scratch for comment()
  std::string kept_comment_;          // scratch for comment()
  PgnParser parser_;
  db::RecordBuilder record_;
  sig::SignatureBuilder signature_;  // fed with the main-line moves as they are played
  EcoTracker eco_;                   // ECO classification of the main line (issue 17 A)
  std::vector<Line> lines_;   // lines_[0] = main line; never shrinks below its capacity
  size_t depth_ = 0;          // index of the current line in lines_
  BuiltGame* out_ = nullptr;  // the game being built
  uint32_t tag_line_ = 0;     // first line of the game, for tag-related problems
  std::string movetext_result_;  // the movetext's termination marker, "" if none
  bool rejected_ = false;
  bool chess960_ = false;
  bool has_variations_ = false;  // a variation was opened
  // The main line's position index entries are taken while it is played (standard start).
  bool capture_positions_ = false;
  uint32_t main_plies_ = 0;  // main-line moves played so far
  std::vector<posindex::GameEntry>* sink_ = nullptr;  // see set_position_sink()
  size_t sink_mark_ = 0;     // sink size when the game began
  db::StageTimes* times_ = nullptr;  // see set_stage_times()
  /// Where this game's position index entries go.
  std::vector<posindex::GameEntry>& position_entries() { return sink_ ? *sink_ : out_->positions.entries; }
};

}  // namespace import
