// A slice of the real corpus for evaluation tests: the first games of
// ../shared/corpus/players-344k.pgn.zst imported once per test process into a temporary
// database, with helpers to run a script (planner on or off) and to replay every stored game
// for brute-force checks written directly on the board.
#pragma once

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "chess/position.h"
#include "db/database.h"
#include "db/record_view.h"
#include "eval/search.h"
#include "eval_test_util.h"
#include "import/importer.h"
#include "import/input_stream.h"
#include "import/pgn_splitter.h"
#include "planner/plan.h"

namespace cqltest {

/// Game id -> matched plies.
using Hits = std::map<uint32_t, std::vector<uint32_t>>;

/// The first `games` games of players-344k in a temporary database (created on first use,
/// removed at exit). One slice per process: the first call fixes its size.
class CorpusSlice {
 public:
  static CorpusSlice& get(size_t games) {
    static CorpusSlice slice(games);
    return slice;
  }

  /// Runs `script` over the slice; `planned` = with the planner's filter.
  Hits query(const std::string& script, bool planned = false) {
    eval::Program program = compile(script);
    eval::SearchOptions options;
    options.threads = 1;
    planner::Plan plan = planner::Plan::make(program);
    if (planned && plan.prunes()) options.filter = &plan;
    std::vector<eval::GameMatch> matches;
    eval::search(program, *database_, options, matches);
    Hits hits;
    for (const eval::GameMatch& m : matches) hits[m.id] = m.plies;
    return hits;
  }

  /// Calls `on_game(id, positions)` for every game with its main-line positions by ply.
  void for_each_game(const std::function<void(uint32_t, const std::vector<chess::Position>&)>& on_game) {
    db::GameReader reader = database_->reader();
    std::string bytes;
    std::vector<chess::Position> line;
    for (uint32_t id = 1; id <= reader.game_count(); ++id) {
      EXPECT_TRUE(reader.read_record(id, bytes));
      db::RecordView rec = db::RecordView::parse(bytes);
      chess::Position pos;
      if (!rec.start_fen().empty()) {
        EXPECT_TRUE(pos.set_fen(rec.start_fen(), rec.chess960()).ok());
      }
      const uint32_t n = rec.main_line_size();
      line.clear();
      for (uint32_t ply = 0;; ++ply) {
        line.push_back(pos);
        if (ply == n) break;
        chess::UndoInfo undo;
        pos.do_move(rec.main_move(ply), undo);
      }
      on_game(id, line);
    }
  }

  ~CorpusSlice() {
    database_.reset();
    std::filesystem::remove_all(dir_);
  }

 private:
  explicit CorpusSlice(size_t games) {
    dir_ = std::filesystem::temp_directory_path() / ("cqldb-slice-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    const std::string pgn = (dir_ / "slice.pgn").string();
    {
      std::ofstream out(pgn, std::ios::binary);
      import::PgnSplitter splitter{import::InputStream(std::string(CQLDB_CORPUS_DIR) + "/players-344k.pgn.zst")};
      import::RawGame raw;
      for (size_t i = 0; i < games && splitter.next(raw); ++i) out << raw.text << "\n\n";
    }
    database_ = std::make_unique<db::Database>(db::Database::create_or_open(dir_ / "db"));
    import::import_files(*database_, {pgn}, import::ImportOptions{}, nullptr);
  }

  std::filesystem::path dir_;
  std::unique_ptr<db::Database> database_;
};

}  // namespace cqltest
