#include "db/record_builder.h"

#include <stdexcept>

#include "db/record_codec.h"

namespace db {

void RecordBuilder::reset() {
  main_.clear();
  tokens_.clear();
  fen_.clear();
  main_moves_ = 0;
  depth_ = 0;
  line_has_move_ = false;
  tokens_active_ = false;
  chess960_ = false;
  has_variations_ = false;
  has_comments_ = false;
}

void RecordBuilder::set_start_fen(std::string_view fen, bool chess960) {
  if (main_moves_ != 0 || depth_ != 0)
    throw std::invalid_argument("RecordBuilder::set_start_fen: called after a move");
  fen_.assign(fen);
  chess960_ = chess960;
}

void RecordBuilder::start_tokens() {
  if (tokens_active_) return;
  tokens_.assign(main_);
  tokens_active_ = true;
}

void RecordBuilder::add_move(chess::Move move) {
  if (!is_move_word(move.raw()))
    throw std::invalid_argument("RecordBuilder::add_move: not a move (from == to)");
  if (depth_ == 0) {
    codec::put_u16(main_, move.raw());
    ++main_moves_;
  }
  if (tokens_active_) codec::put_u16(tokens_, move.raw());
  line_has_move_ = true;
}

void RecordBuilder::add_nag(uint8_t nag) {
  start_tokens();
  codec::put_u16(tokens_, marker::kNag);
  tokens_.push_back(char(nag));
  has_comments_ = true;
}

void RecordBuilder::add_comment(std::string_view text) {
  if (text.size() > UINT32_MAX)
    throw std::invalid_argument("RecordBuilder::add_comment: comment longer than 4 GiB");
  start_tokens();
  codec::put_u16(tokens_, line_has_move_ ? marker::kComment : marker::kCommentBefore);
  codec::put_varint(tokens_, uint32_t(text.size()));
  tokens_.append(text);
  has_comments_ = true;
}

void RecordBuilder::begin_variation() {
  if (!line_has_move_)
    throw std::invalid_argument("RecordBuilder::begin_variation: no move to branch from");
  start_tokens();
  codec::put_u16(tokens_, marker::kBeginVariation);
  ++depth_;
  line_has_move_ = false;
  has_variations_ = true;
}

void RecordBuilder::end_variation() {
  if (depth_ == 0) throw std::invalid_argument("RecordBuilder::end_variation: no open variation");
  codec::put_u16(tokens_, marker::kEndVariation);
  --depth_;
  line_has_move_ = true;  // the enclosing line had a move, or the variation could not start
}

std::string_view RecordBuilder::finish() {
  if (depth_ != 0)
    throw std::invalid_argument("RecordBuilder::finish: " + std::to_string(depth_) +
                                " variation(s) not closed");
  uint8_t flags = 0;
  if (!fen_.empty()) flags |= kHasStartFen;
  if (chess960_) flags |= kChess960;
  if (has_variations_) flags |= kHasVariations;
  if (has_comments_) flags |= kHasComments;
  out_.clear();
  out_.push_back(char(flags));
  codec::put_varint(out_, main_moves_);
  if (!fen_.empty()) {
    codec::put_varint(out_, uint32_t(fen_.size()));
    out_.append(fen_);
  }
  out_.append(main_);
  if (tokens_active_) out_.append(tokens_);
  return out_;
}

}  // namespace db
