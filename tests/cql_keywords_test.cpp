// The keyword table: consistency, and every keyword parses in at least one example.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "cql/keywords.h"
#include "cql/parser.h"

namespace {

using K = cql::Keyword;

TEST(CqlKeywords, TableIsConsistent) {
  std::set<std::string_view> names;
  size_t i = 0;
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    EXPECT_EQ(static_cast<size_t>(info.keyword), i++) << info.name;
    EXPECT_TRUE(names.insert(info.name).second) << "duplicate " << info.name;
    EXPECT_NE(info.lists, 0) << info.name;
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_EQ(cql::find_keyword(info.name), &info);
    EXPECT_EQ(&cql::keyword_info(info.keyword), &info);
    if (info.same_as) {
      EXPECT_FALSE(cql::keyword_info(*info.same_as).same_as) << info.name;
    }
    if (info.negation_of) {
      EXPECT_EQ(info.signature, cql::Signature::None) << info.name;
    }
  }
  EXPECT_EQ(cql::find_keyword("foo"), nullptr);
  EXPECT_EQ(cql::keyword_spelling(K::LineStar), ":line*");
}

TEST(CqlKeywords, NegatableKeywordsAreTheDocumentedOnes) {
  for (K k : {K::Check, K::Mate, K::Stalemate, K::Initial, K::Terminal, K::EnPassant, K::IsCheck,
              K::IsChess960, K::GoodGame, K::WhiteIsComputer, K::Opposition, K::ThreeChecks})
    EXPECT_TRUE(cql::keyword_info(k).negatable) << cql::keyword_info(k).name;
  for (K k : {K::IsCastling, K::Not, K::PieceCount, K::Wtm, K::Flip, K::Sequence, K::Result})
    EXPECT_FALSE(cql::keyword_info(k).negatable) << cql::keyword_info(k).name;
}

// One example per keyword: 'M' = match-list fragment, 'P' = position-list fragment,
// 'R' = relation-list fragment.
struct Usage {
  char list;
  const char* text;
};

const std::map<K, Usage>& usages() {
  // clang-format off
  static const std::map<K, Usage> m = {
      {K::And, {'P', ":and ((position R) (position Q))"}},
      {K::Cond, {'M', ":cond ((match :result 1-0) (match :whiteplayer \"Kasparov, Garry\"))"}},
      {K::Not, {'P', ":not (position Ra3)"}},
      {K::Or, {'M', ":or ((match :year 2000) (match :year 2001))"}},
      {K::Xor, {'P', ":xor ((position BD?) (position BL?))"}},
      {K::BlackCannotWin, {'P', "!:blackcannotwin"}},
      {K::Btm, {'P', ":btm"}},
      {K::Castling, {'P', ":castling [KQ]"}},
      {K::Check, {'P', ":check [Q]?8"}},
      {K::ContactCheck, {'P', ":contactcheck Q"}},
      {K::DoubleCheck, {'P', ":doublecheck [RB]"}},
      {K::Endgame, {'P', "!:endgame"}},
      {K::Fen, {'P', ":fen \"rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\""}},
      {K::FivefoldRepetition, {'P', ":fivefoldrepetition :cut"}},
      {K::GameIsOver, {'P', ":gameisover"}},
      {K::HalfmoveClock, {'P', ":halfmoveclock <=30"}},
      {K::Initial, {'P', ":initial"}},
      {K::InsideVariation, {'P', "!:insidevariation"}},
      {K::IsPromotedPiece, {'P', ":ispromotedpiece"}},
      {K::KingOnTheHill, {'P', ":kingonthehill"}},
      {K::Losing, {'P', ":losing"}},
      {K::Mate, {'P', ":mate"}},
      {K::MatingMaterial, {'P', "!:matingmaterial"}},
      {K::MustCapture, {'P', ":mustcapture"}},
      {K::NoCheck, {'P', ":nocheck"}},
      {K::Stalemate, {'P', ":stalemate"}},
      {K::Terminal, {'P', ":terminal"}},
      {K::ThreeChecks, {'P', ":threechecks"}},
      {K::ThreefoldRepetition, {'P', ":threefoldrepetition"}},
      {K::Variations, {'P', ":variations"}},
      {K::VariationsOnly, {'P', ":variationsonly"}},
      {K::WhiteCannotWin, {'P', ":whitecannotwin"}},
      {K::Wtm, {'P', ":wtm"}},
      {K::Flip, {'P', "Nd4 kf3 :flip"}},
      {K::FlipColor, {'P', "Rb2 Bg8 :wtm :flipcolor"}},
      {K::FlipDiagonal, {'P', "Rc3 qg3 :flipdiagonal"}},
      {K::FlipDihedral, {'P', "Qc2 :flipdihedral"}},
      {K::FlipHorizontal, {'P', "Rc3 qg3 :fliphorizontal"}},
      {K::FlipVertical, {'P', "bf6 :flipvertical"}},
      {K::Inside, {'P', ":inside P[b2-7] [b2,c3,d4,e5,f6,g7] :piececount P[b2-7] 3 :shifthorizontal"}},
      {K::Shift, {'P', "Pc2 Rc1 :shift"}},
      {K::ShiftDiagonal, {'P', "Qc2 :shiftdiagonal"}},
      {K::ShiftHorizontal, {'P', "Rc3 qg3 :shifthorizontal"}},
      {K::ShiftMainDiagonal, {'P', "Qc2 :shiftmaindiagonal"}},
      {K::ShiftOffDiagonal, {'P', "Qc2 :shiftoffdiagonal"}},
      {K::ShiftVertical, {'P', "Pc2 Rc1 :shiftvertical"}},
      {K::AttackCount, {'P', ":attackcount [RB][a-c8] ??1 5 9"}},
      {K::GoodBishop, {'P', ":goodbishop B[D?] >50% : >50%"}},
      {K::Opposition, {'P', ":opposition K"}},
      {K::PawnCount, {'P', ":pawncount [Pp] isolated-consecutive(3) >=3"}},
      {K::PawnCountDifference, {'P', ":pawncountdifference P[?5-7] p[?2-4] passed-lines >0"}},
      {K::Perpendicular, {'P', ":perpendicular Q r"}},
      {K::PieceCount, {'P', ":piececount [Rr][a1-8] 1 3"}},
      {K::PieceCountDifference, {'P', ":piececountdifference [B][b2,g2] [b][b7,g7] >0"}},
      {K::Power, {'P', ":power A[a-h1-4] 10 25"}},
      {K::PowerDifference, {'P', ":powerdifference [RrBbNn] <=-2"}},
      {K::Ray, {'P', ":ray (Q n k) 2 4"}},
      {K::RayAttack, {'P', ":rayattack (Ad5 a [rk][a-h1-4]) 3"}},
      {K::RayDiagonal, {'P', ":raydiagonal (Q B n k)"}},
      {K::RayHorizontal, {'P', ":rayhorizontal (K .  . k)"}},
      {K::RayOrthogonal, {'P', ":rayorthogonal (R b k)"}},
      {K::RayVertical, {'P', ":rayvertical (R[a1-8] b k)"}},
      {K::CaptureForced, {'P', "!:captureforced"}},
      {K::EnPassant, {'P', ":moveto .e6 :enpassant"}},
      {K::Forced, {'P', ":forced"}},
      {K::HalfmoveNumber, {'P', ":halfmovenumber end-1 :moveto U"}},
      {K::IsCastling, {'P', ":iscastling [Qq]"}},
      {K::IsCheck, {'P', ":ischeck 3"}},
      {K::IsContactCheck, {'P', ":iscontactcheck"}},
      {K::IsDoubleCheck, {'P', ":isdoublecheck"}},
      {K::IsIllegal, {'P', ":isillegal"}},
      {K::IsInvalid, {'P', "!:isinvalid"}},
      {K::IsMate, {'P', ":ismate"}},
      {K::IsNull, {'P', ":isnull"}},
      {K::IsStalemate, {'P', ":isstalemate"}},
      {K::MoveFrom, {'P', ":movefrom [Kk]e?"}},
      {K::MoveNumber, {'P', ":movenumber 10 20 :check"}},
      {K::MoveTo, {'P', ":moveto .[c?,g?]"}},
      {K::NoEnPassant, {'P', ":noenpassant"}},
      {K::Promote, {'P', ":promote [BN]a8"}},
      {K::TakesLastPiece, {'P', ":takeslastpiece"}},
      {K::GappedSequence, {'P', ":gappedsequence ((position :movefrom Ra3) (position :movefrom Rb4))"}},
      {K::Line, {'P', ":line (1.Pe2-e4 Pe7-e6 2.Pd2-d4 Pd7-d5)"}},
      {K::LineStar, {'P', ":line* (Pe2-e4 pd7-d5 Pe4xPd5)"}},
      {K::Match, {'P', ":match ((position R) (position Q))"}},
      {K::MatchConsecutive, {'P', ":matchconsecutive ((position :promote B) (position) (position :promote N))"}},
      {K::Sequence, {'P', ":sequence ((position Qf3 .g2) (position .f3 Qg2))"}},
      {K::BlackElo, {'P', ":blackelo >=2600"}},
      {K::Elo, {'M', ":elo 0"}},
      {K::IsChess960, {'M', "!:ischess960"}},
      {K::IsShuffleChess, {'P', ":isshufflechess"}},
      {K::Result, {'P', ":result 1-0 :flipcolor"}},
      {K::StartPosition, {'M', ":startposition 518,3398"}},
      {K::Variant, {'M', ":variant suicide,giveaway,losers"}},
      {K::WhiteElo, {'P', ":whiteelo 0 2300"}},
      {K::Relation, {'P', ":relation (:missingpiececount A 1 unlimited)"}},
      {K::CheckCount, {'P', ":checkcount 1 : 0"}},
      {K::MatchCount, {'P', ":moveto [Qq] :matchcount >=4"}},
      {K::PretransformMatchCount, {'P', ":moveto [Aa]d4 :pretransformmatchcount >=12 :shift"}},
      {K::PretransformRepetitionCount, {'P', ":moveto Ud4 :pretransformrepetitioncount >=6 :shift"}},
      {K::RepetitionCount, {'P', ":moveto U :repetitioncount >=10"}},
      {K::EndgameEvaluation, {'P', ":endgameevaluation mate >=40"}},
      {K::EndgameEvaluationStar, {'P', ":endgameevaluation* *mate"}},
      {K::Evaluation, {'P', ":evaluation depth 4 >=2.5 sidetomove"}},
      {K::ExchangeEvaluation, {'P', ":exchangeevaluation * <=-2"}},
      {K::MaxSwapEvaluation, {'P', ":maxswapevaluation Q?1-7 ??8 >=0"}},
      {K::MoveEvaluation, {'P', ":moveevaluation A a depth 4 <=-3.0 absolute"}},
      {K::PassedPawnRace, {'P', ":passedpawnrace p"}},
      {K::UnstoppablePawns, {'P', ":unstoppablepawns [Pp][a-d?] >0 : >0"}},
      {K::Accumulate, {'P', "Pd2 :shift :accumulate white_passer_counter"}},
      {K::AccumulateStar, {'P', ":flipcolor :accumulate* counter"}},
      {K::Reset, {'P', ":reset acc Pe2 :accumulate* acc :sumrange acc 3"}},
      {K::SumRange, {'P', ":sumrange white_passer_counter 3 8"}},
      {K::TagMatch, {'M', ":forany pawn [Pp] (position :initial :tagmatch pawn [Pp]?[27])"}},
      {K::ForAny, {'M', ":forany pawn [Pp] (position :tagmatch pawn P)"}},
      {K::Cut, {'P', ":mate :cut (position :check)"}},
      {K::Exclude, {'P', ":exclude (position :check)"}},
      {K::Skip, {'P', ":skip"}},
      {K::MarkAll, {'P', ":markall"}},
      {K::NoAnnotate, {'P', ":noannotate"}},
      {K::BlackRating, {'M', ":blackrating DWZ 2000 2200"}},
      {K::EndMost, {'P', "Nd4 :endmost"}},
      {K::FiftyMoveRule, {'P', ":fiftymoverule"}},
      {K::Final, {'P', ":final"}},
      {K::Following, {'P', "Nd4 :following"}},
      {K::HalfmoveClockLimit, {'P', ":halfmoveclocklimit 30"}},
      {K::NoCastling, {'P', ":nocastling"}},
      {K::NoContactCheck, {'P', ":nocontactcheck"}},
      {K::NoDoubleCheck, {'P', ":nodoublecheck"}},
      {K::NoEndgame, {'P', ":noendgame"}},
      {K::NoLosing, {'P', ":nolosing"}},
      {K::NoMate, {'P', ":nomate"}},
      {K::NoMatingMaterial, {'P', ":nomatingmaterial"}},
      {K::NoPieceDrop, {'P', ":nopiecedrop"}},
      {K::NoStalemate, {'P', ":nostalemate"}},
      {K::Null, {'P', ":null"}},
      {K::PieceDrop, {'P', ":piecedrop [Q]f7"}},
      {K::Preceding, {'P', ":check :preceding"}},
      {K::Repetition, {'P', ":repetition"}},
      {K::WhiteRating, {'P', ":whiterating ELO >=2500 :flipcolor"}},
      {K::ChangeSideToMove, {'R', ":changesidetomove"}},
      {K::IgnoreSideToMove, {'R', ":ignoresidetomove"}},
      {K::MissingPieceCount, {'R', ":missingpiececount A 1 unlimited"}},
      {K::NewPieceCount, {'R', ":newpiececount U 0"}},
      {K::OriginalDifferentCount, {'R', ":originaldifferentcount 0 3"}},
      {K::OriginalSameCount, {'R', ":pattern :shift :flip :originalsamecount 0 :samesidetomove :variations"}},
      {K::Pattern, {'R', ":pattern"}},
      {K::SameSideToMove, {'R', ":samesidetomove :variationsonly"}},
      {K::Event, {'M', ":event \"FIDE-Wch*\""}},
      {K::EventCategory, {'M', ":eventcategory >=XX"}},
      {K::EventCountry, {'M', ":eventcountry dk,fi,no,se"}},
      {K::EventDate, {'M', ":eventdate 1930 1935"}},
      {K::EventMode, {'M', ":eventmode corr,email"}},
      {K::EventType, {'M', ":eventtype tourn,swiss"}},
      {K::Round, {'M', ":round 0 1"}},
      {K::Site, {'M', ":site Berlin"}},
      {K::Subround, {'M', ":subround 0"}},
      {K::TimeMode, {'M', ":timemode blitz,bullet"}},
      {K::AverageRating, {'M', ":averagerating ELO -"}},
      {K::AverageRatingStar, {'M', ":averagerating* ELO >=2500"}},
      {K::BirthYear, {'M', ":birthyear >=1990"}},
      {K::BlackBirthYear, {'M', ":blackbirthyear 1900 1950"}},
      {K::BlackCountry, {'M', ":blackcountry GER"}},
      {K::BlackDeathYear, {'M', ":blackdeathyear <2000"}},
      {K::BlackGender, {'M', ":blackgender f"}},
      {K::BlackId, {'M', ":blackid 4100018"}},
      {K::BlackIsComputer, {'M', "!:blackiscomputer"}},
      {K::BlackIsHuman, {'M', ":blackishuman"}},
      {K::BlackPlayer, {'M', ":blackplayer \"Kasparov, Garry\""}},
      {K::BlackTitle, {'M', ":blacktitle GM"}},
      {K::Country, {'M', ":country de"}},
      {K::DeathYear, {'M', ":deathyear 1800 1950"}},
      {K::Gender, {'M', ":gender x"}},
      {K::IsComputer, {'M', "!:iscomputer"}},
      {K::IsHuman, {'M', ":ishuman"}},
      {K::Player, {'M', ":player coeff"}},
      {K::Rating, {'M', ":rating ELO 2000 3000"}},
      {K::RatingDifference, {'M', ":ratingdifference ELO <=500"}},
      {K::Title, {'M', ":title GM,IM"}},
      {K::WhiteBirthYear, {'M', ":whitebirthyear *"}},
      {K::WhiteCountry, {'M', ":whitecountry UNK"}},
      {K::WhiteDeathYear, {'M', ":whitedeathyear -"}},
      {K::WhiteGender, {'M', ":whitegender m"}},
      {K::WhiteId, {'M', ":whiteid \"2020009\""}},
      {K::WhiteIsComputer, {'M', ":whiteiscomputer"}},
      {K::WhiteIsHuman, {'M', "!:whiteishuman"}},
      {K::WhitePlayer, {'M', ":whiteplayer \"Polgar, J*\""}},
      {K::WhiteTitle, {'M', ":whitetitle None"}},
      {K::Annotator, {'M', ":annotator \"?*\""}},
      {K::Date, {'M', ":date 2010-10-27 .. 2010-10-27-43d"}},
      {K::Eco, {'M', ":eco B00-99,C00-99"}},
      {K::GameNumber, {'M', ":gamenumber 1 100"}},
      {K::HasMarker, {'M', ":hasmarker w,b"}},
      {K::HasSpecialMarker, {'M', ":not (match :hasspecialmarker invalidmove)"}},
      {K::PlyCount, {'M', ":plycount 40 60"}},
      {K::Termination, {'M', ":termination unknown,normal"}},
      {K::Year, {'M', ":year 2000 2010"}},
      {K::Comment, {'M', ":comment \"decisive game\""}},
      {K::Error, {'M', ":error DecodingFailed"}},
      {K::GoodGame, {'M', "!:goodgame"}},
      {K::HasAnnotation, {'M', ":hasannotation"}},
      {K::HasComments, {'M', ":hascomments de,en"}},
      {K::HasVariations, {'M', "!:hasvariations"}},
      {K::Tag, {'M', ":tag WhiteTeamCountry USA"}},
      {K::EitherColor, {'M', ":result 1-0 :whiteelo <=2300 :blackelo >=2600 :eithercolor"}},
      {K::Output, {'M', ":output result.pgn"}},
      {K::Pgn, {'M', ":pgn \"games.pgn\""}},
  };
  // clang-format on
  return m;
}

std::string script_for(const Usage& u) {
  switch (u.list) {
    case 'M':
      return "(match " + std::string(u.text) + ")";
    case 'R':
      return "(match (position :relation (" + std::string(u.text) + ")))";
    default:
      return "(match (position " + std::string(u.text) + "))";
  }
}

TEST(CqlKeywords, EveryKeywordParsesInAnExample) {
  size_t covered = 0;
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    auto it = usages().find(info.keyword);
    if (it == usages().end()) {
      ADD_FAILURE() << "no example for :" << info.name;
      continue;
    }
    std::string text = script_for(it->second);
    cql::ParseResult r = cql::parse(text, "kw.cql");
    if (!r.ok()) {
      ADD_FAILURE() << ":" << info.name << ": " << r.error->what();
      continue;
    }
    bool found = false;
    cql::walk(r.script->match,
              [&](const cql::KeywordItem& k) { found = found || k.keyword == info.keyword; });
    EXPECT_TRUE(found) << ":" << info.name << " not in the AST of " << text;
    if (found) ++covered;
  }
  EXPECT_EQ(covered, cql::all_keywords().size());
}

TEST(CqlKeywords, EveryKeywordIsRejectedInListsThatDoNotAcceptIt) {
  for (const cql::KeywordInfo& info : cql::all_keywords()) {
    auto it = usages().find(info.keyword);
    if (it == usages().end()) continue;
    for (char list : {'M', 'P', 'R'}) {
      uint8_t bit = list == 'M' ? cql::kInMatch : list == 'P' ? cql::kInPosition : cql::kInRelation;
      if (info.lists & bit) continue;
      std::string text = script_for(Usage{list, (":" + std::string(info.name)).c_str()});
      cql::ParseResult r = cql::parse(text, "kw.cql");
      ASSERT_FALSE(r.ok()) << text;
      EXPECT_NE(std::string(r.error->what()).find("is not allowed in a"), std::string::npos)
          << r.error->what();
    }
  }
}

TEST(CqlKeywords, TableSize) {
  // 75 keywords allowed in match lists, 139 in position lists, 12 in relation lists; a name
  // shared by several lists (e.g. :and, :result, :shift) is one keyword.
  EXPECT_EQ(cql::all_keywords().size(), 207u);
}

}  // namespace
