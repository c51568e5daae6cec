// Gaviota endgame tablebases (Debian `libgaviotatb-dev`, tables from `gaviotatb`) for
// :endgameevaluation and :endgameevaluation* (seed 000, CQL-Position-List
// ":endgameevaluation"; SPEC Analysis keywords).
//
// The library is process-global: configure() names the directories; the first probe()
// initialises it (prepare()) lazily, once per process and again only when the directories
// changed, so compiling a query never touches the tables. probe() is safe from several threads at once: the
// library call itself is serialised by a mutex (its own locking gave wrong answers now and
// then under concurrent probes). Positions whose material has no table fail
// quietly: the first few such materials are reported once each on stderr, and positions with
// more pieces than the tables hold (up to Gaviota's 5) once in all.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "chess/position.h"

namespace analysis::tablebase {

/// The directories used when neither configure() nor CQLDB_TABLEBASES names any: Debian's
/// 3-piece tables in compression scheme 4 (LZMA), the scheme the downloadable 4- and
/// 5-piece sets use.
inline constexpr const char* kDefaultDirs = "/usr/share/gaviotatb/gtb4";

/// Gaviota tables exist for at most this many pieces (kings included).
inline constexpr int kGaviotaMaxPieces = 5;

/// Sets the table directories, `DIR[:DIR...]`, used from the next prepare() on. An empty
/// string restores the default: $CQLDB_TABLEBASES, else kDefaultDirs.
void configure(const std::string& dirs);

/// The directories prepare() uses (configure(), else $CQLDB_TABLEBASES, else kDefaultDirs).
std::string configured_dirs();

/// What prepare() found.
struct Status {
  int max_pieces = 0;  ///< largest table size present (pieces, kings included); 0 = none
  int scheme = 0;      ///< compression scheme of the files (0 uncompressed, 1..4 = .cp1..cp4)
  std::string dirs;    ///< the directories searched
};

/// Initialises the library with configured_dirs() unless that was already done with the same
/// directories. The compression scheme is taken from the file names found (`*.gtb.cpN`; the
/// most frequent one). Not thread-safe: call it while no probe runs (probe() calls it).
Status prepare();

/// No tables at all in the configured directories: ends the query that probed.
class TablebaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Outcome of one probe.
enum class Verdict : uint8_t {
  kDraw,       ///< draw with best play
  kWhiteWins,  ///< White mates with best play
  kBlackWins,  ///< Black mates with best play
  kUnknown,    ///< no table for the material, castling rights held, or too many pieces
};

/// A tablebase answer: verdict and distance to mate.
struct ProbeResult {
  Verdict verdict = Verdict::kUnknown;
  int plies = 0;  ///< plies to mate with best play from the position (0 for draws and when
                  ///< the side to move is already mated)
};

/// Probes `pos`, calling prepare() first when the library is not ready (thread-safe).
/// Throws TablebaseError when the directories hold no table at all. Positions with castling rights or more pieces than
/// the tables hold are kUnknown without a probe (the latter with the once-in-all warning); a
/// missing table gives kUnknown and a one-time warning on stderr naming the material ("no
/// Gaviota table for KRk").
ProbeResult probe(const chess::Position& pos);

/// The largest table in configured_dirs() by file name ("kqkr.gtb.cp4" holds 4 pieces),
/// without initialising the library (for the planner's material bound at compile time);
/// 0 when no table file is found.
int max_pieces_by_files();

/// Probes issued to the library since the start of the process (benchmarks).
uint64_t probe_count();

/// "KRPkr": the material of `pos`, White's pieces then Black's, K Q R B N P order.
std::string material_name(const chess::Position& pos);

}  // namespace analysis::tablebase
