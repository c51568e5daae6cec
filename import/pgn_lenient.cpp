// Lenient PGN tokens: results spelled otherwise and glyphs written as symbols (see
// pgn_lenient.h).
#include "import/pgn_lenient.h"

#include <string>

namespace import {
namespace {

bool is_pgn_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/// Longer spellings first, so "+/-" wins over "+-" and "=" comes last.
constexpr SymbolGlyph kSymbolGlyphs[] = {
    {"+/=", 14}, {"=/+", 15}, {"+/-", 16}, {"-/+", 17}, {"=/\u221E", 44},
    {"+=", 14}, {"=+", 15}, {"+-", 18}, {"-+", 19},
    {"+\u2212", 18}, {"\u2212+", 19},              // with U+2212 minus
    {"\u2A72", 14}, {"\u2A71", 15}, {"\u00B1", 16}, {"\u2213", 17},
    {"\u221E", 13}, {"\u2245", 44}, {"\u25A1", 7}, {"\u2A00", 22}, {"\u2299", 22},
    {"\u2191\u2191", 32}, {"\u2191", 36}, {"\u2192", 40}, {"\u21C6", 132},
    {"\u2295", 136}, {"\u2206", 140}, {"\u25B3", 140}, {"\u2313", 142},
    {"\u203C", 3}, {"\u2047", 4}, {"\u2049", 5}, {"\u2048", 6},
    {"=", 10},
};

}  // namespace

const SymbolGlyph* symbol_glyph(std::string_view text) {
  for (const SymbolGlyph& g : kSymbolGlyphs) {
    if (text.substr(0, g.text.size()) == g.text) return &g;
  }
  return nullptr;
}

std::string_view canonical_result(std::string_view text) {
  while (!text.empty() && is_pgn_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_pgn_space(text.back())) text.remove_suffix(1);
  if (text == "1-0" || text == "0-1" || text == "1/2-1/2" || text == "*") return text;
  if (text.size() > 16) return {};
  // Dashes, colons and the one-half sign spelled out; then the forms people write.
  std::string t;
  for (size_t i = 0; i < text.size(); ++i) {
    const std::string_view rest = text.substr(i);
    if (rest.substr(0, 3) == "\u2013" || rest.substr(0, 3) == "\u2014" ||
        rest.substr(0, 3) == "\u2212" || rest.substr(0, 3) == "\u2010" ||
        rest.substr(0, 3) == "\u2011") {
      t += '-';
      i += 2;
    } else if (rest.substr(0, 2) == "\u00BD") {
      t += "1/2";
      i += 1;
    } else {
      t += text[i] == ':' ? '-' : text[i];
    }
  }
  if (t == "1-0" || t == "+--" || t == "+-0") return "1-0";
  if (t == "0-1" || t == "--+" || t == "0-+") return "0-1";
  if (t == "1/2-1/2" || t == "1/2" || t == "=-=") return "1/2-1/2";
  return {};
}

}  // namespace import
