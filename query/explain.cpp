#include "query/explain.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "headers/header_store.h"
#include "index/postings.h"

namespace query {

namespace {

std::string sql_literal(const db::sqlite::Param& p) {
  if (!p.is_text) return std::to_string(p.number);
  std::string out = "'";
  for (char c : p.text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

}  // namespace

std::string with_commas(uint64_t n) {
  std::string d = std::to_string(n), out;
  for (size_t i = 0; i < d.size(); ++i) {
    if (i && (d.size() - i) % 3 == 0) out += ',';
    out += d[i];
  }
  return out;
}

std::string explain_bound_values(const query::Query& query) {
  std::string out;
  const auto& alts = query.program().alternatives();
  for (size_t i = 0; i < alts.size(); ++i) {
    const auto& params = alts[i].header.params();
    if (params.empty()) continue;
    out += alts.size() > 1 ? "  bound values (alternative " + std::to_string(i + 1) + "): "
                           : std::string("  bound values:         ");
    for (size_t k = 0; k < params.size(); ++k)
      out += (k ? ", ?" : "?") + std::to_string(k + 1) + " = " + sql_literal(params[k]);
    out += '\n';
  }
  return out;
}

std::string explain_estimates(const query::Query& query, db::Database& database) {
  const uint32_t games = database.info().games;
  const std::optional<sig::Postings> postings = sig::Postings::open(database.path());
  headers::HeaderStore store(database.path());
  std::string out = "estimates (before reading any game):\n";
  const auto& alts = query.program().alternatives();
  for (size_t i = 0; i < alts.size(); ++i) {
    const std::string prefix = alts.size() > 1 ? "  alternative " + std::to_string(i + 1) + ": " : "  ";
    std::optional<std::vector<uint32_t>> posted;
    if (postings && postings->covered() >= games)
      posted = query.plan().posting_candidates(*postings, i, games);
    out += prefix + "after posting index:  " +
           (!postings || postings->covered() < games
                ? std::string("not available (postings.bin missing or not current)")
                : posted ? with_commas(posted->size()) + " of " + with_commas(games) + " games"
                         : "all " + with_commas(games) + " games (nothing to narrow)") +
           "\n";
    const std::vector<uint32_t> by_headers = store.candidates(alts[i].header, games);
    std::string both;
    if (posted) {
      size_t n = 0;
      for (uint32_t id : by_headers) n += std::binary_search(posted->begin(), posted->end(), id);
      both = " (" + with_commas(n) + " in both)";
    }
    out += prefix + "after header SQL:     " + with_commas(by_headers.size()) + " of " +
           with_commas(games) + " games" + both + "\n";
  }
  out += "  the signatures and the replay decide; `explain analyze` runs the query and prints "
         "each stage's figures\n";
  return out;
}

}  // namespace query
