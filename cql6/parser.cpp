#include "cql6/parser.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace cql6 {

namespace {

// Binding levels, lowest first (CQL 6's precedence table as CQL 6.2 parses it: `or`, `and`,
// `in`, the relational operators, `+ -`, `* / %`, tied dashes, the arrows `-> <-`, `|`,
// `&`, `attacks`/`attackedby`, primaries). Prefix operators take the operand CQL 6.2 gives
// them: `not` an `in` expression, `#` `power` and the right side of `in` a set expression
// (dash level), `~` an `attacks` expression, `abs` a sum, unary `-`, the directions,
// `light`, `dark` and the move/pin parameters a primary, transforms and `if` a whole filter.
enum Level : int {
  kLevelOr = 1, kLevelAnd, kLevelIn, kLevelRel, kLevelAdd, kLevelMul, kLevelDash, kLevelArrow,
  kLevelUnion, kLevelIntersect, kLevelAttack, kLevelColon, kLevelPrimary,
};

/// Words of CQL 6 that belong to part 2 (issue 37) or that cqldb does not run yet.
const std::set<std::string, std::less<>>& later_words() {
  static const std::set<std::string, std::less<>> words = {
      "echo", "find", "sort", "comment", "message", "function", "dictionary", "square", "piece", "loop",
      "while", "path", "parent", "child", "ancestor", "descendant", "distance", "depth", "lca", "position",
      "positionid", "str", "int", "lowercase", "uppercase", "persistent", "atomic", "unbind", "isbound",
      "settag", "removecomment", "currentposition", "focus", "currenttransform", "pieceid", "type",
      "colortype", "makesquare", "rank", "file", "consecutivemoves", "countmoves", "currentmove",
      "gamenumber", "fen", "hascomment", "originalcomment", "ascii", "assert", "virtualmainline",
      "tag", "sqrt", "white", "black", "dictionary", "local", "readfile", "writefile",
      "notransform", "eventdate", "abort", "reverse", "idealmate", "idealstalemate", "modelmate",
      "pureMate", "puremate", "purestalemate", "modelstalemate", "int", "hhdb", "lastgamenumber",
      "variation", "anyvalue", "fromsquare", "tosquare", "enpassantsquare", "colorof", "isunbound",
      "result", "pgnfile", "string", "matchstring", "cqlfile", "this", "title", "rating", "sidetomove",
  };
  return words;
}

class Parser {
 public:
  explicit Parser(std::vector<Token> tokens) : t_(std::move(tokens)) {}

  Script script() {
    Script s;
    script_ = &s;
    header(s.header);
    while (!at_end()) s.body.push_back(filter());
    for (Node& n : s.body) finish_vars(n);
    return s;
  }

 private:
  std::vector<Token> t_;
  // ---- part 2 (issue 37): variables, functions
  Script* script_ = nullptr;
  std::map<std::string, int, std::less<>> var_slots_;
  struct Function {
    std::vector<std::string> params;
    size_t body = 0;  // token index of its `{`
  };
  std::map<std::string, Function, std::less<>> functions_;
  std::vector<std::map<std::string, Node, std::less<>>> args_;  // parameters of the calls being expanded
  size_t i_ = 0;
  int line_depth_ = 0;  // > 0 while parsing line constituents (`+` `*` may be wildcards)
  static constexpr int kMaxNesting = 200;  // prefix() levels open at once (see prefix())
  int nesting_ = 0;
  bool path_top_ = false;  // at the top level of a path's constituents: `+` `*` are wildcards

  const Token& cur() const { return t_[i_]; }
  const Token& peek(size_t k = 1) const { return t_[std::min(i_ + k, t_.size() - 1)]; }
  bool at_end() const { return cur().kind == Tok::kEnd; }
  bool is(std::string_view p) const { return cur().is(p); }
  bool accept(std::string_view p) {
    if (!is(p)) return false;
    ++i_;
    return true;
  }
  [[noreturn]] void fail(const std::string& message, const std::string& expected = {}) const {
    throw Error(cur().loc, message, expected);
  }
  std::string describe(const Token& t) const {
    switch (t.kind) {
      case Tok::kEnd: return "end of script";
      case Tok::kString: return "string \"" + t.text + "\"";
      case Tok::kNumber: return "number " + std::to_string(t.number);
      default: return "'" + t.text + "'";
    }
  }
  void expect(std::string_view p) {
    if (!accept(p)) fail("unexpected " + describe(cur()), "'" + std::string(p) + "'");
  }

  static Node make(Kind k, Type ty, Loc loc) {
    Node n;
    n.kind = k;
    n.type = ty;
    n.loc = loc;
    return n;
  }
  void need(const Node& n, Type ty, const std::string& what) const {
    if (n.type == ty) return;
    if (ty == Type::kNumber && n.type == Type::kSet) return;  // a set counts as its size
    static const char* names[] = {"a plain filter", "a set filter", "a numeric filter", "a position", "a string"};
    throw Error(n.loc, what + " needs " + names[int(ty)] + ", this is " + names[int(n.type)]);
  }

  // ---- header
  void header(Header& h) {
    h.loc = cur().loc;
    if (!(cur().kind == Tok::kWord && cur().text == "cql"))
      fail("a CQL 6 script starts with its header", "'cql('");
    ++i_;
    expect("(");
    while (!accept(")")) {
      if (at_end()) fail("unclosed cql( header", "')'");
      const Token& w = cur();
      if (w.kind != Tok::kWord) fail("unexpected " + describe(w) + " in the cql( header", "a header parameter");
      const std::string name = w.text;
      const Loc loc = w.loc;
      ++i_;
      if (name == "input" || name == "output") {
        std::string file;
        // a file name: a string or the words and punctuation up to the next blank
        if (cur().kind == Tok::kString) {
          file = cur().text;
          ++i_;
        } else {
          if (at_end() || is(")")) fail("'" + name + "' needs a file name", "a file name");
          file = cur().text;
          ++i_;
          while (!cur().space_before && !at_end() && !is(")")) file += t_[i_++].text;
        }
        (name == "input" ? h.input : h.output) = file;
      } else if (name == "matchcount" || (name == "sort" && is("matchcount"))) {
        if (name == "sort") {  // `sort matchcount m n`: games ordered by their matched positions
          ++i_;
          h.sort_matchcount = true;
        }
        range(h.matchcount_lo, h.matchcount_hi, "matchcount");
      } else if (name == "matchstring") {  // the text marking matched positions in the output
        if (cur().kind != Tok::kString) fail("'matchstring' needs a quoted text", "a quoted text");
        if (!h.matchstring) h.matchstring = cur().text;
        ++i_;
      } else if (name == "gamenumber") {  // `gamenumber m n`: games numbered m..n only
        range(h.gamenumber_lo, h.gamenumber_hi, "gamenumber");
      } else if (name == "variations") {
        h.variations = true;
      } else if (name == "quiet") {
        h.quiet = true;
      } else if (name == "silent") {
        h.silent = true;
      } else if (name == "result") {
        --i_;
        h.conditions.push_back(primary());
      } else if (name == "player" || name == "event" || name == "site" || name == "eco" || name == "date") {
        --i_;
        Node n = primary();
        h.conditions.push_back(std::move(n));
      } else if (name == "year" || name == "elo") {
        // `year 1990 2000`, `elo 2500 2800`: the value in the range
        Node value = make(name == "year" ? Kind::kYear : Kind::kElo, Type::kNumber, loc);
        if (name == "elo" && cur().kind == Tok::kWord && (cur().text == "white" || cur().text == "black")) {
          value.sub = uint8_t(cur().text == "white" ? Side::kWhite : Side::kBlack);
          ++i_;
        }
        int64_t lo = 0, hi = -1;
        range(lo, hi, name);
        Node cmp = make(Kind::kCompare, Type::kBool, loc);
        Node l = make(Kind::kNumber, Type::kNumber, loc);
        l.value = lo;
        cmp.kids.push_back(l);
        cmp.kids.push_back(value);
        cmp.ops.push_back(Cmp::kLe);
        if (hi >= 0) {
          Node r = make(Kind::kNumber, Type::kNumber, loc);
          r.value = hi;
          cmp.kids.push_back(r);
          cmp.ops.push_back(Cmp::kLe);
        }
        h.conditions.push_back(std::move(cmp));
      } else if (name == "sort") {
        throw Error(loc, "'sort' in the cql( header is 'sort matchcount m [n]'", "'matchcount'");
      } else if (name == "featuredebug" ||
                 name == "lastgamenumber" || name == "mainline" || name == "cqlfile") {
        throw not_supported(loc, name, "header parameter");
      } else {
        throw Error(loc, "unknown cql( header parameter '" + name + "'",
                    "input output matchcount result variations quiet silent player year elo event site eco date");
      }
    }
  }

  /// True if the number k tokens ahead can be a range bound: CQL 6.2 takes a number as one
  /// unless an operator follows it (`flipcolor 8 <= sort ...` has no range); `(` `{` `)` `}`
  /// and the arrows may follow.
  bool range_bound(size_t k) const {
    const Token& n = peek(k + 1);
    return n.kind != Tok::kPunct || n.is("(") || n.is("{") || n.is(")") || n.is("}") || n.is("->") || n.is("<-");
  }
  /// A range `m [n]` (one number: exactly m). hi -1 = unbounded never comes from here.
  void range(int64_t& lo, int64_t& hi, const std::string& what) {
    if (cur().kind != Tok::kNumber) fail("'" + what + "' needs a range", "a number");
    lo = cur().number;
    ++i_;
    hi = lo;
    if (cur().kind == Tok::kNumber && range_bound(0)) {
      hi = cur().number;
      ++i_;
    }
  }
  bool optional_range(int64_t& lo, int64_t& hi) {
    if (cur().kind != Tok::kNumber || !range_bound(0)) return false;
    range(lo, hi, "");
    return true;
  }
  /// True if a range starts at the cursor as CQL 6.2 reads one: a number not followed by an
  /// arithmetic or relational operator (`flip 5 <= sort ...` is a comparison, not a range).
  bool range_follows() const {
    if (cur().kind != Tok::kNumber) return false;
    const Token& n = peek();
    if (n.kind != Tok::kPunct) return true;
    for (const char* op : {"+", "-", "*", "/", "%", "<", "<=", "==", ">=", ">", "!="})
      if (n.text == op) return false;
    return true;
  }

  // ---- filters
  /// One filter of a compound or body: the lowest level.
  Node filter() { return expr(kLevelOr); }

  /// Binary operators at `level` or above, left to right.
  bool dash_right_ = false;  // parsing a dash's right side: `--x=Q` promotes, it does not assign

  Node expr(int level) {
    Node left = prefix(level);
    while (true) {
      const Token& op = cur();
      int op_level = 0;
      if (op.kind == Tok::kWord) {
        if (op.text == "or") op_level = kLevelOr;
        else if (op.text == "and") op_level = kLevelAnd;
        else if (op.text == "in") op_level = kLevelIn;
        else if (op.text == "attacks" || op.text == "attackedby") op_level = kLevelAttack;
      } else if (op.kind == Tok::kPunct) {
        const std::string& p = op.text;
        if (p == "<" || p == "<=" || p == "==" || p == ">=" || p == ">" || p == "!=" || is_precedence(p)) op_level = kLevelRel;
        else if (p == "+" || p == "-") op_level = kLevelAdd;
        else if (p == "*" || p == "/" || p == "%") op_level = kLevelMul;
        else if (p == "|") op_level = kLevelUnion;
        else if (p == "&") op_level = kLevelIntersect;
        else if (p == "->" || p == "<-") op_level = kLevelArrow;
        else if (p == "+=" || p == "-=" || p == "*=" || p == "/=" || p == "%=")
          fail("'" + p + "' needs a variable on its left", "a variable name");
        else if (p == "~~") op_level = kLevelRel;
        else if (p == "[element]") op_level = kLevelIn;  // `♙ ∊ a-h2`: read as `in` (CQL 6.2 refuses it)
        else if (p == ":") op_level = kLevelColon;
        if (line_depth_ > 0 && (p == "+" || p == "*") && wildcard_follows()) op_level = 0;
        if (path_top_ && (p == "+" || p == "*")) op_level = 0;  // CQL 6.2: a path's wildcards
      } else if (op.kind == Tok::kDash && !op.space_before) {
        op_level = kLevelDash;  // a dash tied to its left side: `Ra1--a8`
      }
      if (op_level == 0 || op_level < level) return left;
      // CQL 6.2: a relational operator after a plain filter is not its operand (`find all
      // check >= 10` is `(find all check) >= 10`): the caller's level takes it
      if (op_level == kLevelRel && left.type == Type::kBool && op.text != "~~") return left;
      const Loc loc = op.loc;
      const std::string text = op.text;
      ++i_;
      if (op_level == kLevelRel && text == "~~") {
        need(left, Type::kString, "the left side of '~~'");
        Node pattern = expr(kLevelRel + 1);
        need(pattern, Type::kString, "the pattern of '~~'");
        Node n = make(Kind::kRegex, Type::kString, loc);
        n.kids.push_back(std::move(left));
        n.kids.push_back(std::move(pattern));
        left = std::move(n);
        continue;
      }
      if (op_level == kLevelRel) {
        left = compare(std::move(left), text, loc);
        continue;
      }
      if (op_level == kLevelColon) {
        need(left, Type::kPosition, "the left side of ':'");
        Node right = expr(kLevelColon);
        Node n = make(Kind::kAt, right.type, loc);
        n.kids.push_back(std::move(left));
        n.kids.push_back(std::move(right));
        left = std::move(n);
        continue;
      }
      if (op_level == kLevelDash) {
        --i_;
        need(left, Type::kSet, "the left side of '--'");
        left = dash(std::move(left));
        continue;
      }
      if (op_level == kLevelArrow) {
        left = arrows(std::move(left), text, loc);
        continue;
      }
      Node right = expr(op_level == kLevelIn ? kLevelDash : op_level + 1);
      left = binary(text == "[element]" ? "in" : text, std::move(left), std::move(right), loc);
    }
  }

  /// True when the `+` / `*` at the cursor is a line wildcard (followed by the end of a
  /// constituent: end, `}`, `)`, an arrow, a repeat or another wildcard).
  bool wildcard_follows() const {
    const Token& n = peek();
    return n.kind == Tok::kEnd || n.kind == Tok::kRepeat || n.is("}") || n.is(")") || n.is("-->") ||
           n.is("<--") || n.is("+") || n.is("*") || n.is("?") || n.is("{+}") || n.is("{*}");
  }

  Node compare(Node left, const std::string& first, Loc loc) {
    Node n = make(Kind::kCompare, Type::kBool, loc);
    // part 2: strings compare with strings, positions with positions (by positionid)
    const Type ty = left.type == Type::kString || left.type == Type::kPosition || is_precedence(first) ? Type::kPosition : Type::kNumber;
    const Type want = left.type == Type::kString ? Type::kString : ty;
    need(left, want, "'" + first + "'");
    n.kids.push_back(std::move(left));
    std::string op = first;
    while (true) {
      Node right = expr(kLevelRel + 1);
      need(right, is_precedence(op) ? Type::kPosition : want, "'" + op + "'");
      n.ops.push_back(cmp_of(op));
      n.kids.push_back(std::move(right));
      const Token& t = cur();
      if (t.kind == Tok::kPunct && (t.text == "<" || t.text == "<=" || t.text == "==" || t.text == ">=" ||
                                    t.text == ">" || t.text == "!=" || is_precedence(t.text))) {
        op = t.text;
        ++i_;
        continue;
      }
      break;
    }
    check_set_equality(n);
    // CQL 6.2: a comparison of numbers is numeric, its value the left side's (`sort {...
    // Length ≥ 4}`); one ending in a set equality stays a plain filter
    const Node& a = n.kids[n.kids.size() - 2];
    const Node& b = n.kids.back();
    const bool set_equality = a.type == Type::kSet && b.type == Type::kSet && (n.ops.back() == Cmp::kEq || n.ops.back() == Cmp::kNe);
    const bool negated = std::find(n.ops.begin(), n.ops.end(), Cmp::kNe) != n.ops.end();  // `!=` is `not ==`
    if (want == Type::kNumber && !set_equality && !negated) n.type = Type::kNumber;
    return n;
  }

  // ---- sets and loops (published examples, branch exsets)

  /// True if the cursor is on a numeric variable assigned earlier that CQL 6.2 reads as a
  /// range bound: not followed by an operator (rangeconstituent in its node-parse.cpp).
  bool variable_bound_follows() const {
    if (cur().kind != Tok::kWord) return false;
    auto it = var_slots_.find(cur().text);
    if (it == var_slots_.end()) return false;
    const Variable& v = script_->vars[size_t(it->second)];
    if (v.type != Type::kNumber || v.dictionary) return false;
    const Token& n = peek();
    return n.kind != Tok::kPunct || n.is("(") || n.is("{") || n.is(")") || n.is("}") || n.is("->") || n.is("<-");
  }

  /// `[<] [<=] [>] [>=]` (`≺ ≼ ≻ ≽`): CQL 6.2's comparisons of positions by the game tree.
  static bool is_precedence(std::string_view p) { return p == "[<]" || p == "[<=]" || p == "[>]" || p == "[>=]"; }
  static Cmp cmp_of(std::string_view op) {
    if (op == "[<]") return Cmp::kPrecedes;
    if (op == "[<=]") return Cmp::kPrecedesEq;
    if (op == "[>]") return Cmp::kSucceeds;
    if (op == "[>=]") return Cmp::kSucceedsEq;
    return op == "<" ? Cmp::kLt : op == "<=" ? Cmp::kLe : op == "==" ? Cmp::kEq : op == ">=" ? Cmp::kGe
           : op == ">" ? Cmp::kGt : Cmp::kNe;
  }
  /// CQL 6.2 reads `a == b == c` as `a == (b == c)`: only the last pair compares two sets as
  /// sets (`T == a1`); before it a set is counted, and a set equality inside a longer chain is
  /// an error (its value is no number).
  static void check_set_equality(const Node& n) {
    const size_t k = n.kids.size();
    if (k <= 2) return;
    const Node& a = n.kids[k - 2];
    const Node& b = n.kids[k - 1];
    if (a.type == Type::kSet && b.type == Type::kSet && (n.ops.back() == Cmp::kEq || n.ops.back() == Cmp::kNe))
      throw Error(a.loc, "a comparison of two sets has no numeric value to compare further",
                  "a number, or '#' before the sets");
  }
  /// After `◭` (or `∀◭`) before a name: `◭x∊S f` (piece loop) or `◭x = S` (piece assignment).
  Node piece_declared(Loc loc, bool all) {
    if (cur().kind != Tok::kWord) fail("'◭' declares a piece variable here", "a variable name");
    if (!all && peek().is("=")) return piece_assignment(loc);
    if (!peek().is("[element]") && !peek().is("in"))
      throw Error(peek().loc, "unexpected " + describe(peek()) + " after the piece variable '" + cur().text + "'",
                  "'∊' (a piece loop) or '=' (a piece assignment)");
    return loop(Kind::kPieceLoop, all, loc);
  }
  /// `piece x = S` / `◭x = S` with the cursor on the name: binds x to the piece on the one
  /// square of S (CQL 6.2: fails unless S is exactly one square holding a piece).
  Node piece_assignment(Loc loc) {
    const std::string name = cur().text;
    const Loc vloc = cur().loc;
    i_ += 2;  // name =
    Node set = expr(kLevelDash);
    need(set, Type::kSet, "'" + name + " ='");
    const int slot = slot_of(name, vloc, true);
    Variable& v = script_->vars[size_t(slot)];
    if (v.type != Type::kBool && !v.piece) throw Error(vloc, "'" + name + "' is not a piece variable");
    v.piece = true;
    type_var(slot, Type::kSet, vloc);
    Node n = make(Kind::kPieceAssign, Type::kBool, loc);
    n.kids.push_back(var_node(slot, vloc));
    n.kids.push_back(std::move(set));
    return n;
  }

  Node binary(const std::string& op, Node a, Node b, Loc loc) {
    Node n;
    n.loc = loc;
    if (op == "or" || op == "and") {
      n.kind = op == "or" ? Kind::kOr : Kind::kAnd;
      n.type = Type::kBool;
    } else if (op == "&" && a.type == Type::kPosition) {
      need(b, Type::kPosition, "'&' of positions");
      n.kind = Kind::kPosIntersect;
      n.type = Type::kSet;
    } else if (op == "in" && a.type == Type::kString) {
      need(b, Type::kString, "'in'");
      n.kind = Kind::kStrIn;
      n.type = Type::kBool;
    } else if (op == "+" && a.type == Type::kString) {
      need(b, Type::kString, "'+'");
      n.kind = Kind::kConcat;
      n.type = Type::kString;
    } else if (op == "in") {
      need(a, Type::kSet, "'in'");
      need(b, Type::kSet, "'in'");
      n.kind = Kind::kIn;
      n.type = Type::kBool;
    } else if (op == "attacks" || op == "->" || op == "attackedby" || op == "<-") {
      need(a, Type::kSet, "'" + op + "'");
      need(b, Type::kSet, "'" + op + "'");
      n.kind = op == "attacks" || op == "->" ? Kind::kAttacks : Kind::kAttackedBy;
      n.type = Type::kSet;
    } else if (op == "|" || op == "&") {
      need(a, Type::kSet, "'" + op + "'");
      need(b, Type::kSet, "'" + op + "'");
      n.kind = op == "|" ? Kind::kUnion : Kind::kIntersect;
      n.type = Type::kSet;
    } else {
      need(a, Type::kNumber, "'" + op + "'");
      need(b, Type::kNumber, "'" + op + "'");
      n.kind = Kind::kArith;
      n.type = Type::kNumber;
      n.sub = uint8_t(op[0]);
    }
    n.kids.push_back(std::move(a));
    n.kids.push_back(std::move(b));
    return n;
  }

  /// Prefix operators and primaries; `level` is the caller's binding level. Every nesting
  /// (braces, parentheses, operands of prefix keywords) passes here: deeper than
  /// kMaxNesting is a located error, not a stack overflow (found by cql6_fuzz).
  Node prefix(int level) {
    if (nesting_ >= kMaxNesting)
      throw Error(cur().loc, "filters nested more than " + std::to_string(kMaxNesting) + " deep",
                  "fewer nested filters");
    ++nesting_;
    struct Leave {
      int& n;
      ~Leave() { --n; }
    } leave{nesting_};
    return prefix_of(level);
  }
  Node prefix_of(int level) {
    const Token& t = cur();
    const Loc loc = t.loc;
    if (t.kind == Tok::kPunct) {
      if (t.text == "~") {
        ++i_;
        Node a = expr(kLevelAttack);
        need(a, Type::kSet, "'~'");
        Node n = make(Kind::kComplement, Type::kSet, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (t.text == "#") {
        ++i_;
        Node a = expr(kLevelDash);
        if (a.type != Type::kString) need(a, Type::kSet, "'#'");  // CQL 6.2: `#s` a string's length
        Node n = make(Kind::kCount, Type::kNumber, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (t.text == "-") {
        ++i_;
        Node a = expr(kLevelPrimary);
        need(a, Type::kNumber, "unary '-'");
        if (a.kind == Kind::kNumber) {
          a.value = -a.value;
          a.loc = loc;
          return a;
        }
        Node n = make(Kind::kNegate, Type::kNumber, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
    }
    if (t.kind == Tok::kWord) {
      const std::string& w = t.text;
      if (w == "not") {
        ++i_;
        Node a = expr(kLevelIn);
        Node n = make(Kind::kNot, Type::kBool, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (w == "abs") {
        ++i_;
        Node a = expr(kLevelAdd);
        need(a, Type::kNumber, "'abs'");
        Node n = make(Kind::kAbs, Type::kNumber, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (w == "power") {
        ++i_;
        Node a = expr(kLevelDash);
        need(a, Type::kSet, "'power'");
        Node n = make(Kind::kPower, Type::kNumber, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (w == "light" || w == "dark") {
        ++i_;
        Node a = expr(kLevelPrimary);
        need(a, Type::kSet, "'" + w + "'");
        Node n = make(w == "light" ? Kind::kLight : Kind::kDark, Type::kSet, loc);
        n.kids.push_back(std::move(a));
        return n;
      }
      if (uint8_t dir = direction_bits(w)) {
        ++i_;
        Node n = make(Kind::kDirection, Type::kSet, loc);
        n.sub = dir;
        n.lo = 1;
        n.hi = 7;
        std::vector<Node> bounds;  // CQL 6.2: a bound may be a numeric variable (`up DeltaRank S`)
        if (!optional_range(n.lo, n.hi) && variable_bound_follows()) {
          bounds.push_back(var_node(slot_of(t_[i_++].text, loc, false), loc));
          if (cur().kind == Tok::kNumber) {
            Node hi = make(Kind::kNumber, Type::kNumber, cur().loc);
            hi.value = t_[i_++].number;
            bounds.push_back(std::move(hi));
          } else if (variable_bound_follows()) {
            bounds.push_back(var_node(slot_of(t_[i_++].text, loc, false), loc));
          } else {
            bounds.push_back(bounds[0]);
          }
        }
        Node a = expr(kLevelPrimary);
        need(a, Type::kSet, "'" + w + "'");
        n.kids.push_back(std::move(a));
        for (Node& b : bounds) n.kids.push_back(std::move(b));  // kids 1, 2: the bounds
        return n;
      }
      if (w == "if") return if_filter();
      if (std::optional<TransformKind> k = transform_kind(w)) {
        ++i_;
        Node n = make(Kind::kTransform, Type::kBool, loc);
        n.sub = uint8_t(*k);
        if (*k != TransformKind::kReverseColor && accept("count")) {  // CQL 6.2: any count, numeric
          n.lo = -100000;
          n.hi = 100000;
          n.flags |= kHasRange;
        } else if (*k != TransformKind::kReverseColor && range_follows() && optional_range(n.lo, n.hi)) {
          n.flags |= kHasRange;
        }
        if (at_end() || is(")") || is("}")) fail("'" + w + "' needs a filter", "a filter");
        Node a = expr(kLevelOr);
        n.type = a.type;
        // a comparison's value (its left side) is kept for sort and assignments, not for a
        // transformed condition: as a filter the transform stays a plain one
        const Node* last = &a;
        while (last->kind == Kind::kCompound && !last->kids.empty()) last = &last->kids.back();
        if (last->kind == Kind::kCompare) n.type = Type::kBool;
        if (n.flags & kHasRange) n.type = Type::kNumber;  // CQL 6.2: the number of matching transforms
        n.kids.push_back(std::move(a));
        return n;
      }
      if (w == "line") return line();
    }
    (void)level;
    return primary();
  }

  /// `a -> b` (attacks), `a <- b` (attacked by); three or more sets chained with one arrow
  /// kind are CQL 6.2's attack ray (`Q -> b -> k`: the squares of the first set whose piece
  /// attacks along a line through the others).
  Node arrows(Node first, const std::string& arrow, Loc loc) {
    need(first, Type::kSet, "'" + arrow + "'");
    std::vector<Node> args;
    args.push_back(std::move(first));
    while (true) {
      Node a = expr(kLevelArrow + 1);
      need(a, Type::kSet, "'" + arrow + "'");
      args.push_back(std::move(a));
      if (!accept(arrow)) break;
    }
    if (args.size() == 2) return binary(arrow, std::move(args[0]), std::move(args[1]), loc);
    Node n = make(Kind::kRay, Type::kSet, loc);
    n.flags = kXray | kRayReturnFirst;
    n.sub = kAnyDirection;
    if (arrow == "<-") std::reverse(args.begin(), args.end());
    if (arrow == "<-") n.flags = kXray;  // the squares of the set written first, last on the ray
    n.kids = std::move(args);
    return n;
  }

  static uint8_t direction_bits(const std::string& w) {
    if (w == "up") return kUp;
    if (w == "down") return kDown;
    if (w == "left") return kLeft;
    if (w == "right") return kRight;
    if (w == "northeast") return kNorthEast;
    if (w == "northwest") return kNorthWest;
    if (w == "southeast") return kSouthEast;
    if (w == "southwest") return kSouthWest;
    if (w == "diagonal") return kDiagonal;
    if (w == "orthogonal") return kOrthogonal;
    if (w == "vertical") return kVertical;
    if (w == "horizontal") return kHorizontal;
    if (w == "anydirection") return kAnyDirection;
    return 0;
  }

  static std::optional<TransformKind> transform_kind(const std::string& w) {
    if (w == "flip" || w == "flipdihedral" || w == "dihedral") return TransformKind::kFlip;
    if (w == "flipcolor") return TransformKind::kFlipColor;
    if (w == "flipvertical") return TransformKind::kFlipVertical;
    if (w == "fliphorizontal") return TransformKind::kFlipHorizontal;
    if (w == "rotate90") return TransformKind::kRotate90;
    if (w == "shift") return TransformKind::kShift;
    if (w == "shifthorizontal") return TransformKind::kShiftHorizontal;
    if (w == "shiftvertical") return TransformKind::kShiftVertical;
    if (w == "reversecolor") return TransformKind::kReverseColor;
    if (w == "rotate45") return TransformKind::kRotate45;
    return std::nullopt;
  }

  Node if_filter() {
    Node n = make(Kind::kIf, Type::kBool, cur().loc);
    ++i_;
    n.kids.push_back(expr(kLevelOr));
    accept("then");
    n.kids.push_back(expr(kLevelOr));
    if (accept("else")) n.kids.push_back(expr(kLevelOr));
    if (n.kids.size() == 3 && n.kids[1].type == n.kids[2].type && n.kids[1].type != Type::kBool)
      n.type = n.kids[1].type;
    return n;
  }

  /// A dash at the cursor with `left` (kNone when written without one).
  Node dash(Node left) {
    const Token& d = cur();
    Node n = make(Kind::kDash, Type::kBool, left.kind == Kind::kNone ? d.loc : left.loc);
    if (d.capture) n.flags |= kDashCapture;
    const bool right_tied = !d.space_after;
    ++i_;
    n.kids.push_back(std::move(left));
    Node right = make(Kind::kNone, Type::kSet, cur().loc);
    if (right_tied && !is("=") && !is("(") && !is(")") && !is("}") && cur().kind != Tok::kEnd &&
        cur().kind != Tok::kRepeat && !is("{+}") && !is("{*}") && !is("*") && !is("+") && !is("?")) {
      // `I――*`: a quantifier (no set starts with `*` `+` `?`); `--x=N` promotes on the
      // square variable x (CQL 6.2), it assigns nothing
      const bool saved = dash_right_;
      dash_right_ = true;
      right = expr(kLevelArrow);
      dash_right_ = saved;
      need(right, Type::kSet, "the right side of '--'");
    }
    n.kids.push_back(std::move(right));
    std::optional<Node> promotion_text;
    if (accept("=")) {  // promotion: `e7--e8=Q`, or to the piece letters of a string `--=T`
      if (cur().kind == Tok::kDesignator && cur().squares == ~uint64_t(0) && !is_parameter(cur().text)) {
        n.kinds = cur().kinds;
        n.flags |= kDashPromote;
        ++i_;
      } else {
        if (cur().kind != Tok::kWord && cur().kind != Tok::kString && cur().kind != Tok::kDesignator)
          fail("a promotion needs a piece name", "a piece such as Q or [RB], or a string of piece letters");
        Node p = expr(kLevelPrimary);
        if (p.type != Type::kString) throw Error(p.loc, "a promotion needs a piece name", "a piece such as Q or [RB], or a string of piece letters");
        n.flags |= kDashPromote | kDashPromoteText;
        promotion_text = std::move(p);
      }
    }
    Node target = make(Kind::kNone, Type::kBool, cur().loc);
    if (is("(") && !cur().space_before) {  // a target: filters at the position after the move
      target = make(Kind::kCompound, Type::kBool, cur().loc);
      ++i_;
      while (!accept(")")) {
        if (at_end()) fail("unclosed '--(' target", "')'");
        target.kids.push_back(filter());
      }
      if (target.kids.empty()) throw Error(target.loc, "an empty '--()' target", "a filter");
      if (target.kids.back().type != Type::kBool) n.type = target.type = target.kids.back().type;  // `--(from)`: a set
    }
    n.kids.push_back(std::move(target));
    if (promotion_text) n.kids.push_back(std::move(*promotion_text));
    return n;
  }
  /// True if `name` is a parameter of a function call being expanded (it stands for its argument).
  bool is_parameter(const std::string& name) const {
    for (const auto& a : args_)
      if (a.count(name)) return true;
    return false;
  }

  Node primary() {
    const Token& t = cur();
    const Loc loc = t.loc;
    switch (t.kind) {
      case Tok::kEnd: fail("unexpected end of script", "a filter");
      case Tok::kNumber: {
        Node n = make(Kind::kNumber, Type::kNumber, loc);
        n.value = t.number;
        ++i_;
        return n;
      }
      case Tok::kString: {
        Node n = make(Kind::kString, Type::kString, loc);
        n.text = t.text;
        ++i_;
        return n;
      }
      case Tok::kRepeat: fail("a repetition '{m,n}' only follows a line constituent", "a filter");
      case Tok::kDesignator: {
        for (auto it = args_.rbegin(); it != args_.rend(); ++it) {  // a function parameter named like one
          auto a = it->find(t.text);
          if (a != it->end()) {
            ++i_;
            return a->second;
          }
        }
        Node n = make(Kind::kDesignator, Type::kSet, loc);
        n.kinds = t.kinds;
        n.squares = t.squares;
        n.text = t.text;
        ++i_;
        return n;
      }
      case Tok::kDash: return dash(make(Kind::kNone, Type::kSet, loc));
      case Tok::kPunct: {
        if (t.text == "(") {
          ++i_;
          Node n = filter();
          expect(")");
          return n;
        }
        if (t.text == "{") {
          ++i_;
          Node n = make(Kind::kCompound, Type::kBool, loc);
          const int saved = line_depth_;
          const bool saved_path = path_top_;
          line_depth_ = 0;
          path_top_ = false;
          while (!accept("}")) {
            if (at_end()) fail("unclosed '{'", "'}'");
            n.kids.push_back(filter());
          }
          line_depth_ = saved;
          path_top_ = saved_path;
          if (!n.kids.empty()) n.type = n.kids.back().type;
          return n;
        }
        if (t.text == "[piece]") {  // `◭x∊S f` = piece x in S f, `◭x = S` (the lexer: ◭ before a name)
          ++i_;
          return piece_declared(loc, false);
        }
        if (t.text == "[forall]") {  // `∀x∊S f` = square all x in S f, `∀◭x∊S f` = piece all
          ++i_;
          if (accept("[piece]")) return piece_declared(loc, true);
          return loop(Kind::kSquareLoop, true, loc);
        }
        if (t.text == "\\" && peek().kind == Tok::kNumber && !peek().space_before) {  // `\1`: a group of the last ~~
          Node n = make(Kind::kMatchGroup, Type::kString, loc);
          n.value = peek().number;
          i_ += 2;
          return n;
        }
        fail("unexpected " + describe(t), "a filter");
      }
      case Tok::kWord: return word();
    }
    fail("unexpected " + describe(t), "a filter");
  }

  Node word() {
    const Token& t = cur();
    const Loc loc = t.loc;
    const std::string w = t.text;
    auto simple = [&](Kind k, Type ty = Type::kBool) {
      ++i_;
      return make(k, ty, loc);
    };
    if (w == "true") return simple(Kind::kTrue);
    if (w == "false") return simple(Kind::kFalse);
    if (w == "check") return simple(Kind::kCheck);
    if (w == "mate") return simple(Kind::kMate);
    if (w == "stalemate") return simple(Kind::kStalemate);
    if (w == "wtm") return simple(Kind::kWtm);
    if (w == "btm") return simple(Kind::kBtm);
    if (w == "initial") return simple(Kind::kInitial);
    if (w == "terminal") return simple(Kind::kTerminal);
    if (w == "mainline") return simple(Kind::kMainline);
    if (w == "ply") return simple(Kind::kPly, Type::kNumber);
    if (w == "movenumber") return simple(Kind::kMoveNumber, Type::kNumber);
    if (w == "year") return simple(Kind::kYear, Type::kNumber);
    if (w == "passedpawns") return pawns(PawnSet::kPassed);
    if (w == "isolatedpawns") return pawns(PawnSet::kIsolated);
    if (w == "doubledpawns") return pawns(PawnSet::kDoubled);
    if (w == "connectedpawns") return pawns(PawnSet::kConnected);
    if (w == "backwardpawns") return pawns(PawnSet::kBackward);
    if (w == "elo") {
      Node n = simple(Kind::kElo, Type::kNumber);
      if (cur().kind == Tok::kWord && (cur().text == "white" || cur().text == "black")) {
        n.sub = uint8_t(cur().text == "white" ? Side::kWhite : Side::kBlack);
        ++i_;
      }
      return n;
    }
    if (w == "result") return result();
    if (w == "player" || w == "event" || w == "site" || w == "date" || w == "eco") return header_text();
    if (w == "between") {
      ++i_;
      Node n = make(Kind::kBetween, Type::kSet, loc);
      expect("(");
      for (int k = 0; k < 2; ++k) {
        Node a = filter();
        need(a, Type::kSet, "'between'");
        n.kids.push_back(std::move(a));
      }
      expect(")");
      return n;
    }
    if (w == "ray" || w == "xray") {
      ++i_;
      Node n = make(Kind::kRay, Type::kSet, loc);
      if (w == "xray") n.flags |= kXray;
      n.sub = 0;
      if (w == "ray" && (accept("attack") || accept("attacks"))) n.flags |= kXray;
      while (cur().kind == Tok::kWord && direction_bits(cur().text)) n.sub |= direction_bits(t_[i_++].text);
      if (!n.sub) n.sub = kAnyDirection;
      expect("(");
      while (!accept(")")) {
        if (at_end()) fail("unclosed '" + w + " ('", "')'");
        Node a = filter();
        need(a, Type::kSet, "'" + w + "'");
        n.kids.push_back(std::move(a));
      }
      if (n.kids.size() < 2) throw Error(loc, "'" + w + "' needs at least two sets");
      return n;
    }
    if (w == "pin") {
      ++i_;
      Node n = make(Kind::kPin, Type::kSet, loc);
      for (int k = 0; k < 3; ++k) n.kids.push_back(make(Kind::kNone, Type::kSet, loc));
      n.sub = 1;  // CQL 6.2: the set of the first parameter written; none: the pinned pieces
      bool first = true;
      while (cur().kind == Tok::kWord) {
        const std::string& p = cur().text;
        const int slot = p == "from" ? 0 : p == "through" ? 1 : p == "to" ? 2 : -1;
        if (slot < 0) break;
        if (first) n.sub = uint8_t(slot);
        first = false;
        ++i_;
        Node a = expr(kLevelPrimary);
        need(a, Type::kSet, "'pin " + p + "'");
        n.kids[size_t(slot)] = std::move(a);
      }
      return n;
    }
    if (w == "max" || w == "min") {
      ++i_;
      Node n = make(w == "max" ? Kind::kMax : Kind::kMin, Type::kNumber, loc);
      expect("(");
      while (!accept(")")) {
        if (at_end()) fail("unclosed '" + w + "('", "')'");
        Node a = filter();
        need(a, Type::kNumber, "'" + w + "'");
        n.kids.push_back(std::move(a));
      }
      if (n.kids.size() < 2) throw Error(loc, "'" + w + "' needs at least two numbers");
      return n;
    }
    if (w == "move") return move();
    if (w == "o-o" || w == "o-o-o" || w == "castle" || w == "enpassant" || w == "nullmove") {
      // CQL 6.2's past-move filters: the move that led to this position
      Node n = make(Kind::kMove, Type::kBool, loc);
      ++i_;
      for (int k = 0; k < 4; ++k) n.kids.push_back(make(Kind::kNone, Type::kSet, loc));
      n.flags = kMovePrevious | (w == "o-o" ? uint32_t(kMoveCastle | kMoveKingSide) : w == "o-o-o" ? uint32_t(kMoveCastle | kMoveQueenSide)
                                 : w == "castle" ? uint32_t(kMoveCastle) : w == "enpassant" ? uint32_t(kMoveEnPassant)
                                 : uint32_t(kMoveNull));
      return n;
    }
    if (w == "cql") fail("a second cql( header", "a filter");
    if (w == "from") return simple(Kind::kFromSquare, Type::kSet);
    if (w == "to") return simple(Kind::kToSquare, Type::kSet);
    if (w == "then" || w == "else" || w == "and" || w == "or" || w == "in" || w == "attacks" ||
        w == "attackedby" || w == "through")
      fail("unexpected '" + w + "'", "a filter");
    if (std::optional<Node> n = path_word(w, loc)) return std::move(*n);
    if (std::optional<Node> n = part2(w, loc)) return std::move(*n);
    if (later_words().count(w)) throw not_supported(loc, w);
    if (w == "variations" || w == "quiet" || w == "silent" || w == "matchcount" || w == "input" || w == "output")
      throw Error(loc, "'" + w + "' is a cql( header parameter, not a filter", "a filter");
    if (peek().is("[") && !peek().space_before)
      throw Error(loc, "'" + w + "' is not a dictionary", "'dictionary " + w + "' before its first use");
    throw Error(loc, "unknown filter, variable or function '" + w + "'", "a filter, or a variable assigned earlier");
  }

  // ---- part 2 (issue 37)

  /// The slot of variable `name`, made when `create` (else -1 when unknown).
  int slot_of(const std::string& name, Loc loc, bool create) {
    auto it = var_slots_.find(name);
    if (it != var_slots_.end()) return it->second;
    if (!create) return -1;
    const int slot = int(script_->vars.size());
    Variable v;
    v.name = name;
    v.loc = loc;
    script_->vars.push_back(v);
    var_slots_[name] = slot;
    return slot;
  }
  Node var_node(int slot, Loc loc) const {
    Node n = make(Kind::kVar, script_->vars[size_t(slot)].type, loc);
    n.value = slot;
    n.text = script_->vars[size_t(slot)].name;
    return n;
  }
  /// Gives variable `slot` the type `ty` (its first assignment), or checks it.
  void type_var(int slot, Type ty, Loc loc) {
    Variable& v = script_->vars[size_t(slot)];
    if (ty == Type::kBool) throw Error(loc, "'" + v.name + "' cannot hold a plain filter", "a set, number, position or string");
    if (v.type == Type::kBool) {
      v.type = ty;
      return;
    }
    if (v.type != ty && !(v.type == Type::kNumber && ty == Type::kSet && !v.dictionary))
      throw Error(loc, "'" + v.name + "' already holds another type of value");
  }
  static bool is_assign(const Token& t) {
    return t.kind == Tok::kPunct && (t.text == "=" || t.text == "+=" || t.text == "-=" || t.text == "*=" ||
                                     t.text == "/=" || t.text == "%=");
  }
  /// `name op value` with the cursor on op.
  Node assignment(const std::string& name, Loc loc, bool persistent) {
    const std::string op = cur().text;
    const Loc oloc = cur().loc;
    ++i_;
    if (functions_.count(name)) throw Error(loc, "'" + name + "' is a function");
    Node value = expr(kLevelOr);
    const int slot = slot_of(name, loc, true);
    Variable& v = script_->vars[size_t(slot)];
    if (v.dictionary) throw Error(loc, "'" + name + "' is a dictionary: assign to '" + name + "[key]'");
    if (v.piece) throw Error(loc, "'" + name + "' is a piece loop variable and cannot be assigned");
    if (persistent) v.persistent = true;
    if (op == "+=" && v.type == Type::kString) {
      // CQL 6.2: `+=` on a string variable appends (babson2's `Ts+=T`)
      need(value, Type::kString, "'+='");
    } else if (op != "=") {
      need(value, Type::kNumber, "'" + op + "'");
      if (v.type != Type::kBool && v.type != Type::kNumber)
        throw Error(oloc, "'" + op + "' needs a numeric variable, '" + name + "' is not");
      if (v.type == Type::kBool && !v.persistent)
        throw Error(loc, "'" + op + "' needs '" + name + "' assigned earlier in the script", "'" + name + " = ...' first");
      v.type = Type::kNumber;
    } else {
      type_var(slot, value.type == Type::kSet && v.type == Type::kNumber ? Type::kNumber : value.type, value.loc);
    }
    Node n = make(Kind::kAssign, Type::kBool, loc);
    n.sub = uint8_t(op == "=" ? '=' : op[0]);
    n.kids.push_back(var_node(slot, loc));
    n.kids.push_back(std::move(value));
    return n;
  }
  /// An argument list `( a b ... )` of filters.
  std::vector<Node> arguments(const std::string& what, size_t want) {
    std::vector<Node> out;
    expect("(");
    while (!accept(")")) {
      if (at_end()) fail("unclosed '" + what + "('", "')'");
      out.push_back(filter());
    }
    if (want && out.size() != want)
      fail("'" + what + "' takes " + std::to_string(want) + " argument" + (want == 1 ? "" : "s"));
    return out;
  }
  /// `square [all] x in S body` / `piece [all] x in S body`, the cursor after the keyword.
  Node loop(Kind kind, bool all, Loc loc) {
    Node n = make(kind, Type::kBool, loc);
    if (accept("all")) all = true;
    if (all) n.flags |= kLoopAll;
    if (cur().kind != Tok::kWord) fail("a loop needs a variable name", "a variable name");
    const std::string name = cur().text;
    const Loc vloc = cur().loc;
    ++i_;
    if (!accept("in") && !accept("[element]")) fail("unexpected " + describe(cur()), "'in' or '∊'");
    Node set = expr(kLevelDash);
    need(set, Type::kSet, "the loop's set");
    if (!all) n.type = Type::kSet;  // CQL 6.2: the squares where the body matched
    const int slot = slot_of(name, vloc, true);
    Variable& v = script_->vars[size_t(slot)];
    if (kind == Kind::kPieceLoop) {
      if (v.type != Type::kBool && !v.piece) throw Error(vloc, "'" + name + "' is not a piece variable");
      v.piece = true;
    }
    type_var(slot, Type::kSet, vloc);
    n.kids.push_back(var_node(slot, vloc));
    n.kids.push_back(std::move(set));
    if (at_end()) fail("the loop needs a body", "a filter");
    n.kids.push_back(filter());
    return n;
  }
  Node unary_of(Kind k, Type ty, Loc loc, Node a) {
    Node n = make(k, ty, loc);
    n.kids.push_back(std::move(a));
    return n;
  }

  /// The part-2 word `w` at the cursor, if it is one (else nullopt, nothing consumed).
  std::optional<Node> part2(const std::string& w, Loc loc) {
    if (w == "tag" && peek().kind == Tok::kString) {  // `tag "Termination"`: that tag's text
      if (peek().text == "FEN") throw not_supported(loc, "tag \"FEN\"");
      ++i_;
      Node n = make(Kind::kHeaderValue, Type::kString, loc);
      n.sub = uint8_t(HeaderTag::kTag);
      n.text = cur().text;
      ++i_;
      return n;
    }
    // function parameters being expanded
    for (auto it = args_.rbegin(); it != args_.rend(); ++it) {
      auto a = it->find(w);
      if (a != it->end()) {
        ++i_;
        return a->second;
      }
    }
    if (peek().is("[element]")) return loop(Kind::kSquareLoop, false, loc);  // `x∊S f` (CQL 6.2)
    if (w == "persistent" || w == "atomic") {
      ++i_;
      if (cur().kind != Tok::kWord) fail("'" + w + "' needs a variable", "a variable name");
      const std::string name = cur().text;
      const Loc vloc = cur().loc;
      if (w == "persistent" && accept("dictionary")) return dictionary(true);
      ++i_;
      if (!is_assign(cur())) {
        const int slot = slot_of(name, vloc, true);  // a declaration
        if (w == "persistent") script_->vars[size_t(slot)].persistent = true;
        return make(Kind::kTrue, Type::kBool, loc);
      }
      return assignment(name, vloc, w == "persistent");
    }
    if (w == "dictionary") {  // CQL 6.2: a dictionary is persistent unless declared `local`
      ++i_;
      return dictionary(true);
    }
    if (w == "local" && peek().is("dictionary")) {
      i_ += 2;
      return dictionary(false);
    }
    if (w == "unbind" || w == "isbound") {
      ++i_;
      // CQL 6.2: `unbind` needs the name assigned earlier in the text, `isbound` does not
      // (`not isbound X X = 1`)
      if (w == "isbound" && cur().kind == Tok::kWord && !later_words().count(cur().text)) slot_of(cur().text, loc, true);
      if (cur().kind != Tok::kWord || slot_of(cur().text, loc, false) < 0)
        fail("following '" + w + "' expected the name of existing variable", "a variable assigned earlier");
      const int slot = slot_of(cur().text, loc, false);
      ++i_;
      Node target = var_node(slot, loc);
      if (script_->vars[size_t(slot)].dictionary && is("[")) target = dict_get(slot, loc);
      return unary_of(w == "unbind" ? Kind::kUnbind : Kind::kIsBound, Type::kBool, loc, std::move(target));
    }
    if (w == "square" || w == "piece") {
      ++i_;
      if (w == "piece" && cur().kind == Tok::kWord && peek().is("=")) return piece_assignment(loc);
      return loop(w == "square" ? Kind::kSquareLoop : Kind::kPieceLoop, false, loc);
    }
    if (w == "loop") {  // CQL 6.2: `loop f` repeats f while it matches
      ++i_;
      if (at_end() || is("}") || is(")")) fail("'loop' needs a filter", "a filter");
      return unary_of(Kind::kLoopRepeat, Type::kBool, loc, filter());
    }
    if (w == "while") {
      ++i_;
      Node n = make(Kind::kWhile, Type::kBool, loc);
      expect("(");
      const bool parenthesised = is("(");
      n.kids.push_back(filter());
      expect(")");
      // CQL 6.2: `while (s ~~ "literal") body` runs body once for every match of the pattern
      // in s, in order, with \0, \1... of that match (its StringIteratorNode); sub 1
      if (!parenthesised && n.kids[0].kind == Kind::kRegex && n.kids[0].kids[1].kind == Kind::kString) n.sub = 1;
      if (at_end()) fail("'while' needs a body", "a filter");
      n.kids.push_back(filter());
      return n;
    }
    if (w == "find") {
      ++i_;
      Node n = make(Kind::kFind, Type::kBool, loc);
      if (accept("all")) n.flags |= kFindAll;
      if (accept("<--")) n.flags |= kFindBackward;
      if (optional_range(n.lo, n.hi)) {
        n.flags |= kHasRange;
      } else if (accept("count")) {  // CQL 6.2's range `count`: -100000..100000 (0 included)
        n.lo = -100000;
        n.hi = 100000;
        n.flags |= kHasRange;
      }
      accept("quiet");
      if (at_end()) fail("'find' needs a filter", "a filter");
      n.kids.push_back(filter());  // CQL 6.2: find takes a whole filter (`find T == a1`)
      if (n.flags & (uint32_t(kFindAll) | uint32_t(kHasRange))) n.type = Type::kNumber;  // CQL 6.2: a range makes it numeric
      return n;
    }
    if (w == "parent" || w == "currentposition") {
      ++i_;
      return make(w == "parent" ? Kind::kParent : Kind::kCurrentPosition, Type::kPosition, loc);
    }
    if (w == "child") {
      ++i_;
      Node n = make(Kind::kChild, Type::kPosition, loc);
      if (is("(") && peek().kind == Tok::kNumber && peek(2).is(")")) {
        n.value = peek().number;
        i_ += 3;
      }
      return n;
    }
    if (w == "position") {
      ++i_;
      Node a = expr(kLevelAdd);  // `position positionid + inc`
      need(a, Type::kNumber, "'position'");
      return unary_of(Kind::kPositionAt, Type::kPosition, loc, std::move(a));
    }
    if (w == "positionid") { ++i_; return make(Kind::kPositionId, Type::kNumber, loc); }
    if (w == "depth") { ++i_; return make(Kind::kDepth, Type::kNumber, loc); }
    if (w == "sidetomove") { ++i_; return make(Kind::kSideToMove, Type::kNumber, loc); }
    if (w == "distance" || w == "lca" || w == "ancestor" || w == "descendant") {
      ++i_;
      std::vector<Node> a = arguments(w, 2);
      for (const Node& k : a) need(k, Type::kPosition, "'" + w + "'");
      Node n = make(w == "distance" ? Kind::kDistance : w == "lca" ? Kind::kLca : w == "ancestor" ? Kind::kAncestor
                                                                                                 : Kind::kDescendant,
                    w == "distance" ? Type::kNumber : w == "lca" ? Type::kPosition : Type::kBool, loc);
      n.kids = std::move(a);
      return n;
    }
    if (w == "echo") {
      ++i_;
      Node n = make(Kind::kEcho, Type::kBool, loc);
      expect("(");
      for (int k = 0; k < 2; ++k) {
        if (cur().kind != Tok::kWord) fail("'echo' needs two variable names", "a variable name");
        const int slot = slot_of(cur().text, cur().loc, true);
        type_var(slot, Type::kPosition, cur().loc);
        n.kids.push_back(var_node(slot, cur().loc));
        ++i_;
      }
      expect(")");
      if (at_end()) fail("'echo' needs a body", "a filter");
      n.kids.push_back(filter());
      return n;
    }
    if (w == "str" || w == "int") {
      ++i_;
      expect("(");
      Node a = filter();
      expect(")");
      if (w == "int") need(a, Type::kString, "'int'");
      else if (a.type == Type::kBool) throw Error(a.loc, "'str' needs a value (a number, set, position or string)");
      return unary_of(w == "str" ? Kind::kStr : Kind::kInt, w == "str" ? Type::kString : Type::kNumber, loc,
                      std::move(a));
    }
    if (w == "lowercase" || w == "uppercase") {  // CQL 6.2: `lowercase(x) ~~ "k"` is lowercase(x ~~ "k")
      ++i_;
      Node a = expr(kLevelRel + 1);
      while (is("~~")) {  // the `~~` goes inside; a comparison stays outside
        const Loc rloc = cur().loc;
        ++i_;
        need(a, Type::kString, "the left side of '~~'");
        Node pattern = expr(kLevelRel + 1);
        need(pattern, Type::kString, "the pattern of '~~'");
        Node r = make(Kind::kRegex, Type::kString, rloc);
        r.kids.push_back(std::move(a));
        r.kids.push_back(std::move(pattern));
        a = std::move(r);
      }
      need(a, Type::kString, "'" + w + "'");
      return unary_of(w == "lowercase" ? Kind::kLowercase : Kind::kUppercase, Type::kString, loc, std::move(a));
    }
    if ((w == "player" && (peek().is("white") || peek().is("black")) && peek(2).kind != Tok::kString) ||
        ((w == "event" || w == "site" || w == "date" || w == "eco" || w == "player") && peek().kind != Tok::kString &&
         !peek().is("white") && !peek().is("black")))
      throw not_supported(loc, w + (peek().is("white") || peek().is("black") ? " " + peek().text : ""),
                          "as a string value");
    if (std::optional<Node> n = value_function(w, loc)) return n;
    if (w == "sort") {
      ++i_;
      Node n = make(Kind::kSort, Type::kNumber, loc);
      // CQL 6.2's order: `sort [quiet] [min|max] ["title"] filter`. A `min`/`max` followed by
      // `(` is the function (`sort "v" min(5 movenumber)`); CQL 6.2 sorts `sort max` like
      // `sort min` (smallest first), and so does cqldb.
      if (accept("quiet")) n.flags |= kSortQuiet;
      if ((cur().is("min") || cur().is("max")) && !peek().is("(")) {
        ++i_;
        n.flags |= kSortMin;
      }
      if (cur().kind == Tok::kString) n.text = t_[i_++].text;
      if (at_end()) fail("'sort' needs a numeric filter", "a numeric filter");
      // CQL 6.2 sorts by the whole filter that follows: a comparison has its left side's
      // value (`sort ◭ >= 4`), a compound its last filter's, an echo its body's largest
      Node a = expr(kLevelOr);
      if (a.kind != Kind::kLine && !numeric_value(a)) need(a, Type::kNumber, "'sort'");
      if (script_->sort_title.empty()) script_->sort_title = n.text.empty() ? "sort" : n.text;
      n.kids.push_back(std::move(a));
      return n;
    }
    if (w == "comment" || w == "message") {
      ++i_;
      Node n = make(Kind::kComment, Type::kBool, loc);
      n.sub = w == "message";
      if (is("(")) n.kids = arguments(w, 0);
      else n.kids.push_back(expr(kLevelPrimary));
      return n;
    }
    if (w == "settag") {
      ++i_;
      Node n = make(Kind::kSettag, Type::kBool, loc);
      n.kids = arguments(w, 2);
      for (const Node& k : n.kids) need(k, Type::kString, "'settag'");
      return n;
    }
    if (w == "removecomment") { ++i_; return make(Kind::kRemoveComment, Type::kBool, loc); }
    if (w == "function") {
      ++i_;
      if (cur().kind != Tok::kWord) fail("'function' needs a name", "a function name");
      const std::string name = cur().text;
      ++i_;
      Function f;
      expect("(");
      while (!accept(")")) {  // a name, or a word that is also a designator (`a`, `K`)
        if (cur().kind != Tok::kWord && cur().kind != Tok::kDesignator)
          fail("a function parameter must be a name", "a name or ')'");
        f.params.push_back(t_[i_++].text);
      }
      if (!is("{")) fail("a function body is a compound", "'{'");
      f.body = i_;
      int depth = 0;  // skip the body: it is parsed at each call
      do {
        if (at_end()) fail("unclosed function body", "'}'");
        if (is("{")) ++depth;
        if (is("}")) --depth;
        ++i_;
      } while (depth > 0);
      functions_[name] = std::move(f);
      return make(Kind::kTrue, Type::kBool, loc);
    }
    auto fn = functions_.find(w);
    if (fn != functions_.end()) {  // a call: the body parsed with the parameters bound to the arguments
      ++i_;
      std::vector<Node> a = arguments(w, fn->second.params.size());
      if (args_.size() > 64) throw Error(loc, "functions nested too deeply (recursion?)");
      std::map<std::string, Node, std::less<>> bound;
      for (size_t k = 0; k < a.size(); ++k) bound[fn->second.params[k]] = std::move(a[k]);
      args_.push_back(std::move(bound));
      const size_t back = i_;
      i_ = fn->second.body;
      Node body = primary();
      i_ = back;
      args_.pop_back();
      return body;
    }
    if (t_[i_].kind == Tok::kWord && !later_words().count(w)) {
      const int slot = slot_of(w, loc, false);
      if (is_assign(peek()) && !(dash_right_ && peek().is("="))) {
        ++i_;
        return assignment(w, loc, false);
      }
      if (slot >= 0) {
        ++i_;
        if (script_->vars[size_t(slot)].dictionary) {
          if (!is("[")) fail("a dictionary is used as '" + w + "[key]'", "'['");
          Node get = dict_get(slot, loc);
          if (is_assign(cur())) {
            if (!cur().is("=")) fail("a dictionary entry takes '='", "'='");
            ++i_;
            Node value = expr(kLevelOr);
            type_var(slot, value.type, value.loc);
            Node n = make(Kind::kDictAssign, Type::kBool, loc);
            n.kids.push_back(std::move(get.kids[0]));
            n.kids.push_back(std::move(get.kids[1]));
            n.kids.push_back(std::move(value));
            return n;
          }
          get.type = script_->vars[size_t(slot)].type;
          // read before any entry is assigned in the text (CQL 6.2 allows it: no entry, no
          // value): typed by finish_vars() once the script is read
          return get;
        }
        if (script_->vars[size_t(slot)].type == Type::kBool && !script_->vars[size_t(slot)].persistent)
          throw Error(loc, "'" + w + "' is used before it is assigned");
        Node v = var_node(slot, loc);
        if (v.type == Type::kBool) v.type = Type::kNumber;  // a declared persistent
        if (v.type == Type::kString && is("[") ) {  // indexing a string
          ++i_;
          Node index = filter();
          need(index, Type::kNumber, "a string index");
          expect("]");
          Node n = make(Kind::kIndex, Type::kString, loc);
          n.kids.push_back(std::move(v));
          n.kids.push_back(std::move(index));
          return n;
        }
        return v;
      }
    }
    return std::nullopt;
  }
  // ---- values and output (published examples)

  /// Makes `n` numeric where CQL 6.2 gives it a number (a comparison of numbers: its left
  /// side's value when it holds; a compound: its last filter's; an echo: the largest value
  /// of its body; a transform: its variants'); false (unchanged) when it has none.
  static bool numeric_value(Node& n) {
    if (n.type == Type::kNumber || n.type == Type::kSet) return true;
    switch (n.kind) {
      case Kind::kCompare:
        if (n.kids[0].type != Type::kNumber && n.kids[0].type != Type::kSet) return false;
        if (n.kids.size() == 2 && n.kids[0].type == Type::kSet && n.kids[1].type == Type::kSet) return false;
        break;
      case Kind::kCompound:
        if (n.kids.empty() || !numeric_value(n.kids.back())) return false;
        break;
      case Kind::kEcho:
        if (!numeric_value(n.kids[2])) return false;
        break;
      case Kind::kTransform:
        if ((n.flags & kHasRange) || !numeric_value(n.kids[0])) return false;
        break;
      default: return false;
    }
    n.type = Type::kNumber;
    return true;
  }

  /// A set operand of `rank`, `file`, `type`, `typename`, `piecename`.
  Node set_operand(const std::string& w) {
    if (at_end()) fail("'" + w + "' needs a set filter", "a set filter");
    Node a = move_as_set(expr(kLevelDash));
    need(a, Type::kSet, "'" + w + "'");
    return a;
  }
  /// CQL 6.2's `move` as a set (`rank move from .`): the square its first keyword names
  /// (`from`, `to`, `capture`; the destination otherwise). Other nodes are returned as they are.
  static Node move_as_set(Node a) {
    if (a.kind != Kind::kMove || a.type == Type::kSet || (a.flags & (kMoveLegal | kMovePseudoLegal | kMoveCount)))
      return a;  // a set already (written with from, to or capture first): its own squares
    Node n = make(Kind::kMoveSquares, Type::kSet, a.loc);
    n.sub = a.sub ? a.sub : 2;
    n.kids.push_back(std::move(a));
    return n;
  }

  /// The value keywords of CQL 6.2 at the cursor (`w`), if `w` is one: `rank`,
  /// `file`, `makesquare`, `type`, `typename`, `piecename`, `sqrt`, `fen`, `variation`,
  /// `puremate`, `modelmate`.
  std::optional<Node> value_function(const std::string& w, Loc loc) {
    if (w == "rank" || w == "file" || w == "type") {
      ++i_;
      return unary_of(w == "rank" ? Kind::kRank : w == "file" ? Kind::kFile : Kind::kPieceType, Type::kNumber, loc,
                      set_operand(w));
    }
    if (w == "typename" || w == "piecename") {
      ++i_;
      return unary_of(w == "typename" ? Kind::kTypeName : Kind::kPieceName, Type::kString, loc, set_operand(w));
    }
    if (w == "sqrt") {
      ++i_;
      if (at_end()) fail("'sqrt' needs a numeric filter", "a numeric filter");
      Node a = expr(kLevelAdd);
      need(a, Type::kNumber, "'sqrt'");
      return unary_of(Kind::kSqrt, Type::kNumber, loc, std::move(a));
    }
    if (w == "makesquare") {
      ++i_;
      Node n = make(Kind::kMakeSquare, Type::kSet, loc);
      const bool paren = accept("(");
      if (at_end()) fail("'makesquare' needs (file rank) or a string", "(file rank) or a string");
      // CQL 6.2: `makesquare "e1" & K` takes the string alone; `makesquare (f r)` two numbers
      Node first = expr(paren ? kLevelOr : kLevelPrimary);
      if (first.type == Type::kString) {
        n.kids.push_back(std::move(first));
        if (paren) expect(")");
        return n;
      }
      need(first, Type::kNumber, "'makesquare'");
      if (!paren) throw Error(first.loc, "'makesquare' with numbers needs parentheses", "makesquare (file rank)");
      Node second = expr(kLevelOr);
      need(second, Type::kNumber, "'makesquare'");
      expect(")");
      n.kids.push_back(std::move(first));
      n.kids.push_back(std::move(second));
      return n;
    }
    if (w == "fen") {
      ++i_;
      if (cur().kind == Tok::kString) throw not_supported(loc, "fen \"...\"", "as a position filter");
      return make(Kind::kFen, Type::kString, loc);
    }
    if (w == "variation") {
      ++i_;
      return make(Kind::kVariation, Type::kBool, loc);
    }
    if (w == "hhdb") {  // the award forms: `hhdb [max] [special] prize|hm|commendation|award`
      ++i_;
      Node n = make(Kind::kHhdbAward, Type::kNumber, loc);
      bool any = false, type = false;
      while (cur().kind == Tok::kWord) {
        const std::string& k = cur().text;
        if (k == "max") n.flags |= 1;
        else if (k == "special") n.flags |= 2;
        else if (k == "award" || k == "prize" || k == "hm" || k == "commendation") {
          if (type) fail("'hhdb' takes one of award, prize, hm, commendation");
          type = true;
          n.sub = k == "award" ? 0 : k == "prize" ? 1 : k == "hm" ? 2 : 3;
        } else if (k == "sort") {
          throw not_supported(cur().loc, "hhdb sort");
        } else {
          break;
        }
        any = true;
        ++i_;
      }
      if (!any) throw not_supported(loc, "hhdb", "other than its award forms (hhdb prize, hm, commendation, award)");
      return n;
    }
    if (w == "try") {
      ++i_;
      return make(Kind::kTry, Type::kBool, loc);
    }
    if (w == "pieceid") {
      ++i_;
      return unary_of(Kind::kPieceId, Type::kNumber, loc, set_operand(w));
    }
    if (w == "consecutivemoves") {
      ++i_;
      Node n = make(Kind::kConsecutiveMoves, Type::kNumber, loc);
      accept("quiet");
      n.lo = 1;
      n.hi = -1;
      optional_range(n.lo, n.hi);
      accept("quiet");
      std::vector<Node> a = arguments(w, 2);
      for (const Node& k : a) need(k, Type::kPosition, "'consecutivemoves'");
      n.kids = std::move(a);
      return n;
    }
    if (w == "puremate" || w == "modelmate") {
      ++i_;
      Node n = make(Kind::kMateKind, Type::kSet, loc);
      n.sub = w == "modelmate";
      return n;
    }
    return std::nullopt;
  }

  // ---- path / ⊢ and the dash forms (CQL 6.2; SPEC-NOTES "Published examples: path and
  // dashes"). A path's constituents (kPathFilter's kids after the focus and max slots):
  //  - a move dash `L--R` / `L[x]R` (kDash) with its targets: the filters written after it up
  //    to the next constituent, tested at the position after the move (a promotion first);
  //  - a holder: any other filter, tested where the path has got to (only before the first
  //    dash or after a group: a dash takes the filters after it as targets);
  //  - a group `( ... )`: kPathChain;
  //  - a dash or a group followed by `* + ? {m,n}` (at the path's top level `+` and `*` are
  //    always wildcards): kPathRepeat.
  // A path ends at the end of the script, an unmatched `)` or `}`, or an empty line.

  /// The path / dash words at the cursor (`path`, `legal --`, `countmoves --`, `primary`,
  /// `pathcount`...), or nullopt with nothing consumed.
  std::optional<Node> path_word(const std::string& w, Loc loc) {
    if (w == "path") return path(loc);
    if (w == "primary" || w == "secondary") {
      ++i_;
      Node n = make(Kind::kMovePrimary, Type::kBool, loc);
      n.sub = w == "secondary";
      return n;
    }
    if (w == "pathcount" || w == "pathmax" || w == "pathcountunfocused") {
      ++i_;
      Node n = make(w == "pathmax" ? Kind::kPathMax : Kind::kPathCount, Type::kNumber, loc);
      n.sub = w == "pathcountunfocused";  // CQL 6.2: `ply - pathstart:ply - pathcount`
      return n;
    }
    if (w == "pathstart" || w == "pathlastposition") {
      ++i_;
      return make(w == "pathstart" ? Kind::kPathStart : Kind::kPathLastPosition, Type::kPosition, loc);
    }
    if (w == "legal" || w == "pseudolegal") return legal_dash(false);
    if (w == "countmoves") {
      ++i_;
      if (is("legal") || is("pseudolegal")) return legal_dash(true);
      if (cur().kind == Tok::kDash || (cur().kind == Tok::kDesignator && peek().kind == Tok::kDash && !peek().space_before)) {
        Node d = expr(kLevelDash);
        if (d.kind != Kind::kDash) throw Error(loc, "'countmoves' needs a move dash", "'--' or 'legal --'");
        d.flags |= kDashCount;
        d.type = Type::kNumber;
        return d;
      }
      fail("'countmoves' needs a move dash", "'--' or 'legal --'");
    }
    return std::nullopt;
  }

  /// `legal --` / `pseudolegal --` (with `count` from `countmoves`): a move filter over the
  /// legal moves, `--(castle)`, `(o-o)`, `(o-o-o)`, `(enpassant)` as its only targets.
  Node legal_dash(bool count) {
    const Loc loc = cur().loc;
    const bool pseudo = cur().text == "pseudolegal";
    ++i_;
    Node d = expr(kLevelDash);
    if (d.kind != Kind::kDash) throw Error(d.loc, "'legal' needs a move dash after it", "'--' such as 'legal K--'");
    if (d.flags & kDashCapture) throw Error(d.loc, "'legal' and 'pseudolegal' do not take a capturing dash '[x]'", "'--'");
    if (d.flags & kDashPromote) throw Error(d.loc, "'legal --' takes no promotion", "'--'");
    Node n = make(Kind::kMove, count ? Type::kNumber : Type::kBool, loc);
    n.flags = (pseudo ? kMovePseudoLegal : kMoveLegal) | (count ? kMoveCount | kMoveCountSquares : 0u);
    n.kids.push_back(std::move(d.kids[0]));
    n.kids.push_back(std::move(d.kids[1]));
    for (int k = 0; k < 2; ++k) n.kids.push_back(make(Kind::kNone, Type::kSet, loc));
    const Node& target = d.kids[2];
    if (target.kind != Kind::kNone) {
      const Node* t = target.kids.size() == 1 ? &target.kids[0] : nullptr;
      const uint32_t past = t && t->kind == Kind::kMove ? t->flags & ~uint32_t(kMovePrevious) : 0;
      if (!t || t->kind != Kind::kMove || !(t->flags & kMovePrevious) ||
          !(past & (kMoveCastle | kMoveEnPassant)) || (past & kMoveNull))
        throw Error(target.loc, "the target of 'legal --' must be one of o-o, o-o-o, castle, enpassant");
      n.flags |= past;
    }
    return n;
  }

  Node path(Loc loc) {
    ++i_;
    Node n = make(Kind::kPathFilter, Type::kNumber, loc);
    n.kids.push_back(make(Kind::kNone, Type::kSet, loc));   // focus
    n.kids.push_back(make(Kind::kNone, Type::kNumber, loc));  // max
    bool singlecolor = false;
    auto once = [&](uint32_t flag, const std::string& word) {
      if (n.flags & flag) fail("multiple '" + word + "' in 'path'");
      n.flags |= flag;
      ++i_;
    };
    while (true) {
      const Token& t = cur();
      if (range_follows() && !(n.flags & kPathHasRange)) {
        range(n.lo, n.hi, "path");
        n.flags |= kPathHasRange;
        continue;
      }
      if (t.kind != Tok::kWord) break;
      const std::string& w = t.text;
      if (w == "nestban") once(kPathNestBan, w);
      else if (w == "firstmatch") once(kPathFirstMatch, w);
      else if (w == "primary") once(kPathPrimary, w);
      else if (w == "lastposition") { n.flags |= kPathLastPos; ++i_; }
      else if (w == "keepallbest") once(kPathKeepAllBest, w);
      else if (w == "verbose") once(kPathVerbose, w);
      else if (w == "quiet") once(kPathQuiet, w);
      else if (w == "piecepath") once(kPathPiecePath, w);
      else if (w == "secondary") fail("the 'secondary' keyword is not supported with 'path'");
      else if (w == "title") {
        ++i_;
        if (cur().kind != Tok::kString || cur().text.empty())
          fail("'title' in 'path' needs a non-empty quoted string", "a quoted string");
        n.text = t_[i_++].text;
      } else if (w == "max") {
        if (n.kids[1].kind != Kind::kNone) fail("multiple 'max' in 'path'");
        ++i_;
        if (at_end()) fail("'path max' needs a numeric filter", "a numeric filter");
        Node m = filter();
        need(m, Type::kNumber, "'path max'");
        n.kids[1] = std::move(m);
      } else if (w == "singlecolor" || w == "focus") {
        if (singlecolor || n.kids[0].kind != Kind::kNone)
          fail(w == "singlecolor" ? "'singlecolor' cannot be used with 'focus' or twice" : "multiple 'focus' in 'path'");
        ++i_;
        if (w == "singlecolor") {  // CQL 6.2: focus if wtm A else a
          singlecolor = true;
          Node f = make(Kind::kIf, Type::kSet, t.loc);
          f.kids.push_back(make(Kind::kWtm, Type::kBool, t.loc));
          for (Kinds k : {kWhiteKinds, kBlackKinds}) {
            Node d = make(Kind::kDesignator, Type::kSet, t.loc);
            d.kinds = k;
            d.squares = ~uint64_t(0);
            d.text = k == kWhiteKinds ? "A" : "a";
            f.kids.push_back(std::move(d));
          }
          n.kids[0] = std::move(f);
          continue;
        }
        if (accept("capture")) n.flags |= kPathFocusCapture;
        if (at_end()) fail("'focus' needs a set filter", "a set filter");
        Node f = expr(kLevelDash);
        need(f, Type::kSet, "'focus'");
        n.kids[0] = std::move(f);
      } else {
        break;
      }
    }
    if ((n.flags & kPathPiecePath) && n.kids[0].kind == Kind::kNone)
      throw Error(loc, "'piecepath' in 'path' needs 'focus'", "'focus SET' before it");
    if ((n.flags & kPathPrimary) && n.kids[0].kind != Kind::kNone)
      throw Error(loc, "'path' with both 'focus' and 'primary' is not supported (CQL 6.2)",
                  "'pathstart:depth==depth' as a constituent instead of 'primary'");
    if (n.flags & kPathLastPos) n.type = Type::kPosition;
    const bool saved_top = path_top_;
    const int saved_line = line_depth_;
    path_top_ = true;
    line_depth_ = 0;
    std::vector<Node> cons = path_cons(false);
    path_top_ = saved_top;
    line_depth_ = saved_line;
    if (cons.empty()) throw Error(loc, "'path' needs a constituent", "a move dash, a filter or '('");
    for (Node& c : cons) n.kids.push_back(std::move(c));
    return n;
  }

  /// True at a token that ends the constituents of a path (or of its group, `inner`).
  bool path_ends(bool inner) const {
    if (at_end() || is(")") || is("}") || is("then") || is("else")) return true;
    // a comparison after the path compares the path's value (CQL 6.2: `⊢ ... (x) >= 3`)
    if (!inner && (is("==") || is("!=") || is("<") || is("<=") || is(">") || is(">="))) return true;
    return !inner && cur().blank_line_before;
  }
  bool at_wildcard() const {
    return is("*") || is("+") || is("?") || is("{*}") || is("{+}") || cur().kind == Tok::kRepeat;
  }

  /// Constituents up to the end of the path (or of the group, `inner`).
  std::vector<Node> path_cons(bool inner) {
    std::vector<Node> out;
    std::optional<Node> pending;  // a dash met while reading the previous dash's targets
    while (pending || !path_ends(inner)) {
      Node con;
      if (pending) {
        con = std::move(*pending);
        pending.reset();
      } else if (is("(")) {
        const Loc loc = cur().loc;
        ++i_;
        con = make(Kind::kPathChain, Type::kBool, loc);
        con.kids = path_cons(true);
        if (con.kids.empty()) throw Error(loc, "an empty group '()' in 'path'", "constituents");
        expect(")");
      } else if (at_wildcard()) {
        fail("a path quantifier needs a move dash or a group '( )' before it", "a dash or '('");
      } else if (std::optional<Node> f = filter_if_starts()) {
        con = std::move(*f);
      } else {
        break;  // CQL 6.2: a word that starts no filter (a name assigned later) ends the path
      }
      if (con.kind == Kind::kDash) {
        // the targets: the filters after it, up to the next constituent
        Node targets = make(Kind::kCompound, Type::kBool, con.loc);
        if (con.kids[2].kind != Kind::kNone) targets.kids.push_back(std::move(con.kids[2]));
        while (!path_ends(inner) && !at_wildcard() && !is("(")) {
          std::optional<Node> target = filter_if_starts();
          if (!target) break;
          Node t = std::move(*target);
          if (t.kind == Kind::kDash) {
            pending = std::move(t);
            break;
          }
          check_holder(t);
          targets.kids.push_back(std::move(t));
        }
        if (!targets.kids.empty()) con.kids[2] = std::move(targets);
        con.type = Type::kBool;
      } else if (con.kind != Kind::kPathChain) {
        check_holder(con);
      }
      if (!pending && (con.kind == Kind::kDash || con.kind == Kind::kPathChain) && at_wildcard()) {
        Node rep = make(Kind::kPathRepeat, Type::kBool, cur().loc);
        if (is("*") || is("{*}")) rep.lo = 0, rep.hi = -1;
        else if (is("+") || is("{+}")) rep.lo = 1, rep.hi = -1;
        else if (is("?")) rep.lo = 0, rep.hi = 1;
        else rep.lo = cur().lo, rep.hi = cur().hi;
        ++i_;
        if (at_wildcard()) fail("two quantifiers in a row in 'path'", "one of * + ? {m,n}");
        rep.kids.push_back(std::move(con));
        con = std::move(rep);
      }
      out.push_back(std::move(con));
    }
    return out;
  }

  /// The filter at the cursor, or nothing (the cursor unchanged) at a name that is no filter,
  /// variable, function or parameter yet (`X` of `X = path ... X:check` after the path:
  /// CQL 6.2 ends the path there). Other errors are thrown. The filter is parsed once: a
  /// probe followed by a second parse doubled the work at each nested `path` (cql6_fuzz
  /// timed out on 30 nested paths).
  std::optional<Node> filter_if_starts() {
    if (cur().kind != Tok::kWord) return filter();
    const std::string& w = cur().text;
    if (slot_of(w, cur().loc, false) >= 0 || functions_.count(w) || is_parameter(w)) return filter();
    const size_t saved = i_;
    const Loc at = cur().loc;
    try {
      return filter();
    } catch (const Error& e) {
      const std::string what = e.what();
      if (e.loc().line == at.line && e.loc().column == at.column &&
          what.rfind("unknown filter, variable or function", 0) == 0) {
        i_ = saved;
        return std::nullopt;
      }
      throw;
    }
  }

  /// CQL 6.2 refuses a single number, a numeric variable or arithmetic as a constituent.
  void check_holder(const Node& t) const {
    if (t.kind == Kind::kNumber || t.kind == Kind::kArith || (t.kind == Kind::kVar && t.type == Type::kNumber))
      throw Error(t.loc, "a number as a path constituent (a range or a wildcard '+' '*' written apart?)",
                  "a filter in braces, or '{+}' '{*}' for wildcards");
  }

  Node dictionary(bool persistent) {
    if (cur().kind != Tok::kWord) fail("'dictionary' needs a name", "a dictionary name");
    const int slot = slot_of(cur().text, cur().loc, true);
    Variable& v = script_->vars[size_t(slot)];
    v.dictionary = true;
    v.persistent = v.persistent || persistent;
    Node n = make(Kind::kTrue, Type::kBool, cur().loc);
    ++i_;
    return n;
  }
  /// `D[key]` with the cursor on `[`.
  Node dict_get(int slot, Loc loc) {
    expect("[");
    Node key = filter();
    if (key.type == Type::kBool) throw Error(key.loc, "a dictionary key is a value", "a string, number, set or position");
    expect("]");
    Variable& v = script_->vars[size_t(slot)];
    if (v.key_type == Type::kBool) v.key_type = key.type;
    else if (v.key_type != key.type) throw Error(key.loc, "this dictionary's keys have another type");
    Node n = make(Kind::kDictGet, v.type, loc);
    n.kids.push_back(var_node(slot, loc));
    n.kids.push_back(std::move(key));
    return n;
  }
  /// After parsing: every variable node gets its final flags (persistent, piece) and type.
  void finish_vars(Node& n) const {
    if (n.kind == Kind::kDictGet && n.type == Type::kBool) {  // read before its first entry
      const Type t = script_->vars[size_t(n.kids[0].value)].type;
      n.type = t == Type::kBool ? Type::kNumber : t;
    }
    if (n.kind == Kind::kVar) {
      const Variable& v = script_->vars[size_t(n.value)];
      n.flags = (v.persistent ? uint32_t(kVarPersistent) : 0u) | (v.piece ? uint32_t(kVarPiece) : 0u) |
                (v.dictionary ? uint32_t(kVarDictionary) : 0u);
    }
    for (Node& k : n.kids) finish_vars(k);
  }

  Node pawns(PawnSet s) {
    Node n = make(Kind::kPawns, Type::kSet, cur().loc);
    n.sub = uint8_t(s);
    ++i_;
    return n;
  }

  Node result() {
    Node n = make(Kind::kResult, Type::kBool, cur().loc);
    ++i_;
    // 1-0, 0-1, 1/2-1/2 (lexed as numbers and operators) or a string
    if (cur().kind == Tok::kString) {
      const std::string& s = cur().text;
      n.value = s == "1-0" ? 1 : s == "0-1" ? 2 : s == "1/2-1/2" ? 3 : 0;
      if (!n.value) fail("unknown result \"" + s + "\"", "1-0, 0-1 or 1/2-1/2");
      ++i_;
      return n;
    }
    auto num = [&](int64_t v) { return cur().kind == Tok::kNumber && cur().number == v; };
    if (num(1) && peek().is("-") && peek(2).kind == Tok::kNumber && peek(2).number == 0) {
      n.value = 1;
      i_ += 3;
    } else if (num(0) && peek().is("-") && peek(2).kind == Tok::kNumber && peek(2).number == 1) {
      n.value = 2;
      i_ += 3;
    } else if (num(1) && peek().is("/") && peek(2).kind == Tok::kNumber && peek(2).number == 2 && peek(3).is("-") &&
               peek(4).kind == Tok::kNumber && peek(4).number == 1 && peek(5).is("/") &&
               peek(6).kind == Tok::kNumber && peek(6).number == 2) {
      n.value = 3;
      i_ += 7;
    } else {
      throw not_supported(n.loc, "result", "as a string value (without 1-0, 0-1 or 1/2-1/2)");
    }
    return n;
  }

  Node header_text() {
    const Loc loc = cur().loc;
    std::string w = cur().text;
    ++i_;
    Node n = make(Kind::kHeaderText, Type::kBool, loc);
    HeaderTag tag = w == "event" ? HeaderTag::kEvent : w == "site" ? HeaderTag::kSite : w == "date" ? HeaderTag::kDate
                    : w == "eco" ? HeaderTag::kEco : HeaderTag::kPlayer;
    if (w == "player" && cur().kind == Tok::kWord && (cur().text == "white" || cur().text == "black")) {
      tag = cur().text == "white" ? HeaderTag::kWhite : HeaderTag::kBlack;
      w += " " + cur().text;
      ++i_;
    }
    n.sub = uint8_t(tag);
    if (cur().kind != Tok::kString) {  // part 2: the tag's text as a string value
      if (w == "player") throw Error(loc, "'player' as a string value needs 'white' or 'black'", "player white, player black or a quoted text");
      n.kind = Kind::kHeaderValue;
      n.type = Type::kString;
      return n;
    }
    n.text = cur().text;
    ++i_;
    return n;
  }

  Node move() {
    Node n = make(Kind::kMove, Type::kBool, cur().loc);
    ++i_;
    for (int k = 0; k < 4; ++k) n.kids.push_back(make(Kind::kNone, Type::kSet, n.loc));
    bool first = true;
    while (cur().kind == Tok::kWord) {
      const std::string p = cur().text;
      const Loc ploc = cur().loc;
      int slot = p == "from" ? 0 : p == "to" ? 1 : p == "capture" ? 2 : p == "promote" ? 3 : -1;
      // CQL 6.2: `move from|to|capture ...` written first is a set filter, the from squares
      // (to squares, captured squares) of the moves that fit (kMove's sub: 1, 2, 3)
      if (first && slot >= 0 && slot < 3) n.sub = uint8_t(slot + 1);
      first = false;
      if (slot >= 0) {
        ++i_;
        Node a = expr(kLevelPrimary);
        need(a, Type::kSet, "'move " + p + "'");
        n.kids[size_t(slot)] = std::move(a);
        continue;
      }
      uint32_t f = p == "o-o" ? uint32_t(kMoveCastle | kMoveKingSide) : p == "o-o-o" ? uint32_t(kMoveCastle | kMoveQueenSide)
                   : p == "castle" ? uint32_t(kMoveCastle) : p == "enpassant" ? kMoveEnPassant : p == "null" ? kMoveNull
                   : p == "previous" ? kMovePrevious : p == "legal" ? kMoveLegal : p == "pseudolegal" ? kMovePseudoLegal
                   : p == "count" ? kMoveCount : p == "primary" ? kMovePrimary : p == "secondary" ? kMoveSecondary : 0u;
      if (!f && p == "comment" && !(n.flags & (kMoveLegal | kMovePseudoLegal))) {
        // CQL 6.2: `move ... comment (parts)` comments the position after the move when the
        // move fits (the last parameter: nothing follows it)
        ++i_;
        Node com = make(Kind::kComment, Type::kBool, ploc);
        if (is("(")) com.kids = arguments("comment", 0);
        else com.kids.push_back(expr(kLevelPrimary));
        n.kids.push_back(std::move(com));
        break;
      }
      if (!f) {
        if (p == "enpassantsquare" || p == "comment" || p == "o-o" || p == "o-o-o")
          throw not_supported(ploc, "move " + p);
        break;
      }
      ++i_;
      n.flags |= f;
    }
    if ((n.flags & kMovePrevious) && (n.flags & (kMoveLegal | kMovePseudoLegal)))
      throw Error(n.loc, "'move previous' cannot be 'legal' or 'pseudolegal'");
    if ((n.flags & kMoveCount) && !(n.flags & (kMoveLegal | kMovePseudoLegal)))
      throw Error(n.loc, "'count' in 'move' needs 'legal' or 'pseudolegal'");
    // CQL 6.2 counts the squares each piece may move to (MoveLegalNode::compute): a
    // promotion counts once, as for `legal --`
    if (n.flags & kMoveCount) n.type = Type::kNumber, n.flags |= kMoveCountSquares;
    else if (n.sub) n.type = Type::kSet;
    return n;
  }

  // ---- line
  Node line() {
    Node n = make(Kind::kLine, Type::kBool, cur().loc);
    ++i_;
    while (true) {
      if (accept("quiet")) n.flags |= kLineQuiet;
      else if (accept("singlecolor")) n.flags |= kLineSingleColor;
      else if (accept("lastposition")) n.flags |= kLineLastPosition;
      else if (cur().kind == Tok::kWord && (cur().text == "firstmatch" ||
                                            cur().text == "nestban" || cur().text == "primary" ||
                                            cur().text == "secondary"))
        throw not_supported(cur().loc, "line " + cur().text);
      else if (cur().kind == Tok::kNumber && !(n.flags & kLineHasRange)) {
        range(n.lo, n.hi, "line");
        n.flags |= kLineHasRange;
      } else {
        break;
      }
    }
    bool backward = false;
    if (accept("<--")) backward = true;
    else if (!accept("-->")) fail("'line' needs '-->' or '<--'", "'-->' or '<--'");
    if (backward) n.flags |= kLineBackward;
    ++line_depth_;
    n.kids = constituents(backward);
    --line_depth_;
    if (n.flags & kLineHasRange) n.type = Type::kBool;
    if (n.flags & kLineLastPosition) n.type = Type::kPosition;
    return n;
  }

  std::vector<Node> constituents(bool backward) {
    std::vector<Node> out;
    out.push_back(constituent(backward));
    while (true) {
      if (is(backward ? "-->" : "<--")) fail("arrow of the wrong direction in 'line'", backward ? "'<--'" : "'-->'");
      if (!accept(backward ? "<--" : "-->")) break;
      out.push_back(constituent(backward));
    }
    return out;
  }

  Node constituent(bool backward) {
    Node item = make(Kind::kLineItem, Type::kBool, cur().loc);
    item.lo = item.hi = 1;
    if (is("(")) {
      ++i_;
      item.flags |= kLineGroup;
      item.kids = constituents(backward);
      expect(")");
    } else {
      if (at_end() || is("}") || is(")")) fail("'line' needs a filter after the arrow", "a filter");
      Node f = filter();
      if (f.kind == Kind::kNumber) throw Error(f.loc, "a single number as a line constituent", "a filter");
      item.kids.push_back(std::move(f));
    }
    // wildcards: * + ? {m,n}
    while (true) {
      Node wrapped = make(Kind::kLineItem, Type::kBool, item.loc);
      if (is("*") || is("{*}")) {
        wrapped.lo = 0;
        wrapped.hi = -1;
      } else if (is("+") || is("{+}")) {
        wrapped.lo = 1;
        wrapped.hi = -1;
      } else if (is("?")) {
        wrapped.lo = 0;
        wrapped.hi = 1;
      } else if (cur().kind == Tok::kRepeat) {
        wrapped.lo = cur().lo;
        wrapped.hi = cur().hi;
      } else {
        break;
      }
      ++i_;
      if (item.lo == 1 && item.hi == 1 && !(item.flags & kLineGroup) && item.kids.size() == 1) {
        item.lo = wrapped.lo;  // a plain filter takes the repetition itself
        item.hi = wrapped.hi;
        continue;
      }
      wrapped.flags |= kLineGroup;
      wrapped.kids.push_back(std::move(item));
      item = std::move(wrapped);
    }
    return item;
  }
};

}  // namespace

Script parse(std::string_view text) {
  Parser p(lex(text));
  return p.script();
}

bool looks_like_cql6(std::string_view text) {
  try {
    std::vector<Token> t = lex(text);
    return t.size() >= 2 && t[0].kind == Tok::kWord && t[0].text == "cql" && t[1].is("(");
  } catch (const Error&) {
    // not lexable as CQL 6; look at the letters alone, after blanks and comments
    size_t i = 0;
    while (i < text.size()) {
      if (std::isspace(static_cast<unsigned char>(text[i]))) {
        ++i;
      } else if (text.substr(i, 2) == "//") {
        while (i < text.size() && text[i] != '\n') ++i;
      } else if (text.substr(i, 2) == "/*") {
        const size_t end = text.find("*/", i + 2);
        if (end == std::string_view::npos) return false;
        i = end + 2;
      } else {
        break;
      }
    }
    if (text.substr(i, 3) != "cql") return false;
    i += 3;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    return i < text.size() && text[i] == '(';
  }
}

}  // namespace cql6
