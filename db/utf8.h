// UTF-8 validation and repair: the one place that knows which bytes are well-formed UTF-8
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF). The importer decodes
// other encodings with it (import/text_encoding.h); every JSON answer repairs stored text
// with it before writing (query/result_json.h, web/json_shape.h, the opening tree).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace db {

/// Length of the well-formed UTF-8 sequence starting at `p` (1..4), or 0 when the bytes
/// there are not one (a stray byte, a truncated sequence, an overlong form, a surrogate,
/// a code point above U+10FFFF). Reads no byte at or after `end`; precondition p < end.
size_t utf8_sequence_length(const unsigned char* p, const unsigned char* end);

/// True if `text` is well-formed UTF-8. The empty string is valid.
bool is_valid_utf8(std::string_view text);

/// `text` with every byte that does not start a well-formed sequence (see
/// utf8_sequence_length) replaced by U+FFFD, one replacement per byte; valid text is
/// returned unchanged.
std::string repair_utf8(std::string_view text);

}  // namespace db
