#include "cql6/lexer.h"

#include <cctype>
#include <utility>

namespace cql6 {

namespace {

/// One Unicode spelling of CQL 6.2 and its ASCII form (blanks around words keep them apart).
struct Spelling {
  char32_t code;
  const char* ascii;
};

// CQL 6.2's table of Unicode symbols (its "unicode symbols" page); ―― is handled apart.
constexpr Spelling kSpellings[] = {
    {0x2654, "K"}, {0x2655, "Q"}, {0x2656, "R"}, {0x2657, "B"}, {0x2658, "N"}, {0x2659, "P"},
    {0x265A, "k"}, {0x265B, "q"}, {0x265C, "r"}, {0x265D, "b"}, {0x265E, "n"}, {0x265F, "p"},
    {0x25A6, "."},
    {0x2229, "&"}, {0x222A, "|"}, {0x2192, "->"}, {0x2190, "<-"}, {0x2264, "<="},
    {0x2265, ">="}, {0x2260, "!="}, {0x00D7, "[x]"}, {0x25BA, "--"}, {0x220A, " [element] "},
    {0x2B13, " flipcolor "}, {0x2735, " flip "},
    // part 2 of the language (issue 37): kept as words so the parser names them
    {0x22A2, " path "}, {0x25CE, " focus "}, {0x2219, " currentposition "}, {0x2200, " [forall] "},
    {0x227A, " [<] "}, {0x227B, " [>] "}, {0x227C, " [<=] "}, {0x227D, " [>=] "}, {0x2245, " =? "},
};

/// The text in ASCII with, per byte, where it came from in the original.
struct Ascii {
  std::string text;
  std::vector<Loc> where;  // where[i]: the place of text[i]; one more entry for the end
};

/// Decodes one UTF-8 sequence at `s[i]`; returns the code point and sets `len`. Invalid
/// bytes give U+FFFD with len 1.
char32_t decode(std::string_view s, size_t i, size_t& len) {
  const unsigned char c = s[i];
  auto cont = [&](size_t k) { return i + k < s.size() && (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80; };
  if (c < 0x80) { len = 1; return c; }
  if ((c & 0xE0) == 0xC0 && cont(1)) { len = 2; return char32_t((c & 0x1F) << 6 | (s[i + 1] & 0x3F)); }
  if ((c & 0xF0) == 0xE0 && cont(1) && cont(2)) {
    len = 3;
    return char32_t((c & 0x0F) << 12 | (s[i + 1] & 0x3F) << 6 | (s[i + 2] & 0x3F));
  }
  if ((c & 0xF8) == 0xF0 && cont(1) && cont(2) && cont(3)) {
    len = 4;
    return char32_t((c & 0x07) << 18 | (s[i + 1] & 0x3F) << 12 | (s[i + 2] & 0x3F) << 6 | (s[i + 3] & 0x3F));
  }
  len = 1;
  return 0xFFFD;
}

/// The piece letters of a Unicode piece specifier (CQL 6.2: the figurines, △ ▲ □ and ◭,
/// which stands for both colours), or nullptr for another character.
const char* piece_letters(char32_t c) {
  static const char* const kFigurines[] = {"K", "Q", "R", "B", "N", "P", "k", "q", "r", "b", "n", "p"};
  if (c >= 0x2654 && c <= 0x265F) return kFigurines[c - 0x2654];
  switch (c) {
    case 0x25B3: return "A";
    case 0x25B2: return "a";
    case 0x25A1: return "_";
    case 0x25ED: return "Aa";
    default: return nullptr;
  }
}

bool ascii_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

/// True if `s[i]` starts a square specifier (`e4`, `a-h2`, `c3-5`) as CQL 6.2 reads one
/// right after `◭`.
bool square_spec_at(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return k < s.size() ? s[k] : '\0'; };
  auto file = [&](size_t k) { return at(k) >= 'a' && at(k) <= 'h'; };
  auto rank = [&](size_t k) { return at(k) >= '1' && at(k) <= '8'; };
  if (at(i) == '[') return file(i + 1) && rank(i + 2);
  if (!file(i)) return false;
  if (rank(i + 1)) return true;
  return at(i + 1) == '-' && file(i + 2) && rank(i + 3);
}

/// Converts the Unicode spellings to ASCII. Inside strings and comments other characters are
/// kept as they are; elsewhere an unknown one is an error.
Ascii to_ascii(std::string_view s) {
  Ascii out;
  Loc loc;
  bool in_string = false, line_comment = false, block_comment = false;
  size_t i = 0;
  if (s.substr(0, 3) == "\xEF\xBB\xBF") i = 3;  // byte order mark
  auto put = [&](std::string_view a, Loc at) {
    for (char ch : a) {
      out.text += ch;
      out.where.push_back(at);
    }
  };
  while (i < s.size()) {
    size_t len = 1;
    const char32_t c = decode(s, i, len);
    const Loc at = loc;
    if (c == '\n') {
      ++loc.line;
      loc.column = 1;
    } else {
      ++loc.column;
    }
    if (c < 0x80 || in_string || line_comment || block_comment) {
      put(s.substr(i, len), at);
      if (in_string) {  // no escapes: the next '"' ends the string (CQL 6.2)
        if (c == '"') in_string = false;
      } else if (line_comment) {
        if (c == '\n') line_comment = false;
      } else if (block_comment) {
        if (c == '/' && i > 0 && s[i - 1] == '*') block_comment = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') {
        // `///` (not `////`) is CQL 6.2's comment filter, not a comment: its line is read
        line_comment = !(s.compare(i, 3, "///") == 0 && s.compare(i, 4, "////") != 0);
        if (!line_comment) {
          put("//", loc);
          loc.column += 2;
          i += 3;
          continue;
        }
      } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') {
        block_comment = true;
        put("*", loc);
        ++loc.column;
        ++i;
      }
      i += len;
      continue;
    }
    if (c == 0x2015) {  // ―― (two horizontal bars) = --
      size_t len2 = 1;
      if (i + len < s.size() && decode(s, i + len, len2) == 0x2015) {
        put("--", at);
        ++loc.column;
        i += len + len2;
        continue;
      }
      throw Error(at, "a single '―' (U+2015): the dash is written '――' (two of them) or '--'");
    }
    if (const char* letters = piece_letters(c)) {
      // CQL 6.2 (piecedesignator-unicode.cpp): `◭` right before a name declares a piece
      // variable (`◭x∊S f`, `◭x = S`); otherwise a run of Unicode pieces is one designator
      // (`♕♖♗` = [QRB], `□△` = [_A]) and may take a square part (`♕d4`, `◭e4`).
      if (c == 0x25ED && i + len < s.size() && (std::isalpha(static_cast<unsigned char>(s[i + len])) || s[i + len] == '_' || s[i + len] == '$') &&
          !square_spec_at(s, i + len)) {
        put(" [piece] ", at);
        i += len;
        continue;
      }
      std::string run = letters;
      size_t j = i + len;
      Loc after = loc;
      while (j < s.size()) {
        size_t l2 = 1;
        const char* more = piece_letters(decode(s, j, l2));
        if (!more) break;
        run += more;
        j += l2;
        ++after.column;
      }
      if (!out.text.empty() && ascii_word_char(out.text.back())) put(" ", at);  // `power△`
      const bool bracketed = !out.text.empty() && out.text.back() == '[' && j < s.size() && s[j] == ']';  // `[♕♖]`
      put(run.size() == 1 || bracketed ? run : "[" + run + "]", at);
      loc = after;
      i = j;
      continue;
    }
    const Spelling* found = nullptr;
    for (const Spelling& sp : kSpellings)
      if (sp.code == c) found = &sp;
    if (!found) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "U+%04X", unsigned(c));
      throw Error(at, std::string("unknown character ") + buf + " '" + std::string(s.substr(i, len)) + "'");
    }
    put(found->ascii, at);
    i += len;
  }
  out.where.push_back(loc);
  return out;
}

bool is_piece_char(char c) { return std::string_view("KQRBNPkqrbnpAa_").find(c) != std::string_view::npos; }

Kinds kinds_of(char c) {
  switch (c) {
    case 'A': return kWhiteKinds;
    case 'a': return kBlackKinds;
    case '_': return kEmptyKind;
    default: break;
  }
  const std::string_view order = "PNBRQKpnbrqk";
  return Kinds(1u << order.find(c));
}

/// CQL 6.2's word characters (Lexer::word_constituent): letters, digits, '_' and '$'
/// (`piece $w in [QRB]`: a name may start with '$').
bool is_word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$'; }

/// Reads a designator at t[i] (see lexer.h); returns the end index, or 0 when none starts
/// here. The designator must not run on into a word character.
size_t read_designator(const std::string& t, size_t i, Kinds& kinds, uint64_t& squares) {
  size_t p = i;
  kinds = 0;
  squares = 0;
  auto at = [&](size_t k) { return k < t.size() ? t[k] : '\0'; };
  auto file = [&](size_t k) { return at(k) >= 'a' && at(k) <= 'h'; };
  auto rank = [&](size_t k) { return at(k) >= '1' && at(k) <= '8'; };
  // one square spec: file[-file] rank[-rank]; returns the end or 0
  auto spec = [&](size_t k, uint64_t& out) -> size_t {
    if (!file(k)) return 0;
    int f0 = at(k) - 'a', f1 = f0;
    ++k;
    if (at(k) == '-' && file(k + 1)) {
      f1 = at(k + 1) - 'a';
      k += 2;
    }
    if (!rank(k)) return 0;
    int r0 = at(k) - '1', r1 = r0;
    ++k;
    if (at(k) == '-' && rank(k + 1)) {
      r1 = at(k + 1) - '1';
      k += 2;
    }
    if (f0 > f1) std::swap(f0, f1);
    if (r0 > r1) std::swap(r0, r1);
    for (int f = f0; f <= f1; ++f)
      for (int r = r0; r <= r1; ++r) out |= uint64_t(1) << (r * 8 + f);
    return k;
  };
  // the piece part
  if (at(p) == '[') {
    size_t k = p + 1;
    Kinds ks = 0;
    while (is_piece_char(at(k))) ks |= kinds_of(at(k++));
    if (ks && at(k) == ']') {
      kinds = ks;
      p = k + 1;
    }
  } else if (uint64_t probe = 0; is_piece_char(at(p)) && !spec(p, probe)) {
    kinds = kinds_of(at(p));
    ++p;
  }
  // the square part
  size_t sq_end = 0;
  if (at(p) == '[') {
    size_t k = p + 1;
    uint64_t sq = 0;
    if (file(k) && at(k + 1) == '-' && file(k + 2) && at(k + 3) == ']' && rank(k + 4)) {  // [a-c]3
      std::string spec_text = t.substr(k, 3) + t.substr(k + 4, 1);
      size_t r = k + 5;
      if (at(r) == '-' && rank(r + 1)) {
        spec_text += t.substr(r, 2);
        r += 2;
      }
      uint64_t tmp = 0;
      size_t e = 0;
      {
        const std::string saved = spec_text;
        // reuse spec() over a small string
        auto at2 = [&](size_t q) { return q < saved.size() ? saved[q] : '\0'; };
        int f0 = at2(0) - 'a', f1 = at2(2) - 'a', r0 = at2(3) - '1', r1 = r0;
        if (saved.size() == 6) r1 = at2(5) - '1';
        if (f0 > f1) std::swap(f0, f1);
        if (r0 > r1) std::swap(r0, r1);
        for (int f = f0; f <= f1; ++f)
          for (int rr = r0; rr <= r1; ++rr) tmp |= uint64_t(1) << (rr * 8 + f);
        e = r;
      }
      squares = tmp;
      sq_end = e;
    } else {
      while (true) {
        size_t e = spec(k, sq);
        if (!e) break;
        k = e;
        if (at(k) == ',') {
          ++k;
          continue;
        }
        if (at(k) == ']') {
          squares = sq;
          sq_end = k + 1;
        }
        break;
      }
    }
  } else if (file(p)) {
    size_t e = spec(p, squares);
    if (e) sq_end = e;
  }
  if (sq_end) p = sq_end;
  if (p == i) return 0;
  if (!kinds && !sq_end) return 0;
  if (is_word_char(at(p))) return 0;
  if (!kinds) kinds = kAllKinds;  // a square set alone: every square of it
  if (!sq_end) squares = ~uint64_t(0);
  return p;
}

}  // namespace

std::vector<Token> lex(std::string_view input) {
  const Ascii a = to_ascii(input);
  const std::string& t = a.text;
  std::vector<Token> out;
  size_t i = 0;
  bool space = true;
  int newlines = 0;     // newlines in the current run of blanks
  bool blank = false;   // an empty line since the last token
  auto at = [&](size_t k) { return k < t.size() ? t[k] : '\0'; };
  auto push = [&](Token tok, size_t start) {
    tok.loc = a.where[start];
    tok.space_before = space;
    tok.blank_line_before = blank;
    if (!out.empty()) out.back().space_after = space;
    space = false;
    blank = false;
    newlines = 0;
    out.push_back(std::move(tok));
  };
  bool comment_line = false;  // inside a `///` line: a `)` closes it at the line's end
  auto close_comment_line = [&](size_t where) {
    Token close;
    close.kind = Tok::kPunct;
    close.text = ")";
    space = true;
    push(std::move(close), std::min(where, t.size()));
    space = true;
    comment_line = false;
  };
  while (i < t.size()) {
    const char c = t[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (c == '\n' && comment_line) close_comment_line(i);
      space = true;
      if (c == '\n' && ++newlines >= 2) blank = true;
      ++i;
      continue;
    }
    if (c == '/' && at(i + 1) == '/' && at(i + 2) == '/' && at(i + 3) != '/') {
      // `///parts` to the end of the line = `comment (parts)` (CQL 6.2's line comment)
      if (comment_line) throw Error(a.where[i], "a second '///' on one line", "one '///' per line");
      Token word;
      word.kind = Tok::kWord;
      word.text = "comment";
      push(std::move(word), i);
      Token open;
      open.kind = Tok::kPunct;
      open.text = "(";
      space = false;
      push(std::move(open), i);
      comment_line = true;
      i += 3;
      continue;
    }
    if (c == '/' && at(i + 1) == '/') {
      while (i < t.size() && t[i] != '\n') ++i;
      space = true;
      newlines = 0;
      continue;
    }
    if (c == '/' && at(i + 1) == '*') {
      const size_t start = i;
      i += 2;
      while (i < t.size() && !(t[i] == '*' && at(i + 1) == '/')) ++i;
      if (i >= t.size()) throw Error(a.where[start], "unclosed comment '/*'", "'*/'");
      i += 2;
      space = true;
      newlines = 0;
      continue;
    }
    Token tok;
    const size_t start = i;
    if (c == '"') {
      tok.kind = Tok::kString;
      ++i;
      // CQL 6.2's quoted strings have no escapes (Lexer::match_quotedstringtoken): a
      // backslash is itself, so a pattern "\d+" or "\?" reaches the regular expression whole
      while (i < t.size() && t[i] != '"') tok.text += t[i++];
      if (i >= t.size()) throw Error(a.where[start], "unclosed string", "'\"'");
      ++i;
      push(std::move(tok), start);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      tok.kind = Tok::kNumber;
      while (std::isdigit(static_cast<unsigned char>(at(i)))) {
        if (tok.number > 100000000000LL) throw Error(a.where[start], "number too large");
        tok.number = tok.number * 10 + (t[i++] - '0');
      }
      if (std::isalpha(static_cast<unsigned char>(at(i))))
        throw Error(a.where[start], "a number runs into a word: '" + t.substr(start, i + 1 - start) + "'");
      push(std::move(tok), start);
      continue;
    }
    if (c == '{') {  // {m,n} {m} {m,} {,n} {+} {*} written without blanks
      size_t k = i + 1;
      int64_t lo = -1, hi = -1;
      bool comma = false, digits = false;
      if ((at(k) == '+' || at(k) == '*') && at(k + 1) == '}') {
        tok.kind = Tok::kPunct;
        tok.text = std::string("{") + at(k) + "}";
        i = k + 2;
        push(std::move(tok), start);
        continue;
      }
      auto read = [&](int64_t& v) {
        if (!std::isdigit(static_cast<unsigned char>(at(k)))) return;
        v = 0;
        digits = true;
        while (std::isdigit(static_cast<unsigned char>(at(k)))) v = std::min<int64_t>(v * 10 + (t[k++] - '0'), 1000000);
      };
      read(lo);
      if (at(k) == ',') {
        comma = true;
        ++k;
        read(hi);
      } else {
        hi = lo;
      }
      if (at(k) == '}' && digits) {
        tok.kind = Tok::kRepeat;
        tok.lo = lo < 0 ? 0 : lo;
        tok.hi = comma && hi < 0 ? -1 : hi;
        i = k + 1;
        push(std::move(tok), start);
        continue;
      }
    }
    if (c == '[' && at(i + 1) == 'x' && at(i + 2) == ']') {
      tok.kind = Tok::kDash;
      tok.capture = true;
      tok.text = "[x]";
      i += 3;
      push(std::move(tok), start);
      continue;
    }
    if (c == '[' && at(i + 1) == ']') {  // `[]`: the empty set (CQL 6.2)
      tok.kind = Tok::kDesignator;
      tok.kinds = 0;
      tok.squares = 0;
      tok.text = "[]";
      i += 2;
      push(std::move(tok), start);
      continue;
    }
    if (c == '[' && at(i + 1) != '\0') {  // [forall] [element] [<] ... (part 2 / Unicode names)
      const size_t close = t.find(']', i);
      if (close != std::string::npos) {
        const std::string inner = t.substr(i + 1, close - i - 1);
        if (inner == "forall" || inner == "element" || inner == "piece" || inner == "<" || inner == ">" || inner == "<=" || inner == ">=") {
          tok.kind = Tok::kPunct;
          tok.text = "[" + inner + "]";
          i = close + 1;
          push(std::move(tok), start);
          continue;
        }
      }
    }
    if ((c == 'o' || c == 'O') && t.compare(i, 3, c == 'o' ? "o-o" : "O-O") == 0) {  // o-o, o-o-o
      const size_t len = t.compare(i, 5, c == 'o' ? "o-o-o" : "O-O-O") == 0 ? 5 : 3;
      if (!is_word_char(at(i + len))) {
        tok.kind = Tok::kWord;
        tok.text = len == 5 ? "o-o-o" : "o-o";
        i += len;
        push(std::move(tok), start);
        continue;
      }
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '[' || c == '.') {
      size_t w = i;
      while (is_word_char(at(w))) ++w;
      const std::string word = t.substr(i, w - i);
      Kinds kinds = 0;
      uint64_t squares = 0;
      size_t e = c == '.' ? 0 : read_designator(t, i, kinds, squares);
      if (c == '.') {
        tok.kind = Tok::kDesignator;
        tok.kinds = kAllKinds;
        tok.squares = ~uint64_t(0);
        tok.text = ".";
        i += 1;
        push(std::move(tok), start);
        continue;
      }
      // a word that is also a designator (`a`, `B`, `a1`) is a designator unless longer
      if (e && e >= w) {
        tok.kind = Tok::kDesignator;
        tok.kinds = kinds;
        tok.squares = squares;
        tok.text = t.substr(i, e - i);
        i = e;
        push(std::move(tok), start);
        continue;
      }
      if (w > i) {
        tok.kind = Tok::kWord;
        tok.text = word;
        i = w;
        push(std::move(tok), start);
        continue;
      }
      if (c == '[' && !space && !out.empty() && out.back().kind == Tok::kWord) {
        tok.kind = Tok::kPunct;  // part 2: a dictionary's `D[key]` (issue 37)
        tok.text = "[";
        i += 1;
        push(std::move(tok), start);
        continue;
      }
      throw Error(a.where[start], "malformed piece designator starting '" + t.substr(i, std::min<size_t>(8, t.size() - i)) + "'",
                  "a piece designator such as [RQ]e1-8");
    }
    // operators, longest first
    static const char* const kOps[] = {"-->", "<--", "--", "->", "<-", "<=", ">=", "==", "!=", "~~", "+=", "-=",
                                       "*=", "/=", "%=", "(", ")", "{", "}", "#", "+", "-", "*", "/", "%",
                                       "<", ">", "=", "&", "|", "~", ":", ",", "?", "]", "$", "@", "\\", ";", "!", "^", "'", "`"};
    bool matched = false;
    for (const char* op : kOps) {
      const std::string_view o(op);
      if (t.compare(i, o.size(), o) == 0) {
        tok.kind = o == "--" ? Tok::kDash : Tok::kPunct;
        tok.text = std::string(o);
        i += o.size();
        matched = true;
        break;
      }
    }
    if (!matched) throw Error(a.where[start], std::string("unexpected character '") + c + "'");
    push(std::move(tok), start);
  }
  if (comment_line) close_comment_line(t.size());
  Token end;
  end.kind = Tok::kEnd;
  end.loc = a.where[t.size()];
  end.space_before = true;
  if (!out.empty()) out.back().space_after = true;
  out.push_back(std::move(end));
  return out;
}

}  // namespace cql6
