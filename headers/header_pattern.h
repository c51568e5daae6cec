// Text matching for the name keywords of a match list (`:player :event :site ...`):
// an unquoted word matches as a case-insensitive substring, a double-quoted argument is a
// pattern in the syntax of reference/scidb-help-en/Pattern-Matching.txt.
//
// Both work on Unicode code points of UTF-8 text (bytes that are not valid UTF-8 count as
// the Latin-1 character of the byte). "Case-insensitive" uses simple case folding of the
// Latin (Basic, Latin-1, Extended-A, Romanian comma letters), Greek and Cyrillic letters.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace headers {

/// Decodes UTF-8 into code points; an invalid byte decodes as U+0000..U+00FF (Latin-1).
std::u32string decode_utf8(std::string_view text);

/// The lower-case partner of `c` for the scripts listed above; other code points unchanged.
char32_t fold_case(char32_t c);

/// True if `needle` occurs in `text` ignoring case (an empty needle occurs everywhere).
/// This is the meaning of an unquoted word argument (CQL-Match-List `:player coeff`).
bool contains_ignoring_case(std::string_view text, std::string_view needle);

/// A compiled pattern (Pattern-Matching.txt). The whole text must match:
///   `*` any run of characters, `?` one character, `\x` the character x;
///   a leading `!` makes the match case-sensitive (otherwise case is ignored);
///   `(` / `)` assert the start / end of a word (a word is a run of letters and digits);
///     a paired `( ... )` also refuses to match blanks or delimiters inside;
///   an unescaped blank (a run of them counts as one) matches one or more blanks, or none
///     when the pattern character next to it is a delimiter (`! ? . , ; :` as literals);
///   `{ ... }` groups text in which blanks are literal single blanks and the characters
///     are not delimiters for that rule.
/// Decisions where the page is silent: a `(` or `)` without its partner is just the word
/// assertion; a `{` or `}` without its partner is a literal brace; the pairs do not nest
/// and do not mix (`( ... }` is no pair, as the page says); blanks are U+0020, tab and
/// U+00A0; a "letter" is an ASCII letter or digit or any code point from U+00C0 upwards
/// except the multiplication/division signs and the punctuation/symbol blocks.
class NamePattern {
 public:
  /// Compiles `pattern` (UTF-8, without the surrounding double quotes). Never fails.
  explicit NamePattern(std::string_view pattern);

  /// True if the whole of `text` (UTF-8) matches.
  bool matches(std::string_view text) const;

 private:
  enum class Op : uint8_t {
    kLiteral,    // one character equal to `ch` (folded unless case-sensitive)
    kAnyOne,     // `?`
    kAnyRun,     // `*`
    kBlanks,     // one or more blanks (or none when `may_be_empty`)
    kWordStart,  // `(`: a letter or digit follows, none precedes
    kWordEnd,    // `)`: a letter or digit precedes, none follows
  };
  struct Token {
    Op op = Op::kLiteral;
    char32_t ch = 0;            // kLiteral only
    bool restricted = false;    // inside `( ... )`: consumed characters must not be
                                // blanks or delimiters
    bool may_be_empty = false;  // kBlanks next to a delimiter
  };

  /// Matches tokens_[t..] against text[s..]; memo caches results per (t, s).
  bool match_from(const std::u32string& text, size_t t, size_t s, std::vector<int8_t>& memo) const;

  std::vector<Token> tokens_;    // the compiled pattern
  bool case_sensitive_ = false;  // pattern started with `!`
};

}  // namespace headers
