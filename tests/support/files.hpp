// What the tests that run the lbmc binary share: a scratch folder per test
// file and process, a file's bytes, a shell command's exit code, and a
// command's exit code with what it wrote.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace lbmc::test {

//! temp/lbmc_<name>_<pid>, created on first use.
inline std::filesystem::path scratch_folder(const std::string& name) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lbmc_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

//! The bytes of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

//! The exit code of `bash -c 'command'` (-1 when it did not exit).
inline int shell(const std::string& command) {
  const int status = std::system(("bash -c '" + command + "'").c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

//! A command's exit code (-1 when it did not exit) and its two streams.
struct Captured {
  int code;
  std::string out;
  std::string err;
};

//! Runs `command` through the shell, its stdout and stderr caught in files
//! of `scratch`.
inline Captured run_captured(const std::string& command, const std::filesystem::path& scratch) {
  const std::filesystem::path out = scratch / "stdout.txt";
  const std::filesystem::path err = scratch / "stderr.txt";
  const int status = std::system((command + " >" + out.string() + " 2>" + err.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
}

#ifdef LBMC_BINARY
//! Runs the lbmc binary with `args` (a shell word list) in a scratch folder
//! of its own: run("maxload --n 4").
struct LbmcRunner {
  std::filesystem::path scratch;
  Captured operator()(const std::string& args) const {
    return run_captured(std::string(LBMC_BINARY) + " " + args, scratch);
  }
};
#endif

}  // namespace lbmc::test
