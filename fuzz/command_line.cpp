// Fuzz target: the whole command line, parsed and checked in process without
// running (exp::run_cli with CliMode::check_only).
//
// Design note
// - Input: the arguments, separated by NUL or newline bytes; "lbmc" is
//   prepended as argv[0]. Every command (maxload, maxshift, assign, scatter,
//   dynamic, rebalance, reproduce, validate) is reachable, with its options.
// - Contract of check-only mode: run_cli returns 0 (the options are valid:
//   the command stopped where it would open its files and start working) or
//   2 (bad usage or input, one line on stderr). A return of 3 means some
//   option reached code that failed with an internal error instead of being
//   refused as input, and is a finding (abort), as is an exception escaping
//   run_cli, a call to exit (libFuzzer reports it), and any file created:
//   the target runs in an empty scratch folder, which must stay empty.
// - Output: lbmc writes help texts to stdout and one line per rejected input
//   to stderr. stdout goes to /dev/null here; scripts/fuzz.sh passes
//   -close_fd_mask=3 so that stderr does too, while libFuzzer and the
//   sanitizers keep reporting on a duplicate of it.
#include <dirent.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "lbmc/exp/command.hpp"

namespace {

// True when the current folder holds nothing but . and ..
bool folder_empty() {
  DIR* dir = ::opendir(".");
  if (dir == nullptr) return false;
  bool empty = true;
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") empty = false;
  }
  ::closedir(dir);
  return empty;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* /*argc*/, char*** /*argv*/) {
  if (std::freopen("/dev/null", "w", stdout) == nullptr) std::abort();
  const auto scratch = std::filesystem::temp_directory_path() / ("lbmc_fuzz_command_line_" + std::to_string(::getpid()));
  std::filesystem::create_directories(scratch);
  std::filesystem::current_path(scratch);
  if (!folder_empty()) std::abort();
  static const std::filesystem::path removed_at_exit = scratch;
  std::atexit([] {
    std::error_code ignored;
    std::filesystem::remove_all(removed_at_exit, ignored);
  });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"lbmc"};
  std::string arg;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\0' || c == '\n') {
      args.push_back(arg);
      arg.clear();
    } else {
      arg += c;
    }
  }
  if (!arg.empty()) args.push_back(arg);
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  argv.push_back(nullptr);
  const int code = lbmc::exp::run_cli(static_cast<int>(args.size()), argv.data(), lbmc::exp::CliMode::check_only);
  if (code != 0 && code != 2) std::abort();
  if (!folder_empty()) std::abort();
  return 0;
}
