// Ctrl-C and termination: SIGINT or SIGTERM (what mpirun and batch
// schedulers send to stop a job) sets a flag that the replication driver checks
// between blocks; the driver then throws Interrupted, output files under
// construction are removed by their destructors, and the program exits 130.
#pragma once

#include <stdexcept>

namespace lbmc::engine {

class Interrupted : public std::runtime_error {
 public:
  Interrupted() : std::runtime_error("interrupted") {}
};

//! Installs the SIGINT and SIGTERM handler (idempotent), and ignores
//! SIGXFSZ so that a write past the file size limit fails like a full disk.
void install_interrupt_handler();
//! True once SIGINT or SIGTERM has been received.
bool interrupt_requested() noexcept;

}  // namespace lbmc::engine
