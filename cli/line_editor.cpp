#include "cli/line_editor.h"

#include <histedit.h>
#include <poll.h>
#include <unistd.h>

#include <langinfo.h>
#include <atomic>
#include <cerrno>
#include <clocale>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cwchar>

#include "cli/shell_state.h"

namespace cli {

namespace {

std::atomic<bool> g_resized{false};    // SIGWINCH: the terminal changed size
std::atomic<bool> g_continued{false};  // SIGCONT: back from Ctrl-Z, the terminal was reset
struct sigaction g_previous_winch;
struct sigaction g_previous_cont;

extern "C" void on_winch(int) {
  g_resized.store(true);
}

extern "C" void on_cont(int) {
  g_continued.store(true);
}

/// libedit reads and writes wide characters through the C library's locale: make sure it
/// is a UTF-8 one (the environment's, else C.UTF-8), as the database's text is UTF-8.
void use_utf8_ctype() {
  std::setlocale(LC_CTYPE, "");
  const char* codeset = nl_langinfo(CODESET);
  if (codeset && (std::strcmp(codeset, "UTF-8") == 0 || std::strcmp(codeset, "utf8") == 0)) return;
  if (!std::setlocale(LC_CTYPE, "C.UTF-8")) std::setlocale(LC_CTYPE, "C.utf8");
}

}  // namespace

LineEditor::LineEditor(const char* program, std::string history_file)
    : history_file_(std::move(history_file)) {
  use_utf8_ctype();
  struct sigaction sa {};
  sa.sa_handler = on_winch;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGWINCH, &sa, &g_previous_winch);
  sa.sa_handler = on_cont;
  sigaction(SIGCONT, &sa, &g_previous_cont);

  HistEvent ev;
  history_ = history_init();
  ::history(history_, &ev, H_SETSIZE, 2000);
  ::history(history_, &ev, H_SETUNIQUE, 1);
  if (!history_file_.empty()) ::history(history_, &ev, H_LOAD, history_file_.c_str());

  el_ = el_init(program, stdin, stdout, stderr);
  el_set(el_, EL_CLIENTDATA, this);
  el_set(el_, EL_EDITOR, "emacs");
  el_set(el_, EL_SIGNAL, 0);
  el_set(el_, EL_HIST, ::history, history_);
  el_set(el_, EL_PROMPT, &LineEditor::prompt_of);
  el_set(el_, EL_GETCFN, &LineEditor::get_char);
  // el_wset, not el_set: libedit's narrow EL_ADDFN copies the name and help into wide
  // strings that el_end() never frees (LeakSanitizer, issue 14); the wide call keeps our
  // static strings.
  el_wset(el_, EL_ADDFN, L"cqldb-interrupt", L"Abandon the line (Ctrl-C)", &LineEditor::on_interrupt);
  el_set(el_, EL_BIND, "^C", "cqldb-interrupt", nullptr);
  el_set(el_, EL_BIND, "^R", "em-inc-search-prev", nullptr);
  el_wset(el_, EL_ADDFN, L"cqldb-complete", L"Complete the word", &LineEditor::on_complete);
  el_set(el_, EL_BIND, "^I", "cqldb-complete", nullptr);
  el_source(el_, nullptr);  // the user's ~/.editrc
}

LineEditor::~LineEditor() {
  el_end(el_);
  history_end(history_);
  sigaction(SIGWINCH, &g_previous_winch, nullptr);
  sigaction(SIGCONT, &g_previous_cont, nullptr);
}

std::string LineEditor::default_history_file() {
  if (const char* file = std::getenv("CQLDB_HISTORY")) return file;
  const char* home = std::getenv("HOME");
  return home && *home ? std::string(home) + "/.cqldb_history" : std::string();
}

char* LineEditor::prompt_of(editline* el) {
  LineEditor* self = nullptr;
  el_get(el, EL_CLIENTDATA, &self);
  return self->prompt_.data();
}

unsigned char LineEditor::on_interrupt(editline* el, int) {
  LineEditor* self = nullptr;
  el_get(el, EL_CLIENTDATA, &self);
  self->interrupted_ = true;
  // Show "^C" at the end of the abandoned text, then end the line as Enter does (which
  // moves the terminal below it); read_line() discards the text.
  const LineInfo* line = el_line(el);
  el_cursor(el, int(line->lastchar - line->cursor));
  el_insertstr(el, "^C");
  el_push(el, "\n");
  return CC_REFRESH;
}

unsigned char LineEditor::on_complete(editline* el, int) {
  LineEditor* self = nullptr;
  el_get(el, EL_CLIENTDATA, &self);
  if (!self->completer_) return CC_ERROR;
  const LineInfo* line = el_line(el);
  const std::string before(line->buffer, size_t(line->cursor - line->buffer));
  const size_t blank = before.find_last_of(" \t\n(");  // the word the completer completes
  const std::string word = before.substr(blank == std::string::npos ? 0 : blank + 1);
  const std::vector<std::string> candidates = self->completer_(before);
  if (candidates.empty()) return CC_ERROR;  // beep
  std::string common = candidates.front();
  for (const std::string& c : candidates) {
    size_t n = 0;
    while (n < common.size() && n < c.size() && common[n] == c[n]) ++n;
    common.resize(n);
  }
  if (common.size() > word.size() || candidates.size() == 1) {
    std::string insert = common.size() > word.size() ? common.substr(word.size()) : "";
    if (candidates.size() == 1 && (common.empty() || common.back() != '/')) insert += ' ';
    el_insertstr(el, insert.c_str());
    return CC_REFRESH;
  }
  std::string list = "\n";  // ambiguous: show the choices under the line
  for (const std::string& c : candidates) {
    const size_t slash = c.find_last_of('/', c.size() >= 2 ? c.size() - 2 : 0);
    list += (slash == std::string::npos ? c : c.substr(slash + 1)) + "  ";
  }
  std::fprintf(stdout, "%s\n", list.c_str());
  std::fflush(stdout);
  return CC_REDISPLAY;
}

int LineEditor::get_char(editline* el, wchar_t* ch) {
  std::mbstate_t state{};
  sigset_t watched, previous;
  sigemptyset(&watched);
  sigaddset(&watched, SIGINT);
  sigaddset(&watched, SIGWINCH);
  sigaddset(&watched, SIGCONT);
  for (;;) {
    // Check the flags with the signals blocked, then wait with them unblocked in one step
    // (ppoll), so a Ctrl-C between the check and the wait is not lost.
    sigprocmask(SIG_BLOCK, &watched, &previous);
    if (ShellState::cancel_flag().exchange(false)) {
      sigprocmask(SIG_SETMASK, &previous, nullptr);
      *ch = L'\003';  // bound to cqldb-interrupt
      return 1;
    }
    if (g_resized.exchange(false)) {
      sigprocmask(SIG_SETMASK, &previous, nullptr);
      el_resize(el);
      continue;
    }
    if (g_continued.exchange(false)) {  // the job shell restored its own terminal modes
      sigprocmask(SIG_SETMASK, &previous, nullptr);
      el_set(el, EL_PREP_TERM, 0);
      el_set(el, EL_PREP_TERM, 1);
      el_set(el, EL_REFRESH);
      continue;
    }
    sigset_t waiting = previous;
    sigdelset(&waiting, SIGINT);
    sigdelset(&waiting, SIGWINCH);
    sigdelset(&waiting, SIGCONT);
    pollfd input{STDIN_FILENO, POLLIN, 0};
    int ready = ppoll(&input, 1, nullptr, &waiting);
    int error = errno;
    sigprocmask(SIG_SETMASK, &previous, nullptr);
    if (ready < 0) {
      if (error == EINTR) continue;
      return -1;
    }
    char byte;
    ssize_t n = ::read(STDIN_FILENO, &byte, 1);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return -1;
    }
    wchar_t wc;
    size_t used = std::mbrtowc(&wc, &byte, 1, &state);
    if (used == size_t(-2)) continue;  // more bytes of this character to come
    if (used == size_t(-1)) {          // not valid in the locale: drop the byte
      state = {};
      continue;
    }
    *ch = wc;
    return 1;
  }
}

LineEditor::Status LineEditor::read_line(const std::string& prompt, std::string& line) {
  prompt_ = prompt;
  interrupted_ = false;
  int count = 0;
  const char* text = el_gets(el_, &count);
  if (interrupted_) {
    line.clear();
    return Status::kInterrupted;
  }
  if (!text || count <= 0) return Status::kEof;
  line.assign(text, size_t(count));
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return Status::kLine;
}

void LineEditor::add_history(const std::string& entry) {
  HistEvent ev;
  ::history(history_, &ev, H_ENTER, entry.c_str());
  if (history_file_.empty()) return;
  if (::history(history_, &ev, H_SAVE, history_file_.c_str()) < 0 && !save_failed_) {
    save_failed_ = true;
    std::fprintf(stderr, "warning: cannot write the history file %s\n", history_file_.c_str());
  }
}

}  // namespace cli
