// Lenient PGN tokens (SPEC-NOTES "PGN as accepted"): results spelled otherwise, in the
// movetext or the Result tag, and glyphs written as symbols (ChessBase, Informant).
#pragma once

#include <cstdint>
#include <string_view>

namespace import {

/// The standard result ("1-0", "0-1", "1/2-1/2", "*") that `text` spells, or "" if it is
/// none. Besides the four standard tokens: en or em dashes, minus signs and ':' for '-'
/// ("1–0", "1:0"), '½' for "1/2" ("½-½", "½"), "1/2" alone, and the forfeit marks "+--"
/// and "--+" (SPEC-NOTES "PGN as accepted"). Used for movetext tokens and Result tags.
std::string_view canonical_result(std::string_view text);

/// A glyph written as a symbol ("±", "⩱", "+-", "=", "∞"...) and its NAG.
struct SymbolGlyph {
  std::string_view text;  ///< the symbol in UTF-8 (ASCII for "+-", "=" ...)
  uint8_t nag;            ///< its Numeric Annotation Glyph, e.g. 16 for "±"
};

/// The glyph symbol that `text` starts with (the longest spelling), or nullptr.
const SymbolGlyph* symbol_glyph(std::string_view text);

}  // namespace import
