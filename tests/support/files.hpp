// What the tests that run the lbmc binary share: a scratch folder per test
// file and process (removed, with what it holds, when the process exits), a
// file's bytes, a shell command's exit code, and a command's exit code with
// what it wrote.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <string>

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace lbmc::test {

//! The scratch folders this process made, removed when it exits.
class ScratchFolders {
 public:
  ScratchFolders() = default;
  ScratchFolders(const ScratchFolders&) = delete;
  ScratchFolders& operator=(const ScratchFolders&) = delete;
  ~ScratchFolders() {
    for (const std::filesystem::path& dir : made_) {
      std::error_code ignored;
      std::filesystem::remove_all(dir, ignored);
    }
  }
  void add(const std::filesystem::path& dir) {
    const std::lock_guard lock(mutex_);
    made_.insert(dir);
  }

 private:
  std::mutex mutex_;
  std::set<std::filesystem::path> made_;
};

//! temp/lbmc_<name>_<pid>, created on first use.
inline std::filesystem::path scratch_folder(const std::string& name) {
  static ScratchFolders folders;
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("lbmc_" + name + "_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  folders.add(dir);
  return dir;
}

//! The bytes of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

//! How many times `needle` occurs in `text` (overlapping ones included).
inline std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
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

//! Runs `args` at 1 and at 2 threads: both must exit 0 and print the same
//! bytes, which are returned.
inline std::string same_output_at_1_and_2_threads(const LbmcRunner& run, const std::string& args) {
  const Captured one = run(args + " --threads 1");
  const Captured two = run(args + " --threads 2");
  REQUIRE(one.code == 0);
  REQUIRE(two.code == 0);
  CHECK(one.out == two.out);
  return one.out;
}
#endif

}  // namespace lbmc::test
