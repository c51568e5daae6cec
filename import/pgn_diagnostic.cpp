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
  }
  return "unknown";
}

std::string PgnDiagnostic::to_string() const {
  std::string text = "line " + std::to_string(line);
  text += severity == PgnSeverity::kError ? ": error: " : ": warning: ";
  text += message.empty() ? issue_name(issue) : message;
  return text;
}

}  // namespace import
