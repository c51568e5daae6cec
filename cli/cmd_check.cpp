// `cqldb check --db DIR` (issue 14): verifies every part of a database and lists what is
// damaged.
//
// - every game record (games.mdb): it reads (no damaged LMDB page), decodes (RecordView::
//   parse), and its main line and variations replay with the replay rule of the queries
//   (db::is_playable_stored, the stored-move rule of db/stored_move.h); its headers row
//   exists in the header store and counts the record's plies;
// - every signature: present, decodes (sig::decode), and equals the encoding of the one
//   the builder recomputes from the record (sig::compute_signature);
// - the posting index (postings.bin): present, of the current format and signature
//   versions, its table of entries valid, every posting readable, covering exactly the
//   committed games; one that covers fewer games (an import killed before it caught up)
//   is a warning "index behind by N games" with the command that brings it up to date
//   (`--repair`, or the next import), not damage (issue 40). The position index likewise.
// Exit 0 with a summary of what was checked and the time, or 1 with one line per damaged
// game or file ("game 17: record: corrupt game record: ...").
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.h"
#include "cli/command.h"
#include "query/sharded.h"
#include "cli/conventions.h"
#include "cli/options.h"
#include "db/database.h"
#include "db/header_bitmaps.h"
#include "query/open_database.h"
#include "db/errors.h"
#include "db/game_reader.h"
#include "db/game_writer.h"
#include "db/record_view.h"
#include "db/schema.h"
#include "db/stored_move.h"
#include "index/position_index.h"
#include "index/postings.h"
#include "index/signature.h"
#include "index/signature_builder.h"

namespace cli {

namespace {

/// One damaged game (id >= 1) or file (id 0), with the reason.
struct Damage {
  uint32_t id = 0;
  std::string reason;
};

/// What check found.
struct CheckReport {
  uint32_t games = 0;           ///< records read, decoded and replayed without damage
  uint64_t plies = 0;           ///< main-line moves replayed
  uint64_t variation_moves = 0; ///< variation moves replayed
  uint32_t signatures = 0;      ///< signatures equal to the recomputed ones
  uint32_t postings = 0;        ///< postings read from postings.bin
  std::string header_bitmaps_note;  ///< what the check of the header bitmaps found
  std::string positions_note;   ///< what the check of the position index found
  std::vector<Damage> damaged;  ///< in the order found
  std::vector<std::string> warnings;  ///< indexes behind the games (exit 0)
};

/// The warning for an index of `dir` that covers `covered` of `games` games.
std::string behind_warning(const std::filesystem::path& file, uint32_t covered, uint32_t games) {
  const uint32_t behind = games - covered;
  return file.string() + ": index behind by " + with_commas(behind) + " game" + (behind == 1 ? "" : "s") +
         (covered ? " (it covers games 1.." + with_commas(covered) + " of " + with_commas(games) + ")"
                  : std::string(" (it covers none)")) +
         "; `cqldb check --repair --db " + file.parent_path().string() + "` or the next import brings it up to date";
}

/// The reason of `e` without its "game <id>: " prefix (the report names the game).
std::string reason_of(const db::CorruptRecord& e, uint32_t id) {
  const std::string what = e.what(), prefix = "game " + std::to_string(id) + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

/// Replays the main line and every variation of `view` with the queries' replay rule.
/// Returns the variation moves played; throws db::CorruptRecord for a move that may not be
/// played (naming its ply) or an invalid start FEN.
uint64_t replay_record(const db::RecordView& view) {
  chess::Position start;
  if (!view.start_fen().empty()) {
    const chess::FenError err = start.set_fen(view.start_fen(), view.chess960());
    if (!err.ok()) throw db::CorruptRecord("stored start FEN is invalid: " + err.message);
  }
  // One line per depth: the position after its last move and the one before it, where a
  // variation of that move branches off.
  struct Line {
    chess::Position cur, prev;
  };
  std::vector<Line> lines{{start, start}};
  uint64_t variation_moves = 0;
  uint32_t ply = 0;  // main-line ply reached
  for (const db::Token& t : view.tokens()) {
    switch (t.kind) {
      case db::TokenKind::kBeginVariation:
        lines.push_back({lines.back().prev, lines.back().prev});
        break;
      case db::TokenKind::kEndVariation:
        if (lines.size() > 1) lines.pop_back();
        break;
      case db::TokenKind::kMove: {
        Line& line = lines.back();
        if (!db::is_playable_stored(line.cur, t.move)) {
          const std::string where = lines.size() == 1
                                        ? "main-line move " + std::to_string(ply + 1)
                                        : "a variation move after main-line ply " + std::to_string(ply);
          throw db::CorruptRecord(std::string(t.move == chess::Move::null()
                                                  ? "stored null move while in check"
                                                  : "stored move is illegal on its board") +
                                  " (" + where + ")");
        }
        line.prev = line.cur;
        chess::UndoInfo undo;
        if (t.move == chess::Move::null()) {
          line.cur.do_null_move(undo);
        } else {
          line.cur.do_move(t.move, undo);
        }
        if (lines.size() == 1) {
          ++ply;
        } else {
          ++variation_moves;
        }
        break;
      }
      default:
        break;
    }
  }
  return variation_moves;
}

/// Checks records, headers rows and signatures of every committed game.
void check_games(db::GameReader& reader, CheckReport& report) {
  sig::SignatureBuilder builder;
  std::string expected;
  db::GameHeader header;
  const uint32_t count = reader.game_count();
  for (uint32_t id = 1; id <= count; ++id) {
    db::RecordView view;
    try {
      reader.record_view(id, view);
      report.variation_moves += replay_record(view);
    } catch (const db::CorruptRecord& e) {
      report.damaged.push_back({id, "record: " + reason_of(e, id)});
      reader.refresh();  // a damaged page ends the snapshot's LMDB transaction
      continue;
    }
    ++report.games;
    report.plies += view.main_line_size();
    try {
      reader.read_header(id, header);
      if (header.plies != view.main_line_size())
        report.damaged.push_back({id, "headers: " + std::string(db::schema::kHeadersFile) + " counts " + std::to_string(header.plies) +
                                          " plies, the record " +
                                          std::to_string(view.main_line_size())});
    } catch (const db::CorruptRecord& e) {
      report.damaged.push_back({id, "headers: " + reason_of(e, id)});
    }
    std::string_view stored;
    try {
      if (!reader.signature(id, stored)) {
        report.damaged.push_back({id, "signature: missing (rebuild with `cqldb reindex`)"});
        continue;
      }
      sig::decode(stored);
      // The view reads bytes of the snapshot: read the record again after a refresh().
      sig::compute_signature(view, builder);
      expected.clear();
      sig::encode(builder.signature(), expected);
      if (expected != stored) {
        report.damaged.push_back(
            {id, "signature: differs from the one its record gives (" + std::to_string(stored.size()) +
                     " bytes stored, " + std::to_string(expected.size()) + " recomputed)"});
        continue;
      }
      ++report.signatures;
    } catch (const sig::CorruptSignature& e) {
      report.damaged.push_back({id, std::string("signature: ") + e.what()});
    } catch (const db::CorruptRecord& e) {
      report.damaged.push_back({id, "signature: " + reason_of(e, id)});
      reader.refresh();
    }
  }
}

/// Little-endian uint32 at `p`.
uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// Checks postings.bin of `dir` against the committed `games`.
void check_postings(const std::filesystem::path& dir, uint32_t games, CheckReport& report) {
  const std::filesystem::path path = dir / sig::kPostingsFile;
  auto damaged = [&](const std::string& reason) {
    report.damaged.push_back({0, path.string() + ": " + reason});
  };
  std::ifstream in(path, std::ios::binary);
  if (!in) {  // an import killed before its end: queries are slower, never wrong
    if (games) report.warnings.push_back(behind_warning(path, 0, games));
    else damaged("missing (rebuild with `cqldb reindex --postings-only`)");
    return;
  }
  // The fixed header (index/postings.h): magic, format version, signature version,
  // covered games, entry count.
  char head[24] = {};
  in.read(head, sizeof head);
  if (in.gcount() < std::streamsize(sizeof head) || std::memcmp(head, "CQLPOST1", 8) != 0) {
    damaged("not a posting index (bad magic or shorter than its header)");
    return;
  }
  if (read_u32(head + 8) != sig::kPostingsFormatVersion ||
      read_u32(head + 12) != db::schema::kSignatureFormatVersion) {
    damaged("format version " + std::to_string(read_u32(head + 8)) + " over signatures of version " +
            std::to_string(read_u32(head + 12)) + ", not the current " +
            std::to_string(sig::kPostingsFormatVersion) + " over " +
            std::to_string(db::schema::kSignatureFormatVersion) +
            " (rebuild with `cqldb reindex --postings-only`)");
    return;
  }
  std::optional<sig::Postings> postings = sig::Postings::open(dir);
  if (!postings) {
    damaged("its table of postings is damaged (an entry out of order, out of the key space or "
            "past the end of the file)");
    return;
  }
  if (postings->covered() < games)
    report.warnings.push_back(behind_warning(path, postings->covered(), games));
  else if (postings->covered() > games)
    damaged("covers games 1.." + std::to_string(postings->covered()) + " but the database has " +
            std::to_string(games) + " (rebuild with `cqldb reindex --postings-only`)");
  for (uint32_t key = 0; key < sig::kPostingKeySpace; ++key) {
    // Postings keeps what find() read in a list it searches linearly: reopened every 1,024
    // keys, the check of every key stays linear (issue 40: 14 s on an empty database).
    if (key % 1024 == 1023) postings = sig::Postings::open(dir);
    if (!postings) {
      damaged("could not be opened again (changed while checked?)");
      break;
    }
    try {
      const sig::GameSet* set = postings->find(key);
      if (!set || !set->size()) continue;
      ++report.postings;
      // CRoaring 0.2 checks only the byte bounds of a bitmap it reads: a damaged container
      // deserializes and answers inconsistently (tests/fuzz/postings_fuzz.cpp found it).
      const std::vector<uint32_t> ids = set->ids();
      bool valid = ids.size() == set->size() && ids.front() >= 1 && ids.back() <= postings->covered();
      for (size_t i = 0; valid && i < ids.size(); ++i)
        valid = (i == 0 || ids[i - 1] < ids[i]) && (i % 64 != 0 || set->contains(ids[i]));
      if (!valid) damaged("postings.bin: posting " + std::to_string(key) + " is damaged (its game set is inconsistent)");
    } catch (const std::runtime_error& e) {
      damaged(e.what());
    }
  }
}

/// Checks the header bitmaps of `dir` (db/header_bitmaps.h): missing or behind is only a
/// warning (header filters then read SQL); a damaged file or bitmap is damage.
void check_header_bitmaps(const std::filesystem::path& dir, uint32_t games, CheckReport& report) {
  const std::filesystem::path path = dir / db::kHeaderBitmapsFile;
  auto damaged = [&](const std::string& reason) { report.damaged.push_back({0, reason}); };
  std::optional<db::HeaderBitmaps> bitmaps;
  try {
    bitmaps = db::HeaderBitmaps::open(dir);
  } catch (const db::FormatError& e) {
    return damaged(e.what());
  }
  if (!bitmaps) {
    report.header_bitmaps_note = "missing or of another version (year, Elo, ECO and player name filters read headers.sqlite; "
                                 "`cqldb check --repair` or the next import builds them)";
    if (games) report.warnings.push_back(behind_warning(path, 0, games));
    return;
  }
  if (bitmaps->covered() > games)
    return damaged(path.string() + ": covers games 1.." + std::to_string(bitmaps->covered()) +
                   " but the database has " + std::to_string(games) + " (rebuild with `cqldb reindex`)");
  if (bitmaps->covered() < games) report.warnings.push_back(behind_warning(path, bitmaps->covered(), games));
  uint64_t read = 0;
  for (const std::string& problem : bitmaps->check(read)) damaged(problem);
  report.header_bitmaps_note = with_commas(read) + " bitmaps of " + std::to_string(bitmaps->segments()) +
                               " segment(s) read, covering " + with_commas(bitmaps->covered()) + " games";
}

/// Checks the position index of `dir` (index/position_index.h): a missing one is only
/// reported (queries then replay); an unreadable or incomplete one, or a damaged block, is
/// damage.
void check_positions(const std::filesystem::path& dir, uint32_t games, CheckReport& report) {
  auto damaged = [&](const std::string& reason) {
    report.damaged.push_back({0, (dir / posindex::kManifestFile).string() + ": " + reason +
                                     " (rebuild with `cqldb reindex --positions-only`)"});
  };
  if (!std::filesystem::exists(dir / posindex::kManifestFile)) {
    report.positions_note = "missing (--fen and :fen replay, `tree` needs it; `cqldb reindex --positions-only` builds it)";
    return;
  }
  const std::optional<posindex::PositionIndex> index = posindex::PositionIndex::open(dir);
  if (!index) return damaged("of another version, or a file is missing or damaged");
  if (index->covered() > games)
    return damaged("covers games 1.." + std::to_string(index->covered()) + " but the database has " + std::to_string(games));
  if (index->covered() < games) report.warnings.push_back(behind_warning(dir / posindex::kManifestFile, index->covered(), games));
  const std::string problem = index->verify();
  if (!problem.empty()) return damaged(problem);
  report.positions_note = with_commas(index->entries()) + " entries of " + std::to_string(index->segments()) +
                          " segment(s) decoded, covering " + with_commas(index->covered()) + " games";
}

}  // namespace

int run_check(const std::vector<std::string>& args) {
  namespace po = boost::program_options;
  std::string db_dir;
  po::options_description options("Options");
  options.add_options()("db", po::value(&db_dir)->required(), "database directory")(
      "repair", "first bring the posting and position indexes up to date with the games (after an "
                "import that was killed or ran out of disk space), then check");
  po::positional_options_description positional;
  po::variables_map vm;
  if (const std::optional<int> exit = parse_options("check", options, positional, args, vm)) return *exit;
  if (!require_database("check", db_dir)) return kUsageError;
  if (query::is_sharded(db_dir)) {  // each shard checked as a database; ids in the manifest
    int status = 0;
    std::unique_ptr<query::Store> store;
    try {
      store = query::Store::open(db_dir, true);
    } catch (const std::runtime_error& e) {
      std::printf("damaged: %s\n", e.what());
      return 1;
    }
    for (const query::Store::Part& part : store->parts()) {
      std::printf("shard %s: games %u..%u\n", part.name.c_str(), part.first_id, part.first_id + part.games - 1);
      std::vector<std::string> part_args{"--db", part.dir.string()};
      if (vm.count("repair")) part_args.push_back("--repair");  // each shard repaired as a database
      status = std::max(status, run_check(part_args));
    }
    std::printf("%s: %zu shards, %s games, manifest consistent%s\n", db_dir.c_str(), store->parts().size(),
                with_commas(store->game_count()).c_str(), status ? "; damage found above" : "");
    return status;
  }
  const auto start = std::chrono::steady_clock::now();
  if (vm.count("repair")) {  // the indexes catch up, as the next import would do
    db::Database database = db::Database::create_or_open(db_dir);
    db::GameWriter writer = database.writer();  // the single-writer lock while files are replaced
    const sig::PostingsUpdate postings = sig::update_postings(database, /*rebuild=*/false);
    std::printf("repair: posting index covers %s games (%s added)\n", with_commas(postings.covered).c_str(),
                with_commas(postings.added).c_str());
    const db::HeaderBitmapsUpdate bitmaps = db::update_header_bitmaps(database);
    std::printf("repair: header bitmaps cover %s games (%s added)\n", with_commas(bitmaps.covered).c_str(),
                with_commas(bitmaps.added).c_str());
    if (std::filesystem::exists(std::filesystem::path(db_dir) / posindex::kManifestFile)) {
      const posindex::PositionIndexUpdate positions = posindex::update_position_index(database);
      std::printf("repair: position index covers %s games (%s added)\n", with_commas(positions.covered).c_str(),
                  with_commas(positions.added).c_str());
    }
  }
  db::Database database = query::open_database(db_dir);
  db::GameReader reader = database.reader();
  CheckReport report;
  check_games(reader, report);
  check_postings(db_dir, reader.game_count(), report);
  check_header_bitmaps(db_dir, reader.game_count(), report);
  check_positions(db_dir, reader.game_count(), report);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const uint32_t games = reader.game_count();
  std::printf("checked %s in %.2f s\n", db_dir.c_str(), seconds);
  std::printf("  records:    %s of %s read, decoded and replayed (%s main-line moves, %s in variations)\n",
              with_commas(report.games).c_str(), with_commas(games).c_str(),
              with_commas(report.plies).c_str(), with_commas(report.variation_moves).c_str());
  std::printf("  signatures: %s of %s decoded and equal to the recomputed ones\n",
              with_commas(report.signatures).c_str(), with_commas(games).c_str());
  std::printf("  postings:   %s postings read from %s\n", with_commas(report.postings).c_str(),
              sig::kPostingsFile);
  if (!report.header_bitmaps_note.empty())
    std::printf("  header bitmaps: %s\n", report.header_bitmaps_note.c_str());
  if (!report.positions_note.empty()) std::printf("  positions:  %s\n", report.positions_note.c_str());
  for (const std::string& w : report.warnings) std::printf("warning: %s\n", w.c_str());
  if (report.damaged.empty()) {
    std::printf("no damage found\n");
    return 0;
  }
  std::printf("damaged (%s):\n", with_commas(report.damaged.size()).c_str());
  for (const Damage& d : report.damaged) {
    if (d.id) {
      std::printf("  game %u: %s\n", d.id, d.reason.c_str());
    } else {
      std::printf("  %s\n", d.reason.c_str());
    }
  }
  return 1;
}

}  // namespace cli
