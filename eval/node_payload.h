// The typed per-family payloads of a compiled node (eval::Node::payload, issue 15): the
// constant data one keyword family needs besides its designators (`Node::d`), its range
// (`Node::range`) and its sub-lists (`Node::lists`). Each op reads exactly one payload type,
// named in the Op comments of eval/node.h; Node::as<T>() asserts the kind in debug builds
// and costs one index test in release builds (no allocation per position).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "chess/position.h"
#include "eval/int_range.h"

namespace eval {

struct PawnCountSpec;  // eval/pawn_structure.h
struct LineSpec;       // eval/line.h
}  // namespace eval

namespace cql6 {
struct Node;  // cql6/ast.h
}  // namespace cql6

namespace eval {

namespace payload {

/// The ops that need nothing besides designators, range and sub-lists.
struct None {
  std::string key() const { return ""; }
};

/// kCastling (rights held), kIsCastling (rights the next castling uses): a chess::CastlingRight
/// bit set (chess/types.h).
struct Castling {
  uint8_t rights = 0;
  std::string key() const { return "c" + std::to_string(rights); }
};

/// kCannotWin: the side that cannot win.
struct Side {
  chess::Color color = chess::WHITE;
  std::string key() const { return "s" + std::to_string(int(color)); }
};

/// kHalfmoveClockLimit: the largest half-move clock allowed.
struct ClockLimit {
  int64_t max_clock = 0;
  std::string key() const { return "h" + std::to_string(max_clock); }
};

/// kRepetition: the occurrence count the position must reach (3 or 5).
struct Occurrences {
  uint32_t count = 0;
  std::string key() const { return "o" + std::to_string(count); }
};

/// kPowerDifference / kPieceCountDifference with one designator: true when the colours are
/// swapped (black - white instead of white - black).
struct ColorsSwapped {
  bool swapped = false;
  std::string key() const { return swapped ? "x1" : "x0"; }
};

/// kRay: which ray keyword (index into the ray filters of eval/node.cpp: 0 :ray,
/// 1 :rayattack, 2 :raydiagonal, 3 :rayorthogonal, 4 :rayhorizontal, 5 :rayvertical).
struct RayKind {
  static constexpr uint8_t kCount = 6;
  uint8_t filter = 0;
  std::string key() const { return "r" + std::to_string(filter); }
};

/// kResult: bit set over db::ResultCode (bit r: result code r matches).
struct ResultSet {
  uint8_t codes = 0;
  std::string key() const { return "R" + std::to_string(codes); }
};

/// kNextFact: the next_fact bits (eval/lookahead.h) of which the next move must produce one.
struct NextFacts {
  uint8_t bits = 0;
  std::string key() const { return "n" + std::to_string(bits); }
};

/// kCheckCount: the ranges of checks White and Black received so far (index chess::Color of
/// the side in check); `at_reach`: only where that count was reached (the start, or after a
/// check; the `+n+m` form).
struct CheckCounts {
  IntRange received[2];
  bool at_reach = false;
  std::string key() const {
    return "k" + received[0].key() + "#" + received[1].key() + (at_reach ? "+" : "");
  }
};

/// kStartPosition: the Shuffle Chess numbers (eval/start_position.h) the game's start may have.
struct StartNumbers {
  std::vector<IntRange> numbers;
  std::string key() const {
    std::string s = "p";
    for (const IntRange& r : numbers) s += "#" + r.key();
    return s;
  }
};

/// kVariant: bit 1 standard start rules (no variant tag), bit 2 the chess960 tag.
struct VariantRules {
  uint8_t bits = 0;
  std::string key() const { return "v" + std::to_string(bits); }
};

/// kSequence / kLineTable: the sequence id (Program::sequences(), eval/sequence.h).
struct SequenceId {
  uint32_t id = 0;
  std::string key() const { return "q" + std::to_string(id); }
};

/// kControl: the control bits (eval/control.h) of a :cut / :exclude with an argument.
struct ControlBits {
  uint8_t bits = 0;
  std::string key() const { return "C" + std::to_string(bits); }
};

/// kAccumulate / kSumRange: the counter index (eval/accumulator.h).
struct Counter {
  uint32_t index = 0;
  std::string key() const { return "a" + std::to_string(index); }
};

/// kRelation: the relation id (eval/relation.h).
struct RelationId {
  uint32_t id = 0;
  std::string key() const { return "L" + std::to_string(id); }
};

/// kTagMatch: the tag number (Program::tags(), 0 or 1; CQL-Tagging).
struct TagNumber {
  uint8_t tag = 0;
  std::string key() const { return "t" + std::to_string(tag); }
};

/// kEndgameEvaluation (analysis/tablebase.h): the outcome (cql::EndgameOutcome, already
/// colour-swapped), the `*` form, and the total piece counts some table holds (a position
/// outside them is never probed). The node's range is the distance to mate in plies.
struct TablebaseProbe {
  uint8_t outcome = 0;
  bool star = false;
  IntRange table_pieces;
  std::string key() const {
    return "e" + std::to_string(outcome) + (star ? "*" : "") + "#" + table_pieces.key();
  }
};

/// kExchangeEvaluation: the plies the exchange may last (0 = unlimited).
struct ExchangeDepth {
  int max_plies = 0;
  std::string key() const { return "X" + std::to_string(max_plies); }
};

/// kEvaluation / kMoveEvaluation: EngineQuery::pack() (eval/analysis_keywords.h).
struct EngineQueryBits {
  int64_t packed = 0;
  std::string key() const { return "E" + std::to_string(packed); }
};

/// kFen: the position to compare with.
struct FenPosition {
  std::shared_ptr<const chess::Position> position;
  std::string key() const { return position->fen(); }
};

/// kPawnCount, kPawnCountDifference, kGoodBishop, kUnstoppablePawns: the filter chain and
/// ranges (eval/pawn_structure.h). A keyword item's variants share their spec up to the
/// colour swap, so the canonical form records only that.
struct PawnSpec {
  std::shared_ptr<const PawnCountSpec> spec;
  std::string key() const;  // "~" swapped, "=" not; defined in eval/pawn_structure.cpp
};

/// kLine: the compiled move line (eval/line.h).
struct Line {
  std::shared_ptr<const LineSpec> spec;
  std::string key() const;  // LineSpec::canonical(); defined in eval/line.cpp
};

/// kCql6: a CQL 6 filter with its transforms expanded (eval/compile_cql6.cpp).
struct Cql6 {
  std::shared_ptr<const cql6::Node> filter;
  std::string key() const;  // unique per compiled filter; defined in eval/compile_cql6.cpp
};

}  // namespace payload

/// One node's payload: the alternative is chosen by the op (see Op in eval/node.h).
using NodePayload =
    std::variant<payload::None, payload::Castling, payload::Side, payload::ClockLimit,
                 payload::Occurrences, payload::ColorsSwapped, payload::RayKind,
                 payload::ResultSet, payload::NextFacts, payload::CheckCounts,
                 payload::StartNumbers, payload::VariantRules, payload::SequenceId,
                 payload::ControlBits, payload::Counter, payload::RelationId,
                 payload::TagNumber, payload::TablebaseProbe, payload::ExchangeDepth,
                 payload::EngineQueryBits, payload::FenPosition, payload::PawnSpec,
                 payload::Line, payload::Cql6>;

/// The canonical text of a payload (ListCompiler::canonical): equal texts = equal payloads.
inline std::string payload_key(const NodePayload& p) {
  return std::visit([](const auto& v) { return v.key(); }, p);
}

}  // namespace eval
