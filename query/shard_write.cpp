// Writing sharded databases (query/sharded.h): `cqldb shard` (shard_database) and imports
// into a sharded directory (import_into), both copying games into shards through PGN.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

#include "db/pgn_writer.h"
#include "db/schema.h"
#include "db/sqlite_db.h"
#include "db/sqlite_statement.h"
#include "query/sharded.h"

namespace query {

namespace {

/// Appends games `first`..`last` of `reader` to the database `shard_dir` (created when
/// missing): written as `cqldb export` writes them, imported, then each game's source file
/// and ordinal set to those in `reader`'s database. Returns the games the shard holds then.
/// Throws std::runtime_error when the shard does not take every game.
uint32_t copy_games(db::GameReader& reader, uint32_t first, uint32_t last, const std::filesystem::path& shard_dir,
                    const import::ImportOptions& base_options) {
  const std::filesystem::path pgn = shard_dir.string() + ".part.pgn";
  std::vector<std::pair<std::string, uint32_t>> origin;
  // PGN writes an empty Event, Site, Round, White or Black as "?": such games get the empty
  // value back below (bit 0..4 = event, site, round, white, black)
  std::vector<std::pair<uint32_t, uint8_t>> blanks;
  {
    std::ofstream file(pgn, std::ios::binary | std::ios::trunc);
    db::GameHeader h;
    db::RecordView record;
    std::string text;
    for (uint32_t id = first; id <= last; ++id) {
      if (!reader.read_header(id, h) || !reader.record_view(id, record))
        throw std::runtime_error("game " + std::to_string(id) + " cannot be read");
      text.clear();
      db::write_pgn(h, record, text);
      file << text << '\n';
      origin.emplace_back(h.source_file, h.ordinal);
      const uint8_t blank = uint8_t(h.event.empty() | h.site.empty() << 1 | h.round.empty() << 2 |
                                    h.white.empty() << 3 | h.black.empty() << 4);
      if (blank) blanks.emplace_back(uint32_t(origin.size()), blank);
    }
    if (!file) throw std::runtime_error("cannot write " + pgn.string());
  }
  uint32_t before = 0, after = 0;
  {
    db::Database shard = db::Database::create_or_open(shard_dir);
    before = shard.reader().game_count();
    import::ImportOptions options = base_options;
    options.skip_duplicates = false;
    options.cancel = nullptr;
    const import::ImportSummary summary = import::import_files(shard, {pgn.string()}, options, {});
    after = shard.reader().game_count();
    if (summary.imported != origin.size() || after != before + origin.size())
      throw std::runtime_error(shard_dir.string() + ": " + std::to_string(summary.imported) + " of " +
                               std::to_string(origin.size()) + " games imported");
  }
  std::filesystem::remove(pgn);
  // each game's file and ordinal as in the source
  db::sqlite::Connection sql(shard_dir / db::schema::kHeadersFile, db::sqlite::OpenMode::kReadWrite);
  sql.exec("BEGIN");
  std::unordered_map<std::string, int64_t> file_ids;
  db::sqlite::Statement add_file(sql, "INSERT INTO files(path, imported_at) VALUES (?1, strftime('%s','now'))");
  db::sqlite::Statement last_file(sql, "SELECT max(id) FROM files");
  db::sqlite::Statement set(sql, "UPDATE games SET file_id = ?1, ordinal = ?2 WHERE id = ?3");
  for (size_t i = 0; i < origin.size(); ++i) {
    auto [it, added] = file_ids.emplace(origin[i].first, 0);
    if (added) {
      add_file.bind(1, std::string_view(origin[i].first));
      add_file.step();
      add_file.reset();
      last_file.step();
      it->second = last_file.column_int64(0);
      last_file.reset();
    }
    set.bind(1, it->second);
    set.bind(2, int64_t(origin[i].second));
    set.bind(3, int64_t(before + i + 1));
    set.step();
    set.reset();
  }
  if (!blanks.empty()) {
    sql.exec("INSERT OR IGNORE INTO events(name) VALUES (''); INSERT OR IGNORE INTO sites(name) VALUES ('');"
             "INSERT OR IGNORE INTO players(name) VALUES ('')");
    const char* updates[] = {
        "UPDATE games SET event_id = (SELECT id FROM events WHERE name = '') WHERE id = ?1",
        "UPDATE games SET site_id = (SELECT id FROM sites WHERE name = ''), site_suffix = NULL WHERE id = ?1",
        "UPDATE games SET round = '' WHERE id = ?1",
        "UPDATE games SET white_id = (SELECT id FROM players WHERE name = '') WHERE id = ?1",
        "UPDATE games SET black_id = (SELECT id FROM players WHERE name = '') WHERE id = ?1"};
    for (int field = 0; field < 5; ++field) {
      db::sqlite::Statement update(sql, updates[field]);
      for (const auto& [index, blank] : blanks) {
        if (!(blank >> field & 1)) continue;
        update.bind(1, int64_t(before + index));
        update.step();
        update.reset();
      }
    }
  }
  sql.exec("COMMIT");
  return after;
}

std::string shard_name(size_t k) {
  char name[32];
  std::snprintf(name, sizeof name, "shard-%03zu", k);
  return name;
}

}  // namespace

std::vector<ShardInfo> shard_database(const std::filesystem::path& source, uint32_t shards,
                                      const std::filesystem::path& out,
                                      const std::function<void(uint64_t, uint64_t)>& progress) {
  if (shards == 0) throw std::runtime_error("the number of shards must be at least 1");
  std::error_code ec;
  if (std::filesystem::exists(out, ec)) throw std::runtime_error(out.string() + " exists: give a new directory");
  if (is_sharded(source)) throw std::runtime_error(source.string() + " is sharded already");
  db::Database database = db::Database::open_readonly(source);
  db::GameReader reader = database.reader();
  const uint32_t total = reader.game_count();
  const uint32_t per_shard = std::max<uint32_t>(1, (total + shards - 1) / shards);
  std::filesystem::create_directories(out);
  std::vector<ShardInfo> infos;
  for (uint32_t k = 0; k < shards; ++k) {
    const uint32_t first = k * per_shard + 1;
    if (first > total && k > 0) break;
    const uint32_t last = std::min(total, first + per_shard - 1);
    const std::string name = shard_name(k);
    const uint32_t games = first <= last ? copy_games(reader, first, last, out / name, {}) : 0;
    infos.push_back({name, first, games});
    if (progress) progress(last, total);
  }
  write_manifest(out, infos);
  return infos;
}

import::ImportSummary import_into(const std::filesystem::path& dir, const std::vector<std::string>& paths,
                                  const import::ImportOptions& options, const import::ProgressCallback& on_progress,
                                  uint64_t shard_size) {
  if (shard_size == 0 && !is_sharded(dir)) {
    db::Database database = db::Database::create_or_open(dir);
    return import::import_files(database, paths, options, on_progress);
  }
  // A sharded import: the files into a staging database first (the importer's rules:
  // rejections, duplicates against the staging games), then its games appended to the last
  // shard up to `shard_size` and to new shards after it.
  std::error_code ec;
  if (!is_sharded(dir) && std::filesystem::exists(dir / db::schema::kHeadersFile, ec))
    throw std::runtime_error(dir.string() + " is an ordinary database: `cqldb shard` it first");
  std::filesystem::create_directories(dir);
  std::vector<ShardInfo> shards = is_sharded(dir) ? read_manifest(dir) : std::vector<ShardInfo>{};
  uint64_t manifest_size = 0;
  {
    std::ifstream in(dir / kShardManifest);
    if (in) manifest_size = nlohmann::json::parse(in, nullptr, false).value("shard_size", uint64_t(0));
  }
  if (shard_size == 0) shard_size = manifest_size;
  if (shard_size == 0) throw std::runtime_error("give the shard size (--shard-size N) for a new sharded database");
  // The staging database outlives a killed import: run again, the importer continues each
  // file after its last committed game (issue 40, import::source_identity) and the games are
  // spread once. A marker says the spreading began: shards may then hold games the manifest
  // does not list yet, which no rerun may copy again.
  const std::filesystem::path staging = dir / ".staging";
  const std::filesystem::path spreading = dir / ".staging-spreading";
  if (std::filesystem::exists(spreading, ec))
    throw std::runtime_error("an earlier import into " + dir.string() +
                             " stopped while copying its games into the shards; the shards after the manifest's "
                             "counts are incomplete: restore the directory from a copy, or import into a new one");
  import::ImportSummary summary;
  {
    db::Database stage = db::Database::create_or_open(staging);
    summary = import::import_files(stage, paths, options, on_progress);
    std::ofstream(spreading) << "copying the staging games into the shards\n";
    db::GameReader reader = stage.reader();
    const uint32_t total = reader.game_count();
    uint32_t next = 1;
    uint32_t next_global = shards.empty() ? 1 : shards.back().first_id + shards.back().games;
    const uint32_t first_global = next_global;
    while (next <= total) {
      if (shards.empty() || shards.back().games >= shard_size) shards.push_back({shard_name(shards.size()), next_global, 0});
      ShardInfo& shard = shards.back();
      const uint32_t room = uint32_t(shard_size - shard.games);
      const uint32_t last = std::min(total, next + room - 1);
      shard.games = copy_games(reader, next, last, dir / shard.path, options);
      next_global += last - next + 1;
      next = last + 1;
    }
    if (summary.imported) {
      summary.first_id = first_global;
      summary.last_id = next_global - 1;
    }
  }
  write_manifest(dir, shards, shard_size);
  std::filesystem::remove_all(staging);
  std::filesystem::remove(spreading, ec);
  return summary;
}

}  // namespace query
