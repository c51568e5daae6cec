#include "cql/designator.h"

#include <array>
#include <vector>

namespace cql {

namespace {

bool is_file(char c) {
  return c >= 'a' && c <= 'h';
}
bool is_rank(char c) {
  return c >= '1' && c <= '8';
}
bool is_tag_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

[[noreturn]] void fail(size_t offset, std::string message, std::string expected = {}) {
  throw DesignatorError{offset, std::move(message), std::move(expected)};
}

std::string quote(char c) {
  return std::string("'") + c + "'";
}

// One part (files or ranks) of a square designator: an 8-bit set, or the light/dark marker.
struct Part {
  uint8_t set = 0;  // bit i = file a+i (or rank 1+i)
  char color = 0;   // 'L' or 'D' when the part is a colour marker
};

chess::Bitboard combine(const Part& files, const Part& ranks) {
  chess::Bitboard bb = 0;
  uint8_t fs = files.color ? 0xFF : files.set;
  uint8_t rs = ranks.color ? 0xFF : ranks.set;
  for (int r = 0; r < 8; ++r)
    for (int f = 0; f < 8; ++f)
      if ((fs >> f & 1) && (rs >> r & 1)) bb |= chess::Bitboard(1) << (r * 8 + f);
  char color = files.color ? files.color : ranks.color;
  if (color == 'L') bb &= kLightSquares;
  if (color == 'D') bb &= kDarkSquares;
  return bb;
}

class SquareReader {
 public:
  SquareReader(std::string_view text, size_t& pos) : t_(text), p_(pos) {}

  static bool starts_square(char c) {
    return is_file(c) || c == '?' || c == 'L' || c == 'D' || c == '[';
  }

  SquareDesignator read() {
    SquareDesignator sd;
    if (p_ >= t_.size() || !starts_square(t_[p_])) return sd;  // omitted: all squares
    sd.written = true;
    if (t_[p_] == '[') {
      size_t close = t_.find(']', p_);
      if (close == std::string_view::npos) fail(p_, "missing ']' in square designator", "']'");
      std::string_view content = t_.substr(p_ + 1, close - p_ - 1);
      if (is_set_of(content, is_file)) {
        Part files = file_part();
        Part ranks = rank_part(files);
        sd.squares = combine(files, ranks);
        return sd;
      }
      read_list(sd, close);
      return sd;
    }
    Part files = file_part();
    Part ranks = rank_part(files);
    sd.squares = combine(files, ranks);
    return sd;
  }

 private:
  // True if `content` is a non-empty bracketed file (or rank) set like "ac", "a-h", "27".
  static bool is_set_of(std::string_view content, bool (*member)(char)) {
    if (content.empty()) return false;
    for (char c : content)
      if (!member(c) && c != '-') return false;
    return true;
  }

  // Reads `[...]` of files or ranks; `p_` is at '['.
  uint8_t bracket_set(bool (*member)(char), char base, const char* what) {
    size_t open = p_;
    ++p_;
    uint8_t set = 0;
    bool any = false;
    while (p_ < t_.size() && t_[p_] != ']') {
      char c = t_[p_];
      if (!member(c))
        fail(p_, quote(c) + " is not a " + what + " in a " + what + " set",
             std::string("a ") + what);
      int lo = c - base;
      int hi = lo;
      ++p_;
      if (p_ + 1 < t_.size() && t_[p_] == '-' && member(t_[p_ + 1])) {
        hi = t_[p_ + 1] - base;
        if (hi < lo)
          fail(p_ - 1, std::string("reversed ") + what + " range '" + c + "-" + t_[p_ + 1] + "'");
        p_ += 2;
      }
      for (int i = lo; i <= hi; ++i) set |= uint8_t(1u << i);
      any = true;
    }
    if (p_ >= t_.size()) fail(open, "missing ']' in square designator", "']'");
    if (!any) fail(open, std::string("empty ") + what + " set");
    ++p_;  // ']'
    return set;
  }

  Part file_part() {
    Part part;
    if (p_ >= t_.size())
      fail(p_, "missing file in square designator", "a file a-h, '?', 'L' or 'D'");
    char c = t_[p_];
    if (c == '?') {
      part.set = 0xFF;
      ++p_;
    } else if (c == 'L' || c == 'D') {
      part.color = c;
      ++p_;
    } else if (c == '[') {
      part.set = bracket_set(is_file, 'a', "file");
    } else if (is_file(c)) {
      int lo = c - 'a';
      int hi = lo;
      ++p_;
      if (p_ + 1 < t_.size() && t_[p_] == '-' && is_file(t_[p_ + 1])) {
        hi = t_[p_ + 1] - 'a';
        if (hi < lo)
          fail(p_ - 1, std::string("reversed file range '") + c + "-" + t_[p_ + 1] + "'",
               "an ascending range like 'a-c'");
        p_ += 2;
      }
      for (int i = lo; i <= hi; ++i) part.set |= uint8_t(1u << i);
    } else {
      fail(p_, quote(c) + " is not a file", "a file a-h, '?', 'L' or 'D'");
    }
    return part;
  }

  Part rank_part(const Part& files) {
    Part part;
    if (p_ >= t_.size())
      fail(p_, "missing rank in square designator", "a rank 1-8, '?', 'L' or 'D'");
    char c = t_[p_];
    if (c == '?') {
      part.set = 0xFF;
      ++p_;
    } else if (c == 'L' || c == 'D') {
      if (files.color)
        fail(p_, "'L' and 'D' may not be used for both the file and the rank", "a rank 1-8 or '?'");
      part.color = c;
      ++p_;
    } else if (c == '[') {
      part.set = bracket_set(is_rank, '1', "rank");
    } else if (is_rank(c)) {
      int lo = c - '1';
      int hi = lo;
      ++p_;
      if (p_ + 1 < t_.size() && t_[p_] == '-' && is_rank(t_[p_ + 1])) {
        hi = t_[p_ + 1] - '1';
        if (hi < lo)
          fail(p_ - 1, std::string("reversed rank range '") + c + "-" + t_[p_ + 1] + "'",
               "an ascending range like '1-3'");
        p_ += 2;
      }
      for (int i = lo; i <= hi; ++i) part.set |= uint8_t(1u << i);
    } else {
      fail(p_, quote(c) + " is not a rank", "a rank 1-8, '?', 'L' or 'D'");
    }
    return part;
  }

  // Reads "[item,item,...]"; p_ is at '[' and `close` is the matching ']'.
  void read_list(SquareDesignator& sd, size_t close) {
    sd.squares = 0;
    ++p_;
    if (p_ == close) {  // "[]": no square at all
      ++p_;
      return;
    }
    for (;;) {
      char c = t_[p_];
      if (c == '+') {
        sd.reserve = true;
        ++p_;
      } else if (c == '*') {
        sd.reserve = true;
        sd.squares = kAllSquares;
        ++p_;
      } else if (c == '[') {
        fail(p_, "nested '[' in square designator list", "a square like a1 or a range like a-c1");
      } else {
        Part files = file_part();
        Part ranks = rank_part(files);
        sd.squares |= combine(files, ranks);
      }
      if (p_ == close) break;
      if (t_[p_] != ',')
        fail(p_, "unexpected " + quote(t_[p_]) + " in square designator list", "',' or ']'");
      ++p_;
      if (p_ == close) fail(p_, "missing square after ','", "a square");
    }
    ++p_;  // ']'
  }

  std::string_view t_;
  size_t& p_;
};

// Promotion status bits per kind while reading a piece part.
constexpr uint8_t kPromoted = 1;
constexpr uint8_t kOriginal = 2;

class PieceReader {
 public:
  PieceReader(std::string_view text, size_t& pos) : t_(text), p_(pos) {}

  // Reads the piece part into `pd`; returns false if there is none at p_.
  bool read_piece_part(PieceDesignator& pd, const std::function<bool(char)>& after_tag_ok) {
    if (p_ >= t_.size()) return false;
    char c = t_[p_];
    if (c == '$') {
      size_t start = ++p_;
      while (p_ < t_.size() && is_tag_char(t_[p_])) ++p_;
      if (p_ == start) fail(p_, "missing tag name after '$'", "a tag name");
      pd.tag = std::string(t_.substr(start, p_ - start));
      if (p_ < t_.size() && t_[p_] != '[' && !after_tag_ok(t_[p_]))
        fail(p_, "the square designator after '$" + pd.tag + "' must be enclosed in brackets",
             "'[' after the tag name");
      return true;
    }
    std::array<uint8_t, 13> status{};
    if (c == '[') {
      size_t open = p_++;
      while (p_ < t_.size() && t_[p_] != ']') {
        if (!letter(status))
          fail(p_, quote(t_[p_]) + " is not a piece letter",
               "a piece letter (KQRBNP kqrbnp AaMmIiU . ?) or ']'");
      }
      if (p_ >= t_.size()) fail(open, "missing ']' in piece designator", "']'");
      ++p_;
    } else if (!letter(status)) {
      return false;
    }
    for (size_t i = 0; i < 13; ++i) {
      PieceMask bit = PieceMask(1u << i);
      if (status[i]) pd.pieces |= bit;
      if (status[i] == kPromoted) pd.promoted |= bit;
      if (status[i] == kOriginal) pd.not_promoted |= bit;
    }
    return true;
  }

 private:
  // Reads one letter with its optional suffix into `status`; false if p_ is not at a letter.
  bool letter(std::array<uint8_t, 13>& status) {
    std::optional<PieceMask> m = piece_letter_mask(t_[p_]);
    if (!m) return false;
    char c = t_[p_++];
    uint8_t st = kPromoted | kOriginal;
    if (p_ < t_.size() && t_[p_] == '~') {
      if (c == '.') fail(p_, "'~' cannot follow '.' (an empty square is never a promoted piece)");
      ++p_;
      st = kPromoted;
      if (p_ < t_.size() && t_[p_] == '~') {
        ++p_;
        st = kOriginal;
      }
    }
    for (size_t i = 0; i < 13; ++i) {
      if (!(*m >> i & 1)) continue;
      if (i == 12 && st != (kPromoted | kOriginal)) continue;  // `?~` never means "empty"
      status[i] |= st;
    }
    return true;
  }

  std::string_view t_;
  size_t& p_;
};

}  // namespace

SquareDesignator read_square_designator(std::string_view text, size_t& pos) {
  return SquareReader(text, pos).read();
}

PieceDesignator read_piece_designator(std::string_view text, size_t& pos, bool piece_part_optional,
                                      const std::function<bool(char)>& is_stop) {
  auto stops_ok = [&](size_t p) { return p >= text.size() || is_stop(text[p]); };
  size_t start = pos;
  PieceDesignator pd;
  std::optional<DesignatorError> first_error;
  // Reading 1: piece part followed by an optional square designator.
  try {
    size_t p = start;
    PieceDesignator cand;
    if (PieceReader(text, p).read_piece_part(cand, is_stop)) {
      if (!cand.tag.empty() && p < text.size() && text[p] != '[') {
        // A bare tag: nothing else may follow (checked by the caller via is_stop).
      } else {
        cand.squares = read_square_designator(text, p);
      }
      if (!piece_part_optional || stops_ok(p)) {
        cand.text = std::string(text.substr(start, p - start));
        pos = p;
        return cand;
      }
      first_error =
          DesignatorError{p, "unexpected '" + std::string(1, text[p]) + "' in designator", {}};
    } else if (!piece_part_optional) {
      if (p >= text.size()) fail(p, "missing piece designator", "a piece letter");
      fail(p, quote(text[p]) + " is not a piece letter",
           "a piece letter (KQRBNP kqrbnp AaMmIiU . ?), '[' or '$'");
    }
  } catch (const DesignatorError& e) {
    if (!piece_part_optional) throw;
    first_error = e;
  }
  // Reading 2 (move lines only): a square designator without a piece part.
  size_t p = start;
  try {
    pd.squares = read_square_designator(text, p);
  } catch (const DesignatorError&) {
    if (first_error) throw *first_error;
    throw;
  }
  if (!stops_ok(p)) {
    if (first_error) throw *first_error;
    fail(p, "unexpected '" + std::string(1, text[p]) + "' in designator");
  }
  pd.piece_part_written = false;
  pd.text = std::string(text.substr(start, p - start));
  pos = p;
  return pd;
}

PieceDesignator parse_piece_designator(std::string_view text) {
  size_t pos = 0;
  PieceDesignator pd = read_piece_designator(text, pos, false, [](char) { return false; });
  if (pos != text.size()) {
    fail(pos,
         "unexpected '" + std::string(1, text[pos]) + "' after piece designator '" +
             std::string(text.substr(0, pos)) + "'",
         "the end of the designator");
  }
  return pd;
}

SquareDesignator parse_square_designator(std::string_view text) {
  size_t pos = 0;
  SquareDesignator sd = read_square_designator(text, pos);
  if (!sd.written)
    fail(0, "missing square designator", "a square designator like e4, a-c1 or [a1,h8]");
  if (pos != text.size())
    fail(pos, "unexpected '" + std::string(1, text[pos]) + "' after square designator",
         "the end of the designator");
  return sd;
}

}  // namespace cql

namespace cql {

namespace {

// Named classes, tried before falling back to a bracketed list.
struct NamedMask {
  PieceMask mask;
  char letter;
};
constexpr NamedMask kNamedMasks[] = {
    {piece_mask::kAll, '?'},        {piece_mask::kAnyPiece, 'U'},   {piece_mask::kWhite, 'A'},
    {piece_mask::kBlack, 'a'},      {piece_mask::kWhiteMajor, 'M'}, {piece_mask::kBlackMajor, 'm'},
    {piece_mask::kWhiteMinor, 'I'}, {piece_mask::kBlackMinor, 'i'},
};

}  // namespace

std::string piece_mask_to_string(PieceMask m) {
  if (m == 0) return "";
  for (const NamedMask& nm : kNamedMasks)
    if (nm.mask == m) return std::string(1, nm.letter);
  std::string letters;
  for (size_t i = 0; i < 13; ++i)
    if (m >> i & 1) letters += kPieceLetters[i];
  return letters.size() == 1 ? letters : "[" + letters + "]";
}

namespace {

// "L1-2", "D?", "aL", "c-fD": a colour restriction of whole ranks or whole files, if `bb` is one.
std::string colored_form(chess::Bitboard bb) {
  auto range = [](int lo, int hi, char base) {
    std::string s(1, char(base + lo));
    if (hi != lo) s += std::string("-") + char(base + hi);
    return s;
  };
  for (char color : {'L', 'D'}) {
    chess::Bitboard mask = color == 'L' ? kLightSquares : kDarkSquares;
    for (int lo = 0; lo < 8; ++lo)
      for (int hi = lo; hi < 8; ++hi) {
        chess::Bitboard ranks = 0, files = 0;
        for (int i = lo; i <= hi; ++i) {
          ranks |= chess::Bitboard(0xFF) << (8 * i);
          files |= chess::Bitboard(0x0101010101010101ull) << i;
        }
        if (bb == (ranks & mask))
          return std::string(1, color) + (lo == 0 && hi == 7 ? "?" : range(lo, hi, '1'));
        if (bb == (files & mask)) return range(lo, hi, 'a') + color;
      }
  }
  return "";
}

}  // namespace

std::string to_string(const SquareDesignator& sd) {
  if (sd.squares == kAllSquares) return sd.reserve ? "[*]" : "";
  if (!sd.reserve && sd.squares != 0) {
    std::string colored = colored_form(sd.squares);
    if (!colored.empty()) return colored;
  }
  // Runs of files per rank, then merge equal runs on consecutive ranks.
  struct Run {
    int f0, f1, r0, r1;
  };
  std::vector<Run> runs;
  for (int r = 0; r < 8; ++r) {
    int f = 0;
    while (f < 8) {
      if (!(sd.squares >> (r * 8 + f) & 1)) {
        ++f;
        continue;
      }
      int f1 = f;
      while (f1 + 1 < 8 && (sd.squares >> (r * 8 + f1 + 1) & 1)) ++f1;
      bool merged = false;
      for (Run& run : runs) {
        if (run.f0 == f && run.f1 == f1 && run.r1 == r - 1) {
          run.r1 = r;
          merged = true;
          break;
        }
      }
      if (!merged) runs.push_back({f, f1, r, r});
      f = f1 + 1;
    }
  }
  std::string items;
  if (sd.reserve) items = "+";
  auto part = [](int lo, int hi, char base) {
    if (lo == 0 && hi == 7) return std::string("?");
    std::string p(1, char(base + lo));
    if (hi != lo) p += std::string("-") + char(base + hi);
    return p;
  };
  for (const Run& run : runs) {
    if (!items.empty()) items += ',';
    items += part(run.f0, run.f1, 'a') + part(run.r0, run.r1, '1');
  }
  // A simple designator (one file or '?', one rank or '?') needs no brackets.
  if (!sd.reserve && runs.size() == 1 && items.size() == 2) return items;
  return "[" + items + "]";
}

std::string to_string(const PieceDesignator& pd) {
  std::string s;
  if (!pd.tag.empty()) {
    s = "$" + pd.tag;
  } else if (pd.piece_part_written) {
    PieceMask plain = PieceMask(pd.pieces & ~(pd.promoted | pd.not_promoted));
    if (pd.promoted == 0 && pd.not_promoted == 0) {
      s = piece_mask_to_string(pd.pieces);
      if (s.empty()) s = "[]";
    } else {
      std::string inner;
      // Promotion flags apply per letter; use class letters only when a whole class shares them.
      auto emit = [&](PieceMask m, const char* suffix) {
        if (m == 0) return;
        for (const NamedMask& nm : kNamedMasks) {
          if (nm.mask == m && nm.letter != '?') {
            inner += nm.letter;
            inner += suffix;
            return;
          }
        }
        for (size_t i = 0; i < 13; ++i)
          if (m >> i & 1) {
            inner += kPieceLetters[i];
            inner += suffix;
          }
      };
      emit(plain, "");
      emit(pd.promoted, "~");
      emit(pd.not_promoted, "~~");
      size_t letters = 0;
      for (char c : inner)
        if (c != '~') ++letters;
      s = letters == 1 ? inner : "[" + inner + "]";
    }
  }
  std::string squares = to_string(pd.squares);
  if (!pd.tag.empty() && !squares.empty() && squares[0] != '[') squares = "[" + squares + "]";
  return s + squares;
}

}  // namespace cql
