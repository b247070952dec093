// Temporary files registered for removal before they exist.
#include "lbmc/engine/temporary_file.hpp"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <utility>

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include "lbmc/engine/interrupt.hpp"

namespace lbmc::engine {

TemporaryFile::TemporaryFile(TemporaryFile&& other) noexcept
    : name_(std::move(other.name_)), slot_(std::exchange(other.slot_, -1)), fd_(std::exchange(other.fd_, -1)) {
  other.name_.clear();
}

TemporaryFile::~TemporaryFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!name_.empty()) ::unlink(name_.c_str());
  unregister_temporary_file(slot_);
}

bool TemporaryFile::create_beside(const std::string& target) {
  const std::filesystem::path path(target);
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  for (int k = 0; k < 100; ++k) {
    std::string candidate = (dir / fmt::format(".{}.{}.{}", path.filename().string(), ::getpid(), k)).string();
    const int slot = register_temporary_file(candidate);
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd >= 0) {
      name_ = std::move(candidate);
      slot_ = slot;
      fd_ = fd;
      return true;
    }
    const int error = errno;
    unregister_temporary_file(slot);
    errno = error;
    if (error != EEXIST) return false;
  }
  return false;
}

bool TemporaryFile::close() {
  return fd_ < 0 || ::close(std::exchange(fd_, -1)) == 0;
}

bool TemporaryFile::rename_over(const std::string& target) {
  if (!close()) return false;
  if (std::rename(name_.c_str(), target.c_str()) != 0) return false;
  name_.clear();
  unregister_temporary_file(std::exchange(slot_, -1));
  return true;
}

}  // namespace lbmc::engine
