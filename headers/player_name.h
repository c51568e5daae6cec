// The one name rule of issue 17 (SPEC "Player names"): how a stored player spelling is
// reduced to a player key, and how a match-list / filter argument is matched against a name.
//
// Player key: "surname, i" (lower case, Latin-1 accents dropped, blanks collapsed), where i
// is the first letter of the first given name. "Kasparov, Gary", "Kasparov, Garry",
// "Kasparov,G", "Kasparov, G." and "Kasparov G" all have the key "kasparov, g". A name
// without comma ends in initials when its last word is one or two capital letters with an
// optional dot ("Carlsen M."); otherwise the whole folded name is the key ("DrNykterstein",
// "Magnus Carlsen"). Decision: one initial only, so "Kasparov, Georgy" shares the key of
// "Kasparov, Garry" for name patterns and the player-list link; `cqldb players` groups the
// spellings more finely (player_group_keys: different first names are different players).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "headers/header_pattern.h"

namespace headers {

/// The player key of a stored spelling (UTF-8), as described above; "" for an empty name.
std::string player_key(std::string_view name);

/// The players among the stored spellings `names` (UTF-8), as `cqldb players` groups them
/// (issue 40): keys[i] is the key of the player names[i] belongs to.
///  - A spelling with a full first name is the player "surname, first" (folded): different
///    full first names are different players ("Lasker, Edward", "Lasker, Emanuel").
///  - A spelling with initials only ("Lasker, E", "Carlsen M.") joins the full name of that
///    surname and initial when exactly one such full name is among `names`; else it is the
///    player "surname, i".
///  - A spelling without given names whose words equal those of a "Surname, First" spelling
///    ("Emanuel Lasker") is that player; else its player_key().
std::vector<std::string> player_group_keys(const std::vector<std::string_view>& names);

/// The full folded name: lower case, accents dropped, blanks collapsed, no dots, exactly
/// one blank after the comma ("Kasparov,Garry" -> "kasparov, garry"). Used to join games
/// to the player list by name before falling back to player_key (headers/players.h).
std::string full_name_key(std::string_view name);

/// The name rule of `:player`, `:whiteplayer`, `:blackplayer` and the shell's `filter
/// player=`: an unquoted argument is a case-insensitive substring of the stored spelling
/// (CQL-Match-List); a quoted argument is a Pattern-Matching pattern that must match the
/// whole stored spelling or the whole player key (so `"Kasparov, G*"` finds "Kasparov,G");
/// a case-sensitive pattern (`"!..."`) is tried on the spelling only.
class PlayerMatcher {
 public:
  /// `text` without quotes; `quoted` says whether the argument was double-quoted.
  PlayerMatcher(std::string_view text, bool quoted);
  /// True if the stored spelling `name` (UTF-8) matches.
  bool matches(std::string_view name) const;

 private:
  std::string text_;     // the unquoted argument (substring mode)
  NamePattern pattern_;  // the quoted argument (pattern mode)
  bool quoted_;
};

/// True when a quoted argument has no pattern wildcards (`*`, `?`) - the case where the CLI
/// hints at `NAME*` when nothing matched.
bool is_plain_name(std::string_view text);

}  // namespace headers
