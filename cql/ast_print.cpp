#include "cql/ast_print.h"

#include <sstream>

namespace cql {

namespace {

class Printer {
 public:
  explicit Printer(const PrintOptions& o) : opt_(o) {}

  std::string list(const List& l, int depth) {
    if (opt_.pretty) {
      // Short lists stay on one line.
      std::string flat = Printer(PrintOptions{}).list(l, 0);
      if (flat.size() + size_t(depth * opt_.indent) <= 72 && flat.find('\n') == std::string::npos)
        return flat;
    }
    std::string s = "(";
    bool relation = l.kind == ListKind::Relation;
    if (l.kind == ListKind::Match) s += "match";
    if (l.kind == ListKind::Position) s += "position";
    std::vector<std::string> items;
    if (l.negated) items.push_back(":not");
    for (const Element& e : l.elements) items.push_back(element(e, depth + 1));
    for (size_t i = 0; i < items.size(); ++i) {
      if (opt_.pretty && !relation) {
        s += "\n" + indent(depth + 1);
      } else if (i > 0 || !relation) {
        s += " ";
      }
      s += items[i];
    }
    return s + ")";
  }

  std::string keyword(const KeywordItem& k, int depth) {
    std::string s = keyword_spelling(k.keyword);
    std::visit([&](const auto& a) { args(s, k, a, depth); }, k.args);
    return s;
  }

 private:
  std::string indent(int depth) const { return std::string(size_t(depth * opt_.indent), ' '); }

  std::string element(const Element& e, int depth) {
    if (const auto* pd = std::get_if<PieceDesignator>(&e)) return to_string(*pd);
    if (const auto* l = std::get_if<Box<List>>(&e)) return list(**l, depth);
    return keyword(std::get<KeywordItem>(e), depth);
  }

  static std::string quote(const std::string& text) { return "\"" + text + "\""; }

  static std::string ranges(const std::vector<Range>& rs) {
    std::string s;
    for (size_t i = 0; i < rs.size(); ++i) s += (i ? " : " : "") + to_string(rs[i]);
    return s;
  }

  static void designators(std::string& s, const std::vector<PieceDesignator>& ps) {
    for (const PieceDesignator& pd : ps) s += " " + to_string(pd);
  }

  void args(std::string&, const KeywordItem&, const NoArgs&, int) {}

  void args(std::string& s, const KeywordItem& k, const SubListArgs& a, int depth) {
    Signature sig = k.info().signature;
    auto lists = [&](int d) {
      std::string out;
      for (size_t i = 0; i < a.lists.size(); ++i) {
        if (opt_.pretty)
          out += "\n" + indent(d);
        else if (i)
          out += " ";
        out += list(a.lists[i], d);
      }
      return out;
    };
    if (sig == Signature::OptSubList || sig == Signature::RelationSpec) {
      for (const List& l : a.lists) s += " " + list(l, depth);
    } else if (sig == Signature::Cond && !a.wrapped) {
      for (const List& l : a.lists) s += " " + list(l, depth);
    } else {
      s += " (" + lists(depth + 1) + ")";
    }
  }

  void args(std::string& s, const KeywordItem&, const DesignatorArgs& a, int) {
    designators(s, a.pieces);
    if (a.region)
      s += " " + (to_string(*a.region).empty() ? std::string("??") : to_string(*a.region));
  }

  void args(std::string& s, const KeywordItem&, const CountArgs& a, int) {
    designators(s, a.pieces);
    if (a.plus_form && a.ranges.size() == 2) {
      s += " +" + std::to_string(a.ranges[0].lo->value) + "+" +
           std::to_string(a.ranges[1].lo->value);
      return;
    }
    if (!a.ranges.empty()) s += " " + ranges(a.ranges);
  }

  void args(std::string& s, const KeywordItem&, const PawnCountArgs& a, int) {
    designators(s, a.pieces);
    s += " " + to_string(a.attributes);
    if (!a.ranges.empty()) s += " " + ranges(a.ranges);
  }

  void args(std::string& s, const KeywordItem&, const RayArgs& a, int) {
    s += " (";
    for (size_t i = 0; i < a.ray.size(); ++i) s += (i ? " " : "") + to_string(a.ray[i]);
    s += ")";
    if (a.range) s += " " + to_string(*a.range);
  }

  void args(std::string& s, const KeywordItem& k, const LineArgs& a, int) {
    LineArgs copy = a;
    if (k.keyword == Keyword::LineStar) copy.transposition = false;  // implied by :line*
    s += " " + to_string(copy);
  }

  void args(std::string& s, const KeywordItem&, const FenArgs& a, int) { s += " " + quote(a.fen); }

  void args(std::string& s, const KeywordItem&, const NameArgs& a, int) {
    s += " " + a.name;
    if (a.piece) s += " " + to_string(*a.piece);
    if (a.range) s += " " + to_string(*a.range);
  }

  void args(std::string& s, const KeywordItem& k, const EvaluationArgs& a, int) {
    if (k.keyword == Keyword::ExchangeEvaluation) {
      if (a.exchange_depth_unlimited) s += " *";
      if (a.exchange_depth) s += " " + std::to_string(*a.exchange_depth);
      if (a.score) s += " " + to_string(*a.score);
      designators(s, a.pieces);
      return;
    }
    designators(s, a.pieces);
    if (a.limit) s += " " + std::string(to_string(*a.limit)) + " " + std::to_string(a.limit_value);
    if (a.mate) s += " mate";
    if (a.score) s += " " + to_string(*a.score);
    if (a.view) s += " " + std::string(to_string(*a.view));
  }

  void args(std::string& s, const KeywordItem&, const EndgameArgs& a, int) {
    s += " " + std::string(to_string(a.outcome));
    if (a.plies) s += " " + to_string(*a.plies);
  }

  void args(std::string& s, const KeywordItem&, const TextArgs& a, int) {
    for (const TextPattern& p : a.patterns) s += " " + (p.quoted ? quote(p.text) : p.text);
  }

  template <class E>
  void args(std::string& s, const KeywordItem&, const ChoiceArgs<E>& a, int) {
    for (size_t i = 0; i < a.values.size(); ++i)
      s += (i ? "," : " ") + std::string(to_string(a.values[i]));
  }

  void args(std::string& s, const KeywordItem&, const CodeListArgs& a, int) {
    for (size_t i = 0; i < a.codes.size(); ++i) s += (i ? "," : " ") + a.codes[i];
  }

  void args(std::string& s, const KeywordItem&, const DateArgs& a, int) {
    s += " " + to_string(a.range);
  }

  void args(std::string& s, const KeywordItem&, const EcoArgs& a, int) {
    if (a.special == Range::Kind::Any)
      s += " *";
    else if (a.special == Range::Kind::Missing)
      s += " -";
    for (size_t i = 0; i < a.ranges.size(); ++i) s += (i ? "," : " ") + to_string(a.ranges[i]);
  }

  void args(std::string& s, const KeywordItem&, const RatingArgs& a, int) {
    s += " " + std::string(to_string(a.system)) + " " + to_string(a.range);
  }

  void args(std::string& s, const KeywordItem&, const StartPositionArgs& a, int) {
    if (a.any) s += " *";
    for (size_t i = 0; i < a.entries.size(); ++i) {
      const StartPositionSpec& e = a.entries[i];
      s += i ? "," : " ";
      if (!e.fics.empty())
        s += e.fics;
      else if (e.first == e.last)
        s += std::to_string(e.first);
      else
        s += std::to_string(e.first) + "-" + std::to_string(e.last);
    }
  }

  PrintOptions opt_;
};

}  // namespace

std::string to_string(const LineArgs& line) {
  std::string s = "(";
  for (size_t i = 0; i < line.moves.size(); ++i) {
    if (i) s += " ";
    if (line.potential_from && *line.potential_from == i) s += "| ";
    // a line in standard algebraic notation prints as written, so that it parses as SAN again
    s += line.san ? line.moves[i].text : to_string(line.moves[i]);
  }
  if (line.transposition) s += " *";
  return s + ")";
}

std::string to_string(const Script& script, const PrintOptions& options) {
  return Printer(options).list(script.match, 0);
}

std::string to_string(const List& list, const PrintOptions& options) {
  return Printer(options).list(list, 0);
}

std::string to_string(const KeywordItem& item, const PrintOptions& options) {
  return Printer(options).keyword(item, 0);
}

}  // namespace cql
