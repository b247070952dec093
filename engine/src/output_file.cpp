// Atomic output files.
#include "lbmc/engine/output_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lbmc/engine/cluster.hpp"
#include "lbmc/engine/errors.hpp"

namespace lbmc::engine {
namespace {

void write_all(int fd, const std::string& content, const std::string& what) {
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw RuntimeFailure(fmt::format("cannot write {}: {}", what, std::strerror(errno)));
    }
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

OutputFile::OutputFile(std::string option, std::string path)
    : option_(std::move(option)), path_(std::move(path)) {
  if (path_.empty()) throw InputError(fmt::format("{}: empty file name", option_));
  // Under MPI rank 0 alone writes (cluster.hpp); the others' files discard.
  discard_ = !cluster::is_root();
  if (is_stdout() || discard_) return;
  struct stat info {};
  if (::stat(path_.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    if (!S_ISCHR(info.st_mode) && !S_ISFIFO(info.st_mode)) {
      throw InputError(fmt::format("{} '{}': not a regular file, character device or pipe", option_, path_));
    }
    if (::access(path_.c_str(), W_OK) != 0) {
      throw InputError(fmt::format("{} '{}': cannot write there ({})", option_, path_, std::strerror(errno)));
    }
    in_place_ = true;  // a device or pipe cannot be renamed over: written at commit
    return;
  }
  if (!temp_.create_beside(path_)) {
    throw InputError(fmt::format("{} '{}': cannot write there ({})", option_, path_, std::strerror(errno)));
  }
}

void OutputFile::commit(const std::string& content) {
  if (discard_) return;
  if (is_stdout()) {
    if (std::fwrite(content.data(), 1, content.size(), stdout) != content.size() || std::fflush(stdout) != 0) {
      throw RuntimeFailure("cannot write standard output");
    }
    return;
  }
  if (in_place_) {
    const int fd = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
    if (fd < 0) throw RuntimeFailure(fmt::format("cannot open {}: {}", path_, std::strerror(errno)));
    try {
      write_all(fd, content, path_);
    } catch (...) {
      ::close(fd);
      throw;
    }
    if (::close(fd) != 0) throw RuntimeFailure(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
    return;
  }
  write_all(temp_.fd(), content, path_);
  ::fchmod(temp_.fd(), 0644);
  if (!temp_.close()) throw RuntimeFailure(fmt::format("cannot write {}: {}", path_, std::strerror(errno)));
  if (!temp_.rename_over(path_)) {
    throw RuntimeFailure(fmt::format("cannot rename into {}: {}", path_, std::strerror(errno)));
  }
}

void write_file_atomically(const std::string& path, const std::string& content) {
  if (!cluster::is_root()) return;
  const std::filesystem::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) std::filesystem::create_directories(target.parent_path(), ec);
  if (ec) throw RuntimeFailure(fmt::format("cannot create {}: {}", target.parent_path().string(), ec.message()));
  OutputFile file("output", path);
  file.commit(content);
}

}  // namespace lbmc::engine
