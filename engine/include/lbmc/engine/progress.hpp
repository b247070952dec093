// Progress line on stderr: shown when stderr is a terminal (`auto`), always,
// or never; redrawn in place with a carriage return, at most a few times per
// second, and erased when the run ends. Under an embedding (embedding.hpp)
// every update also goes to its progress feed, whatever the mode.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "lbmc/engine/embedding.hpp"

namespace lbmc::engine {

enum class ProgressMode { automatic, always, never };

class Progress {
 public:
  Progress(ProgressMode mode, std::string label);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  //! Reports `done` replications out of `planned` (0 when open-ended).
  void update(std::int64_t done, std::int64_t planned);
  //! Clears the line.
  void finish();

 private:
  bool enabled_;
  ProgressFeed* feed_;
  bool drawn_ = false;
  std::string label_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace lbmc::engine
