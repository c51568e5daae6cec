// Text encoding for PGN tag values and comments: everything handed to a PgnVisitor is UTF-8.
//
// PGN files in the wild are UTF-8, Windows-1252 / Latin-1 (most Western tools) or DOS code
// pages (CP437 / CP850, old ChessBase and DOS programs). The decoder below keeps valid UTF-8
// and decodes the other bytes with a per-string guess of the single-byte code page.
#pragma once

#include <string>
#include <string_view>

#include "db/utf8.h"

namespace import {

/// True if `text` is well-formed UTF-8 (db/utf8.h, the one home of UTF-8 validation).
using db::is_valid_utf8;

/// True if `text` has a byte >= 0x80 (the cheap test before calling to_utf8()).
bool has_non_ascii(std::string_view text);

/// The single-byte code page a non-UTF-8 string is decoded with.
enum class LegacyEncoding : unsigned char {
  kWindows1252,  ///< Windows-1252 (a superset of the printable part of Latin-1)
  kDos,          ///< CP850 / CP437 (they agree on all accented letters 0x80-0x9A, 0xA0-0xA5)
};

/// Guesses the code page of the bytes of `text` that are not part of a valid UTF-8 sequence
/// ("stray bytes"). The heuristic, in order:
///  1. any stray byte >= 0xA6 -> Windows-1252 (Latin-1 letters live in 0xC0-0xFF; DOS letters
///     in 0x80-0xA5);
///  2. a stray byte undefined in Windows-1252 (0x81 0x8D 0x8F 0x90 0x9D) -> DOS;
///  3. Windows-1252 typographic quote pairs (0x93 with 0x94, or 0x91 with 0x92) -> 1252;
///  4. otherwise DOS if more than half of the stray bytes sit inside a word, i.e. touch an
///     ASCII letter ("M\x81ller", "Andr\x82"); 0xA0 counts only when a letter follows it,
///     since a trailing 0xA0 is far more often a Windows no-break space than a DOS "á".
///     Anything else -> Windows-1252.
LegacyEncoding guess_legacy_encoding(std::string_view text);

/// Writes `in` as UTF-8 to `out` (replacing its contents). Valid UTF-8 sequences are copied
/// unchanged; every other byte is decoded with the code page chosen by
/// guess_legacy_encoding() (Windows-1252 maps its five undefined bytes to U+0081 etc., as
/// the WHATWG encoding standard does). Never fails; pure-ASCII input is copied as is.
void to_utf8(std::string_view in, std::string& out);

}  // namespace import
