// cqldb.import_pgn's C++ side: the importer (query::import_into) with the GIL released, the
// progress callback and Ctrl-C as for a query.
#include <pybind11/stl.h>

#include <filesystem>

#include "common.h"
#include "convert.h"
#include "import/importer.h"
#include "query/sharded.h"

namespace pycqldb {

namespace {

py::dict summary_dict(const import::ImportSummary& s) {
  py::dict d;
  d["games_read"] = s.games_read;
  d["imported"] = s.imported;
  d["rejected"] = s.rejected;
  d["warnings"] = s.warnings;
  d["skipped_duplicates"] = s.skipped_duplicates;
  d["plies"] = s.plies;
  d["games_with_clocks"] = s.games_with_clocks;
  d["games_with_evals"] = s.games_with_evals;
  d["input_bytes"] = s.input_bytes;
  d["first_id"] = s.first_id;
  d["last_id"] = s.last_id;
  d["seconds"] = s.seconds;
  d["interrupted"] = s.interrupted;
  d["reasons"] = py::cast(s.reasons);
  d["warning_reasons"] = py::cast(s.warning_reasons);
  py::list rejections;
  for (const import::Rejection& r : s.first_rejections) {
    py::dict rd;
    rd["file"] = text(r.file);
    rd["ordinal"] = r.ordinal;
    rd["line"] = r.line;
    rd["move"] = text(r.move);
    rd["reason"] = text(r.reason);
    rejections.append(rd);
  }
  d["first_rejections"] = rejections;
  return d;
}

}  // namespace

py::dict import_pgn(const std::string& db_path, std::vector<std::string> files, py::object progress,
                    bool skip_duplicates, unsigned threads, uint64_t shard_size) {
  std::string key;
  if (!claim_directory(db_path, key))
    raise_database_error(db_path + " is open in this process: close its Database before importing");
  struct Release {
    std::string key;
    ~Release() { release_directory(key); }
  } release_dir{key};
  for (const std::string& f : files) {
    std::error_code ec;
    if (f != "-" && !std::filesystem::exists(f, ec)) raise_database_error("cannot read " + f + " (no such file)");
  }
  std::atomic<bool> flag{false};
  Callback callback(std::move(progress), py::none(), flag);
  import::ImportOptions options;
  options.workers = threads;
  options.skip_duplicates = skip_duplicates;
  options.cancel = &flag;
  import::ProgressCallback on_progress;
  if (callback.active())
    on_progress = [&callback](const import::ImportProgress& p) {
      py::gil_scoped_acquire gil;
      py::dict d;
      d["file"] = p.file;
      d["games_read"] = p.games_read;
      d["imported"] = p.imported;
      d["rejected"] = p.rejected;
      d["file_bytes_done"] = p.file_bytes_done;
      d["file_bytes_total"] = p.file_bytes_total;
      d["seconds"] = p.seconds;
      callback(d);
    };
  import::ImportSummary summary;
  SigintScope sigint(flag);
  guarded([&] {
    py::gil_scoped_release release;
    summary = query::import_into(db_path, files, options, on_progress, shard_size);
    return 0;
  });
  raise_if_interrupted(sigint);
  callback.rethrow();
  return summary_dict(summary);
}

}  // namespace pycqldb
