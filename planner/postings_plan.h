// The posting stage of the planner: a Condition (condition.h) turned into set algebra over
// the posting index (index/postings.h), giving for each alternative a superset of the games
// whose signature can satisfy it, before a single signature is read.
//
// Soundness: each Condition op maps to a set that contains every indexed game where the op
// can hold on the signature (so the signature test afterwards never sees a game the stage
// dropped wrongly); ops the postings say nothing about map to "every game" (nullopt).
// Games the index does not cover (above Postings::covered(), or marked unindexed) are always
// kept.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "index/postings.h"
#include "planner/condition.h"

namespace planner {

/// The indexed games where `c` may hold (a superset), or nullopt when the postings cannot
/// narrow `c` (every game). Unindexed games are not added here: see posting_candidates().
std::optional<sig::GameSet> posting_set(const Condition& c, const sig::Postings& postings);

/// The ids (ascending, 1..game_count) of the games `c` may hold for by the postings,
/// including every game the index does not cover; nullopt when the postings cannot narrow.
std::optional<std::vector<uint32_t>> posting_candidates(const Condition& c, const sig::Postings& postings,
                                                        uint32_t game_count);

/// True when posting_set() can narrow `c` at all (for --explain).
bool uses_postings(const Condition& c);

}  // namespace planner
