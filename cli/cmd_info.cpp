// `cqldb info --db DIR [--log N]`
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "query/open_database.h"
#include "db/schema.h"
#include "headers/header_store.h"
#include "import/pgn_diagnostic.h"
#include "index/postings.h"
#include "query/sharded.h"

namespace cli {

namespace {

/// Prints the first `limit` rows of the import log (rejections first, then warnings).
void print_log(const std::string& dir, int64_t limit) {
  std::printf("import log (first %lld entries, rejections first):\n", static_cast<long long>(limit));
  for (const headers::ImportLogEntry& e : headers::HeaderStore(dir).import_log(limit)) {
    // Ordinal 0: a line outside any game; its reason says where ("before game 1").
    const std::string game = e.ordinal ? " game " + std::to_string(e.ordinal) : "";
    std::printf("  %-8s %s%s line %lld: %s\n", e.kind.c_str(), e.file.c_str(), game.c_str(),
                static_cast<long long>(e.line), e.reason.c_str());
  }
}

/// Prints the repairs of all imports by kind (import::is_repair_name), counted from the
/// import log's warnings ("<kind>: <details>"); prints nothing when there are none.
void print_repairs(const std::string& dir) {
  std::string text;
  for (const auto& [kind, count] : headers::HeaderStore(dir).warning_kinds()) {
    if (!import::is_repair_name(kind)) continue;
    text += (text.empty() ? "" : ", ") + with_commas(count) + " " + kind;
  }
  if (!text.empty()) std::printf("repaired:        %s\n", text.c_str());
}

}  // namespace

int run_info(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir;
  int64_t log = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "log", po::value(&log)->default_value(0), "also list the first N import-log entries");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("info", options, positional, args, vm)) return *exit;
  if (!require_database("info", db_dir)) return kUsageError;
  // an ordinary database, or a sharded one: the figures summed over its shards
  std::unique_ptr<query::Store> store = query::Store::open(db_dir, true);
  std::vector<query::ShardInfo> shards;
  db::DatabaseInfo info = store->info(&shards);
  uint64_t postings_bytes = 0, header_bitmaps_bytes = 0, total = 0;
  bool postings_current = true;
  for (const query::Store::Part& part : store->parts()) {
    const db::DatabaseInfo part_info = part.database->info();
    const DatabaseSize size = database_size(part.dir, part_info.games_bytes, part_info.headers_bytes);
    postings_bytes += size.postings_bytes;
    header_bitmaps_bytes += size.header_bitmaps_bytes;
    total += size.total();
    // Opening checked the signature version; a posting index of another version is ignored.
    postings_current = postings_current && size.postings_bytes && sig::Postings::open(part.dir).has_value();
  }
  std::printf("database:        %s\n", db_dir.c_str());
  std::printf("games:           %s\n", with_commas(info.games).c_str());
  std::printf("rejected:        %s\n", with_commas(info.rejected).c_str());
  std::printf("warnings:        %s\n", with_commas(info.warnings).c_str());
  if (info.warnings)
    for (const query::Store::Part& part : store->parts()) print_repairs(part.dir.string());
  std::printf("files imported:  %s\n", with_commas(info.files).c_str());
  std::printf("size on disk:    %s (games.mdb %s, %s %s, postings.bin %s, header bitmaps %s)\n",
              human_bytes(total).c_str(), human_bytes(info.games_bytes).c_str(), db::schema::kHeadersFile,
              human_bytes(info.headers_bytes).c_str(),
              postings_bytes ? human_bytes(postings_bytes).c_str() : "missing: cqldb reindex --postings-only",
              header_bitmaps_bytes ? human_bytes(header_bitmaps_bytes).c_str() : "missing: cqldb check --repair");
  if (info.games_with_clocks || info.games_with_evals || info.annotation_bytes)
    std::printf("annotations:     %s games with clocks, %s with evaluations (moves %s, "
                "annotations %s in games.mdb)\n",
                with_commas(info.games_with_clocks).c_str(),
                with_commas(info.games_with_evals).c_str(),
                human_bytes(info.move_record_bytes).c_str(),
                human_bytes(info.annotation_bytes).c_str());
  std::printf("bytes per game:  %.1f\n",
              info.games ? info.bytes_per_game + double(postings_bytes + header_bitmaps_bytes) / double(info.games)
                         : 0.0);
  std::printf("format version:  %u (game records %u, signatures %u, postings %s)\n", info.format_version,
              info.record_format_version, db::schema::kSignatureFormatVersion,
              postings_current ? std::to_string(sig::kPostingsFormatVersion).c_str()
                               : "not current: cqldb reindex --postings-only");
  if (info.uncommitted_records)
    std::printf("uncommitted:     %s records from an interrupted import (ignored)\n",
                with_commas(info.uncommitted_records).c_str());
  if (store->sharded()) {
    std::printf("shards:          %zu (each an ordinary database; ids global)\n", shards.size());
    for (const query::ShardInfo& shard : shards)
      std::printf("  %-14s ids %s..%s (%s games)\n", shard.path.c_str(), with_commas(shard.first_id).c_str(),
                  with_commas(uint64_t(shard.first_id) + shard.games - 1).c_str(), with_commas(shard.games).c_str());
  }
  if (log > 0)
    for (const query::Store::Part& part : store->parts()) print_log(part.dir.string(), log);
  return 0;
}

}  // namespace cli
