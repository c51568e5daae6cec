// Checks that need the whole script: $tag declarations and :eithercolor vs :flipcolor.
#include <set>

#include "cql/parser_impl.h"

namespace cql::detail {

void check_script(const Parser& p, const Script& s) {
  std::set<std::string> tags;
  const KeywordItem* either = nullptr;
  for (const KeywordItem* k : s.match.keywords()) {
    if (k->keyword == Keyword::ForAny) tags.insert(k->as<NameArgs>().name);
    if (k->keyword == Keyword::EitherColor) either = k;
  }
  walk(
      s.match,
      [&](const KeywordItem& k) {
        if (k.keyword == Keyword::ForAny) tags.insert(k.as<NameArgs>().name);
      },
      [](const PieceDesignator&) {});
  walk(
      s.match,
      [&](const KeywordItem& k) {
        if (k.keyword == Keyword::TagMatch && !tags.count(k.as<NameArgs>().name))
          p.fail_at(k.loc, ":tagmatch", "tag '" + k.as<NameArgs>().name + "' is not declared",
                    "a tag declared with ':forany " + k.as<NameArgs>().name +
                        " <piece>' in the match list");
        if (k.keyword == Keyword::FlipColor && either)
          p.fail_at(k.loc, ":flipcolor",
                    "':flipcolor' cannot be used when the match list has ':eithercolor'",
                    "either ':eithercolor' or ':flipcolor'");
      },
      [&](const PieceDesignator& pd) {
        if (!pd.tag.empty() && !tags.count(pd.tag))
          p.fail_at(pd.loc, pd.text, "tag '$" + pd.tag + "' is not declared",
                    "a tag declared with ':forany " + pd.tag + " <piece>' in the match list");
      });
}

}  // namespace cql::detail
