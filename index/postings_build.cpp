// The posting index's write side (see postings.h): building a segment from signatures,
// merging segments, and the catch-up after an import.
#include <roaring/roaring.hh>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>

#include "db/database.h"
#include "db/game_reader.h"
#include "db/segment_chain.h"
#include "index/postings.h"
#include "index/postings_format.h"

namespace sig {

using namespace format;

/// Writes one segment file: header and a table placeholder first, then the bitmaps in key
/// order as they come, then the table; fsync and rename at finish(). Memory: one bitmap.
class SegmentWriter {
 public:
  /// Starts segment_path(`dir`, first) for games first..last with `entries` postings.
  SegmentWriter(const std::filesystem::path& dir, uint32_t first, uint32_t last, size_t entries)
      : final_(segment_path(dir, first)), tmp_(final_.string() + ".tmp"), first_(first), last_(last),
        entries_(entries) {
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw std::runtime_error("cannot write " + tmp_.string());
    std::string head(kMagic, 8);
    append_u32(head, kPostingsFormatVersion);
    append_u32(head, kSignatureFormatVersion);
    append_u32(head, last);
    append_u32(head, uint32_t(entries));
    append_u32(head, first);
    head.resize(kHeaderBytes + entries * kEntryBytes, '\0');
    check(std::fwrite(head.data(), 1, head.size(), f_) == head.size());
    offset_ = head.size();
  }
  ~SegmentWriter() {
    if (f_) {
      std::fclose(f_);
      std::error_code ec;
      std::filesystem::remove(tmp_, ec);
    }
  }
  SegmentWriter(const SegmentWriter&) = delete;
  SegmentWriter& operator=(const SegmentWriter&) = delete;

  /// Adds posting `key` (keys ascending) with the games `set` (run-optimised here); a dense
  /// one is recorded as such instead.
  void add(uint32_t key, GameSet& set) {
    if (table_.size() >= entries_ * kEntryBytes) throw std::logic_error("SegmentWriter: more postings than announced");
    append_u32(table_, key);
    if (is_dense(key, set.size(), last_ - first_ + 1)) {
      append_u32(table_, kDenseOffset);
      append_u32(table_, 0);
      return;
    }
    set.r_->runOptimize();
    set.r_->shrinkToFit();
    buffer_.resize(set.r_->getSizeInBytes(true));
    set.r_->write(buffer_.data(), true);
    check(offset_ + buffer_.size() < kDenseOffset);
    append_u32(table_, uint32_t(offset_));
    append_u32(table_, uint32_t(buffer_.size()));
    check(std::fwrite(buffer_.data(), 1, buffer_.size(), f_) == buffer_.size());
    offset_ += buffer_.size();
  }
  /// Writes the table, syncs and renames the file into place.
  void finish() {
    if (table_.size() != entries_ * kEntryBytes) throw std::logic_error("SegmentWriter: fewer postings than announced");
    check(std::fseek(f_, long(kHeaderBytes), SEEK_SET) == 0);
    check(std::fwrite(table_.data(), 1, table_.size(), f_) == table_.size());
    check(std::fflush(f_) == 0 && ::fsync(fileno(f_)) == 0);
    FILE* f = f_;
    f_ = nullptr;
    if (std::fclose(f) != 0) {
      std::filesystem::remove(tmp_);
      throw std::runtime_error("cannot write " + tmp_.string());
    }
    std::filesystem::rename(tmp_, final_);
  }

 private:
  void check(bool ok) {
    if (!ok) throw std::runtime_error("cannot write " + tmp_.string());
  }
  std::filesystem::path final_, tmp_;
  uint32_t first_, last_;
  size_t entries_;
  FILE* f_ = nullptr;
  size_t offset_ = 0;
  std::string table_, buffer_;
};

/// Merges two consecutive segments of a chain into one file (posting by posting).
class SegmentMerger {
 public:
  /// Writes the union of `a` and `b` (b.first == a.last + 1) as segment_path(`dir`, a.first).
  static void merge(const std::filesystem::path& dir, const Postings::Segment& a, const Postings::Segment& b) {
    std::vector<uint32_t> keys;
    keys.reserve(a.entries.size() + b.entries.size());
    for (const auto& e : a.entries) keys.push_back(e.key);
    for (const auto& e : b.entries) keys.push_back(e.key);
    std::inplace_merge(keys.begin(), keys.begin() + std::ptrdiff_t(a.entries.size()), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    SegmentWriter out(dir, a.first, b.last, keys.size());
    GameSet part;
    for (uint32_t key : keys) {
      GameSet set;
      for (const Postings::Segment* seg : {&a, &b}) {
        bool dense = false;
        if (!Postings::read(*seg, key, dense, part)) continue;
        if (dense)
          set.add_range(seg->first, seg->last);
        else
          set |= part;
      }
      out.add(key, set);
    }
    out.finish();
  }
};

// ---- PostingsBuilder -------------------------------------------------------------------

PostingsBuilder::PostingsBuilder() : slot_(kKeySpace, -1) {}

PostingsBuilder::~PostingsBuilder() {
  if (job_.valid()) job_.wait();
}

void PostingsBuilder::add_key(uint32_t key, uint32_t id) {
  // Pairs are buffered and grouped in bulk (one by one costs most of an index build).
  pending_keys_.push_back(key);
  pending_ids_.push_back(id);
  if (pending_ids_.size() >= (size_t(1) << 21)) start_flush();  // 16 MiB of buffers
}

void PostingsBuilder::start_flush() {
  if (pending_ids_.empty()) return;
  wait_flush();
  pending_keys_.swap(job_keys_);  // the pending buffers get the last job's (empty) ones
  pending_ids_.swap(job_ids_);
  job_ = std::async(std::launch::async, [this] { group(job_keys_, job_ids_); });
}

void PostingsBuilder::wait_flush() {
  if (job_.valid()) job_.get();
}

void PostingsBuilder::flush() {
  start_flush();
  wait_flush();
}

void PostingsBuilder::group(std::vector<uint32_t>& keys, std::vector<uint32_t>& ids) {
  for (uint32_t& key : keys) {  // key -> its entry of sets_, in place
    if (slot_[key] < 0) {
      slot_[key] = int32_t(sets_.size());
      sets_.emplace_back(key, GameSet());
    }
    key = uint32_t(slot_[key]);
  }
  starts_.assign(sets_.size() + 1, 0);
  for (uint32_t slot : keys) ++starts_[slot + 1];
  for (size_t i = 1; i < starts_.size(); ++i) starts_[i] += starts_[i - 1];
  grouped_.resize(ids.size());
  {
    std::vector<uint32_t> at(starts_.begin(), starts_.end() - 1);
    for (size_t i = 0; i < ids.size(); ++i) grouped_[at[keys[i]]++] = ids[i];
  }
  for (size_t i = 0; i < sets_.size(); ++i)
    sets_[i].second.add_many(grouped_.data() + starts_[i], starts_[i + 1] - starts_[i]);
  keys.clear();
  ids.clear();
}

void PostingsBuilder::keys_of(const Signature& s, std::vector<uint32_t>& out) {
  using namespace chess;
  out.clear();
  auto add_key = [&out](uint32_t key) { out.push_back(key); };
  for (int pc = W_PAWN; pc <= B_KING; ++pc) {
    if (type_of(Piece(pc)) == NO_PIECE_TYPE || type_of(Piece(pc)) >= PIECE_TYPE_NB) continue;
    for (Bitboard b = s.ever[pc]; b; b &= b - 1) add_key(ever_key(Piece(pc), __builtin_ctzll(b)));
  }
  // Each kind's counts over the runs (a count seen in several runs is added once).
  for (int c = 0; c < 2; ++c)
    for (PieceType pt = PAWN; pt <= QUEEN; pt = PieceType(pt + 1)) {
      uint16_t seen = 0;
      for (const MaterialRun& r : s.material) seen |= uint16_t(1u << std::min(15, int(r.key.count(Color(c), pt))));
      for (int n = 0; n < 16; ++n)
        if (seen >> n & 1) add_key(count_key(make_piece(Color(c), pt), n));
    }
  if (s.final_mate()) add_key(flag_key(kFlagFinalMate));
  if (s.final_stalemate()) add_key(flag_key(kFlagFinalStalemate));
  add_key(flag_key(s.final_side() == WHITE ? kFlagFinalWhiteToMove : kFlagFinalBlackToMove));
  if (s.null_moves) add_key(flag_key(kFlagNullMoves));
  if (s.en_passant) add_key(flag_key(kFlagEnPassant));
  if (s.checks[WHITE]) add_key(flag_key(kFlagWhiteInCheck));
  if (s.checks[BLACK]) add_key(flag_key(kFlagBlackInCheck));
  if (s.double_check(WHITE)) add_key(flag_key(kFlagWhiteInDoubleCheck));
  if (s.double_check(BLACK)) add_key(flag_key(kFlagBlackInDoubleCheck));
  if (s.plies) add_key(flag_key(kFlagHasMove));
  if (s.has_variations) add_key(flag_key(kFlagVariations));
  for (int bit = 0; bit < 4; ++bit)
    if (s.castlings >> bit & 1) {
      add_key(castling_key(bit));
      add_key(castling_move_key(bit, castling_move_bucket(full_move_number(s.start_game_ply, s.castling_plies[bit]))));
    }
  for (int c = 0; c < 2; ++c)
    for (PieceType pt = KNIGHT; pt <= QUEEN; pt = PieceType(pt + 1))
      if (s.promoted(Color(c), pt)) add_key(promotion_key(Color(c), pt));
  // The material classes, each once.
  const size_t classes = out.size();
  for (const MaterialRun& run : s.material) add_key(material_class_key(material_class(run.key)));
  std::sort(out.begin() + std::ptrdiff_t(classes), out.end());
  out.erase(std::unique(out.begin() + std::ptrdiff_t(classes), out.end()), out.end());
}

void PostingsBuilder::add_keys(uint32_t id, const std::vector<uint32_t>& keys) {
  for (uint32_t key : keys) add_key(key, id);
}

void PostingsBuilder::add(uint32_t id, const Signature& s) {
  keys_of(s, keys_);
  add_keys(id, keys_);
}

void PostingsBuilder::add_unindexed(uint32_t id) { add_key(flag_key(kFlagUnindexed), id); }

void PostingsBuilder::write(const std::filesystem::path& dir, uint32_t first, uint32_t last) {
  flush();
  std::sort(sets_.begin(), sets_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < sets_.size(); ++i) slot_[sets_[i].first] = int32_t(i);
  SegmentWriter out(dir, first, last, sets_.size());
  for (auto& [key, set] : sets_) out.add(key, set);
  out.finish();
}

// ---- update --------------------------------------------------------------------------------

namespace {

/// Removes the posting files of `dir` other than postings.bin whose segment starts at or
/// below `up_to` (left over from merges or an older chain).
void remove_segments_up_to(const std::filesystem::path& dir, uint32_t up_to) {
  std::error_code ec;
  std::vector<std::filesystem::path> doomed;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("postings-", 0) != 0) continue;
    const bool seg = e.path().extension() == ".seg";
    const bool tmp = name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0;
    if (!seg && !tmp) continue;
    const unsigned long first = std::strtoul(name.c_str() + 9, nullptr, 10);
    if (tmp || first <= up_to) doomed.push_back(e.path());
  }
  for (const auto& p : doomed) std::filesystem::remove(p, ec);
}

/// Builds the segment of games first..last from their signatures.
void build_segment(const db::GameReader& reader, const std::filesystem::path& dir, uint32_t first, uint32_t last) {
  PostingsBuilder builder;
  Signature s;
  auto scan = reader.scan_signatures(first, last);
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
  }
  builder.write(dir, first, last);
}

}  // namespace

PostingsUpdate update_postings(const db::Database& database, bool rebuild, FreshPostings* fresh) {
  const auto start = std::chrono::steady_clock::now();
  const std::filesystem::path dir = database.path();
  db::GameReader reader = database.reader();
  const uint32_t count = reader.game_count();
  db::SegmentChain chain;
  chain.max_merged_games = kMaxMergedGames;
  chain.open = [&]() -> std::optional<std::vector<db::ChainSpan>> {
    std::optional<Postings> existing = Postings::open(dir);
    if (!existing) return std::nullopt;
    std::vector<db::ChainSpan> spans;
    for (const Postings::Segment& seg : existing->segments_) spans.push_back({seg.first, seg.last});
    return spans;
  };
  chain.write = [&](uint32_t first, uint32_t last) {
    if (last < first) {
      PostingsBuilder().write(dir, 1, 0);  // an empty database: an empty postings.bin covering no game
      return false;
    }
    if (fresh && !fresh->broken && fresh->first == first && fresh->last == last) {
      fresh->builder.write(dir, first, last);
      return true;
    }
    build_segment(reader, dir, first, last);
    return false;
  };
  chain.merge = [&](const db::ChainSpan& a, const db::ChainSpan& b) {
    std::optional<Postings::Segment> sa = Postings::open_segment(segment_path(dir, a.first), a.first);
    std::optional<Postings::Segment> sb = Postings::open_segment(segment_path(dir, b.first), b.first);
    if (!sa || !sb) throw std::runtime_error("cannot read back " + segment_path(dir, sa ? b.first : a.first).string());
    SegmentMerger::merge(dir, *sa, *sb);
  };
  chain.remove_segments = [&] { remove_segments_up_to(dir, UINT32_MAX); };
  PostingsUpdate result;
  static_cast<db::ChainUpdate&>(result) = db::update_segment_chain(chain, count, rebuild);
  auto finish = [&] {
    result.covered = count;
    result.file_bytes = postings_bytes(dir);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  };
  if (result.rebuilt || result.added == 0) return finish();
  // Files no longer in the chain: inside a merged segment's range (a.first < first <= b.last).
  {
    std::optional<Postings> now = Postings::open(dir);
    std::error_code ec;
    if (now)
      for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("postings-", 0) != 0 || e.path().extension() != ".seg") continue;
        const uint32_t f = uint32_t(std::strtoul(name.c_str() + 9, nullptr, 10));
        bool in_chain = false;
        for (const auto& seg : now->segments_) in_chain = in_chain || seg.first == f;
        if (!in_chain && f <= now->covered()) std::filesystem::remove(e.path(), ec);
      }
  }
  return finish();
}

void remove_postings(const std::filesystem::path& dir) {
  std::error_code ec;
  std::filesystem::remove(dir / kPostingsFile, ec);
  remove_segments_up_to(dir, UINT32_MAX);
}

}  // namespace sig
