// Closed word lists used by match-list keywords (CQL-Match-List) and the analysis keywords.
// Each enum has a spelling table: parse_* accepts the documented words (case-insensitive),
// to_string gives the canonical word.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cql {

/// :result — `1-0`, `0-1`, `1/2` (also `1/2-1/2`), `0-0` (both lose), `*` (unknown).
enum class GameResult : uint8_t { WhiteWins, BlackWins, Draw, BothLose, Unknown };
/// :eventmode
enum class EventMode : uint8_t {
  Unknown,
  OverTheBoard,
  Correspondence,
  Email,
  Internet,
  Telecommunication,
  Analysis,
  Composition
};
/// :eventtype
enum class EventType : uint8_t {
  Unknown,
  Game,
  Match,
  Tournament,
  Knockout,
  Swiss,
  Team,
  Scheveningen,
  Simultaneous
};
/// :timemode
enum class TimeMode : uint8_t { Unknown, Normal, Rapid, Blitz, Bullet, Correspondence };
/// :termination
enum class Termination : uint8_t {
  Unknown,
  Normal,
  Abandoned,
  Adjudication,
  Disconnection,
  Emergency,
  RulesInfraction,
  TimeForfeit,
  Unplayed,
  Unterminated
};
/// :gender, :whitegender, :blackgender — `w` is accepted for female.
enum class Gender : uint8_t { Female, Male, Unknown };
/// :hasspecialmarker — the page spells "addedd"; both spellings are accepted.
enum class SpecialMarker : uint8_t { Deleted, Changed, Added, IllegalMove, InvalidMove };
/// :error
enum class DecodeError : uint8_t {
  None,
  DecodingFailed,
  GameDataCorrupted,
  ChecksumError,
  IllegalStartPosition,
  CannotDecodeMove,
  UnexpectedEndOfStream
};
/// :rating and friends
enum class RatingSystem : uint8_t { Elo, Dwz, Ecf, Acf, Uscf, Rapid, Blitz, Iccf, Edo };
/// :endgameevaluation — remis, mate (side to move wins), *mate (either), +mate (white), -mate
/// (black).
enum class EndgameOutcome : uint8_t { Draw, SideToMoveWins, EitherWins, WhiteWins, BlackWins };
/// :evaluation / :moveevaluation computation mode.
enum class EngineLimit : uint8_t { Depth, MoveTime };
/// :evaluation / :moveevaluation score perspective.
enum class ScoreView : uint8_t { SideToMove, Absolute };

std::optional<GameResult> parse_game_result(std::string_view w);
std::optional<EventMode> parse_event_mode(std::string_view w);
std::optional<EventType> parse_event_type(std::string_view w);
std::optional<TimeMode> parse_time_mode(std::string_view w);
std::optional<Termination> parse_termination(std::string_view w);
std::optional<Gender> parse_gender(std::string_view w);
std::optional<SpecialMarker> parse_special_marker(std::string_view w);
std::optional<DecodeError> parse_decode_error(std::string_view w);
std::optional<RatingSystem> parse_rating_system(std::string_view w);
std::optional<EndgameOutcome> parse_endgame_outcome(std::string_view w);

std::string_view to_string(GameResult v);
std::string_view to_string(EventMode v);
std::string_view to_string(EventType v);
std::string_view to_string(TimeMode v);
std::string_view to_string(Termination v);
std::string_view to_string(Gender v);
std::string_view to_string(SpecialMarker v);
std::string_view to_string(DecodeError v);
std::string_view to_string(RatingSystem v);
std::string_view to_string(EndgameOutcome v);
std::string_view to_string(EngineLimit v);
std::string_view to_string(ScoreView v);

/// The accepted words of a vocabulary, comma-separated, for "expected ..." messages.
template <class E>
std::string vocabulary_words();
template <>
std::string vocabulary_words<GameResult>();
template <>
std::string vocabulary_words<EventMode>();
template <>
std::string vocabulary_words<EventType>();
template <>
std::string vocabulary_words<TimeMode>();
template <>
std::string vocabulary_words<Termination>();
template <>
std::string vocabulary_words<Gender>();
template <>
std::string vocabulary_words<SpecialMarker>();
template <>
std::string vocabulary_words<DecodeError>();
template <>
std::string vocabulary_words<RatingSystem>();
template <>
std::string vocabulary_words<EndgameOutcome>();

}  // namespace cql
