#include "cql/ast.h"

namespace cql {

std::vector<const KeywordItem*> List::keywords() const {
  std::vector<const KeywordItem*> out;
  for (const Element& e : elements)
    if (const auto* k = std::get_if<KeywordItem>(&e)) out.push_back(k);
  return out;
}

std::vector<const PieceDesignator*> List::designators() const {
  std::vector<const PieceDesignator*> out;
  for (const Element& e : elements)
    if (const auto* d = std::get_if<PieceDesignator>(&e)) out.push_back(d);
  return out;
}

std::vector<const List*> List::position_lists() const {
  std::vector<const List*> out;
  for (const Element& e : elements)
    if (const auto* l = std::get_if<Box<List>>(&e)) out.push_back(&**l);
  return out;
}

const KeywordItem* List::find(Keyword k) const {
  for (const Element& e : elements)
    if (const auto* item = std::get_if<KeywordItem>(&e); item && item->keyword == k) return item;
  return nullptr;
}

void walk(const List& list, const std::function<void(const KeywordItem&)>& on_keyword,
          const std::function<void(const PieceDesignator&)>& on_designator) {
  auto designator = [&](const PieceDesignator& pd) {
    if (on_designator) on_designator(pd);
  };
  for (const Element& e : list.elements) {
    if (const auto* pd = std::get_if<PieceDesignator>(&e)) {
      designator(*pd);
      continue;
    }
    if (const auto* sub = std::get_if<Box<List>>(&e)) {
      walk(**sub, on_keyword, on_designator);
      continue;
    }
    const KeywordItem& k = std::get<KeywordItem>(e);
    if (on_keyword) on_keyword(k);
    std::visit(
        [&](const auto& a) {
          using A = std::decay_t<decltype(a)>;
          if constexpr (std::is_same_v<A, SubListArgs>) {
            for (const List& l : a.lists) walk(l, on_keyword, on_designator);
          } else if constexpr (std::is_same_v<A, DesignatorArgs> || std::is_same_v<A, CountArgs> ||
                               std::is_same_v<A, PawnCountArgs> ||
                               std::is_same_v<A, EvaluationArgs>) {
            for (const PieceDesignator& d : a.pieces) designator(d);
          } else if constexpr (std::is_same_v<A, RayArgs>) {
            for (const PieceDesignator& d : a.ray) designator(d);
          } else if constexpr (std::is_same_v<A, NameArgs>) {
            if (a.piece) designator(*a.piece);
          } else if constexpr (std::is_same_v<A, LineArgs>) {
            for (const LineMove& m : a.moves) {
              designator(m.from);
              designator(m.to);
              if (m.promotion) designator(*m.promotion);
            }
          }
        },
        k.args);
  }
}

}  // namespace cql
