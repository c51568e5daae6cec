#include "planner/explain.h"

#include <cstdio>

#include "planner/postings_plan.h"

namespace planner {

namespace {

std::string commas(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

std::string line(const char* label, uint64_t n, double seconds = -1) {
  char buf[160];
  if (seconds >= 0) std::snprintf(buf, sizeof buf, "  %-26s %14s   %8.3f s\n", label, commas(n).c_str(), seconds);
  else std::snprintf(buf, sizeof buf, "  %-26s %14s\n", label, commas(n).c_str());
  return buf;
}

}  // namespace

std::string explain_plan(const eval::Program& program, const Plan* plan) {
  std::string out = "plan:\n";
  const auto& alts = program.alternatives();
  for (size_t i = 0; i < alts.size(); ++i) {
    out += alts.size() > 1 ? (alts[i].color_flipped ? "  alternative 2 (colours flipped, :eithercolor)\n"
                                                    : "  alternative 1 (as written)\n")
                           : "";
    const std::string& sql = alts[i].header.where_sql();
    out += "  header SQL:           " + (sql.empty() ? std::string("none (every game)") : "WHERE " + sql) + "\n";
    out += "  position lists:       " + std::to_string(alts[i].lists.size()) + "\n";
    if (!plan) {
      out += "  signature condition:  planner off\n";
    } else {
      out += "  signature condition:  " + plan->condition(i).describe() + "\n";
      out += std::string("  posting index:        ") +
             (uses_postings(plan->condition(i)) ? "narrows the candidates by the condition's piece-square, material and flag facts"
                                                : "cannot narrow (no piece-square, material or flag fact)") +
             "\n";
    }
  }
  if (plan)
    out += std::string("  ply windows:          ") +
           (plan->has_ply_windows() ? "on (replay evaluates only the plies where material, mate, move number or a castling "
                                      "allow a match; a game where a list can match at no ply is not replayed)"
                                    : "off (every position of a replayed game is evaluated)") +
           "\n";
  if (program.negated()) out += "  (the match list is negated with :not: no signature pruning)\n";
  return out;
}

std::string explain_stats(const eval::SearchStats& s, bool planner_on) {
  std::string out = "stages:\n";
  out += line("games in database", s.games_total);
  if (planner_on)
    out += s.postings_used ? line("after posting index", s.after_postings, s.postings_seconds)
                           : "  after posting index        (no current postings.bin: cqldb reindex builds it)\n";
  out += line("after header filter", s.candidates, s.header_seconds);
  if (planner_on) out += line("after signatures", s.after_signatures, s.signature_seconds);
  out += line("games replayed", s.games_replayed, s.replay_seconds);
  out += line("positions evaluated", s.positions);
  out += line("matches", s.matches);
  char buf[80];
  std::snprintf(buf, sizeof buf, "  %-26s %14s   %8.3f s\n", "total", "", s.seconds);
  return out + buf;
}

}  // namespace planner
