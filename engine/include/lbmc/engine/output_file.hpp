// Output files that appear whole or not at all.
//
// The constructor creates a temporary file beside the target
// (temporary_file.hpp; so an unwritable path is reported before any work is
// done); commit() writes the content and renames it over the target. Until
// then the target is neither created nor truncated, and a destroyed,
// uncommitted file removes its temporary. The path "-" means standard
// output; an existing character device or pipe (/dev/null, a FIFO) is
// written in place at commit. Under MPI only rank 0's files are written;
// the other ranks' discard their content.
#pragma once

#include <string>

#include "lbmc/engine/temporary_file.hpp"

namespace lbmc::engine {

class OutputFile {
 public:
  //! Throws InputError naming `option` and the path when it cannot be written.
  OutputFile(std::string option, std::string path);
  OutputFile(OutputFile&&) noexcept = default;
  OutputFile& operator=(OutputFile&&) = delete;

  bool is_stdout() const noexcept { return path_ == "-"; }
  const std::string& path() const noexcept { return path_; }
  //! Writes everything and renames into place; throws RuntimeFailure on I/O errors.
  void commit(const std::string& content);

 private:
  std::string option_;
  std::string path_;
  TemporaryFile temp_;  // beside the target, renamed over it at commit
  bool discard_ = false;
  bool in_place_ = false;
};

//! Creates the directories of `path`'s parent and writes `content` atomically
//! (used for results/ files, where parents may not exist yet).
void write_file_atomically(const std::string& path, const std::string& content);

}  // namespace lbmc::engine
