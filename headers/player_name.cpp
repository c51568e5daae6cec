#include "headers/player_name.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace headers {

namespace {

/// The base letter of a folded (lower-case) Latin-1 or Latin Extended-A letter with an
/// accent, or the letter itself. "ß" stays (no single base letter).
char32_t drop_accent(char32_t c) {
  if (c < 0xE0) return c;
  if (c <= 0xFF) {
    // U+00E0..U+00FF; '/' = no plain base letter (æ, ð, ÷, ø, þ).
    static const char kLatin1[] = "aaaaaa/ceeeeiiii/nooooo//uuuuy/y";
    const char base = kLatin1[c - 0xE0];
    return base == '/' ? c : char32_t(base);
  }
  if (c <= 0x17F) {
    // U+0100..U+017F: capital and small letters alternate; '/' = keep (ĳ, ŋ, œ).
    static const char kExtendedA[] =
        "aaaaaaccccccccddddeeeeeeeeeegggggggghhhhiiiiiiiiii//jjkkkllllllllllnnnnnnn//"
        "oooooo//rrrrrrssssssssttttttuuuuuuuuuuuuwwyyyzzzzzzs";
    const char base = kExtendedA[c - 0x100];
    return base == '/' ? c : char32_t(base);
  }
  if (c == 0x219) return U's';  // Romanian comma letters
  if (c == 0x21B) return U't';
  return c;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

bool is_blank(char32_t c) { return c == U' ' || c == U'\t' || c == 0xA0 || c == U'_'; }

/// The words of `text` (folded, accents dropped), split at blanks and dots.
std::vector<std::u32string> words(std::u32string_view text) {
  std::vector<std::u32string> out;
  std::u32string word;
  for (char32_t c : text) {
    if (is_blank(c) || c == U'.') {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
      continue;
    }
    word += drop_accent(fold_case(c));
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

std::string join(const std::vector<std::u32string>& w, size_t from, size_t to) {
  std::string out;
  for (size_t i = from; i < to; ++i) {
    if (i > from) out += ' ';
    for (char32_t c : w[i]) append_utf8(out, c);
  }
  return out;
}

/// The surname words and the given-name words of `name`: split at the first comma, or, without
/// a comma, before a last word of one or two capital letters ("Carlsen M.", "Jobava BA").
void split_name(std::string_view name, std::vector<std::u32string>& surname,
                std::vector<std::u32string>& given, bool& has_given, bool* capitals_only = nullptr) {
  if (capitals_only) *capitals_only = false;
  std::u32string text = decode_utf8(name);
  size_t comma = text.find(U',');
  if (comma != std::u32string::npos) {
    surname = words(std::u32string_view(text).substr(0, comma));
    given = words(std::u32string_view(text).substr(comma + 1));
    has_given = true;
    return;
  }
  // Without a comma: the last blank-separated word, dots stripped, of 1-2 capitals.
  size_t end = text.find_last_not_of(U" \t.");
  size_t start = end == std::u32string::npos ? 0 : text.find_last_of(U" \t", end);
  if (end != std::u32string::npos && start != std::u32string::npos) {
    std::u32string last;
    for (size_t i = start + 1; i <= end; ++i)
      if (text[i] != U'.') last += text[i];
    bool capitals = !last.empty() && last.size() <= 2;
    for (char32_t c : last) capitals = capitals && fold_case(c) != c;
    if (capitals) {
      if (capitals_only) *capitals_only = true;
      surname = words(std::u32string_view(text).substr(0, start));
      given = words(last);
      has_given = true;
      return;
    }
  }
  surname = words(text);
  given.clear();
  has_given = false;
}

}  // namespace

std::string player_key(std::string_view name) {
  std::vector<std::u32string> surname, given;
  bool has_given = false;
  split_name(name, surname, given, has_given);
  std::string key = join(surname, 0, surname.size());
  if (has_given) {
    key += ',';
    if (!given.empty()) {
      key += ' ';
      append_utf8(key, given[0][0]);
    }
  }
  return key;
}

std::string full_name_key(std::string_view name) {
  std::vector<std::u32string> surname, given;
  bool has_given = false;
  split_name(name, surname, given, has_given);
  std::string key = join(surname, 0, surname.size());
  if (has_given) {
    key += ',';
    if (!given.empty()) key += ' ' + join(given, 0, given.size());
  }
  return key;
}

PlayerMatcher::PlayerMatcher(std::string_view text, bool quoted)
    : text_(text), pattern_(quoted ? text : std::string_view()), quoted_(quoted) {}

bool PlayerMatcher::matches(std::string_view name) const {
  if (!quoted_) return contains_ignoring_case(name, text_);
  // A case-sensitive pattern (`!...`) asks about the spelling's letters: the key, folded to
  // lower case, is not tried.
  if (pattern_.matches(name)) return true;
  return !(text_.starts_with("!")) && pattern_.matches(player_key(name));
}

bool is_plain_name(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      ++i;
      continue;
    }
    if (text[i] == '*' || text[i] == '?') return false;
  }
  return true;
}

std::vector<std::string> player_group_keys(const std::vector<std::string_view>& names) {
  struct Parsed {
    std::string surname;      // folded surname words
    std::string first;        // the first given name, folded ("" = none)
    bool initials = false;    // the given names are initials only ("Lasker, E", "Carlsen M")
    bool comma_full = false;  // "Surname, First" with a full first name
    std::vector<std::string> all_words;  // every word, sorted (first-name-first matching)
  };
  std::vector<Parsed> parsed(names.size());
  // (surname, initial) -> the distinct full first names with that initial.
  std::map<std::pair<std::string, std::string>, std::set<std::string>> full_by_initial;
  // sorted words of a "Surname, First" spelling -> its key ("" when two keys share them).
  std::map<std::vector<std::string>, std::string> full_by_words;
  for (size_t i = 0; i < names.size(); ++i) {
    std::vector<std::u32string> surname, given;
    bool has_given = false, capitals = false;
    split_name(names[i], surname, given, has_given, &capitals);
    Parsed& p = parsed[i];
    p.surname = join(surname, 0, surname.size());
    for (const auto& w : surname) p.all_words.push_back(join({w}, 0, 1));
    for (const auto& w : given) p.all_words.push_back(join({w}, 0, 1));
    std::sort(p.all_words.begin(), p.all_words.end());
    if (!has_given || given.empty()) continue;
    p.first = join(given, 0, 1);
    p.initials = capitals || given[0].size() == 1;
    if (p.initials) continue;
    p.comma_full = names[i].find(',') != std::string_view::npos;
    std::string initial;
    append_utf8(initial, given[0][0]);
    full_by_initial[{p.surname, initial}].insert(p.first);
    if (p.comma_full) {
      const std::string key = p.surname + ", " + p.first;
      auto [it, inserted] = full_by_words.emplace(p.all_words, key);
      if (!inserted && it->second != key) it->second.clear();
    }
  }
  std::vector<std::string> keys(names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const Parsed& p = parsed[i];
    if (p.first.empty()) {  // no given name: "Emanuel Lasker" joins "Lasker, Emanuel"
      auto it = full_by_words.find(p.all_words);
      keys[i] = it != full_by_words.end() && !it->second.empty() ? it->second : player_key(names[i]);
    } else if (!p.initials) {
      keys[i] = p.surname + ", " + p.first;
    } else {  // initials join the one full name with that initial, else stay apart
      const std::u32string first = decode_utf8(p.first);
      std::string initial;
      append_utf8(initial, first[0]);
      auto it = full_by_initial.find({p.surname, initial});
      keys[i] = p.surname + ", " + (it != full_by_initial.end() && it->second.size() == 1 ? *it->second.begin() : initial);
    }
  }
  return keys;
}

}  // namespace headers
