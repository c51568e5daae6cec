// LineEditor: reading the shell's input lines at a terminal with libedit — line editing
// (emacs keys, ~/.editrc), history kept in a file across sessions, and Ctrl-C.
//
// Signals: the editor does not let libedit install signal handlers (EL_SIGNAL off). The
// process's SIGINT handler must set ShellState::cancel_flag(); while the editor waits for a
// key it notices the flag, clears it and abandons the line (read_line() returns
// kInterrupted). SIGWINCH (resize) and SIGCONT (back from Ctrl-Z) are handled by the
// editor while it exists.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

struct editline;  // libedit's EditLine (histedit.h), kept out of this header
struct history;   // libedit's History

namespace cli {

/// A libedit session on stdin/stdout. One per process at a time. Move-less, copy-less.
class LineEditor {
 public:
  /// What read_line() got.
  enum class Status {
    kLine,         ///< a line was entered
    kInterrupted,  ///< Ctrl-C: the line was abandoned
    kEof,          ///< Ctrl-D on an empty line, or the terminal went away
  };

  /// Starts libedit with `program` (for ~/.editrc rules) and loads the history from
  /// `history_file` (if it exists; empty = no history file).
  LineEditor(const char* program, std::string history_file);
  LineEditor(const LineEditor&) = delete;
  LineEditor& operator=(const LineEditor&) = delete;
  /// Restores the terminal and the previous SIGWINCH handler.
  ~LineEditor();

  /// Shows `prompt` and reads one line (without its newline) into `line`.
  Status read_line(const std::string& prompt, std::string& line);

  /// Appends `entry` (may hold newlines: a multi-line query is one entry) to the history and
  /// saves the history file. A file that cannot be written is reported once on stderr.
  void add_history(const std::string& entry);

  /// Tab completion: given the line up to the cursor, the full spellings of the word that
  /// ends at the cursor (the text after the last blank). One candidate is completed (with a
  /// blank after it unless it ends in '/'); several are completed to their common prefix,
  /// or listed when there is none to add.
  using Completer = std::function<std::vector<std::string>(std::string_view before_cursor)>;
  void set_completer(Completer completer) { completer_ = std::move(completer); }

  /// The history file to use: $CQLDB_HISTORY if set (empty = none), else ~/.cqldb_history.
  static std::string default_history_file();

 private:
  /// libedit callbacks (need the private members).
  static int get_char(editline* el, wchar_t* ch);
  static char* prompt_of(editline* el);
  static unsigned char on_interrupt(editline* el, int ch);
  static unsigned char on_complete(editline* el, int ch);

  editline* el_ = nullptr;
  struct history* history_ = nullptr;
  std::string history_file_;
  std::string prompt_;
  Completer completer_;
  bool interrupted_ = false;  // set by on_interrupt() during read_line()
  bool save_failed_ = false;  // the history file could not be written (reported once)
};

}  // namespace cli
