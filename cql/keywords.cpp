#include "cql/keywords.h"

#include <string>

namespace cql {

namespace {

using S = Signature;
using O = Origin;
using K = Keyword;
namespace pm = piece_mask;

constexpr uint8_t M = kInMatch;
constexpr uint8_t P = kInPosition;
constexpr uint8_t R = kInRelation;
constexpr bool kNeg = true;
constexpr bool kNoNeg = false;
constexpr std::optional<Keyword> kNone = std::nullopt;
using C = Cost;
constexpr bool kLookahead = true;

// Row helper: keyword, name, lists, signature, negatable, origin, usage, description.
// Position-list keywords may add their cost class (Cost, default kCheap) and kLookahead.
constexpr KeywordInfo row(K k, std::string_view name, uint8_t lists, S sig, bool neg, O origin,
                          std::string_view usage, std::string_view description,
                          Cost cost = Cost::kCheap, bool lookahead = false) {
  return KeywordInfo{k,     name,  lists, sig,         neg,  origin,   0,
                     false, kNone, kNone, usage, description, cost, lookahead};
}
// Row with a piece restriction.
constexpr KeywordInfo prow(K k, std::string_view name, uint8_t lists, S sig, bool neg, O origin,
                           PieceMask allowed, bool type_only, std::string_view usage,
                           std::string_view description, Cost cost = Cost::kCheap) {
  return KeywordInfo{k,       name,      lists, sig,   neg,   origin,      allowed,
                     type_only, kNone, kNone, usage, description, cost, false};
}
// Row for another spelling (`same`) or a negated form (`negation`) of a keyword.
constexpr KeywordInfo alias(K k, std::string_view name, uint8_t lists, S sig, O origin,
                            std::optional<K> same, std::optional<K> negation,
                            std::string_view usage, std::string_view description) {
  return KeywordInfo{k, name,  lists, sig,      false, origin,
                     0, false, same,  negation, usage, description};
}

// clang-format off
constexpr KeywordInfo kTable[] = {
    // Logical
    row(K::And, "and", M | P, S::SubLists, kNoNeg, O::Cql10, "( (list) ... )", "matches if every sub-list matches", C::kOrdered),
    row(K::Cond, "cond", M | P, S::Cond, kNoNeg, O::CqlS, "( (cond) (expr) ... [(expr)] )", "the expression of the first matching condition decides", C::kOrdered),
    row(K::Not, "not", M | P, S::OptSubList, kNoNeg, O::Cql10, "[(list)]", "bare: negates the containing list; with a list: negates that list", C::kOrdered),
    row(K::Or, "or", M | P, S::SubLists, kNoNeg, O::Cql10, "( (list) ... )", "matches if at least one sub-list matches", C::kOrdered),
    row(K::Xor, "xor", M | P, S::SubLists, kNoNeg, O::CqlS, "( (list) ... )", "matches if exactly one sub-list matches", C::kOrdered),
    // Simple position keywords
    row(K::BlackCannotWin, "blackcannotwin", P, S::None, kNeg, O::CqlS, "", "black has no winning material left", C::kExpensive),
    row(K::Btm, "btm", P, S::None, kNoNeg, O::Cql10, "", "black is to move"),
    prow(K::Castling, "castling", P, S::Piece, kNoNeg, O::CqlS, pm::kCastlingLetters, true, "<K|Q|k|q|[...]>", "the castling rights include one of the given letters"),
    row(K::Check, "check", P, S::OptPiece, kNeg, O::Cql10, "[<piece>]", "the side to move is in check (optionally by the given pieces)", C::kMedium),
    row(K::ContactCheck, "contactcheck", P, S::OptPiece, kNeg, O::CqlS, "[<piece>]", "the side to move is in contact check", C::kExpensive),
    row(K::DoubleCheck, "doublecheck", P, S::OptPiece, kNeg, O::CqlS, "[<piece>]", "the side to move is in double check", C::kExpensive),
    row(K::Endgame, "endgame", P, S::None, kNeg, O::CqlS, "", "the position is an endgame (Chess Assistant definition)", C::kExpensive),
    row(K::Fen, "fen", P, S::Fen, kNoNeg, O::CqlS, "\"<fen>\"", "the position equals the given FEN", C::kExpensive),
    row(K::FivefoldRepetition, "fivefoldrepetition", P, S::None, kNeg, O::CqlS, "", "first main-line position occurring the fifth time"),
    row(K::GameIsOver, "gameisover", P, S::None, kNeg, O::CqlS, "", "the game cannot be continued (mate, stalemate, ...)", C::kExpensive),
    row(K::HalfmoveClock, "halfmoveclock", P, S::Count, kNoNeg, O::CqlS, "<range>", "the half-move clock lies in the range"),
    row(K::Initial, "initial", P, S::None, kNeg, O::Cql10, "", "the start position of the game (ply 0)"),
    row(K::InsideVariation, "insidevariation", P, S::None, kNeg, O::CqlS, "", "the position is inside a variation"),
    row(K::IsPromotedPiece, "ispromotedpiece", P, S::None, kNoNeg, O::SeeAlso, "", "the next move is made by a promoted piece (index entry only)"),
    row(K::KingOnTheHill, "kingonthehill", P, S::None, kNeg, O::CqlS, "", "King-of-the-Hill win (never in standard chess)"),
    row(K::Losing, "losing", P, S::None, kNeg, O::CqlS, "", "Antichess: one side lost all pieces (never in standard chess)"),
    row(K::Mate, "mate", P, S::None, kNeg, O::Cql10, "", "the position is checkmate", C::kExpensive),
    row(K::MatingMaterial, "matingmaterial", P, S::None, kNeg, O::CqlS, "", "either side still has mating material", C::kExpensive),
    row(K::MustCapture, "mustcapture", P, S::None, kNeg, O::CqlS, "", "Antichess: capture obligation (never in standard chess)"),
    alias(K::NoCheck, "nocheck", P, S::None, O::Cql10, kNone, K::Check, "", "neither side is in check (= !:check)"),
    row(K::Stalemate, "stalemate", P, S::None, kNeg, O::Cql10, "", "the position is stalemate", C::kExpensive),
    row(K::Terminal, "terminal", P, S::None, kNeg, O::Cql10, "", "the last position of the game"),
    row(K::ThreeChecks, "threechecks", P, S::None, kNeg, O::CqlS, "", "Three-check win (never in standard chess)"),
    row(K::ThreefoldRepetition, "threefoldrepetition", P, S::None, kNeg, O::CqlS, "", "first main-line position occurring the third time"),
    row(K::Variations, "variations", P | R, S::None, kNoNeg, O::Cql10, "", "search the variations too"),
    row(K::VariationsOnly, "variationsonly", P | R, S::None, kNoNeg, O::Cql10, "", "search only the variations"),
    row(K::WhiteCannotWin, "whitecannotwin", P, S::None, kNeg, O::CqlS, "", "white has no winning material left", C::kExpensive),
    row(K::Wtm, "wtm", P, S::None, kNoNeg, O::Cql10, "", "white is to move"),
    // Transformations
    row(K::Flip, "flip", P | R, S::None, kNoNeg, O::Cql10, "", "all 8 dihedral transformations (= :flipdihedral)"),
    row(K::FlipColor, "flipcolor", P, S::None, kNoNeg, O::Cql10, "", "colour flip: swap colours and mirror ranks"),
    row(K::FlipDiagonal, "flipdiagonal", P, S::None, kNoNeg, O::Cql10, "", "flips about the a1-h8 and a8-h1 diagonals"),
    row(K::FlipDihedral, "flipdihedral", P, S::None, kNoNeg, O::Cql10, "", "all 8 dihedral transformations"),
    row(K::FlipHorizontal, "fliphorizontal", P, S::None, kNoNeg, O::Cql10, "", "flip about the horizontal bisector"),
    row(K::FlipVertical, "flipvertical", P, S::None, kNoNeg, O::Cql10, "", "flip about the vertical bisector"),
    row(K::Inside, "inside", P, S::PieceSquares, kNoNeg, O::CqlS, "<piece> <squares>", "keeps shifts that leave a matching piece inside the region", C::kMedium),
    row(K::Shift, "shift", P | R, S::None, kNoNeg, O::Cql10, "", "all shift transformations"),
    row(K::ShiftDiagonal, "shiftdiagonal", P, S::None, kNoNeg, O::Cql10, "", "main- and off-diagonal shifts"),
    row(K::ShiftHorizontal, "shifthorizontal", P, S::None, kNoNeg, O::Cql10, "", "horizontal shifts"),
    row(K::ShiftMainDiagonal, "shiftmaindiagonal", P, S::None, kNoNeg, O::Cql10, "", "main-diagonal shifts"),
    row(K::ShiftOffDiagonal, "shiftoffdiagonal", P, S::None, kNoNeg, O::Cql10, "", "off-diagonal shifts"),
    row(K::ShiftVertical, "shiftvertical", P, S::None, kNoNeg, O::Cql10, "", "vertical shifts"),
    // Piece configuration
    row(K::AttackCount, "attackcount", P, S::TwoPiecesRange, kNoNeg, O::Cql10, "<attacker> <attacked> <range>", "number of attacks of the first designator on the second", C::kExpensive),
    prow(K::GoodBishop, "goodbishop", P, S::GoodBishop, kNoNeg, O::CqlS, pm::kBishops, false, "<bishops> <range> : <range>", "a bishop rated good or bad by pawn counts or percentages", C::kExpensive),
    prow(K::Opposition, "opposition", P, S::OptPiece, kNeg, O::CqlS, pm::kKings, true, "[K|k]", "the given king (default: side to move) has the opposition", C::kExpensive),
    prow(K::PawnCount, "pawncount", P, S::PawnCount, kNoNeg, O::CqlS, pm::kPawns, false, "[<pawns>] <attr-attr...> <range> [: <range>]", "counts pawns with the given structure attributes", C::kExpensive),
    prow(K::PawnCountDifference, "pawncountdifference", P, S::PawnCountDifference, kNoNeg, O::CqlS, pm::kPawns, false, "<pawns> [<pawns>] <attr-attr...> <range>", "difference of two pawn counts", C::kExpensive),
    row(K::Perpendicular, "perpendicular", P, S::TwoPieces, kNoNeg, O::CqlS, "<piece> <piece>", "the line pieces' potential moves cross", C::kExpensive),
    row(K::PieceCount, "piececount", P, S::PieceRange, kNoNeg, O::Cql10, "<piece> <range>", "number of matching pieces", C::kMedium),
    row(K::PieceCountDifference, "piececountdifference", P, S::PiecesRange, kNoNeg, O::CqlS, "<piece> [<piece>] <range>", "white minus black count, or first minus second", C::kMedium),
    row(K::Power, "power", P, S::PieceRange, kNoNeg, O::Cql10, "<piece> <range>", "total power (Q9 R5 B3 N3 P1) of matching pieces", C::kMedium),
    row(K::PowerDifference, "powerdifference", P, S::PiecesRange, kNoNeg, O::Cql10, "<piece> [<piece>] <range>", "white minus black power, or first minus second", C::kMedium),
    row(K::Ray, "ray", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "number of rays matching the designators in order", C::kExpensive),
    row(K::RayAttack, "rayattack", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "rays starting on a line piece moving that way", C::kExpensive),
    row(K::RayDiagonal, "raydiagonal", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "diagonal rays only", C::kExpensive),
    row(K::RayHorizontal, "rayhorizontal", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "horizontal rays only", C::kExpensive),
    row(K::RayOrthogonal, "rayorthogonal", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "horizontal and vertical rays only", C::kExpensive),
    row(K::RayVertical, "rayvertical", P, S::Ray, kNoNeg, O::Cql10, "(<piece> <piece> ...) [<range>]", "vertical rays only", C::kExpensive),
    // Moves
    row(K::CaptureForced, "captureforced", P, S::None, kNeg, O::CqlS, "", "Antichess: the next move must capture (never in standard chess)"),
    row(K::EnPassant, "enpassant", P, S::None, kNeg, O::Cql10, "", "the next move is an en-passant capture"),
    row(K::Forced, "forced", P, S::None, kNeg, O::CqlS, "", "the next move is the only legal move", C::kExpensive),
    row(K::HalfmoveNumber, "halfmovenumber", P, S::MoveCount, kNoNeg, O::CqlS, "<range>|end|end-N", "the ply number (0 = start position) lies in the range"),
    prow(K::IsCastling, "iscastling", P, S::OptPiece, kNoNeg, O::CqlS, pm::kCastlingLetters, true, "[K|Q|k|q|[...]]", "the next move castles (optionally the given side)"),
    row(K::IsCheck, "ischeck", P, S::OptCount, kNeg, O::CqlS, "[<range>]", "the next move gives check (the n-th check of that side)", C::kCheap, kLookahead),
    row(K::IsContactCheck, "iscontactcheck", P, S::None, kNeg, O::CqlS, "", "the next move gives contact check", C::kCheap, kLookahead),
    row(K::IsDoubleCheck, "isdoublecheck", P, S::None, kNeg, O::CqlS, "", "the next move gives double check", C::kCheap, kLookahead),
    row(K::IsIllegal, "isillegal", P, S::None, kNeg, O::CqlS, "", "the next move is illegal"),
    row(K::IsInvalid, "isinvalid", P, S::None, kNeg, O::CqlS, "", "the next move is invalid"),
    row(K::IsMate, "ismate", P, S::None, kNeg, O::CqlS, "", "the next move mates", C::kCheap, kLookahead),
    row(K::IsNull, "isnull", P, S::None, kNeg, O::CqlS, "", "the next move is a null move"),
    row(K::IsStalemate, "isstalemate", P, S::None, kNeg, O::CqlS, "", "the next move stalemates", C::kCheap, kLookahead),
    row(K::MoveFrom, "movefrom", P, S::Piece, kNoNeg, O::Cql10, "<piece>", "the next move starts from a matching piece and square"),
    row(K::MoveNumber, "movenumber", P, S::MoveCount, kNoNeg, O::Cql10, "<range>|end|end-N", "the FEN full-move number lies in the range"),
    row(K::MoveTo, "moveto", P, S::Piece, kNoNeg, O::Cql10, "<piece>", "the next move goes to a matching square (content before the move)"),
    alias(K::NoEnPassant, "noenpassant", P, S::None, O::Cql10, kNone, K::EnPassant, "", "the next move is not an en-passant capture (= !:enpassant)"),
    row(K::Promote, "promote", P, S::Piece, kNoNeg, O::Cql10, "<piece>", "the next move promotes to a matching piece"),
    row(K::TakesLastPiece, "takeslastpiece", P, S::None, kNeg, O::CqlS, "", "Antichess: the next move takes the last piece (never in standard chess)"),
    // Sequences
    row(K::GappedSequence, "gappedsequence", P, S::SubLists, kNoNeg, O::Cql10, "( (position) ... )", "the lists match in order, with gaps allowed"),
    row(K::Line, "line", P, S::Line, kNoNeg, O::CqlS, "( <move> ... [| <move> ...] )", "the moves are played from this position", C::kOrdered),
    row(K::LineStar, "line*", P, S::Line, kNoNeg, O::CqlS, "( <move> ... )", "transposition-invariant move line from the start position", C::kOrdered),
    row(K::Match, "match", P, S::SubLists, kNoNeg, O::CqlS, "( (position) ... )", "every list matches some position (like a match list)"),
    row(K::MatchConsecutive, "matchconsecutive", P, S::SubLists, kNoNeg, O::CqlS, "( (position) ... )", "the lists match consecutive positions in any order"),
    row(K::Sequence, "sequence", P, S::SubLists, kNoNeg, O::Cql10, "( (position) ... )", "the lists match this and the following positions"),
    // Game information
    row(K::BlackElo, "blackelo", M | P, S::GameRange, kNoNeg, O::Cql10, "<range>", "black's Elo lies in the range"),
    row(K::Elo, "elo", M | P, S::GameRange, kNoNeg, O::Cql10, "<range>", "either player's Elo lies in the range"),
    row(K::IsChess960, "ischess960", M | P, S::None, kNeg, O::CqlS, "", "the game starts from a Chess960 position"),
    row(K::IsShuffleChess, "isshufflechess", M | P, S::None, kNeg, O::CqlS, "", "the game starts from a Shuffle Chess position"),
    row(K::Result, "result", M | P, S::Results, kNoNeg, O::Cql10, "<result>[,<result>...]", "the game result is one of the given"),
    row(K::StartPosition, "startposition", M | P, S::StartPositions, kNoNeg, O::CqlS, "<n>|<n-m>|<fics>[,...]|*", "the start position number or FICS variant"),
    row(K::Variant, "variant", M | P, S::Variants, kNoNeg, O::CqlS, "<variant>[,...]", "the game is one of the given chess variants"),
    row(K::WhiteElo, "whiteelo", M | P, S::GameRange, kNoNeg, O::Cql10, "<range>", "white's Elo lies in the range"),
    // Relation
    row(K::Relation, "relation", P, S::RelationSpec, kNoNeg, O::Cql10, "( <relation keywords> )", "a later position relates to this one as specified", C::kOrdered),
    // Counting
    row(K::CheckCount, "checkcount", P, S::CheckCount, kNoNeg, O::CqlS, "<range> [: <range>] | +n+m", "number of checks given (white : black)"),
    row(K::MatchCount, "matchcount", P, S::Count, kNoNeg, O::Cql10, "<range>", "number of positions of the game this list matches"),
    row(K::PretransformMatchCount, "pretransformmatchcount", P, S::Count, kNoNeg, O::Cql10, "<range>", ":matchcount per transformation"),
    row(K::PretransformRepetitionCount, "pretransformrepetitioncount", P, S::Count, kNoNeg, O::CqlS, "<range>", ":repetitioncount per transformation"),
    row(K::RepetitionCount, "repetitioncount", P, S::Count, kNoNeg, O::CqlS, "<range>", "number of consecutive matching positions"),
    // Analysis
    row(K::EndgameEvaluation, "endgameevaluation", P, S::EndgameEvaluation, kNoNeg, O::CqlS, "remis|mate|*mate|+mate|-mate [<range>]", "tablebase result (and distance to mate in plies)", C::kOrdered),
    row(K::EndgameEvaluationStar, "endgameevaluation*", P, S::EndgameEvaluation, kNoNeg, O::CqlS, "remis|mate|*mate|+mate|-mate [<range>]", ":endgameevaluation at the first occurrence only", C::kOrdered),
    row(K::Evaluation, "evaluation", P, S::Evaluation, kNoNeg, O::CqlS, "depth|movetime <n> (mate | <score-range> sidetomove|absolute)", "engine evaluation in pawn units", C::kOrdered),
    row(K::ExchangeEvaluation, "exchangeevaluation", P, S::ExchangeEvaluation, kNoNeg, O::CqlS, "[<depth>|*] <score-range> [<piece>]", "static exchange value of the capture, in pawn units", C::kExpensive),
    row(K::MaxSwapEvaluation, "maxswapevaluation", P, S::TwoPiecesRange, kNoNeg, O::CqlS, "<movers> <targets> <range>", "best static exchange value of the possible moves", C::kExpensive),
    row(K::MoveEvaluation, "moveevaluation", P, S::MoveEvaluation, kNoNeg, O::CqlS, "<movers> <targets> depth|movetime <n> <score-range> sidetomove|absolute", "engine evaluation change of the move", C::kOrdered),
    prow(K::PassedPawnRace, "passedpawnrace", P, S::OptPiece, kNoNeg, O::CqlS, pm::kPawns, true, "[P|p]", "the given side wins the passed-pawn race", C::kExpensive),
    prow(K::UnstoppablePawns, "unstoppablepawns", P, S::UnstoppablePawns, kNoNeg, O::CqlS, pm::kPawns, false, "<pawns> <range> [: <range>]", "number of unstoppable passed pawns", C::kExpensive),
    // Accumulators
    row(K::Accumulate, "accumulate", P, S::Name, kNoNeg, O::Cql10, "<name>", "adds the number of matching transforms to the accumulator", C::kOrdered),
    row(K::AccumulateStar, "accumulate*", P, S::Name, kNoNeg, O::CqlS, "<name>", ":accumulate counting each colour separately", C::kOrdered),
    row(K::Reset, "reset", P, S::Name, kNoNeg, O::CqlS, "<name>", "clears the accumulator after each transformation"),
    row(K::SumRange, "sumrange", P, S::NameRange, kNoNeg, O::Cql10, "<name> <range>", "the accumulator lies in the range"),
    // Tagging
    row(K::TagMatch, "tagmatch", P, S::NamePiece, kNoNeg, O::Cql10, "<tag> <piece>", "the tagged piece matches the designator"),
    row(K::ForAny, "forany", M, S::NamePiece, kNoNeg, O::Cql10, "<tag> <piece>", "binds the tag to each matching piece in turn"),
    // Control
    row(K::Cut, "cut", P, S::OptSubList, kNoNeg, O::CqlS, "[(position)]", "stops searching the line once the list (or argument) matches", C::kOrdered),
    row(K::Exclude, "exclude", P, S::OptSubList, kNoNeg, O::CqlS, "[(position)]", "excludes the line once the list (or argument) matches", C::kOrdered),
    row(K::Skip, "skip", P, S::None, kNoNeg, O::CqlS, "", "a matching position is skipped"),
    // Meaningless
    row(K::MarkAll, "markall", P, S::None, kNoNeg, O::Cql10, "", "CQL 1.0 output option; no effect"),
    row(K::NoAnnotate, "noannotate", P, S::None, kNoNeg, O::Cql10, "", "CQL 1.0 output option; no effect"),
    // Older Scidb position-list keywords and see-also spellings
    row(K::BlackRating, "blackrating", M | P, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "black's rating in the given system lies in the range"),
    row(K::EndMost, "endmost", P, S::None, kNoNeg, O::Legacy, "", "the last matching position of the game"),
    row(K::FiftyMoveRule, "fiftymoverule", P, S::None, kNoNeg, O::Legacy, "", "first position where the fifty-move rule applies"),
    alias(K::Final, "final", P, S::None, O::SeeAlso, K::Terminal, kNone, "", "the last position of the game (= :terminal)"),
    row(K::Following, "following", P, S::None, kNoNeg, O::Legacy, "", "delivers the position after each match (top level only)"),
    row(K::HalfmoveClockLimit, "halfmoveclocklimit", P, S::Count, kNoNeg, O::Legacy, "<range>", "the half-move clock is at most the limit"),
    alias(K::NoCastling, "nocastling", P, S::None, O::Legacy, kNone, K::IsCastling, "", "the next move does not castle (= !:iscastling)"),
    alias(K::NoContactCheck, "nocontactcheck", P, S::None, O::Legacy, kNone, K::ContactCheck, "", "= !:contactcheck"),
    alias(K::NoDoubleCheck, "nodoublecheck", P, S::None, O::Legacy, kNone, K::DoubleCheck, "", "= !:doublecheck"),
    alias(K::NoEndgame, "noendgame", P, S::None, O::Legacy, kNone, K::Endgame, "", "= !:endgame"),
    alias(K::NoLosing, "nolosing", P, S::None, O::Legacy, kNone, K::Losing, "", "= !:losing"),
    alias(K::NoMate, "nomate", P, S::None, O::Legacy, kNone, K::Mate, "", "= !:mate"),
    alias(K::NoMatingMaterial, "nomatingmaterial", P, S::None, O::Legacy, kNone, K::MatingMaterial, "", "neither side has mating material (= !:matingmaterial)"),
    alias(K::NoPieceDrop, "nopiecedrop", P, S::None, O::Legacy, kNone, K::PieceDrop, "", "the next move is not a drop"),
    alias(K::NoStalemate, "nostalemate", P, S::None, O::Legacy, kNone, K::Stalemate, "", "= !:stalemate"),
    alias(K::Null, "null", P, S::None, O::SeeAlso, K::IsNull, kNone, "", "the next move is a null move (= :isnull)"),
    row(K::PieceDrop, "piecedrop", P, S::Piece, kNoNeg, O::Legacy, "<piece>", "the next move drops a matching piece (never in standard chess)"),
    row(K::Preceding, "preceding", P, S::None, kNoNeg, O::Legacy, "", "delivers the position before each match (top level only)"),
    alias(K::Repetition, "repetition", P, S::None, O::Legacy, K::ThreefoldRepetition, kNone, "", "= :threefoldrepetition"),
    row(K::WhiteRating, "whiterating", M | P, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "white's rating in the given system lies in the range"),
    // Relation list
    row(K::ChangeSideToMove, "changesidetomove", R, S::None, kNoNeg, O::Cql10, "", "P2 has the other side to move"),
    row(K::IgnoreSideToMove, "ignoresidetomove", R, S::None, kNoNeg, O::Cql10, "", "the side to move is ignored"),
    row(K::MissingPieceCount, "missingpiececount", R, S::PieceRange, kNoNeg, O::Cql10, "<piece> <range>", "pieces of P1 whose square is empty in P2"),
    row(K::NewPieceCount, "newpiececount", R, S::PieceRange, kNoNeg, O::Cql10, "<piece> <range>", "pieces of P2 on squares empty in P1"),
    row(K::OriginalDifferentCount, "originaldifferentcount", R, S::Count, kNoNeg, O::Cql10, "<range>", "allowable squares that differ between P1 and P2"),
    row(K::OriginalSameCount, "originalsamecount", R, S::Count, kNoNeg, O::Cql10, "<range>", "non-empty allowable squares equal in P1 and P2"),
    row(K::Pattern, "pattern", R, S::None, kNoNeg, O::Cql10, "", "the list's top-level designators define the allowable squares"),
    row(K::SameSideToMove, "samesidetomove", R, S::None, kNoNeg, O::Cql10, "", "P2 has the same side to move (default)"),
    // Match list: events
    row(K::Event, "event", M, S::Text, kNoNeg, O::CqlS, "<word>|\"<pattern>\"", "the event name matches"),
    row(K::EventCategory, "eventcategory", M, S::CategoryRange, kNoNeg, O::CqlS, "<range> (Roman numerals allowed)", "the FIDE category of the event"),
    row(K::EventCountry, "eventcountry", M, S::Countries, kNoNeg, O::CqlS, "<country>[,...]", "the event's country"),
    row(K::EventDate, "eventdate", M, S::Date, kNoNeg, O::CqlS, "<date-range>", "the event date"),
    row(K::EventMode, "eventmode", M, S::EventModes, kNoNeg, O::CqlS, "<mode>[,...]", "the event mode (otb, corr, ...)"),
    row(K::EventType, "eventtype", M, S::EventTypes, kNoNeg, O::CqlS, "<type>[,...]", "the event type (tourn, swiss, ...)"),
    row(K::Round, "round", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "the round (0 = none)"),
    row(K::Site, "site", M, S::Text, kNoNeg, O::CqlS, "<word>|\"<pattern>\"", "the site matches"),
    row(K::Subround, "subround", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "the sub-round (0 = none)"),
    row(K::TimeMode, "timemode", M, S::TimeModes, kNoNeg, O::CqlS, "<mode>[,...]", "the time mode (normal, rapid, blitz, ...)"),
    // Match list: players
    row(K::AverageRating, "averagerating", M, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "the players' average rating"),
    row(K::AverageRatingStar, "averagerating*", M, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "average rating, both players rated"),
    row(K::BirthYear, "birthyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "a player's birth year"),
    row(K::BlackBirthYear, "blackbirthyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "black's birth year"),
    row(K::BlackCountry, "blackcountry", M, S::Countries, kNoNeg, O::CqlS, "<country>[,...]", "black's federation"),
    row(K::BlackDeathYear, "blackdeathyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "black's death year"),
    row(K::BlackGender, "blackgender", M, S::Gender, kNoNeg, O::CqlS, "f|m|w|x", "black's gender"),
    row(K::BlackId, "blackid", M, S::PlayerId, kNoNeg, O::SeeAlso, "<id>", "black's player identifier (index entry only)"),
    row(K::BlackIsComputer, "blackiscomputer", M, S::None, kNeg, O::CqlS, "", "black is an engine"),
    row(K::BlackIsHuman, "blackishuman", M, S::None, kNeg, O::CqlS, "", "black is a human"),
    row(K::BlackPlayer, "blackplayer", M, S::Text, kNoNeg, O::CqlS, "<word>|\"<pattern>\"", "black's name matches"),
    row(K::BlackTitle, "blacktitle", M, S::Titles, kNoNeg, O::CqlS, "<title>[,...]", "black's title"),
    row(K::Country, "country", M, S::Countries, kNoNeg, O::CqlS, "<country>[,...]", "a player's federation"),
    row(K::DeathYear, "deathyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "a player's death year"),
    row(K::Gender, "gender", M, S::Gender, kNoNeg, O::CqlS, "f|m|w|x", "a player's gender"),
    row(K::IsComputer, "iscomputer", M, S::None, kNeg, O::CqlS, "", "a player is an engine"),
    row(K::IsHuman, "ishuman", M, S::None, kNeg, O::CqlS, "", "a player is a human"),
    row(K::Player, "player", M, S::Text, kNoNeg, O::Cql10, "<word>|\"<pattern>\"", "a player's name matches"),
    row(K::Rating, "rating", M, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "a player's rating in the given system"),
    row(K::RatingDifference, "ratingdifference", M, S::Rating, kNoNeg, O::CqlS, "<system> <range>", "rating difference of the players"),
    row(K::Title, "title", M, S::Titles, kNoNeg, O::CqlS, "<title>[,...]", "a player's title"),
    row(K::WhiteBirthYear, "whitebirthyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "white's birth year"),
    row(K::WhiteCountry, "whitecountry", M, S::Countries, kNoNeg, O::CqlS, "<country>[,...]", "white's federation"),
    row(K::WhiteDeathYear, "whitedeathyear", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "white's death year"),
    row(K::WhiteGender, "whitegender", M, S::Gender, kNoNeg, O::CqlS, "f|m|w|x", "white's gender"),
    row(K::WhiteId, "whiteid", M, S::PlayerId, kNoNeg, O::SeeAlso, "<id>", "white's player identifier (index entry only)"),
    row(K::WhiteIsComputer, "whiteiscomputer", M, S::None, kNeg, O::CqlS, "", "white is an engine"),
    row(K::WhiteIsHuman, "whiteishuman", M, S::None, kNeg, O::CqlS, "", "white is a human"),
    row(K::WhitePlayer, "whiteplayer", M, S::Text, kNoNeg, O::CqlS, "<word>|\"<pattern>\"", "white's name matches"),
    row(K::WhiteTitle, "whitetitle", M, S::Titles, kNoNeg, O::CqlS, "<title>[,...]", "white's title"),
    // Match list: game header
    row(K::Annotator, "annotator", M, S::Text, kNoNeg, O::CqlS, "<word>|\"<pattern>\"", "the annotator matches"),
    row(K::Date, "date", M, S::Date, kNoNeg, O::CqlS, "<date-range>", "the game date"),
    row(K::Eco, "eco", M, S::Eco, kNoNeg, O::CqlS, "<eco-range>[,...]|*|-", "the ECO code"),
    row(K::GameNumber, "gamenumber", M, S::GameRange, kNoNeg, O::Cql10, "<range>", "the game number in the database"),
    row(K::HasMarker, "hasmarker", M, S::Markers, kNoNeg, O::CqlS, "[<marker>[,...]]", "the game has one of the markers (any marker if none given)"),
    row(K::HasSpecialMarker, "hasspecialmarker", M, S::SpecialMarkers, kNoNeg, O::CqlS, "<marker>[,...]", "the game has one of the special markers"),
    row(K::PlyCount, "plycount", M, S::GameRange, kNoNeg, O::CqlS, "<range>", "the number of plies of the game"),
    row(K::Termination, "termination", M, S::Terminations, kNoNeg, O::CqlS, "<reason>[,...]", "the termination reason"),
    row(K::Year, "year", M, S::GameRange, kNoNeg, O::Cql10, "<range>", "the year of the game"),
    // Match list: game data
    row(K::Comment, "comment", M, S::QuotedText, kNoNeg, O::CqlS, "\"<pattern>\"", "a comment contains the pattern"),
    row(K::Error, "error", M, S::DecodeError, kNoNeg, O::CqlS, "<error>", "decoding error recorded at import (private)"),
    row(K::GoodGame, "goodgame", M, S::None, kNeg, O::CqlS, "", "a game of good quality (ChessBase-like estimate)"),
    row(K::HasAnnotation, "hasannotation", M, S::None, kNeg, O::CqlS, "", "the game has NAG annotations"),
    row(K::HasComments, "hascomments", M, S::Languages, kNoNeg, O::CqlS, "[<language>[,...]]", "the game has comments (in the given languages)"),
    row(K::HasVariations, "hasvariations", M, S::None, kNeg, O::CqlS, "", "the game has variations"),
    row(K::Tag, "tag", M, S::Tag, kNoNeg, O::CqlS, "<name>|* [<word>|\"<pattern>\"]", "an additional PGN tag exists (with a matching value)"),
    // Match list: transformation, meaningless
    row(K::EitherColor, "eithercolor", M, S::None, kNoNeg, O::CqlS, "", "colour flip of the whole match list"),
    row(K::Output, "output", M, S::FileName, kNoNeg, O::Cql10, "<file>", "CQL 1.0 output file: `cqldb query` writes the matching games there as PGN with {MATCH} comments"),
    row(K::Pgn, "pgn", M, S::FileName, kNoNeg, O::Cql10, "<file>", "CQL 1.0 input file: `cqldb query` searches it, imported once into a cached database"),
};
// clang-format on

static_assert(std::size(kTable) == static_cast<size_t>(Keyword::Pgn) + 1,
              "one table row per Keyword enumerator");

constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < std::size(kTable); ++i)
    if (static_cast<size_t>(kTable[i].keyword) != i) return false;
  return true;
}
static_assert(table_in_enum_order(), "kTable rows must follow the Keyword enumerator order");

}  // namespace

std::span<const KeywordInfo> all_keywords() {
  return kTable;
}

const KeywordInfo& keyword_info(Keyword k) {
  return kTable[static_cast<size_t>(k)];
}

const KeywordInfo* find_keyword(std::string_view name) {
  for (const KeywordInfo& info : kTable)
    if (info.name == name) return &info;
  return nullptr;
}

std::string keyword_spelling(Keyword k) {
  return ":" + std::string(keyword_info(k).name);
}

std::string_view list_kind_name(ListKind k) {
  switch (k) {
    case ListKind::Match:
      return "match list";
    case ListKind::Position:
      return "position list";
    case ListKind::Relation:
      return "relation list";
  }
  return "list";
}

}  // namespace cql
