// The player-data keywords of the match list (issue 17 A; CQL-Match-List "Player search
// related keywords"): :country :gender :birthyear :deathyear :title with their :white... and
// :black... forms, answered in SQL from game_players (db/schema.h, headers/players.h).
#pragma once

#include "cql/ast.h"
#include "headers/where_builder.h"

namespace headers {

/// Adds the SQL condition of `item` when it is one of the fifteen player-data keywords;
/// false for any other keyword. With `flipped`, the white and black forms swap.
///
/// Semantics (decisions where the page is silent):
///   :country C,...   a side's federation (from the player list) is one of the codes,
///                    compared ignoring case as stored (FIDE's three-letter codes: GER, NED;
///                    the common two-letter ISO codes are translated, de -> GER); UNK, xx
///                    and 0 match a side whose federation is unknown.
///   :gender g        f (or w) female, m male, x unknown.
///   :birthyear r / :deathyear r   the year lies in r; `*` known, `-` unknown.
///   :title T,...     the side's title (its [WhiteTitle]/[BlackTitle] tag, else the list's)
///                    is one of T (GM IM FM CM WGM WIM WFM WCM NM LM CGM CIM HGM BOT; any
///                    case; program and computer mean BOT, lichess's engine accounts);
///                    None = no title.
///   The either-side forms match when one side does; for the "unknown" values (UNK, x,
///   `-`, None) too - except :title None, which the page defines as "neither player".
/// Throws cql::CompileError for an unknown title or a range with `%` or `end`.
bool add_player_data_condition(WhereBuilder& b, const cql::KeywordItem& item, bool flipped);

}  // namespace headers
