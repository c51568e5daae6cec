#include "cql/pawn_attributes.h"

namespace cql {

namespace {

// name, exact allowed, exact needs count, count min, count max, counting
constexpr PawnAttrInfo kAttrs[] = {
    {PawnAttr::Single, "single", true, false, 0, 0, false},
    {PawnAttr::Double, "double", true, false, 0, 0, false},
    {PawnAttr::Triple, "triple", true, false, 3, 6, false},
    {PawnAttr::Uno, "uno", true, false, 0, 0, false},
    {PawnAttr::Duo, "duo", true, false, 0, 0, false},
    {PawnAttr::Trio, "trio", true, false, 0, 0, false},
    {PawnAttr::Quart, "quart", true, false, 4, 8, false},
    {PawnAttr::Connected, "connected", false, false, 0, 0, false},
    {PawnAttr::Integrated, "integrated", false, false, 0, 0, false},
    {PawnAttr::Isolated, "isolated", false, false, 0, 0, false},
    {PawnAttr::HalfIsolated, "halfisolated", false, false, 0, 0, false},
    {PawnAttr::Defended, "defended", false, false, 0, 0, false},
    {PawnAttr::Defender, "defender", false, false, 0, 0, false},
    {PawnAttr::Chained, "chained", true, true, 2, 8, false},
    {PawnAttr::Passed, "passed", false, false, 0, 0, false},
    {PawnAttr::Candidate, "candidate", true, false, 0, 0, false},
    {PawnAttr::Blocked, "blocked", true, false, 0, 0, false},
    {PawnAttr::Unblocked, "unblocked", false, false, 0, 0, false},
    {PawnAttr::Behind, "behind", true, false, 0, 0, false},
    {PawnAttr::Stoppable, "stoppable", false, false, 0, 0, false},
    {PawnAttr::Unstoppable, "unstoppable", false, false, 0, 0, false},
    {PawnAttr::Stopped, "stopped", false, false, 0, 0, false},
    {PawnAttr::Backward, "backward", false, false, 0, 0, false},
    {PawnAttr::Advanced, "advanced", false, false, 0, 0, false},
    {PawnAttr::Consecutive, "consecutive", true, true, 2, 6, false},
    {PawnAttr::Inside, "inside", false, false, 0, 0, false},
    {PawnAttr::Symmetrical, "symmetrical", false, false, 0, 0, false},
    {PawnAttr::Mirrored, "mirrored", false, false, 0, 0, false},
    {PawnAttr::Forefront, "forefront", false, false, 0, 0, false},
    {PawnAttr::Rear, "rear", false, false, 0, 0, false},
    {PawnAttr::Islands, "islands", true, true, 1, 8, true},
    {PawnAttr::Compounds, "compounds", true, true, 1, 6, true},
    {PawnAttr::Files, "files", true, true, 1, 8, true},
    {PawnAttr::Ranks, "ranks", true, true, 1, 6, true},
    {PawnAttr::Lines, "lines", false, false, 0, 0, true},
    {PawnAttr::BothSides, "bothsides", false, false, 0, 0, true},
    {PawnAttr::OneSide, "oneside", false, false, 0, 0, true},
};

constexpr bool attrs_in_order() {
  for (size_t i = 0; i < std::size(kAttrs); ++i)
    if (static_cast<size_t>(kAttrs[i].attr) != i) return false;
  return true;
}
static_assert(attrs_in_order(), "kAttrs must follow the PawnAttr order");

}  // namespace

const PawnAttrInfo& pawn_attr_info(PawnAttr a) {
  return kAttrs[static_cast<size_t>(a)];
}

std::optional<std::vector<PawnAttribute>> parse_pawn_attributes(std::string_view word,
                                                                std::string& error,
                                                                size_t& offset) {
  std::vector<PawnAttribute> out;
  size_t pos = 0;
  bool counting_seen = false;
  while (pos <= word.size()) {
    size_t end = word.find('-', pos);
    if (end == std::string_view::npos) end = word.size();
    std::string_view part = word.substr(pos, end - pos);
    offset = pos;
    PawnAttribute a;
    if (!part.empty() && part[0] == '!') {
      a.negated = true;
      part.remove_prefix(1);
    }
    size_t name_len = 0;
    while (name_len < part.size() && part[name_len] >= 'a' && part[name_len] <= 'z') ++name_len;
    std::string_view name = part.substr(0, name_len);
    std::string_view rest = part.substr(name_len);
    const PawnAttrInfo* info = nullptr;
    for (const PawnAttrInfo& i : kAttrs)
      if (i.name == name) info = &i;
    if (!info) {
      error = "unknown pawn attribute '" + std::string(name.empty() ? part : name) + "'";
      return std::nullopt;
    }
    a.attr = info->attr;
    if (!rest.empty() && rest[0] == '!') {
      if (!info->exact_allowed) {
        error = "pawn attribute '" + std::string(name) + "' has no exact form '!'";
        return std::nullopt;
      }
      a.exact = true;
      rest.remove_prefix(1);
    }
    if (!rest.empty() && rest[0] == '(') {
      if (info->count_max == 0) {
        error = "pawn attribute '" + std::string(name) + "' takes no count";
        return std::nullopt;
      }
      int n = 0;
      size_t i = 1;
      while (i < rest.size() && rest[i] >= '0' && rest[i] <= '9' && n < 1000)
        n = n * 10 + (rest[i++] - '0');
      if (i == 1 || i >= rest.size() || rest[i] != ')') {
        error = "malformed count in pawn attribute '" + std::string(part) + "'";
        return std::nullopt;
      }
      if (n < info->count_min || n > info->count_max) {
        error = "count " + std::to_string(n) + " of '" + std::string(name) + "' is not in " +
                std::to_string(info->count_min) + ".." + std::to_string(info->count_max);
        return std::nullopt;
      }
      a.count = n;
      rest.remove_prefix(i + 1);
    }
    if (!rest.empty()) {
      error =
          "unexpected '" + std::string(rest) + "' in pawn attribute '" + std::string(part) + "'";
      return std::nullopt;
    }
    if (a.exact && info->exact_needs_count && !a.count) {
      error = "'" + std::string(name) + "!' needs a count, e.g. '" + std::string(name) + "!(" +
              std::to_string(info->count_min) + ")'";
      return std::nullopt;
    }
    if (counting_seen && !info->counting) {
      error = "counting attribute must come last; '" + std::string(name) + "' follows one";
      return std::nullopt;
    }
    counting_seen = counting_seen || info->counting;
    out.push_back(a);
    if (end == word.size()) break;
    pos = end + 1;
  }
  return out;
}

std::string to_string(const std::vector<PawnAttribute>& attrs) {
  std::string s;
  for (const PawnAttribute& a : attrs) {
    if (!s.empty()) s += '-';
    if (a.negated) s += '!';
    s += pawn_attr_info(a.attr).name;
    if (a.exact) s += '!';
    if (a.count) s += "(" + std::to_string(*a.count) + ")";
  }
  return s;
}

}  // namespace cql
