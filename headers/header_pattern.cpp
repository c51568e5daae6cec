#include "headers/header_pattern.h"

#include <algorithm>

namespace headers {

namespace {

bool is_blank(char32_t c) {
  return c == U' ' || c == U'\t' || c == 0xA0;
}

/// The delimiters of Pattern-Matching.txt: `! ? . , ; :`.
bool is_delimiter(char32_t c) {
  return c == U'!' || c == U'?' || c == U'.' || c == U',' || c == U';' || c == U':';
}

/// A letter or digit for the word assertions (see NamePattern).
bool is_word_char(char32_t c) {
  if (c < 0x80)
    return (c >= U'0' && c <= U'9') || (c >= U'a' && c <= U'z') || (c >= U'A' && c <= U'Z');
  if (c < 0xC0 || c == 0xD7 || c == 0xF7) return false;
  if (c >= 0x2000 && c <= 0x2BFF) return false;  // punctuation, symbols, arrows, shapes
  if (c >= 0x3000 && c <= 0x303F) return false;  // CJK punctuation
  return true;
}

/// One pattern character after escape processing.
struct Lexeme {
  char32_t ch;
  bool escaped;
};

bool is_special(const Lexeme& l, char32_t c) {
  return !l.escaped && l.ch == c;
}

/// Index of the partner of the opening bracket at `open` (`)` for `(`, `}` for `{`), or
/// `npos` when the next unescaped bracket of any kind is not its partner.
size_t partner_of(const std::vector<Lexeme>& lex, size_t open) {
  char32_t close = lex[open].ch == U'(' ? U')' : U'}';
  for (size_t j = open + 1; j < lex.size(); ++j) {
    if (lex[j].escaped) continue;
    char32_t c = lex[j].ch;
    if (c == U'(' || c == U')' || c == U'{' || c == U'}')
      return c == close ? j : std::u32string::npos;
  }
  return std::u32string::npos;
}

}  // namespace

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  size_t i = 0;
  const size_t n = text.size();
  while (i < n) {
    auto b = static_cast<unsigned char>(text[i]);
    size_t extra = b >= 0xC2 && b <= 0xDF   ? 1
                   : b >= 0xE0 && b <= 0xEF ? 2
                   : b >= 0xF0 && b <= 0xF4 ? 3
                                            : 0;
    char32_t c = b;
    bool ok = extra > 0 && i + extra < n;
    if (ok) {
      c = b & (0x3F >> extra);
      for (size_t k = 1; k <= extra && ok; ++k) {
        auto cont = static_cast<unsigned char>(text[i + k]);
        ok = (cont & 0xC0) == 0x80;
        c = (c << 6) | (cont & 0x3F);
      }
      // Overlong forms, surrogates and values above U+10FFFF are not valid UTF-8.
      if (ok && ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10FFFF)) ||
                 (c >= 0xD800 && c <= 0xDFFF)))
        ok = false;
    }
    if (!ok) {  // ASCII, or a byte that starts no valid sequence: its Latin-1 character
      out.push_back(b);
      ++i;
      continue;
    }
    out.push_back(c);
    i += extra + 1;
  }
  return out;
}

char32_t fold_case(char32_t c) {
  if (c < 0x80) return c >= U'A' && c <= U'Z' ? c + 32 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return U'i';  // capital I with dot above
    if (c == 0x178) return 0xFF;  // capital Y with diaeresis
    bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    bool even_upper = (c <= 0x137 && c != 0x131) || (c >= 0x14A && c <= 0x177);
    if (odd_upper && (c & 1)) return c + 1;
    if (even_upper && !(c & 1)) return c + 1;
    return c;
  }
  if (c >= 0x218 && c <= 0x21B) return (c & 1) ? c : c + 1;   // Romanian S/T with comma
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;  // Greek
  if (c >= 0x410 && c <= 0x42F) return c + 32;                // Cyrillic
  if (c >= 0x400 && c <= 0x40F) return c + 80;                // Cyrillic with marks
  return c;
}

bool contains_ignoring_case(std::string_view text, std::string_view needle) {
  if (needle.empty()) return true;
  // ASCII fast path (most names): no decoding, no allocation.
  auto ascii = [](std::string_view s) {
    for (char ch : s)
      if (static_cast<unsigned char>(ch) >= 0x80) return false;
    return true;
  };
  if (ascii(text) && ascii(needle)) {
    auto lower = [](char ch) { return ch >= 'A' && ch <= 'Z' ? char(ch + 32) : ch; };
    if (needle.size() > text.size()) return false;
    for (size_t i = 0; i + needle.size() <= text.size(); ++i) {
      size_t k = 0;
      while (k < needle.size() && lower(text[i + k]) == lower(needle[k])) ++k;
      if (k == needle.size()) return true;
    }
    return false;
  }
  std::u32string t = decode_utf8(text), n = decode_utf8(needle);
  std::transform(t.begin(), t.end(), t.begin(), fold_case);
  std::transform(n.begin(), n.end(), n.begin(), fold_case);
  return t.find(n) != std::u32string::npos;
}

NamePattern::NamePattern(std::string_view pattern) {
  std::u32string p = decode_utf8(pattern);
  size_t start = 0;
  if (!p.empty() && p[0] == U'!') {
    case_sensitive_ = true;
    start = 1;
  }
  std::vector<Lexeme> lex;
  for (size_t i = start; i < p.size(); ++i) {
    if (p[i] == U'\\' && i + 1 < p.size()) {
      lex.push_back({p[++i], true});
    } else {
      lex.push_back({p[i], false});
    }
  }
  // in_brace[i]: lexeme i lies inside a `{ ... }` pair (its blanks are literal and its
  // characters are no delimiters for the blank rule).
  std::vector<bool> in_brace(lex.size(), false);
  std::vector<size_t> closes(lex.size(), std::u32string::npos);  // partner of an opener
  for (size_t i = 0; i < lex.size(); ++i) {
    if (is_special(lex[i], U'(') || is_special(lex[i], U'{')) {
      size_t j = partner_of(lex, i);
      closes[i] = j;
      if (j != std::u32string::npos && lex[i].ch == U'{')
        for (size_t k = i + 1; k < j; ++k) in_brace[k] = true;
    }
  }
  auto literal_delimiter = [&](size_t i) {
    return i < lex.size() && !in_brace[i] && is_delimiter(lex[i].ch) &&
           (lex[i].escaped || lex[i].ch != U'?');
  };
  bool restricted = false;  // inside a `( ... )` pair
  size_t close_paren = std::u32string::npos, close_brace = std::u32string::npos;
  for (size_t i = 0; i < lex.size(); ++i) {
    const Lexeme& l = lex[i];
    Token tok;
    tok.restricted = restricted;
    if (!l.escaped && l.ch == U'(') {
      tok.op = Op::kWordStart;
      tokens_.push_back(tok);
      if (closes[i] != std::u32string::npos) {
        restricted = true;
        close_paren = closes[i];
      }
      continue;
    }
    if (!l.escaped && l.ch == U')') {
      tok.op = Op::kWordEnd;
      tok.restricted = false;
      tokens_.push_back(tok);
      if (i == close_paren) restricted = false;
      continue;
    }
    if (!l.escaped && l.ch == U'{' && closes[i] != std::u32string::npos) {
      close_brace = closes[i];
      continue;
    }
    if (!l.escaped && l.ch == U'}' && i == close_brace) continue;
    if (!l.escaped && l.ch == U'*') {
      tok.op = Op::kAnyRun;
    } else if (!l.escaped && l.ch == U'?') {
      tok.op = Op::kAnyOne;
    } else if (!l.escaped && is_blank(l.ch) && !in_brace[i]) {
      size_t first = i;
      while (i + 1 < lex.size() && !lex[i + 1].escaped && is_blank(lex[i + 1].ch)) ++i;
      tok.op = Op::kBlanks;
      tok.may_be_empty = (first > 0 && literal_delimiter(first - 1)) || literal_delimiter(i + 1);
    } else {
      tok.op = Op::kLiteral;
      tok.ch = case_sensitive_ ? l.ch : fold_case(l.ch);
    }
    tokens_.push_back(tok);
  }
}

bool NamePattern::matches(std::string_view text) const {
  std::u32string t = decode_utf8(text);
  if (!case_sensitive_) std::transform(t.begin(), t.end(), t.begin(), fold_case);
  std::vector<int8_t> memo((tokens_.size() + 1) * (t.size() + 1), -1);
  return match_from(t, 0, 0, memo);
}

bool NamePattern::match_from(const std::u32string& text, size_t t, size_t s,
                             std::vector<int8_t>& memo) const {
  if (t == tokens_.size()) return s == text.size();
  int8_t& cached = memo[t * (text.size() + 1) + s];
  if (cached >= 0) return cached != 0;
  const Token& tok = tokens_[t];
  const size_t n = text.size();
  auto allowed = [&](char32_t c) { return !tok.restricted || !(is_blank(c) || is_delimiter(c)); };
  bool result = false;
  switch (tok.op) {
    case Op::kLiteral:
      result =
          s < n && text[s] == tok.ch && allowed(text[s]) && match_from(text, t + 1, s + 1, memo);
      break;
    case Op::kAnyOne:
      result = s < n && allowed(text[s]) && match_from(text, t + 1, s + 1, memo);
      break;
    case Op::kAnyRun:
      for (size_t k = s;; ++k) {
        if (match_from(text, t + 1, k, memo)) {
          result = true;
          break;
        }
        if (k == n || !allowed(text[k])) break;
      }
      break;
    case Op::kBlanks: {
      size_t run = 0;
      if (!tok.restricted)
        while (s + run < n && is_blank(text[s + run])) ++run;
      for (size_t k = tok.may_be_empty ? 0 : 1; k <= run && !result; ++k)
        result = match_from(text, t + 1, s + k, memo);
      break;
    }
    case Op::kWordStart:
      result = s < n && is_word_char(text[s]) && (s == 0 || !is_word_char(text[s - 1])) &&
               match_from(text, t + 1, s, memo);
      break;
    case Op::kWordEnd:
      result = s > 0 && is_word_char(text[s - 1]) && (s == n || !is_word_char(text[s])) &&
               match_from(text, t + 1, s, memo);
      break;
  }
  cached = result ? 1 : 0;
  return result;
}

}  // namespace headers
