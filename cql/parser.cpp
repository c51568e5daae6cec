#include "cql/parser.h"

#include <cctype>

#include "cql/keyword_help.h"
#include "cql/parser_impl.h"

namespace cql {

namespace detail {

std::string keyword_kind_phrase(ListKind k) {
  switch (k) {
    case ListKind::Match:
      return "a match-list keyword";
    case ListKind::Position:
      return "a position-list keyword";
    case ListKind::Relation:
      return "a relation keyword";
  }
  return "a keyword";
}

std::string_view list_head(ListKind k) {
  switch (k) {
    case ListKind::Match:
      return "match";
    case ListKind::Position:
      return "position";
    case ListKind::Relation:
      return "relation";
  }
  return "";
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case TokenKind::End:
      return "end of input";
    case TokenKind::Keyword:
      return "keyword '" + t.spelled() + "'";
    case TokenKind::String:
      return "string " + t.spelled();
    case TokenKind::LParen:
      return "'('";
    case TokenKind::RParen:
      return "')'";
    default:
      return "'" + t.spelled() + "'";
  }
}

SourceLoc Parser::offset_loc(const Token& t, size_t byte_offset) {
  SourceLoc loc = t.loc;
  size_t start = t.kind == TokenKind::String ? 1 : 0;  // skip the opening quote
  loc.column += uint32_t(start);
  for (size_t i = 0; i < byte_offset && i < t.text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(t.text[i]);
    if (c == '\n') {
      ++loc.line;
      loc.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++loc.column;
    }
  }
  return loc;
}

void Parser::fail(const Token& t, const std::string& message, const std::string& expected) const {
  throw ParseError(source_, t.loc, t.spelled(), message, expected);
}

void Parser::fail_at(SourceLoc loc, const std::string& token, const std::string& message,
                     const std::string& expected) const {
  throw ParseError(source_, loc, token, message, expected);
}

Parser::DepthGuard::DepthGuard(Parser& parser, const Token& at, ListKind kind) : parser_(parser) {
  if (parser.depth_ >= kMaxNestingDepth)
    parser.fail(at,
                "this (" + std::string(list_head(kind)) + " ...) list is nested deeper than " +
                    std::to_string(kMaxNestingDepth) + " lists",
                "at most " + std::to_string(kMaxNestingDepth) + " nested lists");
  ++parser.depth_;
}

const Token& Parser::expect(TokenKind k, const std::string& expected) {
  if (!at(k)) fail(peek(), "unexpected " + describe(peek()), expected);
  return next();
}

Script Parser::parse_script() {
  if (at(TokenKind::End)) fail(peek(), "empty script", "a (match ...) list");
  if (!at(TokenKind::LParen)) fail(peek(), "a script must start with '('", "a (match ...) list");
  if (!at_word("match", 1)) {
    fail(peek(1), "a script is one (match ...) list, not " + describe(peek(1)),
         "'match' after '('");
  }
  Script s;
  s.source_name = source_;
  s.match = parse_list(ListKind::Match, ListContext{});
  if (!at(TokenKind::End)) {
    if (at(TokenKind::RParen))
      fail(peek(), "unbalanced parenthesis: ')' without a matching '('", "end of input");
    fail(peek(), "unexpected " + describe(peek()) + " after the match list", "end of input");
  }
  check_script(*this, s);
  return s;
}

List Parser::parse_lone_position_list() {
  ListContext ctx;
  ctx.top_level = true;
  List list = parse_list(ListKind::Position, ctx);
  if (!at(TokenKind::End)) {
    if (at(TokenKind::RParen))
      fail(peek(), "unbalanced parenthesis: ')' without a matching '('", "end of input");
    fail(peek(), "unexpected " + describe(peek()) + " after the position list", "end of input");
  }
  return list;
}

List Parser::parse_list(ListKind kind, const ListContext& ctx, bool head_optional) {
  const Token& open = peek();
  if (!at(TokenKind::LParen))
    fail(open, "unexpected " + describe(open),
         "'(' starting a (" + std::string(list_head(kind)) + " ...) list");
  const DepthGuard guard(*this, open, kind);
  next();
  List list;
  list.kind = kind;
  list.loc = open.loc;
  const Token& head = peek();
  if (head.kind == TokenKind::Word && head.text == list_head(kind)) {
    next();
  } else if (!head_optional) {
    std::string what =
        head.kind == TokenKind::Word &&
                (head.text == "match" || head.text == "position" || head.text == "relation")
            ? "a (" + head.text + " ...) list is not allowed here"
            : "a list must start with its kind";
    fail(head, what + "; found " + describe(head), "'" + std::string(list_head(kind)) + "'");
  }
  for (;;) {
    const Token& t = peek();
    switch (t.kind) {
      case TokenKind::RParen:
        next();
        if (kind == ListKind::Position) check_position_list(list);
        return list;
      case TokenKind::End:
        fail(t,
             "unbalanced parenthesis: the (" + std::string(list_head(kind)) +
                 " ...) list opened at " + std::to_string(open.loc.line) + ":" +
                 std::to_string(open.loc.column) + " is not closed",
             "')'");
      case TokenKind::LParen: {
        if (kind == ListKind::Match && at_word("position", 1)) {
          if (ctx.sub_match)
            fail(peek(1), "a sub-match list cannot contain position lists",
                 "a match-list keyword or ')'");
          ListContext inner;
          inner.top_level = true;
          list.elements.emplace_back(Box<List>(parse_list(ListKind::Position, inner)));
          break;
        }
        std::string found = at(TokenKind::Word, 1) ? "(" + peek(1).text + " ...)" : "'('";
        if (kind == ListKind::Match)
          fail(t, "unexpected list " + found + " in match list",
               "a keyword or a (position ...) list");
        fail(t,
             "unexpected list " + found + " in " + std::string(list_kind_name(kind)) +
                 "; lists appear only as keyword arguments",
             kind == ListKind::Position ? "a keyword, a piece designator or ')'"
                                        : "a relation keyword or ')'");
      }
      case TokenKind::Keyword:
      case TokenKind::Bang:
        parse_keyword_into(list, ctx);
        break;
      case TokenKind::Word:
        if (kind == ListKind::Position) {
          PieceDesignator pd;
          try {
            pd = parse_piece_designator(t.text);
          } catch (const DesignatorError& e) {
            std::string expected = e.expected;
            if (const KeywordInfo* info = find_keyword(t.text))
              expected = "a piece designator; did you mean ':" + std::string(info->name) + "'?";
            fail_at(offset_loc(t, e.offset), t.text,
                    "invalid piece designator '" + t.text + "': " + e.message, expected);
          }
          pd.loc = t.loc;
          next();
          list.elements.emplace_back(std::move(pd));
          break;
        }
        [[fallthrough]];
      default: {
        std::string expected = kind == ListKind::Position ? "a keyword, a piece designator or ')'"
                               : kind == ListKind::Match ? "a keyword, a (position ...) list or ')'"
                                                         : "a relation keyword or ')'";
        if (t.kind == TokenKind::Word && find_keyword(t.text))
          expected = "a keyword; did you mean ':" + t.text + "'?";
        fail(t, "unexpected " + describe(t) + " in " + std::string(list_kind_name(kind)), expected);
      }
    }
  }
}

const KeywordInfo& Parser::resolve_keyword(const Token& kw, ListKind kind) {
  const KeywordInfo* info = find_keyword(kw.text);
  if (!info) {
    fail(kw,
         "unknown keyword '" + kw.spelled() + "' in " + std::string(list_kind_name(kind)) +
             did_you_mean(kw.text),
         keyword_kind_phrase(kind));
  }
  if (!(info->lists & list_bit(kind))) {
    std::string where;
    for (ListKind k : {ListKind::Match, ListKind::Position, ListKind::Relation}) {
      if (!(info->lists & list_bit(k))) continue;
      if (!where.empty()) where += " and ";
      where += std::string(list_kind_name(k)) + "s";
    }
    fail(kw,
         "keyword ':" + kw.text + "' is not allowed in a " + std::string(list_kind_name(kind)) +
             " (it belongs in " + where + ")",
         keyword_kind_phrase(kind));
  }
  KeywordSpelling wanted = kind == ListKind::Match      ? KeywordSpelling::Match
                           : kind == ListKind::Position ? KeywordSpelling::Position
                                                        : KeywordSpelling::Relation;
  if (kw.spelling != KeywordSpelling::Plain && kw.spelling != wanted) {
    fail(kw,
         "the spelling '" + kw.spelled() + "' names another list kind; it cannot be used in a " +
             std::string(list_kind_name(kind)),
         "':" + kw.text + "' or '" + std::string(list_head(kind)) + ":" + kw.text + "'");
  }
  return *info;
}

void Parser::parse_keyword_into(List& list, const ListContext& ctx) {
  if (at(TokenKind::Bang)) {
    const Token& bang = next();
    const Token& kw = next();  // the lexer only emits '!' before a keyword
    if (list.kind == ListKind::Relation)
      fail(bang, "'!' is not allowed in a relation list", "a relation keyword");
    const KeywordInfo& info = resolve_keyword(kw, list.kind);
    if (!info.negatable) {
      fail(kw, "keyword '" + kw.spelled() + "' cannot be negated with '!'",
           "a negatable keyword, or ':not (" + std::string(list_head(list.kind)) + " " +
               kw.spelled() + " ...)'");
    }
    // `!:kw` is `:not (list :kw)` (and prints so): its list counts as one level.
    const DepthGuard guard(*this, bang, list.kind);
    List inner;
    inner.kind = list.kind;
    inner.loc = bang.loc;
    ListContext inner_ctx;
    inner_ctx.sub_match = list.kind == ListKind::Match;
    inner.elements.emplace_back(parse_keyword_item(kw, info, list.kind, inner_ctx));
    if (list.kind == ListKind::Position) check_position_list(inner);
    KeywordItem neg;
    neg.keyword = Keyword::Not;
    neg.loc = bang.loc;
    neg.bang = true;
    SubListArgs args;
    args.lists.push_back(std::move(inner));
    neg.args = std::move(args);
    list.elements.emplace_back(std::move(neg));
    return;
  }
  const Token& kw = next();
  const KeywordInfo& info = resolve_keyword(kw, list.kind);
  if (info.keyword == Keyword::Not && !at(TokenKind::LParen)) {
    if (list.negated) fail(kw, "':not' appears twice in this list", "at most one bare ':not'");
    list.negated = true;
    return;
  }
  list.elements.emplace_back(parse_keyword_item(kw, info, list.kind, ctx));
}

KeywordItem Parser::parse_keyword_item(const Token& kw, const KeywordInfo& info, ListKind kind,
                                       const ListContext& ctx) {
  if ((info.keyword == Keyword::Following || info.keyword == Keyword::Preceding) &&
      !ctx.top_level && !(info.keyword == Keyword::Preceding && ctx.cut_argument)) {
    fail(kw,
         "'" + kw.spelled() + "' is only allowed in a position list directly inside the match list",
         "a top-level position list");
  }
  KeywordItem item;
  item.keyword = info.keyword;
  item.loc = kw.loc;
  item.spelling = kw.spelling;
  item.args = parse_args(kw, info, kind, ctx);
  return item;
}

namespace {

bool is_transformation(Keyword k) {
  switch (k) {
    case Keyword::Flip:
    case Keyword::FlipColor:
    case Keyword::FlipDiagonal:
    case Keyword::FlipDihedral:
    case Keyword::FlipHorizontal:
    case Keyword::FlipVertical:
    case Keyword::Shift:
    case Keyword::ShiftDiagonal:
    case Keyword::ShiftHorizontal:
    case Keyword::ShiftMainDiagonal:
    case Keyword::ShiftOffDiagonal:
    case Keyword::ShiftVertical:
      return true;
    default:
      return false;
  }
}

}  // namespace

void Parser::check_position_list(const List& list) {
  const KeywordItem* line_star = nullptr;
  const KeywordItem* numbered_line = nullptr;
  const KeywordItem* transform = nullptr;
  const KeywordItem* flipcolor = nullptr;
  for (const KeywordItem* k : list.keywords()) {
    if (k->keyword == Keyword::LineStar) line_star = k;
    if (k->keyword == Keyword::Line && k->as<LineArgs>().numbered) numbered_line = k;
    if (is_transformation(k->keyword) && !transform) transform = k;
    if (k->keyword == Keyword::FlipColor) flipcolor = k;
  }
  if (line_star && transform) {
    fail_at(transform->loc, keyword_spelling(transform->keyword),
            "transformation keyword '" + keyword_spelling(transform->keyword) +
                "' cannot be combined with ':line*' (transposition-invariant lines)",
            "no transformation keywords in a list with ':line*'");
  }
  if (numbered_line && flipcolor) {
    fail_at(flipcolor->loc, ":flipcolor",
            "':flipcolor' cannot be used with a ':line' that has move numbers",
            "a ':line' without move numbers");
  }
}

}  // namespace detail

ParseResult parse(std::string_view text, std::string_view source_name) {
  ParseResult r;
  try {
    r.script = parse_or_throw(text, source_name);
  } catch (const ParseError& e) {
    r.error = e;
  }
  return r;
}

namespace {

/// Throws a ParseError naming the script as CQL 6 when `text` starts (after blanks and
/// comments) with CQL 6's header `cql(...)`, suggesting the CQL-S spelling of the first
/// filter after the header when the keyword table has one. Returns when it does not.
void reject_cql6(std::string_view text, std::string_view source_name) {
  size_t i = 0;
  SourceLoc loc{1, 1};
  auto advance = [&](size_t to) {
    for (; i < to && i < text.size(); ++i) {
      if (text[i] == '\n') loc = {loc.line + 1, 1};
      else ++loc.column;
    }
  };
  for (;;) {  // blanks, `;` and `//` line comments, `/* */` block comments
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) advance(i + 1);
    if (text.substr(i, 1) == ";" || text.substr(i, 2) == "//") {
      advance(text.find('\n', i) == std::string_view::npos ? text.size() : text.find('\n', i));
    } else if (text.substr(i, 2) == "/*") {
      const size_t end = text.find("*/", i + 2);
      advance(end == std::string_view::npos ? text.size() : end + 2);
    } else {
      break;
    }
  }
  if (text.substr(i, 3) != "cql") return;
  size_t j = i + 3;
  while (j < text.size() && std::isspace(static_cast<unsigned char>(text[j]))) ++j;
  if (j >= text.size() || text[j] != '(') return;
  int depth = 0;  // skip the header's parentheses
  for (; j < text.size(); ++j) {
    if (text[j] == '(') ++depth;
    if (text[j] == ')' && --depth == 0) break;
  }
  std::string first;  // the first filter word after the header
  for (++j; j < text.size(); ++j) {
    const unsigned char c = static_cast<unsigned char>(text[j]);
    if (std::isalpha(c)) {
      while (j < text.size() && std::isalnum(static_cast<unsigned char>(text[j]))) first += text[j++];
      break;
    }
    if (!std::isspace(c)) break;
  }
  std::string expected = "a CQL 1.0 / CQL-S script: one (match ...) list, e.g. (match (position :mate))";
  if (const KeywordInfo* info = first.empty() ? nullptr : find_keyword(first)) {
    const std::string kw = ":" + std::string(info->name) + (info->usage.empty() ? "" : " " + std::string(info->usage));
    expected = "in CQL-S, CQL 6's '" + first + "' is written " +
               ((info->lists & kInPosition) ? "(match (position " + kw + "))" : "(match " + kw + ")");
  }
  throw ParseError(std::string(source_name), loc, "cql",
                   "this is a CQL 6 script (it starts with 'cql('); cqldb reads CQL 1.0 with "
                   "the CQL-S extensions, where a query is one (match ...) list (see `cqldb "
                   "help keywords` and docs/cql.md)",
                   expected);
}

}  // namespace

Script parse_or_throw(std::string_view text, std::string_view source_name) {
  reject_cql6(text, source_name);
  detail::Parser p(tokenize(text, source_name), std::string(source_name));
  return p.parse_script();
}

List parse_position_list(std::string_view text, std::string_view source_name) {
  detail::Parser p(tokenize(text, source_name), std::string(source_name));
  return p.parse_lone_position_list();
}

}  // namespace cql
