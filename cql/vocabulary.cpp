#include "cql/vocabulary.h"

#include <utility>

namespace cql {

namespace {

template <class E>
struct Word {
  std::string_view text;
  E value;
  bool canonical;  // used by to_string
};

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

template <class E, size_t N>
std::optional<E> lookup(const Word<E> (&table)[N], std::string_view w) {
  for (const auto& entry : table)
    if (iequals(entry.text, w)) return entry.value;
  return std::nullopt;
}

template <class E, size_t N>
std::string_view spell(const Word<E> (&table)[N], E v) {
  for (const auto& entry : table)
    if (entry.value == v && entry.canonical) return entry.text;
  return "?";
}

template <class E, size_t N>
std::string words(const Word<E> (&table)[N]) {
  std::string out;
  for (const auto& entry : table) {
    if (!entry.canonical) continue;
    if (!out.empty()) out += ", ";
    out += entry.text;
  }
  return out;
}

const Word<GameResult> kResults[] = {
    {"1-0", GameResult::WhiteWins, true}, {"0-1", GameResult::BlackWins, true},
    {"1/2", GameResult::Draw, true},      {"1/2-1/2", GameResult::Draw, false},
    {"0-0", GameResult::BothLose, true},  {"*", GameResult::Unknown, true}};
const Word<EventMode> kEventModes[] = {
    {"unknown", EventMode::Unknown, true},     {"otb", EventMode::OverTheBoard, true},
    {"corr", EventMode::Correspondence, true}, {"email", EventMode::Email, true},
    {"internet", EventMode::Internet, true},   {"tele", EventMode::Telecommunication, true},
    {"analysis", EventMode::Analysis, true},   {"composition", EventMode::Composition, true}};
const Word<EventType> kEventTypes[] = {
    {"unknown", EventType::Unknown, true},   {"game", EventType::Game, true},
    {"match", EventType::Match, true},       {"tourn", EventType::Tournament, true},
    {"knockout", EventType::Knockout, true}, {"swiss", EventType::Swiss, true},
    {"team", EventType::Team, true},         {"schev", EventType::Scheveningen, true},
    {"simul", EventType::Simultaneous, true}};
const Word<TimeMode> kTimeModes[] = {
    {"unknown", TimeMode::Unknown, true}, {"normal", TimeMode::Normal, true},
    {"rapid", TimeMode::Rapid, true},     {"blitz", TimeMode::Blitz, true},
    {"bullet", TimeMode::Bullet, true},   {"corr", TimeMode::Correspondence, true}};
const Word<Termination> kTerminations[] = {{"unknown", Termination::Unknown, true},
                                           {"normal", Termination::Normal, true},
                                           {"abandoned", Termination::Abandoned, true},
                                           {"adjudication", Termination::Adjudication, true},
                                           {"disconnection", Termination::Disconnection, true},
                                           {"emergency", Termination::Emergency, true},
                                           {"rulesinfraction", Termination::RulesInfraction, true},
                                           {"timeforfeit", Termination::TimeForfeit, true},
                                           {"unplayed", Termination::Unplayed, true},
                                           {"unterminated", Termination::Unterminated, true}};
const Word<Gender> kGenders[] = {{"f", Gender::Female, true},
                                 {"w", Gender::Female, false},
                                 {"m", Gender::Male, true},
                                 {"x", Gender::Unknown, true}};
const Word<SpecialMarker> kSpecialMarkers[] = {{"deleted", SpecialMarker::Deleted, true},
                                               {"changed", SpecialMarker::Changed, true},
                                               {"added", SpecialMarker::Added, true},
                                               {"addedd", SpecialMarker::Added, false},
                                               {"illegalmove", SpecialMarker::IllegalMove, true},
                                               {"invalidmove", SpecialMarker::InvalidMove, true}};
const Word<DecodeError> kDecodeErrors[] = {
    {"None", DecodeError::None, true},
    {"DecodingFailed", DecodeError::DecodingFailed, true},
    {"GameDataCorrupted", DecodeError::GameDataCorrupted, true},
    {"ChecksumError", DecodeError::ChecksumError, true},
    {"IllegalStartPosition", DecodeError::IllegalStartPosition, true},
    {"CannotDecodeMove", DecodeError::CannotDecodeMove, true},
    {"UnexpectedEndOfStream", DecodeError::UnexpectedEndOfStream, true}};
const Word<RatingSystem> kRatingSystems[] = {
    {"ELO", RatingSystem::Elo, true},     {"DWZ", RatingSystem::Dwz, true},
    {"ECF", RatingSystem::Ecf, true},     {"ACF", RatingSystem::Acf, true},
    {"USCF", RatingSystem::Uscf, true},   {"Rapid", RatingSystem::Rapid, true},
    {"Blitz", RatingSystem::Blitz, true}, {"ICCF", RatingSystem::Iccf, true},
    {"Edo", RatingSystem::Edo, true}};
const Word<EndgameOutcome> kEndgameOutcomes[] = {{"remis", EndgameOutcome::Draw, true},
                                                 {"mate", EndgameOutcome::SideToMoveWins, true},
                                                 {"*mate", EndgameOutcome::EitherWins, true},
                                                 {"+mate", EndgameOutcome::WhiteWins, true},
                                                 {"-mate", EndgameOutcome::BlackWins, true}};

}  // namespace

std::optional<GameResult> parse_game_result(std::string_view w) {
  return lookup(kResults, w);
}
std::optional<EventMode> parse_event_mode(std::string_view w) {
  return lookup(kEventModes, w);
}
std::optional<EventType> parse_event_type(std::string_view w) {
  return lookup(kEventTypes, w);
}
std::optional<TimeMode> parse_time_mode(std::string_view w) {
  return lookup(kTimeModes, w);
}
std::optional<Termination> parse_termination(std::string_view w) {
  return lookup(kTerminations, w);
}
std::optional<Gender> parse_gender(std::string_view w) {
  return lookup(kGenders, w);
}
std::optional<SpecialMarker> parse_special_marker(std::string_view w) {
  return lookup(kSpecialMarkers, w);
}
std::optional<DecodeError> parse_decode_error(std::string_view w) {
  return lookup(kDecodeErrors, w);
}
std::optional<RatingSystem> parse_rating_system(std::string_view w) {
  return lookup(kRatingSystems, w);
}
std::optional<EndgameOutcome> parse_endgame_outcome(std::string_view w) {
  return lookup(kEndgameOutcomes, w);
}

std::string_view to_string(GameResult v) {
  return spell(kResults, v);
}
std::string_view to_string(EventMode v) {
  return spell(kEventModes, v);
}
std::string_view to_string(EventType v) {
  return spell(kEventTypes, v);
}
std::string_view to_string(TimeMode v) {
  return spell(kTimeModes, v);
}
std::string_view to_string(Termination v) {
  return spell(kTerminations, v);
}
std::string_view to_string(Gender v) {
  return spell(kGenders, v);
}
std::string_view to_string(SpecialMarker v) {
  return spell(kSpecialMarkers, v);
}
std::string_view to_string(DecodeError v) {
  return spell(kDecodeErrors, v);
}
std::string_view to_string(RatingSystem v) {
  return spell(kRatingSystems, v);
}
std::string_view to_string(EndgameOutcome v) {
  return spell(kEndgameOutcomes, v);
}
std::string_view to_string(EngineLimit v) {
  return v == EngineLimit::Depth ? "depth" : "movetime";
}
std::string_view to_string(ScoreView v) {
  return v == ScoreView::SideToMove ? "sidetomove" : "absolute";
}

template <>
std::string vocabulary_words<GameResult>() {
  return words(kResults);
}
template <>
std::string vocabulary_words<EventMode>() {
  return words(kEventModes);
}
template <>
std::string vocabulary_words<EventType>() {
  return words(kEventTypes);
}
template <>
std::string vocabulary_words<TimeMode>() {
  return words(kTimeModes);
}
template <>
std::string vocabulary_words<Termination>() {
  return words(kTerminations);
}
template <>
std::string vocabulary_words<Gender>() {
  return words(kGenders);
}
template <>
std::string vocabulary_words<SpecialMarker>() {
  return words(kSpecialMarkers);
}
template <>
std::string vocabulary_words<DecodeError>() {
  return words(kDecodeErrors);
}
template <>
std::string vocabulary_words<RatingSystem>() {
  return words(kRatingSystems);
}
template <>
std::string vocabulary_words<EndgameOutcome>() {
  return words(kEndgameOutcomes);
}

}  // namespace cql
