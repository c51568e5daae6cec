#include "cql/keyword_help.h"

#include <algorithm>
#include <cctype>

namespace cql {

namespace {

using K = Keyword;

// Generated once from the enum's family comments, tests/keyword_examples.h and the seed and
// reference pages (first section that documents the keyword); edited by hand since.
// clang-format off
constexpr KeywordHelp kHelp[] = {
    {K::And, "Logical (match and position lists)", 'P', ":and ((position R) (position Q))", "CQL 1.0 manual, \"Logical keywords\""},
    {K::Cond, "Logical (match and position lists)", 'M', ":cond ((match :result 1-0) (match :whiteplayer \"Kasparov, Garry\"))", "manual page CQL-Position-List, \"Logical keywords\" (#position:cond)"},
    {K::Not, "Logical (match and position lists)", 'P', ":not (position Ra3)", "CQL 1.0 manual, \"Logical keywords\""},
    {K::Or, "Logical (match and position lists)", 'M', ":or ((match :year 2000) (match :year 2001))", "CQL 1.0 manual, \"Logical keywords\""},
    {K::Xor, "Logical (match and position lists)", 'P', ":xor ((position BD?) (position BL?))", "manual page CQL-Position-List, \"Logical keywords\" (#position:xor)"},
    {K::BlackCannotWin, "Simple position keywords", 'P', "!:blackcannotwin", "manual page CQL-Position-List, \"Simple keywords\" (#position:blackcannotwin)"},
    {K::Btm, "Simple position keywords", 'P', ":btm", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::Castling, "Simple position keywords", 'P', ":castling [KQ]", "manual page CQL-Position-List, \"Simple keywords\" (#position:castling)"},
    {K::Check, "Simple position keywords", 'P', ":check [Q]?8", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::ContactCheck, "Simple position keywords", 'P', ":contactcheck Q", "manual page CQL-Position-List, \"Simple keywords\" (#position:contactcheck)"},
    {K::DoubleCheck, "Simple position keywords", 'P', ":doublecheck [RB]", "manual page CQL-Position-List, \"Simple keywords\" (#position:doublecheck)"},
    {K::Endgame, "Simple position keywords", 'P', "!:endgame", "manual page CQL-Position-List, \"Simple keywords\" (#position:endgame)"},
    {K::Fen, "Simple position keywords", 'P', ":fen \"rnbqkbnr/pppp1ppp/4p3/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2\"", "manual page CQL-Position-List, \"Simple keywords\" (#position:fen)"},
    {K::FivefoldRepetition, "Simple position keywords", 'P', ":fivefoldrepetition :cut", "manual page CQL-Position-List, \"Simple keywords\" (#position:fivefoldrepetition)"},
    {K::GameIsOver, "Simple position keywords", 'P', ":gameisover", "manual page CQL-Position-List, \"Simple keywords\" (#position:gameisover)"},
    {K::HalfmoveClock, "Simple position keywords", 'P', ":halfmoveclock <=30", "manual page CQL-Position-List, \"Simple keywords\" (#position:halfmoveclock)"},
    {K::Initial, "Simple position keywords", 'P', ":initial", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::InsideVariation, "Simple position keywords", 'P', "!:insidevariation", "manual page CQL-Position-List, \"Simple keywords\" (#position:insidevariation)"},
    {K::IsPromotedPiece, "Simple position keywords", 'P', ":ispromotedpiece", "manual page CQL-Position-List, \"Simple keywords\""},
    {K::KingOnTheHill, "Simple position keywords", 'P', ":kingonthehill", "manual page CQL-Position-List (German edition), \"Einfache Schlüsselwörter\" (#position:kingonthehill)"},
    {K::Losing, "Simple position keywords", 'P', ":losing", "manual page CQL-Position-List, \"Simple keywords\" (#position:losing)"},
    {K::Mate, "Simple position keywords", 'P', ":mate", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::MatingMaterial, "Simple position keywords", 'P', "!:matingmaterial", "manual page CQL-Position-List, \"Simple keywords\" (#position:matingmaterial)"},
    {K::MustCapture, "Simple position keywords", 'P', ":mustcapture", "manual page CQL-Position-List, \"Simple keywords\" (#position:mustcapture)"},
    {K::NoCheck, "Simple position keywords", 'P', ":nocheck", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::Stalemate, "Simple position keywords", 'P', ":stalemate", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::Terminal, "Simple position keywords", 'P', ":terminal", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::ThreeChecks, "Simple position keywords", 'P', ":threechecks", "manual page CQL-Position-List (German edition), \"Einfache Schlüsselwörter\" (#position:threechecks)"},
    {K::ThreefoldRepetition, "Simple position keywords", 'P', ":threefoldrepetition", "manual page CQL-Position-List, \"Simple keywords\" (#position:threefoldrepetition)"},
    {K::Variations, "Simple position keywords", 'P', ":variations", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::VariationsOnly, "Simple position keywords", 'P', ":variationsonly", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::WhiteCannotWin, "Simple position keywords", 'P', ":whitecannotwin", "manual page CQL-Position-List, \"Simple keywords\" (#position:whitecannotwin)"},
    {K::Wtm, "Simple position keywords", 'P', ":wtm", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::Flip, "Transformations", 'P', "Nd4 kf3 :flip", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::FlipColor, "Transformations", 'P', "Rb2 Bg8 :wtm :flipcolor", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::FlipDiagonal, "Transformations", 'P', "Rc3 qg3 :flipdiagonal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::FlipDihedral, "Transformations", 'P', "Qc2 :flipdihedral", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::FlipHorizontal, "Transformations", 'P', "Rc3 qg3 :fliphorizontal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::FlipVertical, "Transformations", 'P', "bf6 :flipvertical", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::Inside, "Transformations", 'P', ":inside P[b2-7] [b2,c3,d4,e5,f6,g7] :piececount P[b2-7] 3 :shifthorizontal", "manual page CQL-Position-List, \"Transformation keywords\" (#position:inside)"},
    {K::Shift, "Transformations", 'P', "Pc2 Rc1 :shift", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::ShiftDiagonal, "Transformations", 'P', "Qc2 :shiftdiagonal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::ShiftHorizontal, "Transformations", 'P', "Rc3 qg3 :shifthorizontal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::ShiftMainDiagonal, "Transformations", 'P', "Qc2 :shiftmaindiagonal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::ShiftOffDiagonal, "Transformations", 'P', "Qc2 :shiftoffdiagonal", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::ShiftVertical, "Transformations", 'P', "Pc2 Rc1 :shiftvertical", "CQL 1.0 manual, \"Transformation keywords in a position list\"; manual page CQL-Transformations"},
    {K::AttackCount, "Piece configuration", 'P', ":attackcount [RB][a-c8] ??1 5 9", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::GoodBishop, "Piece configuration", 'P', ":goodbishop B[D?] >50% : >50%", "manual page CQL-Position-List, \"Piece configuration keywords\" (#position:goodbishop)"},
    {K::Opposition, "Piece configuration", 'P', ":opposition K", "manual page CQL-Position-List, \"Piece configuration keywords\" (#position:opposition)"},
    {K::PawnCount, "Piece configuration", 'P', ":pawncount [Pp] isolated-consecutive(3) >=3", "manual page CQL-Position-List, \"Piece configuration keywords\" (#position:pawncount)"},
    {K::PawnCountDifference, "Piece configuration", 'P', ":pawncountdifference P[?5-7] p[?2-4] passed-lines >0", "manual page CQL-Position-List, \"Piece configuration keywords\" (#position:pawncountdifference)"},
    {K::Perpendicular, "Piece configuration", 'P', ":perpendicular Q r", "manual page CQL-Position-List (German edition), \"Schlüsselwörter für die Figurenanalyse\" (#position:perpendicular)"},
    {K::PieceCount, "Piece configuration", 'P', ":piececount [Rr][a1-8] 1 3", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::PieceCountDifference, "Piece configuration", 'P', ":piececountdifference [B][b2,g2] [b][b7,g7] >0", "manual page CQL-Position-List (German edition), \"Schlüsselwörter für die Figurenanalyse\" (#position:piececountdifference)"},
    {K::Power, "Piece configuration", 'P', ":power A[a-h1-4] 10 25", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::PowerDifference, "Piece configuration", 'P', ":powerdifference [RrBbNn] <=-2", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::Ray, "Piece configuration", 'P', ":ray (Q n k) 2 4", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::RayAttack, "Piece configuration", 'P', ":rayattack (Ad5 a [rk][a-h1-4]) 3", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::RayDiagonal, "Piece configuration", 'P', ":raydiagonal (Q B n k)", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::RayHorizontal, "Piece configuration", 'P', ":rayhorizontal (K .  . k)", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::RayOrthogonal, "Piece configuration", 'P', ":rayorthogonal (R b k)", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::RayVertical, "Piece configuration", 'P', ":rayvertical (R[a1-8] b k)", "CQL 1.0 manual, \"Piece configuration keywords\""},
    {K::CaptureForced, "Moves", 'P', "!:captureforced", "manual page CQL-Position-List, \"Move keywords\" (#position:captureforced)"},
    {K::EnPassant, "Moves", 'P', ":moveto .e6 :enpassant", "CQL 1.0 manual, \"Move keywords\""},
    {K::Forced, "Moves", 'P', ":forced", "manual page CQL-Position-List, \"Move keywords\" (#position:forced)"},
    {K::HalfmoveNumber, "Moves", 'P', ":halfmovenumber end-1 :moveto U", "manual page CQL-Position-List, \"Move keywords\" (#position:halfmovenumber)"},
    {K::IsCastling, "Moves", 'P', ":iscastling [Qq]", "manual page CQL-Position-List, \"Move keywords\" (#position:iscastling)"},
    {K::IsCheck, "Moves", 'P', ":ischeck 3", "manual page CQL-Position-List, \"Move keywords\" (#position:ischeck)"},
    {K::IsContactCheck, "Moves", 'P', ":iscontactcheck", "manual page CQL-Position-List, \"Move keywords\" (#position:iscontactcheck)"},
    {K::IsDoubleCheck, "Moves", 'P', ":isdoublecheck", "manual page CQL-Position-List, \"Move keywords\" (#position:isdoublecheck)"},
    {K::IsIllegal, "Moves", 'P', ":isillegal", "manual page CQL-Position-List, \"Move keywords\" (#position:isillegal)"},
    {K::IsInvalid, "Moves", 'P', "!:isinvalid", "manual page CQL-Position-List, \"Move keywords\" (#position:isinvalid)"},
    {K::IsMate, "Moves", 'P', ":ismate", "manual page CQL-Position-List, \"Move keywords\" (#position:ismate)"},
    {K::IsNull, "Moves", 'P', ":isnull", "manual page CQL-Position-List, \"Move keywords\" (#position:isnull)"},
    {K::IsStalemate, "Moves", 'P', ":isstalemate", "manual page CQL-Position-List, \"Move keywords\" (#position:isstalemate)"},
    {K::MoveFrom, "Moves", 'P', ":movefrom [Kk]e?", "CQL 1.0 manual, \"Move keywords\""},
    {K::MoveNumber, "Moves", 'P', ":movenumber 10 20 :check", "CQL 1.0 manual, \"Move keywords\""},
    {K::MoveTo, "Moves", 'P', ":moveto .[c?,g?]", "CQL 1.0 manual, \"Move keywords\""},
    {K::NoEnPassant, "Moves", 'P', ":noenpassant", "CQL 1.0 manual, \"Move keywords\""},
    {K::Promote, "Moves", 'P', ":promote [BN]a8", "CQL 1.0 manual, \"Move keywords\""},
    {K::TakesLastPiece, "Moves", 'P', ":takeslastpiece", "manual page CQL-Position-List, \"Move keywords\" (#position:takeslastpiece)"},
    {K::GappedSequence, "Sequences", 'P', ":gappedsequence ((position :movefrom Ra3) (position :movefrom Rb4))", "CQL 1.0 manual, \"Sequence keywords\""},
    {K::Line, "Sequences", 'P', ":line (1.e4 e6 2.d4 d5)", "manual page CQL-Position-List, \"Sequence keywords\" (#position:line)"},
    {K::LineStar, "Sequences", 'P', ":line* (Pe2-e4 pd7-d5 Pe4xPd5)", "manual page CQL-Position-List, \"Simple keywords\""},
    {K::Match, "Sequences", 'P', ":match ((position R) (position Q))", "manual page CQL-Position-List, \"Sequence keywords\" (#position:match)"},
    {K::MatchConsecutive, "Sequences", 'P', ":matchconsecutive ((position :promote B) (position) (position :promote N))", "manual page CQL-Position-List, \"Sequence keywords\" (#position:matchconsecutive)"},
    {K::Sequence, "Sequences", 'P', ":sequence ((position Qf3 .g2) (position .f3 Qg2))", "CQL 1.0 manual, \"Sequence keywords\""},
    {K::BlackElo, "Game information usable in position lists (and match lists)", 'P', ":blackelo >=2600", "CQL 1.0 manual, \"Game-related position list keywords\""},
    {K::Elo, "Game information usable in position lists (and match lists)", 'M', ":elo 0", "CQL 1.0 manual, \"Game-related position list keywords\""},
    {K::IsChess960, "Game information usable in position lists (and match lists)", 'M', "!:ischess960", "manual page CQL-Position-List, \"Game related keywords\" (#match:ischess960)"},
    {K::IsShuffleChess, "Game information usable in position lists (and match lists)", 'P', ":isshufflechess", "manual page CQL-Position-List, \"Game related keywords\" (#match:isshufflechess)"},
    {K::Result, "Game information usable in position lists (and match lists)", 'P', ":result 1-0 :flipcolor", "CQL 1.0 manual, \"Game-related position list keywords\""},
    {K::StartPosition, "Game information usable in position lists (and match lists)", 'M', ":startposition 518,3398", "manual page CQL-Position-List, \"Game related keywords\" (#match:startposition)"},
    {K::Variant, "Game information usable in position lists (and match lists)", 'M', ":variant suicide,giveaway,losers", "manual page CQL-Position-List, \"Game related keywords\" (#position:variant)"},
    {K::WhiteElo, "Game information usable in position lists (and match lists)", 'P', ":whiteelo 0 2300", "CQL 1.0 manual, \"Game-related position list keywords\""},
    {K::Relation, "Relation", 'P', ":relation (:missingpiececount A 1 unlimited)", "CQL 1.0 manual, \"Relations between positions\""},
    {K::CheckCount, "Counting", 'P', ":checkcount 1 : 0", "manual page CQL-Position-List, \"Simple keywords\" (#position:checkcount)"},
    {K::MatchCount, "Counting", 'P', ":moveto [Qq] :matchcount >=4", "CQL 1.0 manual, \"Matching count keywords\""},
    {K::PretransformMatchCount, "Counting", 'P', ":moveto [Aa]d4 :pretransformmatchcount >=12 :shift", "CQL 1.0 manual, \"Matching count keywords\""},
    {K::PretransformRepetitionCount, "Counting", 'P', ":moveto Ud4 :pretransformrepetitioncount >=6 :shift", "manual page CQL-Position-List, \"Matching count keywords\" (#position:pretransformrepetitioncount)"},
    {K::RepetitionCount, "Counting", 'P', ":moveto U :repetitioncount >=10", "manual page CQL-Position-List, \"Matching count keywords\" (#position:repetitioncount)"},
    {K::EndgameEvaluation, "Analysis", 'P', ":endgameevaluation mate >=40", "manual page CQL-Position-List, \"Analyzing keywords\" (#position:endgameevaluation)"},
    {K::EndgameEvaluationStar, "Analysis", 'P', ":endgameevaluation* *mate", "manual page CQL-Position-List, \"Analyzing keywords\""},
    {K::Evaluation, "Analysis", 'M', ":year 1931 (position :terminal :evaluation depth 4 >=2.5 sidetomove)", "manual page CQL-Position-List, \"Analyzing keywords\" (#position:evaluation)"},
    {K::ExchangeEvaluation, "Analysis", 'P', ":exchangeevaluation * <=-2", "manual page CQL-Position-List, \"Analyzing keywords\" (#position:exchangeevaluation)"},
    {K::MaxSwapEvaluation, "Analysis", 'P', ":maxswapevaluation Q?1-7 ??8 >=0", "manual page CQL-Position-List, \"Analyzing keywords\" (#position:maxswapevaluation)"},
    {K::MoveEvaluation, "Analysis", 'M', ":year 1931 (position :movenumber 30 :wtm :moveevaluation A a depth 4 <=-3.0 absolute)", "manual page CQL-Position-List, \"Analyzing keywords\" (#position:moveevaluation)"},
    {K::PassedPawnRace, "Analysis", 'P', ":passedpawnrace p", "manual page CQL-Position-List (German edition), \"Schlüsselwörter für die Stellungs- und Zugbeurteilung\" (#position:passedpawnrace)"},
    {K::UnstoppablePawns, "Analysis", 'P', ":unstoppablepawns [Pp][a-d?] >0 : >0", "manual page CQL-Position-List (German edition), \"Schlüsselwörter für die Stellungs- und Zugbeurteilung\" (#position:unstoppablepawns)"},
    {K::Accumulate, "Accumulators", 'P', "Pd2 :shift :accumulate white_passer_counter", "CQL 1.0 manual, \"Accumulator keywords\""},
    {K::AccumulateStar, "Accumulators", 'P', ":flipcolor :accumulate* counter", "manual page CQL-Position-List, \"Accumulator keywords\""},
    {K::Reset, "Accumulators", 'P', ":reset acc Pe2 :accumulate* acc :sumrange acc 3", "manual page CQL-Position-List, \"Accumulator keywords\" (#position:reset)"},
    {K::SumRange, "Accumulators", 'P', "Pd2 :shift :accumulate white_passer_counter :sumrange white_passer_counter 3 8", "CQL 1.0 manual, \"Accumulator keywords\""},
    {K::TagMatch, "Tagging", 'M', ":forany pawn [Pp] (position :initial :tagmatch pawn [Pp]?[27])", "CQL 1.0 manual, \"Tagging keywords\""},
    {K::ForAny, "Tagging", 'M', ":forany pawn [Pp] (position :tagmatch pawn P)", "manual page CQL-Match-List, \"Tagging related keywords\" (#match:forany)"},
    {K::Cut, "Control", 'P', ":mate :cut (position :check)", "manual page CQL-Position-List, \"Controlling keywords\" (#position:cut)"},
    {K::Exclude, "Control", 'P', ":exclude (position :check)", "manual page CQL-Position-List, \"Controlling keywords\" (#position:exclude)"},
    {K::Skip, "Control", 'P', ":skip", "manual page CQL-Position-List, \"Controlling keywords\" (#position:skip)"},
    {K::MarkAll, "Meaningless (CQL 1.0 compatibility)", 'P', ":markall", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::NoAnnotate, "Meaningless (CQL 1.0 compatibility)", 'P', ":noannotate", "CQL 1.0 manual, \"Simple keywords in a position list\""},
    {K::BlackRating, "Older Scidb position-list keywords and see-also spellings", 'M', ":blackrating DWZ 2000 2200", "manual page CQL-Position-List, \"Game related keywords\" (#position:blackrating)"},
    {K::EndMost, "Older Scidb position-list keywords and see-also spellings", 'P', "Nd4 :endmost", "manual page CQL-Position-List, \"Controlling keywords\" (#position:endmost)"},
    {K::FiftyMoveRule, "Older Scidb position-list keywords and see-also spellings", 'P', ":fiftymoverule", "manual page CQL-Position-List, \"Simple keywords\" (#position:fiftymoverule)"},
    {K::Final, "Older Scidb position-list keywords and see-also spellings", 'P', ":final", "manual page CQL-Position-List, \"Move keywords\""},
    {K::Following, "Older Scidb position-list keywords and see-also spellings", 'P', "Nd4 :following", "manual page CQL-Position-List, \"Controlling keywords\" (#position:following)"},
    {K::HalfmoveClockLimit, "Older Scidb position-list keywords and see-also spellings", 'P', ":halfmoveclocklimit 30", "manual page CQL-Position-List, \"Simple keywords\" (#position:halfmoveclocklimit)"},
    {K::NoCastling, "Older Scidb position-list keywords and see-also spellings", 'P', ":nocastling", "manual page CQL-Position-List, \"Move keywords\" (#position:nocastling)"},
    {K::NoContactCheck, "Older Scidb position-list keywords and see-also spellings", 'P', ":nocontactcheck", "manual page CQL-Position-List, \"Simple keywords\" (#position:nocontactcheck)"},
    {K::NoDoubleCheck, "Older Scidb position-list keywords and see-also spellings", 'P', ":nodoublecheck", "manual page CQL-Position-List, \"Simple keywords\" (#position:nodoublecheck)"},
    {K::NoEndgame, "Older Scidb position-list keywords and see-also spellings", 'P', ":noendgame", "manual page CQL-Position-List, \"Simple keywords\" (#position:noendgame)"},
    {K::NoLosing, "Older Scidb position-list keywords and see-also spellings", 'P', ":nolosing", "manual page CQL-Position-List, \"Index\""},
    {K::NoMate, "Older Scidb position-list keywords and see-also spellings", 'P', ":nomate", "manual page CQL-Position-List, \"Simple keywords\" (#position:nomate)"},
    {K::NoMatingMaterial, "Older Scidb position-list keywords and see-also spellings", 'P', ":nomatingmaterial", "manual page CQL-Position-List, \"Simple keywords\" (#position:nomatingmaterial)"},
    {K::NoPieceDrop, "Older Scidb position-list keywords and see-also spellings", 'P', ":nopiecedrop", "manual page CQL-Position-List, \"Move keywords\""},
    {K::NoStalemate, "Older Scidb position-list keywords and see-also spellings", 'P', ":nostalemate", "manual page CQL-Position-List, \"Simple keywords\" (#position:nostalemate)"},
    {K::Null, "Older Scidb position-list keywords and see-also spellings", 'P', ":null", "manual page CQL-Position-List, \"Move keywords\""},
    {K::PieceDrop, "Older Scidb position-list keywords and see-also spellings", 'P', ":piecedrop [Q]f7", "manual page CQL-Position-List, \"Move keywords\" (#position:piecedrop)"},
    {K::Preceding, "Older Scidb position-list keywords and see-also spellings", 'P', ":check :preceding", "manual page CQL-Position-List, \"Controlling keywords\" (#position:preceding)"},
    {K::Repetition, "Older Scidb position-list keywords and see-also spellings", 'P', ":repetition", "manual page CQL-Position-List, \"Simple keywords\" (#position:repetition)"},
    {K::WhiteRating, "Older Scidb position-list keywords and see-also spellings", 'P', ":whiterating ELO >=2500 :flipcolor", "manual page CQL-Position-List, \"Game related keywords\" (#position:whiterating)"},
    {K::ChangeSideToMove, "Relation list", 'R', ":changesidetomove", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:changesidetomove)"},
    {K::IgnoreSideToMove, "Relation list", 'R', ":ignoresidetomove", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:ignoresidetomove)"},
    {K::MissingPieceCount, "Relation list", 'R', ":missingpiececount A 1 unlimited", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:missingpiececount)"},
    {K::NewPieceCount, "Relation list", 'R', ":newpiececount U 0", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:newpiececount)"},
    {K::OriginalDifferentCount, "Relation list", 'R', ":originaldifferentcount 0 3", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:originaldifferentcount)"},
    {K::OriginalSameCount, "Relation list", 'R', ":pattern :shift :flip :originalsamecount 0 :samesidetomove :variations", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:originalsamecount)"},
    {K::Pattern, "Relation list", 'R', ":pattern", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:pattern)"},
    {K::SameSideToMove, "Relation list", 'R', ":samesidetomove :variationsonly", "manual page CQL-Relation-List, \"Relation keywords\" (#relation:samesidetomove)"},
    {K::Event, "Match list: events", 'M', ":event \"FIDE-Wch*\"", "manual page CQL-Match-List, \"Event search related keywords\" (#match:event)"},
    {K::EventCategory, "Match list: events", 'M', ":eventcategory >=XX", "manual page CQL-Match-List, \"Event search related keywords\" (#match:eventcategory)"},
    {K::EventCountry, "Match list: events", 'M', ":eventcountry dk,fi,no,se", "manual page CQL-Match-List, \"Event search related keywords\" (#match:eventcountry)"},
    {K::EventDate, "Match list: events", 'M', ":eventdate 1930 1935", "manual page CQL-Match-List, \"Event search related keywords\" (#match:eventdate)"},
    {K::EventMode, "Match list: events", 'M', ":eventmode corr,email", "manual page CQL-Match-List, \"Event search related keywords\" (#match:eventmode)"},
    {K::EventType, "Match list: events", 'M', ":eventtype tourn,swiss", "manual page CQL-Match-List, \"Event search related keywords\" (#match:eventtype)"},
    {K::Round, "Match list: events", 'M', ":round 0 1", "manual page CQL-Match-List, \"Event search related keywords\" (#match:round)"},
    {K::Site, "Match list: events", 'M', ":site Berlin", "manual page CQL-Match-List, \"Event search related keywords\" (#match:site)"},
    {K::Subround, "Match list: events", 'M', ":subround 0", "manual page CQL-Match-List, \"Event search related keywords\" (#match:subround)"},
    {K::TimeMode, "Match list: events", 'M', ":timemode blitz,bullet", "manual page CQL-Match-List, \"Event search related keywords\" (#match:timemode)"},
    {K::AverageRating, "Match list: players", 'M', ":averagerating ELO -", "manual page CQL-Match-List, \"Player search related keywords\" (#match:averagerating)"},
    {K::AverageRatingStar, "Match list: players", 'M', ":averagerating* ELO >=2500", "manual page CQL-Match-List, \"Player search related keywords\""},
    {K::BirthYear, "Match list: players", 'M', ":birthyear >=1990", "manual page CQL-Match-List, \"Player search related keywords\" (#match:birthyear)"},
    {K::BlackBirthYear, "Match list: players", 'M', ":blackbirthyear 1900 1950", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackbirthyear)"},
    {K::BlackCountry, "Match list: players", 'M', ":blackcountry GER", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackcountry)"},
    {K::BlackDeathYear, "Match list: players", 'M', ":blackdeathyear <2000", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackdeathyear)"},
    {K::BlackGender, "Match list: players", 'M', ":blackgender f", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackgender)"},
    {K::BlackId, "Match list: players", 'M', ":blackid 4100018", "manual page CQL-Match-List, \"Player search related keywords\""},
    {K::BlackIsComputer, "Match list: players", 'M', "!:blackiscomputer", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackiscomputer)"},
    {K::BlackIsHuman, "Match list: players", 'M', ":blackishuman", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackishuman)"},
    {K::BlackPlayer, "Match list: players", 'M', ":blackplayer \"Kasparov, Garry\"", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blackplayer)"},
    {K::BlackTitle, "Match list: players", 'M', ":blacktitle GM", "manual page CQL-Match-List, \"Player search related keywords\" (#match:blacktitle)"},
    {K::Country, "Match list: players", 'M', ":country de", "manual page CQL-Match-List, \"Player search related keywords\" (#match:country)"},
    {K::DeathYear, "Match list: players", 'M', ":deathyear 1800 1950", "manual page CQL-Match-List, \"Player search related keywords\" (#match:deathyear)"},
    {K::Gender, "Match list: players", 'M', ":gender x", "manual page CQL-Match-List, \"Player search related keywords\" (#match:gender)"},
    {K::IsComputer, "Match list: players", 'M', "!:iscomputer", "manual page CQL-Match-List, \"Player search related keywords\" (#match:iscomputer)"},
    {K::IsHuman, "Match list: players", 'M', ":ishuman", "manual page CQL-Match-List, \"Player search related keywords\" (#match:ishuman)"},
    {K::Player, "Match list: players", 'M', ":player Alekhine", "manual page CQL-Match-List, \"Player search related keywords\" (#match:player)"},
    {K::Rating, "Match list: players", 'M', ":rating ELO 2000 3000", "manual page CQL-Match-List, \"Player search related keywords\" (#match:rating)"},
    {K::RatingDifference, "Match list: players", 'M', ":ratingdifference ELO <=500", "manual page CQL-Match-List, \"Player search related keywords\" (#match:ratingdifference)"},
    {K::Title, "Match list: players", 'M', ":title GM,IM", "manual page CQL-Match-List, \"Player search related keywords\" (#match:title)"},
    {K::WhiteBirthYear, "Match list: players", 'M', ":whitebirthyear *", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whitebirthyear)"},
    {K::WhiteCountry, "Match list: players", 'M', ":whitecountry UNK", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whitecountry)"},
    {K::WhiteDeathYear, "Match list: players", 'M', ":whitedeathyear -", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whitedeathyear)"},
    {K::WhiteGender, "Match list: players", 'M', ":whitegender m", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whitegender)"},
    {K::WhiteId, "Match list: players", 'M', ":whiteid \"2020009\"", "manual page CQL-Match-List, \"Player search related keywords\""},
    {K::WhiteIsComputer, "Match list: players", 'M', ":whiteiscomputer", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whiteiscomputer)"},
    {K::WhiteIsHuman, "Match list: players", 'M', "!:whiteishuman", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whiteishuman)"},
    {K::WhitePlayer, "Match list: players", 'M', ":whiteplayer \"Polgar, J*\"", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whiteplayer)"},
    {K::WhiteTitle, "Match list: players", 'M', ":whitetitle None", "manual page CQL-Match-List, \"Player search related keywords\" (#match:whitetitle)"},
    {K::Annotator, "Match list: game header", 'M', ":annotator \"?*\"", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:annotator)"},
    {K::Date, "Match list: game header", 'M', ":date 2010-10-27 .. 2010-10-27-43d", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:date)"},
    {K::Eco, "Match list: game header", 'M', ":eco B00-99,C00-99", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:eco)"},
    {K::GameNumber, "Match list: game header", 'M', ":gamenumber 1 100", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:gamenumber)"},
    {K::HasMarker, "Match list: game header", 'M', ":hasmarker w,b", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:hasmarker)"},
    {K::HasSpecialMarker, "Match list: game header", 'M', ":not (match :hasspecialmarker invalidmove)", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:hasspecialmarker)"},
    {K::PlyCount, "Match list: game header", 'M', ":plycount 40 60", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:plycount)"},
    {K::Termination, "Match list: game header", 'M', ":termination unknown,normal", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:termination)"},
    {K::Year, "Match list: game header", 'M', ":year 2000 2010", "manual page CQL-Match-List, \"Game header search related keywords\" (#match:year)"},
    {K::Comment, "Match list: game data", 'M', ":comment \"decisive game\"", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:comment)"},
    {K::Error, "Match list: game data", 'M', ":error DecodingFailed", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:error)"},
    {K::GoodGame, "Match list: game data", 'M', "!:goodgame", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:goodgame)"},
    {K::HasAnnotation, "Match list: game data", 'M', ":hasannotation", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:hasannotation)"},
    {K::HasComments, "Match list: game data", 'M', ":hascomments de,en", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:hascomments)"},
    {K::HasVariations, "Match list: game data", 'M', "!:hasvariations", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:hasvariations)"},
    {K::Tag, "Match list: game data", 'M', ":tag WhiteTeamCountry USA", "manual page CQL-Match-List, \"Game data search related keywords\" (#match:tag)"},
    {K::EitherColor, "Match list: transformation, meaningless", 'M', ":result 1-0 :whiteelo <=2300 :blackelo >=2600 :eithercolor", "manual page CQL-Match-List, \"Transformation keywords\" (#match:eithercolor)"},
    {K::Output, "Match list: transformation, meaningless", 'M', ":output mates.pgn (position :mate)", "manual page CQL-Match-List, \"Meaningless keywords\" (#match:output)"},
    {K::Pgn, "Match list: transformation, meaningless", 'M', ":pgn examples/sample/mates-30.pgn (position :mate)", "manual page CQL-Match-List, \"Meaningless keywords\" (#match:pgn)"},
};
// clang-format on

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

std::span<const KeywordHelp> all_keyword_help() {
  return kHelp;
}

const KeywordHelp* find_keyword_help(Keyword k) {
  if (size_t(k) < std::size(kHelp) && kHelp[size_t(k)].keyword == k) return &kHelp[size_t(k)];
  for (const KeywordHelp& h : kHelp)  // a keyword added to the table since the rows were ordered
    if (h.keyword == k) return &h;
  return nullptr;
}

std::string example_script(const KeywordHelp& help) {
  switch (help.list) {
    case 'M': return "(match " + std::string(help.example) + ")";
    case 'R': return "(match (position :relation (" + std::string(help.example) + ")))";
    default: return "(match (position " + std::string(help.example) + "))";
  }
}

std::vector<std::string_view> similar_keywords(std::string_view name, size_t limit) {
  if (!name.empty() && name.front() == ':') name.remove_prefix(1);
  if (name.empty()) return {};
  const size_t allowed = std::max<size_t>(1, name.size() / 3);
  std::vector<std::pair<size_t, std::string_view>> found;
  for (const KeywordInfo& k : all_keywords()) {
    size_t d = edit_distance(name, k.name);
    const bool prefix = name.size() >= 4 && k.name.size() > name.size() &&
                        edit_distance(name, k.name.substr(0, name.size())) == 0;
    if (prefix) d = std::min(d, allowed);
    if (d <= allowed) found.emplace_back(d, k.name);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::string_view> out;
  for (const auto& [d, n] : found)
    if (out.size() < limit) out.push_back(n);
  return out;
}

std::string did_you_mean(std::string_view name) {
  const std::vector<std::string_view> names = similar_keywords(name);
  if (names.empty()) return "";
  std::string text = " (did you mean ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i) text += i + 1 == names.size() ? " or " : ", ";
    text += ":" + std::string(names[i]);
  }
  return text + "?)";
}

}  // namespace cql
