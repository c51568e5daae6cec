// Counting keywords (CQL-Position-List "Matching count keywords", seed 000) and the other
// rules that decide a position list over a whole line rather than one position:
//  - per-transformation counting for :pretransformmatchcount / :pretransformrepetitioncount
//    of top-level lists (GameMatcher);
//  - nested lists with a counting keyword, :endmost, :following and :preceding: compiled to a
//    line table (SequenceSpec kinds kLineCount ... kPreceding, Node Op::kLineTable), decided
//    per line before the per-position pass like sequences (eval/sequence.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "cql/ast.h"
#include "eval/node.h"
#include "eval/program.h"
#include "eval/sequence.h"

namespace eval {

/// Adds 1 to `counts[v]` for every variant v of `list` whose conjunction matches in `c`
/// (`counts` has list.variants.size() entries). A list with a bare `:not` has one count,
/// counts[0], of the positions the whole list matches. Returns true if the list matches `c`.
bool count_variant_matches(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& counts);

/// The consecutive form for :pretransformrepetitioncount: for every variant v of `list`,
/// extends `runs[v]` (the current run of consecutive positions v matched) by 1 if v matches
/// in `c`, else resets it to 0, and raises `longest[v]` to it. Both vectors have one entry
/// per count slot as in count_variant_matches. Returns true if the list matches `c`.
bool track_variant_runs(const PositionList& list, const PosCtx& c, std::vector<uint32_t>& runs,
                        std::vector<uint32_t>& longest);

/// Computes the line table of `spec` (a line-table kind, applied to the list elements[0])
/// on one line: `out[p]` = 1 where the wrapping node matches at ply line_first_ply + p.
///  - kLineCount: at every ply when the number of plies the list matches is in the range;
///    kPretransformLineCount: when some variant's own number is;
///  - kRunCount: where the length of the run of consecutive matching plies through p (0 when
///    the list fails at p) is in the range; kPretransformRunCount: some variant's run is;
///  - kEndmost: the last ply where the list matches;
///  - kFollowing: the ply after each match (none after the last ply of the line);
///    kPreceding: the ply before each match (a match at the line's first ply is dropped).
/// `scratch` is reused between calls.
void find_line_table(const SequenceSpec& spec, std::span<const PosCtx> line,
                     std::vector<uint8_t>& scratch, std::vector<uint8_t>& out);

/// Compile step for the list rules decided over a line: if `list` (compiled to `base`) has a
/// counting keyword and is nested (`nested_count` = its rule, null for a top-level list whose
/// count is the game's MatchCount), or has :endmost, :following or :preceding, registers a
/// SequenceSpec of the matching kind in `sequences` and returns a list of one kLineTable
/// node wrapping `base`; otherwise returns `base`. `in_cut` = the list is the argument of
/// :cut, where :preceding means "the cut wins over the position" (eval/control.h) and is
/// left alone. Throws CompileError for :following / :preceding in a nested list and for two
/// of these rules in one list.
std::shared_ptr<const PositionList> wrap_line_rules(
    const cql::List& list, std::shared_ptr<const PositionList> base, const MatchCount* nested_count,
    bool in_cut, std::vector<std::shared_ptr<const SequenceSpec>>& sequences);

}  // namespace eval
