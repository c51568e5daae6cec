#include "db/record_view.h"

#include <string>

#include "db/errors.h"

namespace db {

namespace {

/// Decodes the token at `p` into `token`, advancing `p` and updating the nesting `depth`.
/// Returns nullptr on success, otherwise what is wrong.
const char* decode_token(const uint8_t*& p, const uint8_t* end, uint32_t& depth, Token& token) {
  if (end - p < 2) return "truncated token";
  uint16_t word = codec::get_u16(p);
  p += 2;
  token.comment = {};
  if (is_move_word(word)) {
    token.kind = TokenKind::kMove;
    token.move = chess::Move(word);
    token.depth = depth;
    return nullptr;
  }
  switch (word) {
    case marker::kBeginVariation:
      token.kind = TokenKind::kBeginVariation;
      token.depth = ++depth;
      return nullptr;
    case marker::kEndVariation:
      if (depth == 0) return "end of variation on the main line";
      token.kind = TokenKind::kEndVariation;
      token.depth = depth--;
      return nullptr;
    case marker::kComment:
    case marker::kCommentBefore: {
      uint32_t size = 0;
      if (!codec::get_varint(p, end, size)) return "bad comment length";
      if (uint64_t(end - p) < size) return "truncated comment";
      token.kind = word == marker::kComment ? TokenKind::kComment : TokenKind::kCommentBefore;
      token.comment = {reinterpret_cast<const char*>(p), size};
      token.depth = depth;
      p += size;
      return nullptr;
    }
    case marker::kNag:
      if (p == end) return "truncated NAG";
      token.kind = TokenKind::kNag;
      token.nag = *p++;
      token.depth = depth;
      return nullptr;
    default:
      return "unknown marker word";
  }
}

[[noreturn]] void corrupt(const std::string& what, size_t offset) {
  throw CorruptRecord("corrupt game record: " + what + " at byte " + std::to_string(offset));
}

}  // namespace

RecordView RecordView::parse(std::string_view bytes) {
  return parse(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
}

RecordView RecordView::parse(std::span<const uint8_t> bytes) {
  const uint8_t* const begin = bytes.data();
  const uint8_t* const end = begin + bytes.size();
  const uint8_t* p = begin;
  RecordView view;
  if (p == end) corrupt("empty record", 0);
  view.flags_ = *p++;
  if (view.flags_ & ~kKnownFlags) corrupt("unknown flag bits", 0);
  if (!codec::get_varint(p, end, view.main_size_)) corrupt("bad main-line length", 1);
  if (view.flags_ & kHasStartFen) {
    uint32_t size = 0;
    if (!codec::get_varint(p, end, size)) corrupt("bad FEN length", p - begin);
    if (size == 0 || uint64_t(end - p) < size) corrupt("bad FEN length", p - begin);
    view.fen_ = {reinterpret_cast<const char*>(p), size};
    p += size;
  }
  if (uint64_t(end - p) < 2 * uint64_t(view.main_size_))
    corrupt("main line of " + std::to_string(view.main_size_) + " moves truncated", p - begin);
  view.main_ = p;
  for (uint32_t i = 0; i < view.main_size_; ++i, p += 2)
    if (!is_move_word(codec::get_u16(p))) corrupt("main-line word is not a move", p - begin);
  view.stream_ = p;
  view.end_ = end;

  const bool has_stream = view.flags_ & (kHasVariations | kHasComments);
  if (!has_stream) {
    if (p != end) corrupt("trailing bytes after the main line", p - begin);
    return view;
  }
  // Walk the token stream once, checking the invariants listed in record_format.h.
  uint32_t depth = 0, main_index = 0;
  bool line_has_move = false, saw_variation = false, saw_comment = false;
  Token token;
  while (p != end) {
    const size_t offset = p - begin;
    if (const char* error = decode_token(p, end, depth, token)) corrupt(error, offset);
    switch (token.kind) {
      case TokenKind::kMove:
        if (token.depth == 0) {
          if (main_index == view.main_size_ || token.move != view.main_move(main_index))
            corrupt("token stream differs from the main line", offset);
          ++main_index;
        }
        line_has_move = true;
        break;
      case TokenKind::kBeginVariation:
        if (!line_has_move) corrupt("variation before any move of its line", offset);
        line_has_move = false;
        saw_variation = true;
        break;
      case TokenKind::kEndVariation:
        line_has_move = true;
        break;
      case TokenKind::kComment:
        if (!line_has_move) corrupt("comment-after-move in a line without moves", offset);
        saw_comment = true;
        break;
      case TokenKind::kCommentBefore:
        if (line_has_move) corrupt("comment-before-first-move after a move", offset);
        saw_comment = true;
        break;
      case TokenKind::kNag:
        saw_comment = true;
        break;
    }
  }
  if (depth != 0) corrupt("variation not closed", end - begin);
  if (main_index != view.main_size_)
    corrupt("token stream has fewer main-line moves than the main line", end - begin);
  if (saw_variation != view.has_variations() || saw_comment != view.has_comments())
    corrupt("flags do not match the token stream", 0);
  return view;
}

RecordView::TokenRange RecordView::tokens() const {
  if (flags_ & (kHasVariations | kHasComments)) return TokenRange(stream_, end_);
  return TokenRange(main_, stream_);  // the main line alone is a valid token stream
}

RecordView::TokenIterator& RecordView::TokenIterator::operator++() {
  if (p_ == end_) {
    at_end_ = true;
    return *this;
  }
  at_end_ = false;
  if (const char* error = decode_token(p_, end_, depth_, token_))
    throw CorruptRecord(std::string("corrupt game record: ") + error);  // parse() rules it out
  return *this;
}

}  // namespace db
