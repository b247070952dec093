// Writes past the page cache, with the page cache as the fallback.
#include "lbmc/engine/direct_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <new>

#include <fcntl.h>
#include <unistd.h>

namespace lbmc::engine {

void DirectWriter::Free::operator()(std::byte* p) const noexcept { std::free(p); }

DirectWriter::DirectWriter(int fd)
    : fd_(fd), buffer_(static_cast<std::byte*>(std::aligned_alloc(kBlock, kBuffer))) {
  if (!buffer_) throw std::bad_alloc();
#ifdef O_DIRECT
  const int flags = ::fcntl(fd_, F_GETFL);
  direct_ = flags >= 0 && ::fcntl(fd_, F_SETFL, flags | O_DIRECT) == 0;
#endif
}

void DirectWriter::go_buffered() noexcept {
#ifdef O_DIRECT
  const int flags = ::fcntl(fd_, F_GETFL);
  if (flags >= 0) ::fcntl(fd_, F_SETFL, flags & ~O_DIRECT);
#endif
  direct_ = false;
}

bool DirectWriter::write_out(std::span<const std::byte> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd_, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EINVAL && direct_) {
      go_buffered();  // a file system, or an offset after a short write, that refuses O_DIRECT
      continue;
    }
    if (n < 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool DirectWriter::put(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const std::size_t n = std::min(bytes.size(), kBuffer - used_);
    std::memcpy(buffer_.get() + used_, bytes.data(), n);
    used_ += n;
    bytes = bytes.subspan(n);
    if (used_ == kBuffer) {
      if (!write_out({buffer_.get(), kBuffer})) return false;
      used_ = 0;
    }
  }
  return true;
}

bool DirectWriter::finish() {
  const std::size_t whole = used_ / kBlock * kBlock;
  if (!write_out({buffer_.get(), whole})) return false;
  go_buffered();
  if (!write_out({buffer_.get() + whole, used_ - whole})) return false;
  used_ = 0;
  return true;
}

}  // namespace lbmc::engine
