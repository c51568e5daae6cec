#include "db/record_view.h"

#include <string>

#include "db/errors.h"

namespace db {

namespace {

[[noreturn]] void corrupt(const std::string& what, size_t offset) {
  throw CorruptRecord("corrupt game record: " + what + " at byte " + std::to_string(offset));
}

[[noreturn]] void corrupt_annotations(const std::string& what) {
  throw CorruptRecord("corrupt annotation record: " + what);
}

std::span<const uint8_t> as_bytes(std::string_view s) {
  return {reinterpret_cast<const uint8_t*>(s.data()), s.size()};
}

}  // namespace

RecordView RecordView::parse(std::string_view bytes, std::string_view annotations,
                             const TokenVisitor& visit) {
  return parse(as_bytes(bytes), as_bytes(annotations), visit);
}

RecordView RecordView::parse(std::span<const uint8_t> bytes,
                             std::span<const uint8_t> annotations, const TokenVisitor& visit) {
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
  if (view.packed_main_line()) {
    uint32_t count = 0;
    if (!codec::get_varint(p, end, count) || count > view.main_size_)
      corrupt("bad count of special main-line moves", p - begin);
    view.specials_ = p;
    SpecialMoveReader specials(p, end);
    for (uint32_t k = 0; k < count; ++k) {
      const size_t offset = specials.position() - begin;
      uint64_t ply = 0;
      uint16_t high = 0;
      if (!specials.next(ply, high)) corrupt("bad special main-line move", offset);
      if (high == 0) corrupt("special main-line move without high bits", offset);
      if (ply >= view.main_size_) corrupt("special main-line move past the main line", offset);
    }
    p = specials.position();
    const uint64_t packed_bytes = codec::packed_u12_bytes(view.main_size_);
    if (uint64_t(end - p) < packed_bytes)
      corrupt("main line of " + std::to_string(view.main_size_) + " moves truncated", p - begin);
    view.main_ = p;
    if ((view.main_size_ & 1) && (p[packed_bytes - 1] >> 4)) corrupt("packed main line padding", p - begin);
    // Every move's 12 low bits: from != to, or the null move (whose high bits are 0); then
    // each special's whole word (is_move_word), so a kind never sits on from == to.
    auto not_a_move = [](uint32_t low) {
      return (low >> 6) == (low & 63) && low != chess::Move::null().raw();
    };
    // Four moves (6 bytes) at a time, as four 12-bit lanes of one 64-bit load: a lane whose
    // from ^ to is 0 is a null move or no move, which the exact loop below then tells apart.
    constexpr uint64_t kLow6 = 0x03F03F03F03Full, kLaneOne = 0x001001001001ull, kLaneTop = 0x800800800800ull;
    bool bad = false;
    uint32_t i = 0;
    for (; i + 4 <= view.main_size_ && 3 * uint64_t(i) / 2 + 8 <= packed_bytes; i += 4) {
      const uint64_t v = codec::get_u64(p + 3 * size_t(i) / 2);
      const uint64_t lanes = (v ^ (v >> 6)) & kLow6;  // per lane: to ^ from in its low 6 bits
      bad |= (((lanes | kLaneTop) - kLaneOne) & kLaneTop) != kLaneTop;  // some lane was 0
    }
    for (; i < view.main_size_; ++i) bad |= not_a_move(codec::get_u12(p, i));
    if (bad) {
      for (uint32_t k = 0; k < view.main_size_; ++k)
        if (not_a_move(codec::get_u12(p, k)))
          corrupt("main-line move " + std::to_string(k + 1) + " is not a move", p - begin);
    }
    SpecialMoveReader again(view.specials_, p);  // checked above
    uint64_t ply = 0;
    uint16_t high = 0;
    while (again.next(ply, high))
      if (!is_move_word(uint16_t(codec::get_u12(p, ply) | high)))
        corrupt("main-line move " + std::to_string(ply + 1) + " is not a move", p - begin);
    p += packed_bytes;
  } else {
    if (uint64_t(end - p) < 2 * uint64_t(view.main_size_))
      corrupt("main line of " + std::to_string(view.main_size_) + " moves truncated", p - begin);
    view.main_ = p;
    for (uint32_t i = 0; i < view.main_size_; ++i, p += 2)
      if (!is_move_word(codec::get_u16(p))) corrupt("main-line word is not a move", p - begin);
  }
  view.stream_ = p;
  view.end_ = end;
  if (!view.has_variations() && p != end) corrupt("trailing bytes after the main line", p - begin);

  if (!annotations.empty()) {
    if (!view.has_annotations()) corrupt_annotations("the move record has no annotations flag");
    const uint8_t* a = annotations.data();
    const uint8_t* const a_end = a + annotations.size();
    const uint8_t flags = *a++;
    if (flags & ~kKnownAnnotationFlags) corrupt_annotations("unknown flag bits");
    view.clock_seconds_ = flags & kClockSeconds;
    if (flags & kHasTypedBlock) {
      uint32_t size = 0;
      if (!codec::get_varint(a, a_end, size) || uint64_t(a_end - a) < size)
        corrupt_annotations("bad length of the typed block");
      view.typed_ = a;
      view.typed_end_ = a + size;
      a += size;
    } else if (flags & kClockSeconds) {
      corrupt_annotations("clock unit without a typed block");
    }
    view.notes_ = a;
    view.notes_end_ = a_end;
    if (!view.typed_ && a == a_end) corrupt_annotations("empty annotation record");
  }
  if (!view.has_variations() && !view.annotations_loaded()) return view;

  // Walk the merged token sequence once, checking the invariants of record_format.h.
  TokenIterator it;
  it = TokenIterator(view, TypedText::kNone);  // decodes nothing yet; no comment text needed
  uint32_t main_index = 0;
  bool saw_variation = false;
  for (;;) {
    const size_t offset = (it.main_mode_ ? view.main_ : it.move_p_) - begin;
    if (const char* error = it.advance()) {
      if (view.annotations_loaded()) corrupt_annotations(error);
      corrupt(error, offset);
    }
    if (it.at_end_) break;
    const Token& token = it.token_;
    if (visit) visit(token);
    switch (token.kind) {
      case TokenKind::kMove:
        if (token.depth == 0) {
          if (main_index == view.main_size_ || token.move != view.main_move(main_index))
            corrupt("move stream differs from the main line", offset);
          ++main_index;
        }
        break;
      case TokenKind::kBeginVariation:
        saw_variation = true;
        break;
      default:
        break;
    }
  }
  if (main_index != view.main_size_)
    corrupt("move stream has fewer main-line moves than the main line", end - begin);
  if (view.has_variations() && !saw_variation)
    corrupt("variations flag without a variation", 0);
  return view;
}

uint16_t RecordView::special_high(uint32_t i) const {
  SpecialMoveReader specials(specials_, main_);
  uint64_t ply = 0;
  uint16_t high = 0;
  while (specials.next(ply, high) && ply <= i)
    if (ply == i) return high;
  return 0;
}

RecordView::TokenRange RecordView::tokens(TypedText text) const { return TokenRange(*this, text); }

void RecordView::ply_annotations(std::vector<PlyAnnotation>& out) const {
  out.assign(main_size_, PlyAnnotation());
  if (!typed_) return;
  TypedBlockReader reader;
  if (reader.open(typed_, typed_end_, main_size_, clock_seconds_))
    throw CorruptRecord("corrupt annotation record: typed block");  // parse() rules it out
  for (uint32_t i = 0; i < main_size_; ++i)
    if (reader.next(out[i])) throw CorruptRecord("corrupt annotation record: typed block");
}

RecordView::TokenIterator::TokenIterator(const RecordView& view, TypedText text)
    : render_typed_(text == TypedText::kRendered) {
  if (view.has_variations()) {
    move_p_ = view.stream_;
    move_end_ = view.end_;
  } else {
    main_cursor_ = MainLineCursor(view);
    main_left_ = view.main_size_;
    main_mode_ = true;
  }
  note_p_ = view.notes_;
  note_end_ = view.notes_end_;
  if (view.typed_) {
    has_typed_ = true;
    if (typed_.open(view.typed_, view.typed_end_, view.main_size_, view.clock_seconds_)) {
      // parse() reports the error: an iterator of a parsed view never gets here
      has_typed_ = false;
      bad_typed_ = true;
    }
  }
  at_end_ = false;
}

RecordView::TokenIterator& RecordView::TokenIterator::operator=(const TokenIterator& other) {
  if (this == &other) return *this;
  move_p_ = other.move_p_;
  move_end_ = other.move_end_;
  main_cursor_ = other.main_cursor_;
  main_left_ = other.main_left_;
  main_mode_ = other.main_mode_;
  note_p_ = other.note_p_;
  note_end_ = other.note_end_;
  typed_ = other.typed_;
  has_typed_ = other.has_typed_;
  bad_typed_ = other.bad_typed_;
  anchor_ = other.anchor_;
  note_anchor_ = other.note_anchor_;
  note_kind_ = other.note_kind_;
  note_ready_ = other.note_ready_;
  depth_ = other.depth_;
  line_has_move_ = other.line_has_move_;
  typed_state_ = other.typed_state_;
  ply_ = other.ply_;
  text_ = other.text_;
  render_typed_ = other.render_typed_;
  token_ = other.token_;
  at_end_ = other.at_end_;
  if (token_.kind == TokenKind::kComment && token_.annotation.bits != 0) token_.comment = text_;
  return *this;
}

void RecordView::TokenIterator::emit_typed() {
  text_.clear();
  if (render_typed_) append_annotation_text(ply_, text_);
  token_.kind = TokenKind::kComment;
  token_.depth = 0;
  token_.comment = text_;
  token_.annotation = ply_;
  typed_state_ = 0;
}

const char* RecordView::TokenIterator::advance() {
  if (bad_typed_) return "bad typed block";
  token_.annotation = PlyAnnotation();
  token_.comment = {};
  if (typed_state_ == 1) {
    emit_typed();
    return nullptr;
  }
  if (!note_ready_ && note_p_ != note_end_) {
    uint32_t header = 0;
    if (!codec::get_varint(note_p_, note_end_, header)) return "bad note header";
    if (uint64_t(note_anchor_) + (header >> 2) > UINT32_MAX) return "note anchor out of range";
    note_anchor_ += header >> 2;
    note_kind_ = header & 3;
    note_ready_ = true;
  }
  if (note_ready_ && note_anchor_ == anchor_) {
    note_ready_ = false;
    token_.depth = depth_;
    switch (note_kind_) {
      case note::kComment: {
        uint32_t size = 0;
        if (!codec::get_varint(note_p_, note_end_, size)) return "bad comment length";
        if (uint64_t(note_end_ - note_p_) < size) return "truncated comment";
        token_.kind = line_has_move_ ? TokenKind::kComment : TokenKind::kCommentBefore;
        token_.comment = {reinterpret_cast<const char*>(note_p_), size};
        note_p_ += size;
        return nullptr;
      }
      case note::kNag:
        if (note_p_ == note_end_) return "truncated NAG";
        token_.kind = TokenKind::kNag;
        token_.nag = *note_p_++;
        return nullptr;
      case note::kTypedPlace:
        if (typed_state_ != 2) return "typed-comment place without a placed typed comment";
        emit_typed();
        return nullptr;
      default:
        return "unknown note kind";
    }
  }
  if (main_mode_ ? main_left_ == 0 : move_p_ == move_end_) {
    if (note_ready_) return "note anchored past the move stream";
    if (typed_state_ == 2) return "placed typed comment without its place";
    if (depth_ != 0) return "variation not closed";
    if (has_typed_ && !typed_.at_end()) return "typed block longer than the main line";
    at_end_ = true;
    return nullptr;
  }
  if (typed_state_ == 2) return "placed typed comment without its place";
  uint16_t word = 0;
  if (main_mode_) {
    word = main_cursor_.next().raw();
    --main_left_;
  } else {
    if (move_end_ - move_p_ < 2) return "truncated token";
    word = codec::get_u16(move_p_);
    move_p_ += 2;
  }
  ++anchor_;
  if (is_move_word(word)) {
    token_.kind = TokenKind::kMove;
    token_.move = chess::Move(word);
    token_.depth = depth_;
    line_has_move_ = true;
    if (depth_ == 0 && has_typed_) {
      if (const char* error = typed_.next(ply_)) return error;
      if (ply_.bits) typed_state_ = (ply_.bits & kAnnPlaced) ? 2 : 1;
    }
    return nullptr;
  }
  switch (word) {
    case marker::kBeginVariation:
      if (!line_has_move_) return "variation before any move of its line";
      token_.kind = TokenKind::kBeginVariation;
      token_.depth = ++depth_;
      line_has_move_ = false;
      return nullptr;
    case marker::kEndVariation:
      if (depth_ == 0) return "end of variation on the main line";
      token_.kind = TokenKind::kEndVariation;
      token_.depth = depth_--;
      line_has_move_ = true;
      return nullptr;
    default:
      return "unknown marker word";
  }
}

RecordView::TokenIterator& RecordView::TokenIterator::operator++() {
  if (const char* error = advance())
    throw CorruptRecord(std::string("corrupt game record: ") + error);  // parse() rules it out
  return *this;
}

}  // namespace db
