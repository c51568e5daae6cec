// The typed AST of a CQL 6 script (issue 36; SPEC "CQL 6 scripts"): what cql6::parse
// returns and eval's CQL 6 compiler (eval/compile_cql6.cpp) reads. Every node carries its
// source place and its value type (a filter is a condition, a square set or a number, as
// CQL 6 types them); piece designators are already resolved to piece kinds and squares.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cql6/error.h"
#include "cql6/lexer.h"

namespace cql6 {

/// The value a filter has besides matching or not (CQL 6: set, numeric or plain filter).
/// Part 2 (issue 37) adds position values (a position of the game) and strings.
enum class Type : uint8_t { kBool, kSet, kNumber, kPosition, kString };

/// What a node is. Children are in `Node::kids`, in the order given per kind.
enum class Kind : uint8_t {
  // ---- square sets
  kDesignator,   ///< kinds, squares
  kUnion,        ///< kids: a b  (`|`, `∪`)
  kIntersect,    ///< kids: a b  (`&`, `∩`)
  kComplement,   ///< kids: a  (`~`)
  kAttacks,      ///< kids: a b: the squares of a whose piece attacks a square of b (`->`)
  kAttackedBy,   ///< kids: a b: the squares of a attacked by a piece on b (`<-`)
  kBetween,      ///< kids: a b: squares strictly between a square of a and one of b on a line
  kRay,          ///< kids: 2+ sets; sub = direction bits; `xray` when flag kXray
  kPin,          ///< kids: from through to (each may be kNone = its default)
  kDirection,    ///< kids: a [lo hi]; sub = direction bits; lo..hi steps, or kids 1 and 2 (numeric
                 ///< variables or numbers, CQL 6.2: -7..7, a negative step goes the opposite way)
  kLight,        ///< kids: a
  kDark,         ///< kids: a
  kPawns,        ///< sub = PawnSet
  kFromSquare,   ///< `from`: the from square of the move that led here (castling: king's and rook's)
  kToSquare,     ///< `to`: its destination square (castling: the king's and the rook's)
  kNone,         ///< an omitted optional argument (pin)
  // ---- numbers
  kNumber,       ///< value
  kCount,        ///< kids: set (`#`)
  kArith,        ///< kids: a b; sub = '+', '-', '*', '/', '%'
  kNegate,       ///< kids: a (unary minus)
  kAbs,          ///< kids: a
  kMax,          ///< kids: 2+
  kMin,          ///< kids: 2+
  kPower,        ///< kids: set: the material value of its pieces (P 1, N B 3, R 5, Q 9)
  kPly,          ///< plies from the game start (start position = 0)
  kMoveNumber,   ///< the FEN full-move number of the position
  kElo,          ///< sub = Side; value missing (no match) when the Elo is unknown
  kYear,         ///< the game's year (header conditions only)
  // ---- conditions
  kTrue, kFalse, kCheck, kMate, kStalemate, kWtm, kBtm, kInitial, kTerminal, kMainline,
  kResult,       ///< value = result code (1 1-0, 2 0-1, 3 draw)
  kNot,          ///< kids: a
  kAnd,          ///< kids: a b
  kOr,           ///< kids: a b
  kCompound,     ///< kids: 0+ filters (`{...}`); its value is its last filter's
  kIf,           ///< kids: condition then [else]
  kCompare,      ///< kids: 2+ operands; ops: one Cmp per neighbouring pair (chained)
  kIn,           ///< kids: a b: a is a subset of b (both sets)
  kMove,         ///< kids: from to capture promote (kNone when absent) [comment: a kComment run at
                 ///< the position after the move when it fits]; flags: MoveFlag; sub 1, 2, 3:
                 ///< a set (written with from, to, capture first): the moves' from / to / captured squares
  kDash,         ///< kids: left right (kNone = any) target (kNone, or a compound evaluated
                 ///< after the move); flags: DashFlag; kinds = promotion kinds
  kLine,         ///< kids: the constituents (kLineItem); flags: LineFlag; lo..hi positions
  kLineItem,     ///< kids: one filter (holder) or 1+ kLineItem (a parenthesised sequence,
                 ///< flag kLineGroup); repeated lo..hi times (hi -1 = unbounded)
  kTransform,    ///< kids: a filter; sub = TransformKind; lo..hi = count range (if flag kHasRange)
  kHeaderText,   ///< text = search string; sub = HeaderTag: the tag contains the text
  // ---- part 2 (issue 37): values, loops, navigation, strings, output (eval/cql6_values.h)
  kVar,          ///< value = variable slot (Script::vars); type = its type
  kAssign,       ///< kids: var value; sub = '=' or the operator of `+=` `-=` `*=` `/=` `%=`
  kDictAssign,   ///< kids: dictionary var, key, value
  kDictGet,      ///< kids: dictionary var, key; type = the dictionary's value type
  kUnbind,       ///< kids: var (or kDictGet: one entry)
  kIsBound,      ///< kids: var
  kSquareLoop,   ///< kids: var set body; flags kLoopAll; without it a set: the squares the body matched for
  kPieceLoop,    ///< kids: var set body; flags kLoopAll; without it a set (as kSquareLoop)
  kWhile,        ///< kids: condition body
  kFind,         ///< kids: body; flags kFindAll / kFindBackward / kHasRange (lo..hi)
  kParent,       ///< position: the position before this one (none at the start)
  kChild,        ///< position: child number value (0 = the main continuation)
  kCurrentPosition,  ///< position: this one
  kPositionAt,   ///< kids: number: the position whose positionid it is
  kPositionId,   ///< number: this position's id (ply on the main line)
  kAt,           ///< `x : f`: kids: position, filter; f evaluated at x (type of f)
  kDistance,     ///< kids: 2 positions: plies between them through their lca
  kLca,          ///< kids: 2 positions: their last common ancestor
  kAncestor,     ///< kids: 2 positions: the first is an ancestor of (or is) the second
  kDescendant,   ///< kids: 2 positions: the first is a descendant of (or is) the second
  kDepth,        ///< number: variations this position is nested in (0 on the main line)
  kEcho,         ///< kids: var s, var t, body
  kSideToMove,   ///< number: 1 white to move, -1 black
  kString,       ///< text
  kConcat,       ///< kids: 2+ strings (`+`)
  kRegex,        ///< kids: string, pattern; the match (string), groups kept for `\N`
  kMatchGroup,   ///< `\N`: value = group number of the last `~~`
  kStr,          ///< kids: a number, set or string -> its string
  kInt,          ///< kids: a string -> its number (none when not a number)
  kLowercase,    ///< kids: a string
  kUppercase,    ///< kids: a string
  kIndex,        ///< kids: string, number: the one-character string at that index
  kStrIn,        ///< kids: a b strings: a occurs in b
  kHeaderValue,  ///< string: sub = HeaderTag (player white/black, event, site, date, eco, tag "Name")
  kSort,         ///< kids: a number; flags kSortMin; text = title: matches when it has a value
  kComment,      ///< kids: the parts (strings, numbers, sets, positions); true; sub 1: message
  kSettag,       ///< kids: tag name, value (strings); true
  kRemoveComment,  ///< true
  kPath,         ///< kids: kLineItem constituents as for kLine (CQL 6.2 `path` / `⊢`)
  kPosIntersect, ///< kids: 2 positions: the squares with the same content in both (`s & t`)
  kScript,       ///< the body of a part-2 script (eval/compile_cql6.cpp): kids = its filters in
                 ///< order; value = a process-wide id keying the variables' storage
  // sets and loops (published examples)
  kPieceAssign,  ///< kids: piece var, set: `piece x = S` / `◭x = S`, true when S is one occupied square
  kLoopRepeat,   ///< kids: body: `loop f` runs f until it fails; true when it matched at least once
  // values and output (published examples): eval/cql6_functions.cpp
  kRank,         ///< number: kids: set of one square -> its rank 1..8 (none otherwise)
  kFile,         ///< number: kids: set of one square -> its file 1..8 (none otherwise)
  kMakeSquare,   ///< set: kids: file, rank (numbers 1..8), or one string such as "e4"
  kTypeName,     ///< string: kids: set of one square -> "K" "Q" ... "P", "_" when empty
  kPieceName,    ///< string: kids: set of one square -> "K" ... "p" (colour by case), "_"
  kPieceType,    ///< number: kids: set of one square -> 1 pawn .. 6 king, 0 empty (`type`)
  kSqrt,         ///< number: kids: a number >= 0 -> its square root, rounded down
  kFen,          ///< string: the position's FEN (CQL 6.2's: counters written "0 1")
  kVariation,    ///< true inside a variation (`variation`)
  kTry,          ///< CQL 6.2 `try`: exactly one position from here back to the start is black
                 ///< to move and reached by a move that is not the main continuation
  kConsecutiveMoves,  ///< number: kids: 2 positions; lo..hi: the longest run of the same moves
                      ///< on the paths from their last common ancestor to each
  kPieceId,      ///< number: kids: set of one occupied square -> its piece's identity
  kHhdbAward,    ///< number: the award in the Event tag (HHdb's "N.p", "N/M.hm", ".sp"...);
                 ///< sub: 0 award, 1 prize, 2 hm, 3 commendation; flags: 1 max, 2 special
  kMoveSquares,  ///< set: kids: a kMove (not legal, pseudolegal, count): the square of its move
                 ///< named by sub (1 from, 2 to, 3 capture): CQL 6.2's `move` as a set
  kMateKind,     ///< set: sub = 0 puremate, 1 modelmate: the participants of such a mate
                 ///< (either colour mated), empty when it is none
  // path and dashes (published examples): CQL 6.2's `path` / `⊢` (eval/cql6_path.h)
  kPathFilter,   ///< kids: focus set (kNone: none), max filter (kNone), then the constituents;
                 ///< flags PathFlag; lo..hi = range (kPathHasRange); text = title. Numeric (the
                 ///< longest path's moves, or its max), a position with `lastposition`
  kPathChain,    ///< a parenthesised group of constituents: kids
  kPathRepeat,   ///< kids: one constituent (a dash or a chain) repeated lo..hi times (hi -1: any)
  kPathCount,    ///< `pathcount`: moves of the path so far (inside it) or of the last path;
                 ///< sub 1: `pathcountunfocused`, the plies since the path's start minus those
  kPathStart,    ///< `pathstart`: position where the path (inside it) or the last path started
  kPathLastPosition,  ///< `pathlastposition`: the last path's end position
  kPathMax,      ///< `pathmax`: the best `max` value of the path
  kMovePrimary,  ///< `primary` / `secondary` (sub 1): the move that led here is (not) its
                 ///< position's first continuation
};

/// Direction bits of kDirection / kRay (index: up down right left NE NW SE SW).
enum Direction : uint8_t {
  kUp = 1, kDown = 2, kRight = 4, kLeft = 8, kNorthEast = 16, kNorthWest = 32, kSouthEast = 64, kSouthWest = 128,
  kVertical = kUp | kDown, kHorizontal = kLeft | kRight, kOrthogonal = kVertical | kHorizontal,
  kDiagonal = kNorthEast | kNorthWest | kSouthEast | kSouthWest, kAnyDirection = 255,
};

/// kPawns: which pawns.
enum class PawnSet : uint8_t { kPassed, kIsolated, kDoubled, kConnected, kBackward };

/// kElo / kHeaderText: whose.
enum class Side : uint8_t { kEither, kWhite, kBlack };

/// kHeaderText: which tag.
/// The header a kHeaderText / kHeaderValue reads; kTag: any tag by name (`tag "Name"`,
/// Node::text the name).
enum class HeaderTag : uint8_t { kPlayer, kWhite, kBlack, kEvent, kSite, kDate, kEco, kTag };

/// kCompare operators.
/// kPrecedes.. are CQL 6.2's `[<] [<=] [>] [>=]` (`≺ ≼ ≻ ≽`) of positions: s [<] t when s
/// comes before t and t descends from s (on the main line: s < t).
enum class Cmp : uint8_t { kLt, kLe, kEq, kGe, kGt, kNe, kPrecedes, kPrecedesEq, kSucceeds, kSucceedsEq };

/// kTransform kinds (CQL 6.2: each includes the identity except kReverseColor).
enum class TransformKind : uint8_t {
  kFlip, kFlipColor, kFlipVertical, kFlipHorizontal, kRotate90, kShift, kShiftHorizontal, kShiftVertical,
  kReverseColor, kRotate45,
};

/// Node::flags bits per kind.
enum MoveFlag : uint32_t {
  kMoveCastle = 1, kMoveEnPassant = 2, kMoveNull = 4, kMovePrevious = 8, kMoveLegal = 16,
  kMovePseudoLegal = 32, kMoveCount = 64, kMovePrimary = 128, kMoveSecondary = 256,
  kMoveKingSide = 512, kMoveQueenSide = 1024,  ///< `o-o` / `o-o-o`: castling on that side
  kMoveCountSquares = 2048,  ///< `countmoves legal --` (CQL 6.2): counts (from, to) pairs, a
                             ///< promotion once
};
enum DashFlag : uint32_t {
  kDashCapture = 1, kDashPromote = 2,
  kDashPromoteText = 4,  ///< `--=T` with a string T: kids[3] is the string (piece letters)
  kDashCount = 8,        ///< `countmoves --`: the number of moves that fit (numeric)
};
/// kPathFilter parameters (CQL 6.2 path-parse).
enum PathFlag : uint32_t {
  kPathNestBan = 1, kPathFirstMatch = 2, kPathPrimary = 4, kPathLastPos = 8, kPathKeepAllBest = 16,
  kPathVerbose = 32, kPathQuiet = 64, kPathPiecePath = 128, kPathFocusCapture = 256, kPathHasRange = 512,
};
enum LineFlag : uint32_t {
  kLineBackward = 1, kLineQuiet = 2, kLineSingleColor = 4, kLineHasRange = 8, kLineGroup = 16,
  kLineStateful = 32,  ///< set by the compiler: reads variables, so no memo across evaluations
  kLineLastPosition = 64,  ///< `line lastposition`: a position value, the line's last position
};
enum RayFlag : uint32_t { kXray = 1, kRayReturnFirst = 2 };  // kXray: attack rays only
enum DesignatorFlag : uint32_t { kNoTransform = 1 };  ///< kept as written under transforms
enum TransformFlag : uint32_t { kHasRange = 1 };  // also kFind's range
enum LoopFlag : uint32_t { kLoopAll = 2 };
enum FindFlag : uint32_t { kFindAll = 2, kFindBackward = 4 };
enum SortFlag : uint32_t { kSortMin = 1, kSortQuiet = 2 };  ///< kSortQuiet: no "title: value" comment
enum VarFlag : uint32_t { kVarPersistent = 1, kVarPiece = 2, kVarDictionary = 4 };
/// kEcho: set by the compiler when the body requires `s & t == .` (the same placement).
enum EchoFlag : uint32_t { kEchoSameBoard = 1 };
/// Kinds from kVar on are part 2's (eval/cql6_values.h evaluates them).
inline constexpr bool is_part2(Kind k) { return k >= Kind::kVar; }

/// One node of the AST.
struct Node {
  Kind kind = Kind::kTrue;
  Type type = Type::kBool;
  Loc loc;                     ///< where it starts in the script
  std::vector<Node> kids;
  Kinds kinds = 0;             ///< kDesignator; kDash: promotion kinds
  uint64_t squares = 0;        ///< kDesignator
  int64_t value = 0;           ///< kNumber; kResult: result code
  int64_t lo = 0, hi = -1;     ///< ranges (hi -1 = unbounded)
  uint8_t sub = 0;             ///< Direction bits / PawnSet / Side / HeaderTag / arith op / TransformKind
  uint32_t flags = 0;          ///< see the flag enums
  std::vector<Cmp> ops;        ///< kCompare
  std::string text;            ///< kHeaderText: the searched text; kDesignator: its spelling
};

/// True if the move filter `n` (kMove) names no square set: only the kind of move
/// (`castle`, `o-o`, `enpassant`, `nullmove`, `move previous castle`), not legal moves.
inline bool past_move_kind_only(const Node& n) {
  for (const Node& k : n.kids)
    if (k.kind != Kind::kNone) return false;
  return !(n.flags & (kMoveLegal | kMovePseudoLegal | kMoveCount));
}

/// The `cql(...)` header's parameters.
struct Header {
  std::optional<std::string> input;    ///< `input file` (ignored: the database is the input)
  std::optional<std::string> output;   ///< `output file`: the matched games as PGN
  int64_t matchcount_lo = 1;           ///< `matchcount m [n]`: positions that must match
  int64_t matchcount_hi = -1;          ///< -1 = unbounded
  bool variations = false;             ///< search variations too
  bool quiet = false;                  ///< no comments in the output
  bool silent = false;                 ///< no comments, no messages
  std::vector<Node> conditions;        ///< header filters given as parameters (result, player...)
  std::optional<std::string> matchstring;  ///< `matchstring "text"`: the mark of matched positions
  bool sort_matchcount = false;        ///< `sort matchcount m n`: games by matched positions, most first
  int64_t gamenumber_lo = 0;           ///< `gamenumber m n`: only games numbered m..n (their ids)
  int64_t gamenumber_hi = -1;          ///< -1 = no bound
  Loc loc;                             ///< of `cql`
};

/// A variable of a script (part 2, issue 37): its slot is its index in Script::vars.
struct Variable {
  std::string name;
  Type type = Type::kBool;       ///< kBool: not typed yet (never assigned)
  bool persistent = false;       ///< keeps its value from game to game (per query)
  bool piece = false;            ///< a piece loop variable: holds a piece identity
  bool dictionary = false;       ///< a dictionary: `type` is its values' type
  Type key_type = Type::kBool;   ///< a dictionary's key type
  Loc loc;                       ///< where it is first written
};

/// A parsed CQL 6 script: its header and its body (a compound of filters).
struct Script {
  Header header;
  std::vector<Node> body;
  std::vector<Variable> vars;  ///< part 2: the variables, by slot
  std::string sort_title;      ///< part 2: the first `sort`'s title ("" without one)
};

}  // namespace cql6
