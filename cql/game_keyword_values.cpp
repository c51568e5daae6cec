#include "cql/game_keyword_values.h"

#include <cctype>
#include <string>

#include "chess/start_position.h"

namespace cql {

namespace {

std::string lower(std::string s) {
  for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

/// VariantBits of one variant name (0 = no stored game).
uint8_t variant_bits(const std::string& name) {
  std::string v = lower(name);
  if (v == "normal" || v == "standard" || v == "chess") return kVariantStandard | kVariantChess960;
  if (v == "chess960" || v == "fischerandom" || v == "960" || v == "fischer random" || v == "chess 960")
    return kVariantChess960;
  return 0;
}

}  // namespace

GameKeywordValues game_keyword_values(const KeywordItem& item, Keyword k) {
  GameKeywordValues out;
  switch (k) {
    case Keyword::IsChess960: out.start_ranges = {{1, chess::kLastChess960Position}}; break;
    case Keyword::IsShuffleChess: out.start_ranges = {{1, chess::kLastShufflePosition}}; break;
    case Keyword::StartPosition: {
      const auto& a = std::get<StartPositionArgs>(item.args);
      if (a.any) out.start_ranges.push_back({1, chess::kLastShufflePosition});
      for (const StartPositionSpec& e : a.entries)
        if (e.fics.empty()) out.start_ranges.push_back({e.first, e.last});
      break;
    }
    case Keyword::Variant:
      out.is_variant = true;
      for (const std::string& code : std::get<CodeListArgs>(item.args).codes) out.variant_bits |= variant_bits(code);
      break;
    default: break;
  }
  return out;
}

}  // namespace cql
