// Run-state files on disk: written atomically and durably, and read.
//
// A write goes to a temporary file beside the target (temporary_file.hpp:
// registered for removal by a forced stop before it is created, so that no
// instant of a stop leaves one behind); it is flushed (fsync), renamed over
// the target, and the folder is flushed so that the rename reaches the disk
// too. The bytes skip the page cache where the file system allows
// (direct_writer.hpp). Until the rename the previous file is untouched; a
// failure removes the temporary file. Safe to call from a thread other than
// the simulating ones (checkpoint_writer.hpp): it touches nothing shared but
// the registry of temporary files, whose slots are atomic.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lbmc/engine/direct_writer.hpp"
#include "lbmc/engine/errors.hpp"
#include "lbmc/engine/run_state.hpp"
#include "lbmc/engine/temporary_file.hpp"

namespace lbmc::engine {

void write_run_state_file(const std::string& path, const EncodedRunState& encoded) {
  const auto failure = [&](const char* what) {
    return RuntimeFailure(fmt::format("cannot {} state file {}: {}", what, path, std::strerror(errno)));
  };
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.has_parent_path() ? target.parent_path() : ".";
  TemporaryFile temp;
  if (!temp.create_beside(path)) throw failure("write");
  DirectWriter out(temp.fd());
  for (const auto& piece : encoded.pieces) {
    if (!out.put(piece)) throw failure("write");
  }
  if (!out.put(run_state_checksum(encoded)) || !out.finish()) throw failure("write");
  ::fchmod(temp.fd(), 0644);
  if (::fsync(temp.fd()) != 0) throw failure("flush");
  if (!temp.close()) throw failure("write");
  if (!temp.rename_over(path)) throw failure("rename into");
  const int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
}

void write_run_state(const std::string& path, const RunState& state) {
  write_run_state_file(path, encode_run_state_pieces(state));
}

RunState read_run_state(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("state file '{}': cannot be read ({})", path, std::strerror(errno)));
  std::vector<char> raw((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<std::byte> bytes(raw.size());
  if (!raw.empty()) std::memcpy(bytes.data(), raw.data(), raw.size());
  return decode_run_state(bytes, path);
}

}  // namespace lbmc::engine
