// Progress line on stderr.
#include "lbmc/engine/progress.hpp"

#include <cstdio>

#include <fmt/format.h>
#include <unistd.h>

namespace lbmc::engine {

Progress::Progress(ProgressMode mode, std::string label)
    : enabled_((mode == ProgressMode::always ||
                (mode == ProgressMode::automatic && isatty(STDERR_FILENO) != 0)) &&
               (current_embedding() == nullptr || !current_embedding()->caller_draws_progress)),
      feed_(current_embedding() != nullptr ? &current_embedding()->progress : nullptr),
      label_(std::move(label)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {
  if (feed_ != nullptr) feed_->start(label_);
}

Progress::~Progress() { finish(); }

void Progress::update(std::int64_t done, std::int64_t planned) {
  if (feed_ != nullptr) feed_->update(done, planned);
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (drawn_ && now - last_ < std::chrono::milliseconds(200) && done < planned) return;
  last_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0.0;
  std::string line = planned > 0
                         ? fmt::format("\r{} {:5.1f}% {}/{} reps, {:.3g} reps/s", label_,
                                       100.0 * static_cast<double>(done) / static_cast<double>(planned),
                                       done, planned, rate)
                         : fmt::format("\r{} {} reps, {:.3g} reps/s", label_, done, rate);
  std::fputs(line.c_str(), stderr);
  std::fputs("\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = true;
}

void Progress::finish() {
  if (!drawn_) return;
  std::fputs("\r\x1b[K", stderr);
  std::fflush(stderr);
  drawn_ = false;
}

}  // namespace lbmc::engine
