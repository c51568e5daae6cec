#include "cql/lexer.h"

#include <cstdlib>

#include "cql/error.h"

namespace cql {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
bool is_delimiter(char c) {
  return is_space(c) || c == '(' || c == ')' || c == ';' || c == '"';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_lower(char c) {
  return c >= 'a' && c <= 'z';
}
bool is_alpha(char c) {
  return is_lower(c) || (c >= 'A' && c <= 'Z');
}

// UTF-8 encoding of U+2212 MINUS SIGN, used by the reference pages for negative numbers.
constexpr std::string_view kUnicodeMinus = "\xE2\x88\x92";

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    bool space = true;
    for (;;) {
      space = skip_blanks() || space;
      Token tok;
      tok.loc = loc_;
      tok.space_before = space;
      space = false;
      if (pos_ >= text_.size()) {
        tok.kind = TokenKind::End;
        out.push_back(std::move(tok));
        return out;
      }
      char c = text_[pos_];
      if (c == '(' || c == ')') {
        tok.kind = c == '(' ? TokenKind::LParen : TokenKind::RParen;
        tok.text = std::string(1, c);
        advance(1);
      } else if (c == '"') {
        lex_string(tok);
      } else if (c == '!' && keyword_starts_at(pos_ + 1)) {
        tok.kind = TokenKind::Bang;
        tok.text = "!";
        advance(1);
      } else if (c == '<' || c == '>') {
        tok.kind = TokenKind::Compare;
        size_t n = (pos_ + 1 < text_.size() && text_[pos_ + 1] == '=') ? 2 : 1;
        tok.text = std::string(text_.substr(pos_, n));
        advance(n);
      } else if (keyword_starts_at(pos_)) {
        lex_keyword(tok);
      } else if (c == ':') {
        // A ':' not starting a keyword: a lone separator, or the start of a word like ":e5".
        if (pos_ + 1 >= text_.size() || is_delimiter(text_[pos_ + 1])) {
          tok.kind = TokenKind::Colon;
          tok.text = ":";
          advance(1);
        } else {
          lex_word(tok);
        }
      } else {
        lex_word(tok);
      }
      out.push_back(std::move(tok));
    }
  }

 private:
  // Skips whitespace and comments; returns true if anything was skipped.
  bool skip_blanks() {
    bool skipped = false;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (is_space(c)) {
        advance(1);
        skipped = true;
      } else if (c == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance(1);
        skipped = true;
      } else {
        break;
      }
    }
    return skipped;
  }

  // A keyword starts with ':' followed by a letter, or with a list-kind prefix and ':'.
  bool keyword_starts_at(size_t p) const {
    if (p >= text_.size()) return false;
    if (text_[p] == ':') return p + 1 < text_.size() && is_alpha(text_[p + 1]);
    for (std::string_view prefix : {"position:", "match:", "relation:"}) {
      if (text_.substr(p, prefix.size()) == prefix) {
        size_t q = p + prefix.size();
        return q < text_.size() && is_alpha(text_[q]);
      }
    }
    return false;
  }

  void lex_keyword(Token& tok) {
    tok.kind = TokenKind::Keyword;
    if (text_[pos_] == ':') {
      tok.spelling = KeywordSpelling::Plain;
      advance(1);
    } else if (text_[pos_] == 'p') {
      tok.spelling = KeywordSpelling::Position;
      advance(9);
    } else if (text_[pos_] == 'm') {
      tok.spelling = KeywordSpelling::Match;
      advance(6);
    } else {
      tok.spelling = KeywordSpelling::Relation;
      advance(9);
    }
    size_t start = pos_;
    while (pos_ < text_.size() && !is_delimiter(text_[pos_])) advance(1);
    tok.text = std::string(text_.substr(start, pos_ - start));
  }

  void lex_string(Token& tok) {
    tok.kind = TokenKind::String;
    SourceLoc open = loc_;
    advance(1);
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) advance(1);
      advance(1);
    }
    if (pos_ >= text_.size()) {
      throw ParseError(std::string(source_), open, "\"", "unterminated string", "a closing '\"'");
    }
    tok.text = std::string(text_.substr(start, pos_ - start));
    advance(1);
  }

  void lex_word(Token& tok) {
    size_t start = pos_;
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '(') {
        // A parenthesized count glued to a word: "consecutive(4)", "islands!(2)".
        size_t q = pos_ + 1;
        while (q < text_.size() && is_digit(text_[q])) ++q;
        if (pos_ > start && q > pos_ + 1 && q < text_.size() && text_[q] == ')') {
          advance(q + 1 - pos_);
          continue;
        }
        break;
      }
      if (is_delimiter(c)) break;
      advance(1);
    }
    tok.text = std::string(text_.substr(start, pos_ - start));
    classify_word(tok);
  }

  static void classify_word(Token& tok) {
    std::string_view w = tok.text;
    bool negative = false;
    if (w.substr(0, kUnicodeMinus.size()) == kUnicodeMinus) {
      w.remove_prefix(kUnicodeMinus.size());
      negative = true;
    } else if (!w.empty() && (w[0] == '+' || w[0] == '-')) {
      negative = w[0] == '-';
      w.remove_prefix(1);
    }
    bool percent = false;
    if (!w.empty() && w.back() == '%' && w.size() == tok.text.size()) {
      percent = true;
      w.remove_suffix(1);
    }
    size_t i = 0;
    while (i < w.size() && is_digit(w[i])) ++i;
    if (i == 0) {
      tok.kind = TokenKind::Word;
      return;
    }
    bool integer = true;
    if (i < w.size() && w[i] == '.' && !percent) {
      size_t j = i + 1;
      while (j < w.size() && is_digit(w[j])) ++j;
      if (j == i + 1) {
        tok.kind = TokenKind::Word;
        return;
      }
      i = j;
      integer = false;
    }
    if (i != w.size()) {
      tok.kind = TokenKind::Word;
      return;
    }
    double v = std::strtod(std::string(w).c_str(), nullptr);
    tok.number = negative ? -v : v;
    tok.is_integer = integer;
    tok.kind = percent ? TokenKind::Percent : TokenKind::Number;
  }

  // Moves n bytes forward, keeping line/column (columns count code points).
  void advance(size_t n) {
    for (size_t i = 0; i < n && pos_ < text_.size(); ++i, ++pos_) {
      unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '\n') {
        ++loc_.line;
        loc_.column = 1;
      } else if ((c & 0xC0) != 0x80) {
        ++loc_.column;
      }
    }
  }

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
  SourceLoc loc_{1, 1};
};

}  // namespace

std::string Token::spelled() const {
  switch (kind) {
    case TokenKind::Keyword:
      switch (spelling) {
        case KeywordSpelling::Plain:
          return ":" + text;
        case KeywordSpelling::Position:
          return "position:" + text;
        case KeywordSpelling::Match:
          return "match:" + text;
        case KeywordSpelling::Relation:
          return "relation:" + text;
      }
      return text;
    case TokenKind::String:
      return "\"" + text + "\"";
    case TokenKind::End:
      return "";
    default:
      return text;
  }
}

std::vector<Token> tokenize(std::string_view text, std::string_view source_name) {
  return Lexer(text, source_name).run();
}

const char* token_kind_name(TokenKind kind) {
  switch (kind) {
    case TokenKind::LParen:
      return "'('";
    case TokenKind::RParen:
      return "')'";
    case TokenKind::Keyword:
      return "keyword";
    case TokenKind::Bang:
      return "'!'";
    case TokenKind::Colon:
      return "':'";
    case TokenKind::Compare:
      return "comparison";
    case TokenKind::String:
      return "string";
    case TokenKind::Number:
      return "number";
    case TokenKind::Percent:
      return "percentage";
    case TokenKind::Word:
      return "word";
    case TokenKind::End:
      return "end of input";
  }
  return "token";
}

}  // namespace cql
