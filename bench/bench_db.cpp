// Storage-layer benchmark: writes 344,248 synthetic games (headers + ~80-ply records, names
// from a pool of 20,000 players) through db::GameWriter in batches, as the importer does,
// then appends a second import and reads everything back. Prints games/s and bytes/game.
//
//   bench_db [DIR] [--keep]     DIR defaults to a fresh directory under /tmp
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "db/database.h"
#include "db/game_record.h"

namespace {

constexpr uint32_t kGames = 344248;       // the players-344k corpus
constexpr uint32_t kAppendGames = 50000;  // second import into the non-empty database
constexpr uint32_t kBatch = 10000;        // games per commit
constexpr uint32_t kPlayers = 20000;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

/// Deterministic synthetic games with realistic field sizes.
class GameFactory {
 public:
  GameFactory() : rng_(20240601) {
    static const char* const kSyllables[] = {"ka",  "ro",  "vic", "son", "berg", "ov", "an",
                                             "mar", "tin", "el",  "sky", "ner",  "li", "po",
                                             "hu",  "zak", "de",  "ri",  "gon",  "sen"};
    auto word = [&](int syllables) {
      std::string w;
      for (int i = 0; i < syllables; ++i) w += kSyllables[rng_() % 20];
      w[0] = char(w[0] - 'a' + 'A');
      return w;
    };
    for (uint32_t i = 0; i < kPlayers; ++i)
      players_.push_back(word(2 + int(rng_() % 3)) + ", " + char('A' + rng_() % 26) + ".");
    for (int i = 0; i < 12000; ++i) events_.push_back(word(2) + " " + word(3) + " Open");
    for (int i = 0; i < 2500; ++i) sites_.push_back(word(3) + " " + word(1).substr(0, 3));
  }

  /// Fills `h` and returns the record of the next game, from `file`.
  std::string_view next(db::GameHeader& h, const std::string& file, uint32_t ordinal) {
    h.source_file = file;
    h.ordinal = ordinal;
    h.white = players_[skewed(kPlayers)];
    h.black = players_[skewed(kPlayers)];
    h.event = events_[skewed(uint32_t(events_.size()))];
    h.site = sites_[skewed(uint32_t(sites_.size()))];
    const int year = 1850 + int(rng_() % 172);
    char date[16];
    if (rng_() % 4 == 0)
      std::snprintf(date, sizeof date, "%04d.??.??", year);
    else
      std::snprintf(date, sizeof date, "%04d.%02d.%02d", year, 1 + int(rng_() % 12),
                    1 + int(rng_() % 28));
    h.date = date;
    h.round = std::to_string(1 + rng_() % 13);
    static const char* const kResults[] = {"1-0", "0-1", "1/2-1/2", "1-0", "0-1"};
    h.result = kResults[rng_() % 5];
    h.white_elo = year < 1970 ? 0 : 2200 + int(rng_() % 650);
    h.black_elo = year < 1970 ? 0 : 2200 + int(rng_() % 650);
    h.eco =
        std::string(1, char('A' + rng_() % 5)) + char('0' + rng_() % 10) + char('0' + rng_() % 10);
    h.other_tags.clear();
    if (rng_() % 100 == 0) h.other_tags.emplace_back("Annotator", players_[rng_() % kPlayers]);

    const uint32_t plies = 20 + uint32_t(rng_() % 121);  // mean 80
    const bool annotated = rng_() % 100 == 0;
    builder_.reset();
    for (uint32_t i = 0; i < plies; ++i) {
      builder_.add_move(random_move());
      if (annotated && i % 10 == 5) {
        builder_.add_comment("A typical annotator's remark about this move.");
        builder_.add_nag(uint8_t(1 + rng_() % 6));
        builder_.begin_variation();
        for (int j = 0; j < 4; ++j) builder_.add_move(random_move());
        builder_.end_variation();
      }
    }
    h.plies = plies;
    return builder_.finish();
  }

 private:
  /// An index in [0, n) where low indexes are much more frequent (a few players have most
  /// of the games).
  uint32_t skewed(uint32_t n) {
    double u = double(rng_() % 1000000) / 1000000.0;
    return uint32_t(u * u * n);
  }

  chess::Move random_move() {
    uint32_t from = rng_() % 64, to = (from + 1 + rng_() % 63) % 64;
    return chess::Move(chess::Square(from), chess::Square(to));
  }

  std::mt19937_64 rng_;
  std::vector<std::string> players_, events_, sites_;
  db::RecordBuilder builder_;
};

struct WriteTimes {
  double add = 0;     // opening the writer and the add_game calls
  double commit = 0;  // commit calls
  double finish = 0;  // finish (deferred index build)
};

/// Games made in advance so that only the storage layer is timed.
struct Games {
  std::vector<db::GameHeader> headers;
  std::vector<std::string> records;
  size_t record_bytes = 0;
};

Games make_games(GameFactory& factory, uint32_t count, const std::string& file) {
  Games games;
  games.headers.resize(count);
  games.records.reserve(count);
  for (uint32_t i = 0; i < count; ++i) {
    games.records.emplace_back(factory.next(games.headers[i], file, i + 1));
    games.record_bytes += games.records.back().size();
  }
  return games;
}

WriteTimes write_games(db::Database& database, const Games& games) {
  WriteTimes t;
  auto start = Clock::now();
  db::GameWriter writer = database.writer();  // empty database: indexes deferred
  const uint32_t count = uint32_t(games.headers.size());
  for (uint32_t i = 0; i < count;) {
    const uint32_t end = std::min(count, i + kBatch);
    for (; i < end; ++i) writer.add_game(games.headers[i], games.records[i]);
    auto commit_start = Clock::now();
    writer.commit();
    t.commit += seconds_since(commit_start);
  }
  auto finish_start = Clock::now();
  writer.finish();
  t.finish = seconds_since(finish_start);
  t.add = seconds_since(start) - t.commit - t.finish;
  return t;
}

void print_write(const char* what, uint32_t games, const WriteTimes& t) {
  const double total = t.add + t.commit + t.finish;
  std::printf(
      "%s: %u games in %.3f s = %.0f games/s (add_game %.3f s, commit %.3f s, "
      "index build %.3f s)\n",
      what, games, total, games / total, t.add, t.commit, t.finish);
}

}  // namespace

int main(int argc, char** argv) {
  std::filesystem::path dir;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--keep")
      keep = true;
    else
      dir = arg;
  }
  if (dir.empty()) dir = "/tmp/cqldb_bench_db_" + std::to_string(getpid());
  if (std::filesystem::exists(dir)) {
    std::fprintf(stderr, "bench_db: %s exists; give a new directory\n", dir.c_str());
    return 2;
  }

  GameFactory factory;
  auto make_start = Clock::now();
  Games first = make_games(factory, kGames, "players-344k.pgn");
  Games second = make_games(factory, kAppendGames, "more.pgn");
  std::printf(
      "made %u + %u synthetic games in %.2f s (not timed below); records %.1f bytes "
      "on average\n",
      kGames, kAppendGames, seconds_since(make_start), double(first.record_bytes) / kGames);

  db::Database database = db::Database::create_or_open(dir);
  print_write("first import (empty database, indexes built at the end)", kGames,
              write_games(database, first));
  db::DatabaseInfo info = database.info();
  std::printf(
      "size after first import: games.mdb %.1f MB (%.1f bytes/game), headers.sqlite "
      "%.1f MB (%.1f bytes/game), total %.1f bytes/game\n",
      info.games_bytes / 1e6, double(info.games_bytes) / info.games, info.headers_bytes / 1e6,
      double(info.headers_bytes) / info.games, info.bytes_per_game);

  print_write("second import (appending, indexes kept)", kAppendGames,
              write_games(database, second));

  {
    // Full scan as the query workers do it: every record parsed and its main line read.
    db::GameReader reader = database.reader();
    auto scan_start = Clock::now();
    uint64_t plies = 0, checksum = 0;
    uint32_t id = 0;
    std::string_view bytes;
    auto scan = reader.scan();
    while (scan.next(id, bytes)) {
      db::RecordView view = db::RecordView::parse(bytes);
      db::MainLineCursor moves(view);
      for (uint32_t i = 0; i < view.main_line_size(); ++i) checksum += moves.next().raw();
      plies += view.main_line_size();
    }
    const double scan_s = seconds_since(scan_start);
    std::printf("scan + parse of %u records (%llu plies, checksum %llu): %.3f s = %.0f games/s\n",
                reader.game_count(), (unsigned long long)plies, (unsigned long long)checksum,
                scan_s, reader.game_count() / scan_s);

    auto lookup_start = Clock::now();
    db::GameHeader header;
    const uint32_t lookups = 100000;
    for (uint32_t i = 0; i < lookups; ++i)
      reader.read_header(1 + uint32_t((uint64_t(i) * 2654435761u) % reader.game_count()), header);
    const double lookup_s = seconds_since(lookup_start);
    std::printf("random header lookups: %u in %.3f s = %.0f/s\n", lookups, lookup_s,
                lookups / lookup_s);
  }
  info = database.info();
  std::printf("final: %u games, %.1f bytes/game on disk\n", info.games, info.bytes_per_game);

  if (!keep) std::filesystem::remove_all(dir);
  return 0;
}
