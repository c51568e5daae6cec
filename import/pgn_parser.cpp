// PgnParser: a pointer scanner over one game's text; tokens are string_views into it.
#include "import/pgn_parser.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "import/pgn_lenient.h"
#include "import/text_encoding.h"

namespace import {
namespace {

// Character classes of the movetext scanner.
enum : uint8_t {
  kBlank = 1,       // ' ' \t \r \v \f
  kNewline = 2,     // '\n'
  kDigit = 4,       // 0-9
  kLetter = 8,      // A-Z a-z
  kSanSymbol = 16,  // = + # - / : inside a SAN token ("e8=Q+", "O-O", "--")
};

constexpr std::array<uint8_t, 256> make_char_classes() {
  std::array<uint8_t, 256> t{};
  for (char c : {' ', '\t', '\r', '\v', '\f'}) t[uint8_t(c)] = kBlank;
  t['\n'] = kNewline;
  for (int c = '0'; c <= '9'; ++c) t[c] = kDigit;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = t[c - 'a' + 'A'] = kLetter;
  for (char c : {'=', '+', '#', '-', '/', ':'}) t[uint8_t(c)] = kSanSymbol;
  return t;
}
constexpr std::array<uint8_t, 256> kChars = make_char_classes();

inline bool has_class(char c, uint8_t classes) {
  return (kChars[uint8_t(c)] & classes) != 0;
}
inline bool is_digit(char c) {
  return has_class(c, kDigit);
}
inline bool is_letter(char c) {
  return has_class(c, kLetter);
}
inline bool is_blank(char c) {
  return has_class(c, kBlank);
}
inline bool is_space(char c) {
  return has_class(c, kBlank | kNewline);
}

/// Characters of a SAN token: "Nbxd7+", "e8=Q#", "O-O-O", "0-0", "--", "Z0".
inline bool is_san_char(char c) {
  return has_class(c, kDigit | kLetter | kSanSymbol);
}

/// Printable ASCII, the characters allowed in a tag name (PGN allows [A-Za-z0-9_]; other
/// printable characters are accepted leniently) except the tag syntax itself.
bool is_tag_name_char(char c) {
  return c > ' ' && c < 0x7F && c != '"' && c != '[' && c != ']';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

/// The NAG of a glyph, or 0 if it is not one of the six.
uint8_t glyph_nag(std::string_view g) {
  if (g == "!") return 1;
  if (g == "?") return 2;
  if (g == "!!") return 3;
  if (g == "??") return 4;
  if (g == "!?") return 5;
  if (g == "?!") return 6;
  return 0;
}

/// In [from, line_end): the last `"` that is followed only by blanks and a `]`, if that
/// `]` is the line's last one; nullptr if there is none.
const char* last_quote_before_bracket(const char* from, const char* line_end) {
  const char* q = line_end;
  while (q > from && q[-1] != ']') --q;
  if (q == from) return nullptr;
  --q;  // at the last ']'
  while (q > from && (q[-1] == ' ' || q[-1] == '\t')) --q;
  return q > from && q[-1] == '"' ? q - 1 : nullptr;
}

/// `text` quoted for a message, in UTF-8.
std::string quote(std::string_view text) {
  std::string utf8;
  to_utf8(text, utf8);
  return "'" + utf8 + "'";
}

/// The parse of one game: cursor, line counter and the callbacks.
class GameParse {
 public:
  GameParse(std::string_view text, uint32_t first_line, PgnVisitor& visitor, ParseStatus& status,
            std::string& unescaped, std::string& utf8, std::vector<uint32_t>& open_lines)
      : begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        line_(first_line),
        visitor_(visitor),
        status_(status),
        unescaped_(unescaped),
        utf8_(utf8),
        open_lines_(open_lines) {
    open_lines_.clear();
  }

  void run();

 private:
  bool stopped();
  void problem(PgnSeverity severity, PgnIssue issue, uint32_t line, std::string message);
  void warn(PgnIssue issue, std::string message) {
    problem(PgnSeverity::kWarning, issue, line_, std::move(message));
  }
  void fail(PgnIssue issue, uint32_t line, std::string message) {
    problem(PgnSeverity::kError, issue, line, std::move(message));
  }
  void skip_space();
  std::string_view to_valid_utf8(std::string_view text);
  bool tag();
  bool movetext_token();
  bool number();
  void san();
  bool dashed_castling();
  void nag();
  void glyph();
  bool comment();
  bool result(size_t length, std::string_view as = {});
  bool lenient_result();
  bool symbol();
  void unexpected();
  void finish_movetext();

  const char* const begin_;
  const char* p_;
  const char* const end_;
  uint32_t line_;
  uint32_t last_token_line_ = 0;
  bool result_seen_ = false;
  PgnVisitor& visitor_;
  ParseStatus& status_;
  std::string& unescaped_;
  std::string& utf8_;
  std::vector<uint32_t>& open_lines_;
  std::string castling_;  // dashed_castling()'s token, rewritten with ASCII hyphens
};

bool GameParse::stopped() {
  if (status_.rejected) return true;
  if (visitor_.skipping_rest_of_game()) status_.skipped = true;
  return status_.skipped;
}

void GameParse::problem(PgnSeverity severity, PgnIssue issue, uint32_t line, std::string message) {
  status_.diagnostics.push_back({severity, issue, line, std::move(message)});
  if (severity == PgnSeverity::kError) status_.rejected = true;
}

void GameParse::skip_space() {
  while (p_ < end_) {
    const char c = *p_;
    if (c == '\n') {
      ++line_;
      ++p_;
    } else if (is_blank(c)) {
      ++p_;
    } else if (c == '\xEF' && end_ - p_ >= 3 && p_[1] == '\xBB' && p_[2] == '\xBF') {
      p_ += 3;  // U+FEFF (byte order mark) is whitespace anywhere
    } else if (c == '%' && (p_ == begin_ || p_[-1] == '\n')) {
      const void* nl = std::memchr(p_, '\n', size_t(end_ - p_));
      p_ = nl != nullptr ? static_cast<const char*>(nl) : end_;
    } else {
      return;
    }
  }
}

std::string_view GameParse::to_valid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return text;
  to_utf8(text, utf8_);
  return utf8_;
}

void GameParse::run() {
  skip_space();
  if (p_ == end_) {
    fail(PgnIssue::kEmptyGame, line_, "empty game");
    return;
  }
  visitor_.begin_game();
  while (!stopped()) {
    skip_space();
    if (p_ == end_ || *p_ != '[') break;
    if (!tag()) break;
  }
  if (!stopped()) {
    visitor_.begin_movetext();
    while (!stopped() && movetext_token()) {
    }
    if (!stopped()) finish_movetext();
  }
  visitor_.end_game();
}

// Parses the tag at p_ ('['), leniently; returns false if the visitor stopped the game.
bool GameParse::tag() {
  const char* line_end = static_cast<const char*>(std::memchr(p_, '\n', size_t(end_ - p_)));
  if (line_end == nullptr) line_end = end_;
  const char* q = p_ + 1;
  while (q < line_end && is_blank(*q)) ++q;
  const char* name_begin = q;
  while (q < line_end && is_tag_name_char(*q)) ++q;
  const std::string_view name(name_begin, size_t(q - name_begin));
  while (q < line_end && is_blank(*q)) ++q;

  std::string_view value;
  bool has_value = true;
  bool escaped = false;
  if (q < line_end && *q == '"') {
    const char* value_begin = ++q;
    while (q < line_end && *q != '"') {
      if (*q == '\\' && q + 1 < line_end) {
        escaped = true;
        ++q;
      }
      ++q;
    }
    if (q < line_end) {
      value = std::string_view(value_begin, size_t(q - value_begin));
      ++q;
      while (q < line_end && is_blank(*q)) ++q;
      if (q < line_end && *q == ']') {
        ++q;
      } else if (const char* last = last_quote_before_bracket(q, line_end)) {
        // Unescaped inner quotes, as in [Annotator "Lopez "Battle Royale""].
        value = std::string_view(value_begin, size_t(last - value_begin));
        q = static_cast<const char*>(std::memchr(last, ']', size_t(line_end - last))) + 1;
        warn(PgnIssue::kTagSyntax, "tag " + quote(name) + " value has unescaped quotes");
      } else {
        warn(PgnIssue::kTagSyntax, "tag " + quote(name) + " has no closing ']'");
      }
    } else {
      // No closing quote: the value runs to the line's last ']' (or its end).
      const char* close = line_end;
      while (close > value_begin && close[-1] != ']') --close;
      const char* value_end = close > value_begin ? close - 1 : line_end;
      value = trim(std::string_view(value_begin, size_t(value_end - value_begin)));
      q = line_end;
      warn(PgnIssue::kTagSyntax, "tag " + quote(name) + " value has no closing quote");
    }
  } else {
    // No quoted value: `[Name value]` or `[Name]`.
    const char* close = static_cast<const char*>(std::memchr(q, ']', size_t(line_end - q)));
    const char* value_end = close != nullptr ? close : line_end;
    value = trim(std::string_view(q, size_t(value_end - q)));
    has_value = !value.empty();
    q = close != nullptr ? close + 1 : line_end;
    warn(PgnIssue::kTagSyntax, has_value ? "tag " + quote(name) + " value is not quoted"
                                         : "tag " + quote(name) + " has no value; ignored");
  }
  p_ = q;
  if (name.empty()) {
    warn(PgnIssue::kTagSyntax, "tag without a name ignored");
    return true;
  }
  if (!has_value) return true;
  if (escaped) {
    // Resolve \" and \\; other backslashes stay.
    unescaped_.clear();
    for (size_t i = 0; i < value.size(); ++i) {
      if (value[i] == '\\' && i + 1 < value.size() &&
          (value[i + 1] == '"' || value[i + 1] == '\\')) {
        ++i;
      }
      unescaped_.push_back(value[i]);
    }
    value = unescaped_;
  }
  visitor_.tag(name, to_valid_utf8(value));
  return !stopped();
}

// Handles the movetext token at p_; returns false at the end of the text or on an error.
bool GameParse::movetext_token() {
  skip_space();
  if (p_ == end_) return false;
  last_token_line_ = line_;
  if (result_seen_) {
    const char* e = p_;
    while (e < end_ && !is_space(*e) && e - p_ < 24) ++e;
    warn(PgnIssue::kTextAfterResult,
         "text after the result ignored: " + quote(std::string_view(p_, size_t(e - p_))));
    p_ = end_;
    return false;
  }
  const char c = *p_;
  switch (c) {
    case '{':
    case ';':
      return comment();
    case '(':
      open_lines_.push_back(line_);
      ++p_;
      visitor_.begin_variation();
      return true;
    case ')':
      if (open_lines_.empty()) {
        fail(PgnIssue::kUnbalancedParenthesis, line_, "')' without a matching '('");
        return false;
      }
      open_lines_.pop_back();
      ++p_;
      visitor_.end_variation();
      return true;
    case '}':
    case ',':
      // Harmless debris: a stray comment end, or commas between moves ("Bxe7, Qxe7").
      warn(PgnIssue::kNonstandardToken, std::string("stray '") + c + "' ignored");
      ++p_;
      return true;
    case '$':
      nag();
      return true;
    case '!':
    case '?':
      glyph();
      return true;
    case '*':
      return result(1);
    case '.':  // the "..." of "12. ... Nf6"
      while (p_ < end_ && *p_ == '.') ++p_;
      return true;
    case '-':
      if (lenient_result()) return true;  // "--+", a forfeit
      if (p_ + 1 < end_ && p_[1] == '-') {  // the null move "--"
        san();
        return true;
      }
      return symbol();
    case '+':
    case '=':
      return lenient_result() || symbol();
    default:
      if (is_digit(c)) return number();
      if (is_letter(c)) {
        san();
        return true;
      }
      if (uint8_t(c) >= 0x80) return lenient_result() || symbol();
      unexpected();
      return false;
  }
}

// The whitespace-delimited token at p_ if it is a result written another way ("1–0",
// "½-½", "1/2", "1:0", "+--"): reads it as that result with a warning and returns true.
bool GameParse::lenient_result() {
  const char* q = p_;
  while (q < end_ && !is_space(*q) && *q != '{' && *q != '(' && *q != ')' && *q != ';') ++q;
  const std::string_view token(p_, size_t(q - p_));
  const std::string_view as = canonical_result(token);
  if (as.empty() || as == "*") return false;
  warn(PgnIssue::kNonstandardToken,
       "result " + quote(token) + " read as '" + std::string(as) + "'");
  return result(token.size(), as);
}

// A glyph written as a symbol ("±", "⩱", "+-", "=", "∞"...) at p_: its NAG. An unknown
// non-ASCII character is skipped with a warning; an unknown ASCII one rejects the game.
bool GameParse::symbol() {
  if (const SymbolGlyph* g = symbol_glyph(std::string_view(p_, size_t(end_ - p_)))) {
    p_ += g->text.size();
    visitor_.nag(g->nag);
    return true;
  }
  const auto* u = reinterpret_cast<const unsigned char*>(p_);
  if (*u < 0x80) {
    unexpected();
    return false;
  }
  const size_t want = *u >= 0xF0 ? 4 : *u >= 0xE0 ? 3 : 2;
  size_t n = 1;
  if (size_t(end_ - p_) >= want && is_valid_utf8(std::string_view(p_, want))) n = want;
  warn(PgnIssue::kUnknownSymbol, "unknown symbol " + quote(std::string_view(p_, n)) + " skipped");
  p_ += n;
  return true;
}

// A token starting with a digit: move number, result, or castling written with zeros.
bool GameParse::number() {
  const char* q = p_;
  while (q < end_ && is_digit(*q)) ++q;
  if (q < end_ && *q == '.') {
    while (q < end_ && *q == '.') ++q;
    p_ = q;
    return true;
  }
  const std::string_view rest(p_, size_t(end_ - p_));
  for (std::string_view r : {"1-0", "0-1", "1/2-1/2"}) {
    if (rest.substr(0, r.size()) == r &&
        (rest.size() == r.size() || !is_san_char(rest[r.size()]))) {
      return result(r.size());
    }
  }
  if (rest.substr(0, 3) == "0-0") {
    san();
    return true;
  }
  if (dashed_castling()) return true;
  if (lenient_result()) return true;
  if (q == end_ || !is_san_char(*q)) {  // a move number without its dot
    p_ = q;
    return true;
  }
  p_ = q;
  unexpected();
  return false;
}

namespace {

/// Bytes of the hyphen or dash at `p` (before `end`): 1 for '-', 3 for U+2010..U+2015
/// (hyphen, non-breaking hyphen U+2011, figure dash, en dash, em dash, bar) and U+2212
/// (minus sign), 0 for anything else.
size_t dash_bytes(const char* p, const char* end) {
  if (p < end && *p == '-') return 1;
  if (end - p < 3 || p[0] != '\xE2') return 0;
  const auto b1 = uint8_t(p[1]), b2 = uint8_t(p[2]);
  if (b1 == 0x80 && b2 >= 0x90 && b2 <= 0x95) return 3;
  return b1 == 0x88 && b2 == 0x92 ? 3 : 0;
}

}  // namespace

// Castling written with a Unicode dash at p_ ("O‑O" with U+2011 from a word processor,
// "0–0–0"): read as "O-O" / "O-O-O" with a warning; false (nothing consumed) otherwise.
bool GameParse::dashed_castling() {
  auto is_o = [&](const char* q) { return q < end_ && (*q == 'O' || *q == '0' || *q == 'o'); };
  if (!is_o(p_)) return false;
  const char* q = p_ + 1;
  castling_ = "O";
  bool unicode = false;
  for (int dashes = 0; dashes < 2; ++dashes) {
    const size_t n = dash_bytes(q, end_);
    if (n == 0 || !is_o(q + n)) break;
    unicode |= n == 3;
    q += n + 1;
    castling_ += "-O";
  }
  if (!unicode || (q < end_ && (is_letter(*q) || is_digit(*q)))) return false;
  while (q < end_ && (*q == '+' || *q == '#')) castling_ += *q++;
  warn(PgnIssue::kNonstandardToken,
       "castling " + quote(std::string_view(p_, size_t(q - p_))) + " read as '" + castling_ + "'");
  p_ = q;
  ++status_.moves;
  visitor_.move(castling_, line_);
  return true;
}

void GameParse::san() {
  if (dashed_castling()) return;
  const char* q = p_;
  while (q < end_ && is_san_char(*q)) ++q;
  std::string_view token(p_, size_t(q - p_));
  // The en-passant suffix: "exf6e.p." (the token ran into its 'e'), "exf6 e.p.",
  // "exf6 ep" ("exf6ep" is one token: parse_san drops the suffix). It never changes the move.
  if (end_ - q >= 3 && q[0] == '.' && q[1] == 'p' && q[2] == '.' && token.size() > 2 &&
      token.back() == 'e') {
    token.remove_suffix(1);
    q += 3;
  } else {
    const char* r = q;
    while (r < end_ && is_blank(*r)) ++r;
    const std::string_view rest(r, size_t(end_ - r));
    if (rest.substr(0, 4) == "e.p.") {
      q = r + 4;
    } else if (rest.substr(0, 2) == "ep" && (rest.size() == 2 || !is_san_char(rest[2]))) {
      q = r + 2;
    }
  }
  p_ = q;
  ++status_.moves;
  visitor_.move(token, line_);
}

void GameParse::nag() {
  const char* q = ++p_;
  unsigned value = 0;
  while (q < end_ && is_digit(*q)) {
    value = std::min(value * 10 + unsigned(*q - '0'), 1000u);
    ++q;
  }
  if (q == p_) {
    warn(PgnIssue::kBadNag, "'$' without a number ignored");
  } else if (value > 255) {
    warn(PgnIssue::kBadNag,
         "NAG " + quote(std::string_view(p_ - 1, size_t(q - p_ + 1))) + " above 255 ignored");
  } else {
    visitor_.nag(uint8_t(value));
  }
  p_ = q;
}

void GameParse::glyph() {
  const char* q = p_;
  while (q < end_ && (*q == '!' || *q == '?')) ++q;
  const std::string_view g(p_, size_t(q - p_));
  p_ = q;
  if (const uint8_t value = glyph_nag(g)) {
    visitor_.nag(value);
  } else {
    warn(PgnIssue::kBadNag, "unknown glyph " + quote(g) + " ignored");
  }
}

// A `{...}` or `;` comment at p_; false if a `{` is never closed.
bool GameParse::comment() {
  const char* body = p_ + 1;
  const char* close;
  if (*p_ == '{') {
    close = static_cast<const char*>(std::memchr(body, '}', size_t(end_ - body)));
    if (close == nullptr) {
      fail(PgnIssue::kUnterminatedComment, line_, "unterminated comment: '{' without '}'");
      return false;
    }
    p_ = close + 1;
  } else {
    close = static_cast<const char*>(std::memchr(body, '\n', size_t(end_ - body)));
    if (close == nullptr) close = end_;
    p_ = close;
  }
  const std::string_view text(body, size_t(close - body));
  std::string_view trimmed = trim(text);
  if (std::memchr(trimmed.data(), '\r', trimmed.size()) != nullptr) {
    // CRLF inside a multi-line comment: hand over '\n' line ends only.
    unescaped_.clear();
    for (size_t i = 0; i < trimmed.size(); ++i) {
      if (trimmed[i] != '\r' || i + 1 == trimmed.size() || trimmed[i + 1] != '\n') {
        unescaped_.push_back(trimmed[i]);
      }
    }
    trimmed = unescaped_;
  }
  if (!trimmed.empty()) visitor_.comment(to_valid_utf8(trimmed));
  line_ += uint32_t(std::count(text.begin(), text.end(), '\n'));
  return true;
}

bool GameParse::result(size_t length, std::string_view as) {
  if (!open_lines_.empty()) {
    fail(PgnIssue::kUnbalancedParenthesis, open_lines_.back(),
         "'(' without a matching ')' before the result");
    return false;
  }
  const std::string_view token = as.empty() ? std::string_view(p_, length) : as;
  p_ += length;
  result_seen_ = true;
  visitor_.result(token);
  return true;
}

void GameParse::unexpected() {
  const auto* u = reinterpret_cast<const unsigned char*>(p_);
  size_t n = 1;
  if (*u >= 0x80) {
    // Show a whole UTF-8 character when there is one.
    const size_t want = *u >= 0xF0 ? 4 : *u >= 0xE0 ? 3 : 2;
    if (size_t(end_ - p_) >= want && is_valid_utf8(std::string_view(p_, want))) n = want;
  }
  std::string what;
  if (n > 1 || (*u >= 0x20 && *u < 0x7F)) {
    what = "unexpected character '" + std::string(p_, n) + "'";
  } else {
    static constexpr char kHex[] = "0123456789abcdef";
    what = std::string("unexpected byte 0x") + kHex[*u >> 4] + kHex[*u & 15];
  }
  fail(PgnIssue::kUnexpectedCharacter, line_, what + " in movetext");
}

void GameParse::finish_movetext() {
  if (!open_lines_.empty()) {
    fail(PgnIssue::kUnbalancedParenthesis, open_lines_.back(), "'(' without a matching ')'");
  } else if (!result_seen_) {
    // Scripts and web forms write a last game without result or final newline; a file cut
    // inside a token fails on that token (an unreadable move), so this is a warning.
    const uint32_t line = last_token_line_ != 0 ? last_token_line_ : line_;
    problem(PgnSeverity::kWarning, PgnIssue::kMissingResult, line,
            "missing result (1-0, 0-1, 1/2-1/2 or *)");
  }
}

}  // namespace

ParseStatus PgnParser::parse(std::string_view text, uint32_t first_line, PgnVisitor& visitor) {
  ParseStatus status;
  visitor.skip_ = false;
  GameParse(text, first_line, visitor, status, unescaped_, utf8_, open_lines_).run();
  return status;
}

ParseStatus PgnParser::parse(const RawGame& game, PgnVisitor& visitor) {
  ParseStatus status;
  status.diagnostics = game.warnings;
  visitor.skip_ = false;
  GameParse(game.text, game.first_line, visitor, status, unescaped_, utf8_, open_lines_).run();
  return status;
}

ParseStatus parse_game(const RawGame& game, PgnVisitor& visitor) {
  thread_local PgnParser parser;
  return parser.parse(game, visitor);
}

}  // namespace import
