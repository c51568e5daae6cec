// Internal: the recursive-descent parser shared by parser.cpp, parse_args.cpp,
// parse_values.cpp and parse_line.cpp. Not part of the public API.
#pragma once

#include <string>
#include <vector>

#include "cql/ast.h"
#include "cql/error.h"
#include "cql/lexer.h"

namespace cql::detail {

/// Where a list occurs; drives the context checks.
struct ListContext {
  bool top_level = false;  ///< a position list directly inside the script's match list
  bool sub_match = false;  ///< a match list given as argument of :and/:or/... (no position lists)
  bool cut_argument = false;  ///< the argument of :cut: `:preceding` allowed (seed 001 :cut)
};

/// Options of a range specifier.
struct RangeOptions {
  bool allow_percent = false;
  bool allow_end = false;       ///< `end`, `end-N`
  bool allow_special = false;   ///< `*`, `-`
  bool allow_roman = false;     ///< Roman numerals
  bool allow_negative = false;  ///< negative bounds
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string source_name)
      : toks_(std::move(tokens)), source_(std::move(source_name)) {}

  Script parse_script();
  List parse_lone_position_list();

  // ---- lists (parser.cpp) ----
  List parse_list(ListKind kind, const ListContext& ctx, bool head_optional = false);
  void parse_keyword_into(List& list, const ListContext& ctx);
  KeywordItem parse_keyword_item(const Token& kw, const KeywordInfo& info, ListKind kind,
                                 const ListContext& ctx);
  const KeywordInfo& resolve_keyword(const Token& kw, ListKind kind);
  void check_position_list(const List& list);

  // ---- arguments (parse_args.cpp) ----
  KeywordArgs parse_args(const Token& kw, const KeywordInfo& info, ListKind kind,
                         const ListContext& ctx);
  SubListArgs parse_sub_lists(ListKind kind, const ListContext& ctx, const Token& kw);
  SubListArgs parse_cond(ListKind kind, const ListContext& ctx, const Token& kw);
  PieceDesignator parse_designator(const KeywordInfo& info, const char* role);
  bool next_is_designator_word() const;
  RayArgs parse_ray(const KeywordInfo& info);
  PawnCountArgs parse_pawn_count(const KeywordInfo& info, bool difference);
  EvaluationArgs parse_evaluation(const KeywordInfo& info);
  FenArgs parse_fen();

  // ---- values (parse_values.cpp) ----
  bool at_range_start(const RangeOptions& opt, size_t ahead = 0) const;
  Range parse_range(const RangeOptions& opt, const char* what = "a range");
  bool at_score_start(size_t ahead = 0) const;
  ScoreRange parse_score_range();
  /// Reads a comma list (also across tokens: `normal, corr`); returns the items and the
  /// location of each.
  std::vector<std::pair<std::string, SourceLoc>> parse_comma_list(const char* what);
  bool at_plain_word(size_t ahead = 0) const;
  KeywordArgs parse_vocabulary(Signature sig, const Token& kw);
  DateArgs parse_date_range();
  EcoArgs parse_eco();
  StartPositionArgs parse_start_positions();
  TextPattern parse_text(bool quoted_only, const char* what);
  std::string parse_name(const char* what);

  // ---- move lines (parse_line.cpp) ----
  LineArgs parse_line(const Token& kw, bool star);

  // ---- tokens ----
  const Token& peek(size_t ahead = 0) const {
    size_t i = pos_ + ahead;
    return i < toks_.size() ? toks_[i] : toks_.back();
  }
  const Token& next() {
    const Token& t = peek();
    if (pos_ < toks_.size() - 1) ++pos_;
    return t;
  }
  bool at(TokenKind k, size_t ahead = 0) const { return peek(ahead).kind == k; }
  bool at_word(std::string_view w, size_t ahead = 0) const {
    return peek(ahead).kind == TokenKind::Word && peek(ahead).text == w;
  }
  const Token& expect(TokenKind k, const std::string& expected);

  [[noreturn]] void fail(const Token& t, const std::string& message,
                         const std::string& expected = {}) const;
  [[noreturn]] void fail_at(SourceLoc loc, const std::string& token, const std::string& message,
                            const std::string& expected = {}) const;
  /// The location `byte_offset` bytes into token t's text (designator errors).
  static SourceLoc offset_loc(const Token& t, size_t byte_offset);

  const std::string& source() const { return source_; }

 private:
  /// Counts one more list open while it lives; throws the located "nested deeper than"
  /// ParseError at `at` when kMaxNestingDepth lists are open already.
  class DepthGuard {
   public:
    DepthGuard(Parser& parser, const Token& at, ListKind kind);
    ~DepthGuard() { --parser_.depth_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;

   private:
    Parser& parser_;
  };

  std::vector<Token> toks_;
  size_t pos_ = 0;
  int depth_ = 0;  // lists open around the one being parsed (bounded by kMaxNestingDepth)
  std::string source_;
};

/// "a position-list keyword", "a match-list keyword", "a relation keyword".
std::string keyword_kind_phrase(ListKind k);
/// "position", "match", "relation".
std::string_view list_head(ListKind k);
/// Describes a token for messages: "keyword ':foo'", "')'", "end of input", "'Kz9'".
std::string describe(const Token& t);

/// Cross-list checks on a complete script ($tag declarations, :eithercolor).
void check_script(const Parser& p, const Script& s);

}  // namespace cql::detail
