#include "db/record_builder.h"

#include <stdexcept>
#include <string>

#include "db/record_codec.h"

namespace db {

void RecordBuilder::reset() {
  main_.clear();
  stream_.clear();
  fen_.clear();
  notes_.clear();
  typed_text_.clear();
  typed_.clear();
  main_moves_ = 0;
  stream_tokens_ = 0;
  note_anchor_ = 0;
  typed_anchor_ = UINT32_MAX;
  depth_ = 0;
  line_has_move_ = false;
  chess960_ = false;
  has_variations_ = false;
  note_here_ = false;
}

void RecordBuilder::set_start_fen(std::string_view fen, bool chess960) {
  if (main_moves_ != 0 || depth_ != 0)
    throw std::invalid_argument("RecordBuilder::set_start_fen: called after a move");
  fen_.assign(fen);
  chess960_ = chess960;
}

void RecordBuilder::start_stream() {
  if (has_variations_) return;
  stream_.assign(main_);
  has_variations_ = true;
}

void RecordBuilder::put_note(uint32_t kind) {
  codec::put_varint(notes_, (stream_tokens_ - note_anchor_) << 2 | kind);
  note_anchor_ = stream_tokens_;
  note_here_ = true;
}

void RecordBuilder::add_move(chess::Move move) {
  if (!is_move_word(move.raw()))
    throw std::invalid_argument("RecordBuilder::add_move: not a move (from == to)");
  if (depth_ == 0) {
    if (main_moves_ >= kMaxMainLineMoves)
      throw std::invalid_argument("RecordBuilder::add_move: main line longer than " +
                                  std::to_string(kMaxMainLineMoves) + " moves");
    codec::put_u16(main_, move.raw());
    ++main_moves_;
  }
  if (has_variations_) codec::put_u16(stream_, move.raw());
  ++stream_tokens_;
  note_here_ = false;
  if (depth_ == 0) typed_anchor_ = stream_tokens_;
  line_has_move_ = true;
}

void RecordBuilder::add_nag(uint8_t nag) {
  put_note(note::kNag);
  notes_.push_back(char(nag));
}

void RecordBuilder::add_comment(std::string_view text) {
  if (text.size() > UINT32_MAX)
    throw std::invalid_argument("RecordBuilder::add_comment: comment longer than 4 GiB");
  put_note(note::kComment);
  codec::put_varint(notes_, uint32_t(text.size()));
  notes_.append(text);
}

bool RecordBuilder::can_add_typed() const {
  return depth_ == 0 && main_moves_ > 0 && typed_anchor_ == stream_tokens_ &&
         (typed_.empty() || typed_.back().ply + 1 < main_moves_);
}

void RecordBuilder::add_typed_comment(const PlyAnnotation& a) {
  if (!can_add_typed())
    throw std::invalid_argument("RecordBuilder::add_typed_comment: not right after a main-line move");
  if ((a.bits & (kAnnClock | kAnnEval | kAnnEmt)) == 0 || (a.bits & ~uint32_t(kAnnKnownBits)))
    throw std::invalid_argument("RecordBuilder::add_typed_comment: no clock, emt or evaluation");
  TypedEntry entry{main_moves_ - 1, a, typed_text_.size(), 0};
  entry.value.bits &= uint16_t(~kAnnPlaced);
  entry.value.rest = {};
  if (a.bits & kAnnRest) {
    typed_text_.append(a.rest);
    entry.rest_size = a.rest.size();
  }
  if (note_here_) {  // NAGs or comments came first: the note list marks its place
    entry.value.bits |= kAnnPlaced;
    put_note(note::kTypedPlace);
  }
  typed_.push_back(entry);
}

void RecordBuilder::begin_variation() {
  if (!line_has_move_)
    throw std::invalid_argument("RecordBuilder::begin_variation: no move to branch from");
  start_stream();
  codec::put_u16(stream_, marker::kBeginVariation);
  ++stream_tokens_;
  note_here_ = false;
  ++depth_;
  line_has_move_ = false;
}

void RecordBuilder::end_variation() {
  if (depth_ == 0) throw std::invalid_argument("RecordBuilder::end_variation: no open variation");
  codec::put_u16(stream_, marker::kEndVariation);
  ++stream_tokens_;
  note_here_ = false;
  --depth_;
  line_has_move_ = true;  // the enclosing line had a move, or the variation could not start
}

std::string_view RecordBuilder::finish() {
  if (depth_ != 0)
    throw std::invalid_argument("RecordBuilder::finish: " + std::to_string(depth_) +
                                " variation(s) not closed");
  notes_out_.clear();
  if (!typed_.empty()) {
    bool seconds = true;
    for (const TypedEntry& e : typed_) {
      if ((e.value.bits & kAnnClock) && e.value.clock % 10) seconds = false;
      if ((e.value.bits & kAnnEmt) && e.value.emt % 10) seconds = false;
    }
    typed_writer_.reset(seconds);
    size_t next = 0;
    for (uint32_t ply = 0; ply < main_moves_; ++ply) {
      if (next < typed_.size() && typed_[next].ply == ply) {
        PlyAnnotation a = typed_[next].value;
        if (a.bits & kAnnRest)
          a.rest = std::string_view(typed_text_).substr(typed_[next].rest_offset,
                                                        typed_[next].rest_size);
        typed_writer_.add(a);
        ++next;
      } else {
        typed_writer_.add(PlyAnnotation());
      }
    }
    std::string block;
    typed_writer_.finish(block);
    notes_out_.push_back(char(kHasTypedBlock | (seconds ? kClockSeconds : 0)));
    codec::put_varint(notes_out_, uint32_t(block.size()));
    notes_out_ += block;
    notes_out_ += notes_;
  } else if (!notes_.empty()) {
    notes_out_.push_back(char(0));
    notes_out_ += notes_;
  }
  uint8_t flags = 0;
  if (!fen_.empty()) flags |= kHasStartFen;
  if (chess960_) flags |= kChess960;
  if (has_variations_) flags |= kHasVariations;
  if (!notes_out_.empty()) flags |= kHasAnnotations;
  if (main_moves_ > 0) flags |= kPackedMainLine;
  out_.clear();
  out_.push_back(char(flags));
  codec::put_varint(out_, main_moves_);
  if (!fen_.empty()) {
    codec::put_varint(out_, uint32_t(fen_.size()));
    out_.append(fen_);
  }
  if (main_moves_ > 0) append_packed_main_line();
  if (has_variations_) out_.append(stream_);
  return out_;
}

void RecordBuilder::append_packed_main_line() {
  const uint8_t* words = reinterpret_cast<const uint8_t*>(main_.data());
  uint32_t specials = 0;
  for (uint32_t i = 0; i < main_moves_; ++i) specials += (codec::get_u16(words + 2 * size_t(i)) >> 12) != 0;
  codec::put_varint(out_, specials);
  uint32_t next = 0;
  for (uint32_t i = 0; i < main_moves_; ++i) {
    const uint32_t high = codec::get_u16(words + 2 * size_t(i)) >> 12;
    if (!high) continue;
    codec::put_varint(out_, (i - next) << 4 | high);
    next = i + 1;
  }
  const size_t start = out_.size();
  out_.resize(start + codec::packed_u12_bytes(main_moves_), '\0');
  uint8_t* out = reinterpret_cast<uint8_t*>(out_.data()) + start;
  for (uint32_t i = 0; i < main_moves_; ++i) {
    const uint16_t low = codec::get_u16(words + 2 * size_t(i)) & 0xFFF;
    uint8_t* q = out + (3 * size_t(i) >> 1);
    if (i & 1) {
      q[0] |= uint8_t((low & 0xF) << 4);
      q[1] = uint8_t(low >> 4);
    } else {
      q[0] = uint8_t(low);
      q[1] |= uint8_t(low >> 8);
    }
  }
}

}  // namespace db
