// Readers of player lists (headers/players.h): FIDE's fixed-width TXT and a simple CSV.
#include <cctype>
#include <charconv>
#include <fstream>
#include <stdexcept>

#include "headers/players.h"

namespace headers::players {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

std::optional<int64_t> number(std::string_view s) {
  s = trim(s);
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

/// A year 1..9999 ("0000" and blanks are unknown); a full date "1963-04-13" gives its year.
std::optional<int> year(std::string_view s) {
  s = trim(s);
  if (s.size() > 4 && (s[4] == '-' || s[4] == '.' || s[4] == '/')) s = s.substr(0, 4);
  std::optional<int64_t> v = number(s);
  if (!v || *v <= 0 || *v > 9999) return std::nullopt;
  return int(*v);
}

/// "m", "f" or "" from M/F/male/female/man/woman/w (any case).
std::string sex_code(std::string_view s) {
  std::string u = upper(trim(s));
  if (u == "M" || u == "MALE" || u == "MAN") return "m";
  if (u == "F" || u == "W" || u == "FEMALE" || u == "WOMAN") return "f";
  return "";
}

bool getline_utf8(std::istream& in, std::string& line) {
  if (!std::getline(in, line)) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

/// The fields of one CSV line (RFC 4180 quotes; no newlines inside fields). False when a
/// quote is not closed.
bool csv_fields(std::string_view line, std::vector<std::string>& out) {
  out.clear();
  std::string field;
  size_t i = 0;
  for (;;) {
    field.clear();
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i >= line.size()) return false;
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      while (i < line.size() && line[i] != ',') ++i;  // text after the closing quote: ignored
    } else {
      while (i < line.size() && line[i] != ',') field += line[i++];
    }
    out.push_back(std::string(trim(field)));
    if (i >= line.size()) return true;
    ++i;  // the comma
  }
}

}  // namespace

std::vector<PlayerRecord> read_fide_txt(std::istream& in, std::vector<ListError>& errors) {
  std::string header;
  if (!getline_utf8(in, header)) throw std::runtime_error("the FIDE list is empty");
  // Column labels and where they start; "ID Number" is one label.
  struct Column {
    std::string label;
    size_t start;
  };
  std::vector<Column> columns;
  for (size_t i = 0; i < header.size();) {
    if (header[i] == ' ' || header[i] == '\t') {
      ++i;
      continue;
    }
    size_t j = i;
    while (j < header.size() && header[j] != ' ' && header[j] != '\t') ++j;
    std::string label = header.substr(i, j - i);
    if (label == "Number" && !columns.empty() && columns.back().label == "ID")
      columns.back().label = "ID Number";
    else
      columns.push_back({label, i});
    i = j;
  }
  auto find = [&](std::string_view label) -> int {
    for (size_t k = 0; k < columns.size(); ++k)
      if (columns[k].label == label) return int(k);
    return -1;
  };
  const int id_col = find("ID Number"), name_col = find("Name");
  if (id_col < 0 || name_col < 0)
    throw std::runtime_error("line 1: not a FIDE list header (needs the columns 'ID Number' and 'Name')");
  const int fed = find("Fed"), sex = find("Sex"), tit = find("Tit"), wtit = find("WTit"),
            bday = find("B-day"), flag = find("Flag");
  std::vector<PlayerRecord> out;
  std::string line;
  size_t line_no = 1;
  while (getline_utf8(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    auto field = [&](int col) -> std::string_view {
      if (col < 0) return {};
      const size_t start = columns[size_t(col)].start;
      if (start >= line.size()) return {};
      const size_t end = size_t(col) + 1 < columns.size() ? columns[size_t(col) + 1].start : line.size();
      return trim(std::string_view(line).substr(start, end - start));
    };
    PlayerRecord r;
    r.fide_id = number(field(id_col));
    r.name = std::string(field(name_col));
    if (!r.fide_id || r.name.empty()) {
      errors.push_back({line_no, "expected an ID number and a name under their columns"});
      continue;
    }
    r.country = upper(field(fed));
    r.sex = sex_code(field(sex));
    if (r.sex.empty() && field(flag).find('w') != std::string_view::npos) r.sex = "f";
    r.title = upper(field(tit));
    if (r.title.empty()) r.title = upper(field(wtit));
    r.birth = year(field(bday));
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PlayerRecord> read_players_csv(std::istream& in, std::vector<ListError>& errors) {
  std::string line;
  if (!getline_utf8(in, line)) throw std::runtime_error("the player list is empty");
  if (line.starts_with("\xEF\xBB\xBF")) line.erase(0, 3);  // UTF-8 byte order mark
  std::vector<std::string> fields;
  if (!csv_fields(line, fields)) throw std::runtime_error("line 1: unclosed quote in the CSV header");
  int name = -1, fide = -1, country = -1, sex = -1, title = -1, birth = -1, death = -1;
  for (size_t k = 0; k < fields.size(); ++k) {
    const std::string h = upper(fields[k]);
    int* slot = h == "NAME" ? &name : h == "FIDE_ID" ? &fide : h == "COUNTRY" ? &country
              : h == "SEX" ? &sex : h == "TITLE" ? &title : h == "BIRTH" ? &birth
              : h == "DEATH" ? &death : nullptr;
    if (slot) *slot = int(k);
  }
  if (name < 0)
    throw std::runtime_error("line 1: expected the CSV header name,fide_id,country,sex,title,birth,death");
  std::vector<PlayerRecord> out;
  size_t line_no = 1;
  while (getline_utf8(in, line)) {
    ++line_no;
    if (trim(line).empty()) continue;
    if (!csv_fields(line, fields)) {
      errors.push_back({line_no, "unclosed quote"});
      continue;
    }
    auto field = [&](int col) -> std::string_view {
      return col >= 0 && size_t(col) < fields.size() ? std::string_view(fields[size_t(col)]) : std::string_view();
    };
    PlayerRecord r;
    r.name = std::string(field(name));
    if (r.name.empty()) {
      errors.push_back({line_no, "no name"});
      continue;
    }
    if (!field(fide).empty()) {
      r.fide_id = number(field(fide));
      if (!r.fide_id) {
        errors.push_back({line_no, "fide_id '" + std::string(field(fide)) + "' is not a number"});
        continue;
      }
    }
    r.country = upper(field(country));
    r.sex = sex_code(field(sex));
    r.title = upper(field(title));
    r.birth = year(field(birth));
    r.death = year(field(death));
    if ((!field(birth).empty() && !r.birth) || (!field(death).empty() && !r.death)) {
      errors.push_back({line_no, "birth and death must be years (or dates YYYY-MM-DD)"});
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<PlayerRecord> read_player_list(const std::string& path, std::vector<ListError>& errors) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string first;
  std::getline(in, first);
  in.clear();
  in.seekg(0);
  if (trim(first).starts_with("ID Number")) return read_fide_txt(in, errors);
  return read_players_csv(in, errors);
}

}  // namespace headers::players
