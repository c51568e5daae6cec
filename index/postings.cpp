#include "index/postings.h"

#include <roaring/roaring.hh>

#include <algorithm>
#include <functional>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "db/database.h"
#include "db/file_mapping.h"
#include "db/game_reader.h"

namespace sig {

namespace {

constexpr char kMagic[8] = {'C', 'Q', 'L', 'P', 'O', 'S', 'T', '1'};
constexpr size_t kHeaderBytes = 8 + 4 * 4;
constexpr uint32_t kKeySpace = kPostingKeySpace;
constexpr uint32_t kDenseOffset = 0xFFFFFFFFu;
/// Piece-square and material-class postings held by more than 1/16 of the games are dense
/// (not stored).
bool is_dense(uint32_t key, uint64_t cardinality, uint32_t covered) {
  return (key < 1024 || key >= material_class_key(0)) && cardinality * 16 > covered && cardinality > 4096;
}

uint32_t read_u32(const char* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian hosts only (x86-64, arm64), as the LMDB integer keys
}

void append_u32(std::string& out, uint32_t v) {
  char b[4];
  std::memcpy(b, &v, 4);
  out.append(b, 4);
}

}  // namespace

// ---- GameSet ---------------------------------------------------------------------------

GameSet::GameSet() : r_(std::make_unique<::Roaring>()) {}
GameSet::~GameSet() = default;
GameSet::GameSet(const GameSet& o) : r_(std::make_unique<::Roaring>(*o.r_)) {}
GameSet::GameSet(GameSet&& o) noexcept : r_(std::move(o.r_)) {}
GameSet& GameSet::operator=(const GameSet& o) {
  if (this != &o) r_ = std::make_unique<::Roaring>(*o.r_);
  return *this;
}
GameSet& GameSet::operator=(GameSet&& o) noexcept {
  r_ = std::move(o.r_);
  return *this;
}
void GameSet::add(uint32_t id) { r_->add(id); }
void GameSet::add_many(const std::vector<uint32_t>& ids) {
  if (!ids.empty()) r_->addMany(ids.size(), ids.data());
}
bool GameSet::contains(uint32_t id) const { return r_->contains(id); }
uint64_t GameSet::size() const { return r_->cardinality(); }
GameSet& GameSet::operator&=(const GameSet& o) {
  *r_ &= *o.r_;
  return *this;
}
GameSet& GameSet::operator|=(const GameSet& o) {
  *r_ |= *o.r_;
  return *this;
}
GameSet GameSet::unite(const std::vector<const GameSet*>& sets) {
  GameSet out;
  if (sets.empty()) return out;
  if (sets.size() == 1) return *sets[0];
  std::vector<const ::Roaring*> in;
  in.reserve(sets.size());
  for (const GameSet* s : sets) in.push_back(s->r_.get());
  *out.r_ = ::Roaring::fastunion(in.size(), in.data());
  return out;
}
std::vector<uint32_t> GameSet::ids() const {
  std::vector<uint32_t> out(r_->cardinality());
  if (!out.empty()) r_->toUint32Array(out.data());
  return out;
}

// ---- Postings (read side) ----------------------------------------------------------------

std::optional<Postings> Postings::open(const std::filesystem::path& dir) {
  auto map = std::make_shared<const Mapping>(dir / kPostingsFile);
  if (!map->data()) return std::nullopt;
  const std::string_view b(map->data(), map->size());
  if (b.size() < kHeaderBytes || std::memcmp(b.data(), kMagic, 8) != 0) return std::nullopt;
  if (read_u32(b.data() + 8) != kPostingsFormatVersion || read_u32(b.data() + 12) != kSignatureFormatVersion)
    return std::nullopt;
  Postings p;
  p.covered_ = read_u32(b.data() + 16);
  const uint32_t n = read_u32(b.data() + 20);
  if (n > kKeySpace || b.size() < kHeaderBytes + size_t(n) * 12) return std::nullopt;
  p.entries_.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    const char* e = b.data() + kHeaderBytes + size_t(i) * 12;
    Entry entry{read_u32(e), read_u32(e + 4), read_u32(e + 8)};
    if (entry.key >= kKeySpace || (entry.offset != kDenseOffset && size_t(entry.offset) + entry.length > b.size()) ||
        (i && entry.key <= p.entries_[i - 1].key))
      return std::nullopt;
    p.entries_[i] = entry;
  }
  p.map_ = std::move(map);
  return p;
}

const GameSet* Postings::find(uint32_t key) const {
  for (const auto& [k, set] : cache_)
    if (k == key) return set.get();
  auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                             [](const Entry& e, uint32_t k) { return e.key < k; });
  if (it == entries_.end() || it->key != key) return &empty_;
  if (it->offset == kDenseOffset) return nullptr;
  auto set = std::make_shared<GameSet>();
  bool valid = false;
  try {
    *set->r_ = ::Roaring::readSafe(map_->data() + it->offset, it->length);
    // CRoaring 0.2's readSafe checks only byte bounds: a damaged container (values out of
    // order, an empty run container) deserializes, answers inconsistently and can crash an
    // intersection (issue 14, tests/fuzz/postings_fuzz.cpp). Its values must ascend and
    // number its cardinality; the set is then rebuilt from them, so its containers are
    // well-formed.
    const std::vector<uint32_t> ids = set->ids();
    valid = ids.size() == set->size() &&
            std::adjacent_find(ids.begin(), ids.end(), std::greater_equal<>()) == ids.end();
    if (valid) *set->r_ = ::Roaring(ids.size(), ids.data());
  } catch (const std::exception&) {
  }
  if (!valid) throw std::runtime_error("postings.bin: posting " + std::to_string(key) + " is damaged");
  cache_.emplace_back(key, set);
  return set.get();
}

// ---- PostingsBuilder -------------------------------------------------------------------

PostingsBuilder::PostingsBuilder() : slot_(kKeySpace, -1), dense_(kKeySpace, 0) {}

PostingsBuilder::PostingsBuilder(const Postings& existing) : PostingsBuilder() {
  for (const auto& e : existing.entries_) {
    const GameSet* set = existing.find(e.key);
    if (!set) {
      dense_[e.key] = 1;
      continue;
    }
    slot_[e.key] = int32_t(sets_.size());
    sets_.emplace_back(e.key, *set);
    pending_.emplace_back();
  }
}

void PostingsBuilder::add_key(uint32_t key, uint32_t id) {
  if (dense_[key]) return;
  if (slot_[key] < 0) {
    slot_[key] = int32_t(sets_.size());
    sets_.emplace_back(key, GameSet());
    pending_.emplace_back();
  }
  // Ids are buffered and added in bulk (one by one costs most of an index build).
  pending_[size_t(slot_[key])].push_back(id);
  if (++pending_total_ >= (size_t(1) << 22)) flush();
}

void PostingsBuilder::flush() {
  for (size_t i = 0; i < sets_.size(); ++i) {
    sets_[i].second.add_many(pending_[i]);
    pending_[i].clear();
  }
  pending_total_ = 0;
}

void PostingsBuilder::add(uint32_t id, const Signature& s) {
  using namespace chess;
  for (int pc = W_PAWN; pc <= B_KING; ++pc) {
    if (type_of(Piece(pc)) == NO_PIECE_TYPE || type_of(Piece(pc)) >= PIECE_TYPE_NB) continue;
    for (Bitboard b = s.ever[pc]; b; b &= b - 1) add_key(ever_key(Piece(pc), __builtin_ctzll(b)), id);
  }
  // Each kind's counts over the runs (a count seen in several runs is added once).
  for (int c = 0; c < 2; ++c)
    for (PieceType pt = PAWN; pt <= QUEEN; pt = PieceType(pt + 1)) {
      uint16_t seen = 0;
      for (const MaterialRun& r : s.material) seen |= uint16_t(1u << std::min(15, int(r.key.count(Color(c), pt))));
      for (int n = 0; n < 16; ++n)
        if (seen >> n & 1) add_key(count_key(make_piece(Color(c), pt), n), id);
    }
  if (s.final_mate()) add_key(flag_key(kFlagFinalMate), id);
  if (s.final_stalemate()) add_key(flag_key(kFlagFinalStalemate), id);
  add_key(flag_key(s.final_side() == WHITE ? kFlagFinalWhiteToMove : kFlagFinalBlackToMove), id);
  if (s.null_moves) add_key(flag_key(kFlagNullMoves), id);
  if (s.en_passant) add_key(flag_key(kFlagEnPassant), id);
  if (s.checks[WHITE]) add_key(flag_key(kFlagWhiteInCheck), id);
  if (s.checks[BLACK]) add_key(flag_key(kFlagBlackInCheck), id);
  if (s.double_check(WHITE)) add_key(flag_key(kFlagWhiteInDoubleCheck), id);
  if (s.double_check(BLACK)) add_key(flag_key(kFlagBlackInDoubleCheck), id);
  if (s.plies) add_key(flag_key(kFlagHasMove), id);
  if (s.has_variations) add_key(flag_key(kFlagVariations), id);
  for (int bit = 0; bit < 4; ++bit)
    if (s.castlings >> bit & 1) {
      add_key(castling_key(bit), id);
      add_key(castling_move_key(bit, castling_move_bucket(full_move_number(s.start_game_ply, s.castling_plies[bit]))), id);
    }
  for (int c = 0; c < 2; ++c)
    for (PieceType pt = KNIGHT; pt <= QUEEN; pt = PieceType(pt + 1))
      if (s.promoted(Color(c), pt)) add_key(promotion_key(Color(c), pt), id);
  classes_.clear();
  for (const MaterialRun& run : s.material) classes_.push_back(material_class(run.key));
  std::sort(classes_.begin(), classes_.end());
  classes_.erase(std::unique(classes_.begin(), classes_.end()), classes_.end());
  for (uint32_t m : classes_) add_key(material_class_key(m), id);
}

void PostingsBuilder::add_unindexed(uint32_t id) { add_key(flag_key(kFlagUnindexed), id); }

void PostingsBuilder::write(const std::filesystem::path& dir, uint32_t covered) {
  flush();
  std::sort(sets_.begin(), sets_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  pending_.assign(sets_.size(), {});
  for (size_t i = 0; i < sets_.size(); ++i) slot_[sets_[i].first] = int32_t(i);
  std::string body;
  std::string table;
  for (auto& [key, set] : sets_)
    if (is_dense(key, set.size(), covered)) {
      dense_[key] = 1;
      set = GameSet();
    }
  std::vector<uint32_t> dense_keys;
  for (uint32_t key = 0; key < kKeySpace; ++key)
    if (dense_[key]) dense_keys.push_back(key);
  size_t entries = dense_keys.size();
  for (auto& [key, set] : sets_) entries += !dense_[key];
  const size_t data_start = kHeaderBytes + entries * 12;
  // Entries in key order: stored and dense keys merged.
  size_t next_dense = 0;
  auto flush_dense_below = [&](uint32_t bound) {
    for (; next_dense < dense_keys.size() && dense_keys[next_dense] < bound; ++next_dense) {
      append_u32(table, dense_keys[next_dense]);
      append_u32(table, kDenseOffset);
      append_u32(table, 0);
    }
  };
  for (auto& [key, set] : sets_) {
    if (dense_[key]) continue;
    flush_dense_below(key);
    set.r_->runOptimize();
    set.r_->shrinkToFit();
    const size_t size = set.r_->getSizeInBytes(true);
    const size_t offset = data_start + body.size();
    body.resize(body.size() + size);
    set.r_->write(body.data() + (offset - data_start), true);
    append_u32(table, key);
    append_u32(table, uint32_t(offset));
    append_u32(table, uint32_t(size));
  }
  flush_dense_below(kKeySpace);
  std::string head(kMagic, 8);
  append_u32(head, kPostingsFormatVersion);
  append_u32(head, kSignatureFormatVersion);
  append_u32(head, covered);
  append_u32(head, uint32_t(entries));

  const std::filesystem::path final_path = dir / kPostingsFile;
  const std::filesystem::path tmp = dir / (std::string(kPostingsFile) + ".tmp");
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot write " + tmp.string());
  bool ok = std::fwrite(head.data(), 1, head.size(), f) == head.size() &&
            std::fwrite(table.data(), 1, table.size(), f) == table.size() &&
            std::fwrite(body.data(), 1, body.size(), f) == body.size() && std::fflush(f) == 0 &&
            ::fsync(fileno(f)) == 0;
  ok = std::fclose(f) == 0 && ok;
  if (!ok) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, final_path);
}

// ---- update --------------------------------------------------------------------------------

PostingsUpdate update_postings(const db::Database& database, bool rebuild) {
  const auto start = std::chrono::steady_clock::now();
  PostingsUpdate result;
  db::GameReader reader = database.reader();
  const uint32_t count = reader.game_count();
  std::optional<Postings> existing = rebuild ? std::nullopt : Postings::open(database.path());
  if (existing && existing->covered() > count) existing.reset();  // not this database's
  if (existing && existing->covered() == count) {
    result.covered = count;
    result.file_bytes = std::filesystem::file_size(database.path() / kPostingsFile);
    return result;
  }
  result.rebuilt = !existing;
  PostingsBuilder builder = existing ? PostingsBuilder(*existing) : PostingsBuilder();
  const uint32_t first = existing ? existing->covered() + 1 : 1;
  Signature s;
  auto scan = reader.scan_signatures(first, count);
  uint32_t id = 0;
  std::string_view bytes;
  while (scan.next(id, bytes)) {
    bool indexed = false;
    if (!bytes.empty()) {
      try {
        decode(bytes, s, DecodeScope::kAll);
        indexed = true;
      } catch (const CorruptSignature&) {
      }
    }
    if (indexed)
      builder.add(id, s);
    else
      builder.add_unindexed(id);
    ++result.added;
  }
  builder.write(database.path(), count);
  result.covered = count;
  result.file_bytes = std::filesystem::file_size(database.path() / kPostingsFile);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

void remove_postings(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove(dir / kPostingsFile, ec);
}

}  // namespace sig
