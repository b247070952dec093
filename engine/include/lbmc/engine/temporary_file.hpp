// A temporary file beside a target, for writes that replace the target by
// a rename (output files, state files).
//
// Design note
// - The name is ".NAME.PID.K" beside the target NAME, for the first K < 100
//   not taken. It is registered with the interrupt handlers' registry
//   (interrupt.hpp) before the file is created (O_CREAT | O_EXCL, mode
//   0600), so that a forced stop at any instant removes every temporary
//   file the process made: none is left between its creation and its
//   registration.
// - Until renamed over its target, the file is closed, removed and
//   forgotten by the registry when the object is destroyed.
#pragma once

#include <string>

namespace lbmc::engine {

class TemporaryFile {
 public:
  TemporaryFile() = default;
  TemporaryFile(TemporaryFile&& other) noexcept;
  TemporaryFile& operator=(TemporaryFile&&) = delete;
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  ~TemporaryFile();

  //! Creates the file beside `target`; false, with errno set, when it
  //! cannot (EEXIST when 100 names are taken).
  bool create_beside(const std::string& target);
  //! The open descriptor (-1 before create_beside and after close).
  int fd() const noexcept { return fd_; }
  //! Closes the file; false, with errno set, when close fails.
  bool close();
  //! Closes the file if open and renames it over `target`; false, with
  //! errno set, on failure (the file is then still removed on destruction).
  bool rename_over(const std::string& target);

 private:
  std::string name_;
  int slot_ = -1;  // in interrupt.hpp's registry
  int fd_ = -1;
};

}  // namespace lbmc::engine
