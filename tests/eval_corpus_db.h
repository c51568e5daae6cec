// A database of real corpus games for evaluation tests: files of ../shared/corpus (or the
// first games of players-344k.pgn.zst) imported into a temporary directory unique to the
// test process, a query helper (query::execute, planner on or off) and a replay of every
// stored main line for brute-force checks written directly on chess::Position boards.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "chess/position.h"
#include "db/database.h"
#include "db/record_view.h"
#include "query/executor.h"
#include "query/query.h"
#include "eval_test_util.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "planner/plan.h"

namespace cqltest {

/// Game id -> matched plies (0 = start position, ascending); games without a match are absent.
using Hits = std::map<uint32_t, std::vector<uint32_t>>;

/// Path of the file `name` ("studies.pgn", "mates.pgn", ...) of ../shared/corpus.
inline std::string corpus_file(const std::string& name) {
  return std::string(CQLDB_CORPUS_DIR) + "/" + name;
}

/// A temporary database `cqldb-<name>-<pid>/db` (removed with its directory by the
/// destructor) and the games imported into it.
class CorpusDb {
 public:
  /// An empty database; `name` keeps the directories of different suites apart.
  explicit CorpusDb(const std::string& name) : dir_(name) {
    database_ = std::make_unique<db::Database>(db::Database::create_or_open(dir_.path / "db"));
  }

  /// A database with the PGN `files` (paths) imported, ids in file order.
  CorpusDb(const std::string& name, const std::vector<std::string>& files) : CorpusDb(name) {
    add_files(files);
  }

  ~CorpusDb() { database_.reset(); }  // close before the directory goes

  CorpusDb(const CorpusDb&) = delete;
  CorpusDb& operator=(const CorpusDb&) = delete;

  /// Imports the PGN `files` (paths, .zst allowed); ids continue after the stored games.
  import::ImportSummary add_files(const std::vector<std::string>& files) {
    return import::import_files(*database_, files, import::ImportOptions{}, nullptr);
  }

  /// Imports the first `games` games of players-344k.pgn.zst (through a PGN slice written
  /// into the directory).
  import::ImportSummary add_players(size_t games) {
    const std::string pgn = (dir_.path / "players-slice.pgn").string();
    {
      std::ofstream out(pgn, std::ios::binary);
      import::PgnSplitter splitter{import::InputStream(corpus_file("players-344k.pgn.zst"))};
      import::RawGame raw;
      for (size_t i = 0; i < games && splitter.next(raw); ++i) out << raw.text << "\n\n";
    }
    return add_files({pgn});
  }

  /// Worker threads of query() (0 = hardware concurrency).
  unsigned threads = 0;

  db::Database& database() const { return *database_; }
  const std::filesystem::path& dir() const { return dir_.path; }
  uint32_t game_count() const { return uint32_t(database_->reader().game_count()); }

  /// Runs `script` (a whole `(match ...)` script) over the database; `planned` = with the
  /// planner's signature filter (when it prunes at all).
  Hits query(const std::string& script, bool planned = false) const {
    const query::Query compiled = query::Query::compile(script, "test.cql");
    query::ExecuteOptions options;
    options.threads = threads;
    if (!planned) options.planner_off();
    Hits hits;
    for (const eval::GameMatch& m : query::execute(compiled, *database_, options).matches) hits[m.id] = m.plies;
    return hits;
  }

  /// Replays the main line of game `id` (read from a fresh snapshot): `positions[p]` is the
  /// position at ply p (0 = start, the last one the final position) and, when given,
  /// `moves[p]` the move played from it (one fewer than positions; null moves included).
  /// False (and a test failure) if the record cannot be read.
  bool replay(uint32_t id, std::vector<chess::Position>& positions,
              std::vector<chess::Move>* moves = nullptr) const {
    return replay(database_->reader(), id, positions, moves);
  }

  /// Calls `on_line(id, positions)` or `on_line(id, positions, moves)` (spans of
  /// chess::Position / chess::Move, as replay() fills them) for every stored game, by id.
  template <class OnLine>
  void for_each_line(OnLine&& on_line) const {
    using Positions = std::span<const chess::Position>;
    using Moves = std::span<const chess::Move>;
    constexpr bool with_moves = std::is_invocable_v<OnLine&, uint32_t, Positions, Moves>;
    const db::GameReader reader = database_->reader();
    std::vector<chess::Position> positions;
    std::vector<chess::Move> moves;
    for (uint32_t id = 1; id <= reader.game_count(); ++id) {
      if (!replay(reader, id, positions, with_moves ? &moves : nullptr)) continue;
      if constexpr (with_moves) on_line(id, Positions(positions), Moves(moves));
      else on_line(id, Positions(positions));
    }
  }

  /// replay() reading the record from `reader` (database().reader(), one for many games).
  static bool replay(const db::GameReader& reader, uint32_t id, std::vector<chess::Position>& positions,
                     std::vector<chess::Move>* moves = nullptr) {
    positions.clear();
    if (moves) moves->clear();
    std::string bytes;
    if (!reader.read_record(id, bytes)) {
      ADD_FAILURE() << "cannot read game " << id;
      return false;
    }
    db::RecordView rec = db::RecordView::parse(bytes);
    chess::Position pos;
    if (!rec.start_fen().empty()) {
      EXPECT_TRUE(pos.set_fen(rec.start_fen(), rec.chess960()).ok()) << "game " << id;
    }
    const uint32_t n = rec.main_line_size();
    for (uint32_t ply = 0;; ++ply) {
      positions.push_back(pos);
      if (ply == n) break;
      const chess::Move m = rec.main_move(ply);
      if (moves) moves->push_back(m);
      chess::UndoInfo undo;
      if (m == chess::Move::null()) pos.do_null_move(undo);
      else pos.do_move(m, undo);
    }
    return true;
  }

 private:
  TempDir dir_;
  std::unique_ptr<db::Database> database_;
};

}  // namespace cqltest
