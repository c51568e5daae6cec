#include "planner/explain.h"

#include <cstdio>

#include "planner/postings_plan.h"

namespace planner {

std::string explain_plan(const eval::Program& program, const Plan* plan) {
  std::string out = "plan:\n";
  const auto& alts = program.alternatives();
  for (size_t i = 0; i < alts.size(); ++i) {
    out += alts.size() > 1 ? (alts[i].color_flipped ? "  alternative 2 (colours flipped, :eithercolor)\n"
                                                    : "  alternative 1 (as written)\n")
                           : "";
    const std::string& sql = alts[i].header.where_sql();
    out += "  header SQL:           " + (sql.empty() ? std::string("none (every game)") : "WHERE " + sql) + "\n";
    if (const size_t terms = alts[i].header.bitmap_terms().size() + alts[i].header.player_terms().size()) {
      // Issue 42: the year, Elo, ECO and player name conditions read the header bitmaps
      // (db/header_bitmaps.h).
      const std::string& rest = alts[i].header.rest_sql();
      out += "  header bitmaps:       " + std::to_string(terms) + " year/Elo/ECO/player condition" + (terms == 1 ? "" : "s") +
             " from header-bitmaps.bin (SQL above when the database has none); SQL for the rest: " +
             (rest.empty() ? std::string("none") : "WHERE " + rest) + "\n";
    }
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

}  // namespace planner
