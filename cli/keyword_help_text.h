// The text of `cqldb help :KEYWORD`, `cqldb help keywords` and the shell's `help :KEYWORD`,
// built from the keyword table (cql/keywords.h) and its help rows (cql/keyword_help.h).
#pragma once

#include <string>
#include <string_view>

namespace cli {

/// The help of one keyword (`:mate`, `mate`, `position:mate` or `!:mate`), wrapped at `width`
/// columns: usage, meaning, the lists it may appear in, other spellings, where the seeds
/// describe it, and one example script that runs on the sample database. False with `error`
/// = "no keyword ':stalemat' (did you mean :stalemate?)" when there is no such keyword.
/// `command_line` adds the `cqldb query --db sample-db -e '...'` line that runs the example.
bool keyword_help_text(std::string_view topic, size_t width, bool command_line, std::string& text,
                       std::string& error);

/// All keywords grouped by family, wrapped at `width` columns.
std::string keyword_list_text(size_t width);

}  // namespace cli
