// PgnSplitter: a byte scanner over 1 MiB buffers. Only the few bytes that matter in the
// current mode (line ends, braces, quotes...) stop the scan. Game bytes are not copied as
// they are scanned: they stay in the buffer ("pending") and are appended to the game in one
// piece when the game ends, the buffer is refilled, or bytes must be dropped.
#include "import/pgn_splitter.h"

#include "import/text_encoding.h"

#include <algorithm>
#include <array>
#include <string_view>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace import {
namespace {

constexpr size_t kReadSize = size_t(1) << 20;  // decompressed bytes per InputStream::read
constexpr size_t kLookahead = 16;              // room for ensure() beyond a full read

// Byte classes: bit m is set when the byte ends a scan in mode m. C0 control bytes other
// than \t (line ends included) end a scan in every mode.
enum : uint8_t {
  kStopText = 1,
  kStopTag = 2,
  kStopTagString = 4,
  kStopBrace = 8,
  kStopLine = 16,  // ';' comment and '%' escape line: only line ends and control bytes
};

constexpr std::array<uint8_t, 256> make_classes() {
  std::array<uint8_t, 256> t{};
  for (int c = 0; c < 0x20; ++c) {
    if (c != '\t') t[c] = 0xFF;
  }
  t['{'] = kStopText | kStopTag;
  t[';'] = kStopText | kStopTag;
  t['"'] = kStopTag | kStopTagString;
  t[']'] = kStopTag;
  t['}'] = kStopBrace;
  return t;
}
constexpr std::array<uint8_t, 256> kClasses = make_classes();

/// The first byte in [q, e) that ends a scan under `mask`, or e. With SSE2, 16 bytes at a
/// time are tested against every byte that stops some mode; hits are then checked with the
/// table (a tab, or a quote in movetext, is a hit that does not stop).
const char* find_stop(const char* q, const char* e, uint8_t mask) {
#if defined(__SSE2__)
  const __m128i lbrace = _mm_set1_epi8('{'), rbrace = _mm_set1_epi8('}');
  const __m128i semicolon = _mm_set1_epi8(';'), quote = _mm_set1_epi8('"');
  const __m128i rbracket = _mm_set1_epi8(']'), below_space = _mm_set1_epi8(0x1F);
  while (e - q >= 16) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q));
    __m128i hit = _mm_or_si128(_mm_cmpeq_epi8(x, lbrace), _mm_cmpeq_epi8(x, rbrace));
    hit = _mm_or_si128(hit, _mm_or_si128(_mm_cmpeq_epi8(x, semicolon), _mm_cmpeq_epi8(x, quote)));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(x, rbracket));
    hit = _mm_or_si128(hit, _mm_cmpeq_epi8(_mm_max_epu8(x, below_space), below_space));
    for (unsigned bits = unsigned(_mm_movemask_epi8(hit)); bits != 0; bits &= bits - 1) {
      const char* p = q + __builtin_ctz(bits);
      if (kClasses[static_cast<unsigned char>(*p)] & mask) return p;
    }
    q += 16;
  }
#endif
  while (q < e && (kClasses[static_cast<unsigned char>(*q)] & mask) == 0) ++q;
  return q;
}

constexpr char kBom[] = "\xEF\xBB\xBF";  // U+FEFF in UTF-8
constexpr size_t kBracketLookahead = 80;  // bytes looked at to tell `[pgn]` from a tag

/// The tag name of a line that starts with `[` (after blanks): the bytes after the `[` up
/// to a blank, quote or bracket.
std::string_view tag_name_at(const char* p, const char* e) {
  while (p < e && (*p == ' ' || *p == '\t')) ++p;
  if (p == e || *p != '[') return {};
  const char* b = ++p;
  while (p < e && *p != ' ' && *p != '\t' && *p != '"' && *p != ']' && *p != '[' &&
         *p != '\n' && *p != '\r')
    ++p;
  return std::string_view(b, size_t(p - b));
}

bool is_control(unsigned char c) {
  return c < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

}  // namespace

PgnSplitter::PgnSplitter(InputStream input)
    : input_(std::move(input)) {
  // An uncompressed input of known size smaller than a read needs no full-size buffer.
  if (input_.compression() == Compression::kNone && input_.size_known() &&
      input_.file_size() < kReadSize)
    read_size_ = std::max<size_t>(size_t(input_.file_size()), 64);
  buf_.reset(new char[read_size_ + kLookahead]);
  if (ensure(3) >= 3 && std::memcmp(buf_.get(), "\xEF\xBB\xBF", 3) == 0) {
    pos_ = copy_from_ = 3;
    line_offset_ = game_offset_ = 3;
  }
}

PgnSplitter::~PgnSplitter() = default;
PgnSplitter::PgnSplitter(PgnSplitter&&) noexcept = default;
PgnSplitter& PgnSplitter::operator=(PgnSplitter&&) noexcept = default;

void PgnSplitter::flush() {
  acc_.append(buf_.get() + copy_from_, pos_ - copy_from_);
  copy_from_ = pos_;
}

bool PgnSplitter::refill() {
  flush();
  if (eof_) return false;
  buf_offset_ += end_;
  pos_ = end_ = copy_from_ = 0;
  end_ = input_.read(buf_.get(), read_size_);
  if (end_ == 0) eof_ = true;
  return end_ != 0;
}

size_t PgnSplitter::ensure(size_t k) {
  if (end_ - pos_ >= k) return end_ - pos_;
  flush();
  std::memmove(buf_.get(), buf_.get() + pos_, end_ - pos_);
  buf_offset_ += pos_;
  end_ -= pos_;
  pos_ = copy_from_ = 0;
  while (end_ < k && !eof_) {
    const size_t n = input_.read(buf_.get() + end_, read_size_ + kLookahead - end_);
    if (n == 0) eof_ = true;
    end_ += n;
  }
  return end_;
}

bool PgnSplitter::next(RawGame& out) {
  if (finished_) return false;
  for (;;) {
    if (pos_ == end_ && !refill()) return finish(out);
    if (at_line_start_) {
      if (start_line(out)) return true;
      continue;
    }
    if (mode_ == Mode::kTagTail) {
      tag_tail();
      continue;
    }
    uint8_t mask = kStopText;
    switch (mode_) {
      case Mode::kText:
        mask = kStopText;
        break;
      case Mode::kTag:
        mask = kStopTag;
        break;
      case Mode::kTagString:
        mask = kStopTagString;
        break;
      case Mode::kBrace:
        mask = kStopBrace;
        break;
      case Mode::kLineComment:
      case Mode::kEscape:
      case Mode::kTagTail:
        mask = kStopLine;
        break;
    }
    const char* const base = buf_.get();
    const char* const e = base + end_;
    const char* const q = find_stop(base + pos_, e, mask);
    pos_ = size_t(q - base);
    if (mode_ == Mode::kEscape) copy_from_ = pos_;  // an escape line's bytes are dropped
    if (q < e) special(static_cast<unsigned char>(*q));
  }
}

bool PgnSplitter::start_line(RawGame& out) {
  while (pos_ < end_) {
    const unsigned char c = static_cast<unsigned char>(buf_[pos_]);
    if (c == ' ' || c == '\t') {
      line_has_blanks_ = true;
      ++pos_;
    } else if (is_control(c)) {
      drop_control_byte();
    } else if (c == 0xEF && ensure(3) >= 3 && std::memcmp(buf_.get() + pos_, kBom, 3) == 0) {
      // U+FEFF is whitespace anywhere (`cat a.pgn b.pgn` puts b's mark mid-stream): dropped.
      flush();
      pos_ += 3;
      copy_from_ = pos_;
    } else {
      break;
    }
  }
  if (pos_ == end_) return false;  // more bytes (or the end) first
  const char c = buf_[pos_];
  at_line_start_ = false;
  if (c == '\n' || c == '\r') {
    line_blank_ = true;  // the line end itself is handled by special()
    return false;
  }
  if (in_brace_) {
    // Recovery from an unterminated comment: `[Event "` after a blank line starts a game.
    if (c == '[' && prev_line_blank_ && ensure(8) >= 8 &&
        std::memcmp(buf_.get() + pos_, "[Event \"", 8) == 0) {
      yield(out);
      return true;
    }
    return false;
  }
  if (c == '%' && !line_has_blanks_) {
    flush();
    mode_ = Mode::kEscape;
    return false;
  }
  if (c == '[') {
    if (bracket_line_is_no_tag()) {
      // `[pgn]`, `[/pgn]`, `[C54]`: no tag and no game boundary; the line is dropped.
      const char* b = buf_.get() + pos_;
      const char* e = static_cast<const char*>(std::memchr(b, ']', end_ - pos_));
      // The line as UTF-8 text with control bytes shown as '?' (a message is always text).
      std::string raw(b, size_t(e - b + 1)), shown;
      for (char& ch : raw)
        if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
      to_utf8(raw, shown);
      warnings_.push_back({PgnSeverity::kWarning, PgnIssue::kNotATag, line_,
                           "line '" + shown + "' is no tag; ignored"});
      flush();
      mode_ = Mode::kEscape;
      return false;
    }
    if (game_started_ && seen_movetext_) {
      yield(out);
      return true;
    }
    if (game_started_ && blank_after_tags_) {
      // Tags, a blank line, a tag: a new game (header-only files) when the tag repeats one
      // of the game's tags or is an Event tag; else one game whose tag section has a blank
      // line in it (ChessBase exports).
      if (starts_new_tag_section()) {
        yield(out);
        return true;
      }
      warnings_.push_back({PgnSeverity::kWarning, PgnIssue::kBlankLineInTags, line_,
                           "blank line inside the tag section ignored"});
    }
    game_started_ = true;
    seen_tags_ = true;
    blank_after_tags_ = false;
    ++pos_;
    mode_ = Mode::kTag;
    return false;
  }
  game_started_ = true;
  seen_movetext_ = true;
  mode_ = Mode::kText;
  return false;
}

bool PgnSplitter::bracket_line_is_no_tag() {
  // `[` then a word without blanks or quotes, `]`, and nothing but blanks to the line end.
  const size_t avail = std::min(ensure(kBracketLookahead), kBracketLookahead);
  const char* p = buf_.get() + pos_ + 1;
  const char* const e = buf_.get() + pos_ + avail;
  while (p < e && *p != ' ' && *p != '\t' && *p != '"' && *p != '[' && *p != ']' &&
         *p != '\n' && *p != '\r')
    ++p;
  if (p == e || *p != ']') return false;
  ++p;
  while (p < e && (*p == ' ' || *p == '\t')) ++p;
  return (p < e && (*p == '\n' || *p == '\r')) || (p == e && eof_ && avail < kBracketLookahead);
}

bool PgnSplitter::starts_new_tag_section() {
  const size_t avail = std::min(ensure(kBracketLookahead), kBracketLookahead);
  const std::string_view name = tag_name_at(buf_.get() + pos_, buf_.get() + pos_ + avail);
  if (name == "Event") return true;
  // The game's text so far (all of it is in acc_ after flush()): its lines' tag names.
  flush();
  for (size_t i = 0; i < acc_.size();) {
    size_t nl = acc_.find('\n', i);
    if (nl == std::string::npos) nl = acc_.size();
    if (!name.empty() && tag_name_at(acc_.data() + i, acc_.data() + nl) == name) return true;
    i = nl + 1;
  }
  return false;
}

void PgnSplitter::tag_tail() {
  // After a tag's `]`: blanks, another tag, a line end, or movetext.
  const unsigned char c = static_cast<unsigned char>(buf_[pos_]);
  if (c == ' ' || c == '\t') {
    ++pos_;
  } else if (c == '[') {
    ++pos_;
    mode_ = Mode::kTag;
  } else if (c < 0x20) {
    special(c);
  } else {
    seen_movetext_ = true;
    mode_ = Mode::kText;
  }
}

void PgnSplitter::special(unsigned char c) {
  switch (c) {
    case '\r':
      // CRLF stays as it is (the parser treats '\r' as a blank); a lone CR becomes '\n'.
      if (ensure(2) >= 2 && buf_[pos_ + 1] == '\n') {
        ++pos_;
        return;
      }
      buf_[pos_] = '\n';
      ++pos_;
      end_line();
      return;
    case '\n':
      ++pos_;
      end_line();
      return;
    case '{':
      in_brace_ = true;
      seen_movetext_ = true;
      mode_ = Mode::kBrace;
      break;
    case '}':
      in_brace_ = false;
      mode_ = Mode::kText;
      break;
    case ';':
      seen_movetext_ = true;
      mode_ = Mode::kLineComment;
      break;
    case '"':
      if (mode_ == Mode::kTag) {
        mode_ = Mode::kTagString;
      } else if (backslashes_before() % 2 == 0) {  // not an escaped \" inside the value
        mode_ = Mode::kTag;
      }
      break;
    case ']':
      mode_ = Mode::kTagTail;
      break;
    default:
      drop_control_byte();
      return;
  }
  ++pos_;
}

size_t PgnSplitter::backslashes_before() const {
  size_t n = 0;
  size_t i = pos_;
  while (i > copy_from_ && buf_[i - 1] == '\\') --i, ++n;
  if (i == copy_from_) {
    for (size_t j = acc_.size(); j > line_start_ && acc_[j - 1] == '\\'; --j) ++n;
  }
  return n;
}

void PgnSplitter::end_line() {
  prev_line_blank_ = line_blank_;
  if (line_blank_ && seen_tags_ && !seen_movetext_) blank_after_tags_ = true;
  mode_ = in_brace_ ? Mode::kBrace : Mode::kText;
  ++line_;
  line_offset_ = buf_offset_ + pos_;
  at_line_start_ = true;
  line_has_blanks_ = false;
  line_blank_ = false;
  if (!game_started_) {
    // Blank lines, `%` lines and control bytes before a game belong to no game.
    keep_orphan_warnings();
    acc_.clear();
    copy_from_ = pos_;
    game_line_ = line_;
    game_offset_ = line_offset_;
  }
  line_start_ = acc_.size() + (pos_ - copy_from_);
}

void PgnSplitter::keep_orphan_warnings() {
  // The log has no game to name (ordinal 0): the message says where the line was.
  const std::string where = ordinal_ == 0 ? " (before game 1)" : " (after game " + std::to_string(ordinal_) + ")";
  for (PgnDiagnostic& w : warnings_) {
    w.message += where;
    orphan_warnings_.push_back(std::move(w));
  }
  warnings_.clear();
}

void PgnSplitter::drop_control_byte() {
  flush();
  const unsigned char c = static_cast<unsigned char>(buf_[pos_]);
  copy_from_ = ++pos_;
  // One warning per line: "skipped N control byte(s) (first 0xNN)".
  if (warnings_.empty() || warnings_.back().line != line_ ||
      warnings_.back().issue != PgnIssue::kControlBytes) {
    controls_on_line_ = 0;
    first_control_ = c;
    warnings_.push_back({PgnSeverity::kWarning, PgnIssue::kControlBytes, line_, {}});
  }
  ++controls_on_line_;
  static constexpr char kHex[] = "0123456789abcdef";
  warnings_.back().message = "skipped " + std::to_string(controls_on_line_) + " control byte" +
                             (controls_on_line_ > 1 ? "s" : "") + " (first 0x" +
                             kHex[first_control_ >> 4] + kHex[first_control_ & 15] + ")";
}

void PgnSplitter::yield(RawGame& out) {
  // The game ends where the current line starts; that line's blanks go to the next game.
  flush();
  out.ordinal = ++ordinal_;
  out.first_line = game_line_;
  out.byte_offset = game_offset_;
  out.text.swap(acc_);
  acc_.assign(out.text, line_start_);
  out.text.resize(line_start_);
  out.warnings.swap(warnings_);
  warnings_.clear();
  game_line_ = line_;
  game_offset_ = line_offset_;
  line_start_ = 0;
  game_started_ = seen_tags_ = seen_movetext_ = blank_after_tags_ = in_brace_ = false;
  mode_ = Mode::kText;
  at_line_start_ = true;  // the line's first character is looked at again, in the new game
}

bool PgnSplitter::finish(RawGame& out) {
  finished_ = true;
  if (!game_started_) {
    keep_orphan_warnings();
    return false;
  }
  line_start_ = acc_.size();  // all of it (refill() flushed the last bytes)
  yield(out);
  return true;
}

}  // namespace import
