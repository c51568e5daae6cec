// The one name rule (issue 17 A, headers/player_name.h, SPEC "Player names"): player keys
// and the matcher behind :player / :whiteplayer / :blackplayer / filter player=.
#include <gtest/gtest.h>

#include "headers/player_name.h"

namespace {

using headers::full_name_key;
using headers::PlayerMatcher;
using headers::player_key;

TEST(PlayerKey, SpellingsOfOnePlayerShareOneKey) {
  // The spellings of the issue and of players-344k.
  for (const char* name : {"Kasparov, Gary", "Kasparov,G", "Kasparov, G.", "Kasparov, Garry",
                           "KASPAROV, G", "Kasparov G", "Kasparov G.", "  Kasparov ,  Garry "})
    EXPECT_EQ(player_key(name), "kasparov, g") << name;
}

TEST(PlayerKey, SurnameWordsAccentsAndNamesWithoutComma) {
  EXPECT_EQ(player_key("van Wely, Loek"), "van wely, l");
  EXPECT_EQ(player_key("Van Wely,L"), "van wely, l");
  EXPECT_EQ(player_key("Ljubojević, Ljubomir"), "ljubojevic, l");
  EXPECT_EQ(player_key("Ljubojevic,L"), "ljubojevic, l");
  EXPECT_EQ(player_key("Hübner, Robert"), "hubner, r");
  EXPECT_EQ(player_key("Şahin, Ç."), "sahin, c");
  EXPECT_EQ(player_key("Jobava,Ba"), "jobava, b");
  // No comma and no trailing initials: the whole folded name.
  EXPECT_EQ(player_key("DrNykterstein"), "drnykterstein");
  EXPECT_EQ(player_key("Magnus Carlsen"), "magnus carlsen");
  EXPECT_EQ(player_key("Carlsen MA"), "carlsen, m");
  EXPECT_EQ(player_key(""), "");
  EXPECT_EQ(player_key("?"), "?");
  EXPECT_EQ(player_key("Kasparov,"), "kasparov,");
}

TEST(PlayerKey, FullNameKeyKeepsGivenNames) {
  EXPECT_EQ(full_name_key("Kasparov,Garry"), "kasparov, garry");
  EXPECT_EQ(full_name_key("Kasparov, Garry"), "kasparov, garry");
  EXPECT_EQ(full_name_key("Kasparov, G."), "kasparov, g");
  EXPECT_NE(full_name_key("Kasparov, Gary"), full_name_key("Kasparov, Garry"));
  EXPECT_EQ(full_name_key("Nepomniachtchi, Ian A."), "nepomniachtchi, ian a");
}

TEST(PlayerMatcher, UnquotedIsCaseInsensitiveSubstring) {
  PlayerMatcher m("kaspar", false);
  EXPECT_TRUE(m.matches("Kasparov, Garry"));
  EXPECT_TRUE(m.matches("Comp Kasparov's Gambit"));
  EXPECT_FALSE(m.matches("Karpov, Anatoly"));
  EXPECT_TRUE(PlayerMatcher("van Wely", false).matches("Van Wely, Loek"));
  EXPECT_TRUE(PlayerMatcher("Kasparov", false).matches("Kasparov,G"));
}

TEST(PlayerMatcher, QuotedPatternMatchesSpellingOrKey) {
  PlayerMatcher m("Kasparov, G*", true);
  for (const char* name : {"Kasparov, Gary", "Kasparov,G", "Kasparov, G.", "Kasparov G"})
    EXPECT_TRUE(m.matches(name)) << name;
  EXPECT_FALSE(m.matches("Kasparov, Sergey"));
  EXPECT_FALSE(m.matches("Kasparov,S"));
  // A whole-name pattern: the reference example.
  PlayerMatcher garry("Kasparov, Garry", true);
  EXPECT_TRUE(garry.matches("Kasparov, Garry"));
  EXPECT_TRUE(garry.matches("kasparov,  garry"));  // blanks: one or more; case ignored
  EXPECT_FALSE(garry.matches("Kasparov,G"));
  // The key itself is a valid pattern target.
  EXPECT_TRUE(PlayerMatcher("kasparov, g", true).matches("Kasparov, Gary"));
  EXPECT_TRUE(PlayerMatcher("van Wely*", true).matches("Van Wely, Loek"));
  EXPECT_TRUE(PlayerMatcher("(Wely)*", true).matches("Wely, L"));
  // A quoted plain surname is a whole-name pattern: no match (the CLI hints at "Kasparov*").
  EXPECT_FALSE(PlayerMatcher("Kasparov", true).matches("Kasparov, Garry"));
  EXPECT_TRUE(PlayerMatcher("Kasparov*", true).matches("Kasparov, Garry"));
  // Case-sensitive patterns look at the spelling only (the key is folded).
  EXPECT_FALSE(PlayerMatcher("!kasparov*", true).matches("Kasparov, Garry"));
  EXPECT_TRUE(PlayerMatcher("!Kasparov,*", true).matches("Kasparov,G"));
}

TEST(PlayerMatcher, PlainNameDetection) {
  EXPECT_TRUE(headers::is_plain_name("Kasparov"));
  EXPECT_TRUE(headers::is_plain_name("van Wely"));
  EXPECT_TRUE(headers::is_plain_name("a\\*b"));
  EXPECT_FALSE(headers::is_plain_name("Kasparov*"));
  EXPECT_FALSE(headers::is_plain_name("Kaspar?v"));
}

}  // namespace

namespace {

// Issue 40: `cqldb players Lasker` merged Edward and Emanuel Lasker under "lasker, e" and
// listed "Emanuel Lasker" (first name first) as a third player. The spellings are those of
// the sample (examples/sample: Lasker, Edward; Lasker, Emanuel; Emanuel Lasker).
TEST(PlayerGroups, DifferentFirstNamesAreDifferentPlayers) {
  using headers::player_group_keys;
  const std::vector<std::string_view> names = {"Lasker, Edward", "Lasker, Emanuel", "Emanuel Lasker", "Lasker, E",
                                               "Lasker,Em."};
  const std::vector<std::string> keys = player_group_keys(names);
  EXPECT_EQ(keys[0], "lasker, edward");
  EXPECT_EQ(keys[1], "lasker, emanuel");
  EXPECT_EQ(keys[2], "lasker, emanuel");  // first name first: the same words
  EXPECT_EQ(keys[3], "lasker, e");        // two full names with E: joins neither
  EXPECT_EQ(keys[4], "lasker, em");       // "Em" is a name of its own here (not an initial)
}

TEST(PlayerGroups, InitialsJoinTheOnlyFullNameWithThatInitial) {
  using headers::player_group_keys;
  const std::vector<std::string_view> names = {"Kasparov, Garry", "Kasparov,G", "Kasparov, G.", "Kasparov G",
                                               "Carlsen, Magnus", "Carlsen M.", "Magnus Carlsen", "DrNykterstein"};
  const std::vector<std::string> keys = player_group_keys(names);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(keys[i], "kasparov, garry") << names[i];
  for (size_t i = 4; i < 7; ++i) EXPECT_EQ(keys[i], "carlsen, magnus") << names[i];
  EXPECT_EQ(keys[7], "drnykterstein");
  // Without a full name the initials stay one player under the key of player_key().
  EXPECT_EQ(player_group_keys({"Smith, J", "Smith,J."}), (std::vector<std::string>{"smith, j", "smith, j"}));
  // Two full first names with one initial: the initials belong to neither.
  EXPECT_EQ(player_group_keys({"Smith, John", "Smith, James", "Smith, J"}),
            (std::vector<std::string>{"smith, john", "smith, james", "smith, j"}));
}

}  // namespace
