// Segment files of the position index: writer, group stream, merge (see position_segment.h).
#include "index/position_segment.h"

#include <algorithm>
#include <span>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace posindex::format {

// ---- SegmentWriter ------------------------------------------------------------------------

SegmentWriter::SegmentWriter(std::filesystem::path path, uint32_t first, uint32_t last, uint64_t groups_hint)
    : path_(std::move(path)), tmp_(path_.string() + ".tmp") {
  header_.first = first;
  header_.last = last;
  header_.key_rice = key_rice_for(groups_hint);
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw std::runtime_error("cannot write " + tmp_.string());
  put(std::string(kSegmentHeaderBytes, '\0'));
}

SegmentWriter::~SegmentWriter() {
  if (file_) {
    std::fclose(file_);
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
  }
}

void SegmentWriter::fail(const std::string& why) {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  std::filesystem::remove(tmp_, ec);
  throw std::runtime_error("cannot write " + tmp_.string() + ": " + why);
}

void SegmentWriter::put(const std::string& bytes) {
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size()) fail("write failed");
}

void SegmentWriter::add(const Group& g) {
  if (g.entries.empty()) return;
  if (block_groups_ == 0) block_top_ = prev_top_ = g.top;
  if (g.top < prev_top_) fail("groups out of order");
  encode_group(bits_, g, prev_top_, header_.coding());
  prev_top_ = g.top;
  ++block_groups_;
  block_entries_ += uint32_t(std::min<size_t>(g.entries.size(), kBlockEntries));
  header_.entries += g.entries.size();
  ++header_.groups;
  if (block_groups_ == kGroupsPerBlock || block_entries_ >= kBlockEntries) end_block();
}

void SegmentWriter::end_block() {
  if (block_groups_ == 0) return;
  bits_.flush();
  append_le<uint64_t>(directory_, block_top_);
  append_le<uint32_t>(directory_, uint32_t(offset_));
  append_le<uint32_t>(directory_, block_groups_);
  put(block_);
  offset_ += block_.size();
  if (offset_ + directory_.size() + kDirectoryEntryBytes > UINT32_MAX) fail("segment over 4 GiB");
  block_.clear();
  ++header_.blocks;
  block_groups_ = block_entries_ = 0;
}

uint64_t SegmentWriter::finish() {
  end_block();
  header_.directory = uint32_t(offset_);
  put(directory_);
  std::string head;
  append_segment_header(head, header_);
  if (std::fseek(file_, 0, SEEK_SET) != 0) fail("seek failed");
  put(head);
  if (std::fflush(file_) != 0 || ::fsync(fileno(file_)) != 0) fail("flush failed");
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) {
    std::error_code ec;
    std::filesystem::remove(tmp_, ec);
    throw std::runtime_error("cannot write " + tmp_.string());
  }
  std::filesystem::rename(tmp_, path_);
  return header_.entries;
}

// ---- GroupStream --------------------------------------------------------------------------

GroupStream::GroupStream(const std::filesystem::path& dir, uint32_t first, uint32_t last)
    : path_(dir / segment_name(first, last)), map_(path_) {
  if (!read_segment_header(map_.data(), map_.size(), first, last, header_)) damaged();
}

void GroupStream::damaged() const { throw std::runtime_error(path_.string() + ": damaged segment, cannot merge"); }

bool GroupStream::next(Group& g) {
  while (left_ == 0) {
    if (block_ > 0 && !in_.at_clean_end()) damaged();
    if (block_ == header_.blocks) return false;
    BlockSpan span;
    if (!block_span(map_.data(), header_, block_, span)) damaged();
    in_ = BitIn(span.begin, span.end);
    prev_top_ = span.first_top;
    left_ = span.groups;
    ++block_;
  }
  if (!decode_group(in_, g, prev_top_, header_.coding()) || g.top < prev_top_) damaged();
  prev_top_ = g.top;
  --left_;
  return true;
}

// ---- Merge --------------------------------------------------------------------------------

namespace {

/// Moves the groups of `stream` with top `top` (from `head` on) into out[n..], growing `n`;
/// `has` tells whether `head` holds the stream's next group afterwards. The groups of `out`
/// are reused: `head` takes the one it replaces, so decoding the next group reuses its
/// memory (a merge reads millions of groups, most of them of one entry).
void take_top(GroupStream& stream, Group& head, bool& has, uint64_t top, std::vector<Group>& out, size_t& n) {
  while (has && head.top == top) {
    if (n == out.size()) out.emplace_back();
    std::swap(out[n++], head);
    has = stream.next(head);
  }
}

/// Combines the groups of one top from a (lower game ids) and b into `out`: groups with
/// equal low bits become one; the groups without low bits (singletons, unknown entries)
/// become one group of unknown entries after them, as a build writes a top (version 5;
/// joining them to a group with low bits cost a "known" bit for each of its entries).
/// Every entry is kept; a group stays sorted by game. The groups of a and b are moved from
/// (a merge reuses them for the next top).
void combine(std::span<Group> a, std::span<Group> b, std::vector<Group>& out) {
  out.clear();
  std::vector<GroupEntry> unknown;
  for (std::span<Group> side : {a, b}) {
    for (Group& g : side) {
      if (!g.has_low) {
        unknown.insert(unknown.end(), g.entries.begin(), g.entries.end());
        continue;
      }
      auto it = std::find_if(out.begin(), out.end(), [&](const Group& o) { return o.low == g.low; });
      if (it == out.end()) out.push_back(std::move(g));
      else it->entries.insert(it->entries.end(), g.entries.begin(), g.entries.end());
    }
  }
  std::sort(out.begin(), out.end(), [](const Group& x, const Group& y) { return x.low < y.low; });
  if (unknown.empty()) return;
  Group g;
  g.top = a.empty() ? b.front().top : a.front().top;
  g.entries = std::move(unknown);
  std::stable_sort(g.entries.begin(), g.entries.end(),
                   [](const GroupEntry& x, const GroupEntry& y) { return x.game < y.game; });
  out.push_back(std::move(g));
}

}  // namespace

void merge_segments(const std::filesystem::path& dir, uint32_t fa, uint32_t la, uint32_t fb, uint32_t lb) {
  GroupStream a(dir, fa, la), b(dir, fb, lb);
  const uint64_t total = a.header().entries + b.header().entries;
  SegmentWriter writer(dir / segment_name(fa, lb), fa, lb, a.header().groups + b.header().groups);
  Group ga, gb;
  bool has_a = a.next(ga), has_b = b.next(gb);
  std::vector<Group> pool_a, pool_b, combined;
  while (has_a || has_b) {
    const uint64_t top = !has_b || (has_a && ga.top <= gb.top) ? ga.top : gb.top;
    size_t na = 0, nb = 0;
    take_top(a, ga, has_a, top, pool_a, na);
    take_top(b, gb, has_b, top, pool_b, nb);
    if (na + nb == 1) {  // most tops: one group, which combine() would leave as it is
      writer.add(na ? pool_a[0] : pool_b[0]);
      continue;
    }
    combine(std::span<Group>(pool_a.data(), na), std::span<Group>(pool_b.data(), nb), combined);
    for (const Group& g : combined) writer.add(g);
  }
  // Reaching here, both inputs were read to their clean ends; the counts must agree.
  const uint64_t written = writer.finish();
  if (written != total) {
    std::error_code ec;
    std::filesystem::remove(dir / segment_name(fa, lb), ec);
    throw std::runtime_error("cannot merge position segments into " + segment_name(fa, lb) + " (entry counts disagree)");
  }
}

}  // namespace posindex::format
