// The values of the match-list keywords that are read from PGN tag text (issue 17 B,
// CQL-Match-List; SPEC-NOTES "Match-list keywords (issue 17 B)"): each function classifies
// the text of one tag (or a fallback tag) into the vocabulary of its keyword
// (cql/vocabulary.h). They are pure functions; headers/match_keywords.cpp registers them as
// SQLite functions so that the conditions run inside the header query.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cql/vocabulary.h"

namespace headers {

/// :timemode. From [TimeControl] (PGN standard forms "300+2", "40/7200:3600", "*180",
/// "1/86400"; "?" / "-" / unreadable = no information): the estimated duration
/// base + 40 * increment seconds (lichess's estimate) gives bullet < 180 s, blitz < 480 s,
/// rapid < 1500 s, normal otherwise; a period of one day or more per move, or a base of a
/// day or more, is corr. Without information from the tag, the event name decides when it
/// names the mode ("Blitz", "Bullet", "Rapid", "Corr..."/"ICCF", any case); else Unknown.
cql::TimeMode classify_time_mode(std::string_view time_control, std::string_view event);

/// :termination from [Termination] (PGN standard and lichess words, any case and spacing:
/// "normal", "time forfeit", "abandoned", "adjudication", "death"/"emergency",
/// "rules infraction", "unterminated", "disconnection", "unplayed"); anything else
/// ("mate in 3") and a missing tag are Unknown.
cql::Termination classify_termination(std::string_view termination);

/// :eventtype from [EventType]'s first word ("game", "match", "tourn", "k.o."/"ko"/
/// "knockout", "swiss", "team", "schev", "simul"); without it, an event name containing
/// "simul" is a simul; else Unknown.
cql::EventType classify_event_type(std::string_view event_type, std::string_view event);

/// :eventmode from [Mode] ("OTB", "PM"/"corr" paper mail, "EM"/"email", "ICS"/"internet",
/// "TC"/"tele", "analysis", "composition", any case); without it, a [Site] that is a URL or
/// names a chess server (lichess, chess.com, ICC, FICS, playchess) is internet; else Unknown.
cql::EventMode classify_event_mode(std::string_view mode, std::string_view site);

/// :eventcountry: the IOC code that ends a TWIC-style [Site] ("Belgrade SRB" -> "SRB"):
/// the last blank-separated word when it is three upper-case ASCII letters; "" when none.
std::string site_country(std::string_view site);

/// The IOC code a query's country code stands for: an IOC code (any three letters, upper-
/// cased as written), an ISO 3166-1 alpha-2 code ("no" -> "NOR") or an ISO 3166-1 alpha-3
/// code that differs from the IOC one ("DEU" -> "GER"). "UNK", "xx", "0" -> "" (the event's
/// country is unknown). nullopt for an unknown two-letter code or any other form.
std::optional<std::string> ioc_country(std::string_view code);

/// :subround: the sub-round number of [Round] "r.s" (the digits after the first '.',
/// "11.16" -> 16); 0 when there is none ("11", "?", "3.x").
int64_t subround_number(std::string_view round);

/// The first / last day key (yyyymmdd, header_date.h) a PGN date text ("1985.03.??") stands
/// for; nullopt when its year is unknown. Used for [EventDate].
std::optional<int64_t> pgn_date_first_key(std::string_view date);
std::optional<int64_t> pgn_date_last_key(std::string_view date);

/// True when one comment of `comments` (comments separated by kCommentSeparator) contains a
/// run of text that matches `pattern` (Pattern-Matching, as :comment's argument).
bool comment_matches(std::string_view pattern, std::string_view comments);

/// The separator of the comments of one game in the comment index (U+001F, never in text
/// that is searched for).
inline constexpr char kCommentSeparator = '\x1f';

/// The literal runs of `pattern` that every comment text matching it contains (ASCII letters
/// and digits, three or more): the comment index (trigram FTS5) is asked for texts LIKE
/// '%run%' for each, a necessary condition; empty when there is none.
std::vector<std::string> comment_literal_runs(std::string_view pattern);

}  // namespace headers
