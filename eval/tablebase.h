// Gaviota endgame tablebases (Debian `libgaviotatb-dev`, tables from `gaviotatb`) for
// :endgameevaluation and :endgameevaluation* (seed 000, CQL-Position-List
// ":endgameevaluation"; SPEC Analysis keywords).
//
// The library is process-global: configure() names the directories, prepare() (called by
// Program::compile, single-threaded, before any search) initialises it once per process and
// again only when the directories changed. probe() is safe from several threads at once: the
// library call itself is serialised by a mutex (its own locking gave wrong answers now and
// then under concurrent probes). Positions whose material has no table fail
// quietly: the first few such materials are reported once each on stderr, and positions with
// more pieces than the tables hold (up to Gaviota's 5) once in all.
#pragma once

#include <cstdint>
#include <string>

#include "chess/position.h"

namespace eval {

struct Node;
struct PosCtx;

namespace tablebase {

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
/// most frequent one). Not thread-safe: call it while no probe runs.
Status prepare();

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

/// Probes `pos` (prepare() must have run). Positions with castling rights or more pieces than
/// the tables hold are kUnknown without a probe (the latter with the once-in-all warning); a
/// missing table gives kUnknown and a one-time warning on stderr naming the material ("no
/// Gaviota table for KRk").
ProbeResult probe(const chess::Position& pos);

/// Probes issued to the library since the start of the process (benchmarks).
uint64_t probe_count();

/// Op::kEndgameEvaluation (built by compile.cpp): payload::TablebaseProbe (outcome, `*` form,
/// total piece counts any table holds: checked before probing), `n.range` = distance to mate
/// in plies. The `*` form
/// is only examined at the first position of the line with the position's material (the
/// game's start, or a position reached by a capture or a promotion: PosCtx::material_new).
bool endgame_evaluation(const Node& n, const PosCtx& c);

/// "KRPkr": the material of `pos`, White's pieces then Black's, K Q R B N P order.
std::string material_name(const chess::Position& pos);

}  // namespace tablebase
}  // namespace eval
