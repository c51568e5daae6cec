#include "common.h"

#include <filesystem>
#include <mutex>
#include <set>

namespace pycqldb {

PyObject* g_query_error = nullptr;
PyObject* g_database_error = nullptr;

[[noreturn]] void raise_database_error(const std::string& message) {
  PyErr_SetString(g_database_error, message.c_str());
  throw py::error_already_set();
}

namespace {

std::atomic<bool>* g_sigint_flag = nullptr;
std::atomic<bool> g_sigint_fired{false};

extern "C" void on_sigint(int) {
  g_sigint_fired.store(true);
  if (g_sigint_flag) g_sigint_flag->store(true);
}

std::mutex g_open_mutex;
std::set<std::string> g_open_dirs;

}  // namespace

SigintScope::SigintScope(std::atomic<bool>& flag) {
  if (PyThreadState_Get()->interp != PyInterpreterState_Main()) return;
  py::module_ threading = py::module_::import("threading");
  if (!threading.attr("current_thread")().is(threading.attr("main_thread")())) return;
  struct sigaction action {};
  action.sa_handler = on_sigint;
  sigemptyset(&action.sa_mask);
  g_sigint_flag = &flag;
  g_sigint_fired.store(false);
  installed_ = sigaction(SIGINT, &action, &previous_) == 0;
}

bool SigintScope::restore() {
  if (!installed_) return false;
  sigaction(SIGINT, &previous_, nullptr);
  g_sigint_flag = nullptr;
  installed_ = false;
  return g_sigint_fired.exchange(false);
}

void raise_if_interrupted(SigintScope& scope) {
  if (!scope.restore()) return;
  PyErr_SetInterrupt();
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
}

bool claim_directory(const std::string& path, std::string& key) {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
  key = ec ? path : p.string();
  std::lock_guard lock(g_open_mutex);
  return g_open_dirs.insert(key).second;
}

void release_directory(const std::string& key) {
  std::lock_guard lock(g_open_mutex);
  g_open_dirs.erase(key);
}

}  // namespace pycqldb
