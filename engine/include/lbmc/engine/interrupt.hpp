// Ctrl-C and termination: SIGINT or SIGTERM (what mpirun and batch
// schedulers send to stop a job) sets a flag that the replication driver checks
// between blocks; the driver then throws Interrupted, output files under
// construction are removed by their destructors, and the program exits 130.
//
// A block can be long (one replication of 1e18 draws never ends): if no
// block boundary is reached within kInterruptGraceSeconds of the signal, or
// a second signal arrives, the process removes its registered temporary
// files, prints one line and exits 130 at once; the last checkpoint written
// stays as it was.
#pragma once

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
//! True once SIGINT or SIGTERM has been received.
bool interrupt_requested() noexcept;
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
