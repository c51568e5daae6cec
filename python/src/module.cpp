// cqldb._cqldb: the compiled half of the Python module `cqldb` (issue 38; README "Python"):
// the Database class and the module's functions (import_pgn in import.cpp, the shared
// Ctrl-C and error handling in common.h).
// It calls the route of the command line, never the command: query::Query::compile and
// query::execute for a query, import::import_files for an import, posindex::build_tree for
// the opening tree. The GIL is released while a query, a tree or an import runs; Ctrl-C
// (SIGINT delivered to the main thread) stops it through the cancel flag the executor and
// the importer poll, and is raised as KeyboardInterrupt once the C++ side returned. The
// pure-Python package (python/cqldb/__init__.py) wraps these functions in Database, Result
// and Game and carries the docstrings users read.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/engine.h"
#include "common.h"
#include "convert.h"
#include "db/database.h"
#include "db/errors.h"
#include "db/pgn_writer.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "headers/game_order.h"
#include "headers/header_store.h"
#include "index/position_index.h"
#include "index/position_tree.h"
#include "index/tree_json.h"
#include "query/executor.h"
#include "query/explain.h"
#include "query/open_database.h"
#include "query/query.h"
#include "query/sharded.h"
#include "query/result_json.h"
#include "render/game_walk.h"

namespace py = pybind11;

namespace pycqldb {

namespace {

/// The rows of `matches` (global ids): headers, and typed annotations where stored, as the
/// jsonl output reads them (cli/query_output.cpp).
std::vector<MatchRow> read_rows(const query::Store& store, std::vector<eval::GameMatch> matches) {
  query::Store::Reader reader = store.reader();
  std::vector<MatchRow> rows(matches.size());
  for (size_t i = 0; i < matches.size(); ++i) {
    MatchRow& row = rows[i];
    row.match = std::move(matches[i]);
    if (!reader.read_header(row.match.id, row.header))
      throw std::out_of_range("no game " + std::to_string(row.match.id));
    std::string_view bytes;
    db::RecordView record;
    if (reader.record(row.match.id, bytes) && !bytes.empty() && (uint8_t(bytes[0]) & db::kHasAnnotations) &&
        reader.record_view(row.match.id, record) && record.has_typed()) {
      record.ply_annotations(row.annotations);
      for (db::PlyAnnotation& a : row.annotations) a.rest = {};  // a view into the record: not kept
    }
  }
  return rows;
}

/// `text` compiled as query::Query::compile does in `dialect` ("auto": a text starting with
/// CQL 6's `cql(` header is CQL 6, else CQL-S; "cqls"; "cql6"): QueryError for the text,
/// ValueError for an unknown dialect name.
query::Query compile_query(const std::string& text, const std::string& source_name, const std::string& dialect) {
  query::Dialect d;
  try {
    d = query::parse_dialect(dialect);
  } catch (const std::invalid_argument& e) {
    throw py::value_error(std::string("dialect: ") + e.what());
  }
  return query::Query::compile(text, source_name, d);
}

/// The shards of a sharded database as Python dicts {path, first_id, games} (ids are global,
/// 1-based; `games` counts the shard's games).
py::list shard_list(const std::vector<query::ShardInfo>& shards) {
  py::list list;
  for (const query::ShardInfo& shard : shards) {
    py::dict d;
    d["path"] = shard.path;
    d["first_id"] = shard.first_id;
    d["games"] = shard.games;
    list.append(d);
  }
  return list;
}

/// The position of `fen` (default the start) after the SAN `moves`; ValueError for either
/// being wrong.
chess::Position position_of(const std::optional<std::string>& fen, const std::optional<std::string>& moves) {
  chess::Position pos;
  const chess::FenError err = pos.set_fen(fen ? *fen : posindex::kStartFen);
  if (!err.ok()) throw py::value_error("fen: " + err.message);
  std::string error;
  if (moves && !posindex::play_san_moves(pos, *moves, error)) throw py::value_error("moves: " + error);
  return pos;
}

/// The explorer JSON of the trees `parts` (tree_part's texts, in id order) summed.
std::string merge_trees(const std::vector<py::bytes>& parts, std::optional<std::string> fen,
                        std::optional<std::string> moves) {
  const chess::Position pos = position_of(fen, moves);
  std::vector<std::string> texts;
  for (const py::bytes& b : parts) texts.push_back(std::string(b));
  return guarded([&] {
    posindex::Tree merged;
    std::unordered_map<uint32_t, std::pair<std::string, std::string>> players;
    for (const std::string& t : texts) query::merge_tree(merged, query::tree_from_part_json(t, players));
    return query::json_text(posindex::tree_json(merged, pos, [&](uint32_t id, db::GameHeader& h) {
      auto it = players.find(id);
      if (it == players.end()) return false;
      h.white = it->second.first;
      h.black = it->second.second;
      return true;
    }));
  });
}

// ---- Database --------------------------------------------------------------------------

/// An open database or sharded database directory (query/sharded.h).
class PyDatabase {
 public:
  PyDatabase(const std::string& path, bool readonly) : path_(path), readonly_(readonly) {
    guarded([&] {
      if (readonly && !query::holds_database(path) && !query::is_sharded(path))
        raise_database_error(query::no_database_message(path));
      if (!claim_directory(path, key_))
        raise_database_error(path + " is already open in this process (close the other Database first)");
      try {
        store_ = query::Store::open(path, readonly);
      } catch (...) {
        release_directory(key_);
        throw;
      }
      return 0;
    });
  }
  ~PyDatabase() { close(); }

  void close() {
    if (!store_) return;
    store_.reset();
    release_directory(key_);
  }

  query::Store& store() {
    if (!store_) raise_database_error("the database " + path_ + " is closed");
    return *store_;
  }

  /// (rows, stats) of `text`; see cqldb.Database.query.
  py::tuple query(const std::string& text, std::optional<std::string> sort, uint64_t limit, unsigned threads,
                  bool planner, py::object progress, py::object cancel, const std::string& source_name,
                  const std::string& dialect) {
    query::Store& s = store();
    std::optional<headers::SortOrder> order;
    if (sort) {
      order = headers::parse_sort_order(*sort);
      if (!order)
        throw py::value_error("cannot sort by '" + *sort + "' (expected " +
                              std::string(headers::sort_order_names()) + ")");
    }
    query::Query compiled = compile_query(text, source_name, dialect);
    std::atomic<bool> flag{false};
    Callback callback(std::move(progress), std::move(cancel), flag);
    query::ExecuteOptions options;
    options.threads = threads;
    options.limit = limit;
    options.sort = order;  // the first `limit` of the sorted answer (issue 40)
    options.cancel = &flag;
    if (!planner) options.planner_off();
    if (callback.active())
      options.progress = [&callback](uint64_t searched, uint64_t total, uint64_t matches) {
        callback(searched, total, matches);
      };
    std::vector<MatchRow> rows;
    query::Stats stats;
    SigintScope sigint(flag);
    guarded([&] {
      py::gil_scoped_release release;
      query::Result result = s.execute(compiled, options);
      rows = read_rows(s, std::move(result.matches));
      stats = std::move(result.stats);
      return 0;
    });
    raise_if_interrupted(sigint);
    callback.rethrow();
    py::list out;
    for (const MatchRow& row : rows) out.append(row_dict(row));
    return py::make_tuple(out, stats_dict(stats));
  }

  /// The game `id` as a dict; see cqldb.Game.
  py::dict game(uint32_t id) {
    query::Store& s = store();
    db::GameHeader h;
    std::string pgn;
    render::GameWalk walk;
    std::vector<db::PlyAnnotation> annotations;
    bool found = guarded([&] {
      py::gil_scoped_release release;
      query::Store::Reader reader = s.reader();
      db::RecordView record;
      if (!reader.read_header(id, h) || !reader.record_view(id, record)) return false;
      walk = render::walk_game(record);
      db::write_pgn(h, record, pgn);
      if (record.has_typed()) record.ply_annotations(annotations);
      for (db::PlyAnnotation& a : annotations) a.rest = {};  // a view into the record: not kept
      return true;
    });
    if (!found) throw py::index_error("no game " + std::to_string(id) + " (ids are 1.." +
                                      std::to_string(s.game_count()) + ")");
    py::dict d;
    d["id"] = id;
    py::dict tags;
    auto tag = [&](const char* name, const std::string& value) { tags[name] = text(value); };
    tag("Event", h.event);
    tag("Site", h.site);
    tag("Date", h.date);
    tag("Round", h.round);
    tag("White", h.white);
    tag("Black", h.black);
    tag("Result", h.result);
    if (h.white_elo) tag("WhiteElo", std::to_string(h.white_elo));
    if (h.black_elo) tag("BlackElo", std::to_string(h.black_elo));
    if (!h.eco.empty()) tag("ECO", h.eco);
    if (!h.variant.empty()) tag("Variant", h.variant);
    if (!h.start_fen.empty()) {
      tag("SetUp", "1");
      tag("FEN", h.start_fen);
    }
    for (const auto& [name, value] : h.other_tags) tags[text(name)] = text(value);
    d["headers"] = tags;
    const auto [eco, opening] = opening_of(h);
    d["eco"] = text(eco);
    d["opening"] = text(opening);
    d["file"] = text(h.source_file);
    d["ordinal"] = h.ordinal;
    d["plies"] = h.plies;
    d["pgn"] = text(pgn);
    d["start_fen"] = walk.start_fen;
    py::list san, uci, comments, nags;
    for (const render::WalkMove& m : walk.main.moves) {
      san.append(m.san);
      uci.append(m.uci);
      comments.append(text(m.comment));
      nags.append(py::cast(std::vector<int>(m.nags.begin(), m.nags.end())));
    }
    d["san"] = san;
    d["uci"] = uci;
    d["comments"] = comments;
    d["comment_before"] = text(walk.main.comment_before);
    d["nags"] = nags;
    d["fens"] = py::cast(walk.fens);
    d["clocks"] = clocks_list(annotations);
    d["evals"] = evals_list(annotations);
    return d;
  }

  /// The opening tree as the JSON text of `cqldb tree --format json`.
  std::string tree(std::optional<std::string> fen, std::optional<std::string> moves, std::optional<std::string> text,
                   unsigned threads, const std::string& dialect) {
    query::Store& s = store();
    chess::Position pos = position_of(fen, moves);
    std::optional<query::Query> compiled;
    if (text) compiled.emplace(compile_query(*text, "query", dialect));
    std::atomic<bool> flag{false};
    std::string json;
    SigintScope sigint(flag);
    guarded([&] {
      py::gil_scoped_release release;
      std::optional<std::vector<uint32_t>> within;
      if (compiled) {
        query::ExecuteOptions options;
        options.threads = threads;
        options.cancel = &flag;
        within.emplace();
        for (const eval::GameMatch& m : s.execute(*compiled, options).matches) within->push_back(m.id);
      }
      if (!flag.load()) json = s.tree_json(pos, within ? &*within : nullptr);
      return 0;
    });
    raise_if_interrupted(sigint);
    return json;
  }

  /// The tree of one shard opened as an ordinary database, its ids made global by adding
  /// `first_id` - 1, as query::tree_part_json's text (cqldb.dask.tree merges them).
  py::bytes tree_part(std::optional<std::string> fen, std::optional<std::string> moves,
                      std::optional<std::string> text, unsigned threads, uint32_t first_id,
                      const std::string& dialect) {
    query::Store& s = store();
    chess::Position pos = position_of(fen, moves);
    std::optional<query::Query> compiled;
    if (text) compiled.emplace(compile_query(*text, "query", dialect));
    std::string out;
    guarded([&] {
      py::gil_scoped_release release;
      std::optional<std::vector<uint32_t>> within;
      if (compiled) {
        query::ExecuteOptions options;
        options.threads = threads;
        within.emplace();
        for (const eval::GameMatch& m : s.execute(*compiled, options).matches) within->push_back(m.id);
      }
      posindex::Tree t = s.tree(pos, within ? &*within : nullptr);
      const uint32_t offset = first_id - 1;
      auto shift = [offset](posindex::TreeGame& g) {
        if (g.id) g.id += offset;
      };
      shift(t.total.best);
      for (posindex::TreeMove& m : t.moves) shift(m.stats.best);
      for (posindex::TreeGame& g : t.top_games) shift(g);
      query::Store::Reader reader = s.reader();
      out = query::tree_part_json(t, [&](uint32_t id, db::GameHeader& h) { return reader.read_header(id - offset, h); });
      return 0;
    });
    return py::bytes(out);
  }

  /// The plan of `text` and the estimates, as `cqldb query --explain` prints them.
  std::string explain(const std::string& text, const std::string& dialect) {
    query::Store& s = store();
    query::Query compiled = compile_query(text, "query", dialect);
    return guarded([&] { return s.explain(compiled); });
  }

  py::dict info() {
    query::Store& s = store();
    std::vector<query::ShardInfo> shards;
    db::DatabaseInfo i = guarded([&] { return s.info(&shards); });
    py::dict d;
    d["path"] = path_;
    d["games"] = i.games;
    d["rejected"] = i.rejected;
    d["warnings"] = i.warnings;
    d["files"] = i.files;
    d["games_bytes"] = i.games_bytes;
    d["headers_bytes"] = i.headers_bytes;
    d["bytes_per_game"] = i.bytes_per_game;
    d["format_version"] = i.format_version;
    d["record_format_version"] = i.record_format_version;
    d["games_with_clocks"] = i.games_with_clocks;
    d["games_with_evals"] = i.games_with_evals;
    d["uncommitted_records"] = i.uncommitted_records;
    d["sharded"] = s.sharded();
    d["shards"] = shard_list(shards);
    return d;
  }

  const std::string& path() const { return path_; }
  bool readonly() const { return readonly_; }
  bool closed() const { return !store_; }

 private:
  std::string path_, key_;
  bool readonly_;
  std::unique_ptr<query::Store> store_;
};

}  // namespace

}  // namespace pycqldb

PYBIND11_MODULE(_cqldb, m) {
  using namespace pycqldb;
  m.doc() = "The compiled half of the cqldb module; use `import cqldb` (its docstrings describe the API).";
  py::object database_error = py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("cqldb.DatabaseError",
                                "A database could not be opened, read or written (a storage error).",
                                PyExc_RuntimeError, nullptr));
  py::object query_error = py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "cqldb.QueryError",
      "A CQL script that does not parse or compile. str(e) is 'source:line:column: message'; "
      ".line and .column are 1-based, .message and .expected the parts.",
      PyExc_ValueError, nullptr));
  g_database_error = database_error.release().ptr();
  g_query_error = query_error.release().ptr();
  m.attr("DatabaseError") = py::handle(g_database_error);
  m.attr("QueryError") = py::handle(g_query_error);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const query::QueryError& e) {
      py::object instance = py::handle(g_query_error)(py::str(e.what()));
      instance.attr("line") = e.line();
      instance.attr("column") = e.column();
      instance.attr("message") = e.message();
      instance.attr("expected") = e.expected();
      instance.attr("source") = e.source_name();
      PyErr_SetObject(g_query_error, instance.ptr());
    }
  });

  py::class_<PyDatabase>(m, "Database")
      .def(py::init<const std::string&, bool>(), py::arg("path"), py::arg("readonly") = true)
      .def("query", &PyDatabase::query, py::arg("text"), py::arg("sort"), py::arg("limit"), py::arg("threads"),
           py::arg("planner"), py::arg("progress"), py::arg("cancel"), py::arg("source_name"),
           py::arg("dialect") = "auto")
      .def("game", &PyDatabase::game, py::arg("id"))
      .def("tree", &PyDatabase::tree, py::arg("fen"), py::arg("moves"), py::arg("query"), py::arg("threads"),
           py::arg("dialect") = "auto")
      .def("tree_part", &PyDatabase::tree_part, py::arg("fen"), py::arg("moves"), py::arg("query"),
           py::arg("threads"), py::arg("first_id"), py::arg("dialect") = "auto")
      .def("explain", &PyDatabase::explain, py::arg("text"), py::arg("dialect") = "auto")
      .def("info", &PyDatabase::info)
      .def("close", &PyDatabase::close)
      .def_property_readonly("path", &PyDatabase::path)
      .def_property_readonly("readonly", &PyDatabase::readonly)
      .def_property_readonly("closed", &PyDatabase::closed);
  m.def("import_pgn", &import_pgn, py::arg("db_path"), py::arg("files"), py::arg("progress"),
        py::arg("skip_duplicates"), py::arg("threads"), py::arg("shard_size"));
  m.def("is_sharded", [](const std::string& path) { return query::is_sharded(path); }, py::arg("path"));
  m.def(
      "check_query",
      [](const std::string& text, const std::string& dialect) { (void)compile_query(text, "query", dialect); },
      py::arg("text"), py::arg("dialect") = "auto");
  m.def("merge_trees", &merge_trees, py::arg("parts"), py::arg("fen"), py::arg("moves"));
  m.def(
      "shard",
      [](const std::string& source, uint32_t shards, const std::string& out) {
        std::vector<query::ShardInfo> written;
        guarded([&] {
          py::gil_scoped_release release;
          written = query::shard_database(source, shards, out);
          return 0;
        });
        return shard_list(written);
      },
      py::arg("source"), py::arg("shards"), py::arg("out"));
}
