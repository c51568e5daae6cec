// The match-list keywords of issue 17 B as SQL conditions over headers.sqlite: the keywords
// answered from other PGN tags (the `tags` table), from the stored game (games.flags, the
// comment index), from values derived from several games (:eventcategory), and from the
// user's game markers. Semantics keyword by keyword: SPEC-NOTES "Match-list keywords
// (issue 17 B)"; the tag classifiers are in headers/match_values.h.
#pragma once

#include <cstdint>

#include "cql/ast.h"
#include "headers/where_builder.h"

struct sqlite3;

namespace headers {

/// What a condition needs in headers.sqlite beyond the tables every database has (bits).
enum MatchDataNeeds : uint32_t {
  kNeedsGameData = 1,  ///< games.flags and the comment_text index (written by imports of
                       ///< this version on; meta key kMetaMatchData)
};

/// Adds the condition of `item` when it is one of this file's keywords (`flipped`: White and
/// Black swapped by :eithercolor); false when it is none of them. Throws cql::CompileError
/// for an argument that cannot be answered (an unknown country code or game marker,
/// percentages in a range).
bool add_match_keyword(WhereBuilder& b, const cql::KeywordItem& item, bool flipped);

/// The MatchDataNeeds bits of the header keywords of `match` and its sub-match lists.
uint32_t match_data_needs(const cql::List& match);

/// Registers the SQL functions the conditions call (cqldb_timemode, cqldb_termination,
/// cqldb_eventtype, cqldb_eventmode, cqldb_site_country, cqldb_subround, cqldb_date_first,
/// cqldb_date_last, cqldb_comment). Throws db::SqliteError when SQLite refuses.
void register_match_functions(sqlite3* db);

}  // namespace headers
