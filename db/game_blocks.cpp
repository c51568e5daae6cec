#include "db/game_blocks.h"

#include <cstring>
#include <stdexcept>

#include "db/errors.h"

namespace db::blocks {

namespace {

constexpr size_t kHeaderBytes = 3;       // width, count
constexpr uint32_t kMaxCount = 0xFFFF;   // count is 16 bits

uint32_t read_le(const unsigned char* p, uint32_t width) {
  uint32_t v = uint32_t(p[0]) | uint32_t(p[1]) << 8;
  if (width == 4) v |= uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  return v;
}

void append_le(std::string& out, uint32_t v, uint32_t width) {
  for (uint32_t i = 0; i < width; ++i) out.push_back(char((v >> (8 * i)) & 0xFF));
}

uint32_t key_id(std::string_view key) {
  uint32_t id = 0;
  if (key.size() != sizeof id)
    throw FormatError("games.mdb: a block key of " + std::to_string(key.size()) + " bytes");
  std::memcpy(&id, key.data(), sizeof id);
  return id;
}

/// Encodes values with the given end offsets (payload already concatenated).
void encode(const std::vector<uint32_t>& ends, std::string_view payload, std::string& out) {
  const uint32_t width = payload.size() <= 0xFFFF ? 2 : 4;
  out.clear();
  out.reserve(kHeaderBytes + ends.size() * width + payload.size());
  out.push_back(char(width));
  append_le(out, uint32_t(ends.size()), 2);
  for (uint32_t end : ends) append_le(out, end, width);
  out.append(payload);
}

}  // namespace

void throw_malformed(uint32_t id, const char* what) {
  throw CorruptRecord("game " + std::to_string(id) + ": the block of its " + what +
                          " in games.mdb is malformed",
                      id);
}

bool move_to_block(lmdb::Cursor& cursor, bool step, uint32_t id, const char* what, BlockView& out) {
  std::string_view key, value;
  out = BlockView();
  if (!(step ? cursor.next(key, value) : cursor.seek(lmdb::integer_key(id), key, value)))
    return false;
  if (!BlockView::parse(key_id(key), value, out)) throw_malformed(id, what);
  return true;
}

// ---- BlockView

bool BlockView::parse(uint32_t last_id, std::string_view value, BlockView& out) {
  out = BlockView();
  if (value.size() < kHeaderBytes) return false;
  const auto* p = reinterpret_cast<const unsigned char*>(value.data());
  const uint32_t width = p[0];
  const uint32_t count = read_le(p + 1, 2);
  if ((width != 2 && width != 4) || count == 0 || count > last_id) return false;
  const size_t table = size_t(count) * width;
  if (value.size() < kHeaderBytes + table) return false;
  out.last_id_ = last_id;
  out.count_ = count;
  out.width_ = width;
  out.table_ = p + kHeaderBytes;
  out.payload_ = value.substr(kHeaderBytes + table);
  if (out.end(count - 1) != out.payload_.size()) {
    out = BlockView();
    return false;
  }
  return true;
}

uint32_t BlockView::end(uint32_t i) const { return read_le(table_ + size_t(i) * width_, width_); }

bool BlockView::entry(uint32_t id, std::string_view& bytes) const {
  const uint32_t i = id - first_id();
  const uint32_t begin = i ? end(i - 1) : 0;
  const uint32_t stop = end(i);
  if (begin > stop || stop > payload_.size()) return false;
  bytes = payload_.substr(begin, stop - begin);
  return true;
}

// ---- BlockBuilder

bool BlockBuilder::full_for(size_t bytes) const {
  if (ends_.empty()) return false;
  if (ends_.size() >= kMaxCount) return true;
  const size_t width = payload_.size() + bytes <= 0xFFFF ? 2 : 4;
  return kHeaderBytes + (ends_.size() + 1) * width + payload_.size() + bytes > kBlockTargetBytes;
}

void BlockBuilder::add(uint32_t id, std::string_view bytes) {
  if (ends_.empty()) {
    first_id_ = id;
  } else if (id != first_id_ + ends_.size()) {
    throw std::invalid_argument("BlockBuilder::add: game " + std::to_string(id) +
                                " does not follow game " +
                                std::to_string(first_id_ + ends_.size() - 1));
  }
  payload_.append(bytes);
  ends_.push_back(uint32_t(payload_.size()));
}

void BlockBuilder::flush(lmdb::Txn& txn, lmdb::Dbi dbi) {
  if (ends_.empty()) return;
  encode(ends_, payload_, encoded_);
  const uint32_t last = first_id_ + uint32_t(ends_.size()) - 1;
  if (!txn.put(dbi, lmdb::integer_key(last), encoded_, lmdb::kPutAppend))
    throw Error("games.mdb: the block of games " + std::to_string(first_id_) + ".." +
                std::to_string(last) + " is not past the stored ones");
  clear();
}

std::optional<std::string_view> BlockBuilder::pending(uint32_t id) const {
  if (ends_.empty() || id < first_id_ || id - first_id_ >= ends_.size()) return std::nullopt;
  const uint32_t i = id - first_id_;
  const uint32_t begin = i ? ends_[i - 1] : 0;
  return std::string_view(payload_).substr(begin, ends_[i] - begin);
}

void BlockBuilder::clear() {
  ends_.clear();
  payload_.clear();
}

void encode_block(const std::vector<std::string_view>& values, std::string& out) {
  std::vector<uint32_t> ends;
  std::string payload;
  for (std::string_view v : values) {
    payload.append(v);
    ends.push_back(uint32_t(payload.size()));
  }
  encode(ends, payload, out);
}

// ---- BlockReader

bool BlockReader::get(const lmdb::Txn& txn, lmdb::Dbi dbi, uint32_t id, std::string_view& bytes) {
  if (!block_.holds(id)) {
    if (!cursor_) cursor_.emplace(txn, dbi);
    if (!move_to_block(*cursor_, false, id, what_, block_) || !block_.holds(id)) return false;
  }
  if (!block_.entry(id, bytes)) throw_malformed(id, what_);
  return true;
}

void BlockReader::reset() {
  cursor_.reset();
  block_ = BlockView();
}

// ---- either layout

bool read_value(const lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked, uint32_t id,
                std::string_view& bytes) {
  if (!blocked) return txn.get(dbi, lmdb::integer_key(id), bytes);
  BlockReader reader;
  return reader.get(txn, dbi, id, bytes);
}

void replace_values(lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked,
                    const std::map<uint32_t, std::string>& values) {
  if (!blocked) {
    for (const auto& [id, value] : values) {
      if (value.empty()) txn.del(dbi, lmdb::integer_key(id));
      else txn.put(dbi, lmdb::integer_key(id), value);
    }
    return;
  }
  std::vector<std::string> kept;  // copies: the put below reuses the pages viewed
  std::vector<std::string_view> views;
  std::string encoded;
  for (auto it = values.begin(); it != values.end();) {
    BlockView block;
    bool found = false;
    {
      lmdb::Cursor cursor(txn, dbi);
      found = move_to_block(cursor, false, it->first, "value", block);
    }
    if (!found && it->first == last_id(txn, dbi) + 1) {
      // Past the last block (a sub-db being filled, e.g. by the reindex of a database
      // without signatures): new blocks for the run of consecutive games from here.
      BlockBuilder builder;
      for (uint32_t next = it->first; it != values.end() && it->first == next; ++it, ++next) {
        if (builder.full_for(it->second.size())) builder.flush(txn, dbi);
        builder.add(it->first, it->second);
      }
      builder.flush(txn, dbi);
      continue;
    }
    if (!found || !block.holds(it->first))
      throw CorruptRecord("game " + std::to_string(it->first) + " is in no block of games.mdb",
                          it->first);
    kept.clear();
    for (uint32_t id = block.first_id(); id <= block.last_id(); ++id) {
      std::string_view bytes;
      if (!block.entry(id, bytes)) throw_malformed(id, "value");
      if (it != values.end() && it->first == id) {
        kept.push_back(it->second);
        ++it;
      } else {
        kept.emplace_back(bytes);
      }
    }
    views.assign(kept.begin(), kept.end());
    encode_block(views, encoded);
    txn.put(dbi, lmdb::integer_key(block.last_id()), encoded);
  }
}

bool truncate_above(lmdb::Txn& txn, lmdb::Dbi dbi, bool blocked, uint32_t last_kept) {
  bool deleted = false;
  std::optional<std::string> cut;  // the kept head of a block holding games on both sides
  {
    lmdb::Cursor cursor(txn, dbi);
    std::string_view key, value;
    for (bool found = cursor.seek(lmdb::integer_key(last_kept + 1), key, value); found;
         found = cursor.next(key, value)) {
      if (blocked && !cut) {
        // A malformed entry above the count goes like any leftover (readers never read it).
        BlockView block;
        if (BlockView::parse(key_id(key), value, block) && block.first_id() <= last_kept) {
          std::vector<std::string_view> head;
          for (uint32_t id = block.first_id(); id <= last_kept; ++id) {
            std::string_view bytes;
            if (!block.entry(id, bytes)) throw_malformed(id, "value");
            head.push_back(bytes);
          }
          cut.emplace();
          encode_block(head, *cut);
        }
      }
      cursor.del();
      deleted = true;
    }
  }
  if (cut) txn.put(dbi, lmdb::integer_key(last_kept), *cut, lmdb::kPutAppend);
  return deleted;
}

uint32_t last_id(const lmdb::Txn& txn, lmdb::Dbi dbi) {
  lmdb::Cursor cursor(txn, dbi);
  std::string_view key, value;
  if (!cursor.last(key, value)) return 0;
  return key_id(key);
}

}  // namespace db::blocks
