#include "eval/tablebase.h"

#include <gtb-probe.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

#include "chess/bitboard.h"
#include "cql/vocabulary.h"
#include "eval/node.h"

namespace eval::tablebase {

namespace {

/// Materials reported as missing on stderr before the warnings stop.
constexpr size_t kMaxWarnings = 8;

/// Process-wide library state. `mutex` guards everything but `max_pieces` (read by probes).
struct State {
  std::mutex mutex;
  std::string configured;               ///< configure() value; empty = default
  bool initialised = false;             ///< tb_init ran
  std::string initialised_dirs;         ///< the directories tb_init / tb_restart got
  const char** paths = nullptr;         ///< the library's path list (kept alive while in use)
  Status status;                        ///< of the last prepare()
  std::atomic<int> max_pieces{0};       ///< status.max_pieces, for probes
  std::atomic<uint64_t> probes{0};      ///< tb_probe_hard calls
  std::mutex warn_mutex;                ///< serialises reports
  /// Serialises tb_probe_hard: concurrent first probes of a table gave wrong answers now and
  /// then on players-344k (421 vs 422/423 matches of `:endgameevaluation *mate`); probes are
  /// rare (the planner prunes to the few games with <= 5 pieces), so the lock costs nothing.
  std::mutex probe_mutex;
  /// material_code() of the materials already reported (0 = free slot); read without lock.
  std::array<std::atomic<uint64_t>, kMaxWarnings> warned{};
  std::atomic<bool> warnings_done{false};  ///< kMaxWarnings reached
  std::atomic<bool> too_many_warned{false};  ///< "more pieces than the tables" was reported
};

/// The material of `pos` as a number: 4 bits per piece kind and colour, never 0.
uint64_t material_code(const chess::Position& pos) {
  uint64_t code = 0;
  for (chess::Color c : {chess::WHITE, chess::BLACK})
    for (int pt = chess::PAWN; pt <= chess::KING; ++pt)
      code = code << 4 | uint64_t(pos.count(c, chess::PieceType(pt)));
  return code;
}

State& state() {
  static State s;
  return s;
}

/// Splits `DIR[:DIR...]`, dropping empty parts.
std::vector<std::string> split_dirs(const std::string& dirs) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    if (end > start) out.push_back(dirs.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

/// The compression scheme most table files in `dirs` use (`.gtb` = 0, `.gtb.cpN` = N); 4 when
/// none is found.
int detect_scheme(const std::vector<std::string>& dirs) {
  std::array<int, 5> count{};
  for (const std::string& d : dirs) {
    std::error_code ec;
    for (std::filesystem::directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec)) {
      const std::string name = it->path().filename().string();
      const size_t at = name.rfind(".gtb");
      if (at == std::string::npos) continue;
      const std::string ext = name.substr(at + 4);
      if (ext.empty()) ++count[0];
      else if (ext.size() == 4 && ext.compare(0, 3, ".cp") == 0 && ext[3] >= '1' && ext[3] <= '4')
        ++count[size_t(ext[3] - '0')];
    }
  }
  int best = 4;
  for (int s = 0; s <= 4; ++s)
    if (count[size_t(s)] > count[size_t(best)]) best = s;
  return best;
}

/// Largest table size from tb_availability() (bit 2k: some (k+3)-piece table is present).
int max_pieces_available() {
  const unsigned a = tb_availability();
  if (a & (3u << 4)) return 5;
  if (a & (3u << 2)) return 4;
  if (a & 3u) return 3;
  return 0;
}

/// Reports the material of `pos` once (until kMaxWarnings materials were reported).
/// `too_many`: it has more pieces than the tables found; that is reported once in all.
void warn_missing(const chess::Position& pos, bool too_many) {
  State& s = state();
  if (too_many) {
    if (s.too_many_warned.load(std::memory_order_relaxed) || s.too_many_warned.exchange(true)) return;
    std::fprintf(stderr,
                 "cqldb: warning: no Gaviota table for %s (the tables found hold at most %d pieces): "
                 ":endgameevaluation fails for positions with more pieces\n",
                 material_name(pos).c_str(), s.max_pieces.load());
    return;
  }
  if (s.warnings_done.load(std::memory_order_relaxed)) return;
  const uint64_t code = material_code(pos);
  for (const auto& w : s.warned)
    if (w.load(std::memory_order_relaxed) == code) return;
  std::lock_guard<std::mutex> lock(s.warn_mutex);
  size_t slot = 0;
  for (; slot < kMaxWarnings && s.warned[slot].load() != 0; ++slot)
    if (s.warned[slot].load() == code) return;
  if (slot == kMaxWarnings) return;
  s.warned[slot] = code;
  std::fprintf(stderr, "cqldb: warning: no Gaviota table for %s: :endgameevaluation fails for such positions\n",
               material_name(pos).c_str());
  if (slot + 1 == kMaxWarnings) {
    std::fprintf(stderr, "cqldb: warning: further materials without Gaviota tables are not reported\n");
    s.warnings_done = true;
  }
}

}  // namespace

void configure(const std::string& dirs) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  s.configured = dirs;
}

std::string configured_dirs() {
  State& s = state();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.configured.empty()) return s.configured;
  }
  const char* env = std::getenv("CQLDB_TABLEBASES");
  return env && *env ? env : kDefaultDirs;
}

Status prepare() {
  const std::string dirs = configured_dirs();
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.initialised && s.initialised_dirs == dirs) return s.status;
  const std::vector<std::string> list = split_dirs(dirs);
  const int scheme = detect_scheme(list);
  const char** paths = tbpaths_init();
  for (const std::string& d : list) paths = tbpaths_add(paths, d.c_str());
  if (!s.initialised) {
    tb_init(0, scheme, paths);
    tbcache_init(size_t(32) << 20, 10);
  } else {
    tb_restart(0, scheme, paths);
    tbcache_flush();
  }
  if (s.paths) tbpaths_done(s.paths);
  s.paths = paths;
  s.initialised = true;
  s.initialised_dirs = dirs;
  s.status.dirs = dirs;
  s.status.scheme = scheme;
  s.status.max_pieces = max_pieces_available();
  s.max_pieces = s.status.max_pieces;
  return s.status;
}

ProbeResult probe(const chess::Position& pos) {
  using namespace chess;
  State& s = state();
  const int n = popcount(pos.pieces());
  if (n > s.max_pieces.load(std::memory_order_relaxed)) {
    if (n <= kGaviotaMaxPieces) warn_missing(pos, true);
    return {};
  }
  if (pos.castling_rights()) return {};  // the tables assume no castling rights
  // Gaviota squares are ours (a1 = 0 ... h8 = 63); tb_PAWN..tb_KING = PAWN..KING.
  unsigned sq[2][kGaviotaMaxPieces + 1];
  unsigned char pc[2][kGaviotaMaxPieces + 1];
  for (Color c : {WHITE, BLACK}) {
    size_t i = 0;
    for (Bitboard b = pos.pieces(c); b;) {
      Square x = pop_lsb(b);
      sq[c][i] = unsigned(x);
      pc[c][i] = static_cast<unsigned char>(type_of(pos.piece_on(x)));
      ++i;
    }
    sq[c][i] = tb_NOSQUARE;
    pc[c][i] = tb_NOPIECE;
  }
  const unsigned ep = pos.ep_square() == SQ_NONE ? unsigned(tb_NOSQUARE) : unsigned(pos.ep_square());
  const unsigned stm = pos.side_to_move() == WHITE ? tb_WHITE_TO_MOVE : tb_BLACK_TO_MOVE;
  unsigned info = tb_UNKNOWN, plies = 0;
  s.probes.fetch_add(1, std::memory_order_relaxed);
  bool found;
  {
    std::lock_guard<std::mutex> lock(s.probe_mutex);
    found = tb_probe_hard(stm, ep, tb_NOCASTLE, sq[WHITE], sq[BLACK], pc[WHITE], pc[BLACK], &info, &plies);
  }
  if (!found) {
    warn_missing(pos, false);
    return {};
  }
  switch (info) {
    case tb_DRAW: return {Verdict::kDraw, 0};
    case tb_WMATE: return {Verdict::kWhiteWins, int(plies)};
    case tb_BMATE: return {Verdict::kBlackWins, int(plies)};
    default: return {};  // tb_FORBID (an illegal position) or tb_UNKNOWN
  }
}

uint64_t probe_count() { return state().probes.load(); }

bool endgame_evaluation(const Node& n, const PosCtx& c) {
  const chess::Position& pos = *c.pos;
  const int pieces = chess::popcount(pos.pieces());
  const payload::TablebaseProbe& query = n.as<payload::TablebaseProbe>();
  if (!query.table_pieces.contains(pieces)) {  // no table: no probe
    if (pieces <= kGaviotaMaxPieces) warn_missing(pos, true);
    return false;
  }
  if (query.star && !c.material_new) return false;
  const ProbeResult r = probe(pos);
  if (r.verdict == Verdict::kUnknown) return false;
  const bool white_to_move = pos.side_to_move() == chess::WHITE;
  bool outcome = false;
  switch (cql::EndgameOutcome(query.outcome)) {
    case cql::EndgameOutcome::Draw: return r.verdict == Verdict::kDraw;
    case cql::EndgameOutcome::SideToMoveWins:
      outcome = r.verdict == (white_to_move ? Verdict::kWhiteWins : Verdict::kBlackWins);
      break;
    case cql::EndgameOutcome::EitherWins: outcome = r.verdict != Verdict::kDraw; break;
    case cql::EndgameOutcome::WhiteWins: outcome = r.verdict == Verdict::kWhiteWins; break;
    case cql::EndgameOutcome::BlackWins: outcome = r.verdict == Verdict::kBlackWins; break;
  }
  return outcome && n.range.contains(r.plies);
}

std::string material_name(const chess::Position& pos) {
  using namespace chess;
  static constexpr PieceType kOrder[] = {KING, QUEEN, ROOK, BISHOP, KNIGHT, PAWN};
  static constexpr char kLetter[] = "KQRBNP";
  std::string s;
  for (Color c : {WHITE, BLACK})
    for (size_t i = 0; i < 6; ++i)
      s.append(size_t(pos.count(c, kOrder[i])), char(c == WHITE ? kLetter[i] : kLetter[i] + ('a' - 'A')));
  return s;
}

}  // namespace eval::tablebase
