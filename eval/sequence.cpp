#include "eval/sequence.h"

#include <algorithm>

#include "eval/match_count.h"

namespace eval {

namespace {

/// :matchconsecutive: out[p] = the elements can be assigned one-to-one to plies p, p + 1, ...
/// so that each matches at its ply. Searched as the sets of elements that can fill the first
/// j plies.
void find_any_order(const SequenceSpec& spec, std::span<const PosCtx> line,
                    std::vector<uint8_t>& out) {
  const size_t n = line.size(), k = spec.elements.size();
  const uint32_t full = (uint32_t(1) << k) - 1;
  std::vector<uint8_t> hit(k);  // element i matches at the ply being filled
  std::vector<uint8_t> can(size_t(full) + 1), next(size_t(full) + 1);
  for (size_t p = 0; p < n; ++p) {
    if (p + k > n) {
      out[p] = 0;
      continue;
    }
    std::fill(can.begin(), can.end(), 0);
    can[0] = 1;
    for (size_t j = 0; j < k; ++j) {
      for (size_t i = 0; i < k; ++i) hit[i] = spec.elements[i]->match(line[p + j]);
      std::fill(next.begin(), next.end(), 0);
      bool any = false;
      for (uint32_t m = 0; m <= full; ++m) {
        if (!can[m]) continue;
        for (size_t i = 0; i < k; ++i)
          if (!(m >> i & 1) && hit[i]) next[m | uint32_t(1) << i] = any = true;
      }
      can.swap(next);
      if (!any) break;
    }
    out[p] = can[full];
  }
}

/// kSequenceEnd / kGappedEnd: out[q] = the elements match at successive (increasing) plies
/// with the last one at q.
void find_sequence_end(const SequenceSpec& spec, std::span<const PosCtx> line, std::vector<uint8_t>& scratch,
                       std::vector<uint8_t>& out) {
  const size_t n = line.size(), k = spec.elements.size();
  out.assign(n, 1);
  for (size_t i = 0; i < k; ++i) {  // out = elements 0..i match, element i at the ply
    scratch.swap(out);
    out.assign(n, 0);
    bool before = i == 0;  // kGappedEnd: some ply before q ends elements 0..i-1
    for (size_t q = 0; q < n; ++q) {
      const bool prefix = i == 0 ? true
                          : spec.kind == SequenceSpec::Kind::kSequenceEnd ? q > 0 && scratch[q - 1]
                                                                          : before;
      if (prefix) out[q] = spec.elements[i]->match(line[q]);
      if (i > 0 && scratch[q]) before = true;
    }
  }
}

}  // namespace

void find_sequence(const SequenceSpec& spec, std::span<const PosCtx> line,
                   std::vector<uint8_t>& scratch, std::vector<uint8_t>& out) {
  if (spec.kind == SequenceSpec::Kind::kSequenceEnd || spec.kind == SequenceSpec::Kind::kGappedEnd)
    return find_sequence_end(spec, line, scratch, out);
  if (spec.kind >= SequenceSpec::Kind::kLineCount) return find_line_table(spec, line, scratch, out);
  const size_t n = line.size();
  const size_t k = spec.elements.size();
  out.assign(n, 1);
  if (k == 0) return;
  if (spec.kind == SequenceSpec::Kind::kAnyOrder) return find_any_order(spec, line, out);
  if (spec.kind == SequenceSpec::Kind::kWholeLine) {
    bool all = true;
    for (const auto& element : spec.elements) {
      bool some = false;
      for (size_t p = 0; p < n && !some; ++p) some = element->match(line[p]);
      all &= some;
    }
    out.assign(n, all);
    return;
  }
  if (spec.kind == SequenceSpec::Kind::kSequence) {
    // out[p] stays 1 while every element i matched at p + i.
    for (size_t i = 0; i < k; ++i) {
      for (size_t p = 0; p < n; ++p) {
        if (!out[p]) continue;
        out[p] = p + i < n && spec.elements[i]->match(line[p + i]);
      }
    }
    return;
  }
  // Backwards over the elements: out[p] = elements i..k-1 can be matched in increasing plies
  // with element i at p. `scratch` holds the table of element i + 1.
  for (size_t i = k; i-- > 0;) {
    scratch.swap(out);
    out.assign(n, 0);
    bool later = i + 1 == k;  // some ply after p starts the rest (trivially true at the end)
    for (size_t p = n; p-- > 0;) {
      if (later) out[p] = spec.elements[i]->match(line[p]);
      if (i + 1 < k && scratch[p]) later = true;
      // The leading gap (SPEC "Game traversal": a refinement may insert `(position)` before
      // the first element too): the sequence starts at every ply up to the last one where
      // element 0 starts the rest, so the earlier plies need no evaluation.
      if (i == 0 && out[p]) {
        std::fill(out.begin(), out.begin() + std::ptrdiff_t(p), 1);
        break;
      }
    }
  }
}

}  // namespace eval
