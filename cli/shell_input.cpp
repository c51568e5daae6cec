#include "cli/shell_input.h"

namespace cli {

namespace {

bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// Walks `text` under the rules of the file comment in shell_input.h, calling
/// `on_separator(i)` for each `;` outside parentheses and strings.
template <typename OnSeparator>
Balance walk(std::string_view text, OnSeparator on_separator) {
  Balance b;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (b.in_string) {
      if (c == '\\' && i + 1 < text.size()) {
        ++i;
      } else if (c == '"') {
        b.in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        b.in_string = true;
        break;
      case '(':
        ++b.depth;
        break;
      case ')':
        --b.depth;
        break;
      case ';':
        if (b.depth > 0) {  // a CQL comment: skip to the end of the line
          while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else {
          on_separator(i);
        }
        break;
      default:
        break;
    }
  }
  return b;
}

}  // namespace

std::string_view trim(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

std::string one_line(std::string_view text, size_t max_chars) {
  std::string out;
  bool blank = false;
  for (char c : trim(text)) {
    if (is_blank(c)) {
      blank = true;
      continue;
    }
    if (blank) out += ' ';
    blank = false;
    out += c;
  }
  if (out.size() > max_chars) {
    size_t cut = max_chars > 3 ? max_chars - 3 : 0;
    while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    out = out.substr(0, cut) + "...";
  }
  return out;
}

Balance scan_balance(std::string_view text) {
  return walk(text, [](size_t) {});
}

std::vector<std::string> split_commands(std::string_view text) {
  std::vector<std::string> commands;
  size_t start = 0;
  auto add = [&](size_t end) {
    std::string_view piece = trim(text.substr(start, end - start));
    if (!piece.empty()) commands.emplace_back(piece);
    start = end + 1;
  };
  walk(text, add);
  add(text.size());
  return commands;
}

void CommandAssembler::add_line(std::string_view line) {
  if (!needs_more()) {
    std::string_view t = trim(line);
    if (!t.empty() && (t.front() == ';' || t.front() == '#')) return;  // a comment line
  }
  if (!pending_.empty()) pending_ += '\n';
  pending_ += line;
}

bool CommandAssembler::needs_more() const {
  if (pending_.empty()) return false;
  Balance b = scan_balance(pending_);
  return b.depth > 0 || b.in_string;
}

std::vector<std::string> CommandAssembler::take_commands() {
  std::vector<std::string> commands = split_commands(pending_);
  pending_.clear();
  return commands;
}

bool split_words(std::string_view text, std::vector<std::string>& words, std::string& error) {
  words.clear();
  std::string word;
  bool in_word = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (is_blank(c)) {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
      continue;
    }
    in_word = true;
    if (c != '"') {
      word += c;
      continue;
    }
    size_t j = i + 1;
    for (; j < text.size() && text[j] != '"'; ++j) {
      if (text[j] == '\\' && j + 1 < text.size() && (text[j + 1] == '"' || text[j + 1] == '\\'))
        ++j;
      word += text[j];
    }
    if (j >= text.size()) {
      error = "unterminated quote";
      return false;
    }
    i = j;
  }
  if (in_word) words.push_back(std::move(word));
  return true;
}

}  // namespace cli
