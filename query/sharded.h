// query::Store: a database directory or a sharded database, answered the same way (issue 38;
// README "Many machines"). A sharded database is a directory holding a manifest
// (shards.json) and K ordinary cqldb databases, each a contiguous range of global game ids:
// shard k holds games first_id(k) .. first_id(k) + games(k) - 1 under its local ids
// 1 .. games(k). Ids are global everywhere a Store answers (matches, headers, trees): a
// query over the sharded directory returns exactly what it returns over the unsharded
// database, the shards running in parallel on this machine. An ordinary database is a
// Store of one part, so the command line, the Python module and cqldb.dask share this code.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "db/database.h"
#include "db/game_header.h"
#include "db/game_reader.h"
#include "db/game_source.h"
#include "db/record_view.h"
#include "eval/game_match.h"
#include "headers/game_order.h"
#include "headers/header_filter.h"
#include "import/importer.h"
#include "index/position_tree.h"
#include "query/executor.h"
#include "query/query.h"
#include "index/tree_json.h"
#include "query/open_database.h"

namespace query {

/// The manifest's file name inside a sharded database directory.
inline constexpr const char* kShardManifest = "shards.json";

/// Thrown by Store::tree when a part has no current position index (`cqldb reindex
/// --positions-only` builds it); what() names the part's directory.
struct NoPositionIndex : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One shard as the manifest lists it.
struct ShardInfo {
  std::string path;       ///< the shard's directory, relative to the sharded directory
  uint32_t first_id = 1;  ///< global id of its game 1
  uint32_t games = 0;     ///< games it holds
};

/// True when `dir` holds a sharded database (its shards.json).
bool is_sharded(const std::filesystem::path& dir);

/// The shards of the sharded database `dir`, in id order. Throws std::runtime_error for a
/// missing or malformed manifest, or shards whose id ranges do not follow each other.
std::vector<ShardInfo> read_manifest(const std::filesystem::path& dir);
/// Writes the manifest of `shards` into `dir` (atomically: a temporary file renamed), with
/// `shard_size` (games per shard of later imports; 0 = none recorded).
void write_manifest(const std::filesystem::path& dir, const std::vector<ShardInfo>& shards, uint64_t shard_size = 0);

/// An open database or sharded database. Shareable between threads for execute(), sort(),
/// tree() and explain(); reading games goes through a Reader, one per thread.
class Store {
 public:
  /// Opens `dir`: a sharded database (every shard), else an ordinary database (read-only
  /// through query::open_database, or created when missing with `readonly` false). Throws
  /// NoDatabase (query/open_database.h) for a directory holding neither, std::runtime_error
  /// (db::Error) when it cannot be opened.
  static std::unique_ptr<Store> open(const std::filesystem::path& dir, bool readonly);

  bool sharded() const { return sharded_; }
  const std::filesystem::path& path() const { return dir_; }
  /// Games in all parts.
  uint32_t game_count() const;
  /// The shards (one entry, path ".", for an ordinary database).
  std::vector<ShardInfo> shards() const;

  /// Runs `query` over every part (in parallel, options.threads shared among them), ids
  /// global; options.within holds global ids. The answer is query::execute's over the
  /// unsharded database: without options.sort ascending ids, options.limit keeping the
  /// lowest; with options.sort every part's matches ordered together (sort()) and then cut
  /// to options.limit (issue 40: the first N of the sorted answer). The figures are the sums
  /// over the parts (stage and total seconds: wall time; matches_found and search_complete
  /// those of the merged answer, for query::matches_text).
  Result execute(const Query& query, const ExecuteOptions& options) const;

  /// Reorders `matches` by `order` as `cqldb query --sort` does (headers::HeaderStore::
  /// sort_ids; ties and games without the value by id).
  void sort(std::vector<eval::GameMatch>& matches, headers::SortOrder order) const;

  /// The global ids (ascending) of the games whose headers pass `filter`
  /// (headers::HeaderStore::candidates over each part). Throws db::SqliteError.
  std::vector<uint32_t> candidates(const headers::HeaderFilter& filter) const;

  /// The opening tree of `pos` over every game, or the games of `within` (global ids,
  /// ascending); the parts' trees summed, ids global, with up to `top_games` top games
  /// (posindex::build_tree's). Throws NoPositionIndex when a part has no current position
  /// index.
  posindex::Tree tree(const chess::Position& pos, const std::vector<uint32_t>* within = nullptr,
                      size_t top_games = posindex::Tree::kTopGames) const;
  /// The tree as `cqldb tree --format jsonl` prints it (posindex::tree_json, ids global).
  std::string tree_json(const chess::Position& pos, const std::vector<uint32_t>* within = nullptr) const;

  /// The estimates of query::explain_estimates (query/explain.h); a sharded database's are
  /// given per shard, each under a line "shard NAME (ids FIRST..LAST):".
  std::string explain_estimates(const Query& query) const;
  /// The plan (signatures on), its bound values and explain_estimates, as `cqldb query
  /// --explain` prints them.
  std::string explain(const Query& query) const;

  /// The figures of `cqldb info`, summed over the parts (bytes_per_game recomputed);
  /// `shards` receives the manifest's entries when not null.
  db::DatabaseInfo info(std::vector<ShardInfo>* shards = nullptr) const;

  /// Reads games by global id; one per thread.
  class Reader final : public db::GameSource {
   public:
    explicit Reader(const Store& store);
    /// The header of game `id` (header.id global); false when there is no such game.
    bool read_header(uint32_t id, db::GameHeader& header) override;
    /// The record of game `id` (db::GameReader::record_view); false when there is none.
    bool record_view(uint32_t id, db::RecordView& record, bool with_annotations = true) const override;
    /// The raw record bytes of game `id`; false when there is none.
    bool record(uint32_t id, std::string_view& bytes) const override;
    /// The reader of the part holding game `id` and the game's local id there; null when
    /// no part holds it.
    db::GameReader* locate(uint32_t id, uint32_t& local) const;

   private:
    const Store& store_;
    mutable std::vector<std::unique_ptr<db::GameReader>> readers_;  // made on first use
  };
  Reader reader() const { return Reader(*this); }

  struct Part {
    std::filesystem::path dir;
    uint32_t first_id = 1;
    uint32_t games = 0;
    std::string name;  ///< as in the manifest
    std::unique_ptr<db::Database> database;
  };
  const std::vector<Part>& parts() const { return parts_; }
  /// The part holding global id `id` and the game's local id there; null when none does.
  const Part* part_of(uint32_t id, uint32_t& local) const;

 private:
  std::filesystem::path dir_;
  bool sharded_ = false;
  std::vector<Part> parts_;
};

/// Adds the tree `part` (over games with higher ids than `into`'s, ids global) into `into`:
/// the sums added, the moves and top games in posindex::build_tree's orders, `top_games`
/// top games kept. Summing the trees of consecutive id ranges gives the tree of their union.
void merge_tree(posindex::Tree& into, const posindex::Tree& part, size_t top_games = posindex::Tree::kTopGames);

/// A tree with its sums as JSON text (not the explorer's shape: the exchange between a shard's
/// task and the merge, cqldb.dask), with the players of its best and top games read through
/// `headers` so that the merge can name them without the shard.
std::string tree_part_json(const posindex::Tree& tree, const posindex::HeaderLookup& headers);
/// The tree of tree_part_json's text; `players` receives id -> (White, Black) of the named
/// games. Throws std::runtime_error for malformed text.
posindex::Tree tree_from_part_json(const std::string& text,
                                   std::unordered_map<uint32_t, std::pair<std::string, std::string>>& players);

/// Splits the database `source` into `shards` shards of equal id ranges (the last one
/// shorter) under `out`, which must not exist: out/shard-000 ... and the manifest. Each
/// shard is written by the importer from the games as `cqldb export` writes them (moves,
/// variations, comments, NAGs, clocks and evaluations, every tag), then each game's source
/// file and ordinal are set to those of `source`, so queries, trees and exports answer as
/// `source` does. `progress` (may be empty) is called after each shard with the games done
/// and the total. Throws std::runtime_error when a shard does not take every game.
std::vector<ShardInfo> shard_database(const std::filesystem::path& source, uint32_t shards,
                                      const std::filesystem::path& out,
                                      const std::function<void(uint64_t done, uint64_t total)>& progress = {});

/// Imports `paths` into `dir` (import::import_files' rules). With `shard_size` 0 and `dir`
/// not sharded: an ordinary import. Otherwise `dir` is (or becomes) a sharded database whose
/// last shard takes games until it holds `shard_size` (the manifest's value when 0), then a
/// new shard starts. The files are imported once into a staging database (dir/.staging),
/// whose games are then appended to the shards as shard_database copies them (twice the
/// import's work), so ids, files and ordinals are those of an unsharded import. The summary
/// is the staging import's, with first_id and last_id global. An import killed while the
/// files go into the staging database is continued by the same command (the importer's
/// resume, issue 40); one killed while the games are copied into the shards is refused
/// (std::runtime_error) when run again, as the shards may hold games the manifest lacks.
import::ImportSummary import_into(const std::filesystem::path& dir, const std::vector<std::string>& paths,
                                  const import::ImportOptions& options, const import::ProgressCallback& on_progress,
                                  uint64_t shard_size = 0);

}  // namespace query
