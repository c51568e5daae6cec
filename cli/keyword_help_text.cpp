#include "cli/keyword_help_text.h"

#include "cli/conventions.h"
#include "cql/keyword_help.h"
#include "cql/keywords.h"

namespace cli {

namespace {

std::string lists_of(const cql::KeywordInfo& info) {
  std::string out;
  for (cql::ListKind k : {cql::ListKind::Match, cql::ListKind::Position, cql::ListKind::Relation}) {
    if (!(info.lists & cql::list_bit(k))) continue;
    if (!out.empty()) out += ", ";
    out += std::string(cql::list_kind_name(k));
  }
  return out;
}

std::string_view origin_name(cql::Origin o) {
  switch (o) {
    case cql::Origin::Cql10: return "CQL 1.0";
    case cql::Origin::CqlS: return "CQL-S (Scidb's extension)";
    case cql::Origin::Legacy: return "older Scidb spelling (manual page CQL-Position-List)";
    case cql::Origin::SeeAlso: return "named in Scidb's index only";
  }
  return "";
}

/// "label:   value" with the value wrapped at `width`, continuation lines indented under it.
std::string field(std::string_view label, const std::string& value, size_t width) {
  constexpr size_t kIndent = 10;
  std::string text = wrap_text(value, kIndent, width);
  std::string head(label);
  head.resize(kIndent, ' ');
  return head + text.substr(kIndent);
}

}  // namespace

bool keyword_help_text(std::string_view topic, size_t width, bool command_line, std::string& text,
                       std::string& error) {
  std::string_view name = topic;
  if (!name.empty() && name.front() == '!') name.remove_prefix(1);
  for (std::string_view prefix : {"match:", "position:", "relation:"})
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size() - 1);
  if (!name.empty() && name.front() == ':') name.remove_prefix(1);
  const cql::KeywordInfo* info = cql::find_keyword(name);
  if (!info) {
    error = "no keyword ':" + std::string(name) + "'" + cql::did_you_mean(name) +
            "; `cqldb help keywords` lists them";
    return false;
  }
  const cql::KeywordHelp* row = cql::find_keyword_help(info->keyword);
  const cql::KeywordHelp help = row ? *row : cql::KeywordHelp{info->keyword, "Other keywords", 'P', "", ""};
  const std::string spelling = ":" + std::string(info->name);
  text = field("usage:", spelling + (info->usage.empty() ? "" : " " + std::string(info->usage)), width);
  text += field("meaning:", std::string(info->description), width);
  if (info->same_as) text += field("same as:", cql::keyword_spelling(*info->same_as), width);
  if (info->negation_of)
    text += field("means:", "!" + cql::keyword_spelling(*info->negation_of), width);
  text += field("lists:", lists_of(*info) + (info->negatable ? "; may be negated (!" + spelling + ")" : ""), width);
  text += field("family:", std::string(help.family) + "; " + std::string(origin_name(info->origin)), width);
  if (!help.source.empty()) text += field("source:", std::string(help.source), width);
  if (help.example.empty()) return true;
  text += field("example:", cql::example_script(help), width);
  if (command_line) {  // one command that can be pasted: split once with a '\' if too long
    const std::string script = "-e '" + cql::example_script(help) + "'";
    const std::string line = "try:      cqldb query --db sample-db " + script;
    text += line.size() <= width ? line + "\n"
                                 : "try:      cqldb query --db sample-db \\\n            " + script + "\n";
  }
  return true;
}

std::string keyword_list_text(size_t width) {
  std::string out, family, line;
  for (const cql::KeywordHelp& h : cql::all_keyword_help()) {
    if (h.family != family) {
      if (!line.empty()) out += wrap_text(line, 2, width);
      family = std::string(h.family);
      out += family + ":\n";
      line.clear();
    }
    line += (line.empty() ? ":" : " :") + std::string(cql::keyword_info(h.keyword).name);
  }
  if (!line.empty()) out += wrap_text(line, 2, width);
  line.clear();
  for (const cql::KeywordInfo& k : cql::all_keywords())
    if (!cql::find_keyword_help(k.keyword)) line += (line.empty() ? ":" : " :") + std::string(k.name);
  if (!line.empty()) out += "Other keywords:\n" + wrap_text(line, 2, width);
  out += wrap_text("`cqldb help :KEYWORD` explains one; docs/cql.md is the language guide.", 0, width);
  return out;
}

}  // namespace cli
