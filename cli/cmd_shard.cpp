// `cqldb shard --db DIR --shards K --out SHARDED`: splits a database into K shards of equal
// id ranges under a new directory with a manifest (query/sharded.h, issue 38). Every command
// that reads a database takes the sharded directory and answers as DIR does.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "query/sharded.h"

namespace cli {

int run_shard(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir, out_dir;
  uint32_t shards = 0;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory to split")(
      "shards", po::value(&shards)->required(), "number of shards K (at least 1)")(
      "out", po::value(&out_dir)->required(), "the sharded directory to create (must not exist)");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("shard", options, positional, args, vm)) return *exit;
  if (!require_database("shard", db_dir)) return kUsageError;
  if (shards == 0) {
    std::fprintf(stderr, "cqldb shard: --shards must be at least 1\n");
    return kUsageError;
  }
  std::vector<query::ShardInfo> written;
  try {
    written = query::shard_database(db_dir, shards, out_dir, [](uint64_t done, uint64_t total) {
      std::fprintf(stderr, "\rsharding: %s / %s games ", with_commas(done).c_str(), with_commas(total).c_str());
    });
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "\ncqldb shard: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "\n");
  for (const query::ShardInfo& s : written)
    std::printf("%s/%s: ids %s..%s (%s games)\n", out_dir.c_str(), s.path.c_str(), with_commas(s.first_id).c_str(),
                with_commas(uint64_t(s.first_id) + s.games - 1).c_str(), with_commas(s.games).c_str());
  return 0;
}

}  // namespace cli
