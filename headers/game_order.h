// The orders of game lists (`cqldb query --sort`, the shell's `list ... sort by ...`), one
// parser and one implementation (HeaderStore::sort_ids, defined in game_order.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace headers {

/// What games are ordered by.
enum class SortKey {
  kId,     ///< game id, ascending
  kDate,   ///< date, oldest first (year, month, day; an unknown month or day sorts before
           ///< the known ones of its year: "1985.??.??" < "1985.01.01")
  kElo,    ///< strongest first: the average of both Elos, or the one known
  kWhite,  ///< White's name A-Z, ignoring case (byte order of the folded UTF-8)
  kBlack,  ///< Black's name A-Z
  kEvent,  ///< the event name A-Z
  kResult, ///< 1-0 first, then draws, then 0-1 (issue 19: the web page's result column)
  kEco,    ///< the ECO code A00-E99 (the classified code, else the [ECO] tag)
};

/// A key and its direction. `reversed` turns the natural direction above round (`-date`
/// newest first, `-elo` weakest first). Games without the value (no year, no Elo, an empty
/// name) come last in both directions; ties keep id order.
struct SortOrder {
  SortKey key = SortKey::kId;
  bool reversed = false;
};

/// Parses "date", "-date", "elo", "-elo", "white", "black", "event", "result", "eco", "id"
/// (and their `-` forms); nullopt for anything else.
std::optional<SortOrder> parse_sort_order(std::string_view text);

/// One game's sort value (HeaderStore::sort_entries): a number, or a name folded for
/// comparison; `has` false when the game has no value.
struct SortEntry {
  uint32_t id = 0;
  bool has = false;
  int64_t number = 0;
  std::u32string text;
};

/// Orders `entries` by `order` (values read by HeaderStore::sort_entries, possibly from
/// several databases with their ids made global: a sharded database, query/sharded.h).
void sort_entries(std::vector<SortEntry>& entries, SortOrder order);

/// The accepted names for help and errors: "date, elo, white, black, event, result, eco, id
/// (a leading - reverses)".
std::string_view sort_order_names();

}  // namespace headers
