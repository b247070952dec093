// Ctrl-C and termination: SIGINT or SIGTERM (what mpirun and batch
// schedulers send to stop a job) sets a flag that the replication driver checks
// between blocks; the driver then throws Interrupted, output files under
// construction are removed by their destructors, and the program exits 130.
//
// A replication whose length the user sets (one of 1e18 draws never ends)
// polls the flag every kInterruptPollSpan steps (PolledSpans) and abandons
// its block, which is then run again on resume. Should no block
// boundary be reached anyway within kInterruptGraceSeconds of the signal, or
// a second signal arrive, the process removes its registered temporary
// files, prints one line and exits 130 at once; the last checkpoint written
// stays as it was.
//
// A process embedding lbmc (embedding.hpp) keeps its own signal handlers and
// stops one command by its embedding's flag instead, which is seen wherever
// the signal's flag is.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace lbmc::engine {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

inline constexpr unsigned kInterruptGraceSeconds = 30;

//! Installs the SIGINT and SIGTERM handlers (idempotent; the grace-period
//! alarm's handler is installed by the first signal), and ignores SIGXFSZ so that a write past the file size limit fails like a
//! full disk.
void install_interrupt_handler();
//! True once SIGINT or SIGTERM has been received, or the embedding in scope
//! asks for a stop.
bool interrupt_requested() noexcept;

//! Steps of a long replication between two looks at the flag: about a
//! millisecond of draws, and a negligible cost per step.
inline constexpr std::int64_t kInterruptPollSpan = std::int64_t{1} << 20;

//! Throws Interrupted when interrupt_requested().
void throw_if_interrupted();

//! The spans of a loop inside one replication whose length the user sets,
//! with a look for a stop (Interrupted) between two spans:
//!   for (PolledSpans s(count); s.next();)
//!     for (std::int64_t i = s.first; i < s.last; ++i) ...
//! A count within one span is one span and no look. A plain object rather
//! than a callback: the loop stays the kernel's own code.
class PolledSpans {
 public:
  explicit PolledSpans(std::int64_t count) : count_(count) {}
  //! Moves to the next span (first, last); false when none is left.
  bool next() {
    if (last >= count_) return false;
    if (last > 0) throw_if_interrupted();
    first = last;
    last = std::min(count_, first + kInterruptPollSpan);
    return true;
  }
  std::int64_t first = 0;
  std::int64_t last = 0;

 private:
  std::int64_t count_;
};

//! Called by the driver when it stops at a block boundary after a signal:
//! ends the grace period (what follows, a final checkpoint and the exit, is
//! bounded by the run's size, not by a block).
void interrupt_reached_boundary() noexcept;

//! Records a temporary file that a forced stop must remove (from any thread;
//! registering a name before the file exists leaves none behind); returns
//! its slot (-1 when the path is too long or all 32 slots are taken: the
//! file is then left behind by a forced stop only).
int register_temporary_file(const std::string& path) noexcept;
//! Forgets a slot from register_temporary_file (renamed or removed); -1 is
//! ignored.
void unregister_temporary_file(int slot) noexcept;

}  // namespace lbmc::engine
