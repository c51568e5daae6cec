// CQL 6 scripts, part 2 (issue 37): the expression layer of the CQL 6 evaluator. The part-2
// node kinds of cql6/ast.h (from Kind::kVar on: variables, dictionaries, loops, `while`,
// `find`, `echo`, positions and navigation, strings, `sort`, `comment`) are answered here;
// eval/cql6_eval.cpp hands them over from its match / squares / number and this file calls
// back into those for their operands. It is the same evaluator, not a second one.
//
// Values (SPEC-NOTES "CQL 6 scripts, part 2: decisions"):
//  - a variable holds a set (bitboard, bit s = square s, a1 = 0), a number (int64), a
//    position (its ply on the main line: positionid) or a string; a piece loop variable
//    holds a piece identity (its square at the start of the game + 1), read as the square
//    that piece stands on in the position asked (empty once captured);
//  - storage is per worker thread and per compiled script (Node::value of its kScript
//    root); non-persistent variables are unbound at each new game (begin_game()),
//    persistent ones keep their value for the whole query (one thread: Program::sequential);
//  - positions other than the current one are the main line's, replayed once per game from
//    the start position and the line's moves (Ctx::start / Ctx::moves).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cql6/ast.h"
#include "eval/cql6_eval.h"

namespace eval::cql6_values {

/// Marks the start of a new search on the calling thread (GameMatcher's constructor: one per
/// worker and search): every variable, persistent ones too, starts unbound.
void begin_search();

/// The serial of the calling thread's current search (begin_search()): a cache keyed by the
/// address of a compiled node is valid within one search only (a later query's node may reuse
/// the address).
uint64_t search_serial();

/// Marks the start of a new game on the calling thread (GameMatcher::match calls it): the
/// non-persistent variables of every script are unbound and the game's positions forgotten.
void begin_game();

/// What a CQL 6 script recorded for the output while the calling thread matched its last
/// game (reset by begin_game()).
struct GameOutput {
  bool has_sort = false;
  int64_t sort = 0;  ///< the largest (`sort min`: smallest) value a `sort` filter had
  /// Every sort of the script by its key (kSort's Node::value, Program::cql6_sort_keys()):
  /// its largest (`min`: smallest) value; sort (above) is key 0's
  std::vector<std::optional<int64_t>> sorts;
  /// Per key of `sorts`: the first `sort` filter with that key that had a value (its title
  /// and `quiet` flag name the key in the output comment)
  std::vector<const cql6::Node*> sort_nodes;
  /// `comment` texts by main-line ply (in evaluation order; every position, matched or not)
  std::vector<std::pair<uint32_t, std::string>> comments;
  /// `comment` texts at positions inside variations, by ply path (eval/match_location.h), in
  /// evaluation order; only those of the line being searched (begin_variation_line())
  std::vector<std::pair<std::vector<uint32_t>, std::string>> variation_comments;
  /// `comment` texts at game-tree nodes inside variations reached by a `path` / `line` from a
  /// main-line position (with `variations`): that main-line ply (kept when it matched), the
  /// node's ply path, the text
  std::vector<std::tuple<uint32_t, std::vector<uint32_t>, std::string>> tree_comments;
  std::vector<std::pair<std::string, std::string>> tags;  ///< `settag`: name, value (last wins)
};
const GameOutput& game_output();

/// A place in the calling thread's `comment` records (GameOutput's comments,
/// variation_comments and tree_comments): a path keeps only its best way's comments
/// (eval/cql6_path.cpp), as CQL 6.2 does.
struct CommentMark {
  size_t comments = 0, variation_comments = 0, tree_comments = 0;
};
/// The `comment` records made after a mark (a copy).
struct CommentSpan {
  std::vector<std::pair<uint32_t, std::string>> comments;
  std::vector<std::pair<std::vector<uint32_t>, std::string>> variation_comments;
  std::vector<std::tuple<uint32_t, std::vector<uint32_t>, std::string>> tree_comments;
};
CommentMark comment_mark();
/// Drops the records made after `m`.
void comment_rewind(const CommentMark& m);
/// `out` becomes a copy of the records made after `m`.
void comments_since(const CommentMark& m, CommentSpan& out);
/// Adds the records of `span` (after those made so far).
void add_comments(const CommentSpan& span);

/// Called by the variation search (eval/game_matcher.cpp) before it evaluates the positions
/// of one variation: the variation's serial (PosCtx::variation_serial), the ply path of its
/// branch position without the last ply (VariationWalker::line_path()) and that position's
/// ply from the game start. A `comment` at a position of that line is then recorded under
/// the path `path + [ply - first_ply]` (GameOutput::variation_comments).
void begin_variation_line(uint32_t serial, const std::vector<uint32_t>& path, uint32_t first_ply);

/// True if the part-2 filter `n` matches at `c` (a value: it has one; a set: non-empty).
bool match(const cql6::Node& n, const cql6_eval::Ctx& c);
/// The squares of the part-2 set filter `n` at `c` (0 when it has none).
uint64_t squares(const cql6::Node& n, const cql6_eval::Ctx& c);
/// The value of the part-2 numeric filter `n` (a position: its positionid; a set: its
/// size) at `c`; false when it has none.
bool number(const cql6::Node& n, const cql6_eval::Ctx& c, int64_t& out);
/// The string value of `n` (any type with a string value) at `c`; false when it has none.
bool string(const cql6::Node& n, const cql6_eval::Ctx& c, std::string& out);
/// The position value of `n` at `c` (its ply on the main line); false when it has none.
bool position(const cql6::Node& n, const cql6_eval::Ctx& c, int64_t& ply);

/// The game tree of a game searched with `variations` (CQL 6.2's positions: nodes numbered
/// depth first, the main continuation before the variations, so a node's subtree is the
/// numbers node..last_desc[node]); the vectors are by node and stay valid for the game.
struct TreeRef {
  const std::vector<std::vector<uint32_t>>* children = nullptr;  ///< in record order (first: main)
  const std::vector<uint32_t>* parent = nullptr;     ///< root: itself
  const std::vector<uint32_t>* last_desc = nullptr;  ///< its last descendant
  const std::vector<chess::Move>* in_move = nullptr;  ///< the move leading to it
  const std::vector<uint8_t>* secondary = nullptr;   ///< reached by a move that is not the first child
  const std::vector<chess::Position>* positions = nullptr;
};
/// True when `c`'s game is searched as a game tree (the script has `variations` and the game
/// has variations): `out` gets the tree and `node` c's node. False otherwise (a line).
bool tree_of(const cql6_eval::Ctx& c, TreeRef& out, int64_t& node);
/// The context of node `node` of `c`'s game tree (its `next` / `moves` follow the main
/// continuation); false when there is no tree or no such node.
bool tree_ctx(const cql6_eval::Ctx& c, int64_t node, cql6_eval::Ctx& out);
/// The context of the position before `c` (its parent in the game tree): false at the
/// game's first position or without the game's view. Piece variables read there find their
/// pieces where they stood then (`move previous from Piece`, CQL 6.2).
bool previous_ctx(const cql6_eval::Ctx& c, cql6_eval::Ctx& out);
/// True if `n` or a node below it reads a piece variable.
bool reads_piece_variable(const cql6::Node& n);

/// The game's year (header texts, GameInfo::text); false when unknown or not loaded.
bool year(const cql6_eval::Ctx& c, int64_t& out);
/// `player|event|site|date|eco "text"` answered from the header texts (case-sensitive
/// substring, as the SQL form); false when they are not loaded.
bool header_text(const cql6::Node& n, const cql6_eval::Ctx& c);

/// True if `n` or a node below it changes state when evaluated (assignment, unbind, loops
/// and echo binding their variables, `~~` setting its groups, sort, comment, settag).
bool has_side_effect(const cql6::Node& n);

/// True if `n` has no effect and leaves no state behind (no has_side_effect(), no `line` or
/// `path` below it, whose last length / count later filters read): evaluating it early, or
/// not at all, changes nothing another filter sees.
bool stateless(const cql6::Node& n);

/// The conjuncts of `body` in evaluation order: a compound's filters and `and`'s operands,
/// flattened (any other filter is its only conjunct).
void conjuncts(const cql6::Node& body, std::vector<const cql6::Node*>& out);

/// Throws cql6::Error at a `~~` whose literal pattern is not a valid regular expression.
void check_patterns(const cql6::Node& n);

}  // namespace eval::cql6_values
