// Keyword arguments, one routine per Signature (see keywords.h).
#include "cql/parser_impl.h"

namespace cql::detail {

namespace {

std::string pieces_phrase(PieceMask allowed) {
  std::string letters;
  for (size_t i = 0; i < 13; ++i)
    if (allowed >> i & 1) {
      if (!letters.empty()) letters += ' ';
      letters += kPieceLetters[i];
    }
  return letters;
}

bool is_range_word(const std::string& w) {
  return w == "unlimited" || w == "*" || w == "-" || w == "end" || w.rfind("end-", 0) == 0;
}

}  // namespace

bool Parser::next_is_designator_word() const {
  const Token& t = peek();
  if (t.kind != TokenKind::Word || is_range_word(t.text)) return false;
  try {
    parse_piece_designator(t.text);
    return true;
  } catch (const DesignatorError&) {
    return false;
  }
}

PieceDesignator Parser::parse_designator(const KeywordInfo& info, const char* role) {
  const Token& t = peek();
  std::string expected = std::string(role) + " for ':" + std::string(info.name) + "'";
  if (t.kind != TokenKind::Word)
    fail(t, "expected " + std::string(role) + ", found " + describe(t), expected);
  PieceDesignator pd;
  try {
    pd = parse_piece_designator(t.text);
  } catch (const DesignatorError& e) {
    fail_at(offset_loc(t, e.offset), t.text,
            "invalid piece designator '" + t.text + "': " + e.message,
            e.expected.empty() ? expected : e.expected);
  }
  pd.loc = t.loc;
  if (info.allowed_pieces && pd.tag.empty() && (pd.pieces & ~info.allowed_pieces)) {
    fail(t,
         "':" + std::string(info.name) + "' accepts only the piece letters " +
             pieces_phrase(info.allowed_pieces) + ", not '" + t.text + "'",
         "a designator using " + pieces_phrase(info.allowed_pieces));
  }
  if (info.piecetype_only && pd.squares.written) {
    fail(t,
         "':" + std::string(info.name) + "' takes piece letters without squares, not '" + t.text +
             "'",
         "a piecetype designator like " + pieces_phrase(info.allowed_pieces));
  }
  next();
  return pd;
}

SubListArgs Parser::parse_sub_lists(ListKind kind, const ListContext& ctx, const Token& kw) {
  (void)ctx;
  SubListArgs args;
  std::string head(list_head(kind));
  if (!at(TokenKind::LParen))
    fail(peek(),
         "'" + kw.spelled() + "' expects a parenthesized list of (" + head + " ...) lists, found " +
             describe(peek()),
         "'(' followed by (" + head + " ...) lists");
  const Token& open = next();
  if (at(TokenKind::Word) && peek().text == head) {
    fail(peek(), "'" + kw.spelled() + "' expects a list of lists: write '((" + head + " ...) ...)'",
         "'(' starting the first (" + head + " ...) list");
  }
  ListContext inner;
  inner.sub_match = kind == ListKind::Match;
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::End))
      fail(peek(),
           "unbalanced parenthesis: the argument list of '" + kw.spelled() + "' opened at " +
               std::to_string(open.loc.line) + ":" + std::to_string(open.loc.column) +
               " is not closed",
           "')'");
    args.lists.push_back(parse_list(kind, inner));
  }
  if (args.lists.empty())
    fail(peek(), "'" + kw.spelled() + "' needs at least one (" + head + " ...) list",
         "a (" + head + " ...) list");
  next();
  return args;
}

SubListArgs Parser::parse_cond(ListKind kind, const ListContext& ctx, const Token& kw) {
  std::string head(list_head(kind));
  if (at(TokenKind::LParen) && at(TokenKind::LParen, 1)) {
    SubListArgs args = parse_sub_lists(kind, ctx, kw);
    args.wrapped = true;
    return args;
  }
  SubListArgs args;
  args.wrapped = false;
  ListContext inner;
  inner.sub_match = kind == ListKind::Match;
  while (at(TokenKind::LParen) && at_word(head, 1)) args.lists.push_back(parse_list(kind, inner));
  if (args.lists.empty())
    fail(peek(), "':cond' needs (" + head + " ...) lists, found " + describe(peek()),
         "'(' followed by condition/expression lists");
  return args;
}

RayArgs Parser::parse_ray(const KeywordInfo& info) {
  RayArgs args;
  if (!at(TokenKind::LParen))
    fail(peek(),
         "':" + std::string(info.name) + "' expects a ray specifier like (Q n k), found " +
             describe(peek()),
         "'(' and piece designators");
  const Token& open = next();
  while (!at(TokenKind::RParen)) {
    if (at(TokenKind::End))
      fail(peek(),
           "unbalanced parenthesis: the ray specifier opened at " + std::to_string(open.loc.line) +
               ":" + std::to_string(open.loc.column) + " is not closed",
           "')'");
    args.ray.push_back(parse_designator(info, "a piece designator"));
  }
  if (args.ray.size() < 2)
    fail(peek(), "a ray specifier needs at least two piece designators",
         "another piece designator");
  next();
  if (at_range_start(RangeOptions{})) args.range = parse_range(RangeOptions{});
  return args;
}

PawnCountArgs Parser::parse_pawn_count(const KeywordInfo& info, bool difference) {
  PawnCountArgs args;
  if (difference) {
    args.pieces.push_back(parse_designator(info, "a pawn designator"));
    if (next_is_designator_word())
      args.pieces.push_back(parse_designator(info, "a pawn designator"));
  } else if (next_is_designator_word()) {
    args.pieces.push_back(parse_designator(info, "a pawn designator"));
  }
  const Token& t = peek();
  if (t.kind != TokenKind::Word)
    fail(t, "expected pawn attributes like 'passed' or 'double-isolated', found " + describe(t),
         "pawn attributes for ':" + std::string(info.name) + "'");
  std::string error;
  size_t offset = 0;
  auto attrs = parse_pawn_attributes(t.text, error, offset);
  if (!attrs)
    fail_at(offset_loc(t, offset), t.text, error,
            "pawn attributes like 'passed' or 'double!-forefront-duo'");
  args.attributes = std::move(*attrs);
  next();
  RangeOptions opt;
  opt.allow_percent = !difference;
  opt.allow_negative = difference;
  if (difference) {
    args.ranges.push_back(parse_range(opt));
  } else if (at_range_start(opt)) {
    args.ranges.push_back(parse_range(opt));
    if (at(TokenKind::Colon)) {
      next();
      args.ranges.push_back(parse_range(opt));
    }
  }
  return args;
}

EvaluationArgs Parser::parse_evaluation(const KeywordInfo& info) {
  EvaluationArgs args;
  auto limit = [&] {
    const Token& t = peek();
    if (t.kind == TokenKind::Word && (t.text == "depth" || t.text == "movetime")) {
      args.limit = t.text == "depth" ? EngineLimit::Depth : EngineLimit::MoveTime;
      next();
      const Token& n = peek();
      if (n.kind != TokenKind::Number || !n.is_integer || n.number <= 0 || n.number > 1e9)
        fail(n, "expected a positive whole number after '" + t.text + "', found " + describe(n),
             t.text == "depth" ? "a depth in plies" : "a time in milliseconds");
      args.limit_value = int64_t(n.number);
      next();
      return;
    }
    fail(t,
         "expected the computation mode 'depth <plies>' or 'movetime <ms>', found " + describe(t),
         "'depth' or 'movetime'");
  };
  auto view = [&] {
    const Token& t = peek();
    if (t.kind == TokenKind::Word && (t.text == "sidetomove" || t.text == "absolute")) {
      args.view = t.text == "sidetomove" ? ScoreView::SideToMove : ScoreView::Absolute;
      next();
      return;
    }
    fail(t, "expected 'sidetomove' or 'absolute', found " + describe(t),
         "'sidetomove' or 'absolute'");
  };
  switch (info.signature) {
    case Signature::Evaluation:
      limit();
      if (at_word("mate")) {
        next();
        args.mate = true;
        break;
      }
      args.score = parse_score_range();
      view();
      break;
    case Signature::MoveEvaluation:
      args.pieces.push_back(parse_designator(info, "a designator of the moving pieces"));
      args.pieces.push_back(parse_designator(info, "a designator of the target squares"));
      limit();
      args.score = parse_score_range();
      view();
      break;
    default: {  // ExchangeEvaluation: [depth|*] score-range [designator]
      const Token& t = peek();
      if (t.kind == TokenKind::Word && t.text == "*") {
        args.exchange_depth_unlimited = true;
        next();
      } else if (t.kind == TokenKind::Number && t.is_integer && t.number >= 0 && t.number <= 1e9 &&
                 t.text[0] != '-' && t.text[0] != '+' && at_score_start(1)) {
        args.exchange_depth = int64_t(t.number);
        next();
      }
      args.score = parse_score_range();
      if (next_is_designator_word())
        args.pieces.push_back(parse_designator(info, "a target designator"));
      break;
    }
  }
  return args;
}

KeywordArgs Parser::parse_args(const Token& kw, const KeywordInfo& info, ListKind kind,
                               const ListContext& ctx) {
  RangeOptions counts;
  switch (info.signature) {
    case Signature::None:
      return NoArgs{};
    case Signature::OptSubList: {
      SubListArgs args;
      if (at(TokenKind::LParen)) {
        ListKind sub = info.keyword == Keyword::Not ? kind : ListKind::Position;
        ListContext inner;
        inner.sub_match = sub == ListKind::Match;
        inner.cut_argument = info.keyword == Keyword::Cut;
        args.lists.push_back(parse_list(sub, inner));
      }
      return args;
    }
    case Signature::SubLists:
      return parse_sub_lists(kind, ctx, kw);
    case Signature::Cond:
      return parse_cond(kind, ctx, kw);
    case Signature::RelationSpec: {
      SubListArgs args;
      List rel = parse_list(ListKind::Relation, ListContext{}, /*head_optional=*/true);
      bool missing = false, added = false;
      for (const KeywordItem* k : rel.keywords()) {
        bool& seen = k->keyword == Keyword::MissingPieceCount ? missing : added;
        if (k->keyword != Keyword::MissingPieceCount && k->keyword != Keyword::NewPieceCount)
          continue;
        if (seen)
          fail_at(k->loc, keyword_spelling(k->keyword),
                  "'" + keyword_spelling(k->keyword) + "' may occur only once in a relation list",
                  "a single '" + keyword_spelling(k->keyword) + "'");
        seen = true;
      }
      args.lists.push_back(std::move(rel));
      return args;
    }
    case Signature::Piece: {
      DesignatorArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      return args;
    }
    case Signature::OptPiece: {
      DesignatorArgs args;
      if (next_is_designator_word())
        args.pieces.push_back(parse_designator(info, "a piece designator"));
      return args;
    }
    case Signature::TwoPieces: {
      DesignatorArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      args.pieces.push_back(parse_designator(info, "a second piece designator"));
      return args;
    }
    case Signature::PieceSquares: {
      DesignatorArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      const Token& t = peek();
      if (t.kind != TokenKind::Word)
        fail(t, "expected a square designator, found " + describe(t),
             "a square designator like [b2,c3]");
      try {
        args.region = parse_square_designator(t.text);
      } catch (const DesignatorError& e) {
        fail_at(offset_loc(t, e.offset), t.text,
                "invalid square designator '" + t.text + "': " + e.message,
                e.expected.empty() ? "a square designator like [b2,c3]" : e.expected);
      }
      next();
      return args;
    }
    case Signature::PieceRange: {
      CountArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      args.ranges.push_back(parse_range(counts));
      return args;
    }
    case Signature::PiecesRange: {
      CountArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      if (next_is_designator_word())
        args.pieces.push_back(parse_designator(info, "a piece designator"));
      RangeOptions opt;
      opt.allow_negative = true;
      args.ranges.push_back(parse_range(opt));
      return args;
    }
    case Signature::TwoPiecesRange: {
      CountArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      args.pieces.push_back(parse_designator(info, "a second piece designator"));
      RangeOptions opt;
      opt.allow_negative = info.keyword == Keyword::MaxSwapEvaluation;
      args.ranges.push_back(parse_range(opt));
      return args;
    }
    case Signature::Ray:
      return parse_ray(info);
    case Signature::PawnCount:
      return parse_pawn_count(info, false);
    case Signature::PawnCountDifference:
      return parse_pawn_count(info, true);
    case Signature::GoodBishop:
    case Signature::UnstoppablePawns: {
      CountArgs args;
      args.pieces.push_back(parse_designator(info, "a piece designator"));
      RangeOptions opt;
      opt.allow_percent = info.signature == Signature::GoodBishop;
      args.ranges.push_back(parse_range(opt));
      if (at(TokenKind::Colon)) {
        next();
        args.ranges.push_back(parse_range(opt));
      } else if (info.signature == Signature::GoodBishop) {
        fail(peek(), "':goodbishop' needs two ranges separated by ':', found " + describe(peek()),
             "':' and a second range");
      }
      return args;
    }
    case Signature::Count:
    case Signature::MoveCount:
    case Signature::OptCount:
    case Signature::GameRange:
    case Signature::CategoryRange: {
      CountArgs args;
      RangeOptions opt;
      opt.allow_end = info.signature == Signature::MoveCount;
      opt.allow_special =
          info.signature == Signature::GameRange || info.signature == Signature::CategoryRange;
      opt.allow_roman = info.signature == Signature::CategoryRange;
      if (info.signature == Signature::OptCount && !at_range_start(opt)) return args;
      args.ranges.push_back(parse_range(opt));
      return args;
    }
    case Signature::CheckCount: {
      CountArgs args;
      const Token& t = peek();
      if (t.kind == TokenKind::Word && t.text.size() >= 4 && t.text[0] == '+') {
        size_t second = t.text.find('+', 1);
        auto digits = [&](size_t a, size_t b) {
          if (b <= a || b - a > 6) return false;
          for (size_t i = a; i < b; ++i)
            if (t.text[i] < '0' || t.text[i] > '9') return false;
          return true;
        };
        if (second == std::string::npos || !digits(1, second) || !digits(second + 1, t.text.size()))
          fail(t, "malformed check count '" + t.text + "'", "'+n+m' like +0+3");
        auto number = [&](size_t a, size_t b) {
          int64_t v = 0;
          for (size_t i = a; i < b; ++i) v = v * 10 + (t.text[i] - '0');
          return v;
        };
        Range white = Range::exactly(number(1, second));
        Range black = Range::exactly(number(second + 1, t.text.size()));
        white.loc = black.loc = t.loc;
        args.ranges = {white, black};
        args.plus_form = true;
        next();
        return args;
      }
      args.ranges.push_back(parse_range(counts));
      if (at(TokenKind::Colon)) {
        next();
        args.ranges.push_back(parse_range(counts));
      }
      return args;
    }
    case Signature::Line:
      return parse_line(kw, info.keyword == Keyword::LineStar);
    case Signature::Fen:
      return parse_fen();
    case Signature::Name:
      return NameArgs{parse_name("an accumulator name"), std::nullopt, std::nullopt};
    case Signature::NameRange: {
      NameArgs args;
      args.name = parse_name("an accumulator name");
      args.range = parse_range(counts);
      return args;
    }
    case Signature::NamePiece: {
      NameArgs args;
      args.name = parse_name("a tag name");
      args.piece = parse_designator(info, "a piece designator");
      return args;
    }
    case Signature::Evaluation:
    case Signature::MoveEvaluation:
    case Signature::ExchangeEvaluation:
      return parse_evaluation(info);
    case Signature::EndgameEvaluation: {
      EndgameArgs args;
      const Token& t = peek();
      std::optional<EndgameOutcome> o;
      if (t.kind == TokenKind::Word) o = parse_endgame_outcome(t.text);
      if (!o)
        fail(t, "expected a tablebase result, found " + describe(t),
             vocabulary_words<EndgameOutcome>());
      args.outcome = *o;
      next();
      if (at_range_start(counts)) args.plies = parse_range(counts);
      return args;
    }
    case Signature::Text:
    case Signature::FileName:
    case Signature::PlayerId: {
      TextArgs args;
      const char* what = info.signature == Signature::Text       ? "a name or a \"pattern\""
                         : info.signature == Signature::FileName ? "a file name"
                                                                 : "a player id";
      args.patterns.push_back(parse_text(false, what));
      return args;
    }
    case Signature::QuotedText: {
      TextArgs args;
      args.patterns.push_back(parse_text(true, "a \"pattern\""));
      return args;
    }
    case Signature::Tag: {
      TextArgs args;
      args.patterns.push_back(parse_text(false, "a PGN tag name or '*'"));
      if (at(TokenKind::Word) || at(TokenKind::String) || at(TokenKind::Number))
        args.patterns.push_back(parse_text(false, "a value"));
      return args;
    }
    case Signature::Date:
      return parse_date_range();
    case Signature::Eco:
      return parse_eco();
    case Signature::Rating: {
      RatingArgs args;
      const Token& t = peek();
      std::optional<RatingSystem> sys;
      if (t.kind == TokenKind::Word) sys = parse_rating_system(t.text);
      if (!sys)
        fail(t, "expected a rating system, found " + describe(t), vocabulary_words<RatingSystem>());
      args.system = *sys;
      next();
      RangeOptions opt;
      opt.allow_special = true;
      opt.allow_negative = info.keyword == Keyword::RatingDifference;
      args.range = parse_range(opt);
      return args;
    }
    case Signature::StartPositions:
      return parse_start_positions();
    default:
      return parse_vocabulary(info.signature, kw);
  }
}

}  // namespace cql::detail
