// Names and text of PGN diagnostics (see pgn_diagnostic.h).
#include "import/pgn_diagnostic.h"

namespace import {

const char* issue_name(PgnIssue issue) {
  switch (issue) {
    case PgnIssue::kControlBytes:
      return "control bytes";
    case PgnIssue::kTagSyntax:
      return "tag syntax";
    case PgnIssue::kUnterminatedComment:
      return "unterminated comment";
    case PgnIssue::kUnbalancedParenthesis:
      return "unbalanced parenthesis";
    case PgnIssue::kUnexpectedCharacter:
      return "unexpected character";
    case PgnIssue::kMissingResult:
      return "missing result";
    case PgnIssue::kTextAfterResult:
      return "text after result";
    case PgnIssue::kBadNag:
      return "bad NAG";
    case PgnIssue::kEmptyGame:
      return "empty game";
    case PgnIssue::kNonstandardToken:
      return "non-standard token";
    case PgnIssue::kBlankLineInTags:
      return "blank line in tags";
    case PgnIssue::kNotATag:
      return "bracket line without a tag";
    case PgnIssue::kUnknownSymbol:
      return "unknown symbol";
    case PgnIssue::kResultFromMovetext:
      return "result taken from the movetext";
    case PgnIssue::kResultTagKept:
      return "result tag kept over the movetext";
    case PgnIssue::kCastlingDropped:
      return "castling rights dropped";
  }
  return "unknown";
}

bool is_repair(PgnIssue issue) {
  switch (issue) {
    case PgnIssue::kTagSyntax:
    case PgnIssue::kNonstandardToken:
    case PgnIssue::kBlankLineInTags:
    case PgnIssue::kNotATag:
    case PgnIssue::kUnknownSymbol:
    case PgnIssue::kResultFromMovetext:
    case PgnIssue::kResultTagKept:
    case PgnIssue::kCastlingDropped:
      return true;
    default:
      return false;
  }
}

bool is_repair_name(std::string_view name) {
  for (int i = 0; i <= int(PgnIssue::kCastlingDropped); ++i) {
    if (is_repair(PgnIssue(i)) && name == issue_name(PgnIssue(i))) return true;
  }
  return false;
}

std::string PgnDiagnostic::to_string() const {
  std::string text = "line " + std::to_string(line);
  text += severity == PgnSeverity::kError ? ": error: " : ": warning: ";
  text += message.empty() ? issue_name(issue) : message;
  return text;
}

}  // namespace import
