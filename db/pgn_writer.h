// Writing stored games back as PGN: the header from headers.sqlite and the movetext rebuilt
// from the game record (moves in SAN, variations, comments and NAGs).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "db/game_header.h"
#include "db/record_view.h"

namespace db {

/// What to add while writing a game.
struct PgnWriteOptions {
  /// Main-line plies (0 = start position, ascending) to mark with a `{MATCH}` comment after
  /// the move that led to the position, or before the first move for ply 0 (SPEC Output).
  std::span<const uint32_t> match_plies;
  /// Positions inside variations to mark the same way, as ply paths `[p0, v0, ..., pk]`
  /// (eval/match_location.h: main-line ply of the branch, number of the variation among those
  /// of that move, ply inside it, ...; any order). Ply 0 of a variation (its branch
  /// position) is marked right after its "(".
  std::span<const std::vector<uint32_t>> match_variation_plies;
  /// Comments on main-line plies, ascending by ply: `{text}` after the move that led to the
  /// position, before its `{MATCH}` (ply 0: before the first move). CQL 6 `comment` and
  /// `sort` (issue 37).
  std::span<const std::pair<uint32_t, std::string>> ply_comments;
  /// Comments on positions inside variations, by ply path (as match_variation_plies; any
  /// order, several on one path in their order here): `{text}` after the move that led to the
  /// position, before its mark; at a variation's ply 0, right after its "(".
  std::span<const std::pair<std::vector<uint32_t>, std::string>> variation_comments;
  /// Tags written after the game's others, replacing a tag of the same name (CQL 6 `settag`).
  std::span<const std::pair<std::string, std::string>> extra_tags;
  /// Maximum line length of the movetext (PGN export format: 80).
  size_t line_width = 80;
  /// The text of the comment marking a matched position; empty: matched positions are not
  /// marked (a CQL 6 script's `quiet`).
  std::string_view match_text = "MATCH";
  /// CQL 6.2's layout of its marks (SPEC-NOTES "CQL 6 scripts: decisions", Output): a mark
  /// joins the game's comment at the same place instead of being a comment of its own: after
  /// a move, after its NAGs, as "COMMENT MARK"; at the start, `start_text` (when not empty)
  /// joins the game's first comment as "COMMENT START MARK" (each part only when present).
  bool join_marks = false;
  /// With join_marks: the text that opens the movetext (CQL 6.2's "Game number N").
  std::string start_text;
};

/// Appends game `header` + `record` to `out` as PGN in export format: the seven-tag roster,
/// then WhiteElo, BlackElo, ECO, Variant when present, the other tags in their original
/// order, FEN (with SetUp), a blank line, the movetext wrapped at `line_width` with the
/// result, and a blank line. Throws CorruptRecord when a stored move is illegal on its board
/// (a damaged database), never writes a wrong move.
void write_pgn(const GameHeader& header, const RecordView& record, std::string& out,
               const PgnWriteOptions& options = {});

}  // namespace db
