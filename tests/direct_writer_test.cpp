// Writes past the page cache (engine/direct_writer.hpp): the file holds the
// bytes put, in order, whatever their pieces and length, on a file system
// that takes O_DIRECT and on one that may not (/dev/shm); a failed write is
// reported.
#include <doctest/doctest.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "lbmc/engine/direct_writer.hpp"
#include "support/files.hpp"

namespace direct_writer_test {

namespace fs = std::filesystem;
using lbmc::engine::DirectWriter;

namespace {

// Writes `size` bytes in pieces of `piece` bytes to `path`; true when the
// file then holds them.
bool written(const fs::path& path, std::size_t size, std::size_t piece) {
  std::vector<std::byte> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::byte>((i * 131 + i / 4099) & 0xff);
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  {
    DirectWriter out(fd);
    for (std::size_t at = 0; at < size; at += piece) {
      REQUIRE(out.put(std::span<const std::byte>(bytes).subspan(at, std::min(piece, size - at))));
    }
    REQUIRE(out.finish());
  }
  ::close(fd);
  return lbmc::test::slurp(path) == std::string(reinterpret_cast<const char*>(bytes.data()), size);
}

}  // namespace

TEST_SUITE("fast") {
  TEST_CASE("direct writer: the file holds the bytes put - any length - any pieces - with or without O_DIRECT") {
    std::vector<fs::path> folders{lbmc::test::scratch_folder("direct_writer_test")};
    if (fs::is_directory("/dev/shm")) folders.push_back("/dev/shm");
    constexpr std::size_t MiB = std::size_t{1} << 20;
    for (const fs::path& folder : folders) {
      const fs::path path = folder / ("lbmc_direct_writer_" + std::to_string(::getpid()));
      for (const std::size_t size : {std::size_t{0}, std::size_t{1}, std::size_t{4095}, std::size_t{4096},
                                     std::size_t{4097}, 4 * MiB - 1, 4 * MiB, 4 * MiB + 1, 9 * MiB + 123}) {
        for (const std::size_t piece : {std::size_t{7}, std::size_t{65536}, 5 * MiB}) {
          CAPTURE(folder);
          CAPTURE(size);
          CAPTURE(piece);
          CHECK(written(path, size, piece));
        }
      }
      fs::remove(path);
    }
  }

  TEST_CASE("direct writer: a write that fails is reported with its errno") {
    const fs::path path = lbmc::test::scratch_folder("direct_writer_test") / "read_only";
    ::close(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    DirectWriter out(fd);
    const std::vector<std::byte> bytes(5 << 20, std::byte{1});
    CHECK_FALSE(out.put(bytes));
    CHECK(errno == EBADF);
    ::close(fd);
  }
}

}  // namespace direct_writer_test
